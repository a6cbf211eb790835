"""The lab's intervals against published values and hand computations."""

from __future__ import annotations

import math

import pytest

from umpire.lab import wilson
from umpire.lab.stats import compare, newcombe, paired, summarise, t95, welch


def test_t_quantiles_match_the_table() -> None:
    """Student's t, two-sided 95% (printed tables): 3.182 (3), 2.228 (10), 2.021 (40),
    2.000 (60), 1.984 (100), 1.980 (120); between 4 and 5 between their values."""
    for df, want in ((3, 3.182), (10, 2.228), (40, 2.021), (60, 2.000), (100, 1.984), (120, 1.980)):
        assert t95(df) == pytest.approx(want, abs=1.5e-3)
    assert 2.571 < t95(4.4) < 2.776
    assert t95(math.inf) == pytest.approx(1.95996, abs=1e-5)


def test_wilson_and_newcombe_published_example() -> None:
    """Newcombe (1998), Statistics in Medicine 17:873, table II, method 10: 56/70 - 48/80
    = 0.2000, 95% CI 0.0524 to 0.3339; Wilson for 81/263: 0.2553 to 0.3662 (his table I)."""
    d, lo, hi = newcombe(48, 80, 56, 70)
    assert d == pytest.approx(0.2) and lo == pytest.approx(0.0524, abs=1e-4)
    assert hi == pytest.approx(0.3339, abs=1e-4)
    lo, hi = wilson(81, 263)
    assert lo == pytest.approx(0.2553, abs=1e-4) and hi == pytest.approx(0.3662, abs=1e-4)


def test_welch_and_paired_by_hand() -> None:
    """Welch for (1,2,3,4) against (2,4,6,8): difference 2.5, se sqrt(25/12), df 4.41,
    t(4.41) ~ 2.69 between the table's 2.776 (4) and 2.571 (5); paired: (1,2,3,4) with sd
    1.291, t(3) = 3.182."""
    a, b = [1.0, 2.0, 3.0, 4.0], [2.0, 4.0, 6.0, 8.0]
    d, lo, hi = welch(a, b)
    se = math.sqrt(25 / 12)
    assert d == 2.5 and 2.571 * se < hi - d < 2.776 * se and lo == pytest.approx(2 * d - hi)
    d, lo, hi = paired(a, b)
    assert d == 2.5 and (hi - d) == pytest.approx(3.182 * 1.2909944 / 2, abs=0.02)


def test_compare_identical_arms_is_not_significant() -> None:
    """The same battles in both arms: every difference 0, none significant."""
    recs = [
        {
            "i": i,
            "seed": i,
            "winner": "union" if i % 3 else "confederate",
            "turns": 5 + i % 4,
            "losses": {"confederate": i % 5, "union": i % 7},
            "removed": {"confederate": i % 2, "union": i % 3},
            "leaders_lost": {"confederate": 0, "union": i % 2},
            "broke": {"confederate": None, "union": 5 if i % 4 == 0 else None},
            "events": {"x:event.a": i % 2},
            "dice": 100,
            "path": "scalar",
        }
        for i in range(50)
    ]
    c = compare(recs, recs)
    assert not any(v["significant"] for v in c["win_rate"].values())
    assert c["event_rate"]["x:event.a"]["diff"] == 0
    assert c["turns"]["diff"] == 0 and c["turns"]["paired_ci95"] == [0.0, 0.0]
    s = summarise(recs)
    assert s["events"]["x:event.a"]["battles"] == 25 and s["broke"]["union"]["battles"] == 13
    assert s["results"]["confederate"]["wins"] == 17
