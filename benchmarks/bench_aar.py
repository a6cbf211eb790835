"""Issue 24: what the luck tallies cost in play, and how long an after-action report takes.

For each shipped composition, plays ``--n`` battles (seeds 0..n-1, the normal AI on both
sides) on the fast path and times them (``Battle.luck`` is None: a ruling pays one test per
roll), then replays each from its faces and orders with the luck tallies on (``b.luck =
[]``) and times that, and sums the tallies' exact luck (``luck_of``). Then saves one
battle of each (seed 0) and times ``umpire aar``'s work (collect + render to HTML: the
replay, the maps, the charts). Compare the play column with the same script run on the
main branch's sources (``--label main``) for the guard's cost.

Run: PYTHONPATH=src .venv/bin/python benchmarks/bench_aar.py [--n 20] [--label NAME]
"""

from __future__ import annotations

import argparse
import platform
import tempfile
import time
from pathlib import Path

SCENARIOS = ["standard", "standard_five_step", "stone_wall", "stone_wall_cards", "mcpherson_cards"]


def main() -> None:
    """Print one line per composition: play ms, replay-with-luck ms, luck sum ms, report s."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=20)
    ap.add_argument("--label", default="this branch")
    ap.add_argument("--no-report", action="store_true")
    args = ap.parse_args()
    from umpire.ai import make_policy
    from umpire.battle.engine import Battle
    from umpire.battle.run import new_battle, play
    from umpire.battle.scenario import load_scenario
    from umpire.dice import ScriptedSource

    lucky = "luck" in Battle.__slots__
    print(
        f"{args.label}: {platform.node()} {platform.processor() or platform.machine()}, "
        f"Python {platform.python_version()}, n={args.n}"
    )
    print(
        f"{'scenario':20} {'play ms/battle':>15} {'replay+luck ms':>15} "
        f"{'luck_of ms':>11} {'tallies':>8} {'aar s':>6}"
    )
    for name in SCENARIOS:
        scen = load_scenario(name)
        results = []
        t0 = time.perf_counter()
        for seed in range(args.n):
            pols = {s: make_policy("ai", seed) for s in ("union", "confederate")}
            results.append(play(scen, seed, pols))
        t_play = (time.perf_counter() - t0) / args.n * 1000
        t_rep = t_luck = 0.0
        tallies = 0
        if lucky:
            from umpire.dice.luck import luck_of

            for r in results:
                t0 = time.perf_counter()
                b = new_battle(scen, ScriptedSource(list(r.faces)))
                b.luck = []
                it = iter(r.orders)
                while (req := b.next_request()) is not None:
                    b.apply(req, tuple(next(it)[1:]))
                t1 = time.perf_counter()
                luck_of(b.luck)
                t_luck += time.perf_counter() - t1
                t_rep += t1 - t0
                tallies += len(b.luck)
        t_aar = float("nan")
        if lucky and not args.no_report:
            from umpire.aar.collect import collect
            from umpire.aar.html import render
            from umpire.battle.game import save_game
            from umpire.store import Store

            with tempfile.TemporaryDirectory() as tmp:
                store = Store(Path(tmp) / "b.db")
                store.create("b", save_game(scen, 0, results[0].orders))
                t0 = time.perf_counter()
                render(collect(store, "b"))
                t_aar = time.perf_counter() - t0
                store.close()
        n = args.n
        print(
            f"{name:20} {t_play:15.1f} {t_rep / n * 1000:15.1f} {t_luck / n * 1000:11.2f} "
            f"{tallies / n:8.0f} {t_aar:6.2f}"
        )


if __name__ == "__main__":
    main()
