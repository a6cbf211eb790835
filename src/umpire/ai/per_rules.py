"""Policies chosen per battle by its composition (``umpire.ai.make_policy``'s ``ai`` and
``random``). A module of its own so that the mypyc build compiles it: every decision of a
battle passes through :meth:`PerRules.decide`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from umpire.battle.engine import Battle, Order, Request
from umpire.battle.roles import Composition

if TYPE_CHECKING:
    from umpire.ai import Policy


def for_composition(kind: str, seed: int, comp: Composition) -> Policy:
    """The policy of ``kind`` for a composition: a module's specialised one, else generic."""
    for module in comp.modules.values():
        offer = getattr(module, "policy", None)
        if offer is not None:
            found: Policy | None = offer(kind, comp, seed)
            if found is not None:
                return found
    if kind == "random":
        from umpire.ai.random_policy import RandomPolicy

        return RandomPolicy(seed)
    from umpire.ai.odds_ai import OddsAI

    return OddsAI()


class PerRules:
    """A policy chosen for each battle's composition when it is first asked."""

    def __init__(self, kind: str, seed: int):
        self.kind = kind
        self.seed = seed
        self._by: dict[int, tuple[Composition, Any]] = {}

    def decide(self, b: Battle, req: Request) -> Order:
        """Ask the policy of this battle's composition."""
        order: Order = self.policy_for(b).decide(b, req)
        return order

    def policy_for(self, b: Battle) -> Any:
        """The policy this battle's composition plays (chosen once per composition)."""
        hit = self._by.get(id(b.comp))
        if hit is None or hit[0] is not b.comp:
            hit = self._by[id(b.comp)] = (b.comp, for_composition(self.kind, self.seed, b.comp))
        return hit[1]
