"""Seed 003's menu odds with every modifier known when the menu is drawn (issue 23).

Pure functions over the dice, exact (fractions): a volley's or a canister gun's hits on
the stick less the deductions known now, where a deduction decided by a die (the stone
wall's 1d6, XVI.F; a later canister shot's accumulating smoke, 1D6 halved, XI.A.4.b) is
folded in over its faces; and a charge's chance to reach its target through the terrain
on its path (XII.H with XVI: the centre die, then each obstacle's die in the order met,
a die over the movement left there stopping the regiment, reading ``terrain_stall``).
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from functools import cache, lru_cache

from umpire.rules.action_reaction import artillery as ART
from umpire.rules.action_reaction import terrain as T


@cache
def deduction_odds(fixed: int, rolled: tuple[str, ...], later: bool) -> dict[int, Fraction]:
    """XV.4 'all are cumulative': the exact distribution of the total deduction, ``fixed``
    plus the firing die of each wall in ``rolled`` (XVI.F: the stone wall's 1d6) plus, on a
    later canister shot, the accumulating smoke's 1D6 halved (XI.A.4.b)."""
    dist = {fixed: Fraction(1)}
    dice: list[dict[int, Fraction]] = []
    for kind in rolled:
        sides = T.fire_die(kind)
        if sides is None:
            dice.append({T.fire_deduction(kind): Fraction(1)})
            continue
        dice.append(_uniform([T.fire_deduction(kind, f) for f in range(1, sides + 1)]))
    if later:
        dice.append(_uniform([ART.halved(f) for f in range(1, 7)]))
    for die in dice:
        out: dict[int, Fraction] = {}
        for a, p in dist.items():
            for v, q in die.items():
                out[a + v] = out.get(a + v, Fraction(0)) + p * q
        dist = out
    return dist


def _uniform(values: Sequence[int]) -> dict[int, Fraction]:
    """The distribution of a fair die whose faces read ``values``."""
    out: dict[int, Fraction] = {}
    for v in values:
        out[v] = out.get(v, Fraction(0)) + Fraction(1, len(values))
    return out


@cache
def stick_odds_known(
    dice: int, value: int, fixed: int, rolled: tuple[str, ...] = (), later: bool = False
) -> dict[int, Fraction]:
    """Exact P(hits) of ``dice`` d10 on the stick at ``value`` (XI.A.4.a, default
    ``infantry_fire``) less the deductions of :func:`deduction_odds`."""
    out: dict[int, Fraction] = {}
    for ded, p in deduction_odds(fixed, rolled, later).items():
        for h, q in ART.stick_odds(dice, value, ded).items():
            out[h] = out.get(h, Fraction(0)) + p * q
    return out


@cache
def centre_odds(dice: tuple[tuple[int, int], ...]) -> dict[int, Fraction]:
    """XII.H.3-4: the exact distribution of the centre die of a charge, the highest of its
    rolls arranged centre out (``M.centre_out``); a column's d10 shows 0-9 (``d10_zero``)."""
    from umpire.dice import parse

    n, sides = dice[0]
    if sides == 10 and n == 1:
        return {v: Fraction(1, 10) for v in range(10)}
    one = {int(v): Fraction(p) for v, p in parse(f"{n}d{sides}").distribution()}
    below = Fraction(0)
    out: dict[int, Fraction] = {}
    for v in sorted(one):
        at_most = (below + one[v]) ** len(dice)
        out[v] = at_most - below ** len(dice)
        below += one[v]
    return out


@lru_cache(maxsize=4096)
def reach_odds_through(
    dice: tuple[tuple[int, int], ...],
    base: float,
    gap: float,
    met: tuple[tuple[float, str], ...],
) -> Fraction:
    """Exact P(a charge reaches): its centre covers ``base`` (the move less fog) plus the
    centre die, then each obstacle in ``met`` ((inches along the path, XVI kind), in the
    order met) is crossed as ``steps.terrain_cost`` crosses it (its die rolled; one beyond
    the movement left is not reached; a deduction over the movement left there stops the
    charge, XVI.E.1.a, F.1); it reaches when what is left covers ``gap``."""
    total = Fraction(0)
    for centre, p in centre_odds(dice).items():
        total += p * _through(base + centre, gap, met)
    return total


def _through(left: float, gap: float, met: tuple[tuple[float, str], ...]) -> Fraction:
    """P(reaching ``gap`` with ``left`` inches before the obstacles ``met``)."""
    if not met or (met[0][0] > 0 and met[0][0] >= left):  # none left, or not reached
        return Fraction(1) if left >= gap - 1e-9 else Fraction(0)
    (at, kind), rest = met[0], met[1:]
    die = T.move_die(kind)
    faces: list[int | None] = [None] if die is None else list(range(1, die[1] + 1))
    there = max(0.0, left - at)
    out = Fraction(0)
    for face in faces:
        going = T.movement(kind, there, face)
        if not going.stalled:
            out += _through(left + (going.left - there), gap, rest)
    return out / len(faces)


def expected(dist: dict[int, Fraction]) -> Fraction:
    """The mean of a distribution, exact."""
    return sum((k * p for k, p in dist.items()), Fraction(0))
