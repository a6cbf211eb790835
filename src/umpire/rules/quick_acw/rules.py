"""The rules of seed 002 (quick ACW miniatures rules, MWAN #101) as small pure functions.

Every number comes from ``data/rules.toml``; every function names the seed 002 section
it implements. The functions know nothing about the board: callers pass the facts
(troop types, range, cover, markers) and get the number needed and a modifier trace.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, NamedTuple

from umpire.board import numeric as NB
from umpire.errors import DataFileError, UnknownNameError
from umpire.rules.quick_acw import numeric as N

DATA = Path(__file__).parent / "data"
TYPES = ("foot", "cavalry", "artillery")
"""The unit types by their codes in :mod:`umpire.rules.quick_acw.numeric`."""
FORMATIONS = ("line", "column")


class Mod(NamedTuple):
    """One die-roll modifier: what it is, its value, and where it comes from."""

    id: str
    value: int
    text: str
    source: str


@dataclass(frozen=True, slots=True)
class SideRules:
    """Per-side numbers: morale (charge #), leader bonus and radius, fire/melee modifiers."""

    morale: int
    leader_bonus: int
    leader_radius: float
    fire_mod: int
    melee_attack_mod: int


@dataclass(frozen=True, slots=True)
class MoveRate:
    """One row of the MOVEMENT table."""

    open: float
    rough: float
    rout: float


@dataclass(frozen=True, slots=True)
class MeleeRow:
    """One row of the MELEE difference table."""

    low: int
    high: int
    win_loss: int
    win_retreat: bool
    lose_loss: int
    lose_retreat: bool


@dataclass(frozen=True, slots=True, eq=False)
class Rules:
    """All the numbers of seed 002, loaded from data (override by loading another file)."""

    order: tuple[str, ...]
    sequence: tuple[str, ...]
    sides: dict[str, SideRules]
    movement: dict[str, MoveRate]
    costs: dict[str, float]
    fire_bands: tuple[float, ...]
    fire_table: dict[str, tuple[int, ...]]
    two_stand_margin: int
    fire_mods: dict[str, int]
    melee_rows: tuple[MeleeRow, ...]
    melee_mods: dict[str, int]
    morale_marker: int
    failed_charge_fraction: float
    leader_loss_on: int
    named_leaders: dict[str, tuple[int, float]]
    removal_fraction: float
    bases: dict[str, tuple[float, float]]
    geometry: dict[str, float]
    move_costs: tuple[float, float, float, float]
    """``costs`` in the order ``numeric.move_inches`` reads them."""


def _load(path: Path, raw: dict[str, Any] | None = None) -> Rules:
    if raw is None:
        try:
            raw = tomllib.loads(path.read_text(encoding="utf-8"))
        except tomllib.TOMLDecodeError as exc:
            raise DataFileError(f"bad TOML: {exc}", file=str(path)) from None
    try:
        return Rules(
            order=tuple(raw["turn"]["order"]),
            sequence=tuple(raw["turn"]["sequence"]),
            sides={k: SideRules(**v) for k, v in raw["sides"].items()},
            movement={k: MoveRate(**v) for k, v in raw["movement"].items()},
            costs={k: float(v) for k, v in raw["movement_costs"].items()},
            fire_bands=tuple(float(b) for b in raw["fire"]["bands"]),
            fire_table={
                k: tuple(raw["fire"][k]) for k in ("foot", "dismounted_cavalry", "artillery")
            },
            two_stand_margin=int(raw["fire"]["two_stand_margin"]),
            fire_mods=dict(raw["fire"]["modifiers"]),
            melee_rows=tuple(MeleeRow(*r) for r in raw["melee"]["rows"]),
            melee_mods=dict(raw["melee"]["modifiers"]),
            morale_marker=int(raw["morale"]["marker"]),
            failed_charge_fraction=float(raw["morale"]["failed_charge_fraction"]),
            leader_loss_on=int(raw["leaders"]["loss_on"]),
            named_leaders={
                k: (int(v["bonus"]), float(v["radius"])) for k, v in raw["leaders"]["named"].items()
            },
            removal_fraction=float(raw["removal"]["fraction"]),
            bases={k: (float(v["width"]), float(v["depth"])) for k, v in raw["bases"].items()},
            geometry={k: float(v) for k, v in raw["geometry"].items()},
            move_costs=_move_costs(raw["movement_costs"]),
        )
    except (KeyError, TypeError) as exc:
        raise DataFileError(f"missing or malformed entry {exc}", file=str(path)) from None


def _move_costs(c: dict[str, Any]) -> tuple[float, float, float, float]:
    keys = ("out_of_command", "leader_lost", "formation_change", "mount_dismount")
    a, b, d, e = (float(c[k]) for k in keys)
    return a, b, d, e


@cache
def rules() -> Rules:
    """The seed 002 numbers (``data/rules.toml`` through the rules-data seam), loaded once."""
    from umpire.rules.data import read

    path = DATA / "rules.toml"
    return _load(path, read(path))


def load_rules(path: Path) -> Rules:
    """A user's own copy of the rules data (same format as ``data/rules.toml``)."""
    return _load(path)


# -- troop classes -------------------------------------------------------------


def fire_class(unit_type: str, mounted: bool, limbered: bool) -> str | None:
    """The FIRE table row for a unit, or None if it cannot fire.

    Seed 002 FIRE: "Mounted cavalry can't fire"; default ``limbered_no_fire``.
    """
    if unit_type == "foot":
        code = N.FOOT
    elif unit_type == "cavalry":
        code = N.CAVALRY
    elif unit_type == "artillery":
        code = N.ARTILLERY
    else:
        raise UnknownNameError(f"unknown unit type '{unit_type}' (known: {', '.join(TYPES)})")
    row = N.fire_row(code, mounted, limbered)
    return None if row < 0 else N.FIRE_ROWS[row]


def move_key(
    unit_type: str, formation: str, mounted: bool, limbered: bool, change: str | None = None
) -> str:
    """The MOVEMENT table row: seed 002 MOVEMENT (``numeric.move_row``; ``change`` as
    :func:`move_allowance`'s: artillery limbering or unlimbering moves by the limbered row)."""
    if formation != "line" and formation != "column" and unit_type != "artillery":
        kind = "cavalry" if unit_type == "cavalry" and mounted else "foot"
        return f"{kind}_{formation}"  # no such row: the look-up says so
    code = N.CAVALRY if unit_type == "cavalry" else N.FOOT
    if unit_type == "artillery":
        code = N.ARTILLERY
    return N.MOVE_ROWS[N.move_row(code, formation == "column", mounted, limbered, _change(change))]


def _change(change: str | None) -> int:
    """A change's code in :mod:`umpire.rules.quick_acw.numeric`."""
    if change == "formation":
        return N.FORMATION
    return N.MOUNT if change == "mount" else N.NO_CHANGE


# -- movement ------------------------------------------------------------------


def move_allowance(
    key: str,
    *,
    rough: bool = False,
    in_command: bool = True,
    leader_lost: bool = False,
    change: str | None = None,
    r: Rules | None = None,
) -> tuple[float, list[Mod]]:
    """The inches a unit may move this turn, with the trace of every factor.

    Seed 002 MOVEMENT (table, rough column, change formation, 1/4 to mount/dismount),
    COMMAND ("otherwise 1/2 move") and LEADERS ("all his units move 1/2 rate");
    reading ``half_rates_multiply``. ``change`` is None, ``"formation"`` (also
    limber/unlimber) or ``"mount"`` (mount or dismount); ``key`` is the row the unit
    ends in.
    """
    r = r or rules()
    rate = r.movement[key]
    inches = move_inches(key, rough, in_command, leader_lost, change, r)
    trace = [Mod(key, 0, f'{key.replace("_", " ")}: {rate.open:g}" open', "002 MOVEMENT")]
    if rough:
        trace.append(Mod("rough", 0, f"rough ground x{rate.rough:g}", "002 MOVEMENT ROUGH"))
    if not in_command:
        f = r.costs["out_of_command"]
        trace.append(Mod("out_of_command", 0, f"outside leader radius x{f:g}", "002 COMMAND"))
    if leader_lost:
        f = r.costs["leader_lost"]
        trace.append(Mod("leader_lost", 0, f"leader lost x{f:g}", "002 LEADERS"))
    if change == "formation":
        f = 1.0 - r.costs["formation_change"]
        trace.append(Mod("formation_change", 0, f"change of formation x{f:g}", "002 MOVEMENT"))
    elif change == "mount":
        f = 1.0 - r.costs["mount_dismount"]
        trace.append(Mod("mount_dismount", 0, f"mount/dismount x{f:g}", "002 MOVEMENT"))
    return inches, trace


def move_inches(
    key: str,
    rough: bool = False,
    in_command: bool = True,
    leader_lost: bool = False,
    change: str | None = None,
    r: Rules | None = None,
) -> float:
    """The number of :func:`move_allowance` without its trace (the AI's hot path):
    ``numeric.move_inches``."""
    r = r or rules()
    rate = r.movement[key]
    return N.move_inches(
        rate.open, rate.rough, rough, in_command, leader_lost, _change(change), r.move_costs
    )


def move_inches_both(
    key: str,
    in_command: bool = True,
    leader_lost: bool = False,
    change: str | None = None,
    r: Rules | None = None,
) -> tuple[float, float]:
    """:func:`move_inches` in the open and over rough ground (the row looked up once):
    what a move's yes/no test compares its length with."""
    r = r or rules()
    rate = r.movement[key]
    code = _change(change)
    costs = r.move_costs
    return (
        N.move_inches(rate.open, rate.rough, False, in_command, leader_lost, code, costs),
        N.move_inches(rate.open, rate.rough, True, in_command, leader_lost, code, costs),
    )


def rout_distance(
    unit_type: str, r: Rules | None = None, *, mounted: bool = True, limbered: bool = True
) -> float:
    """Seed 002 MOVEMENT ROUT: the ROUT column of the unit's row (reading rout_distance_fixed).

    12" foot, 24" mounted cavalry; dismounted cavalry routs 12" ('"Foot" includes
    dismounted cavalry for movement', reading ``dismounted_cavalry_routs_as_foot``);
    limbered artillery 12", unlimbered artillery 0: it limbers in place (reading
    ``unlimbered_artillery_rout``).
    """
    r = r or rules()
    return r.movement[move_key(unit_type, "line", mounted, limbered)].rout


# -- fire ------------------------------------------------------------------------


def range_band(distance: float, r: Rules | None = None) -> int | None:
    """The FIRE table column for a range (reading ``range_bands_upper_bounds``), None beyond."""
    r = r or rules()
    band = NB.band(r.fire_bands, distance)
    return None if band < 0 else band


def fire_needed(fclass: str, distance: float, r: Rules | None = None) -> int | None:
    """The 2d6 score needed to hit, or None for "no fire": seed 002 FIRE table."""
    r = r or rules()
    band = range_band(distance, r)
    if band is None:
        return None
    needed = r.fire_table[fclass][band]
    return needed or None


@dataclass(frozen=True, slots=True)
class FireFacts:
    """What the fire modifiers depend on."""

    firer_side: str
    firer_class: str
    firer_formation: str
    firer_marker: bool
    target_type: str
    target_mounted: bool
    target_formation: str
    target_cover: bool


def fire_modifiers(f: FireFacts, r: Rules | None = None) -> list[Mod]:
    """Seed 002 FIRE "Die Roll Modifiers", every one that applies, in the seed's order."""
    r = r or rules()
    m = r.fire_mods
    out: list[Mod] = []
    src = "002 FIRE modifiers"
    if f.target_cover:
        out.append(Mod("target_cover", m["target_cover"], "target in cover", src))
    if f.target_type == "artillery":
        out.append(Mod("target_artillery", m["target_artillery"], "target is artillery", src))
    if f.target_type == "cavalry" and not f.target_mounted:
        out.append(
            Mod(
                "target_dismounted_cavalry",
                m["target_dismounted_cavalry"],
                "target is dismounted cavalry",
                src,
            )
        )
    if f.firer_marker:
        out.append(Mod("firer_marker", m["firer_marker"], "firing unit has MM", src))
    if f.firer_side == "union":
        out.append(Mod("union_firing", m["union_firing"], "Union firing", src))
    if f.target_type == "foot" and f.target_formation == "column":
        out.append(Mod("target_foot_column", m["target_foot_column"], "target is foot column", src))
    if f.target_type == "cavalry" and f.target_mounted:
        out.append(
            Mod(
                "target_mounted_cavalry",
                m["target_mounted_cavalry"],
                "target is mounted cavalry",
                src,
            )
        )
    if f.firer_class in ("foot", "dismounted_cavalry") and f.firer_formation == "line":
        out.append(Mod("firer_line", m["firer_line"], "firing unit is in line formation", src))
    return out


def fire_stands_lost(roll: int, needed: int, mod: int, r: Rules | None = None) -> int:
    """Seed 002 FIRE: a hit costs one stand; beating the need by 8 or more costs two."""
    r = r or rules()
    return N.stands_lost(roll, needed, mod, r.two_stand_margin)


# -- morale, charge ---------------------------------------------------------------


def morale_test(
    side: str, leader_bonus: int | None, marker: bool, r: Rules | None = None
) -> tuple[int, list[Mod]]:
    """Seed 002 MORALE "Charge or Receive Charge": the 2d6 number and the roll modifiers.

    USA/CSA 8+/7+, attached leaders add their bonus, a MM adds -1 (reading
    ``charge_number_is_morale``, default ``leader_bonus_added_to_roll``).
    """
    r = r or rules()
    mods: list[Mod] = []
    if leader_bonus:
        mods.append(Mod("leader", leader_bonus, "attached leader bonus", "002 MORALE"))
    if marker:
        mods.append(Mod("marker", r.morale_marker, "unit has MM", "002 MORALE"))
    return r.sides[side].morale, mods


def morale_total(leader_bonus: int | None, marker: bool, r: Rules) -> int:
    """The sum of :func:`morale_test`'s modifiers, without making them (the generic AI weighs
    every charge a menu offers)."""
    out = leader_bonus if leader_bonus else 0
    if marker:
        out += r.morale_marker
    return out


def is_removed(stands: int, original: int, r: Rules | None = None) -> bool:
    """Seed 002: "Any unit reduced to less than 1/2 of its original stands is removed"."""
    r = r or rules()
    return N.is_removed(stands, original, r.removal_fraction)


def leader_lost(face: int, r: Rules | None = None) -> bool:
    """Seed 002: a leader attached to a unit that loses a stand is lost on 5-6 of 1d6."""
    r = r or rules()
    return N.leader_lost(face, r.leader_loss_on)


# -- melee --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class MeleeFacts:
    """What one side's melee score depends on."""

    side: str
    unit_type: str
    mounted: bool
    formation: str
    stands: int
    attacking: bool
    defending_obstacle: bool
    uphill: bool
    marker: bool
    leader_bonus: int | None
    flank_or_rear: bool


def melee_modifiers(f: MeleeFacts, r: Rules | None = None) -> list[Mod]:
    """Seed 002 MELEE "Add" list plus the stands fighting (reading ``stands_fighting_all``)."""
    r = r or rules()
    m = r.melee_mods
    src = "002 MELEE"
    out = [Mod("stands", f.stands, "stands fighting", src)]
    if f.unit_type == "cavalry" and f.mounted and f.attacking:
        out.append(
            Mod(
                "mounted_cavalry_attacking",
                m["mounted_cavalry_attacking"],
                "mounted cavalry attacking",
                src,
            )
        )
    if f.defending_obstacle and not f.attacking:
        out.append(
            Mod(
                "defending_wall_or_stream",
                m["defending_wall_or_stream"],
                "defending a wall or stream",
                src,
            )
        )
    if f.unit_type == "foot" and f.formation == "column":
        out.append(Mod("infantry_column", m["infantry_column"], "infantry in column", src))
    if f.leader_bonus:
        out.append(Mod("leader", f.leader_bonus, "attached leader bonus", src))
    if f.uphill:
        out.append(Mod("uphill", m["uphill"], "uphill of enemy", src))
    if f.side == "confederate" and f.attacking:
        out.append(
            Mod(
                "confederates_attacking", m["confederates_attacking"], "Confederates attacking", src
            )
        )
    if f.marker:
        out.append(Mod("marker", m["marker"], "unit has Morale Marker", src))
    if f.flank_or_rear and f.attacking:
        out.append(Mod("flank_rear", f.stands, "flank or rear attack: stands doubled", src))
    return out


def melee_row(difference: int, r: Rules | None = None) -> MeleeRow:
    """Seed 002 MELEE difference table: the row for ``|score_a - score_b|``."""
    r = r or rules()
    d = abs(difference)
    for row in r.melee_rows:
        if row.low <= d <= row.high:
            return row
    raise DataFileError(f"melee table has no row for difference {d}", file=str(DATA))
