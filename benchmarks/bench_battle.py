"""Battles per second per core on the standard scenario, AI against AI (goal: >= 500).

Also prints the dice per second the engine consumed and numpy's raw dice rate measured
in the same run. Run: PYTHONPATH=src .venv/bin/python benchmarks/bench_battle.py [N]
"""

from __future__ import annotations

import sys
import time

import numpy as np

from umpire.ai import make_policy
from umpire.battle.run import play
from umpire.scenarios import load_scenario


def main(n: int = 10) -> None:
    scen = load_scenario("standard")
    pols = {"union": make_policy("ai"), "confederate": make_policy("ai")}
    play(scen, 0, pols)  # warm caches
    t0 = time.perf_counter()
    dice = 0
    for seed in range(n):
        dice += len(play(scen, seed, pols).faces)
    dt = time.perf_counter() - t0
    rng = np.random.default_rng(0)
    t1 = time.perf_counter()
    raw = rng.integers(1, 7, size=10_000_000)
    dr = time.perf_counter() - t1
    print(f"battles/second/core: {n / dt:.2f} (goal 500)")
    print(f"engine dice/second: {dice / dt:,.0f} ({dice / n:.0f} dice per battle)")
    print(f"numpy raw dice/second: {raw.size / dr:,.0f}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 10)
