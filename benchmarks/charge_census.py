"""What happens to charges in seed 002 battles (issue 20): a census over AI battles.

Plays ``N`` battles of a pure quick-acw scenario, AI against AI, narrated, and counts:

- charges ordered, charge tests passed, and of those the ones against a target that
  stood (passed its stand test);
- of those, the ones that reached contact with their target, the ones that stopped
  short with a word in the narrative (a line with "stops"), and the ones that stopped
  short with no word at all (the wrong ruling of issue 20);
- charges that reached contact and were still touching when the melee step came;
- melees fought, rout moves, retreats (with "blocked" ones: shorter than rolled).

The counting wraps ``steps.do_charge`` and ``steps.MeleeStep.auto`` in this process only
(instrumentation, not a change of the rules).

Run: PYTHONPATH=src .venv/bin/python benchmarks/charge_census.py [N] [--scenario NAME]
     [--seed0 S]
"""

from __future__ import annotations

import argparse
from collections import Counter
from typing import Any

from umpire.ai import make_policy
from umpire.battle.engine import Battle, Recorder
from umpire.battle.run import new_battle
from umpire.battle.scenario import load_scenario
from umpire.battle.state import Unit
from umpire.dice import SeededSource
from umpire.rules.quick_acw import steps as S

COUNT: Counter[str] = Counter()
ORDER = (
    "charges",
    "charge tests passed",
    "passed against a standing target",
    "  reached contact",
    "  reached contact (listed for the melee)",
    "  stopped short, and the narrative says why",
    "  stopped short with no word",
    "contacts listed at the melee step",
    "  still touching at the melee step",
    "  one of them removed (by fire) before the melee step",
    "  both alive but apart at the melee step",
    "melees fought",
    "rout lines",
    "retreat moves",
    "lines saying what was in the way (a blocked move)",
)
"""The counts in the order they are printed."""
EXAMPLES: list[str] = []


def census_charge(orig: Any) -> Any:
    """Wrap ``do_charge``: classify each charge by what the narrative and the board show."""

    def wrapped(b: Battle, u: Unit, t: Unit) -> None:
        n0 = len(b.lines)
        orig(b, u, t)
        new = b.lines[n0:]
        COUNT["charges"] += 1
        passed = any("charge test" in ln and ln.endswith("pass") for ln in new)
        stood = any("stand test" in ln and ln.endswith("pass") for ln in new)
        if not passed:
            return
        COUNT["charge tests passed"] += 1
        if not stood:
            return
        COUNT["passed against a standing target"] += 1
        if u.alive and t.alive and t.i in b.touching(u):
            COUNT["  reached contact"] += 1
            if [u.i, t.i, 0] in b.state.contacts or [u.i, t.i, 1] in b.state.contacts:
                COUNT["  reached contact (listed for the melee)"] += 1
        elif any("stops" in ln for ln in new):
            COUNT["  stopped short, and the narrative says why"] += 1
        else:
            COUNT["  stopped short with no word"] += 1
            if len(EXAMPLES) < 3:
                EXAMPLES.append(f"turn {b.state.turn}: " + " | ".join(new))

    return wrapped


def census_melee(orig: Any) -> Any:
    """Wrap the melee step: were the charges' contacts still touching when it came?"""

    def wrapped(self: Any, b: Battle, side: str) -> None:
        us = b.state.units
        for a, d, *_ in b.state.contacts:
            COUNT["contacts listed at the melee step"] += 1
            if us[a].alive and us[d].alive and d in b.touching(us[a]):
                COUNT["  still touching at the melee step"] += 1
            elif us[a].alive and us[d].alive:
                COUNT["  both alive but apart at the melee step"] += 1
            else:
                COUNT["  one of them removed (by fire) before the melee step"] += 1
        orig(self, b, side)

    return wrapped


def play_one(scenario: str, seed: int) -> None:
    """One narrated AI battle; count what its narrative says."""
    scen = load_scenario(scenario)
    pols = {s: make_policy("ai", seed) for s in ("confederate", "union")}
    b = new_battle(scen, Recorder(SeededSource(seed)), narrate=True)
    while (req := b.next_request()) is not None:
        b.apply(req, pols[req.side].decide(b, req))
    for ln in b.lines:
        if ln.startswith("Melee "):
            COUNT["melees fought"] += 1
        if " routs " in ln or ln.endswith(" routs"):
            COUNT["rout lines"] += 1
        if "retreats" in ln and '"' in ln:
            COUNT["retreat moves"] += 1
        if "in the way" in ln:
            COUNT["lines saying what was in the way (a blocked move)"] += 1


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("n", nargs="?", type=int, default=20)
    ap.add_argument("--scenario", default="standard")
    ap.add_argument("--seed0", type=int, default=0)
    args = ap.parse_args()
    S.do_charge = census_charge(S.do_charge)
    S.MeleeStep.auto = census_melee(S.MeleeStep.auto)  # type: ignore[method-assign]
    for seed in range(args.seed0, args.seed0 + args.n):
        play_one(args.scenario, seed)
    print(f"{args.n} {args.scenario} battles, AI against AI, seeds {args.seed0}..")
    for k in ORDER:
        print(f"  {k}: {COUNT[k]}")
    for ex in EXAMPLES:
        print("  e.g.", ex[:400])


if __name__ == "__main__":
    main()
