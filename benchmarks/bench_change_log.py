"""Issue 25, modules through the change operations: CPU time of 30 fast battles (AI against
AI, seeds 1-30) and of 5 saved games (the engine path) per scenario. Run one tree after the
other with PYTHONPATH pointing at each ``src``; compare ratios."""

from __future__ import annotations

import time

import umpire
from umpire.ai import make_policy
from umpire.battle.game import save_game
from umpire.battle.run import play
from umpire.battle.scenario import load_scenario

if __name__ == "__main__":
    for name in ["standard", "standard_five_step", "stone_wall_cards"]:
        scen = load_scenario(name)
        t = time.process_time()
        res = [
            play(scen, seed, {"union": make_policy("ai"), "confederate": make_policy("ai")})
            for seed in range(1, 31)
        ]
        fast = time.process_time() - t
        t = time.process_time()
        for seed, r in zip(range(1, 6), res, strict=False):
            save_game(scen, seed, r.orders)
        saved = time.process_time() - t
        print(umpire.__file__, name, f"fast {fast:.2f}s saved {saved:.2f}s")
