#!/usr/bin/env python3
"""The conformance suite's large run: thousands of checked battles per composition.

    python benchmarks/conformance.py [-n 1000] [--workers 2] [--only NAME ...] [--md FILE]

Plays ``-n`` battles of every shipped scenario, every test composition of
``tests/test_conformance_suite.py`` and the compositions kept for this run alone
(``LARGE_ONLY``), on seeds the CI suite never plays (from 100000), with the players taking
turns (AI v AI, random v odds, odds v random). Every step of every battle is checked
against every invariant of the modules in use (``umpire.lab.conformance``). It prints, per
composition, the battles, the steps, the violations by invariant, the count of every
feature the modules name, and the features no battle used: a rule or table that thousands
of battles never reach. ``--md`` writes the same as Markdown for benchmarks/RESULTS.md.
Exit 1 when any invariant was broken.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path

from rich.progress import Progress

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from umpire.lab.conformance import Summary, check_many  # noqa: E402

FIRST_SEED = 100_000
LARGE_ONLY = {
    "standard+card-draw": ("standard", '[rules]\nsequence = "card-draw"\ncards = "regiment"'),
    "standard+001": ("standard", '[rules]\nevents = ["solo-events"]\nattacker = "confederate"'),
    "five-step+ladder+001": (
        "mcpherson_ridge",
        '[rules]\nsequence = "five-step"\nevents = ["solo-events"]\nattacker = "confederate"\n'
        'first = "confederate"',
    ),
}
"""Compositions only the large run plays: (base scenario, its ``[rules]`` table)."""


def scenario(key: str):  # type: ignore[no-untyped-def]
    """The scenario of a composition key (shipped, the suite's, or large-run only)."""
    from test_conformance_suite import TEST_COMPOSITIONS, scenario_of
    from umpire.battle.scenario import parse_scenario
    from umpire.scenarios import SHIPPED

    if key in LARGE_ONLY:
        base, table = LARGE_ONLY[key]
        text = (SHIPPED / f"{base}.toml").read_text(encoding="utf-8")
        return parse_scenario(text.replace('rules = "quick_acw"', table, 1))
    if key in TEST_COMPOSITIONS:
        return scenario_of(key)
    from umpire.battle.scenario import load_scenario

    return load_scenario(key)


def chunk(key: str, seeds: list[int]) -> Summary:
    """Check battles ``seeds`` of ``key`` (in a worker)."""
    return check_many(scenario(key), seeds, name=key, first=FIRST_SEED)


def main() -> int:
    from test_conformance_suite import ALL

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[1])
    ap.add_argument("-n", type=int, default=1000, help="battles per composition")
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--only", nargs="*", help="these compositions only")
    ap.add_argument("--md", type=Path, help="write the tables as Markdown here")
    args = ap.parse_args()
    keys = args.only or [*ALL, *LARGE_ONLY]
    per = 25
    jobs = [
        (k, list(range(FIRST_SEED + a, FIRST_SEED + min(a + per, args.n))))
        for k in keys
        for a in range(0, args.n, per)
    ]
    got = {k: Summary(k) for k in keys}
    t0 = time.perf_counter()
    with Progress() as bar, ProcessPoolExecutor(args.workers) as pool:
        task = bar.add_task("checked battles", total=len(keys) * args.n)
        futs = [pool.submit(chunk, k, s) for k, s in jobs]
        done, tty = 0, sys.stderr.isatty()
        for f in as_completed(futs):
            part = f.result()
            got[part.scenario].merge(part)
            bar.advance(task, part.battles)
            done += part.battles
            if not tty:  # a log file gets a plain line a chunk, not a redrawn bar
                print(f"{done}/{len(keys) * args.n} battles checked", file=sys.stderr, flush=True)
    secs = time.perf_counter() - t0
    text = report(got, keys, args.n, args.workers, secs)
    print(text)
    for k in keys:
        for line in got[k].failures()[:3]:
            print("  ", line)
    if args.md:
        args.md.write_text(text + "\n", encoding="utf-8")
    return 1 if any(got[k].found for k in keys) else 0


def report(got: dict[str, Summary], keys: list[str], n: int, workers: int, secs: float) -> str:
    """The run's two tables (violations and win rates; features used and never used)."""
    lines = [
        f"Conformance large run: {n} battles per composition, seeds {FIRST_SEED}.."
        f"{FIRST_SEED + n - 1}, {workers} workers, {secs:.0f} s, "
        f"{platform.node()} ({os.cpu_count()} cores)",
        "",
        "| composition | battles | steps | union / confederate / draw | violations |",
        "| --- | ---: | ---: | --- | --- |",
    ]
    for k in keys:
        s = got[k]
        broken = Counter(v.invariant for _, v in s.found)
        viol = ", ".join(f"{i} {c}" for i, c in sorted(broken.items())) or "none"
        w = s.wins
        lines.append(
            f"| {k} | {s.battles} | {s.steps} | {w['union']} / {w['confederate']} / "
            f"{w['draw']} | {viol} |"
        )
    lines += ["", "| composition | features used (count) | never used |", "| --- | --- | --- |"]
    for k in keys:
        s = got[k]
        used = ", ".join(f"{f.split(':', 1)[1]} {s.counts[f]}" for f in s.features if s.counts[f])
        lines.append(f"| {k} | {used} | {', '.join(s.unused()) or '-'} |")
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
