"""The fast path: play a whole battle in memory, record faces and orders, replay them.

``play`` draws every die from the game's dice source (``SeededSource(seed)``) through a
:class:`~umpire.battle.engine.Recorder`, and keeps every order. ``replay`` feeds the
recorded faces back through ``ScriptedSource`` and the recorded orders, with no
policies, and must reach the identical state.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from umpire.ai import Policy
from umpire.battle.engine import Battle, Order, Recorder, Roller
from umpire.battle.setup import build
from umpire.scenarios import Scenario


@dataclass(slots=True)
class Result:
    """The outcome of one battle and everything needed to replay it."""

    winner: str
    turns: int
    losses: dict[str, int]
    removed: dict[str, int]
    seed: int | None
    faces: list[int] = field(default_factory=list)
    orders: list[list[Any]] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)
    state: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """The JSON summary ``umpire battle --json`` prints."""
        return {
            "winner": self.winner,
            "turns": self.turns,
            "losses": {"stands": self.losses, "units_removed": self.removed},
            "seed": self.seed,
            "dice": len(self.faces),
            "state_hash": state_hash(self.state),
        }


def state_hash(state: Mapping[str, Any]) -> str:
    """SHA-256 of the canonical JSON of a battle state."""
    text = json.dumps(state, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def new_battle(scen: Scenario, roller: Roller, narrate: bool = False) -> Battle:
    """A battle at its start on ``scen``."""
    setup, state = build(scen)
    return Battle(setup, state, roller, narrate=narrate)


def result_of(b: Battle, seed: int | None, faces: list[int], orders: list[list[Any]]) -> Result:
    """Summarise a finished (or stopped) battle."""
    st = b.state
    removed = {s: sum(1 for u in st.units if u.side == s and not u.alive) for s in b.sides()}
    return Result(
        st.winner,
        st.turn,
        dict(st.losses),
        removed,
        seed,
        faces,
        orders,
        list(b.lines),
        st.to_json(),
    )


def play(
    scen: Scenario,
    seed: int,
    policies: Mapping[str, Policy],
    *,
    narrate: bool = False,
    source: Roller | None = None,
) -> Result:
    """Play a battle to the end on the fast path."""
    if source is None:
        from umpire.dice import SeededSource

        source = SeededSource(seed)
    rec = Recorder(source)
    b = new_battle(scen, rec, narrate)
    orders: list[list[Any]] = []
    last_turn = 0
    while True:
        req = b.next_request()
        if req is None:
            break
        if narrate and b.state.turn != last_turn:
            last_turn = b.state.turn
            b.lines.append(f"--- Turn {last_turn} ---")
        order: Order = policies[req.side].decide(b, req)
        b.apply(req, order)
        orders.append([req.actor, *order])
    return result_of(b, seed, rec.faces, orders)


def replay(
    scen: Scenario,
    faces: list[int],
    orders: list[list[Any]],
    *,
    until_turn: int | None = None,
    narrate: bool = False,
) -> Battle:
    """Rebuild a battle from recorded faces and orders (no policies, no RNG).

    Each order is ``[actor, *order]``; an actor of None is not checked. With
    ``until_turn`` the battle stops at the first decision of that turn (or at the end).
    """
    from umpire.dice import ScriptedSource

    b = new_battle(scen, ScriptedSource(list(faces)), narrate)
    it = iter(orders)
    while True:
        req = b.next_request()
        if req is None or (until_turn is not None and b.state.turn >= until_turn):
            break
        rec = next(it, None)
        if rec is None:
            break  # a game saved part-way: stop at its pending decision
        if rec[0] is not None and rec[0] != req.actor:
            raise ValueError(f"replay out of step: order for {rec[0]}, engine asks {req.actor}")
        b.apply(req, tuple(rec[1:]))
    return b
