"""How honest the exact-odds cost estimate is (issue 21): estimate against measured seconds.

For a grid of dice expressions (plain sums, kept dice, sums of groups, counts, divisions) it
prints ``odds_cost`` (the estimate made before any work), whether ``MAX_ODDS_COST`` allows
it, and the seconds icepool actually takes (each case in a fresh process, icepool imported
first, cut off after ``--timeout`` seconds). Goal: every allowed case in about a second;
the script ends with the slowest allowed case and the fastest refused one.

Run: PYTHONPATH=src .venv/bin/python benchmarks/bench_odds_cost.py [--timeout S] [--quick]
"""

from __future__ import annotations

import argparse
import subprocess
import sys

GRID = [
    "2d6",
    "4d6kh3",
    "d66+d66",
    "100d6",
    "100d10",
    "100d20",
    "100d30",
    "10d100",
    "20d100",
    "30d100",
    "40d100",
    "10d200",
    "10d300",
    "10d400",
    "3d1000",
    "4d1000",
    "6d300",
    "6d666",
    "100d1000",
    "10d100kh3",
    "20d100kh3",
    "10d100kh9",
    "10d300kh3",
    "40d20kh20",
    "100d6kh50",
    "100d20kh10",
    "2d1000kh1",
    "5d900kl2",
    "10d1000kh3",
    "d1000+d1000+d1000",
    "d1000+d1000+d1000+d1000",
    "(3d1000+5)/2",
    "100d10<=6",
    "100d1000<=500",
    "20d20+20d20+20d20",
]

_CHILD = """
import sys, time
sys.setrecursionlimit(1100)
from umpire.dice import parse
from umpire.dice.distribution import _exact
import icepool
e = parse(sys.argv[1])
t = time.perf_counter()
_exact(e)
print(time.perf_counter() - t)
"""


def main() -> None:
    """Print estimate, verdict and measured seconds for each expression of the grid."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--timeout", type=float, default=30.0)
    ap.add_argument("--quick", action="store_true", help="measure only the allowed cases")
    args = ap.parse_args()
    from umpire.dice import parse
    from umpire.dice.distribution import MAX_ODDS_COST, odds_cost

    print(f"MAX_ODDS_COST {MAX_ODDS_COST:,} steps")
    print(f"{'expression':26s} {'estimate':>14s} {'allowed':>8s} {'seconds':>9s} {'us/step':>8s}")
    worst_allowed: tuple[float, str] = (0.0, "")
    best_refused: tuple[float, str] = (float("inf"), "")
    for text in GRID:
        cost = odds_cost(parse(text))
        allowed = cost <= MAX_ODDS_COST
        if not allowed and args.quick:
            print(f"{text:26s} {cost:14,d} {'no':>8s} {'-':>9s}")
            continue
        try:
            out = subprocess.run(
                [sys.executable, "-c", _CHILD, text],
                capture_output=True,
                text=True,
                timeout=args.timeout,
            )
            secs = float(out.stdout.strip()) if out.returncode == 0 else float("nan")
            shown = f"{secs:9.3f}" if out.returncode == 0 else "   failed"
        except subprocess.TimeoutExpired:
            secs, shown = args.timeout, f">{args.timeout:7.0f}s"
        per = secs / cost * 1e6 if cost else 0.0
        print(f"{text:26s} {cost:14,d} {'yes' if allowed else 'no':>8s} {shown} {per:8.3f}")
        if allowed and secs > worst_allowed[0]:
            worst_allowed = (secs, text)
        if not allowed and secs < best_refused[0]:
            best_refused = (secs, text)
    print(f"slowest allowed: {worst_allowed[1]} {worst_allowed[0]:.3f} s")
    if best_refused[1]:
        print(f"fastest refused: {best_refused[1]} {best_refused[0]:.3f} s")


if __name__ == "__main__":
    main()
