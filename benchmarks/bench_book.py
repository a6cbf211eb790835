"""The cost of one action in a long dice book (issue 21): it must not grow with the game.

The dice book (``umpire session``) is played as the web table and a long-lived process
play it: one ``Store``, and for every roll ``load`` then ``play`` (the CLI's
``run_action``). Prints the mean ms per roll over ``--window`` rolls at the start of a
fresh book and over ``--window`` rolls once the book holds ``--rolls`` (default 8,000)
rolls, and their ratio (1.0 is flat).

To reach the end without timing the middle (the code before issue 21 took minutes for it
on a loaded machine), the book is filled by ``Game.act`` in one process and saved at once
with ``Store.create``: the same save file ``play`` would write, made by the code under test.
``--full`` plays every roll through load and play instead and prints the whole time too.

Run: PYTHONPATH=src .venv/bin/python benchmarks/bench_book.py [--rolls N] [--window W] [--full]
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path
from typing import Any

EXPRS = ("2d6", "d20+3", "3d6", "d66", "4d6kh3", "9d10<=6", "d6/2", "2d6>=8")


def _params(i: int) -> dict[str, Any]:
    return {"expr": EXPRS[i % len(EXPRS)], "purpose": f"roll {i}"}


def _timed_rolls(store: Any, name: str, start: int, count: int) -> list[float]:
    times = []
    for i in range(start, start + count):
        t = time.perf_counter()
        store.play(name, store.load(name), "roll", _params(i))
        times.append(time.perf_counter() - t)
    return times


def main() -> None:
    """Print the per-roll cost at the book's start and end, and the ratio."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--rolls", type=int, default=8000)
    ap.add_argument("--window", type=int, default=200)
    ap.add_argument("--full", action="store_true", help="play every roll through the store")
    args = ap.parse_args()
    from umpire.dice import SeededSource
    from umpire.engine import Game
    from umpire.store.sqlite import Store

    w = min(args.window, args.rolls // 2)
    with tempfile.TemporaryDirectory() as tmp:
        store = Store(Path(tmp) / "book.sqlite")
        store.create("start", Game.new("session", {"title": "bench"}, SeededSource(21)))
        t_all = time.perf_counter()
        if args.full:
            times = _timed_rolls(store, "start", 0, args.rolls)
            first, last = times[:w], times[-w:]
        else:
            first = _timed_rolls(store, "start", 0, w)
            t = time.perf_counter()
            game = Game.new("session", {"title": "bench"}, SeededSource(21))
            for i in range(args.rolls - w):
                game.act("roll", _params(i))
            store.create("end", game)
            fill = time.perf_counter() - t
            # The first load replays the log and the first action on it encodes the state
            # for the hash once: a game's opening cost, not an action's. One untimed roll.
            _timed_rolls(store, "end", args.rolls - w, 1)
            last = _timed_rolls(store, "end", args.rolls - w + 1, w)
        total = time.perf_counter() - t_all
        start_ms = sum(first) / w * 1000
        end_ms = sum(last) / w * 1000
        print(
            f"rolls {args.rolls}: first {w} {start_ms:.2f} ms/roll, last {w} "
            f"{end_ms:.2f} ms/roll, ratio {end_ms / start_ms:.2f}"
        )
        if args.full:
            print(f"all {args.rolls} rolls through load and play: {total:.1f} s")
        else:
            print(f"filling the book to {args.rolls - w} rolls by Game.act: {fill:.1f} s")
        store.close()


if __name__ == "__main__":
    main()
