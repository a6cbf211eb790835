"""Policies that answer the battle engine's requests: scripted AI, random, human.

A policy is any object with ``decide(battle, request) -> order`` (see
``umpire.battle.engine.Order``). Policies read the state; they never change it.
"""

from __future__ import annotations

from typing import Protocol

from umpire.battle.engine import Battle, Order, Request


class Policy(Protocol):
    """Answers one engine request with an order."""

    kind: str

    def decide(self, b: Battle, req: Request) -> Order:
        """The order for ``req``."""
        ...


def make_policy(kind: str, seed: int = 0) -> Policy:
    """A policy by name: ``ai`` (scripted), ``random`` or ``human``."""
    from umpire.errors import UnknownNameError

    if kind in ("ai", "scripted"):
        from umpire.ai.scripted import ScriptedAI

        return ScriptedAI()
    if kind == "random":
        from umpire.ai.random_policy import RandomPolicy

        return RandomPolicy(seed)
    if kind == "human":
        from umpire.ai.human import HumanPolicy

        return HumanPolicy()
    raise UnknownNameError(f"unknown policy '{kind}' (known: ai, random, human)")
