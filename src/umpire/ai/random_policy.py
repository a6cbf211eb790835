"""A random policy for tests: any legal order, chosen with its own seeded generator.

Its choices are recorded as orders, so a replay does not need the generator.
"""

from __future__ import annotations

import math
import random

from umpire.battle.engine import Battle, Order, Request
from umpire.errors import IllegalActionError
from umpire.rules.quick_acw import steps as S


class RandomPolicy:
    """Picks uniformly among a few legal orders of each kind."""

    kind = "random"

    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed)

    def decide(self, b: Battle, req: Request) -> Order:
        """A random legal order for ``req``."""
        rng = self.rng
        if req.kind == "leader":
            ld = b.state.leaders[req.actor]
            mine = [
                u
                for u in b.state.units
                if u.alive and u.side == ld.side and math.hypot(u.x - ld.x, u.y - ld.y) <= 12
            ]
            if mine and rng.random() < 0.7:
                u = rng.choice(mine)
                return ("leader", u.x, u.y, u.i)
            return ("hold",)
        if req.kind == "fire":
            u = b.state.units[req.actor]
            opts = S.targets(b, u, exact=False)
            if not opts or rng.random() < 0.1:
                return ("hold",)
            return ("fire", rng.choice(opts)[0])
        u = b.state.units[req.actor]
        if u.marker:
            return (rng.choice(["hold", "hold", "turn", "rout"]),)
        roll = rng.random()
        if roll < 0.25:
            en = [
                v
                for v in b.state.units
                if v.alive and v.side != u.side and math.hypot(v.x - u.x, v.y - u.y) < 20
            ]
            rng.shuffle(en)
            for v in en[:3]:
                try:
                    S.charge_reach(b, u, v)
                except IllegalActionError:
                    continue
                return ("charge", v.i)
        if roll < 0.1:
            return ("hold",)
        changes = [""] * 6 + {
            "foot": ["line", "column"],
            "cavalry": ["line", "column", "mount", "dismount"],
            "artillery": ["limber", "unlimber"],
        }[u.type]
        en_near = S.nearest_enemy(b, u)
        for _ in range(4):
            ch = rng.choice(changes)
            try:
                form, m, lim, cost = S.after_change(u, ch)
            except IllegalActionError:
                continue
            allow = S.allowance(b, u, form, m, lim, cost, False)
            if en_near is not None and rng.random() < 0.6:
                ang = math.atan2(en_near.y - u.y, en_near.x - u.x) + rng.uniform(-0.6, 0.6)
            else:
                ang = rng.uniform(-math.pi, math.pi)
            dist = rng.uniform(0, allow)
            x, y = u.x + math.cos(ang) * dist, u.y + math.sin(ang) * dist
            th = rng.uniform(-math.pi, math.pi) if rng.random() < 0.2 else ang
            try:
                S.check_move(b, u, x, y, th, ch)
            except IllegalActionError:
                continue
            return ("move", x, y, th, ch)
        return ("hold",)
