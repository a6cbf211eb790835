"""The cost of one action in a long dice book (issue 21): it must not grow with the game.

Plays a seeded dice book (``umpire session``) of ``--rolls`` rolls (default 8,000) into a
fresh save file, as the web table and a long-lived process do: one ``Store``, and for
every roll ``load`` then ``play`` (the CLI's ``run_action``). Prints the mean ms per roll
over the first and the last ``--window`` rolls, their ratio (1.0 is flat), the total, and
the time to reload the whole book in a fresh process's way (a new Store: replay from the
log) and to verify it.

Run: PYTHONPATH=src .venv/bin/python benchmarks/bench_book.py [--rolls N] [--window W]
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

EXPRS = ("2d6", "d20+3", "3d6", "d66", "4d6kh3", "9d10<=6", "d6/2", "2d6>=8")


def main() -> None:
    """Play the book and print the per-roll cost at its start and end, and the ratio."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--rolls", type=int, default=8000)
    ap.add_argument("--window", type=int, default=200)
    args = ap.parse_args()
    from umpire.dice import SeededSource
    from umpire.engine import Game
    from umpire.store.sqlite import Store

    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "book.sqlite"
        store = Store(db)
        store.create("book", Game.new("session", {"title": "bench"}, SeededSource(21)))
        times: list[float] = []
        t_all = time.perf_counter()
        for i in range(args.rolls):
            t = time.perf_counter()
            game = store.load("book")
            store.play("book", game, "roll", {"expr": EXPRS[i % len(EXPRS)], "purpose": "x"})
            times.append(time.perf_counter() - t)
        total = time.perf_counter() - t_all
        w = min(args.window, args.rolls // 2)
        start = sum(times[:w]) / w * 1000
        end = sum(times[-w:]) / w * 1000
        print(
            f"rolls {args.rolls}: first {w} {start:.2f} ms/roll, last {w} {end:.2f} ms/roll, "
            f"ratio {end / start:.2f}, total {total:.1f} s"
        )
        store.close()
        t = time.perf_counter()
        fresh = Store(db)
        game = fresh.load("book")
        reload_s = time.perf_counter() - t
        t = time.perf_counter()
        fresh.play("book", game, "roll", {"expr": "2d6"})
        one = time.perf_counter() - t
        print(f"fresh load of the whole book {reload_s:.2f} s, then one roll {one * 1000:.2f} ms")
        fresh.close()


if __name__ == "__main__":
    main()
