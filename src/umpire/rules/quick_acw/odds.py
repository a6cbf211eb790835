"""Exact odds of seed 002's fire, morale, charge and melee rolls.

The 2d6 distribution comes from the dice expression itself (``umpire.dice.parse("2d6")
.distribution()``, exact via icepool); everything else is exact enumeration over it
with fractions. Results are cached, so the AI can call these in its inner loop.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cache

from umpire.rules.quick_acw.rules import Rules, melee_row, rules


@cache
def dist(expr: str) -> tuple[tuple[int, Fraction], ...]:
    """The exact distribution of a plain dice expression, as ``((total, p), ...)``."""
    from umpire.dice import parse

    return tuple((int(v), p) for v, p in parse(expr).distribution())


@cache
def p_at_least(expr: str, target: int) -> Fraction:
    """P(roll of ``expr`` >= target), exact."""
    return sum((p for v, p in dist(expr) if v >= target), Fraction(0))


@cache
def p_at_least_f(expr: str, target: int) -> float:
    """``p_at_least`` as a float for the AI's fast path."""
    return float(p_at_least(expr, target))


@dataclass(frozen=True, slots=True)
class FireOdds:
    """P(no hit), P(one stand), P(two stands) for one fire roll."""

    miss: Fraction
    one: Fraction
    two: Fraction

    @property
    def hit(self) -> Fraction:
        """P(at least one stand)."""
        return self.one + self.two

    @property
    def expected_stands(self) -> Fraction:
        """Expected stands lost by the target."""
        return self.one + 2 * self.two


@cache
def fire_odds(needed: int, mod: int, r: Rules | None = None) -> FireOdds:
    """Seed 002 FIRE: 2d6 + mod >= needed hits; >= needed + 8 costs two stands."""
    r = r or rules()
    hit = p_at_least("2d6", needed - mod)
    two = p_at_least("2d6", needed + r.two_stand_margin - mod)
    return FireOdds(1 - hit, hit - two, two)


@cache
def expected_stands(needed: int, mod: int, r: Rules | None = None) -> float:
    """:attr:`FireOdds.expected_stands` of :func:`fire_odds` as a float (the AI's hot path)."""
    return float(fire_odds(needed, mod, r).expected_stands)


@cache
def morale_odds(number: int, mod: int) -> Fraction:
    """Seed 002 MORALE: P(2d6 + mod >= number) (reading ``morale_on_2d6``)."""
    return p_at_least("2d6", number - mod)


@cache
def _diff_dist() -> dict[int, Fraction]:
    """The exact distribution of 2d6 - 2d6 (both sides' melee dice)."""
    out: dict[int, Fraction] = {}
    d = dist("2d6")
    for a, pa in d:
        for b, pb in d:
            out[a - b] = out.get(a - b, Fraction(0)) + pa * pb
    return out


@dataclass(frozen=True, slots=True)
class MeleeOdds:
    """Outcome probabilities of one melee from side A's point of view.

    ``a_lost[k]`` is P(side A loses k stands); ``a_retreats`` P(side A must retreat),
    likewise for B; ``a_wins`` P(A's score is higher); ``tie`` P(equal scores).
    """

    a_wins: Fraction
    tie: Fraction
    b_wins: Fraction
    a_lost: tuple[Fraction, ...]
    b_lost: tuple[Fraction, ...]
    a_retreats: Fraction
    b_retreats: Fraction


@cache
def melee_odds(a_mod: int, b_mod: int, r: Rules | None = None) -> MeleeOdds:
    """Seed 002 MELEE: both roll 2d6 plus modifiers; the difference table gives the result."""
    r = r or rules()
    a_lost = [Fraction(0)] * 4
    b_lost = [Fraction(0)] * 4
    a_ret = b_ret = a_win = b_win = tie = Fraction(0)
    for d, p in _diff_dist().items():
        diff = d + a_mod - b_mod
        row = melee_row(diff, r)
        if diff > 0:
            a_win += p
            a_lost[row.win_loss] += p
            b_lost[row.lose_loss] += p
            a_ret += p if row.win_retreat else 0
            b_ret += p if row.lose_retreat else 0
        elif diff < 0:
            b_win += p
            b_lost[row.win_loss] += p
            a_lost[row.lose_loss] += p
            b_ret += p if row.win_retreat else 0
            a_ret += p if row.lose_retreat else 0
        else:
            tie += p
            a_lost[row.win_loss] += p
            b_lost[row.lose_loss] += p
            a_ret += p if row.win_retreat else 0
            b_ret += p if row.lose_retreat else 0
    return MeleeOdds(a_win, tie, b_win, tuple(a_lost), tuple(b_lost), a_ret, b_ret)


@dataclass(frozen=True, slots=True)
class ChargeOdds:
    """The chain of a charge: pass the charge test, the target stands or runs, the melee."""

    charge_passes: Fraction
    target_stands: Fraction
    melee: MeleeOdds

    @property
    def target_runs(self) -> Fraction:
        """P(the charge goes in and the target fails to stand)."""
        return self.charge_passes * (1 - self.target_stands)

    @property
    def favourable(self) -> Fraction:
        """P(the charge ends with the target driven off: it runs, or loses the melee)."""
        return self.charge_passes * (
            (1 - self.target_stands) + self.target_stands * self.melee.a_wins
        )


@cache
def charge_odds(
    charge_number: int,
    charge_mod: int,
    stand_number: int,
    stand_mod: int,
    a_melee_mod: int,
    b_melee_mod: int,
) -> ChargeOdds:
    """Seed 002 charge paragraph + MORALE + MELEE, chained exactly."""
    return ChargeOdds(
        morale_odds(charge_number, charge_mod),
        morale_odds(stand_number, stand_mod),
        melee_odds(a_melee_mod, b_melee_mod),
    )


@cache
def charge_favourable(
    charge_number: int,
    charge_mod: int,
    stand_number: int,
    stand_mod: int,
    a_melee_mod: int,
    b_melee_mod: int,
) -> float:
    """:attr:`ChargeOdds.favourable` of :func:`charge_odds` as a float (the AI's hot path)."""
    odds = charge_odds(charge_number, charge_mod, stand_number, stand_mod, a_melee_mod, b_melee_mod)
    return float(odds.favourable)
