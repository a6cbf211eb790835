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

from umpire.battle.engine import Battle, Order, Request
from umpire.battle.roles import Offer, offers
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
    """Weighs charges and fire by their exact odds; otherwise plays as ``normal``.

    First step of issue 23's hard AI: a charge is taken when its expected stands gained
    (P it goes in times stands inflicted) beat the stands it expects to lose by a margin,
    even below normal's 50% threshold, and fire goes where it is expected to inflict most,
    finishing a unit counting double. The one-step lookahead over the enemy's reply is
    not yet written (see the issue's report).
    """

    kind = "hard"

    def __init__(self, normal: Any):
        self.normal = normal

    def decide(self, b: Battle, req: Request) -> Order:
        """The order with the best expected exchange, else normal's."""
        if req.kind == "move":
            opts = offers(b, req)
            best: tuple[float, Order] | None = None
            for c in opts:
                if c.kind != "charge":
                    continue
                p = c.odds.get("goes_in", c.odds.get("p", 0.0))
                gain = p * c.odds.get("inflict", 0.0) - c.odds.get("suffer", 0.0)
                if gain > 0.25 and (best is None or gain > best[0]) and c.legal():
                    best = (gain, c.order)
            if best is not None:
                return best[1]
        order: Order = self.normal.decide(b, req)
        return order


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
