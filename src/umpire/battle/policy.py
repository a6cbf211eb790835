"""The seam a player sits at: anything that answers the engine's requests with orders.

The protocol lives with the engine that asks (``battle.run`` and ``battle.game`` take
policies), so the engine needs no import of :mod:`umpire.ai`, which sits above it and
re-exports it (the layers contract in pyproject.toml).
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
