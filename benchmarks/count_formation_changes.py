"""Issue 23: how often a level changes formation, mounts, dismounts, limbers or unlimbers
('in 20 standard battles today the AI never changed formation, mounted, dismounted,
limbered or unlimbered'), and how often hard's reason is each of its own, over N battles
of a scenario, the level on one side (union in even battles, confederate in odd) against
normal.

Run: PYTHONPATH=src .venv/bin/python benchmarks/count_formation_changes.py [--scenario
     standard] [--n 20] [--level hard]
"""

from __future__ import annotations

import argparse
from collections import Counter
from typing import Any

from umpire.ai import make_policy
from umpire.battle.engine import Battle, Order, Request
from umpire.battle.run import play
from umpire.battle.scenario import load_scenario
from umpire.lab import battle_seed


class Counted:
    """A policy whose formation changes, charges and reasons are counted."""

    def __init__(self, inner: Any, changes: Counter[str], whys: Counter[str]):
        self.inner = inner
        self.kind = inner.kind
        self.changes = changes
        self.whys = whys

    def decide(self, b: Battle, req: Request) -> Order:
        order: Order = self.inner.decide(b, req)
        if order[0] == "move" and len(order) > 4 and order[4]:
            self.changes[str(order[4])] += 1
        why = str(getattr(self.inner, "why", ""))
        if why:
            self.whys[why.split(":")[0].split(" (")[0].split(" on ")[0]] += 1
        return order


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scenario", default="standard")
    ap.add_argument("--n", type=int, default=20)
    ap.add_argument("--level", default="hard")
    args = ap.parse_args()
    scen = load_scenario(args.scenario)
    for level in (args.level, "normal"):
        changes: Counter[str] = Counter()
        whys: Counter[str] = Counter()
        for i in range(args.n):
            s = battle_seed(23, i)
            side = ("union", "confederate")[i % 2]
            other = "confederate" if side == "union" else "union"
            me = Counted(make_policy(level, s), changes, whys)
            play(scen, s, {side: me, other: make_policy("normal", s)})
        said = ", ".join(f"{k} {v}" for k, v in sorted(changes.items())) or "none"
        print(
            f"{level} in {args.n} {args.scenario} battles: {sum(changes.values())} changes ({said})"
        )
        for why, k in whys.most_common():
            print(f"  {k:4d}  {why}")


if __name__ == "__main__":
    main()
