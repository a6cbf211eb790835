"""Battle scenarios: a TOML format validated with pydantic; every error names file:line.

A scenario holds the table, terrain, sides (posture), leaders, units, objectives,
victory conditions and the turn limit. The shipped scenarios live in
``umpire/data/scenarios/*.toml``. This package is the data model, below the tactical
engine; a scenario is loaded for play, checked against its rules, by
``umpire.battle.scenario.load_scenario`` (a path or a shipped name).
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from umpire.errors import DataFileError, UnknownNameError
from umpire.paths import exists

SHIPPED = Path(__file__).resolve().parent.parent / "data" / "scenarios"

MAX_UNITS = 400
"""Units in one scenario (the shipped ones have 20 to 32; a corps a side is about 200)."""
MAX_LEADERS = 200
"""Leaders in one scenario."""
MAX_TERRAIN = 200
"""Terrain features in one scenario (the shipped ones have up to 12)."""
MAX_POINTS = 256
"""Points of one terrain feature's outline or line."""
MAX_OBJECTIVES = 50
"""Objectives in one scenario."""
MAX_TABLE = 400
"""The longest side of the table in inches (about 10 m: 33 feet)."""
MAX_TEXT = 1_000_000
"""Characters in a scenario file (the shipped ones are under 12,000)."""


class _Strict(BaseModel):
    """Exactly the fields named; numbers finite (``inf``, ``nan`` and ``1e400`` are refused)."""

    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)


class Table(_Strict):
    """The table size in inches and the turn limit."""

    width: float = Field(gt=0, le=MAX_TABLE)
    height: float = Field(gt=0, le=MAX_TABLE)
    turns: int = Field(ge=1, le=100)


class PersonalitySpec(_Strict):
    """The AI's personality on a side (issue 23); unset fields take the labelled defaults
    of ``umpire/data/ai/personality.toml``."""

    attack: float | None = Field(default=None, ge=0, le=1)
    """P(a charge goes in) the AI needs before it charges (default 0.5)."""
    risk: float | None = Field(default=None, gt=0, le=10)
    """Expected stands lost the AI accepts per stand it expects to inflict (default 1)."""
    reserve: float | None = Field(default=None, ge=0, lt=1)
    """Fraction of the side's units held back while no enemy is near (default 0)."""


class SideSpec(_Strict):
    """How the AI plays a side: attack toward objectives or defend them, in its manner."""

    posture: Literal["attack", "defend"] = "attack"
    break_fraction: float = Field(default=0.5, gt=0, le=1)
    personality: PersonalitySpec | None = None


class TerrainSpec(_Strict):
    """One terrain feature."""

    kind: Literal["woods", "rough", "hill", "cover", "town", "wall", "stream"]
    name: str = ""
    points: list[tuple[float, float]] = Field(min_length=2, max_length=MAX_POINTS)
    level: int = Field(default=1, ge=1, le=10)
    variant: str = ""
    """A finer kind that a rule module may read (a wall's ``stone``, ``rail`` or ``worm``
    fence for seed 003); modules that do not know it see the plain kind."""

    @model_validator(mode="after")
    def _enough_points(self) -> TerrainSpec:
        if self.kind not in ("wall", "stream") and len(self.points) < 3:
            raise ValueError(f"a {self.kind} area needs at least 3 points")
        return self


class LeaderSpec(_Strict):
    """A leader; bonus and radius default to his side's (seed 002 LEADERS)."""

    id: str
    name: str = ""
    side: Literal["union", "confederate"]
    x: float
    y: float
    bonus: int | None = Field(default=None, ge=-3, le=6)
    radius: float | None = Field(default=None, gt=0, le=48)
    attached: str = ""
    division: str = ""


class UnitSpec(_Strict):
    """A unit: type, formation, stands, position, facing in degrees, its leader."""

    id: str
    name: str = ""
    side: Literal["union", "confederate"]
    type: Literal["foot", "cavalry", "artillery"]
    formation: str = "line"
    """``line`` or ``column``; the combat module may add its own (003: ``skirmish``)."""
    mounted: bool = False
    limbered: bool = False
    stands: int = Field(ge=1, le=30)
    x: float
    y: float
    facing: float = 0.0
    leader: str = ""
    rifles: bool = False
    card: str = ""


class ObjectiveSpec(_Strict):
    """A point to hold at the end of the battle."""

    name: str
    x: float
    y: float
    radius: float = Field(default=3.0, gt=0)
    points: int = Field(default=1, ge=0)


class RulesTable(_Strict):
    """The ``[rules]`` table: which module fills each role of the tactical engine.

    Module ids: ``quick-acw`` (seed 002), ``five-step`` and ``card-draw`` (004),
    ``solo-events`` (001). ``first`` is side A (who goes first: 004 "Side A"), and
    ``attacker`` the side seed 001's events call the attacker; ``cards`` groups units
    into the cards of seed 004's random movement.
    """

    sequence: str = "quick-acw"
    combat: str = "quick-acw"
    status: str = ""
    morale: str = ""
    """The module whose morale test the battle uses ("": the combat module's own)."""
    events: list[str] = Field(default_factory=list)
    first: Literal["union", "confederate"] | None = None
    attacker: Literal["union", "confederate"] | None = None
    cards: Literal["regiment", "brigade", "division"] = "brigade"
    options: dict[str, bool | int | float | str] = Field(default_factory=dict)
    """``[rules.options]``: options of the modules in use (``fog = 4`` for seed 003)."""


class VictorySpec(_Strict):
    """Who wins a tie on objectives at the turn limit."""

    tie: Literal["draw", "union", "confederate"] = "draw"


class Scenario(_Strict):
    """A whole scenario file."""

    name: str
    description: str = ""
    rules: str | RulesTable = "quick_acw"
    table: Table
    sides: dict[Literal["union", "confederate"], SideSpec] = Field(default_factory=dict)
    victory: VictorySpec = VictorySpec()
    terrain: list[TerrainSpec] = Field(default_factory=list, max_length=MAX_TERRAIN)
    leaders: list[LeaderSpec] = Field(default_factory=list, max_length=MAX_LEADERS)
    units: list[UnitSpec] = Field(min_length=1, max_length=MAX_UNITS)
    objectives: list[ObjectiveSpec] = Field(default_factory=list, max_length=MAX_OBJECTIVES)

    def to_json(self) -> dict[str, Any]:
        """The scenario as JSON for a saved game: only the fields it sets.

        Saves made before a field existed validate and dump back to the very same JSON,
        so their state hashes still verify.
        """
        out: dict[str, Any] = self.model_dump(mode="json", exclude_unset=True)
        return out


def locate(text: str, loc: tuple[Any, ...]) -> int | None:
    """The line of a pydantic error location such as ('units', 3, 'type') in TOML text."""
    lines = text.splitlines()
    start, end = 0, len(lines)
    parts = list(loc)
    if parts and isinstance(parts[0], str):
        key = parts.pop(0)
        if parts and isinstance(parts[0], int):
            idx = parts.pop(0)
            headers = [n for n, ln in enumerate(lines) if ln.strip() == f"[[{key}]]"]
            if idx < len(headers):
                start = headers[idx]
                end = next(
                    (n for n in range(start + 1, len(lines)) if lines[n].lstrip().startswith("[")),
                    len(lines),
                )
            elif headers:
                return headers[-1] + 1
        else:
            for n, ln in enumerate(lines):
                if re.match(rf"\s*\[{re.escape(key)}[.\]]", ln) or re.match(
                    rf"\s*{re.escape(key)}\s*=", ln
                ):
                    start = n
                    break
            else:
                return None
    for part in parts:
        if isinstance(part, str):
            for n in range(start, end):
                if re.match(rf"\s*{re.escape(part)}\s*=", lines[n]):
                    return n + 1
    return start + 1


def _line_of_item(text: str, key: str, index: int) -> int | None:
    return locate(text, (key, index))


_ENTRY = re.compile(r"^[ \t]*\[\[[ \t]*(units|leaders|terrain|objectives)[ \t]*\]\]", re.M)


def _most() -> dict[str, int]:
    """The limits on entries, by key."""
    return {
        "units": MAX_UNITS,
        "leaders": MAX_LEADERS,
        "terrain": MAX_TERRAIN,
        "objectives": MAX_OBJECTIVES,
    }


def _limit_message(key: str) -> str:
    most = _most()[key]
    return f"{key}: at most {most} {key} in a scenario (docs/scenarios.md, 'Limits')"


def _count_entries(text: str, file: str) -> None:
    """Refuse too many ``[[units]]`` (leaders, terrain, objectives) on the text, before the
    TOML is parsed (the model checks the same limits for entries written another way)."""
    seen: dict[str, int] = {}
    most = _most()
    for m in _ENTRY.finditer(text):
        key = m.group(1)
        seen[key] = seen.get(key, 0) + 1
        if seen[key] > most[key]:
            line = text.count("\n", 0, m.start()) + 1
            raise DataFileError(_limit_message(key), file=file, line=line)


def parse_scenario_unchecked(text: str, file: str = "<scenario>") -> Scenario:
    """Parse and validate scenario text as data; raise DataFileError naming file:line.

    Unchecked: the rules are not composed and the units not placed. A battle loads a
    scenario through ``umpire.battle.scenario.parse_scenario``/``load_scenario``, which
    call this and then check it against its rules (this package sits below ``battle``).

    The limits (``MAX_*``: docs/scenarios.md, "Limits") are checked on the text and the
    parsed values before anything is built from them.
    """
    if len(text) > MAX_TEXT:
        raise DataFileError(
            f"the file has {len(text):,} characters; a scenario has at most {MAX_TEXT:,}",
            file=file,
        )
    _count_entries(text, file)
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        m = re.search(r"line (\d+)", str(exc))
        raise DataFileError(
            f"bad TOML: {str(exc).split(' (at')[0]}",
            file=file,
            line=int(m.group(1)) if m else None,
        ) from None
    except RecursionError:
        raise DataFileError("bad TOML: arrays or tables nested too deeply", file=file) from None
    except ValueError as exc:  # an integer of more than 4,300 digits
        raise DataFileError(f"bad TOML: {str(exc).split(':')[0]}", file=file) from None
    try:
        scen = Scenario.model_validate(raw)
    except ValidationError as exc:
        errors = exc.errors()
        if isinstance(raw.get("rules"), dict):  # a [rules] table: report its own errors
            errors = [e for e in errors if e["loc"][:2] != ("rules", "str")] or errors
        err = errors[0]
        loc = tuple(p for p in err["loc"] if p != "RulesTable")
        if loc[:2] == ("rules", "options") and len(loc) > 3:  # which member of the union
            loc = loc[:3]
            err = {
                **err,
                "type": "option",
                "msg": "an option is true or false, a finite number or a string",
            }
        where = ".".join(str(p) for p in loc)
        msg = err["msg"]
        at = loc
        if err["type"] == "literal_error" and loc and loc[-1] == "type":
            msg = f"unknown unit type {err.get('input')!r}; {msg}"
        elif err["type"] == "too_long" and len(loc) == 1:
            most = int(err.get("ctx", {}).get("max_length", 0))
            msg = _limit_message(str(loc[0])).partition(": ")[2]
            at = (loc[0], most)  # the first entry past the limit
        elif err["type"] == "finite_number":
            msg = f"must be a finite number, not {err.get('input')!r}"
        raise DataFileError(f"{where}: {msg}", file=file, line=locate(text, at)) from None
    return scen


def shipped() -> list[str]:
    """The names of the shipped scenarios."""
    return sorted(p.stem for p in SHIPPED.glob("*.toml"))


def resolve_path(name_or_path: str) -> Path:
    """A scenario path from a path or a shipped name."""
    p = Path(name_or_path)
    if exists(p):
        return p
    cand = SHIPPED / f"{name_or_path}.toml"
    if exists(cand):
        return cand
    raise UnknownNameError(
        f"no scenario '{name_or_path}' (not a file; shipped: {', '.join(shipped())})"
    )
