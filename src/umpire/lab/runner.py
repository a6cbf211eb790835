"""Run the battles of every arm: in this process, a local process pool, or a Dask cluster.

The battles of an arm are cut into chunks by index range; a chunk is a
:class:`~umpire.lab.play.Task` played wherever there is room, and its records come back
tagged with the arm and the first index. The same N and seed give the same records
however the work is split: each battle depends only on its own seed.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from umpire.errors import UmpireError
from umpire.lab import battle_seed
from umpire.lab.arms import Arm
from umpire.lab.play import Record, Task, run_task
from umpire.rules.data import Overlay, install
from umpire.scenarios import Scenario

BATCH_CHUNK = 8192
"""Most battles in one batch-path chunk: large enough for numpy to vectorise well."""
BATCH_MIN = 512
"""Fewest battles worth a batch-path chunk of their own (a batch of 100 costs half as much
as one of 400: the per-step cost of numpy dominates small batches)."""
SCALAR_CHUNK = 64
"""Most battles in one scalar-path chunk: small enough for a steady progress bar."""

Done = Callable[[int, int, list[Record]], None]
"""Told of each finished chunk: (arm, first battle index, records)."""


@dataclass(frozen=True, slots=True)
class Plan:
    """What a run plays: per arm the scenario it plays and the path (batch or scalar)."""

    scens: tuple[Scenario, ...]
    paths: tuple[str, ...]
    arms: tuple[Arm, ...]
    note: str | None = None  # one line for the user: why the batch path was not taken


def plan(
    scen: Scenario,
    arms: Sequence[Arm],
    path: str = "auto",
    players: Sequence[tuple[str, str]] = (),
) -> Plan:
    """Check every arm here (its rules compose and load) and choose its path.

    ``path``: ``auto`` (the batch simulator wherever a module offers one), ``scalar``,
    or ``batch`` (refused where there is none). ``players``: sides played by a policy
    other than the shipped AI; the batch simulator plays only the shipped AI, so then
    every arm plays on the scalar engine (``batch`` is refused). Where the batch
    simulator cannot run here (no numba), ``auto`` plays on the scalar engine, which plays
    the same battles, and the plan's ``note`` says so; ``batch`` is refused.
    """
    if players:
        if path == "batch":
            who = ", ".join(f"{s}={k}" for s, k in players)
            raise UmpireError(
                f"--path batch plays only the shipped AI; {who} plays on the scalar engine "
                "(--path scalar or auto)"
            )
        path = "scalar"
    from umpire.battle.compose import compose_for
    from umpire.lab import batch_simulator, batch_unavailable

    scens, paths = [], []
    note = None
    try:
        for arm in arms:
            install(arm.overlay)
            s = arm.scenario(scen)
            try:
                compose_for(s)  # loads and checks every module's data as this arm has it
            except UmpireError:
                raise
            except Exception as exc:
                if arm is arms[0]:
                    raise
                raise UmpireError(
                    f"{arm.label}: the rules do not load ({type(exc).__name__}: {exc})"
                ) from None
            has = batch_simulator(s, need=path == "batch") if path != "scalar" else None
            why = batch_unavailable(has) if has is not None else None
            if why is not None:
                if path == "batch":
                    raise UmpireError(f"--path batch: {why} (--path scalar or auto)")
                note = f"{why}: playing on the scalar engine (the same battles, slower)"
                has = None
            scens.append(s)
            paths.append("batch" if has is not None else "scalar")
    finally:
        install(Overlay())
    return Plan(tuple(scens), tuple(paths), tuple(arms), note)


def chunks(n: int, path: str, workers: int) -> list[tuple[int, int]]:
    """(start, size) of each chunk, none above the path's cap: on the batch path one per
    worker where each gets at least ``BATCH_MIN`` battles; on the scalar path at least two
    per worker, so none waits long for the last."""
    if path == "batch":
        count = max(math.ceil(n / BATCH_CHUNK), min(workers, n // BATCH_MIN), 1)
    else:
        count = max(math.ceil(n / SCALAR_CHUNK), min(n, 2 * workers))
    return [(n * k // count, n * (k + 1) // count - n * k // count) for k in range(count)]


def tasks(
    p: Plan, n: int, seed: int, workers: int, players: Sequence[tuple[str, str]] = ()
) -> list[Task]:
    """Every chunk of every arm, arm after arm: a process switches rule data (and rebuilds
    the caches derived from it) as seldom as it can."""
    seeds = [battle_seed(seed, i) for i in range(n)]
    return [
        Task(
            p.scens[k],
            arm.overlay,
            k,
            start,
            tuple(seeds[start : start + size]),
            p.paths[k],
            bool(arm.overlay) or arm.rules is not None,
            tuple(players),
        )
        for k, arm in enumerate(p.arms)
        for start, size in chunks(n, p.paths[k], workers)
    ]


def default_workers() -> int:
    """One worker per core (``os.cpu_count()``)."""
    return os.cpu_count() or 1


def run(
    todo: Sequence[Task],
    done: Done,
    *,
    workers: int = 1,
    cluster: str | None = None,
    engine: Path | None = None,
) -> None:
    """Play every task; ``done`` is told of each as it finishes (in this process).

    ``engine``: the import folder of a compiled build (:mod:`umpire.lab.compiled`) the
    local workers run on; with one, even a single worker is a process of its own.
    """
    if cluster is not None:
        _dask(todo, done, cluster)
    elif engine is None and (workers <= 1 or len(todo) <= 1):
        try:
            for t in todo:
                done(*run_task(t))
        finally:
            install(Overlay())
    else:
        _pool(todo, done, min(workers, len(todo)), engine)


WORKER_START = """
import signal, sys
signal.signal(signal.SIGINT, signal.SIG_IGN)
import umpire, umpire.lab.play, umpire.battle.run, umpire.ai
if {path!r} and not umpire.__file__.startswith({path!r}):
    raise ImportError("a compiled-engine worker imported umpire from " + umpire.__file__)
"""
"""What a local worker runs first: Ctrl-C is left to the main process (which stops the
pool); the engine is imported, and a worker meant to run the compiled build checks that it
does. Run with ``exec``: the initializer itself imports nothing of umpire."""


def _pool(todo: Sequence[Task], done: Done, workers: int, engine: Path | None) -> None:
    import multiprocessing as mp
    import sys
    from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait

    ctx = mp.get_context("forkserver")
    ctx.set_forkserver_preload(["numpy"])  # nothing of umpire: a worker may run the build
    start = WORKER_START.format(path=str(engine) if engine is not None else "")
    pool = ProcessPoolExecutor(
        max_workers=max(workers, 1), mp_context=ctx, initializer=exec, initargs=(start, {})
    )
    try:
        # A new worker takes this process's import path, then imports the main script
        # again (``umpire`` itself imports umpire.cli): with the build first on the path
        # while the workers start, everything a worker imports of umpire is the build's.
        # This process imports nothing meanwhile (submitting only pickles the tasks).
        if engine is not None:
            sys.path.insert(0, str(engine))
        try:
            pending: set[Future[tuple[int, int, list[Record]]]] = {
                pool.submit(run_task, t) for t in todo
            }
        finally:
            if engine is not None:
                sys.path.remove(str(engine))
        while pending:
            finished, pending = wait(pending, return_when=FIRST_COMPLETED)
            for f in finished:
                done(*f.result())
    except BaseException:
        pool.shutdown(wait=False, cancel_futures=True)
        raise
    pool.shutdown()


CONNECT_TIMEOUT = 5.0
"""Seconds to reach a Dask scheduler before giving up with one line."""


def _dask(todo: Sequence[Task], done: Done, address: str) -> None:
    try:
        from distributed import Client, as_completed
    except ImportError:
        raise UmpireError(
            "--cluster needs Dask: pip install 'umpire[cluster]' (dask[distributed])"
        ) from None
    try:
        client = Client(address, timeout=CONNECT_TIMEOUT, set_as_default=False)  # type: ignore[no-untyped-call]
    except (OSError, TimeoutError, ValueError) as exc:
        why = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise UmpireError(f"cannot reach the Dask cluster at '{address}': {why}") from None
    try:
        futures = client.map(run_task, list(todo), pure=False)
        for f in as_completed(futures, loop=client.loop):  # type: ignore[no-untyped-call]
            done(*f.result())
    finally:
        client.close()  # type: ignore[no-untyped-call]
