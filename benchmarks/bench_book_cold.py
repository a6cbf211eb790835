"""The first roll in a new process on a long dice book (issue 21: `umpire session roll`).

Each `umpire session roll` at the terminal is a new process: a fresh ``Store`` whose
``load`` rebuilds the game before the roll. For books of each size in ``--rolls`` (made by
``Store.play``, one roll at a time, as play saves them), times ``Store(path).load`` and one
``play`` in a fresh Store on a fresh copy of the save file, CPU time (``time.process_time``),
best of ``--repeat``. ``--before SRC`` runs the same measurement on another copy of the
sources (``git archive`` of a commit's ``src``) in a child process, first, so both are
measured one right after the other. ``--every`` lists snapshot intervals to try (the
sources after the snapshots only; ``Store(snapshot_every=N)``).

Run: PYTHONPATH=src .venv/bin/python benchmarks/bench_book_cold.py [--before DIR]
"""

from __future__ import annotations

import argparse
import inspect
import json
import os
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

EXPRS = ("2d6", "d20+3", "3d6", "d66", "4d6kh3", "9d10<=6", "d6/2", "2d6>=8")


def _store(path: Path, every: int | None) -> Any:
    from umpire.store.sqlite import Store

    if every is not None and "snapshot_every" in inspect.signature(Store).parameters:
        return Store(path, snapshot_every=every)
    return Store(path)


def _copy(src: Path, dst: Path) -> None:
    dst.unlink(missing_ok=True)
    with sqlite3.connect(src) as a, sqlite3.connect(dst) as b:
        a.backup(b)


def measure(sizes: list[int], every: int | None, repeat: int) -> list[dict[str, Any]]:
    """Per book size: best CPU ms of a fresh Store's load and one roll, the file's KB."""
    from umpire.dice import SeededSource
    from umpire.engine import Game

    out = []
    with tempfile.TemporaryDirectory() as tmp:
        book = Path(tmp) / "book.db"
        store = _store(book, every)
        store.create("b", Game.new("session", {"title": "bench"}, SeededSource(21)))
        done = 0
        for n in sorted(sizes):
            t = time.perf_counter()
            for i in range(done, n):
                params = {"expr": EXPRS[i % len(EXPRS)], "purpose": f"roll {i}"}
                store.play("b", store.load("b"), "roll", params)
            fill = time.perf_counter() - t
            done = n
            store.close()
            best_load, best_all = float("inf"), float("inf")
            for _ in range(repeat):
                copy = Path(tmp) / "copy.db"
                _copy(book, copy)
                t0 = time.process_time()
                fresh = _store(copy, every)
                game = fresh.load("b")
                t1 = time.process_time()
                fresh.play("b", game, "roll", {"expr": "2d6", "purpose": "timed"})
                t2 = time.process_time()
                fresh.close()
                best_load, best_all = min(best_load, t1 - t0), min(best_all, t2 - t0)
            out.append(
                {
                    "rolls": n,
                    "load_ms": best_load * 1000,
                    "first_roll_ms": best_all * 1000,
                    "kb": os.path.getsize(copy) // 1024,
                    "fill_s": fill,
                }
            )
    return out


def main() -> None:
    """Print one table per version (and per snapshot interval)."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--rolls", default="200,2000,8000,8191")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--every", default="256")
    ap.add_argument("--before", help="another src folder, measured first in a child process")
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    sizes = [int(x) for x in args.rolls.split(",")]
    if args.child:
        print(json.dumps(measure(sizes, None, args.repeat)))
        return
    runs: list[tuple[str, list[dict[str, Any]]]] = []
    if args.before:
        env = {**os.environ, "PYTHONPATH": str(Path(args.before).resolve())}
        cmd = [sys.executable, __file__, "--child", "--rolls", args.rolls]
        cmd += ["--repeat", str(args.repeat)]
        done = subprocess.run(cmd, env=env, capture_output=True, text=True, check=True)
        runs.append(("before", json.loads(done.stdout)))
    for every in (int(x) for x in args.every.split(",")):
        runs.append((f"after, every {every}", measure(sizes, every, args.repeat)))
    for label, rows in runs:
        print(f"{label}:")
        print("  rolls  load ms  first roll ms  file KB  made in s")
        for r in rows:
            print(
                f"  {r['rolls']:5d}  {r['load_ms']:7.1f}  {r['first_roll_ms']:13.1f}  "
                f"{r['kb']:7d}  {r['fill_s']:9.1f}"
            )


if __name__ == "__main__":
    main()
