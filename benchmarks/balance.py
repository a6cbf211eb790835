#!/usr/bin/env python3
"""Win rates of every shipped scenario between equal AIs, with their 95% intervals.

    python benchmarks/balance.py [-n 400] [--seed 20] [--docs]

Runs ``umpire simulate SCENARIO -n N --seed S --json`` for each shipped scenario (the shipped
AI on both sides, the scenario's own rules) and prints a Markdown table: each side's wins
with the Wilson 95% interval, draws, mean turns, and whether the scenario lies in the
30-70% band issue 20 asks of a scenario worth playing. ``--docs`` writes the table into
docs/scenarios.md between its ``balance`` markers.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "scenarios.md"
BEGIN, END = "<!-- balance: begin -->", "<!-- balance: end -->"


def measure(name: str, n: int, seed: int, db: Path) -> dict[str, object]:
    """One scenario's summary from ``umpire simulate --json``.

    The console script runs with this checkout's ``src`` first on PYTHONPATH, so it plays
    the scenarios and rules of the tree the table is written into (a worktree), not those
    of the environment's editable install.
    """
    exe = Path(sys.executable).with_name("umpire")
    cmd = [str(exe), "--db", str(db), "simulate", name, "-n", str(n), "--seed", str(seed)]
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(
        p for p in (str(ROOT / "src"), env.get("PYTHONPATH", "")) if p
    )
    out = subprocess.run([*cmd, "--json"], capture_output=True, text=True, check=True, env=env)
    summary: dict[str, object] = json.loads(out.stdout)["arms"][0]["summary"]
    return summary


def row(name: str, s: dict[str, object]) -> str:
    """One Markdown row: wins of each side with intervals, draws, turns, the verdict."""
    res = s["results"]
    assert isinstance(res, dict)
    cells = []
    for side in ("union", "confederate"):
        r = res[side]
        lo, hi = r["ci95"]
        cells.append(f"{100 * r['rate']:.0f}% ({100 * lo:.0f}-{100 * hi:.0f})")
    draw = res["draw"]["rate"]
    turns = s["turns"]
    assert isinstance(turns, dict)
    top = max(res["union"]["rate"], res["confederate"]["rate"])
    verdict = "in 30-70%" if top <= 0.70 else "lopsided: see its description"
    return (
        f"| {name} | {s['battles']} | {cells[0]} | {cells[1]} | {100 * draw:.0f}% | "
        f"{turns['mean']:.1f} | {verdict} |"
    )


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[1])
    ap.add_argument("-n", type=int, default=400, help="battles per scenario")
    ap.add_argument("--seed", type=int, default=20)
    ap.add_argument("--docs", action="store_true", help="write the table into docs/scenarios.md")
    args = ap.parse_args()
    sys.path.insert(0, str(ROOT / "src"))
    from umpire.scenarios import shipped

    lines = [
        f"Between equal AIs (the shipped AI on both sides), `umpire simulate NAME -n {args.n} "
        f"--seed {args.seed}`; 95% Wilson intervals.",
        "",
        "| scenario | battles | Union wins | Confederate wins | draws | turns | balance |",
        "| --- | ---: | --- | --- | ---: | ---: | --- |",
    ]
    with tempfile.TemporaryDirectory() as tmp:
        for name in shipped():
            print(f"measuring {name} ...", file=sys.stderr, flush=True)
            lines.append(row(name, measure(name, args.n, args.seed, Path(tmp) / "runs.db")))
    table = "\n".join(lines)
    print(table)
    if args.docs:
        text = DOC.read_text(encoding="utf-8")
        a, b = text.index(BEGIN) + len(BEGIN), text.index(END)
        DOC.write_text(text[:a] + "\n" + table + "\n" + text[b:], encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
