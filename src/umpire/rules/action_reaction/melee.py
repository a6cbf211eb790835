"""Seed 003 hand-to-hand (part 6, XIV) and reactions to a charge (XIII, XV.2): rulings
from faces, and their exact odds.

Hand-to-hand in line (XIV.A, with the rules notes' reading): both sides' dice are sorted
from high to low and paired by position; equal pairs cancel, the higher die of a pair
scores a hit, and an unpaired die scores only when it is higher than the opponent's
lowest die. Both worked examples of the seed agree with this reading.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import NamedTuple

from umpire.rules.action_reaction.artillery import data, multisets


class Strike(NamedTuple):
    """One hand-to-hand strike: hits each side scores (on the other), and who lost."""

    attacker_hits: int  # hits scored by the attacker on the defender
    defender_hits: int  # hits scored by the defender on the attacker
    loser: str  # "attacker", "defender" or "" (equal hits, or none: nobody backs)


def strike(attacker: Sequence[int], defender: Sequence[int]) -> Strike:
    """XIV.A.3 (and XIV.B for a column, whose dice the caller chose): pair and score."""
    a = sorted(attacker, reverse=True)
    d = sorted(defender, reverse=True)
    if not a or not d:
        raise ValueError("both sides roll at least one die in hand-to-hand")
    ah = dh = 0
    for x, y in zip(a, d, strict=False):
        if x > y:
            ah += 1
        elif y > x:
            dh += 1
    low_a, low_d = a[-1], d[-1]
    ah += sum(1 for x in a[len(d) :] if x > low_d)  # unpaired attacker dice
    dh += sum(1 for y in d[len(a) :] if y > low_a)  # unpaired defender dice
    # XIV.A.3.b.(1): "The one with the higher number backs up" - the side hit more loses;
    # equal hits, or none, end the strikes (rules-notes 003 reading).
    loser = "attacker" if dh > ah else "defender" if ah > dh else ""
    return Strike(ah, dh, loser)


def column_dice(defender_pieces: int) -> tuple[int, int]:
    """XIV.B.a-b: the defender rolls for the piece in front and its neighbours (at most 3);
    the attacker one die more."""
    n = min(3, max(1, defender_pieces))
    return n + 1, n


def strike_odds(n: int, m: int) -> dict[Strike, Fraction]:
    """Exact distribution of a strike of ``n`` attacker dice against ``m`` defender dice.

    Enumerates both sides' sorted rolls with their multinomial weights (n, m <= 8 here;
    12 a side within 50 ms needs the dynamic programme planned for the module).
    """
    if not (1 <= n <= 8 and 1 <= m <= 8):
        raise ValueError("exact hand-to-hand odds are enumerated for 1 to 8 dice a side")
    d6 = (1, 2, 3, 4, 5, 6)
    sides_a = list(multisets(n, d6))
    sides_d = list(multisets(m, d6))
    out: dict[Strike, Fraction] = {}
    for a, pa in sides_a:
        for d, pd in sides_d:
            s = strike(a, d)
            out[s] = out.get(s, Fraction(0)) + pa * pd
    return out


# -- reactions (XIII.B, XV.2) ----------------------------------------------------------------


def reaction(d10: int) -> tuple[str, int]:
    """XIII.B.1.(1): the defender's reaction to a d10 (a 0 reads as 10): (what, inches)."""
    face = 10 if d10 == 0 else d10
    r = data()["reaction"]
    if face in r["retreat_on"]:
        return "retreat", int(r["retreat_inches"])
    if face in r["none_on"]:
        return "none", 0
    if face in r["withdraw_on"]:
        return "withdraw", int(r["withdraw_inches"])
    return "fire", 0


def column_reaction(d6: int) -> tuple[str, int]:
    """XV.2.(3): a column under infantry fire reacts on 1D6."""
    r = data()["column_reaction"]
    if d6 in r["withdraw_on"]:
        return "withdraw", int(data()["reaction"]["withdraw_inches"])
    if d6 in r["prone_on"]:
        return "prone", 0
    if d6 in r["retreat_on"]:
        return "retreat", int(data()["reaction"]["retreat_inches"])
    return "none", 0


def reaction_odds() -> dict[str, Fraction]:
    """Exact P(each reaction) on the d10 list."""
    out: dict[str, Fraction] = {}
    for f in range(10):
        kind = reaction(f)[0]
        out[kind] = out.get(kind, Fraction(0)) + Fraction(1, 10)
    return out


def reacts(cheer_d10: int, hear_d10: int, clear_field: bool) -> bool:
    """Reading ``cheer_and_hear``: the defender reacts if he heard a cheer, or if the field
    is clear of smoke and fog; a cheer is an even d10, hearing it an even d10."""
    cheered = cheer_d10 % 2 == 0
    heard = cheered and hear_d10 % 2 == 0
    return heard or clear_field


def reacts_odds(clear_field: bool) -> Fraction:
    """Exact P(the defender reacts to the charge)."""
    return Fraction(1) if clear_field else Fraction(1, 4)


# -- charges (XII.H) ---------------------------------------------------------------------------


def charge_dice(troops: str, formation: str, stands: int) -> list[tuple[int, int]]:
    """Default ``charge_dice``: the dice added to the move, as (count, sides) per roll: one
    roll per stand in line, one for a column. 'No other pieces may charge' (XII.H.5)."""
    if troops not in ("infantry", "cavalry"):
        raise ValueError(f"no other pieces may charge (003 XII.H.5): not {troops}")
    if formation not in ("line", "column"):
        raise ValueError(f"a charge is made in line or column, not {formation}")
    expr = data()["charge"][f"{troops}_{formation}"]
    count, sides = (int(v) for v in expr.split("d"))
    rolls = stands if formation == "line" else 1
    return [(count, sides)] * rolls


def centre_out(values: Sequence[int]) -> list[int]:
    """XII.H.3.a.(1): 'arrange the dice from center to the flanks in descending order':
    the highest at the centre, then alternately right and left (left to right order)."""
    ordered = sorted(values, reverse=True)
    out: list[int] = []
    for k, v in enumerate(ordered):
        if k % 2:
            out.insert(0, v)
        else:
            out.append(v)
    return out
