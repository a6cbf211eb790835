"""Exact odds: icepool's distribution against brute-force enumeration and against sampling."""

from __future__ import annotations

import itertools
import math
from collections import Counter
from fractions import Fraction

import pytest

from umpire.dice import DiceExpr, DiceSource, Distribution, ScriptedSource, SeededSource, parse


class _Recorder(DiceSource):
    """Records the (n, sides) requests of one roll; gives 1s."""

    kind = "recorder"

    def __init__(self) -> None:
        self.position = 0
        self.requests: list[tuple[int, int]] = []

    def dice(self, n: int, sides: int, purpose: str = "") -> list[int]:
        self.requests.append((n, sides))
        self.position += n
        return [1] * n


def enumerate_rolls(e: DiceExpr) -> dict[int | bool, Fraction]:
    """Roll ``e`` once for every combination of faces (through roll(), not icepool)."""
    recorder = _Recorder()
    e.roll(recorder)
    sides = [s for n, s in recorder.requests for _ in range(n)]
    tally: Counter[int | bool] = Counter()
    for faces in itertools.product(*(range(1, s + 1) for s in sides)):
        tally[e.roll(ScriptedSource(faces)).total] += 1
    whole = sum(tally.values())
    return {v: Fraction(c, whole) for v, c in tally.items()}


ENUMERABLE = [
    "2d6",
    "3d6",
    "4d6kh3",
    "4d6kl1",
    "2d6kh",
    "d6/2",
    "d6//2",
    "(2d6+1)/2",
    "3d10<=6",
    "4d6=6",
    "3d6>4",
    "3d6<1",
    "d66",
    "d66-d6",
    "2d6+1>=8",
    "1d20>=15",
    "(2d6)>=4",
    "2d6>=8",
    "(3d6<=2)+d4-1",
    "(3d6<=2)>=2",
    "d6/2/2+d8//3",
    "1-d6-d6",
    "d20=7",
    "7",
    "2d1+3",
]


@pytest.mark.parametrize("text", ENUMERABLE)
def test_exact_matches_enumeration(text: str) -> None:
    e = parse(text)
    dist = e.distribution()
    assert dict(dist.outcomes) == enumerate_rolls(e)
    assert dist.values == e.outcome_values()
    assert [v for v, _ in dist.outcomes] == sorted(v for v, _ in dist.outcomes)


def test_known_values() -> None:
    assert parse("2d6+1>=8").distribution().probability(True) == Fraction(21, 36)
    assert parse("1d20>=15").distribution().probability(True) == Fraction(6, 20)
    assert parse("(2d6)>=4").distribution().probability(True) == Fraction(33, 36)
    assert parse("d6/2").distribution().outcomes == tuple((v, Fraction(1, 3)) for v in (1, 2, 3))
    d66 = parse("d66").distribution()
    assert len(d66) == 36 and d66.min == 11 and d66.max == 66
    assert d66.probability(17) == 0 and d66.probability(35) == Fraction(1, 36)
    kh = parse("4d6kh3").distribution()
    hand: Counter[int] = Counter(
        sum(sorted(f)[1:]) for f in itertools.product(range(1, 7), repeat=4)
    )
    assert dict(kh.outcomes) == {v: Fraction(c, 1296) for v, c in hand.items()}


def test_success_count_is_binomial() -> None:
    dist = parse("9d10<=6").distribution()
    p = Fraction(6, 10)
    assert dict(dist.outcomes) == {
        k: math.comb(9, k) * p**k * (1 - p) ** (9 - k) for k in range(10)
    }
    assert dist.mean == Fraction(54, 10)


def test_distribution_api() -> None:
    dist = parse("2d6").distribution()
    assert (dist.min, dist.max, dist.mean) == (2, 12, Fraction(7))
    assert dist.p_at_least(8) == Fraction(15, 36)
    assert dist.p_at_most(4) == Fraction(6, 36)
    assert dist.probability(13) == 0
    assert dist.to_json()[0] == {"value": 2, "p": "1/36"}
    assert not dist.is_comparison
    comparison = parse("2d6>=8").distribution()
    assert comparison.is_comparison
    assert comparison.values == (False, True)
    assert comparison.to_json() == [{"value": False, "p": "7/12"}, {"value": True, "p": "5/12"}]
    always = parse("d6>=1").distribution()
    assert always.outcomes == ((True, Fraction(1)),)
    assert always.probability(False) == 0 and always.probability(1) == 0
    with pytest.raises(ValueError):
        Distribution(((1, Fraction(1, 2)),))


def test_large_expressions_are_exact() -> None:
    dist = parse("100d6").distribution()
    assert dist.min == 100 and dist.max == 600
    assert sum(p for _, p in dist.outcomes) == 1
    assert parse("20d10kh3").distribution().max == 30


# --------------------------------------------------------------------------- sampling


def chi_square_critical(df: int, z: float = 3.719) -> float:
    """Wilson-Hilferty approximation of the chi-square quantile (z=3.719: p = 0.0001)."""
    c = 2 / (9 * df)
    return float(df * (1 - c + z * math.sqrt(c)) ** 3)


@pytest.mark.parametrize(
    ("text", "seed"),
    [
        ("2d6", 1),
        ("3d6", 2),
        ("4d6kh3", 3),
        ("d6/2", 4),
        ("9d10<=6", 5),
        ("d66", 6),
        ("2d6+1>=8", 7),
        ("d20", 8),
        ("d1000//100", 9),
        ("3d7kl2-d3", 10),
    ],
)
def test_sampler_agrees_with_exact(text: str, seed: int) -> None:
    e = parse(text)
    dist = e.distribution()
    source = SeededSource(seed)
    n = 20_000
    observed = Counter(e.roll(source).total for _ in range(n))
    # merge outcomes into bins with an expected count of at least 5
    bins: list[tuple[float, int]] = []
    expected_acc, observed_acc = 0.0, 0
    for value, p in dist.outcomes:
        expected_acc += float(p) * n
        observed_acc += observed.get(value, 0)
        if expected_acc >= 5:
            bins.append((expected_acc, observed_acc))
            expected_acc, observed_acc = 0.0, 0
    if expected_acc:
        last_e, last_o = bins.pop()
        bins.append((last_e + expected_acc, last_o + observed_acc))
    assert set(observed) <= set(dist.values)
    statistic = sum((o - x) ** 2 / x for x, o in bins)
    assert statistic < chi_square_critical(len(bins) - 1), (statistic, len(bins))
