"""The engine: actions are all-or-nothing, the log replays, decisions are validated."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from umpire.dice import ScriptedSource, SeededSource
from umpire.engine import Game, RandomPolicy, ScriptedPolicy, state_hash
from umpire.engine.context import Context
from umpire.engine.decisions import Decision, Option, PromptPolicy
from umpire.engine.events import apply_change
from umpire.errors import IllegalActionError, IllegalChoiceError, UnknownNameError


def new_game(seed: int = 7) -> Game:
    return Game.new("session", {"title": "t"}, SeededSource(seed))


def test_roll_is_logged_with_faces_and_position() -> None:
    game = new_game()
    record = game.act("roll", {"expr": "2d6+1", "purpose": "morale"})
    rolls = [e for e in record.events if e.kind == "roll"]
    assert len(rolls) == 1
    roll = rolls[0].data
    assert roll["purpose"] == "morale"
    faces = roll["dice"][0]["faces"]
    assert roll["total"] == sum(faces) + 1
    assert roll["draws"] == [[0, 6, faces]]
    assert faces == [SeededSource.face_at(7, i, 6) for i in range(2)]


def test_failed_action_changes_nothing_and_draws_nothing() -> None:
    game = new_game()
    game.act("roll", {"expr": "d6"})
    before = (game.state_hash(), len(game.actions), game.source.position)
    with pytest.raises(IllegalActionError):
        game.act("pick", {"options": ["a", "b"], "count": 3})
    with pytest.raises(UnknownNameError):
        game.act("no_such_action", {})
    assert (game.state_hash(), len(game.actions), game.source.position) == before


def test_replay_state_equals_live_state() -> None:
    game = new_game(11)
    for expr in ("2d6", "d66", "4d6kh3", "d6/2"):
        game.act("roll", {"expr": expr})
    game.act("pick", {"options": ["Hood", "McLaws", "Pickett"], "count": 2})
    replayed = Game.replay_state(game.module, game.scenario, game.actions)
    assert state_hash(replayed) == game.state_hash()
    game.reexecute()


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32), n=st.integers(1, 12))
def test_replay_identity_property(seed: int, n: int) -> None:
    """Many seeded random runs: replaying the change log gives an identical state hash."""
    game = new_game(seed)
    picker = Game.new("session", {}, SeededSource(seed ^ 0x5EED))
    actions = ["roll", "pick", "deck", "draw", "new_day"]
    for _ in range(n):
        kind = actions[int(picker.act("roll", {"expr": "d5"}).events[1].data["total"]) - 1]
        if kind == "roll":
            game.act("roll", {"expr": "3d6"})
        elif kind == "pick":
            game.act("pick", {"options": ["a", "b", "c"], "count": 2})
        elif kind == "deck":
            game.act("deck", {"name": "box", "cards": ["1/1", "2/1", "3/1"]})
        elif kind == "draw":
            if "box" in game.state["decks"] and game.state["decks"]["box"]["remaining"]:
                game.act("draw", {"deck": "box"})
        else:
            game.act("new_day", {})
    replayed = Game.replay_state(game.module, game.scenario, game.actions)
    assert state_hash(replayed) == game.state_hash()
    for upto in range(len(game.actions) + 1):
        assert game.truncated(upto).state_hash() == (
            game.actions[upto - 1].state_hash
            if upto
            else state_hash(game.module.initial_state(dict(game.scenario)))
        )
    game.reexecute()


def test_truncate_continues_the_dice_stream() -> None:
    """Undo cannot re-roll: the same action after an undo gives the same faces."""
    game = new_game(3)
    game.act("roll", {"expr": "2d6"})
    second = game.act("roll", {"expr": "2d6"})
    back = game.truncated(1)
    again = back.act("roll", {"expr": "2d6"})
    assert again.events[1].data["dice"] == second.events[1].data["dice"]


def test_random_choice_uses_dice_and_is_logged() -> None:
    ctx = Context({}, ScriptedSource([3, 1]), {})
    chosen = ctx.random_choice(["a", "b", "c"], "which brigade", pick=2)
    assert chosen == ["c", "a"]
    kinds = [e.kind for e in ctx.events]
    assert kinds == ["roll", "roll", "decision"]
    assert ctx.events[-1].data["answer"] == ["c", "a"]


def test_decision_validation() -> None:
    d = Decision("union", "pick a corps", (Option("I"), Option("II")), pick=1)
    assert d.validate(["I"]) == ["I"]
    with pytest.raises(IllegalChoiceError, match="'III' is not an option"):
        d.validate(["III"])
    with pytest.raises(IllegalChoiceError, match="needs 1 choice"):
        d.validate(["I", "II"])
    ctx = Context({}, SeededSource(1), {"union": ScriptedPolicy([["XI"]])})
    with pytest.raises(IllegalChoiceError):
        ctx.decide("union", "pick a corps", ["I", "II"])
    with pytest.raises(IllegalActionError, match="nobody is set to decide"):
        Context({}, SeededSource(1), {}).decide("confederate", "x", ["a"])


def test_random_policy_for_a_side_replays() -> None:
    ctx = Context({}, SeededSource(9), {"union": RandomPolicy()})
    answer = ctx.decide("union", "two of three", ["a", "b", "c"], pick=2)
    assert len(answer) == 2 and len(set(answer)) == 2
    assert ctx.events[-1].data["policy"] == "random"


def test_prompt_policy_accepts_numbers_and_reasks() -> None:
    answers = iter(["9", "2"])
    policy = PromptPolicy(lambda _prompt: next(answers))
    d = Decision("union", "which", (Option("a"), Option("b")))
    assert policy.choose(d, lambda n, p: 0) == ["b"]


def test_change_ops() -> None:
    state: dict[str, object] = {"a": {"b": [1, 2]}}
    apply_change(state, "append", ["a", "b"], 3)
    apply_change(state, "remove", ["a", "b"], 1)
    apply_change(state, "inc", ["n"], 2)
    apply_change(state, "set", ["x", "y"], "z")
    apply_change(state, "delete", ["a"])
    assert state == {"n": 2, "x": {"y": "z"}}
    with pytest.raises(IllegalActionError, match="cannot remove"):
        apply_change(state, "remove", ["x", "y"], 5)


def test_log_and_state_share_no_objects() -> None:
    """A value changed after it was logged cannot rewrite the log or a replayed state."""
    ctx = Context({}, SeededSource(1), {})
    orders = {"status": "D4"}
    ctx.set("order", orders)
    orders["status"] = "A"
    ctx.state["order"]["status"] = "D5"
    assert ctx.events[-1].data["value"] == {"status": "D4"}
    game = new_game()
    game.act("deck", {"name": "box", "cards": ["a", "b"]})
    replayed = Game.replay_state(game.module, game.scenario, game.actions)
    replayed["decks"]["box"]["remaining"].clear()
    again = Game.replay_state(game.module, game.scenario, game.actions)
    assert again["decks"]["box"]["remaining"] == ["a", "b"]


def test_reexecute_forgives_wording_not_substance() -> None:
    """A log saved by an earlier version whose words have changed (a roll's purpose, a note)
    still re-executes, with a note naming the action; a changed face or total does not."""
    from umpire.errors import VerifyError

    game = new_game(5)
    game.act("roll", {"expr": "2d6", "purpose": "morale"})
    game.act("roll", {"expr": "d6", "purpose": "casualty"})
    assert game.reexecute() == []
    roll = next(e for e in game.actions[1].events if e.kind == "roll")
    roll.data["purpose"] = "casualty check (older wording)"
    notes = game.reexecute()
    assert len(notes) == 1 and notes[0].startswith("action 2 (roll): the wording")
    roll.data["total"] = int(roll.data["total"]) % 6 + 1
    with pytest.raises(VerifyError, match=r"action 2 .* replays differently"):
        game.reexecute()
