"""Issue 21, hard edges for files: what the checks of export files and scenarios cost.

- Exports: for a dice book of N actions (rolls, table lookups, random picks), the time to
  read the export's text (``json.loads``; after: the nesting bound first, then the parse),
  the whole shape check (after only: ``parse_export``) and ``verify_export``, and the share
  of verify the shape check takes.
- Scenarios: ``parse_scenario`` of a file with N units (the standard scenario's header):
  the time and the peak memory (``tracemalloc``) until it is accepted or refused.

``--before SRC`` runs the same figures in a child process on another source tree (for
example a ``git archive`` of the commit before) and prints both side by side, so before and
after are measured in one run.

Run: PYTHONPATH=src .venv/bin/python benchmarks/bench_files.py [--before SRC] [--repeat R]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
import tracemalloc
from typing import Any

BOOK_LENGTHS = (1000, 4000)
UNIT_COUNTS = (400, 2000, 10_000)


def _best(fn: Any, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
    return best


def book_text(n: int) -> str:
    """The export of a dice book of ``n`` actions, as ``games export`` writes it."""
    import tempfile

    from umpire.dice import SeededSource
    from umpire.engine import Game
    from umpire.store import Store

    game = Game.new("session", {"title": "bench"}, SeededSource(1))
    for i in range(n):
        if i % 10 == 9:
            game.act("table", {"table": "cwb_union_events", "purpose": f"events {i}"})
        elif i % 10 == 4:
            game.act("pick", {"options": ["Buford", "Reynolds", "Howard"], "purpose": f"who {i}"})
        else:
            game.act("roll", {"expr": ("2d6", "d66", "3d6+1")[i % 3], "purpose": f"roll {i}"})
    with tempfile.TemporaryDirectory() as tmp:
        store = Store(os.path.join(tmp, "b.db"))
        store.create("b", game)
        text = json.dumps(store.export("b"), indent=1) + "\n"
        store.close()
    return text


def scenario_text(n: int) -> str:
    """``n`` one-stand units 3.9" apart on a 400" table (none overlaps, none is off it: a file
    the checks before issue 21 went through to its end)."""
    head = 'name = "many"\n[table]\nwidth = 400\nheight = 400\nturns = 5\n\n'
    units = []
    for i in range(n):
        x, y = 2 + (i % 100) * 3.9, 2 + (i // 100) * 3.9
        side = "union" if i % 2 else "confederate"
        units.append(
            f'[[units]]\nid = "u{i}"\nside = "{side}"\ntype = "foot"\nstands = 1\n'
            f"x = {x}\ny = {y}\n"
        )
    return head + "\n".join(units)


def measure(repeat: int) -> dict[str, Any]:
    """Every figure, on the ``umpire`` this process imports."""
    from umpire.battle.scenario import parse_scenario
    from umpire.errors import UmpireError
    from umpire.store import verify_export

    try:
        from umpire.store.shape import load_json
        from umpire.store.verify import parse_export
    except ImportError:  # the tree before issue 21
        load_json = None  # type: ignore[assignment]
        parse_export = None  # type: ignore[assignment]
    out: dict[str, Any] = {"books": {}, "scenarios": {}}
    for n in BOOK_LENGTHS:
        text = book_text(n)
        data = json.loads(text)

        def read(text: str = text) -> Any:
            return load_json(text, "b.json") if load_json else json.loads(text)

        def shape(data: Any = data) -> Any:
            return parse_export(data)

        def verify(data: Any = data) -> Any:
            return verify_export(data)

        row = {
            "bytes": len(text),
            "read": _best(read, repeat),
            "shape": _best(shape, repeat) if parse_export else None,
            "verify": _best(verify, repeat),
        }
        out["books"][n] = row
    for n in UNIT_COUNTS:
        text = scenario_text(n)
        tracemalloc.start()
        t = time.perf_counter()
        try:
            parse_scenario(text, "many.toml")
            result = "accepted"
        except UmpireError as exc:
            result = "refused: " + str(exc).split(": ", 2)[-1][:40]
        seconds = time.perf_counter() - t
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        out["scenarios"][n] = {"s": seconds, "peak_mb": peak / 1e6, "result": result}
    return out


def _fmt(x: float | None, digits: int = 3) -> str:
    return "-" if x is None else f"{x:.{digits}f}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--before", help="another source tree to measure too (its src)")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--json", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    after = measure(args.repeat)
    if args.json:
        print(json.dumps(after))
        return
    before: dict[str, Any] | None = None
    if args.before:
        env = {**os.environ, "PYTHONPATH": args.before}
        cmd = [sys.executable, __file__, "--json", "--repeat", str(args.repeat)]
        before = json.loads(subprocess.run(cmd, env=env, capture_output=True, check=True).stdout)
    print(
        "| dice book | export KB | read s (before) | read s | shape s | verify s (before) "
        "| verify s | shape / verify |"
    )
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for n, row in after["books"].items():
        old = before["books"][str(n)] if before else {}
        share = row["shape"] / row["verify"] if row["shape"] else None
        print(
            f"| {n} actions | {row['bytes'] // 1024} | {_fmt(old.get('read'))} | "
            f"{_fmt(row['read'])} | {_fmt(row['shape'])} | {_fmt(old.get('verify'))} | "
            f"{_fmt(row['verify'])} | {_fmt(share, 2)} |"
        )
    print()
    print("| scenario | before s | before peak MB | before | after s | after peak MB | after |")
    print("| --- | ---: | ---: | --- | ---: | ---: | --- |")
    for n, row in after["scenarios"].items():
        old = before["scenarios"][str(n)] if before else {}
        print(
            f"| {n} units | {_fmt(old.get('s'), 2)} | {_fmt(old.get('peak_mb'), 0)} | "
            f"{old.get('result', '-')} | {_fmt(row['s'], 2)} | {_fmt(row['peak_mb'], 0)} | "
            f"{row['result']} |"
        )


if __name__ == "__main__":
    main()
