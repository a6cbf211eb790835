"""Issue 21: "Playing a long dice book slows down as it grows (8,000 rolls: about 30 ms a
roll at the end, 119 s in all): an action's cost must not grow with the game's length."

Game.act used to copy the whole state and hash it whole, and Store.load copied it again and
counted every action: each work proportional to the game. The speed is measured by
benchmarks/bench_book.py; these tests hold the structure (no whole-state copy or replay per
action) and that undo, replay, failed actions, other connections and verify still agree.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

import umpire.engine.game as game_module
from umpire.dice import CommittedSource, SeededSource
from umpire.engine import Game
from umpire.engine.context import ActionFn, Context
from umpire.engine.events import copy_state, state_hash
from umpire.errors import IllegalActionError, UmpireError
from umpire.store import Store, verify_export


def _book(store: Store, name: str = "b", source: Any = None) -> None:
    store.create(name, Game.new("session", {"title": name}, source or SeededSource(21)))


def _roll(store: Store, name: str = "b", expr: str = "2d6") -> None:
    store.play(name, store.load(name), "roll", {"expr": expr, "purpose": "test"})


def test_issue21_long_book_actions_copy_and_replay_nothing_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """After the first load, a roll neither replays the log nor copies the whole state."""
    store = Store(tmp_path / "s.db")
    _book(store)
    for _ in range(30):
        _roll(store)
    replays: list[int] = []
    big_copies: list[int] = []
    real_replay, real_copy = Game.replay_state, game_module.copy_state

    def replay(*args: Any) -> Any:
        replays.append(1)
        return real_replay(*args)

    def copy(state: Any) -> Any:
        if isinstance(state, dict) and "history" in state:
            big_copies.append(1)
        return real_copy(state)

    monkeypatch.setattr(Game, "replay_state", staticmethod(replay))
    monkeypatch.setattr(game_module, "copy_state", copy)
    game = store.load("b")
    state = game.state
    for _ in range(30):
        _roll(store)
    assert replays == [] and big_copies == []
    assert store.load("b") is game and game.state is state  # changed in place
    assert len(state["history"]) == 60 and state["count"] == 60
    # The state is what the log says, and each recorded hash is the state's hash.
    monkeypatch.undo()
    fresh = Store(tmp_path / "s.db").load("b")
    assert fresh.state == game.state
    assert game.actions[-1].state_hash == state_hash(game.state) == state_hash(fresh.state)


class _Faulty:
    """A module whose ``break`` action changes the state, then fails (the refusal path)."""

    id = "faulty-test"
    name = "faulty"
    seed = "-"
    provides = ()

    def initial_state(self, scenario: dict[str, Any]) -> dict[str, Any]:
        return {"n": 0, "log": [1, 2], "box": {"a": {"b": 1}}, "gone": "x"}

    def actions(self) -> Mapping[str, ActionFn]:
        def good(ctx: Context, params: dict[str, Any]) -> None:
            ctx.inc("n")
            ctx.append("log", ctx.state["n"])

        def bad(ctx: Context, params: dict[str, Any]) -> None:
            ctx.roll("2d6", "a roll before the refusal")
            ctx.inc("n", 5)
            ctx.append("log", 99)
            ctx.remove("log", 1)
            ctx.set(["box", "a", "b"], {"deep": [1]})
            ctx.set(["new", "made", "here"], 3)
            ctx.append(["fresh"], 1)
            ctx.delete("gone")
            ctx.set(["log", 0], "first")
            raise IllegalActionError("refused after changing the state")

        return {"good": good, "bad": bad}

    def defaults(self) -> list[Any]:
        return []


def test_issue21_failed_action_is_undone_in_place() -> None:
    """'All its events are kept, or none (the state is unchanged)': with the state changed
    in place, a failed action's changes are undone one by one, and the hash follows."""
    game = Game.new(_Faulty(), {}, SeededSource(3))
    game.act("good")
    before = copy_state(game.state)
    position = game.source.position
    with pytest.raises(UmpireError, match="refused after changing"):
        game.act("bad")
    assert game.state == before and game.source.position == position
    record = game.act("good")
    assert record.state_hash == state_hash(game.state)
    assert game.state["log"] == [1, 2, 1, 2]
    assert Game.replay_state(game.module, game.scenario, game.actions) == game.state


def test_issue21_undo_other_connections_and_unsaved_actions(tmp_path: Path) -> None:
    """The kept Game stays the log's: after an undo, after another connection's rolls and
    after an action that could not be saved (the game had ended)."""
    path = tmp_path / "s.db"
    mine, other = Store(path), Store(path)
    _book(mine)
    for _ in range(5):
        _roll(mine)
    _roll(other)
    _roll(other)
    game = mine.load("b")
    assert len(game.actions) == 7 and game.state["count"] == 7
    mine.undo("b", 4)
    game = mine.load("b")
    assert game.state["count"] == 4 and len(game.state["history"]) == 4
    _roll(mine)
    fresh = Store(path).load("b")
    assert mine.load("b").state == fresh.state
    other.end("b")
    with pytest.raises(UmpireError, match="has ended"):
        _roll(mine)
    assert mine.load("b").state == fresh.state and len(mine.load("b").actions) == 5


def test_issue21_long_committed_book_verifies(tmp_path: Path) -> None:
    """A committed book played through one kept Game exports and verifies, hash by hash."""
    store = Store(tmp_path / "c.db")
    _book(store, "c", CommittedSource(987654321))
    for i in range(60):
        _roll(store, "c", ("2d6", "d66", "4d6kh3", "9d10<=6")[i % 4])
    store.play("c", store.load("c"), "pick", {"options": ["a", "b", "c"], "count": 2})
    store.end("c")
    report = verify_export(store.export("c"))
    assert report.rolls_checked


def test_a_new_book_keeps_its_last_entries_in_its_state_and_all_in_its_log() -> None:
    """Reading ``history_kept``: a new dice book's state holds its last ``history_keep``
    entries (the page shows 40), so hashing the state after a roll costs the same at roll
    8,000 as at roll 1; every roll stays in the log. A book made before (no
    ``history_keep`` in its state) keeps every entry, so its saved log replays unchanged."""
    from umpire.dice import SeededSource
    from umpire.engine.game import Game
    from umpire.errors import UmpireError
    from umpire.rules import get_module

    mod = get_module("session")
    g = Game.new(mod, {"history_keep": 5}, SeededSource(3))
    for i in range(12):
        g.act("roll", {"expr": "2d6", "purpose": f"roll {i}"})
    hist = g.state["history"]
    assert [h["purpose"] for h in hist] == [f"roll {i}" for i in range(7, 12)]
    assert g.state["count"] == 12 and len(g.actions) == 12
    old = mod.initial_state({})
    del old["history_keep"]
    g2 = Game.new(mod, {}, SeededSource(3))
    g2.state = old
    for _ in range(250):
        g2.act("roll", {"expr": "d6"})
    assert len(g2.state["history"]) == 250
    assert mod.initial_state({})["history_keep"] == 200
    with pytest.raises(UmpireError, match="history_keep must be a whole number"):
        mod.initial_state({"history_keep": 0})
