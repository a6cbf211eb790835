"""The game clock: turns by date and time of day, July 1-3 1863 (clock.toml, a default).

Times are minutes from July 1 00:00. Day turns are 20 minutes (05:00-19:40) and night
turns an hour; each game turn has one player turn per side in ``turn_order``.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from umpire.errors import DataFileError, UnknownNameError

DATA = Path(__file__).resolve().parent / "data"
_DATE = re.compile(r"^\s*july\s+(\d)(?:st|nd|rd|th)?\s*$", re.I)
_TIME = re.compile(r"^\s*(\d{1,2})(?::(\d{2}))?\s*(am|pm|a\.m\.|p\.m\.)?\s*$", re.I)


def parse_date(text: str) -> int:
    """``"July 2"`` -> 1 (days after July 1); UnknownNameError for other dates."""
    m = _DATE.match(text)
    if m is None or not 1 <= int(m.group(1)) <= 3:
        raise UnknownNameError(f"unknown date '{text}' (the battle runs July 1 to July 3)")
    return int(m.group(1)) - 1


def parse_time(text: str) -> int:
    """``"14:00"``, ``"2:00 PM"`` or ``"2 pm"`` -> minutes after midnight."""
    m = _TIME.match(text)
    if m is None:
        raise UnknownNameError(f"unknown time '{text}' (use HH:MM, e.g. 14:00, or 2:00 PM)")
    hour, minute = int(m.group(1)), int(m.group(2) or 0)
    half = (m.group(3) or "").lower().replace(".", "")
    if half:
        if not 1 <= hour <= 12:
            raise UnknownNameError(f"unknown time '{text}'")
        hour = hour % 12 + (12 if half == "pm" else 0)
    if hour > 23 or minute > 59:
        raise UnknownNameError(f"unknown time '{text}'")
    return hour * 60 + minute


def parse_stamp(text: str) -> int:
    """``"July 2 11:00"`` -> minutes from July 1 00:00."""
    parts = text.split()
    if len(parts) < 3:
        raise UnknownNameError(f"unknown time '{text}' (expected e.g. 'July 2 11:00')")
    return parse_date(" ".join(parts[:2])) * 1440 + parse_time(" ".join(parts[2:]))


def date_of(minute: int) -> str:
    """The calendar date of a time: ``"July 1"``."""
    return f"July {minute // 1440 + 1}"


def stamp(minute: int) -> str:
    """``"July 1 14:00"``."""
    tod = minute % 1440
    return f"{date_of(minute)} {tod // 60:02d}:{tod % 60:02d}"


@dataclass(frozen=True, slots=True)
class Clock:
    """The turns of the game and the player-turn order."""

    start: int
    end: int
    day_start: int
    day_end: int
    day_minutes: int
    night_minutes: int
    turn_order: tuple[str, str]

    @staticmethod
    def from_data(data: Mapping[str, Any], file: str = "clock.toml") -> Clock:
        """Build from the parsed clock.toml."""
        try:
            order = tuple(str(s) for s in data["turn_order"])
            if sorted(order) != ["confederate", "union"]:
                raise ValueError("turn_order must name confederate and union once each")
            return Clock(
                parse_stamp(str(data["start"])),
                parse_stamp(str(data["end"])),
                parse_time(str(data["day_start"])),
                parse_time(str(data["day_end"])),
                int(data["day_minutes"]),
                int(data["night_minutes"]),
                (order[0], order[1]),
            )
        except (KeyError, TypeError, ValueError, UnknownNameError) as exc:
            raise DataFileError(f"bad clock data: {exc}", file=file) from None

    @staticmethod
    def load(path: Path | None = None) -> dict[str, Any]:
        """The raw clock.toml data (built-in when ``path`` is None)."""
        p = path or DATA / "clock.toml"
        try:
            return tomllib.loads(p.read_text(encoding="utf-8"))
        except (tomllib.TOMLDecodeError, OSError) as exc:
            raise DataFileError(f"cannot read clock: {exc}", file=str(p)) from None

    def is_day(self, minute: int) -> bool:
        """A daylight turn (20-minute turns)."""
        return self.day_start <= minute % 1440 <= self.day_end

    def next_turn(self, minute: int) -> int:
        """The start of the game turn after the one at ``minute``."""
        return minute + (self.day_minutes if self.is_day(minute) else self.night_minutes)

    def turns(self) -> list[int]:
        """Every game turn from start to end."""
        out, t = [], self.start
        while t <= self.end:
            out.append(t)
            t = self.next_turn(t)
        return out

    def check(self, minute: int) -> int:
        """Refuse a time that is not the start of a game turn."""
        if minute not in set(self.turns()):
            raise UnknownNameError(
                f"{stamp(minute)} is not a game turn (turns run {stamp(self.start)} to "
                f"{stamp(self.end)}: {self.day_minutes} minutes by day, "
                f"{self.night_minutes} at night)"
            )
        return minute
