"""Battles per second per core on the standard scenario, AI against AI (goal: >= 500).

Also prints the dice per second the engine consumed, the raw dice rates of numpy and of
umpire's own seeded source measured in the same run, and the ratios between them. One
process, one core; the best of ``--repeat`` timed runs is reported (the first battle,
which builds the board and warms the caches, is not timed).

Run: .venv/bin/python benchmarks/bench_battle.py [N] [--scenario NAME] [--repeat R]
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from umpire.ai import make_policy
from umpire.battle.run import play
from umpire.dice import SeededSource
from umpire.scenarios import load_scenario

GOAL = 500.0


def battles(scenario: str, n: int, repeat: int) -> tuple[float, int, int]:
    """(best seconds for n battles, dice drawn, decisions taken) over seeds 0..n-1."""
    scen = load_scenario(scenario)
    pols = {"union": make_policy("ai"), "confederate": make_policy("ai")}
    play(scen, n, pols)  # build the board, fill the odds caches
    best, dice, orders = float("inf"), 0, 0
    for _ in range(repeat):
        t0 = time.perf_counter()
        dice = orders = 0
        for seed in range(n):
            res = play(scen, seed, pols)
            dice += len(res.faces)
            orders += len(res.orders)
        best = min(best, time.perf_counter() - t0)
    return best, dice, orders


def numpy_rate(size: int = 10_000_000) -> float:
    """Raw d6 faces per second from numpy's generator, in one vectorised call."""
    rng = np.random.default_rng(0)
    t0 = time.perf_counter()
    rng.integers(1, 7, size=size)
    return size / (time.perf_counter() - t0)


def seeded_rate(size: int = 200_000) -> float:
    """Raw d6 faces per second from umpire's SeededSource (blake2b counter), 2 at a time."""
    src = SeededSource(0)
    t0 = time.perf_counter()
    for _ in range(size // 2):
        src.dice(2, 6)
    return size / (time.perf_counter() - t0)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("n", nargs="?", type=int, default=50, help="battles per timed run")
    ap.add_argument("--scenario", default="standard")
    ap.add_argument("--repeat", type=int, default=3, help="timed runs; the best is kept")
    args = ap.parse_args()
    secs, dice, orders = battles(args.scenario, args.n, args.repeat)
    rate = args.n / secs
    engine_dice = dice / secs
    raw_np = numpy_rate()
    raw_seeded = seeded_rate()
    print(f"scenario: {args.scenario}, {args.n} battles AI vs AI, best of {args.repeat} runs")
    print(
        f"battles/second/core: {rate:.1f} (goal {GOAL:.0f}: {rate / GOAL:.1%} of it); "
        f"{secs / args.n * 1000:.1f} ms per battle, {orders / args.n:.0f} decisions, "
        f"{secs / orders * 1e6:.1f} us per decision"
    )
    print(f"engine dice/second: {engine_dice:,.0f} ({dice / args.n:.0f} dice per battle)")
    print(f"numpy raw dice/second: {raw_np:,.0f}")
    print(f"umpire SeededSource raw dice/second: {raw_seeded:,.0f}")
    print(
        f"ratios: numpy raw / engine = {raw_np / engine_dice:,.0f}x; "
        f"SeededSource raw / engine = {raw_seeded / engine_dice:,.0f}x; "
        f"dice drawing is {engine_dice / raw_seeded:.2%} of the engine's time"
    )


if __name__ == "__main__":
    main()
