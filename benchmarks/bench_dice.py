"""Dice speed: seeded dice per second, expression rolls per second, numpy's bulk rate, cold start.

Run with ``.venv/bin/python benchmarks/bench_dice.py``. A script, not a test: it prints numbers.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from umpire.dice import SeededSource, parse

COLD_START_GOAL_MS = 150.0
ROOT = Path(__file__).resolve().parents[1]


def rate(work: Callable[[], int], seconds: float = 1.0) -> float:
    """Units per second of ``work`` (which returns how many units it did), best of three runs."""
    best = 0.0
    for _ in range(3):
        done = 0
        start = time.perf_counter()
        elapsed = 0.0
        while elapsed < seconds / 3:
            done += work()
            elapsed = time.perf_counter() - start
        best = max(best, done / elapsed)
    return best


def seeded_single() -> float:
    source = SeededSource(12345)

    def work() -> int:
        draw = source.dice
        for _ in range(10_000):
            draw(1, 6)
        return 10_000

    return rate(work)


def seeded_pairs() -> float:
    source = SeededSource(12345)

    def work() -> int:
        draw = source.dice
        for _ in range(5_000):
            draw(2, 6)
        return 10_000

    return rate(work)


def expression_rolls(text: str) -> float:
    expr = parse(text)
    source = SeededSource(777)

    def work() -> int:
        roll = expr.roll
        for _ in range(5_000):
            roll(source)
        return 5_000

    return rate(work)


def numpy_bulk() -> float | None:
    try:
        import numpy as np
    except ImportError:
        return None
    rng = np.random.default_rng()

    def work() -> int:
        rng.integers(1, 7, size=10**6)
        return 10**6

    return rate(work)


def entry_point() -> tuple[list[str], str] | None:
    """The command that runs ``umpire``: the console script if installed, else ``python -m``."""
    script = Path(sys.executable).parent / "umpire"
    if script.exists():
        return [str(script)], str(script)
    if (ROOT / "src" / "umpire" / "cli" / "main.py").exists():
        return [sys.executable, "-m", "umpire.cli.main"], f"{Path(sys.executable).name} -m"
    return None


FAST_PATH = (
    "import sys; from umpire.dice.quickroll import fast_roll; sys.exit(fast_roll(sys.argv[1:]))"
)


def cold_start_ms(prefix: list[str], how: str) -> float | None:
    """Best of ten wall-clock runs of ``<prefix> roll 2d6 --seed 1`` in milliseconds."""
    command = [*prefix, "roll", "2d6", "--seed", "1"]
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # measure with bytecode caches, as users run it
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT / "src"), env.get("PYTHONPATH")]))
    best = float("inf")
    for _ in range(10):
        start = time.perf_counter()
        proc = subprocess.run(command, capture_output=True, env=env, check=False)
        elapsed = (time.perf_counter() - start) * 1000
        if proc.returncode != 0:
            print(f"  cold start: {how} failed: {proc.stderr.decode().strip()[:200]}")
            return None
        best = min(best, elapsed)
    return best


def main() -> None:
    """Measure and print every figure."""
    print(f"python {sys.version.split()[0]} on {sys.platform}")
    single = seeded_single()
    pairs = seeded_pairs()
    print(f"SeededSource single dice     {single:>14,.0f} dice/s")
    print(f"SeededSource 2d6 groups      {pairs:>14,.0f} dice/s")
    for text in ("2d6", "4d6kh3"):
        print(f"roll() {text:<22}{expression_rolls(text):>14,.0f} rolls/s")
    bulk = numpy_bulk()
    if bulk is None:
        print("numpy not installed: no bulk comparison")
    else:
        print(f"numpy bulk integers(1,7,1e6) {bulk:>14,.0f} dice/s")
        print(f"numpy bulk / seeded 2d6      {bulk / pairs:>14,.1f}x")
    entry = entry_point()
    if entry is None:
        print("cold start: no umpire entry point yet (skipped)")
    else:
        ms = cold_start_ms(*entry)
        if ms is not None:
            verdict = "PASS" if ms <= COLD_START_GOAL_MS else "MISS"
            goal = f"goal {COLD_START_GOAL_MS:.0f} ms"
            print(f"cold start `umpire roll 2d6` {ms:>11.1f} ms  best of 10, {goal}: {verdict}")
            print(f"  via {entry[1]}")
    fast = cold_start_ms([sys.executable, "-c", FAST_PATH], "fast_roll")
    if fast is not None:
        print(f"  for reference, quickroll.fast_roll alone: {fast:.1f} ms")


if __name__ == "__main__":
    main()
