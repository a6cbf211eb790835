"""One source for both engines (issue 25): how should the scalar engine call a rule that the
batch simulator's numba kernels also use?

numba cannot compile a function mypyc has compiled, so the scalar engine either calls
numba's compiled function (its dispatcher) or the mypyc build compiles the same plain
source a second time. The rule timed is the range band of two bases,
``umpire.board.numeric.range_column`` (the nearest-point distance of two bases, then the
FIRE column: seed 002 FIRE, reading ``range_bands_upper_bounds``), on random pairs within
40" at quick ACW's bands; then a cheap rule, ``numeric.overlap`` (the separating-axis
test every move makes), where a call's own cost weighs most. Each way is a loop of N
calls:

- ``pure``: the plain function interpreted, from an interpreted loop (the engine today
  without the compiled build);
- ``mypyc``: the function compiled by mypyc, called from a loop compiled with it (the
  compiled build: a native C call);
- ``numba<-mypyc``: numba's dispatcher of the same source (``umpire.jit.twin``) called
  from the same compiled loop (the scalar engine calling numba's function);
- ``numba<-numba``: numba's function inlined in a numba loop (what a kernel pays; for
  reference).

The mypyc ways are built here, in a temporary directory (a copy of ``numeric.py`` and a
small caller module, about a minute). CPU time (``time.process_time``), best of
``--repeat``.

Run: .venv/bin/python benchmarks/bench_one_source.py [--n 200000] [--repeat 3]
"""

from __future__ import annotations

import argparse
import importlib
import math
import os
import platform
import random
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numba
import numpy as np

from umpire import jit
from umpire.board import numeric
from umpire.rules.quick_acw.rules import rules

CALLER = """
from collections.abc import Callable
from numeric import overlap, range_column


def loop_native(n: int, tops: tuple[float, ...], a: list[tuple[float, float, float, float,
                float, float]], b: list[tuple[float, float, float, float, float, float]]) -> int:
    total = 0
    m = len(a)
    for i in range(n):
        p = a[i % m]
        q = b[i % m]
        total += range_column(tops, p[0], p[1], p[2], p[3], p[4], p[5],
                              q[0], q[1], q[2], q[3], q[4], q[5])
    return total


def loop_call(fn: Callable[..., int], n: int, tops: tuple[float, ...], a: list[tuple[float,
              float, float, float, float, float]], b: list[tuple[float, float, float, float,
              float, float]]) -> int:
    total = 0
    m = len(a)
    for i in range(n):
        p = a[i % m]
        q = b[i % m]
        total += fn(tops, p[0], p[1], p[2], p[3], p[4], p[5],
                    q[0], q[1], q[2], q[3], q[4], q[5])
    return total


def overlap_native(n: int, a: list[tuple[float, float, float, float, float, float]],
                   b: list[tuple[float, float, float, float, float, float]]) -> int:
    total = 0
    m = len(a)
    for i in range(n):
        p = a[i % m]
        q = b[i % m]
        if overlap(p[0], p[1], p[2], p[3], p[4], p[5], q[0], q[1], q[2], q[3], q[4], q[5], 0.0):
            total += 1
    return total


def overlap_call(fn: Callable[..., bool], n: int, a: list[tuple[float, float, float, float,
                 float, float]], b: list[tuple[float, float, float, float, float, float]]) -> int:
    total = 0
    m = len(a)
    for i in range(n):
        p = a[i % m]
        q = b[i % m]
        if fn(p[0], p[1], p[2], p[3], p[4], p[5], q[0], q[1], q[2], q[3], q[4], q[5], 0.0):
            total += 1
    return total
"""

Base = tuple[float, float, float, float, float, float]


def pairs(m: int) -> tuple[list[Base], list[Base]]:
    """``m`` random pairs of bases (a brigade's 6" x 1" to a battery's 2" x 1.5") within 40"."""
    rnd = random.Random(25)

    def base(x: float, y: float) -> Base:
        t = rnd.uniform(-math.pi, math.pi)
        return (x, y, math.cos(t), math.sin(t), rnd.uniform(1.0, 3.0), rnd.uniform(0.5, 0.75))

    a = [base(rnd.uniform(0, 48), rnd.uniform(0, 48)) for _ in range(m)]
    b = []
    for x, y, *_ in a:
        r, t = rnd.uniform(0.0, 40.0), rnd.uniform(-math.pi, math.pi)
        b.append(base(x + r * math.cos(t), y + r * math.sin(t)))
    return a, b


def loop_pure(n: int, tops: tuple[float, ...], a: list[Base], b: list[Base]) -> int:
    """The interpreted loop (as the compiled caller's ``loop_native``)."""
    fn = numeric.range_column
    total = 0
    m = len(a)
    for i in range(n):
        p = a[i % m]
        q = b[i % m]
        total += fn(tops, p[0], p[1], p[2], p[3], p[4], p[5], q[0], q[1], q[2], q[3], q[4], q[5])
    return total


def overlap_pure(n: int, a: list[Base], b: list[Base]) -> int:
    """The interpreted loop (as the compiled caller's ``overlap_native``)."""
    fn = numeric.overlap
    total = 0
    m = len(a)
    for i in range(n):
        p = a[i % m]
        q = b[i % m]
        if fn(p[0], p[1], p[2], p[3], p[4], p[5], q[0], q[1], q[2], q[3], q[4], q[5], 0.0):
            total += 1
    return total


def build(where: Path) -> Any:
    """mypyc-compile a copy of ``numeric.py`` and the caller in ``where``; the caller."""
    shutil.copy(Path(numeric.__file__), where / "numeric.py")
    (where / "one_source_caller.py").write_text(CALLER)
    mypyc = Path(sys.executable).with_name("mypyc")
    env = {**os.environ, "MYPYC_OPT_LEVEL": "3"}
    done = subprocess.run(
        [str(mypyc), "numeric.py", "one_source_caller.py"],
        cwd=where,
        env=env,
        capture_output=True,
        text=True,
    )
    if done.returncode != 0:
        sys.exit(done.stdout[-5000:] + done.stderr[-5000:])
    sys.path.insert(0, str(where))
    caller = importlib.import_module("one_source_caller")
    assert not isinstance(caller.loop_native, type(loop_pure)), "the caller is not compiled"
    return caller


def best(fn: Callable[[], int], repeat: int) -> tuple[float, int]:
    """(least CPU seconds of ``repeat`` runs, the answer)."""
    out, got = math.inf, 0
    for _ in range(repeat):
        t0 = time.process_time()
        got = fn()
        out = min(out, time.process_time() - t0)
    return out, got


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=200_000, help="calls per timed loop")
    ap.add_argument("--repeat", type=int, default=3, help="timed runs; the least is kept")
    args = ap.parse_args()
    if not jit.ENABLED:
        sys.exit("numba is not enabled (UMPIRE_JIT=0, not installed, or not Python 3.11)")
    n, rep = args.n, args.repeat
    tops = tuple(float(t) for t in rules().fire_bands)
    a, b = pairs(1000)
    twin = jit.twin(numeric)
    fn = twin.range_column
    fn(tops, *a[0], *b[0])  # compile (or load numba's cache) before timing
    arr_a, arr_b, arr_t = np.array(a), np.array(b), np.array(tops)

    @numba.njit  # not cached: a closure over the dispatcher
    def loop_numba(n: int, tops: Any, a: Any, b: Any) -> int:
        total = 0
        m = a.shape[0]
        for i in range(n):
            p = a[i % m]
            q = b[i % m]
            total += fn(
                tops, p[0], p[1], p[2], p[3], p[4], p[5], q[0], q[1], q[2], q[3], q[4], q[5]
            )
        return total

    ov = twin.overlap
    ov(*a[0], *b[0], 0.0)

    @numba.njit  # not cached: a closure over the dispatcher
    def overlap_numba(n: int, a: Any, b: Any) -> int:
        total = 0
        m = a.shape[0]
        for i in range(n):
            p = a[i % m]
            q = b[i % m]
            if ov(p[0], p[1], p[2], p[3], p[4], p[5], q[0], q[1], q[2], q[3], q[4], q[5], 0.0):
                total += 1
        return total

    loop_numba(1, arr_t, arr_a, arr_b)
    overlap_numba(1, arr_a, arr_b)
    with tempfile.TemporaryDirectory() as tmp:
        t0 = time.perf_counter()
        caller = build(Path(tmp))
        print(f"mypyc build of numeric.py and the caller: {time.perf_counter() - t0:.0f} s")
        tables = {
            "range_column (distance of two bases, then the FIRE column)": {
                "pure": best(lambda: loop_pure(n, tops, a, b), rep),
                "mypyc": best(lambda: caller.loop_native(n, tops, a, b), rep),
                "numba<-mypyc": best(lambda: caller.loop_call(fn, n, tops, a, b), rep),
                "numba<-numba": best(lambda: loop_numba(n, arr_t, arr_a, arr_b), rep),
            },
            "overlap (separating axes of two bases: a cheap rule)": {
                "pure": best(lambda: overlap_pure(n, a, b), rep),
                "mypyc": best(lambda: caller.overlap_native(n, a, b), rep),
                "numba<-mypyc": best(lambda: caller.overlap_call(ov, n, a, b), rep),
                "numba<-numba": best(lambda: overlap_numba(n, arr_a, arr_b), rep),
            },
        }
    print(
        f"{platform.processor() or platform.machine()}, {os.cpu_count()} CPUs, Python "
        f"{platform.python_version()}; {n} calls a way, best of {rep} (CPU time)"
    )
    for title, rows in tables.items():
        answers = {got for _, got in rows.values()}
        assert len(answers) == 1, f"the ways disagree: {rows}"
        base = rows["mypyc"][0]
        print(f"\n{title}\n{'way':<14} {'ns/call':>9} {'vs mypyc':>9}")
        for way, (sec, _) in rows.items():
            print(f"{way:<14} {sec / n * 1e9:>9.0f} {sec / base:>8.2f}x")


if __name__ == "__main__":
    main()
