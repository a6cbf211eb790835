"""Shared helpers for the cwb_events tests: games with scripted dice and answers."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from umpire.dice import ScriptedSource
from umpire.engine import ActionRecord, Game, ScriptedPolicy
from umpire.rules.cwb_events import MODULE, default_scenario

_SCENARIOS: dict[str, dict[str, Any]] = {}

TWO_D6 = {
    2: [1, 1],
    3: [1, 2],
    4: [1, 3],
    5: [1, 4],
    6: [1, 5],
    7: [1, 6],
    8: [2, 6],
    9: [3, 6],
    10: [4, 6],
    11: [5, 6],
    12: [6, 6],
}


def d66(value: int) -> list[int]:
    """The two faces of a d66 result such as 26."""
    return [value // 10, value % 10]


def new_game(start: str = "July 2 14:00", side: str = "confederate") -> Game:
    """A cwb game at ``start`` in ``side``'s player turn."""
    if start not in _SCENARIOS:
        _SCENARIOS[start] = default_scenario(start)
    game = Game.new(MODULE, _SCENARIOS[start], ScriptedSource([]), {})
    if side == "union":
        act(game, "next", {"skip_events": True})
    return game


def act(
    game: Game,
    name: str,
    params: dict[str, Any] | None = None,
    faces: Sequence[int] = (),
    union: Sequence[Sequence[str] | str] = (),
    confederate: Sequence[Sequence[str] | str] = (),
) -> ActionRecord:
    """Run one action with scripted dice faces and scripted answers for each side."""
    game.source = ScriptedSource(list(faces))
    policies = {
        "union": ScriptedPolicy(list(union)),
        "confederate": ScriptedPolicy(list(confederate)),
    }
    return game.act(name, params or {}, policies)


def last(game: Game) -> dict[str, Any]:
    """The last phase record."""
    out: dict[str, Any] = game.state["history"][-1]
    return out


def texts(record: ActionRecord, kind: str = "instruction") -> str:
    """All instruction (or note) texts of an action, joined."""
    return "\n".join(str(e.data["text"]) for e in record.events if e.kind == kind)


def issue(
    game: Game,
    side: str,
    issuer: str,
    recipient: str,
    kind: str = "move",
    status: str | None = None,
) -> str:
    """Issue an order and return its id."""
    params: dict[str, Any] = {"side": side, "issuer": issuer, "recipient": recipient, "kind": kind}
    if status:
        params["status"] = status
    act(game, "order_issue", params)
    return f"o{int(game.state['next_order']) - 1}"
