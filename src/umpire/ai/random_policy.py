"""A random policy: any legal order the combat role offers, chosen with its own generator.

Its choices are recorded as orders, so a replay does not need the generator. It is for
tests and conformance runs: it plays every composition.
"""

from __future__ import annotations

import random

from umpire.battle.engine import Battle, Order, Request
from umpire.battle.orders import HOLD
from umpire.battle.roles import offered


class RandomPolicy:
    """Picks uniformly among the offered orders (holding a little less often)."""

    kind = "random"

    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed)

    def decide(self, b: Battle, req: Request) -> Order:
        """A random legal order for ``req``."""
        opts = offered(b, req)
        acts = [c for c in opts if c.kind != "hold"]
        if not acts:
            return opts[0].order if opts else HOLD
        if any(c.kind == "hold" for c in opts) and self.rng.random() < 0.1:
            return HOLD
        return self.rng.choice(acts).order
