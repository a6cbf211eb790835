"""The AI's levels in the lab (issue 23): a level against normal, paired with normal
against normal on the same seeds, per shipped scenario and side; pooled difference in win
rate with its 95% interval; seconds per battle of each arm and the slowest decision.

Goal: hard wins at least 10 points more often than normal pooled over every scenario and
side, its 95% interval above zero, no cell significantly worse; a hard battle at most 10x
a normal one, no decision over a second.

Run: PYTHONPATH=src .venv/bin/python benchmarks/bench_ai_levels.py [--n 200] [--level hard]
     [--scenarios a,b] [--seed S] [--workers W] [--engine auto|python|compiled]
Plays on the scalar engine (the batch simulator plays only the shipped AI), on its
mypyc-compiled build when ``umpire.lab.compiled`` finds one current (``--engine auto``, as
``umpire simulate`` does; build it with ``benchmarks/build_mypyc.py --if-stale``): the
script runs itself again with the build first on its import path, and says which it ran.
"""

from __future__ import annotations

import argparse
import math
import os
import platform
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from umpire.ai import make_policy
from umpire.battle.engine import Battle, Order, Request
from umpire.battle.run import play
from umpire.battle.scenario import load_scenario
from umpire.lab import battle_seed
from umpire.scenarios import shipped
from umpire.sides import SIDES_UNION_FIRST

SIDES = SIDES_UNION_FIRST
SCENARIOS = tuple(shipped())  # every shipped scenario, sorted


class Timed:
    """A policy whose slowest decision is kept, in wall seconds and in CPU seconds (the
    process's own time: steady on a shared machine, where the wall time counts the waits)."""

    def __init__(self, inner: Any):
        self.inner = inner
        self.kind = inner.kind
        self.slowest = 0.0
        self.slowest_cpu = 0.0

    def decide(self, b: Battle, req: Request) -> Order:
        t0, c0 = time.perf_counter(), time.process_time()
        order: Order = self.inner.decide(b, req)
        self.slowest = max(self.slowest, time.perf_counter() - t0)
        self.slowest_cpu = max(self.slowest_cpu, time.process_time() - c0)
        return order


def cell(job: tuple[str, str, str, int, int]) -> dict[str, Any]:
    """One scenario and side: per seed, did the side win with ``level`` and with normal."""
    name, side, level, n, seed = job
    scen = load_scenario(name)
    other = "confederate" if side == "union" else "union"
    wins: dict[str, list[int]] = {level: [], "normal": []}
    secs = {level: 0.0, "normal": 0.0}
    slowest = slowest_cpu = 0.0
    for i in range(n):
        s = battle_seed(seed, i)
        for kind in (level, "normal"):
            me = Timed(make_policy(kind, s))
            t0 = time.perf_counter()
            res = play(scen, s, {side: me, other: make_policy("normal", s)})
            secs[kind] += time.perf_counter() - t0
            wins[kind].append(1 if res.winner == side else 0)
            if kind == level:
                slowest = max(slowest, me.slowest)
                slowest_cpu = max(slowest_cpu, me.slowest_cpu)
    return {
        "scenario": name,
        "side": side,
        "wins": wins,
        "secs": secs,
        "slowest": slowest,
        "slowest_cpu": slowest_cpu,
    }


def on_build(engine: str) -> None:
    """Run again on the compiled build when ``engine`` asks for it and it is current."""
    import umpire
    from umpire.lab.compiled import choose

    found = choose(engine, False)
    if found is None or str(found) in umpire.__file__:
        return
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(found), os.environ.get("PYTHONPATH", "")]),
    }
    os.execve(sys.executable, [sys.executable, *sys.argv], env)


def engine_name() -> str:
    """Which engine this process plays on: the compiled build or pure Python."""
    from umpire.battle import engine

    compiled = not engine.__file__.endswith(".py")
    return f"compiled, {engine.__file__}" if compiled else "pure Python"


def paired(a: list[int], b: list[int]) -> tuple[float, float, float]:
    """Mean of a - b and its 95% interval (normal approximation of the paired differences)."""
    d = [x - y for x, y in zip(a, b, strict=True)]
    n = len(d)
    m = sum(d) / n
    var = sum((x - m) ** 2 for x in d) / (n - 1) if n > 1 else 0.0
    half = 1.96 * math.sqrt(var / n)
    return m, m - half, m + half


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=200, help="battles per scenario and side")
    ap.add_argument("--level", default="hard", help="the level measured against normal")
    ap.add_argument("--scenarios", default=",".join(SCENARIOS))
    ap.add_argument("--seed", type=int, default=23)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--engine", default="auto", help="auto, python or compiled (the build)")
    args = ap.parse_args()
    on_build(args.engine)
    jobs = [
        (name, side, args.level, args.n, args.seed)
        for name in args.scenarios.split(",")
        for side in SIDES
    ]
    t0 = time.perf_counter()
    if args.workers > 1:
        with ProcessPoolExecutor(args.workers) as ex:
            cells = list(ex.map(cell, jobs))
    else:
        cells = [cell(j) for j in jobs]
    wall = time.perf_counter() - t0
    lv = args.level
    print(
        f"{lv} against normal, paired with normal against normal; n={args.n} per cell, "
        f"seed {args.seed}, scalar engine ({engine_name()}), "
        f"{platform.node()} ({platform.processor() or '?'}, {os.cpu_count()} cores, "
        f"Python {platform.python_version()})"
    )
    print()
    print(f"| scenario | side | normal wins | {lv} wins | difference (95% CI) |")
    print("|---|---|---|---|---|")
    all_a: list[int] = []
    all_b: list[int] = []
    worse = []
    for c in cells:
        a, b = c["wins"][lv], c["wins"]["normal"]
        all_a += a
        all_b += b
        m, lo, hi = paired(a, b)
        if hi < 0:
            worse.append(f"{c['scenario']} {c['side']}")
        print(
            f"| {c['scenario']} | {c['side']} | {sum(b) / len(b):.1%} | {sum(a) / len(a):.1%} "
            f"| {m:+.1%} ({lo:+.1%} to {hi:+.1%}) |"
        )
    m, lo, hi = paired(all_a, all_b)
    print(
        f"| **pooled** | both | {sum(all_b) / len(all_b):.1%} | {sum(all_a) / len(all_a):.1%} "
        f"| **{m:+.1%} ({lo:+.1%} to {hi:+.1%})** |"
    )
    print()
    s_lv = sum(c["secs"][lv] for c in cells)
    s_n = sum(c["secs"]["normal"] for c in cells)
    slow = max(c["slowest"] for c in cells)
    slow_cpu = max(c["slowest_cpu"] for c in cells)
    print(
        f"seconds per battle: {lv} side {s_lv / len(all_a):.3f}, normal {s_n / len(all_b):.3f} "
        f"({s_lv / s_n:.2f}x); slowest {lv} decision {slow * 1000:.0f} ms "
        f"({slow_cpu * 1000:.0f} ms CPU); wall {wall:.0f} s"
    )
    print("cells significantly worse: " + (", ".join(worse) if worse else "none"))


if __name__ == "__main__":
    main()
