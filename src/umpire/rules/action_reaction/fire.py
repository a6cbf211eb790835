"""Seed 003 infantry fire (rules-notes default stick), XV reactions and the addenda."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from umpire.errors import UmpireError
from umpire.rules.action_reaction import artillery as ART
from umpire.rules.action_reaction import melee as M


def infantry_hits(
    faces: Sequence[int], distance: float, deductions: int, stick: str = "rifle"
) -> int:
    """One d10 per piece on the firing line; hits at or under the stick's number less deductions."""
    value = ART.stick_value(distance, stick)
    if value is None:
        raise UmpireError(f'{distance:g}" is beyond the {stick} stick')
    return ART.stick_hits(faces, value, deductions)


def infantry_odds(
    pieces: int, distance: float, deductions: int, stick: str = "rifle"
) -> dict[int, Fraction]:
    """Exact P(hits) of ``pieces`` d10 on the stick."""
    value = ART.stick_value(distance, stick)
    if value is None:
        raise UmpireError(f'{distance:g}" is beyond the {stick} stick')
    return ART.stick_odds(pieces, value, deductions)


def losses(pieces: int, formation: str) -> int:
    """XVII.A: 'Units in Column Lose Double Casualties.'"""
    return pieces * 2 if formation == "column" else pieces


def fire_reaction(kind: str, target_formation: str, in_reaction: bool) -> str:
    """XV.1-3: which reaction a target makes: ``facing``, ``d10`` (XIII.B list), ``d6``
    (XV.2.(3)) or "" (none)."""
    if kind == "skirmish":
        return "facing"
    if kind == "artillery":
        return "d6"  # XV.3: applies to a unit already in reaction; the d6 list
    if in_reaction:
        return ""  # XV.2.a.(1)
    return "d6" if target_formation == "column" else "d10"


def collision_reaction(d10: int) -> tuple[str, int]:
    """XVII.D with rules-notes 003: the d10 reaction list of XIII.B.1."""
    return M.reaction(d10)
