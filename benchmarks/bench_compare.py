"""The scalar engine now against an earlier commit: battles/s of each, interleaved, and the ratio.

The composable engine must keep the quick ACW scalar engine within 10% of its speed
before the change (commit 8faa45d). Both versions are timed in child processes, taking
turns, so that the machine's drift (10-20% here) falls on both alike; the best run of
each is compared.

Run: .venv/bin/python benchmarks/bench_compare.py [REV] [--battles N] [--rounds R]
     [--scenario NAME]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

CHILD = r"""
import sys, time
from umpire.ai import make_policy
from umpire.battle.run import play
from umpire.battle.scenario import load_scenario
scen = load_scenario(sys.argv[1])
n = int(sys.argv[2])
pols = {"union": make_policy("ai"), "confederate": make_policy("ai")}
play(scen, 10**6, pols)  # the board and the odds caches
t = time.perf_counter()
for seed in range(n):
    play(scen, seed, pols)
print(n / (time.perf_counter() - t))
"""


def rate(src: Path, scenario: str, n: int) -> float:
    """Battles per second of the code under ``src`` (a child process)."""
    out = subprocess.run(
        [sys.executable, "-c", CHILD, scenario, str(n)],
        env={"PYTHONPATH": str(src), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        check=True,
    )
    return float(out.stdout.strip())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("rev", nargs="?", default="8faa45d", help="the earlier commit")
    ap.add_argument("--battles", type=int, default=30, help="battles per timed run")
    ap.add_argument("--rounds", type=int, default=4, help="timed runs of each, taking turns")
    ap.add_argument("--scenario", default="standard")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        old = Path(tmp) / "old"
        subprocess.run(
            ["git", "-C", str(ROOT), "worktree", "add", "-q", "--detach", str(old), args.rev],
            check=True,
        )
        try:
            runs: dict[str, list[float]] = {"then": [], "now": []}
            for _ in range(args.rounds):
                runs["then"].append(rate(old / "src", args.scenario, args.battles))
                runs["now"].append(rate(ROOT / "src", args.scenario, args.battles))
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(old)])
    then, now = max(runs["then"]), max(runs["now"])
    print(
        f"scenario {args.scenario}, AI against AI, {args.battles} battles a run, best of "
        f"{args.rounds}, taking turns"
    )
    print(f"{args.rev} (then): {then:7.1f} battles/s   runs {[round(x, 1) for x in runs['then']]}")
    print(f"working tree (now): {now:7.1f} battles/s   runs {[round(x, 1) for x in runs['now']]}")
    print(f"now / then = {now / then:.3f} (goal: at least 0.90)")


if __name__ == "__main__":
    main()
