"""Policies that answer the battle engine's requests: the AI at its levels, random, human.

A policy is any object with ``decide(battle, request) -> order``. Policies read the
state; they never change it. They know no rule module: they read the legal orders and
their exact odds from the seams (``umpire.battle.roles.offered``). A module may offer a
specialised policy for the compositions it knows best (seed 002's scripted AI plays
pure quick ACW battles); ``make_policy`` picks it when the battle's rules fit.

Levels (issue 23): ``normal`` (``ai`` is its other name) is the shipped AI; ``easy`` is
``normal`` with noise (:mod:`umpire.ai.levels`); ``hard`` looks one step ahead.
"""

from __future__ import annotations

from umpire.ai.per_rules import PerRules, for_composition
from umpire.battle.policy import Policy

LEVELS = ("easy", "normal", "hard")
"""The AI's levels; ``ai`` means ``normal``."""
KINDS = ("ai", *LEVELS, "random", "human")


__all__ = ["KINDS", "LEVELS", "PerRules", "Policy", "for_composition", "make_policy"]


def make_policy(kind: str, seed: int = 0) -> Policy:
    """A policy by name: ``ai`` (= ``normal``), ``easy``, ``hard``, ``random`` or ``human``."""
    from umpire.errors import UnknownNameError

    if kind in ("scripted", "normal"):
        kind = "ai"
    if kind in ("ai", "random"):
        return PerRules(kind, seed)
    if kind == "easy":
        from umpire.ai.levels import EasyAI

        return EasyAI(PerRules("ai", seed), seed)
    if kind == "hard":
        from umpire.ai.levels import HardAI

        return HardAI(PerRules("ai", seed), seed)
    if kind == "human":
        from umpire.ai.human import HumanPolicy

        return HumanPolicy()
    raise UnknownNameError(f"unknown policy '{kind}' (known: {', '.join(KINDS)})")
