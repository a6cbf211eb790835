"""The AI's levels beyond ``normal`` (issue 23), and the line that explains a choice.

``easy`` is ``normal`` with noise: it sometimes holds, and otherwise often picks at
random among the better orders of the kind ``normal`` chose (the targets that inflict
most, the moves that land nearest ``normal``'s). ``hard`` weighs its orders by their
exact odds (:class:`HardAI`). Both wrap the per-composition ``normal`` policy, so they
play every composition; their noise comes from their own generator (choices are recorded
as orders, so a replay does not need it).
"""

from __future__ import annotations

import math
import random
from typing import Any

from umpire.ai.personality import personality
from umpire.battle.engine import Battle, Order, Request
from umpire.battle.menus import best_left
from umpire.battle.roles import Offer, combat_offers, offers
from umpire.board.fmath import hypot

HOLD: Order = ("hold",)
UNIT_KINDS = ("move", "fire")
"""Requests whose actor is a unit (a leader's is a leader)."""

EASY_HOLD = 0.15
"""P(easy holds where holding is legal): the noise the issue asks of it ('sometimes holds')."""
EASY_NOISE = 0.5
"""P(easy picks among its better orders at random rather than normal's best)."""
EASY_TOP = 3
"""How many of the better orders easy picks among."""


def _legal(opts: list[Offer], kind: str) -> list[Offer]:
    return [c for c in opts if c.kind == kind and c.legal()]


class EasyAI:
    """``normal`` with noise: sometimes holds, often takes one of its better orders."""

    kind = "easy"

    def __init__(self, normal: Any, seed: int = 0):
        self.normal = normal
        self.rng = random.Random(seed)

    def decide(self, b: Battle, req: Request) -> Order:
        """Normal's order, or a noisy one near it."""
        order: Order = self.normal.decide(b, req)
        if req.kind not in ("move", "fire"):
            return order
        opts = offers(b, req)
        hold_ok = any(c.kind == "hold" and c.legal() for c in opts)
        if order[0] != "hold" and self.rng.random() < EASY_HOLD and hold_ok:
            return HOLD
        if order[0] == "hold" or self.rng.random() >= EASY_NOISE:
            return order
        same = _legal(opts, str(order[0]))
        if order[0] == "move":
            x, y = float(order[1]), float(order[2])
            same.sort(key=lambda c: hypot(float(c.order[1]) - x, float(c.order[2]) - y))
        else:
            same.sort(key=lambda c: -c.odds.get("inflict", c.odds.get("p", 0.0)))
        top = same[:EASY_TOP]
        return self.rng.choice(top).order if top else order


class HardAI:
    """Looks one step ahead on its moves; plays its other decisions as ``normal``.

    For a unit's move it takes a few candidates (normal's order, holding, the legal charges
    and the moves best by normal's own measure), plays each on a fork of the battle (a copy
    of the state with private dice: the real dice are never drawn) and weighs the position
    it leads to: the stands the unit can expect to inflict from there by the menu's exact
    fire odds, against those the enemy's likely reply (every enemy in range firing at it)
    can expect to take, more for a weak unit; cover; its posture's goal. A charge adds its
    exact expected exchange (P it goes in times stands inflicted, less stands lost). This
    is expectimax's first ply with the enemy's reply as its expected fire (issue 23).
    """

    kind = "hard"

    MOVES = 3
    """Moves besides normal's weighed per decision (the cost grows with them)."""
    PRESS = 0.2
    """Value per inch nearer the nearest enemy in attack posture: presses the attack (0.05
    left the attacking Confederates holding back: mcpherson_cards -34 points at n=200;
    0.2 gave +27 there at n=30)."""
    KEEP = 0.1
    """The margin by which another candidate must beat normal's order (expected stands)."""
    NEAR = 24.0
    """Look ahead only when an enemy is this near, in inches; farther, play as normal."""

    def __init__(self, normal: Any, seed: int = 0):
        self.normal = normal
        self.rng = random.Random(seed)
        self.why = ""

    def decide(self, b: Battle, req: Request) -> Order:
        """The candidate leading to the best position, else normal's order."""
        order: Order = self.normal.decide(b, req)
        if req.kind != "move" or not self.generic(b):
            return order
        u = b.state.units[req.actor]
        en = b.nearest_enemy(u)
        if en is None or hypot(en.x - u.x, en.y - u.y) > self.NEAR:
            return order
        opts = offers(b, req)
        cands: list[Order] = [order]
        if order[0] != "hold" and any(c.kind == "hold" and c.legal() for c in opts):
            cands.append(HOLD)
        # charges only where normal's rule (the side's personality) would take one: a
        # charge's expected exchange leaves out the risk of a rout breaking the side
        attack = personality(b.setup.scenario, req.side).attack
        charges = [
            c for c in opts if c.kind == "charge" and c.odds.get("p", 0.0) > attack and c.legal()
        ]
        cands += [c.order for c in charges if c.order not in cands]
        moves = [c for c in opts if c.kind == "move"]
        if moves:
            tx, ty = en.x, en.y
            board = b.setup.board
            score = [
                (3.0 if board.in_cover(float(c.order[1]), float(c.order[2])) else 0.0)
                - 0.1 * hypot(float(c.order[1]) - tx, float(c.order[2]) - ty)
                for c in moves
            ]
            done = [False] * len(moves)
            took = 0
            while took < self.MOVES:
                k = best_left(score, done)
                if k < 0:
                    break
                done[k] = True
                if moves[k].legal() and moves[k].order not in cands:
                    cands.append(moves[k].order)
                    took += 1
        if len(cands) == 1:
            return order
        gains = {
            c.order: c.odds.get("goes_in", c.odds.get("p", 0.0)) * c.odds.get("inflict", 0.0)
            - c.odds.get("suffer", 0.0)
            for c in charges
        }
        best = order
        top = -math.inf
        for k, cand in enumerate(cands):
            v = self.value(b, req, cand) + gains.get(cand, 0.0)
            if k == 0:
                v += self.KEEP  # normal's choice wins ties and near-ties
            if v > top:
                best, top = cand, v
        return best

    def generic(self, b: Battle) -> bool:
        """Does the generic odds AI play this composition as ``normal``? Where a module's
        own general plays (seed 002's script in pure quick ACW battles) the lookahead
        measured worse (issue 23 report: mcpherson_ridge, standard): hard plays it."""
        from umpire.ai.odds_ai import OddsAI

        pick = getattr(self.normal, "policy_for", None)
        return pick is None or isinstance(pick(b), OddsAI)

    def fork(self, b: Battle) -> Battle:
        """A copy of the battle to try an order on, with private dice."""
        from umpire.battle.setup import new_state
        from umpire.dice import SeededSource

        st = new_state(b.setup.scenario, b.comp)
        st.load_json(b.state.to_json())
        return Battle(b.setup, st, SeededSource(self.rng.getrandbits(48)))

    def value(self, b: Battle, req: Request, order: Order) -> float:
        """The position after ``order`` for the acting unit, one reply on."""
        f = self.fork(b)
        f.apply(req, order)
        u = f.state.units[req.actor]
        if not u.alive:
            return -10.0
        mine = 0.0
        for c in combat_offers(f, Request("fire", u.side, u.i, "fire")):
            if c.kind == "fire" and c.legal():
                mine = max(mine, c.odds.get("inflict", 0.0))
        theirs = 0.0
        target: Order = ("fire", u.i)
        for e in f.state.units:
            if not e.alive or e.side == u.side:
                continue
            if hypot(e.x - u.x, e.y - u.y) > self.NEAR:
                continue
            for c in combat_offers(f, Request("fire", e.side, e.i, "fire")):
                if c.order == target and c.legal():
                    theirs += c.odds.get("inflict", 0.0)
                    break
        side = u.side
        gone = sum(1 for w in f.state.units if w.side == side and not w.alive)
        margin = f.setup.break_fraction[side] * f.setup.units0[side] - gone
        weak = (1.0 + 1.0 / max(1, u.stands)) * (1.0 + 2.0 / max(1.0, margin))
        v = mine - theirs * weak
        if f.setup.board.in_cover(u.x, u.y):
            v += 0.3
        posture = f.setup.posture.get(u.side, "attack")
        if posture == "defend" and f.setup.objectives:
            v -= 0.05 * min(hypot(o.x - u.x, o.y - u.y) for o in f.setup.objectives)
        else:
            en = f.nearest_enemy(u)
            if en is not None:
                v -= self.PRESS * hypot(en.x - u.x, en.y - u.y)
        return v


def explain(b: Battle, req: Request, order: Order) -> str:
    """One line on why an order was chosen, from its exact odds (``--explain``)."""
    match = None
    for c in offers(b, req):
        if c.order == order:
            match = c
            break
    verb = {
        "charge": "charges",
        "fire": "fires",
        "move": "moves",
        "hold": "holds",
        "leader": "places a leader",
    }.get(str(order[0]), str(order[0]))
    parts: list[str] = []
    if match is not None:
        o = match.odds
        if "goes_in" in o or (order[0] == "charge" and "p" in o):
            parts.append(f"{o.get('goes_in', o.get('p', 0.0)):.0%} to go in")
        elif "p" in o and order[0] != "move":
            parts.append(f"{o['p']:.0%} to succeed")
        if "inflict" in o:
            parts.append(f"expected to inflict {o['inflict']:.1f} stands")
        if "suffer" in o:
            parts.append(f"expected loss {o['suffer']:.1f} stands")
        if o.get("finish"):
            parts.append("may finish the unit")
    if req.kind in UNIT_KINDS and b.setup.objectives:
        u = b.state.units[req.actor]
        x, y = u.x, u.y
        if order[0] == "move":
            x, y = float(order[1]), float(order[2])
        d = min(math.hypot(ob.x - x, ob.y - y) for ob in b.setup.objectives)
        parts.append(f'objective {d:.0f}" away')
    if order[0] in ("move", "hold") and not parts[:-1]:
        posture = b.setup.posture.get(req.side, "attack")
        parts.insert(0, f"posture {posture}")
    return f"{verb}: {', '.join(parts)}" if parts else verb


class Explained:
    """A policy that says why it chose each order (``umpire battle --explain``): into the
    battle's narrative (so the printed story and ``--log`` carry it), or to ``tell``."""

    def __init__(self, inner: Any, side: str, tell: Any = None):
        self.inner = inner
        self.kind = str(inner.kind)
        self.side = side
        self.tell = tell

    def decide(self, b: Battle, req: Request) -> Order:
        """The inner policy's order, explained in one line."""
        order: Order = self.inner.decide(b, req)
        who = ""
        if req.kind in UNIT_KINDS:
            who = f" {b.state.units[req.actor].name}"
        line = f"  [{self.kind} {self.side}{who}] {explain(b, req, order)}"
        if self.tell is not None:
            self.tell(line)
        else:
            b.say(line)
        return order
