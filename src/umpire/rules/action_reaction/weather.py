"""Seed 003 fog (XII.D, option fog) and smoke (XII.E; reading ``smoke_thins``: in E.2
'fog' means smoke).

A fog level is its thickness, 0 (none) to 6; a unit's smoke level is the markers on it,
0 to the cap (default ``smoke_cap``); the smoke on a line of fire adds the firer's and
the target's (reading ``smoke_on_line``). Both thin by one on an even d10 at the
beginning of the turn. Numbers in ``data/rules.toml`` ``[weather]``; exact odds by
enumerating the d10.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from umpire.errors import UmpireError
from umpire.rules.action_reaction.artillery import data


def _cfg() -> dict[str, Any]:
    out: dict[str, Any] = data()["weather"]
    return out


FOG_MAX = int(_cfg()["fog_max"])
"""XII.D.1.1.a: 'with 6 being the thickest'."""

SMOKE_MAX = int(data()["battle"]["smoke_cap"])
"""Default ``smoke_cap``: the most smoke markers one unit carries."""


def _die(sides: int) -> range:
    return range(10) if sides == 10 else range(1, sides + 1)


def fog_thickness(d6: int) -> int:
    """XII.D.1.1: 'Roll 1 D6. The resulting number is the thickness of the fog with 6 being
    the thickest.'"""
    faces = _die(int(_cfg()["fog_die"]))
    if d6 not in faces:
        raise UmpireError(f"the fog's thickness: a d{len(faces)} shows 1 to {faces[-1]}, not {d6}")
    return min(FOG_MAX, d6)


def thins(d10: int) -> bool:
    """XII.D.2 / E.2: 'Roll 1 D10. Even reduces the fog number by 1. Odd means the fog does
    not change' (for smoke as for fog, reading ``smoke_thins``)."""
    if d10 not in _die(int(_cfg()["thin_die"])):
        raise UmpireError(f"the thinning roll: a d10 shows 0 to 9, not {d10}")
    return (d10 % 2 == 0) == (str(_cfg()["thin_on"]) == "even")


def _check_level(level: int) -> None:
    if level < 0:
        raise UmpireError(f"a fog or smoke level is 0 or more, not {level}")


def next_level(level: int, d10: int) -> int:
    """XII.D.2 / E.2: the level after a turn start's roll: one less on an even d10, never
    below 0."""
    _check_level(level)
    return max(0, level - 1) if thins(d10) else level


def fog_deductions(level: int) -> tuple[int, float]:
    """XII.D.1.b, default ``fog_deductions``: (stick points off fire, inches off movement)
    for a fog of thickness ``level`` (one of each a level; hills are above the fog, reading
    ``fog_above_hills``)."""
    if not 0 <= level <= FOG_MAX:
        raise UmpireError(f"a fog's thickness is 0 to {FOG_MAX}, not {level}")
    cfg = _cfg()
    return level * int(cfg["fog_fire_per_level"]), level * float(cfg["fog_move_per_level"])


def add_smoke(markers: int) -> int:
    """XII.E.1: 'Every time a unit fires place a smoke marker on the unit', up to the cap
    (default ``smoke_cap``)."""
    _check_level(markers)
    return min(int(data()["battle"]["smoke_cap"]), markers + 1)


def smoke_level(firer_markers: int, target_markers: int) -> int:
    """Reading ``smoke_on_line``: the smoke on a line of fire is the markers on the firer
    plus those on the target (XII.E.1.1: two units firing at each other make it 2)."""
    _check_level(firer_markers)
    _check_level(target_markers)
    return firer_markers + target_markers


def smoke_deduction(level: int) -> int:
    """Default ``smoke_deduction``: stick points off fire for the smoke on a line of fire
    (one a level)."""
    _check_level(level)
    return level * int(_cfg()["smoke_per_level"])


def level_odds(level: int, turns: int) -> dict[int, Fraction]:
    """Exact distribution of a fog or smoke level after ``turns`` turn starts, each a d10
    enumerated face by face (a level of 0 stays 0)."""
    _check_level(level)
    if turns < 0:
        raise UmpireError(f"turns are 0 or more, not {turns}")
    faces = _die(int(_cfg()["thin_die"]))
    dist = {level: Fraction(1)}
    for _ in range(turns):
        out: dict[int, Fraction] = {}
        for lv, p in dist.items():
            for face in faces:
                n = next_level(lv, face)
                out[n] = out.get(n, Fraction(0)) + p / len(faces)
        dist = out
    return dict(sorted(dist.items()))
