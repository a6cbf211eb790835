"""The specialised policies of pure seed 002 battles: the scripted AI, and a random one.

The scripted AI plays either side of a quick ACW battle.

It keeps units in command (leaders go to the middle of their brigade and units stay
inside the radius), uses cover (destinations in cover score higher), fires at the
target with the best exact expected loss, charges only when the exact odds of driving
the enemy off favour it, and rallies (units with a Morale Marker hold still).
"""

from __future__ import annotations

import math
import random
from typing import Final

from umpire.battle import orders as od
from umpire.battle.engine import Battle, Order, Request
from umpire.battle.menus import best_left
from umpire.battle.state import Unit
from umpire.board.fmath import hypot as _hypot
from umpire.errors import IllegalActionError
from umpire.rules.quick_acw import losses as LO
from umpire.rules.quick_acw import reach as RCH
from umpire.rules.quick_acw import rules as R
from umpire.rules.quick_acw import steps as S
from umpire.rules.quick_acw.odds import charge_favourable, expected_stands

# math's functions that mypyc has no native form of, held in C statics (``Final``): a
# call then skips looking the name up in ``math`` (the same functions, the same floats).
_atan2: Final = math.atan2

CHARGE_THRESHOLD = 0.5
"""Charge when P(the enemy is driven off) exceeds this (exact odds)."""

OFFSETS: Final = (0.0, 0.5, -0.5, 1.0, -1.0)
"""The directions a move is tried in: off the line to the goal (radians), in order."""
FRACTIONS: Final = (1.0, 0.5)
"""A full move and half of one."""
FORM_LINE_WITHIN: Final[float] = 14.0
"""Foot in column forms line within this of the nearest enemy."""
MOUNT_BEYOND: Final[float] = 16.0
"""Dismounted cavalry mounts beyond this of the nearest enemy."""
STOP_FOOT: Final[float] = 4.0
STOP_MOUNTED: Final[float] = 8.0
"""An attacker stops this short of the enemy (foot and dismounted; mounted)."""
COVER_BONUS: Final[float] = 3.0
ROUGH_PENALTY: Final[float] = 1.0
OUT_OF_RADIUS: Final[float] = 4.0
"""A place's score: -(distance to the goal), + in cover, - on rough ground, - out of the
leader's radius."""
KEEP: Final[int] = 4
"""The best places tried, at most."""


def charge_chance(b: Battle, u: Unit, t: Unit, flank: bool) -> float:
    """Exact P(a charge by ``u`` drives ``t`` off): charge test, stand test, melee."""
    return charge_favourable(*S.charge_mods(b, u, t, flank))


class ScriptedAI:
    """A sensible, deterministic player for either side."""

    kind = "ai"

    def decide(self, b: Battle, req: Request) -> Order:
        """Dispatch on the request kind."""
        if req.kind == "leader":
            return self.leader(b, req.actor)
        if req.kind == "move":
            return self.move(b, b.state.units[req.actor])
        if req.kind == "fire":
            return self.fire(b, b.state.units[req.actor])
        return od.HOLD

    # -- command ----------------------------------------------------------------------
    def leader(self, b: Battle, li: int) -> Order:
        """Go to the unit nearest the middle of the brigade and attach to it."""
        ld = b.state.leaders[li]
        mine = [u for u in b.state.units if u.alive and u.leader == li]
        if not mine:
            return od.HOLD
        cx = sum(u.x for u in mine) / len(mine)
        cy = sum(u.y for u in mine) / len(mine)
        best = min(mine, key=lambda u: math.pow(u.x - cx, 2.0) + math.pow(u.y - cy, 2.0))
        if _hypot(best.x - ld.x, best.y - ld.y) <= b.r.movement["leader"].open * 0.5:
            return od.Leader("leader", best.x, best.y, best.i)
        return od.HOLD

    # -- move -------------------------------------------------------------------------
    def move(self, b: Battle, u: Unit) -> Order:
        """Rally, charge when it pays, else advance or hold in cover, in command."""
        if u.marker:
            return od.HOLD  # rally: do not move
        en = LO.nearest_enemy(b, u)
        if en is None:
            return od.HOLD
        dist_en = _hypot(en.x - u.x, en.y - u.y)
        face = _atan2(en.y - u.y, en.x - u.x)
        if u.type == "artillery":
            if u.limbered:
                return self._try(b, u, [(u.x, u.y, face, "unlimber")])
            return self._try(b, u, [(u.x, u.y, face, "")])
        # charges
        if u.type != "artillery":
            best: tuple[float, int] | None = None
            near = [
                v
                for v in b.state.units
                if v.alive and v.side != u.side and _hypot(v.x - u.x, v.y - u.y) <= 20
            ]
            for v, opt in RCH.charge_options(b, u, near):
                p = charge_chance(b, u, v, opt[3])
                if p > CHARGE_THRESHOLD and (best is None or p > best[0]):
                    best = (p, v.i)
            if best is not None:
                return od.Charge("charge", best[1])
        change = ""
        if u.type == "foot" and u.formation == "column" and dist_en < FORM_LINE_WITHIN:
            change = "line"
        if u.type == "cavalry" and not u.mounted and dist_en > MOUNT_BEYOND:
            change = "mount"
        posture = b.setup.posture.get(u.side, "attack")
        goal = self._goal(b, u, en, posture)
        cands = self._candidates(b, u, goal, face, change)
        return self._try(b, u, cands)

    def _goal(self, b: Battle, u: Unit, en: Unit, posture: str) -> tuple[float, float, float]:
        """(x, y, stop distance): where to head and how close to get."""
        if posture == "defend" and b.setup.objectives:
            ob = min(
                b.setup.objectives,
                key=lambda o: math.pow(o.x - u.x, 2.0) + math.pow(o.y - u.y, 2.0),
            )
            if _hypot(ob.x - u.x, ob.y - u.y) > ob.radius:
                return ob.x, ob.y, ob.radius * 0.5
            return u.x, u.y, 0.0
        stop = STOP_FOOT if u.type == "foot" or not u.mounted else STOP_MOUNTED
        return en.x, en.y, stop

    def _candidates(
        self, b: Battle, u: Unit, goal: tuple[float, float, float], face: float, change: str
    ) -> list[tuple[float, float, float, str]]:
        gx, gy, stop = goal
        form, mounted, limbered, cost = RCH.after_change(u, change)
        allow = RCH.allowance(b, u, form, mounted, limbered, cost, False)
        d = _hypot(gx - u.x, gy - u.y)
        want = max(0.0, min(allow, d - stop))
        board = b.setup.board
        base = _atan2(gy - u.y, gx - u.x)
        ld = b.state.leaders[u.leader] if u.leader >= 0 else None
        # Score = -(distance to the goal) + 3 in cover - 1 on rough ground - 4 out of
        # command. Rough ground (a walk along the path) is looked at lazily: a
        # candidate's score is known up to that penalty, so the best four come out of
        # a best-first pick that only tests the candidates that could still be picked.
        # The order is the stable sort by score the plain version would give.
        xs: list[float] = []
        ys: list[float] = []
        clear: list[float] = []  # the score if the path is not rough
        rough: list[float] = []  # the score if it is
        for i in range(len(OFFSETS)):
            off = OFFSETS[i]
            c, s = math.cos(base + off), math.sin(base + off)
            for j in range(len(FRACTIONS)):
                frac = FRACTIONS[j]
                step = want * frac
                if step <= 1e-6 and (off or frac < 1):
                    continue
                x = u.x + c * step
                y = u.y + s * step
                score = -_hypot(gx - x, gy - y)
                if board.in_cover(x, y):
                    score += COVER_BONUS
                worse = score - ROUGH_PENALTY
                if ld is not None and ld.alive and _hypot(ld.x - x, ld.y - y) > ld.radius:
                    score -= OUT_OF_RADIUS
                    worse -= OUT_OF_RADIUS
                xs.append(x)
                ys.append(y)
                clear.append(score)
                rough.append(worse)
        # best first: the highest score so far (the earlier candidate on a tie, as a heap
        # of (-score, order) pops them); a rough path's real score is put back and the
        # pick made again
        n = len(clear)
        now = list(clear)
        known = [False] * n
        taken = [False] * n
        res: list[tuple[float, float, float, str]] = []
        while len(res) < KEEP:
            k = best_left(now, taken)
            if k < 0:
                break
            x, y = xs[k], ys[k]
            if not known[k] and (board.is_rough(x, y) or board.path_rough(u.x, u.y, x, y)):
                now[k] = rough[k]  # its real score; look again
                known[k] = True
                continue
            taken[k] = True
            res.append((x, y, face, change))
        res.append((u.x, u.y, face, change))
        res.append((u.x, u.y, face, ""))
        return res

    def _try(self, b: Battle, u: Unit, cands: list[tuple[float, float, float, str]]) -> Order:
        for x, y, th, ch in cands:
            try:
                ok = RCH.move_ok(b, u, x, y, th, ch)
            except IllegalActionError:
                continue
            if ok:
                return od.Move("move", x, y, th, ch)
        return od.HOLD

    # -- fire -------------------------------------------------------------------------
    def fire(self, b: Battle, u: Unit) -> Order:
        """Fire at the target with the highest exact expected stands lost."""
        best: tuple[float, int] | None = None
        for t, needed, mods, _rng in RCH.targets(b, u, exact=False):
            v = b.state.units[t]
            value = expected_stands(needed, sum(m.value for m in mods), b.r)
            if R.is_removed(v.stands - 1, v.stands0, b.r):
                value *= 1.5  # finishing a unit off is worth more
            if best is None or value > best[0]:
                best = (value, t)
        return od.HOLD if best is None else od.FireAt("fire", best[1])


_RALLY_PICKS: Final = (od.HOLD, od.HOLD, od.TURN, od.ROUT)
"""What a unit with a Morale Marker does, one picked uniformly (hold twice as likely)."""


class RandomQuickPolicy:
    """The random policy of pure seed 002 battles: a few legal orders of each kind, uniformly.

    It draws its own moves (any distance, any direction) rather than picking from the
    menu, so it explores more of the table; its own seeded generator, recorded as orders.
    """

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
                if u.alive and u.side == ld.side and _hypot(u.x - ld.x, u.y - ld.y) <= 12
            ]
            if mine and rng.random() < 0.7:
                u = rng.choice(mine)
                return od.Leader("leader", u.x, u.y, u.i)
            return od.HOLD
        if req.kind == "fire":
            u = b.state.units[req.actor]
            opts = RCH.targets(b, u, exact=False)
            if not opts or rng.random() < 0.1:
                return od.HOLD
            return od.FireAt("fire", rng.choice(opts)[0])
        u = b.state.units[req.actor]
        if u.marker:
            return rng.choice(_RALLY_PICKS)
        roll = rng.random()
        if roll < 0.25:
            en = [
                v
                for v in b.state.units
                if v.alive and v.side != u.side and _hypot(v.x - u.x, v.y - u.y) < 20
            ]
            rng.shuffle(en)
            for v in en[:3]:
                try:
                    RCH.charge_reach(b, u, v)
                except IllegalActionError:
                    continue
                return od.Charge("charge", v.i)
        if roll < 0.1:
            return od.HOLD
        changes = [""] * 6 + {
            "foot": ["line", "column"],
            "cavalry": ["line", "column", "mount", "dismount"],
            "artillery": ["limber", "unlimber"],
        }[u.type]
        en_near = LO.nearest_enemy(b, u)
        for _ in range(4):
            ch = rng.choice(changes)
            try:
                form, m, lim, cost = RCH.after_change(u, ch)
            except IllegalActionError:
                continue
            allow = RCH.allowance(b, u, form, m, lim, cost, False)
            if en_near is not None and rng.random() < 0.6:
                ang = _atan2(en_near.y - u.y, en_near.x - u.x) + rng.uniform(-0.6, 0.6)
            else:
                ang = rng.uniform(-math.pi, math.pi)
            dist = rng.uniform(0, allow)
            x, y = u.x + math.cos(ang) * dist, u.y + math.sin(ang) * dist
            th = rng.uniform(-math.pi, math.pi) if rng.random() < 0.2 else ang
            try:
                RCH.check_move(b, u, x, y, th, ch)
            except IllegalActionError:
                continue
            return od.Move("move", x, y, th, ch)
        return od.HOLD
