"""Battles per second per core on the standard scenario, AI against AI (goal: >= 500; issue
11: the batch path >= 1,500).

Two implementations of the same rules and AI are timed in one process on one core:

- the scalar engine (``umpire.battle.run.play``, one battle at a time, seeds 0..N-1);
- the batch simulator (``umpire.lab.run_batch``, N battles in lock step on numba's
  kernels), on one bulk dice stream per batch and, as ``umpire simulate`` plays it, on
  one ``SeededSource`` stream per battle (``Dice.per_battle``: the scalar engine's own
  battles). Without numba (``umpire.jit.ENABLED`` False) there is no batch path: the lab
  plays the scalar engine, and only it is timed.

For each it prints battles/s/core and the dice per second it consumed, and beside them
the raw dice rates of numpy's generator and of umpire's ``SeededSource`` measured in the
same run, with the ratios. The best of ``--repeat`` timed runs is reported; the first
run of each (board, odds tables) is not timed.

Run: .venv/bin/python benchmarks/bench_battle.py [N] [--lab-n M] [--batch B]
     [--scenario NAME] [--repeat R]
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from bench_scalar import run  # this folder is on the path when a script runs

from umpire import jit
from umpire.ai import make_policy
from umpire.battle.run import play
from umpire.battle.scenario import load_scenario
from umpire.dice import SeededSource
from umpire.dice.bulk import Dice
from umpire.lab import run_batch

GOAL = 500.0
GOAL_BATCH = 1500.0  # issue 11's goal for the batch path


def scalar(scenario: str, n: int, repeat: int) -> tuple[float, int, int]:
    """(best seconds for n battles, dice drawn, decisions taken) over seeds 0..n-1."""
    play(load_scenario(scenario), n, {s: make_policy("ai") for s in ("union", "confederate")})
    best, dice, orders = float("inf"), 0, 0  # (the first battle built the board and odds)
    for _ in range(repeat):
        secs, dice, orders = run(scenario, n)  # the same timed loop as bench_scalar
        best = min(best, secs)
    return best, dice, orders


def batch(
    scenario: str, n: int, size: int, repeat: int, per_battle: bool = False
) -> tuple[float, int]:
    """(best seconds for n battles in batches of ``size``, dice drawn); ``per_battle``:
    battle i on its own ``SeededSource(i)``, as the lab plays it."""
    scen = load_scenario(scenario)
    run_batch(scen, 32, 1)  # build the arrays and the exact odds tables
    best, dice = float("inf"), 0
    for rep in range(repeat):
        t0 = time.perf_counter()
        dice = 0
        done = 0
        while done < n:
            k = min(size, n - done)
            if per_battle:
                seeds = list(range(done, done + k))
                dice += run_batch(scen, k, dice=Dice.per_battle(seeds)).dice
            else:
                dice += run_batch(scen, k, 1000 * rep + done).dice
            done += k
        best = min(best, time.perf_counter() - t0)
    return best, dice


def numpy_rate(size: int = 10_000_000) -> float:
    """Raw d6 faces per second from numpy's generator, in one vectorised call."""
    rng = np.random.default_rng(0)
    t0 = time.perf_counter()
    rng.integers(1, 7, size=size)
    return size / (time.perf_counter() - t0)


def seeded_rate(size: int = 200_000) -> float:
    """Raw d6 faces per second from umpire's SeededSource (blake2b counter), in bulk."""
    src = SeededSource(0)
    t0 = time.perf_counter()
    for _ in range(size // 2000):
        src.dice(2000, 6)
    return size / (time.perf_counter() - t0)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("n", nargs="?", type=int, default=50, help="scalar battles per timed run")
    ap.add_argument("--lab-n", type=int, default=8192, help="batch-simulator battles per run")
    ap.add_argument("--batch", type=int, default=4096, help="battles per batch")
    ap.add_argument("--scenario", default="standard")
    ap.add_argument("--repeat", type=int, default=3, help="timed runs; the best is kept")
    args = ap.parse_args()
    s_secs, s_dice, orders = scalar(args.scenario, args.n, args.repeat)
    if not jit.ENABLED:
        print(f"scalar engine: {args.n / s_secs:8.1f} battles/s/core ({args.n} battles)")
        print("batch simulator: not played (numba is not available; the lab plays the scalar")
        print("engine, the same battles)")
        return
    b_secs, b_dice = batch(args.scenario, args.lab_n, args.batch, args.repeat)
    p_secs, _ = batch(args.scenario, args.lab_n, args.batch, args.repeat, per_battle=True)
    raw_np = numpy_rate()
    raw_seeded = seeded_rate()
    s_rate, b_rate = args.n / s_secs, args.lab_n / b_secs
    s_dps, b_dps = s_dice / s_secs, b_dice / b_secs
    print(f"scenario: {args.scenario}, AI against AI, one process, one core, best of {args.repeat}")
    print(
        f"scalar engine:   {s_rate:8.1f} battles/s/core ({args.n} battles; "
        f"{s_secs / args.n * 1000:.2f} ms per battle, {orders / args.n:.0f} decisions, "
        f"{s_secs / orders * 1e6:.1f} us per decision)"
    )
    print(
        f"batch simulator: {b_rate:8.1f} battles/s/core ({args.lab_n} battles in batches of "
        f"{args.batch}; {b_secs / args.lab_n * 1000:.2f} ms per battle)"
    )
    p_rate = args.lab_n / p_secs
    print(
        f"batch simulator, a dice stream per battle (the lab's path): {p_rate:8.1f} "
        f"battles/s/core ({p_secs / args.lab_n * 1000:.2f} ms per battle)"
    )
    print(
        f"issue 11's goal {GOAL_BATCH:.0f} for the batch path: one stream "
        f"{b_rate / GOAL_BATCH:.1%} of it, per-battle streams {p_rate / GOAL_BATCH:.1%} of it"
    )
    print(
        f"goal {GOAL:.0f}: scalar {s_rate / GOAL:.1%} of it, batch {b_rate / GOAL:.1%} of it; "
        f"batch / scalar = {b_rate / s_rate:.1f}x"
    )
    print(
        f"dice/s consumed: scalar {s_dps:,.0f} ({s_dice / args.n:.0f} per battle), "
        f"batch {b_dps:,.0f} ({b_dice / args.lab_n:.0f} per battle)"
    )
    print(
        f"numpy raw dice/s: {raw_np:,.0f}; umpire SeededSource raw dice/s (bulk): {raw_seeded:,.0f}"
    )
    print(
        f"ratios: numpy raw / scalar dice = {raw_np / s_dps:,.0f}x, numpy raw / batch dice = "
        f"{raw_np / b_dps:,.0f}x; SeededSource / batch dice = {raw_seeded / b_dps:,.1f}x "
        f"(drawing the batch's dice is {b_dps / raw_seeded:.1%} of its time)"
    )


if __name__ == "__main__":
    main()
