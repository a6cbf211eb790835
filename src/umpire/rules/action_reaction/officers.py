"""Seed 003 officers: the officer-versus-men contest (XII.A-B), wounds (XVII.B, rules-notes
003 default) and the senior captain (XII.C)."""

from __future__ import annotations

from fractions import Fraction


def contest(officer_d10: int, men_d10: int) -> str:
    """XII.A.1-2: two d10, 'the higher number wins'; a tie is rolled again (rules-notes)."""
    if officer_d10 == men_d10:
        return "tie"
    return "officer" if officer_d10 > men_d10 else "men"


def rally_odds(officers: int) -> Fraction:
    """Reading ``any_officer_rallies``: each officer contests (ties re-rolled: 1/2 each)."""
    wins = sum(1 for o in range(10) for m in range(10) if contest(o, m) == "officer")
    decided = sum(1 for o in range(10) for m in range(10) if contest(o, m) != "tie")
    p = Fraction(wins, decided)
    return 1 - (1 - p) ** max(0, officers)


def officer_hit(d6: int) -> bool:
    """Rules-notes 003 default: 1d6 per officer when his unit loses a piece, even = hit."""
    return d6 % 2 == 0


def officer_removed(d20: int) -> bool:
    """Rules-notes 003 default: a hit officer is removed on 1d20 >= 15, else he stays."""
    return d20 >= 15


def officer_loss_odds() -> Fraction:
    """Exact P(one officer is removed) when his unit loses a piece, by enumeration."""
    hit = Fraction(sum(1 for f in range(1, 7) if officer_hit(f)), 6)
    gone = Fraction(sum(1 for f in range(1, 21) if officer_removed(f)), 20)
    return hit * gone


def senior_captain(d10: int) -> bool:
    """XII.C.2-3: 'Even restores the officer.'"""
    return d10 % 2 == 0
