"""Seed 003 XI.A ammunition, tracked per gun."""

from __future__ import annotations

from umpire.errors import UmpireError
from umpire.rules.action_reaction.artillery import data

KINDS = ("solid_shot", "shell", "case", "canister")
ALIASES = {"bolt": "solid_shot", "dud": "solid_shot", "shot": "solid_shot"}


def kind_of(kind: str) -> str:
    """The round's name, or a one-line error for an unknown one."""
    k = ALIASES.get(kind, kind)
    if k not in KINDS:
        raise UmpireError(f"unknown ammunition type '{kind}' ({', '.join(KINDS)})")
    return k


def full(guns: int) -> list[dict[str, int]]:
    """XI.A: every gun's rounds (16 shot, 8 shell, 4 case, 4 canister)."""
    per = {k: int(data()["ammunition"][k]) for k in KINDS}
    return [dict(per) for _ in range(guns)]


def spend(ammo: list[dict[str, int]], gun: int, kind: str) -> list[dict[str, int]]:
    """A new list with one round of ``kind`` gone from ``gun``; an error if it has none."""
    k = kind_of(kind)
    if not 0 <= gun < len(ammo) or ammo[gun].get(k, 0) <= 0:
        raise UmpireError(f"gun {gun + 1} has no {k.replace('_', ' ')} left")
    out = [dict(g) for g in ammo]
    out[gun][k] -= 1
    return out


def left(ammo: list[dict[str, int]], kind: str) -> int:
    """Rounds of ``kind`` left in the battery."""
    k = kind_of(kind)
    return sum(g.get(k, 0) for g in ammo)
