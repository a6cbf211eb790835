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
from umpire.battle import orders as od
from umpire.battle.engine import Battle, Order, Request
from umpire.battle.menus import best_left
from umpire.battle.roles import Offer, combat_offers, offers
from umpire.board.fmath import hypot
from umpire.errors import IllegalActionError

HOLD: Order = od.HOLD
UNIT_KINDS = ("move", "fire")
"""Requests whose actor is a unit (a leader's is a leader)."""

EASY_HOLD = 0.15
"""P(easy holds where holding is legal): the noise the issue asks of it ('sometimes holds')."""
EASY_NOISE = 0.5
"""P(easy picks among its better orders at random rather than normal's best)."""
EASY_TOP = 3
"""How many of the better orders easy picks among."""


def _change(order: Order) -> str:
    """The formation change a move order makes ("" for none, or no move)."""
    return order.change if order.kind == "move" else ""


def _move(order: Order) -> od.Move:
    """The order of a "move" offer, which is a move order."""
    assert order.kind == "move", order
    return order


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
        if order.kind != "hold" and self.rng.random() < EASY_HOLD and hold_ok:
            return HOLD
        if order.kind == "hold" or self.rng.random() >= EASY_NOISE:
            return order
        same = _legal(opts, order.kind)
        if order.kind == "move":
            x, y = float(order.x), float(order.y)
            same.sort(key=lambda c: hypot(float(_move(c.order).x) - x, float(_move(c.order).y) - y))
        else:
            same.sort(key=lambda c: -c.odds.get("inflict", c.odds.get("p", 0.0)))
        top = same[:EASY_TOP]
        return self.rng.choice(top).order if top else order


class HardAI:
    """Looks one step ahead on its moves and concentrates its fire; else ``normal``.

    For a unit's move it takes a few candidates (normal's order, holding, the legal charges,
    the formation changes the menu offers, in place or on the march, a shaken unit's fall
    back, and the moves best by normal's own measure), plays each on a fork of the battle (a
    copy of the state with private dice: the real dice are never drawn) and weighs the
    position it leads to: the stands the unit can expect to inflict from there by the menu's
    exact fire odds, against those the enemy's likely reply (the nearest enemies in reach
    firing at it) can expect to take, more for a weak or shaken unit; cover; its posture's
    goal; far from the enemy, how far it can move next turn (a column marches, a line
    fights). A charge adds its exact expected exchange (P it goes in times stands
    inflicted, less stands lost). This is expectimax's first ply with the enemy's reply as
    its expected fire (issue 23). The work per decision is capped (``FORKS`` forks,
    ``ENEMIES`` enemies weighed per fork), whatever the crowd.

    Where a module's own general is ``normal`` (seed 002's script) hard keeps that
    general's moves and adds only the formation changes, charges, holding and falling back.
    """

    kind = "hard"

    MOVES = 3
    """Moves besides normal's weighed per decision (the generic AI's compositions)."""
    CHARGES = 3
    """Charges weighed per decision at most (the likeliest to go in)."""
    FORKS = 8
    """Forks (candidate orders played ahead) per decision at most: the cap on its work."""
    ENEMIES = 4
    """Enemies whose reply is weighed per fork at most (the nearest in their reach)."""
    PRESS = 0.2
    """Value per inch nearer the nearest enemy in attack posture: presses the attack (0.05
    left the attacking Confederates holding back: mcpherson_cards -34 points at n=200;
    0.2 gave +27 there at n=30)."""
    MARCH = 18.0
    """Farther than this from the nearest enemy a unit marches: next turn's move counts."""
    TEMPO = 0.5
    """Value of an inch of next turn's move when marching, relative to an inch now."""
    KEEP = 0.1
    """The margin by which another candidate must beat normal's order (expected stands)."""
    SCRIPT_KEEP = 0.3
    """The margin under a module's own general (seed 002's script): it plays its own
    compositions well, so only a clear gain overrides it (0.1 measured -7 points for the
    defending Union in mcpherson_ridge at n=100, 0.3 -6 and +16 for the Confederates)."""
    NEAR = 24.0
    """Look ahead only when an enemy is this near, in inches (unless a change is offered)."""
    FINISH = 1.0
    """Fire: a shot that may finish the target counts this much more (normal: 0.5)."""
    BREAK = 0.5
    """Fire: the weight of the target's damage so far (stands lost over its first)."""
    CONCENTRATE = True
    """Fire: weigh targets by finishing and damage (else normal's target)."""
    SCRIPT_EXTRA = False
    """Under a module's own general: weigh holding and charges against its order too."""
    CHANGES = True
    """Moves: weigh the formation changes the menu offers."""
    SHAKEN = 3.0
    """How much more a shaken unit (no advance) weighs the enemy's fire at it."""

    def __init__(self, normal: Any, seed: int = 0):
        self.normal = normal
        self.rng = random.Random(seed)
        self.why = ""
        self.seen: dict[Order, tuple[float, float, float, bool, float]] = {}
        """Per candidate weighed: its move rate after, the stands it expects to inflict and
        to take, in cover, inches from its goal (the reason ``--explain`` gives)."""
        self.refused: list[Order] = []
        """Candidates the fork's step refused though the menu or check passed them."""
        self.forks = 0
        self.menus = 0
        """Work of the last decision: forks played, fire menus read (the cap's test)."""

    def decide(self, b: Battle, req: Request) -> Order:
        """The candidate leading to the best position, else normal's order."""
        self.why = ""
        self.forks = self.menus = 0
        self.seen = {}
        order: Order = self.normal.decide(b, req)
        if req.kind == "fire":
            return self.fire(b, req, order) if self.CONCENTRATE else order
        if req.kind != "move":
            return order
        u = b.state.units[req.actor]
        en = b.nearest_enemy(u)
        if en is None:
            return order
        d_en = hypot(en.x - u.x, en.y - u.y)
        generic = self.generic(b)
        opts = offers(b, req)
        cands: list[Order] = [order]
        why: dict[Order, str] = {}
        extra = generic or self.SCRIPT_EXTRA
        if extra and order.kind != "hold" and any(c.kind == "hold" and c.legal() for c in opts):
            cands.append(HOLD)
        shaken = b.status.move_limit(b, u) == "no_advance"
        if shaken:  # may not advance: falling back out of reach keeps it from worse
            # (seed 004: a second hit makes Shaken worse; seed 002's marker, 'rally',
            # rallies by holding still, as normal does)
            back = self.fall_back(b, u, en, opts)
            if back is not None and back not in cands:
                cands.append(back)
                why[back] = "falls back to rally"
        # charges only where normal's rule (the side's personality) would take one: a
        # charge's expected exchange leaves out the risk of a rout breaking the side
        attack = personality(b.setup.scenario, req.side).attack
        charges = [
            c for c in opts if extra and c.kind == "charge" and c.odds.get("p", 0.0) > attack
        ]
        charges.sort(key=lambda c: -c.odds.get("p", 0.0))
        charges = [c for c in charges if c.legal()][: self.CHARGES]  # (a menu's are lazy)
        for c in charges:
            if c.order not in cands:
                cands.append(c.order)
                why[c.order] = f"presses the attack ({c.odds.get('p', 0.0):.0%} to drive it off)"
        for cand, reason in self.changes(b, req, u, opts, order) if self.CHANGES else []:
            if cand not in cands:
                cands.append(cand)
                why[cand] = reason
        if d_en > self.NEAR and len(cands) == 1 + (HOLD in cands[1:]):
            return order  # far off and nothing but holding to weigh: normal's march
        moves = [c for c in opts if c.kind == "move"] if generic and d_en <= self.NEAR else []
        if moves:
            tx, ty = en.x, en.y
            board = b.setup.board
            score: list[float] = []
            for c in moves:
                mx, my = float(_move(c.order).x), float(_move(c.order).y)
                score.append(
                    (3.0 if board.in_cover(mx, my) else 0.0) - 0.1 * hypot(mx - tx, my - ty)
                )
            done = [False] * len(moves)
            took = 0
            while took < self.MOVES and len(cands) < self.FORKS:
                k = best_left(score, done)
                if k < 0:
                    break
                done[k] = True
                if moves[k].legal() and moves[k].order not in cands:
                    cands.append(moves[k].order)
                    took += 1
        cands = cands[: self.FORKS]
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
            v = self.value(b, req, cand, shaken) + gains.get(cand, 0.0)
            if k == 0:
                v += self.KEEP if generic else self.SCRIPT_KEEP  # normal's wins near-ties
            if v > top:
                best, top = cand, v
        if best != order:
            gain = self.gain_why(best, order)
            said = why.get(best, "")
            self.why = f"{said}: {gain}" if said and gain else said or gain
        return best

    def gain_why(self, order: Order, normal: Order) -> str:
        """What the chosen order gains over normal's, from the fork's figures: a longer
        move next turn (a march), more fire, less enemy fire, cover, or ground."""
        mine = self.seen.get(order)
        was = self.seen.get(normal)
        if mine is None or was is None:
            return ""
        if mine[0] > was[0] + 1e-6 and mine[1] <= was[1]:
            return f'{mine[0]:.0f}" a move after it, not {was[0]:.0f}"'
        if mine[1] > was[1] + 0.05:
            return f"expects to inflict {mine[1]:.1f} stands, not {was[1]:.1f}"
        if mine[2] < was[2] - 0.05:
            return f"expects to take {mine[2]:.1f} stands, not {was[2]:.1f}"
        if mine[3] and not was[3]:
            return "into cover"
        return f'{mine[4]:.0f}" from its goal, not {was[4]:.0f}"'

    def changes(
        self, b: Battle, req: Request, u: Any, opts: list[Offer], order: Order
    ) -> list[tuple[Order, str]]:
        """Formation changes worth weighing: those the menu offers in place (a line to
        fight, dismounted to fire, unlimbered), and each of them made on the march along
        normal's move or the menu's advance (column to march, mounted, limbered), as long
        as the rules allow (the combat role's ``check``); the change's kind comes from the
        menu, so any module offering changes gets them."""
        here = [
            c
            for c in opts
            if c.kind == "move"
            and _move(c.order).change
            and abs(float(_move(c.order).x) - u.x) < 1e-9
            and abs(float(_move(c.order).y) - u.y) < 1e-9
        ]
        if not here:
            return []
        out: list[tuple[Order, str]] = []
        for c in here:
            if c.legal():
                out.append((c.order, c.words()))
        # the march: along normal's own move; where normal moves nowhere (turns, holds)
        # and the side attacks, along the menu's first move (a unit that cannot move as it
        # stands, an unlimbered battery, is not sent forward: that measured worse in
        # `standard`, -19 points for the Confederates at n=100)
        trips: list[od.Move] = []
        if order.kind == "move" and not order.change:
            trips.append(order)
        if b.setup.posture.get(req.side, "attack") == "attack":
            trips += [
                _move(c.order)
                for c in opts
                if c.kind == "move" and not _move(c.order).change and c.order not in trips
            ]
        trips = [t for t in trips if hypot(float(t.x) - u.x, float(t.y) - u.y) > 1e-6][:1]
        rate = b.comp.combat.move_rate(b, u)
        for c in here:
            change = _move(c.order).change
            for trip in trips:
                dx, dy = float(trip.x) - u.x, float(trip.y) - u.y
                d = hypot(dx, dy)
                for f in (1.5, 1.0, 0.75, 0.5, 0.25):
                    step = min(d if d < rate * 0.99 else math.inf, max(rate, 4.0) * f)
                    x, y = u.x + dx / d * step, u.y + dy / d * step
                    cand: Order = od.Move("move", x, y, float(trip.theta), change)
                    try:
                        b.comp.combat.check(b, req, cand)
                    except IllegalActionError:
                        continue
                    said = c.words().replace(" in place", "")
                    out.append((cand, f'{said} on the march ({step:.0f}")'))
                    break
        return out

    def fall_back(self, b: Battle, u: Any, en: Any, opts: list[Offer]) -> Order | None:
        """The legal move that ends farthest from the nearest enemy (a shaken unit's)."""
        best: Order | None = None
        far = hypot(en.x - u.x, en.y - u.y)
        for c in opts:
            if c.kind != "move":
                continue
            mv = _move(c.order)
            d = hypot(en.x - float(mv.x), en.y - float(mv.y))
            if d > far + 1.0 and c.legal():
                best, far = c.order, d
        return best

    def fire(self, b: Battle, req: Request, order: Order) -> Order:
        """Concentrated fire: the target it can finish or break, or one already hit
        (marked), counts more than its expected loss alone (normal: finishing counts half
        again); the menu's exact odds (``inflict``, ``finish``, ``p``)."""
        best: Order = order
        top = -math.inf
        units = b.state.units
        pick: Offer | None = None
        at = -1  # the target of ``best`` (when it is one of the offers)
        for c in offers(b, req):
            if c.kind != "fire" or not c.legal():
                continue
            shot = c.order
            assert shot.kind == "fire", shot  # a "fire" offer's order is a fire order
            v = units[shot.t]
            val = c.odds.get("inflict", c.odds.get("p", 0.0))
            val *= 1.0 + (self.FINISH if c.odds.get("finish") else 0.0)
            lost = 1.0 - v.stands / v.stands0 if v.stands0 else 0.0
            val *= 1.0 + self.BREAK * lost + (0.25 if b.status.label(v) else 0.0)
            if val > top:
                best, top, pick, at = shot, val, c, shot.t
        if best != order and pick is not None:
            v = units[at]
            if pick.odds.get("finish"):
                self.why = (
                    f"concentrates fire on {v.name}: {pick.odds.get('p', 0.0):.0%} to finish it"
                )
            else:
                left = f"{v.stands} of {v.stands0} stands left"
                mark = b.status.label(v)
                self.why = f"concentrates fire on {v.name}: " + (
                    f"{mark}, {left}" if mark else left
                )
        return best

    def generic(self, b: Battle) -> bool:
        """Does the generic odds AI play this composition as ``normal``? Where a module's
        own general plays (seed 002's script in pure quick ACW battles) hard keeps its
        moves and weighs only changes, charges, holding and falling back against them."""
        from umpire.ai.odds_ai import OddsAI

        pick = getattr(self.normal, "policy_for", None)
        return pick is None or isinstance(pick(b), OddsAI)

    def fork(self, b: Battle) -> Battle:
        """A copy of the battle to try an order on, with private dice."""
        from umpire.battle.setup import new_state
        from umpire.dice import SeededSource

        self.forks += 1
        st = new_state(b.setup.scenario, b.comp)
        st.load_json(b.state.to_json())
        return Battle(b.setup, st, SeededSource(self.rng.getrandbits(48)))

    def value(self, b: Battle, req: Request, order: Order, shaken: bool = False) -> float:
        """The position after ``order`` for the acting unit, one reply on."""
        f = self.fork(b)
        try:
            f.apply(req, order)
        except IllegalActionError:  # a module's check passed what its step refuses
            self.refused.append(order)
            return -math.inf
        u = f.state.units[req.actor]
        if not u.alive:
            return -10.0
        mine = 0.0
        self.menus += 1
        for c in combat_offers(f, Request("fire", u.side, u.i, "fire")):
            if c.kind == "fire" and c.legal():
                mine = max(mine, c.odds.get("inflict", 0.0))
        theirs = 0.0
        target: Order = od.FireAt("fire", u.i)
        combat = f.comp.combat
        near: list[tuple[float, int]] = []
        for e in f.state.units:
            if not e.alive or e.side == u.side:
                continue
            d = hypot(e.x - u.x, e.y - u.y)
            if d <= self.NEAR and d <= combat.reach(f, e) + 2.0:
                near.append((d, e.i))
        near.sort()
        for _, ei in near[: self.ENEMIES]:
            e = f.state.units[ei]
            self.menus += 1
            for c in combat_offers(f, Request("fire", e.side, e.i, "fire")):
                if c.order == target and c.legal():
                    theirs += c.odds.get("inflict", 0.0)
                    break
        side = u.side
        gone = sum(1 for w in f.state.units if w.side == side and not w.alive)
        margin = f.setup.break_fraction[side] * f.setup.units0[side] - gone
        weak = (1.0 + 1.0 / max(1, u.stands)) * (1.0 + 2.0 / max(1.0, margin))
        if shaken:
            weak *= self.SHAKEN
        v = mine - theirs * weak
        if f.setup.board.in_cover(u.x, u.y):
            v += 0.3  # (cover: recorded below for the reason)
        posture = f.setup.posture.get(u.side, "attack")
        en = f.nearest_enemy(u)
        rate = combat.move_rate(f, u)
        if (
            order.kind == "move"
            and order.change
            and abs(u.x - float(order.x)) + abs(u.y - float(order.y)) < 1e-9
        ):
            rate = combat.move_rate(b, b.state.units[req.actor])  # changed in place: no march
        goal = 0.0
        if posture == "defend" and f.setup.objectives:
            goal = min(hypot(o.x - u.x, o.y - u.y) for o in f.setup.objectives)
            v -= 0.05 * goal
        elif en is not None:
            stop = 10.0 if u.type == "artillery" else 0.0
            d = hypot(en.x - u.x, en.y - u.y)
            goal = max(0.0, d - stop)
            v -= self.PRESS * goal
            # marching: next turn's move counts for the way left beyond fighting distance
            v += self.PRESS * self.TEMPO * min(rate, max(0.0, d - self.MARCH))
        cover = f.setup.board.in_cover(u.x, u.y)
        self.seen[order] = (rate, mine, theirs, cover, goal)
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
    }.get(order.kind, order.kind)
    parts: list[str] = []
    if match is not None:
        o = match.odds
        if "goes_in" in o or (order.kind == "charge" and "p" in o):
            parts.append(f"{o.get('goes_in', o.get('p', 0.0)):.0%} to go in")
        elif "p" in o and order.kind != "move":
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
        if order.kind == "move":
            x, y = float(order.x), float(order.y)
        d = min(math.hypot(ob.x - x, ob.y - y) for ob in b.setup.objectives)
        parts.append(f'objective {d:.0f}" away')
    if req.kind == "leader":
        ld = b.state.leaders[req.actor]
        if order.kind == "leader" and 0 <= order.attach < len(b.state.units):
            joined = b.state.units[order.attach]
            d = math.hypot(float(order.x) - ld.x, float(order.y) - ld.y)
            line = f'joins {joined.name} ({d:.1f}" away)'
            mine = [u for u in b.state.units if u.alive and u.leader == ld.i]
            if mine:
                cx = sum(u.x for u in mine) / len(mine)
                cy = sum(u.y for u in mine) / len(mine)
                mid = min(mine, key=lambda u: math.hypot(u.x - cx, u.y - cy))
                if mid.i == joined.i:
                    line += f": the nearest of his {len(mine)} units to their middle"
            return line
        if order.kind == "leader":
            return f"rides to ({float(order.x):.1f}, {float(order.y):.1f})"
        return "stays where he is"
    if order.kind in ("move", "hold") and not parts[:-1]:
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
        elif req.kind == "leader":
            who = f" {b.state.leaders[req.actor].name}"
        why = explain(b, req, order)
        own = str(getattr(self.inner, "why", ""))
        if own:  # hard's reason where it chose otherwise than normal, then the odds
            why = f"{own} ({why})"
        line = f"  [{self.kind} {self.side}{who}] {why}"
        if self.tell is not None:
            self.tell(line)
        else:
            b.say(line)
        return order
