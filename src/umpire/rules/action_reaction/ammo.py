"""Seed 003 XI.A ammunition, counted per gun (reading ``ammunition_per_gun``).

A battery's ammunition is a list with one ``{kind: rounds}`` per gun; the functions never
change their argument. The counts per gun are in ``data/rules.toml`` ``[ammunition]``.
"""

from __future__ import annotations

from umpire.errors import UmpireError
from umpire.rules.action_reaction.artillery import data

KINDS = ("solid_shot", "shell", "case", "canister")
ALIASES = {"bolt": "solid_shot", "dud": "solid_shot", "shot": "solid_shot"}
"""XI.A.1: 'Solid Shot/Bolt/Dud' is one round."""


def kind_of(kind: str) -> str:
    """The round's name (an alias of XI.A.1 read as solid shot), or a one-line error."""
    k = ALIASES.get(kind, kind)
    if k not in KINDS:
        raise UmpireError(f"unknown ammunition type '{kind}' ({', '.join(KINDS)})")
    return k


def full(guns: int) -> list[dict[str, int]]:
    """XI.A.1-4: every gun's rounds: 16 solid shot (yellow), 8 shell (blue), 4 case shot
    (green), 4 canister (red)."""
    if guns < 0:
        raise UmpireError(f"a battery has 0 or more guns, not {guns}")
    per = {k: int(data()["ammunition"][k]) for k in KINDS}
    return [dict(per) for _ in range(guns)]


def spend(ammo: list[dict[str, int]], gun: int, kind: str) -> list[dict[str, int]]:
    """A new list with one round of ``kind`` gone from ``gun`` (0-based); a one-line error
    for an unknown kind, a gun the battery lacks, or a gun with none of that kind left."""
    k = kind_of(kind)
    if not 0 <= gun < len(ammo):
        raise UmpireError(f"no gun {gun + 1}: the battery has {len(ammo)}")
    if ammo[gun].get(k, 0) <= 0:
        raise UmpireError(f"gun {gun + 1} has no {k.replace('_', ' ')} left")
    out = [dict(g) for g in ammo]
    out[gun][k] -= 1
    return out


def left(ammo: list[dict[str, int]], kind: str) -> int:
    """Rounds of ``kind`` left in the battery (all its guns)."""
    k = kind_of(kind)
    return sum(g.get(k, 0) for g in ammo)
