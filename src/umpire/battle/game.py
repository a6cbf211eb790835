"""The saved-game path: a battle as an engine Game, every decision an action.

The engine's state holds the scenario and the compact battle state as JSON. Action
``start`` runs the automatic steps up to the first decision; action ``order`` applies
one decision (refused with IllegalActionError, nothing logged, if illegal) and runs on
to the next. Dice go through ``ctx.roll`` (logged with their faces), changes through
``ctx.set``, narrative through ``ctx.say``; so saves, undo, fork, export and replay
work through the foundation. The rules code is the same as the fast path's.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from umpire.battle.engine import Battle, Request
from umpire.battle.setup import Setup, build
from umpire.battle.state import State
from umpire.rules.quick_acw.steps import ruleset
from umpire.scenarios import Scenario

if TYPE_CHECKING:
    from umpire.ai import Policy
    from umpire.engine.context import Context
    from umpire.engine.game import Game

_SETUPS: dict[str, tuple[Scenario, Setup]] = {}


class ContextRoller:
    """Dice for the battle drawn through ``ctx.roll`` so each roll is logged."""

    __slots__ = ("ctx",)

    def __init__(self, ctx: Context):
        self.ctx = ctx

    def dice(self, n: int, sides: int, purpose: str = "") -> list[int]:
        """Roll ``n``d``sides`` on the game's source via the context."""
        return list(self.ctx.roll(f"{n}d{sides}", purpose).faces)


class NoDice:
    """A roller for read-only views: any roll is a bug."""

    def dice(self, n: int, sides: int, purpose: str = "") -> list[int]:
        """Refuse."""
        raise RuntimeError(f"a read-only battle view tried to roll ({purpose})")


def _setup(scen_json: Mapping[str, Any]) -> tuple[Scenario, Setup]:
    key = hashlib.sha256(json.dumps(scen_json, sort_keys=True).encode()).hexdigest()
    if key not in _SETUPS:
        scen = Scenario.model_validate(scen_json)
        setup, _ = build(scen)
        _SETUPS[key] = (scen, setup)
    return _SETUPS[key]


def initial_state(scen_json: dict[str, Any]) -> dict[str, Any]:
    """The engine state before any action: the scenario and the fresh battle state."""
    scen = Scenario.model_validate(scen_json)
    _, state = build(scen)
    return {"scenario": scen.model_dump(mode="json"), "battle": state.to_json()}


def battle_from(state: Mapping[str, Any], roller: Any = None, narrate: bool = False) -> Battle:
    """A Battle over an engine state (a view, or a working copy inside an action)."""
    scen, setup = _setup(state["scenario"])
    _, st = build(scen)
    st.load_json(dict(state["battle"]))
    return Battle(setup, st, ruleset(), roller or NoDice(), narrate=narrate)


def _save(ctx: Context, before: dict[str, Any], b: Battle) -> None:
    after = b.state.to_json()
    for key, value in after.items():
        if key in ("units", "leaders"):
            for i, (old, new) in enumerate(zip(before[key], value, strict=True)):
                if old != new:
                    ctx.set(["battle", key, i], new)
        elif before.get(key) != value:
            ctx.set(["battle", key], value)
    for line in b.lines:
        ctx.say(line)


def act_start(ctx: Context, params: dict[str, Any]) -> None:
    """Run the automatic steps up to the first decision."""
    before = json.loads(json.dumps(ctx.state["battle"]))
    b = battle_from(ctx.state, ContextRoller(ctx), narrate=True)
    b.next_request()
    _save(ctx, before, b)


def act_order(ctx: Context, params: dict[str, Any]) -> None:
    """Apply one decision, then run on to the next decision."""
    from umpire.errors import IllegalActionError

    before = json.loads(json.dumps(ctx.state["battle"]))
    b = battle_from(ctx.state, ContextRoller(ctx), narrate=True)
    req = b.next_request()
    if req is None:
        raise IllegalActionError("the battle is over")
    order = params.get("order")
    if not isinstance(order, list) or not order:
        raise IllegalActionError('an order is a list such as ["hold"] or ["fire", 3]')
    b.apply(req, tuple(order))
    b.next_request()
    _save(ctx, before, b)


def pending(game: Game) -> tuple[Battle, Request | None]:
    """A read-only view of a game's battle and the decision it waits for."""
    b = battle_from(game.state)
    return b, b.next_request()


def play_game(
    scen: Scenario, seed: int, policies: Mapping[str, Policy], *, max_actions: int = 100000
) -> Game:
    """Play a battle to the end as an engine Game (the saved-game path)."""
    from umpire.dice import SeededSource
    from umpire.engine.game import Game
    from umpire.rules import get_module

    game = Game.new(get_module("quick_acw"), scen.model_dump(mode="json"), SeededSource(seed))
    game.act("start", {})
    for _ in range(max_actions):
        view, req = pending(game)
        if req is None:
            break
        order = policies[req.side].decide(view, req)
        game.act("order", {"order": list(order)})
    return game


def final_state(game: Game) -> State:
    """The battle state of a game."""
    return battle_from(game.state).state
