"""Battles per second per core of the scalar engine, AI against AI, on every shipped scenario
(issue 11's goal: >= 150 for every composition).

Each scenario plays seeds 0..N-1 with ``umpire.battle.run.play`` in this one process (one
core), after one untimed battle (board, odds caches). The best of ``--repeat`` timed runs is
kept; the scenarios take turns within each repeat so a drift of the shared machine hits them
alike. Prints battles/s/core, ms per battle, decisions and dice per battle, and the ratio to
the goal.

With ``--compiled`` it runs the mypyc-compiled copy that ``build_mypyc.py`` makes (it
refuses a copy older than the sources).

Run: .venv/bin/python benchmarks/bench_scalar.py [N] [--repeat R] [--scenario NAME ...]
     [--compiled] [--profile NAME] (a pyinstrument profile of N battles of one scenario)
"""

from __future__ import annotations

import argparse
import platform
import sys
import time
from pathlib import Path
from typing import Any

# This checkout's own sources first: a copy made for a "before" run (git archive) times
# itself, not whichever checkout the venv was installed from.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

if "--compiled" in sys.argv:  # before the engine is imported
    from umpire.lab.compiled import current

    where = current()
    if where is None:
        sys.exit("build/mypyc is missing or older than src/: run python3 tasks.py compile")
    for mod in [m for m in sys.modules if m == "umpire" or m.startswith("umpire.")]:
        del sys.modules[mod]  # import umpire again, from the compiled copy
    sys.path.insert(0, str(where))

from umpire.ai import make_policy
from umpire.battle.run import play
from umpire.battle.scenario import load_scenario
from umpire.scenarios import shipped

GOAL = 150.0


def run(name: str, n: int) -> tuple[float, int, int]:
    """(seconds for seeds 0..n-1 of ``name``, dice drawn, decisions taken)."""
    scen = load_scenario(name)
    pols = {"union": make_policy("ai"), "confederate": make_policy("ai")}
    t0 = time.perf_counter()
    dice = orders = 0
    for seed in range(n):
        res = play(scen, seed, pols)
        dice += len(res.faces)
        orders += len(res.orders)
    return time.perf_counter() - t0, dice, orders


def profile(name: str, n: int) -> None:
    """Print a pyinstrument profile of ``n`` battles of ``name``."""
    from pyinstrument import Profiler

    run(name, 1)
    prof = Profiler(interval=0.0005)
    prof.start()
    run(name, n)
    prof.stop()
    print(prof.output_text(unicode=False, color=False, show_all=False))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("n", nargs="?", type=int, default=40, help="battles per scenario per run")
    ap.add_argument("--repeat", type=int, default=3, help="timed runs; the best is kept")
    ap.add_argument("--scenario", action="append", help="only these scenarios (repeatable)")
    ap.add_argument("--profile", metavar="NAME", help="profile one scenario instead")
    ap.add_argument("--compiled", action="store_true", help="run the mypyc-compiled copy")
    args = ap.parse_args()
    if args.profile:
        profile(args.profile, args.n)
        return
    names = args.scenario or shipped()
    for name in names:
        run(name, 1)  # untimed: board, odds tables, module caches
    best: dict[str, tuple[float, int, int]] = {}
    for _ in range(args.repeat):
        for name in names:
            got = run(name, args.n)
            if name not in best or got[0] < best[name][0]:
                best[name] = got
    engine: Any = sys.modules["umpire.battle.engine"]
    kind = "mypyc-compiled" if engine.__file__.endswith(".so") else "pure Python"
    print(
        f"scalar engine ({kind}), AI against AI, one process, one core, {args.n} battles "
        f"per scenario, best of {args.repeat}; Python {platform.python_version()}"
    )
    print(
        f"{'scenario':<20} {'battles/s':>10} {'ms/battle':>10} {'decisions':>10} "
        f"{'dice':>6} {'/ goal':>7}"
    )
    worst = float("inf")
    for name in names:
        secs, dice, orders = best[name]
        rate = args.n / secs
        worst = min(worst, rate)
        print(
            f"{name:<20} {rate:10.1f} {secs / args.n * 1000:10.2f} {orders / args.n:10.0f} "
            f"{dice / args.n:6.0f} {rate / GOAL:7.2f}"
        )
    print(f"slowest: {worst:.1f} battles/s/core = {worst / GOAL:.2f} of the {GOAL:.0f} goal")


if __name__ == "__main__":
    main()
