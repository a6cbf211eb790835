"""Seed 003 infantry fire (default ``infantry_fire`` on the stick of ``rifle_stick``), the
reactions to ordered firing (XV, reading ``fire_reactions``) and the addenda's column
losses (XVII.A) and collisions (XVII.D).

Pure functions: faces in, hits out; the odds are exact fractions (a binomial over the
d10's faces, 0 to 9). The heading "VI. Addenda" of the seed is read as XVII.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from umpire.errors import UmpireError
from umpire.rules.action_reaction import artillery as ART
from umpire.rules.action_reaction import melee as M

FIRE_KINDS = ("skirmish", "infantry", "artillery")


def stick_length(stick: str = "rifle") -> float:
    """The stick's reach in inches (default ``rifle_stick``: rifle 27, musket 6)."""
    cfg = ART.data()["stick"]
    if stick not in cfg or f"{stick}_section" not in cfg:
        sticks = sorted(k for k in cfg if f"{k}_section" in cfg)
        raise UmpireError(f"unknown stick '{stick}' ({', '.join(sticks)})")
    return float(cfg[f"{stick}_section"]) * len(cfg[stick])


def stick_number(distance: float, stick: str = "rifle") -> int:
    """The number on the stick at ``distance`` inches, or a one-line error beyond it."""
    reach = stick_length(stick)
    if distance < 0:
        raise UmpireError(f'a distance is 0 or more, not {distance:g}"')
    value = ART.stick_value(distance, stick)
    if value is None:
        raise UmpireError(f'{distance:g}" is beyond the {stick} stick ({reach:g}")')
    return value


def infantry_hits(
    faces: Sequence[int], distance: float, deductions: int, stick: str = "rifle"
) -> int:
    """Default ``infantry_fire``: one d10 per piece on the firing line; a die at or under the
    stick's number less the deductions hits (XI.A.4.a.(2)(b) for the stick)."""
    value = stick_number(distance, stick)
    bad = [f for f in faces if not 0 <= f <= 9]
    if bad:
        raise UmpireError(f"infantry fire: a d10 shows 0 to 9, not {bad[0]}")
    return ART.stick_hits(faces, value, deductions)


def infantry_odds(
    pieces: int, distance: float, deductions: int, stick: str = "rifle"
) -> dict[int, Fraction]:
    """Exact P(hits) of ``pieces`` d10 on the stick (a binomial, p = (need + 1) / 10)."""
    if pieces < 0:
        raise UmpireError(f"pieces on the firing line are 0 or more, not {pieces}")
    return ART.stick_odds(pieces, stick_number(distance, stick), deductions)


def losses(hits: int, formation: str) -> int:
    """XVII.A: 'Units in Column Lose Double Casualties' (reading ``column_double``): the
    casualties a unit takes, doubled in column."""
    if hits < 0:
        raise UmpireError(f"casualties are 0 or more, not {hits}")
    return hits * 2 if formation == "column" else hits


def pieces_lost(hits: int, carried: int, per: int, formation: str) -> tuple[int, int]:
    """Default ``hits_per_piece``: the pieces a unit loses to ``hits`` with ``carried`` hits
    already on it, and the hits it carries on toward the next piece; every ``per`` hits take
    a piece, doubled in column (XVII.A, :func:`losses`). The battle and ``umpire resolve``
    both count losses with this."""
    if hits < 0 or carried < 0:
        raise UmpireError(f"hits are 0 or more, not {min(hits, carried)}")
    pieces, left = divmod(carried + hits, per)
    return (losses(pieces, formation) if pieces else 0), left


def fire_reaction(kind: str, target_formation: str, in_reaction: bool) -> str:
    """XV.1-3 (reading ``fire_reactions``): the reaction the target of ``kind`` fire makes:
    "facing" (XV.1.a: units in the adjacent fields may change their facings), "d10" (the
    list of XIII.B.1), "d6" (the list of XV.2.(3)) or "" (none: XV.2.a.(1) 'Does not apply
    to a unit already in reaction'). XV.3.a: artillery fire 'applies to a unit already in
    reaction' and refers to the d6 list."""
    if kind not in FIRE_KINDS:
        raise UmpireError(f"unknown kind of fire '{kind}' ({', '.join(FIRE_KINDS)})")
    if kind == "skirmish":
        return "facing"
    if kind == "artillery":
        return "d6"
    if in_reaction:
        return ""
    return "d6" if target_formation == "column" else "d10"


def collision_reaction(d10: int) -> tuple[str, int]:
    """XVII.D: 'If a unit collides with another unit it will roll 1 D10 for a reaction'
    (default ``collision_reaction``: the d10 list of XIII.B.1; a 0 reads as 10)."""
    if not 0 <= d10 <= 9:
        raise UmpireError(f"the collision's reaction: a d10 shows 0 to 9, not {d10}")
    return M.reaction(d10)
