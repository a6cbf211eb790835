"""Seed 003's menu odds with every modifier known when the menu is drawn (issue 23).

Pure functions over the dice, exact (fractions): a volley's or a canister gun's hits on
the stick less the deductions known now, where a deduction decided by a die (the stone
wall's 1d6, XVI.F; a later canister shot's accumulating smoke, 1D6 halved, XI.A.4.b) is
folded in over its faces; and a charge's chance to reach its target through the terrain
on its path (XII.H with XVI: the centre die, then each obstacle's die in the order met,
a die over the movement left there stopping the regiment, reading ``terrain_stall``).
"""

from __future__ import annotations

import math
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
def stick_mean_none(
    dice: int, value: int, fixed: int, rolled: tuple[str, ...] = (), later: bool = False
) -> tuple[Fraction, Fraction]:
    """(expected hits, P(no hit)) of :func:`stick_odds_known`, exact and cheap: each d10
    hits at or under the stick less the deduction, p = (need + 1) / 10."""
    mean, none = Fraction(0), Fraction(0)
    for ded, q in deduction_odds(fixed, rolled, later).items():
        p = Fraction(min(10, max(0, value - ded + 1)), 10)
        mean += q * dice * p
        none += q * (1 - p) ** dice
    return mean, none


@cache
def stick_floats(
    dice: int, value: int, fixed: int, rolled: tuple[str, ...] = (), later: bool = False
) -> tuple[float, float]:
    """(expected hits, P(at least one hit)) of :func:`stick_mean_none` as floats, kept (the
    menus offer them at every fire decision)."""
    mean, none = stick_mean_none(dice, value, fixed, rolled, later)
    return float(mean), float(1 - none)


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
    order met) is crossed as ``ground.terrain_cost`` crosses it (its die rolled; one beyond
    the movement left is not reached; a deduction over the movement left there stops the
    charge, XVI.E.1.a, F.1); it reaches when what is left covers ``gap``."""
    sides = [_faces(kind) for _, kind in met]
    ways = math.prod(len(f) for f in sides)
    weights, below = _centre_weights(dice)
    total = 0  # in whole numbers over ``below * ways``: one Fraction at the end, same value
    for centre, w in weights:
        total += w * _through(base + centre, gap, met, sides, 0)
    return Fraction(total, below * ways)


@cache
def _centre_weights(dice: tuple[tuple[int, int], ...]) -> tuple[tuple[tuple[int, int], ...], int]:
    """:func:`centre_odds` over one common denominator: ((centre, numerator), ...), and it."""
    odds = centre_odds(dice)
    below = math.lcm(*(p.denominator for p in odds.values()))
    return tuple((c, p.numerator * (below // p.denominator)) for c, p in odds.items()), below


def _faces(kind: str) -> tuple[int | None, ...]:
    """The faces of ``kind``'s movement die (None: a fixed deduction)."""
    die = T.move_die(kind)
    return (None,) if die is None else tuple(range(1, die[1] + 1))


@cache
def _amounts(kind: str) -> tuple[bool, tuple[int, ...]]:
    """(adds, the inches of each face of :func:`_faces`) of ``kind``: ``T.movement``'s
    amounts read once (the charge odds cross the same terrain thousands of times)."""
    amounts = []
    for face in _faces(kind):
        going = T.movement(kind, 100.0, face)  # a long way left: never stalls here
        amounts.append(going.deduction)
    return T.movement(kind, 100.0, _faces(kind)[0]).left > 100.0, tuple(amounts)


def _through(
    left: float,
    gap: float,
    met: tuple[tuple[float, str], ...],
    sides: list[tuple[int | None, ...]],
    k: int,
) -> int:
    """How many of the faces of the dice of ``met[k:]`` (all of them counted, the ones not
    reached too) bring the charge to ``gap`` with ``left`` inches before ``met[k]``
    (``T.movement``'s arithmetic, as :func:`_amounts` reads it)."""
    if k == len(met) or (met[k][0] > 0 and met[k][0] >= left):  # none left, or not reached
        return math.prod(len(f) for f in sides[k:]) if left >= gap - 1e-9 else 0
    at, kind = met[k]
    there = max(0.0, left - at)
    adds, amounts = _amounts(kind)
    out = 0
    for amount in amounts:
        if adds:
            out += _through(left + ((there + amount) - there), gap, met, sides, k + 1)
        elif amount <= there:  # more than the movement left there stalls it
            out += _through(left + ((there - amount) - there), gap, met, sides, k + 1)
    return out


def expected(dist: dict[int, Fraction]) -> Fraction:
    """The mean of a distribution, exact."""
    return sum((k * p for k, p in dist.items()), Fraction(0))


@lru_cache(maxsize=1024)
def round_odds_at(
    kind: str, consecutive: bool, within: int, error: float, hd: float
) -> dict[int, Fraction]:
    """Exact P(hits) of one gun's round as ``firing.round_at`` fires it (reading
    ``artillery_round``): the 5d10 hand (XI.B, C), its flight (a dud's d6, a 'both' settled
    on a d6), the left or right d6 and its 1D6 halved inches (``within``: how many of 1, 2,
    3 still strike, XI.A.1.a), the range called ``error`` inches beyond the target (XI.C.1,
    reading ``called_range``: a long round lands 1D6 halved beyond it, a short one short of
    it; beyond the half depth ``hd`` it misses, short by more than 2" it misses, short by up
    to 2" a shell bursts forward and a shot must bounce), then the burst or the shot."""
    on_line = Fraction(4, 6) + Fraction(2, 6) * Fraction(within, 3)
    out: dict[int, Fraction] = {}

    def add(dist: dict[int, Fraction], p: Fraction) -> None:
        for h, q in dist.items():
            out[h] = out.get(h, Fraction(0)) + p * q

    fires = sum(_flights(kind, consecutive).values(), Fraction(0))
    add({0: Fraction(1)}, 1 - fires)  # a misfire
    add({0: Fraction(1)}, fires * (1 - on_line))
    for (burst, f), q in _flights(kind, consecutive).items():
        w = q * on_line
        if f == "long" and not error:
            add({0: Fraction(1)}, w)  # on the true range a long round passes over
            continue
        lands = [error] if not f else [error + h if f == "long" else error - h for h in (1, 2, 3)]
        for land in lands:
            add(_strike(kind, burst, land, hd), w / len(lands))
    return out


def _strike(kind: str, burst: bool, land: float, hd: float) -> dict[int, Fraction]:
    """What a round landing ``land`` inches beyond the target's centre does (``round_at``)."""
    if land > hd:
        return {0: Fraction(1)}
    short = -land if land < -hd else 0.0
    if short > 2:
        return {0: Fraction(1)}
    if burst:
        return ART.burst_odds(kind)
    return _shot(bool(short))


@cache
def _shot(short: bool) -> dict[int, Fraction]:
    """XI.A.1: a solid shot's hits; a short one strikes only when its d10 bounces (even)."""
    out: dict[int, Fraction] = {}
    for bounce in ART.D10:
        if short and bounce % 2:
            out[0] = out.get(0, Fraction(0)) + Fraction(1, 10)
            continue
        n = int(ART.data()["solid_shot"]["dice_bounce" if bounce % 2 == 0 else "dice_no_bounce"])
        for combo, q in ART.multisets(n):
            hits = ART.solid_shot_hits(bounce, combo)[1]
            out[hits] = out.get(hits, Fraction(0)) + q / 10
    return out


@lru_cache(maxsize=4096)
def round_expected_at(
    kind: str, consecutive: bool, within: int, error: float, hd: float
) -> Fraction:
    """The mean of :func:`round_odds_at`, worked out from the means of what strikes (the
    menus need only it)."""
    on_line = Fraction(4, 6) + Fraction(2, 6) * Fraction(within, 3)
    total = Fraction(0)
    for (burst, f), w in _flights(kind, consecutive).items():
        if f == "long" and not error:
            continue
        lands = [error] if not f else [error + h if f == "long" else error - h for h in (1, 2, 3)]
        for land in lands:
            total += w * _strike_mean(kind, burst, land, hd) / len(lands)
    return total * on_line


@cache
def _flights(kind: str, consecutive: bool) -> dict[tuple[bool, str], Fraction]:
    """P(a round bursts (a shell's or case's burst or hit), its flight) of a hand that
    fires (XI.B-C; a dud's flight on its d6, a 'both' settled on a d6)."""
    out: dict[tuple[bool, str], Fraction] = {}
    for (result, fl), p in ART.result_odds(consecutive).items():
        if result == "misfire":
            continue
        flights: dict[str, Fraction] = {fl: Fraction(1)}
        if result == "dud":
            flights = {"short": Fraction(1, 6), "long": Fraction(1, 6), "": Fraction(4, 6)}
        elif fl == "both":
            flights = {"short": Fraction(1, 2), "long": Fraction(1, 2)}
        burst = kind in ("shell", "case") and result in ("burst", "hit")
        for f, q in flights.items():
            out[burst, f] = out.get((burst, f), Fraction(0)) + p * q
    return out


def _strike_mean(kind: str, burst: bool, land: float, hd: float) -> Fraction:
    """The mean of :func:`_strike`."""
    if land > hd or (land < -hd and -land > 2):
        return Fraction(0)
    return _mean(kind if burst else "", land < -hd)


@cache
def _mean(kind: str, short: bool) -> Fraction:
    """The mean hits of a burst of ``kind`` ("": a solid shot, ``short``: it must bounce)."""
    return expected(ART.burst_odds(kind) if kind else _shot(short))
