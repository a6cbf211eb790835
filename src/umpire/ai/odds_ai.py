"""The generic AI: plays any composition by the combat role's exact odds.

For each request it reads the legal orders with their odds (``offers`` seam) and
chooses: fire at the best expected stands lost (more for finishing a unit off); charge
when the exact chance of driving the enemy off and the expected stands gained beat the
expected stands lost; otherwise move by the scenario's posture (attack: close with the
nearest enemy; defend: hold the nearest objective), preferring cover and command.

It scores candidates before testing their legality, and tests them best first: the
first legal one is the one it would pick from the full menu (ties go to the earlier
offer, as ``max`` over the menu does), so most candidates are never tested.
"""

from __future__ import annotations

import math

from umpire.ai.personality import RESERVE_NEAR, Personality, personality
from umpire.battle import orders as od
from umpire.battle.engine import NEAR_TIE, Battle, Order, Request
from umpire.battle.menus import best_left
from umpire.battle.roles import Offer, offers
from umpire.board.fmath import hypot as _hypot

CHARGE_THRESHOLD = 0.5
"""Charge when P(the enemy is driven off) exceeds this and the charge gains stands (the
personality's ``attack`` default, ``umpire/data/ai/personality.toml``)."""

HOLD: Order = od.HOLD


class OddsAI:
    """A sensible, deterministic player of either side under any rules."""

    kind = "ai"

    def __init__(self) -> None:
        self._pers: dict[tuple[int, str], tuple[object, Personality]] = {}
        self._last: tuple[object, str, Personality] | None = None  # the last one asked

    def personality(self, b: Battle, side: str) -> Personality:
        """The side's personality in this battle's scenario (looked up once)."""
        scen = b.setup.scenario
        last = self._last
        if last is not None and last[0] is scen and last[1] == side:
            return last[2]
        hit = self._pers.get((id(scen), side))
        if hit is None or hit[0] is not scen:
            hit = self._pers[(id(scen), side)] = (scen, personality(scen, side))
        self._last = (scen, side, hit[1])
        return hit[1]

    def decide(self, b: Battle, req: Request) -> Order:
        """The best offered order for ``req``."""
        opts = offers(b, req)
        if req.kind == "leader":
            return self.leader(b, req, opts)
        if req.kind == "fire":
            return self.fire(opts)
        if req.kind == "move":
            return self.move(b, req, opts)
        return self.pick(opts)

    def pick(self, opts: list[Offer]) -> Order:
        """Any other decision (an event's choice): the option its odds value most."""
        legal = [c for c in opts if c.legal()]
        if not legal:
            return HOLD
        return max(legal, key=lambda c: c.odds.get("value", c.odds.get("p", 0.0))).order

    def leader(self, b: Battle, req: Request, opts: list[Offer]) -> Order:
        """Join the unit nearest the middle of his own units."""
        ld = b.state.leaders[req.actor]
        mine = [u for u in b.state.units if u.alive and u.leader == ld.i]
        joins = [c for c in opts if c.kind == "leader"]
        if not mine or not joins:
            return HOLD
        cx = sum(u.x for u in mine) / len(mine)
        cy = sum(u.y for u in mine) / len(mine)
        # nearest by (dx ** 2 + dy ** 2); the cheaper dx * dx + dy * dy (a few ulps away)
        # settles all but a near tie, where the rules' own sums decide (as nearest_enemy)
        n = len(joins)
        qs: list[float] = []
        dists = [-1.0] * n  # the rules' sums, worked out where a near tie needs them
        for j in joins:
            jx, jy = j.at()  # where the join rides to (without making its order)
            dx, dy = jx - cx, jy - cy
            qs.append(dx * dx + dy * dy)
        tried = [False] * n
        while True:  # nearest first; the earlier of two equal joins first (a stable sort)
            k = -1
            low = 0.0
            for m in range(n):
                if not tried[m] and (k < 0 or qs[m] < low):
                    k, low = m, qs[m]
            if k < 0:
                return HOLD
            top = low * NEAR_TIE
            best = -1.0
            for m in range(n):  # the earliest of the least sums among the near ties
                if not tried[m] and qs[m] <= top:
                    d = dists[m]
                    if d < 0.0:
                        jx, jy = joins[m].at()
                        d = dists[m] = math.pow(jx - cx, 2.0) + math.pow(jy - cy, 2.0)
                    if best < 0.0 or d < best:
                        k, best = m, d
            if joins[k].legal():
                return joins[k].order
            tried[k] = True

    def fire(self, opts: list[Offer]) -> Order:
        """Fire at the highest expected loss; finishing a unit off counts half again."""
        best: tuple[float, Order] | None = None
        for c in opts:
            if c.kind != "fire" or not c.legal():
                continue
            value = c.odds.get("inflict", c.odds.get("p", 0.0))
            value *= 1.5 if c.odds.get("finish") else 1.0
            if best is None or value > best[0]:
                best = (value, c.order)
        return HOLD if best is None else best[1]

    def move(self, b: Battle, req: Request, opts: list[Offer]) -> Order:
        """Charge when it pays, else move toward the posture's goal, into cover if near
        (a reserve holds while no enemy is near: the side's personality)."""
        pers = self.personality(b, req.side)
        charges = [
            c
            for c in opts
            if c.kind == "charge"
            and c.odds.get("p", 0.0) > pers.attack
            and c.odds.get("inflict", 0.0) * pers.risk >= c.odds.get("suffer", 0.0)
            and c.legal()
        ]
        if charges:
            return max(charges, key=lambda c: (c.odds["p"], c.odds.get("inflict", 0.0))).order
        if pers.reserve > 0.0 and self.in_reserve(b, req.actor, pers.reserve):
            for c in opts:
                if c.kind == "hold" and c.legal():
                    return HOLD
        moves = [c for c in opts if c.kind == "move"]
        if moves:
            u = b.state.units[req.actor]
            gx, gy, stop = self.goal(b, req)
            board = b.setup.board
            # the score of a place: near the goal's distance, in cover (written out: it
            # is the inner loop of every move decision)
            ux, uy = u.x, u.y
            stay = -abs(_hypot(gx - ux, gy - uy) - stop)
            if board.in_cover(ux, uy):
                stay += 3.0
            here = stay + 0.25  # holding wins ties: no move for nothing
            holds = False
            for c in reversed(opts):  # the menus put holding last
                if c.kind == "hold" and c.legal():
                    holds = True
                    break
            n = len(moves)
            scores: list[float] = []
            for c in moves:
                x, y = c.at()  # where the move ends (without making its order)
                if x == ux and y == uy:  # in place (a change, a wheel): the place's own score
                    scores.append(stay)
                    continue
                s = -abs(_hypot(gx - x, gy - y) - stop)
                if board.in_cover(x, y):
                    s += 3.0
                scores.append(s)
            tried = [False] * n
            while True:  # best first; the earlier of two equal moves first (a stable sort)
                k = best_left(scores, tried)
                if k < 0:
                    break
                top = scores[k]
                if top <= here and holds:
                    return HOLD  # no legal move left can beat holding
                if moves[k].legal():
                    return moves[k].order if top > here else HOLD
                tried[k] = True
        legal = [c for c in opts if c.legal()]
        if not legal or any(c.kind == "hold" for c in legal):
            return HOLD
        return legal[0].order

    def in_reserve(self, b: Battle, actor: int, reserve: float) -> bool:
        """Is the unit one of its side's reserve (the ``reserve`` fraction farthest from
        the enemy) with no enemy within ``RESERVE_NEAR``?"""
        u = b.state.units[actor]
        near: list[tuple[float, int]] = []
        for v in b.alive(u.side):
            en = b.nearest_enemy(v)
            d = math.inf if en is None else _hypot(en.x - v.x, en.y - v.y)
            near.append((-d, v.i))
        near.sort()
        kept = {i for _, i in near[: int(reserve * len(near))]}
        if u.i not in kept:
            return False
        en = b.nearest_enemy(u)
        return en is None or _hypot(en.x - u.x, en.y - u.y) > RESERVE_NEAR

    def goal(self, b: Battle, req: Request) -> tuple[float, float, float]:
        """(x, y, distance to keep): the nearest enemy to attack, or an objective to hold."""
        u = b.state.units[req.actor]
        ux, uy = u.x, u.y
        posture = b.setup.posture.get(u.side, "attack")
        if posture == "defend" and b.setup.objectives:
            ob = None
            best = math.inf
            for o in b.setup.objectives:  # the first nearest, as min() gives
                d = math.pow(o.x - ux, 2.0) + math.pow(o.y - uy, 2.0)  # = ** 2 (native)
                if ob is None or d < best:
                    ob, best = o, d
            assert ob is not None
            return ob.x, ob.y, 0.0
        en = b.nearest_enemy(u)  # the first nearest by (dx ** 2 + dy ** 2), as min() gives
        if en is None:
            return ux, uy, 0.0
        stop = 4.0 if u.type != "artillery" else 10.0
        return en.x, en.y, stop
