"""Seed 003 officers: the officer-versus-men contest (XII.A-B), wounds when a unit loses a
piece (XVII.B, default ``officer_wounds``) and the senior captain (XII.C).

Pure functions over faces (a d10 shows 0 to 9, reading ``d10_zero``); the numbers are in
``data/rules.toml`` ``[officers]``; the odds are exact fractions, found by enumerating the
faces of the dice.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from umpire.errors import UmpireError
from umpire.rules.action_reaction.artillery import data

OUTCOMES = ("officer", "men", "tie")


def _cfg() -> dict[str, Any]:
    out: dict[str, Any] = data()["officers"]
    return out


def faces(sides: int) -> range:
    """The faces of a die: 0-9 for a d10 (reading ``d10_zero``), else 1 to ``sides``."""
    return range(10) if sides == 10 else range(1, sides + 1)


def _check(face: int, sides: int, what: str) -> int:
    f = faces(sides)
    if face not in f:
        raise UmpireError(f"{what}: a d{sides} shows {f[0]} to {f[-1]}, not {face}")
    return face


def _parity(face: int, want: str) -> bool:
    return (face % 2 == 0) == (want == "even")


def contest(officer_d10: int, men_d10: int) -> str:
    """XII.A.1-2: two d10, one for the officer and one for the men; 'The higher number
    wins': "officer", "men", or "tie" (rolled again, reading ``contest_tie``)."""
    sides = int(_cfg()["contest_die"])
    _check(officer_d10, sides, "the officer's die")
    _check(men_d10, sides, "the men's die")
    if officer_d10 == men_d10:
        return "tie"
    return "officer" if officer_d10 > men_d10 else "men"


def contest_odds() -> dict[str, Fraction]:
    """Exact P(officer), P(men), P(tie) of one roll of the two d10."""
    sides = faces(int(_cfg()["contest_die"]))
    out = dict.fromkeys(OUTCOMES, Fraction(0))
    for o in sides:
        for m in sides:
            out[contest(o, m)] += Fraction(1, len(sides) ** 2)
    return out


def officer_wins_odds() -> Fraction:
    """Exact P(the officer wins a contest), ties rolled again (reading ``contest_tie``)."""
    odds = contest_odds()
    return odds["officer"] / (odds["officer"] + odds["men"])


def rally_odds(officers: int) -> Fraction:
    """XII.A.3 / XII.B.2, reading ``any_officer_rallies``: each officer contests the men
    in turn and the unit rallies (or stops its reaction) as soon as one wins; none: 0."""
    if officers < 0:
        raise UmpireError(f"a unit has 0 or more officers, not {officers}")
    return 1 - (1 - officer_wins_odds()) ** officers


def officer_hit(d6: int) -> bool:
    """XVII.B.1, default ``officer_wounds``: 1d6 per officer when his unit loses a piece;
    even is a hit."""
    cfg = _cfg()
    return _parity(_check(d6, int(cfg["hit_die"]), "the officer's wound check"), cfg["hit_on"])


def officer_removed(d20: int) -> bool:
    """XVII.B.1, default ``officer_wounds``: a hit officer is removed on 1d20 >= 15;
    otherwise he is wounded but stays."""
    cfg = _cfg()
    _check(d20, int(cfg["removed_die"]), "the officer's wound")
    return d20 >= int(cfg["removed_from"])


def officer_loss_odds() -> Fraction:
    """Exact P(one officer is removed) when his unit loses a piece, by enumerating the
    faces of the d6 and the d20 (default ``officer_wounds``: 1/2 x 6/20 = 3/20)."""
    cfg = _cfg()
    d6 = faces(int(cfg["hit_die"]))
    d20 = faces(int(cfg["removed_die"]))
    gone = sum(1 for h in d6 for w in d20 if officer_hit(h) and officer_removed(w))
    return Fraction(gone, len(d6) * len(d20))


def officers_lost_odds(officers: int) -> dict[int, Fraction]:
    """Exact P(k of ``officers`` officers removed) when the unit loses a piece (each one is
    checked on his own dice: a binomial of ``officer_loss_odds``)."""
    if officers < 0:
        raise UmpireError(f"a unit has 0 or more officers, not {officers}")
    p = officer_loss_odds()
    dist = {0: Fraction(1)}
    for _ in range(officers):
        nxt: dict[int, Fraction] = {}
        for k, q in dist.items():
            nxt[k + 1] = nxt.get(k + 1, Fraction(0)) + q * p
            nxt[k] = nxt.get(k, Fraction(0)) + q * (1 - p)
        dist = nxt
    return dist


def senior_captain(d10: int) -> bool:
    """XII.C.2-4: with all the line officers gone, 1d10: 'Even restores the officer. The
    Unit may move and fire that turn'; odd does not (reading ``senior_captain_one``)."""
    cfg = _cfg()
    face = _check(d10, int(cfg["captain_die"]), "the senior captain's die")
    return _parity(face, cfg["captain_on"])


def senior_captain_odds() -> Fraction:
    """Exact P(the senior captain takes command) on one d10."""
    sides = faces(int(_cfg()["captain_die"]))
    return Fraction(sum(1 for f in sides if senior_captain(f)), len(sides))
