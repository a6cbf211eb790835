"""Exact hand-to-hand odds (seed 003 XIV) for every N against M up to 12 a side: ms each.

Goal: each distribution computed from scratch in at most 50 ms. Prints the table of
milliseconds, the slowest case and its ratio to the goal.

Run: .venv/bin/python benchmarks/bench_h2h.py [--repeat R]
"""

from __future__ import annotations

import argparse
import time

from umpire.rules.action_reaction import h2h

GOAL_MS = 50.0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3, help="timed runs per case; the best is kept")
    args = ap.parse_args()
    table: dict[tuple[int, int], float] = {}
    for n in range(1, h2h.MAX_DICE + 1):
        for m in range(1, h2h.MAX_DICE + 1):
            best = float("inf")
            for _ in range(args.repeat):
                h2h.strike_counts.cache_clear()
                t0 = time.perf_counter()
                h2h.strike_counts(n, m)
                best = min(best, time.perf_counter() - t0)
            table[n, m] = best * 1000
    print("ms per exact distribution (rows: attacker dice, columns: defender dice)")
    print("     " + "".join(f"{m:6d}" for m in range(1, h2h.MAX_DICE + 1)))
    for n in range(1, h2h.MAX_DICE + 1):
        row = "".join(f"{table[n, m]:6.1f}" for m in range(1, h2h.MAX_DICE + 1))
        print(f"{n:4d} {row}")
    (n, m), worst = max(table.items(), key=lambda kv: kv[1])
    ratio = worst / GOAL_MS
    print(f"slowest: {n} against {m}: {worst:.1f} ms; goal {GOAL_MS:.0f} ms: {ratio:.2f} of it")


if __name__ == "__main__":
    main()
