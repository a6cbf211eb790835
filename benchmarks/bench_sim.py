"""``umpire simulate`` speed: A/B runs, scaling over workers and a Dask cluster, dice rate,
CLI cold start.

Prints, in one run on this machine:

1. A/B of ``--quick N`` battles per arm on pure quick ACW (``standard``; the batch
   simulator) against ``quick-acw.sides.union.morale=7``, on ``--workers`` local
   processes (goal: under 60 s for 20,000 per arm on 2 cores);
2. the same on other compositions (``--other``, repeatable, default ``standard_five_step``:
   seed 004's five steps with 002's combat, the scalar engine), ``--other-n`` battles per
   arm, with the time 20,000 per arm would take at that rate (goal: under 5 minutes), on
   the compiled engine when it is current (``--engine``, as ``umpire simulate``);
3. scaling from 1 to 2 workers, locally and on a ``distributed.LocalCluster`` on
   127.0.0.1 (efficiency = t1 / (2 * t2); goal >= 80%), each on both paths;
4. dice consumed per second inside the simulations against numpy's raw rate, same run;
5. cold start of ``umpire --help`` (best of 5);

and, as a control, how much of two cores the shared machine gives at that moment (two busy
Python processes at once against one alone).

Run: .venv/bin/python benchmarks/bench_sim.py [--quick N] [--other-n M] [--scale-n K]
     [--scale-scalar-n J] [--workers W] [--no-dask] [--engine auto|python|compiled]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from umpire.battle.scenario import load_scenario
from umpire.lab.arms import SHIPPED, parse_vary
from umpire.lab.compiled import choose
from umpire.lab.runner import plan, run, tasks

TARGET = 20_000


ENGINE: Path | None = None
"""The compiled build the local workers run on (``--engine``), or pure Python."""


def ab(
    scenario: str, n: int, workers: int, vary: str, cluster: str | None = None
) -> tuple[float, int, list[str]]:
    """(seconds, dice drawn, paths) for an A/B run of ``n`` battles per arm."""
    scen = load_scenario(scenario)
    arms = [SHIPPED] if not vary else [SHIPPED, parse_vary(vary, scen, "B")]
    p = plan(scen, arms)
    dice = 0

    def done(arm: int, start: int, recs: list[Any]) -> None:
        nonlocal dice
        dice += sum(r["dice"] for r in recs)

    t0 = time.perf_counter()
    engine = None if cluster else ENGINE
    run(tasks(p, n, 1, workers), done, workers=workers, cluster=cluster, engine=engine)
    return time.perf_counter() - t0, dice, list(p.paths)


def timed(task: Any) -> tuple[int, float]:
    """Play a chunk in a worker; (its pid, the CPU seconds it has used since it started)."""
    from umpire.lab.play import run_task

    run_task(task)
    return os.getpid(), time.process_time()


def cpu_scaling(scenario: str, n: int, k: int, cluster: str | None = None) -> tuple[float, float]:
    """(wall s, the busiest worker's CPU s) for ``n`` battles on ``k`` workers: a fresh
    local pool as ``umpire.lab.runner`` makes it (forkserver, same chunks; CPU since the
    worker started, start-up included) or a warmed Dask cluster (CPU during the run). The
    busiest worker's CPU time is what the run would take if each worker had a core to
    itself, whatever else the shared machine runs meanwhile."""
    scen = load_scenario(scenario)
    todo = tasks(plan(scen, [SHIPPED]), n, 1, k)
    t0 = time.perf_counter()
    if cluster is None:
        import multiprocessing as mp
        from concurrent.futures import ProcessPoolExecutor

        from umpire.lab.runner import WORKER_START

        ctx = mp.get_context("forkserver")
        ctx.set_forkserver_preload(["numpy"])
        start = WORKER_START.format(path="")  # pure Python: scaling, not speed
        with ProcessPoolExecutor(k, mp_context=ctx, initializer=exec, initargs=(start, {})) as pool:
            got = list(pool.map(timed, todo))
    else:  # warmed workers: the CPU each spent on this run (before and after it)
        from distributed import Client

        with Client(cluster) as client:
            before = client.run(time.process_time)
            client.gather(client.map(timed, todo, pure=False))
            after = client.run(time.process_time)
        return time.perf_counter() - t0, max(after[w] - before[w] for w in after)
    wall = time.perf_counter() - t0
    cpu: dict[int, float] = {}
    for pid, c in got:
        cpu[pid] = max(cpu.get(pid, 0.0), c)
    return wall, max(cpu.values())


def numpy_raw(seconds: float = 1.0) -> float:
    """numpy's generator: d6 faces per second in blocks of 10^6."""
    rng = np.random.default_rng(1)
    n, t0 = 0, time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        rng.integers(1, 7, size=1_000_000)
        n += 1_000_000
    return n / (time.perf_counter() - t0)


BUSY = "sum(i * i for i in range(2 * 10**7))"


def machine_parallel() -> tuple[float, float, float]:
    """(one busy process alone s, two at once s, their ratio): how much of two cores this
    shared machine gives right now (1.0 = two whole cores)."""

    def go(k: int) -> float:
        t0 = time.perf_counter()
        procs = [subprocess.Popen([sys.executable, "-c", BUSY]) for _ in range(k)]
        for p in procs:
            p.wait()
        return time.perf_counter() - t0

    one, two = go(1), go(2)
    return one, two, one / two


def cold_start() -> float:
    """Best of 5: ``umpire --help`` in a fresh interpreter (ms)."""
    best = float("inf")
    env = dict(os.environ)
    for _ in range(5):
        t0 = time.perf_counter()
        subprocess.run(
            [sys.executable, "-m", "umpire.cli.main", "--help"],
            check=True,
            capture_output=True,
            env=env,
        )
        best = min(best, time.perf_counter() - t0)
    return best * 1000


def ab_runs(a: argparse.Namespace, vary: str, raw: float) -> None:
    """The two A/B runs: pure quick ACW (batch path), another composition (scalar)."""
    secs, dice, paths = ab("standard", a.quick, a.workers, vary)
    tot = 2 * a.quick
    print(
        f"A/B standard ({'/'.join(paths)}), {a.quick} per arm, {a.workers} workers: {secs:.1f} s "
        f"({tot / secs:,.0f} battles/s; goal 60 s for {TARGET} per arm: "
        f"{'met' if secs * TARGET / a.quick < 60 else 'not met'}); dice {dice / secs:,.0f}/s "
        f"= 1/{raw / (dice / secs):,.0f} of numpy's raw rate"
    )
    for other in a.other or ["standard_five_step"]:
        secs, dice, paths = ab(other, a.other_n, a.workers, vary)
        tot = 2 * a.other_n
        est = secs * TARGET / a.other_n
        print(
            f"A/B {other} ({'/'.join(paths)}), {a.other_n} per arm, {a.workers} workers: "
            f"{secs:.1f} s ({tot / secs:,.1f} battles/s; {TARGET} per arm at this rate: "
            f"{est / 60:.1f} min, goal 5 min: {'met' if est < 300 else 'not met'}); dice "
            f"{dice / secs:,.0f}/s = 1/{raw / (dice / secs):,.0f} of numpy's raw rate"
        )


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", type=int, default=TARGET)
    ap.add_argument("--other", action="append", help="scalar compositions (repeatable)")
    ap.add_argument("--engine", default="auto", help="auto, python or compiled (local runs)")
    ap.add_argument("--other-n", type=int, default=1000)
    ap.add_argument("--scale-n", type=int, default=8192)
    ap.add_argument("--scale-scalar-n", type=int, default=400)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--no-dask", action="store_true")
    ap.add_argument("--no-ab", action="store_true", help="only scaling, dice rate, cold start")
    a = ap.parse_args()
    global ENGINE
    ENGINE = choose(a.engine, cluster=False)
    print(f"machine: {os.cpu_count()} cores, Python {sys.version.split()[0]}")
    print(f"engine: {'pure Python' if ENGINE is None else f'compiled ({ENGINE})'}")
    raw = numpy_raw()
    print(f"numpy raw d6 rate: {raw:,.0f} dice/s")

    vary = "quick-acw.sides.union.morale=7"
    if not a.no_ab:
        ab_runs(a, vary, raw)
    one, two, share = machine_parallel()
    print(
        f"machine control: a busy Python process {one:.2f} s alone, two at once {two:.2f} s: "
        f"the machine gives {share:.0%} of two cores now (efficiencies below are bounded by it)"
    )
    other = (a.other or ["standard_five_step"])[0]
    for scen, n in (("standard", a.scale_n), (other, a.scale_scalar_n)):
        t1 = ab(scen, n, 1, "")[0]
        t2 = ab(scen, n, 2, "")[0]
        print(
            f"local scaling {scen}, {n} battles: 1 worker {t1:.1f} s, 2 workers {t2:.1f} s, "
            f"speed-up {t1 / t2:.2f}, efficiency {t1 / (2 * t2):.0%} (goal 80%)"
        )
        w1, c1 = cpu_scaling(scen, n, 1)
        w2, c2 = cpu_scaling(scen, n, 2)
        print(
            f"  by CPU time (a core per worker): 1 worker {c1:.1f} s (wall {w1:.1f}), busiest "
            f"of 2 {c2:.1f} s (wall {w2:.1f}): efficiency {c1 / (2 * c2):.0%}"
        )
    print(f"cold start `umpire --help`: {cold_start():.0f} ms (best of 5)")
    if a.no_dask:
        return
    from distributed import LocalCluster

    one, two, share = machine_parallel()
    print(f"machine control again: {one:.2f} s alone, {two:.2f} s two at once: {share:.0%}")
    for scen, n in (("standard", a.scale_n), (other, a.scale_scalar_n)):
        times = []
        for k in (1, 2):
            with LocalCluster(
                n_workers=k,
                threads_per_worker=1,
                processes=True,
                host="127.0.0.1",
                dashboard_address=None,
            ) as cluster:
                ab(scen, 8 * k, k, "", cluster.scheduler_address)  # warm the workers
                times.append(ab(scen, n, k, "", cluster.scheduler_address)[0])
                if k == 1:
                    c1 = cpu_scaling(scen, n, 1, cluster.scheduler_address)[1]
                else:
                    c2 = cpu_scaling(scen, n, 2, cluster.scheduler_address)[1]
        t1, t2 = times
        print(
            f"dask LocalCluster scaling {scen}, {n} battles: 1 worker {t1:.1f} s, 2 workers "
            f"{t2:.1f} s, speed-up {t1 / t2:.2f}, efficiency {t1 / (2 * t2):.0%} (goal 80%)"
        )
        print(
            f"  by CPU time (a core per worker; warmed workers): 1 worker {c1:.1f} s, busiest "
            f"of 2 {c2:.1f} s: efficiency {c1 / (2 * c2):.0%}"
        )


if __name__ == "__main__":
    main()
