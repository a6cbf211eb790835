"""Summaries of many battles and the differences between two arms, with 95% intervals.

- a rate (a side's wins, a side breaking, an event firing): Wilson's score interval;
- a mean (turns, stands lost, units removed, leaders lost): mean +- t * sd / sqrt(n);
- the difference of two rates: Newcombe's hybrid score interval (from the two Wilson
  intervals); of two means: Welch's interval (unequal variances, Welch-Satterthwaite
  degrees of freedom). A difference is *significant* when its interval excludes 0.

The arms of a run play the same seeds, so their samples are positively correlated and
these unpaired intervals are conservative (reading ``ab_unpaired``, docs/lab.md); the
paired interval (the mean of the per-seed differences) is given beside each as well.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from typing import Any

from umpire.lab import Z95, wilson
from umpire.lab.play import Record
from umpire.sides import SIDES

OUTCOMES = (*SIDES, "draw")


T95_TABLE = (
    12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
    2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
    2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
)  # fmt: skip
"""Student's t, two-sided 95%, for 1..30 degrees of freedom (the printed table)."""


def t95(df: float) -> float:
    """The two-sided 95% quantile of Student's t with ``df`` (maybe fractional) degrees of
    freedom: the table up to 30 (linear in 1/df between entries), beyond it the
    Cornish-Fisher expansion around the normal quantile (error below 1e-4 there)."""
    if not math.isfinite(df) or df > 1e6:
        return Z95
    df = max(df, 1.0)
    if df <= 30:
        lo = math.floor(df)
        if lo == df:
            return T95_TABLE[lo - 1]
        w = (1 / lo - 1 / df) / (1 / lo - 1 / (lo + 1))
        return T95_TABLE[lo - 1] + w * (T95_TABLE[lo] - T95_TABLE[lo - 1])
    z = Z95
    return (
        z
        + (z**3 + z) / (4 * df)
        + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * df**2)
        + (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / (384 * df**3)
    )


def moments(xs: Sequence[float]) -> tuple[float, float]:
    """(mean, sample standard deviation); sd 0 for fewer than two values."""
    n = len(xs)
    if n == 0:
        return 0.0, 0.0
    m = math.fsum(xs) / n
    if n < 2:
        return m, 0.0
    return m, math.sqrt(math.fsum((x - m) ** 2 for x in xs) / (n - 1))


def mean_block(xs: Sequence[float]) -> dict[str, Any]:
    """Mean, sd, its 95% interval and the histogram of whole-number values."""
    n = len(xs)
    m, sd = moments(xs)
    half = t95(n - 1) * sd / math.sqrt(n) if n > 1 else 0.0
    hist = Counter(int(x) for x in xs)
    return {
        "mean": m,
        "sd": sd,
        "ci95": [m - half, m + half],
        "histogram": {str(k): hist[k] for k in sorted(hist)},
    }


def rate_block(k: int, n: int) -> dict[str, Any]:
    """A count among ``n`` battles, its rate and Wilson's 95% interval."""
    lo, hi = wilson(k, n)
    return {"battles": k, "rate": k / n if n else 0.0, "ci95": [lo, hi]}


def summarise(recs: Sequence[Record]) -> dict[str, Any]:
    """Everything the lab reports of one arm's battles (plain JSON values)."""
    n = len(recs)
    wins = Counter(r["winner"] for r in recs)
    events: Counter[str] = Counter()
    fired: Counter[str] = Counter()
    for r in recs:
        for k, v in r["events"].items():
            events[k] += v
            fired[k] += 1 if v else 0
    out: dict[str, Any] = {
        "battles": n,
        "paths": dict(Counter(r["path"] for r in recs)),
        "results": {
            o: {
                "wins": wins[o],
                **{k: v for k, v in rate_block(wins[o], n).items() if k != "battles"},
            }
            for o in OUTCOMES
        },
        "turns": mean_block([r["turns"] for r in recs]),
        "stands_lost": {s: mean_block([r["losses"][s] for r in recs]) for s in SIDES},
        "units_removed": {s: mean_block([r["removed"][s] for r in recs]) for s in SIDES},
        "leaders_lost": {s: mean_block([r["leaders_lost"][s] for r in recs]) for s in SIDES},
        "broke": {},
        "events": {k: {**rate_block(fired[k], n), "mean": events[k] / n} for k in sorted(events)},
        "dice": sum(r["dice"] for r in recs),
    }
    for s in SIDES:
        turns = [r["broke"][s] for r in recs if r["broke"][s] is not None]
        hist = Counter(turns)
        out["broke"][s] = {
            **rate_block(len(turns), n),
            "turn": {str(k): hist[k] for k in sorted(hist)},
        }
    return out


def newcombe(k1: int, n1: int, k2: int, n2: int) -> tuple[float, float, float]:
    """(p2 - p1, low, high): Newcombe's hybrid score 95% interval for a difference of rates."""
    p1, p2 = k1 / n1, k2 / n2
    l1, u1 = wilson(k1, n1)
    l2, u2 = wilson(k2, n2)
    d = p2 - p1
    lo = d - math.sqrt((p2 - l2) ** 2 + (u1 - p1) ** 2)
    hi = d + math.sqrt((u2 - p2) ** 2 + (p1 - l1) ** 2)
    return d, lo, hi


def welch(a: Sequence[float], b: Sequence[float]) -> tuple[float, float, float]:
    """(mean b - mean a, low, high): Welch's 95% interval for a difference of means."""
    ma, sa = moments(a)
    mb, sb = moments(b)
    va, vb = sa * sa / len(a), sb * sb / len(b)
    d = mb - ma
    se = math.sqrt(va + vb)
    if se == 0:
        return d, d, d
    df_den = (va * va / (len(a) - 1) if len(a) > 1 else 0) + (
        vb * vb / (len(b) - 1) if len(b) > 1 else 0
    )
    df = (va + vb) ** 2 / df_den if df_den else math.inf
    half = t95(df) * se
    return d, d - half, d + half


def paired(a: Sequence[float], b: Sequence[float]) -> tuple[float, float, float]:
    """(mean of b_i - a_i, low, high): the paired t interval (battle i of both arms has one
    seed). Tighter than the unpaired one; reported beside it, not instead of it."""
    ds = [y - x for x, y in zip(a, b, strict=True)]
    m, sd = moments(ds)
    half = t95(len(ds) - 1) * sd / math.sqrt(len(ds)) if len(ds) > 1 else 0.0
    return m, m - half, m + half


def _sig(d: float, lo: float, hi: float) -> bool:
    return lo > 0 or hi < 0 or (lo == hi and d != 0)


def _diff(
    d: float, lo: float, hi: float, a: float, b: float, pair: tuple[float, float, float]
) -> dict[str, Any]:
    return {
        "a": a,
        "b": b,
        "diff": d,
        "ci95": [lo, hi],
        "significant": _sig(d, lo, hi),
        "paired_ci95": [pair[1], pair[2]],
        "paired_significant": _sig(*pair),
    }


def compare(a: Sequence[Record], b: Sequence[Record]) -> dict[str, Any]:
    """Arm ``b`` against arm ``a``: each difference (b - a) with its interval."""
    na, nb = len(a), len(b)
    out: dict[str, Any] = {"win_rate": {}, "broke_rate": {}}
    same = na == nb and all(x["seed"] == y["seed"] for x, y in zip(a, b, strict=True))
    nan = (math.nan, math.nan, math.nan)

    def rate(ia: list[float], ib: list[float]) -> dict[str, Any]:
        ka, kb = int(sum(ia)), int(sum(ib))
        pair = paired(ia, ib) if same else nan
        return _diff(*newcombe(ka, na, kb, nb), ka / na, kb / nb, pair)

    for o in OUTCOMES:
        out["win_rate"][o] = rate(
            [float(r["winner"] == o) for r in a], [float(r["winner"] == o) for r in b]
        )
    for s in SIDES:
        out["broke_rate"][s] = rate(
            [float(r["broke"][s] is not None) for r in a],
            [float(r["broke"][s] is not None) for r in b],
        )
    keys = sorted({k for r in (*a, *b) for k in r["events"]})
    out["event_rate"] = {
        k: rate(
            [float(bool(r["events"].get(k))) for r in a],
            [float(bool(r["events"].get(k))) for r in b],
        )
        for k in keys
    }

    def means(key: str, side: str | None = None) -> dict[str, Any]:
        xa = [float(r[key][side] if side else r[key]) for r in a]
        xb = [float(r[key][side] if side else r[key]) for r in b]
        pair = paired(xa, xb) if same else nan
        return _diff(*welch(xa, xb), moments(xa)[0], moments(xb)[0], pair)

    out["turns"] = means("turns")
    for key, name in (
        ("losses", "stands_lost"),
        ("removed", "units_removed"),
        ("leaders_lost", "leaders_lost"),
    ):
        out[name] = {s: means(key, s) for s in SIDES}
    return out
