"""Policies that answer the battle engine's requests: the AI, random, human.

A policy is any object with ``decide(battle, request) -> order``. Policies read the
state; they never change it. They know no rule module: they read the legal orders and
their exact odds from the seams (``umpire.battle.roles.offered``). A module may offer a
specialised policy for the compositions it knows best (seed 002's scripted AI plays
pure quick ACW battles); ``make_policy`` picks it when the battle's rules fit.
"""

from __future__ import annotations

from typing import Any, Protocol

from umpire.battle.engine import Battle, Order, Request
from umpire.battle.roles import Composition

KINDS = ("ai", "random", "human")


class Policy(Protocol):
    """Answers one engine request with an order."""

    kind: str

    def decide(self, b: Battle, req: Request) -> Order:
        """The order for ``req``."""
        ...


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
        hit = self._by.get(id(b.comp))
        if hit is None or hit[0] is not b.comp:
            hit = self._by[id(b.comp)] = (b.comp, for_composition(self.kind, self.seed, b.comp))
        order: Order = hit[1].decide(b, req)
        return order


def make_policy(kind: str, seed: int = 0) -> Policy:
    """A policy by name: ``ai``, ``random`` or ``human``."""
    from umpire.errors import UnknownNameError

    if kind == "scripted":
        kind = "ai"
    if kind in ("ai", "random"):
        return PerRules(kind, seed)
    if kind == "human":
        from umpire.ai.human import HumanPolicy

        return HumanPolicy()
    raise UnknownNameError(f"unknown policy '{kind}' (known: {', '.join(KINDS)})")
