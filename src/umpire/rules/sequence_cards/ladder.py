"""The seed 004 status ladder as data and small pure functions (seed 004 EFFECT).

"Effects are listed below from bad to worst": Stop < Shaken < Retreat < Lose < Route.
A status is a rung name, or "" for none.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from umpire.errors import DataFileError

DATA = Path(__file__).parent / "data"


@dataclass(frozen=True, slots=True)
class Ladder:
    """The numbers of seed 004's status effects (``data/rules.toml``)."""

    order: tuple[str, ...]
    words: dict[str, str]
    marker_from: str
    bands: tuple[tuple[int, str], ...]
    setbacks: dict[str, str]
    recovery: dict[str, str]
    first: str
    crossing_step: float
    engaged_from: str = "melee"

    def rank(self, status: str) -> int:
        """0 for none, 1 for Stop ... 5 for Route."""
        return self.order.index(status) + 1 if status else 0

    def at(self, rank: int) -> str:
        """The rung of a rank (0: none)."""
        return self.order[rank - 1] if rank else ""


def load(path: Path, raw: dict[str, Any] | None = None) -> Ladder:
    """Read a ladder data file (the shipped one, or a user's copy)."""
    try:
        if raw is None:
            raw = tomllib.loads(path.read_text(encoding="utf-8"))
        lad, seq = raw["ladder"], raw["sequence"]
        out = Ladder(
            tuple(lad["order"]),
            dict(lad["words"]),
            str(lad["marker_from"]),
            tuple((int(lo), str(s)) for lo, s in raw["fire"]["bands"]),
            {k: str(v) for k, v in raw["setbacks"].items()},
            {k: str(v) for k, v in raw["recovery"].items()},
            str(seq["first"]),
            float(seq["crossing_step"]),
            str(raw.get("engaged", {}).get("from", "melee")),
        )
    except tomllib.TOMLDecodeError as exc:
        raise DataFileError(f"bad TOML: {exc}", file=str(path)) from None
    except (KeyError, TypeError, ValueError) as exc:
        raise DataFileError(f"missing or malformed entry {exc}", file=str(path)) from None
    if out.engaged_from not in ("melee", "contact"):
        raise DataFileError(
            f"[engaged] from must be 'melee' or 'contact', not '{out.engaged_from}'", file=str(path)
        )
    known = set(out.order) | {""}
    for name in [s for _, s in out.bands] + list(out.setbacks.values()):
        if name not in known:
            raise DataFileError(f"unknown status '{name}'", file=str(path))
    return out


@cache
def ladder() -> Ladder:
    """The ladder (``data/rules.toml`` through the rules-data seam), loaded once."""
    from umpire.rules.data import read

    path = DATA / "rules.toml"
    return load(path, read(path))


def effect_for_margin(margin: int, lad: Ladder | None = None) -> str:
    """Default ``fire_margin_effects``: the rung a hit beaten by ``margin`` (>= 0) gives."""
    lad = lad or ladder()
    out = lad.bands[0][1]
    for low, status in lad.bands:
        if margin >= low:
            out = status
    return out


def escalate(prior: str, incoming: str, hit_this_turn: bool, lad: Ladder | None = None) -> str:
    """Seed 004 EFFECT, reading ``escalation``: the status after ``incoming`` on ``prior``.

    A second (or further) effect in one turn, or any effect on a unit already Retreated
    ("retreat", "lose") or Routed, gives the next worse than the worse of the two, up to
    Route; otherwise the worse of the two.
    """
    lad = lad or ladder()
    worse = max(lad.rank(prior), lad.rank(incoming))
    if hit_this_turn or prior in ("retreat", "lose", "route"):
        worse = min(len(lad.order), worse + 1)
    return lad.at(worse)


def counts_as_marker(status: str, lad: Ladder | None = None) -> bool:
    """Reading ``marker_from_shaken``: Shaken or worse counts as the host's Morale Marker."""
    lad = lad or ladder()
    return lad.rank(status) >= lad.rank(lad.marker_from)
