"""Conformance: seeded battles of every valid composition of the tactical roles.

Issue "One tactical engine ...", Tests: "A conformance test plays many seeded battles of
every valid composition with random policies, and checks the invariants and replay
identity." Each composition is McPherson's Ridge with another ``[rules]`` table; each
battle must end, keep the invariants after every decision, replay from its faces and
orders to the identical state, and the saved-game path must reach the fast path's state.
"""

from __future__ import annotations

import pytest

from test_acw_conformance import check_invariants
from umpire.ai import make_policy
from umpire.battle.engine import Recorder
from umpire.battle.game import play_game
from umpire.battle.run import new_battle, play, replay, state_hash
from umpire.battle.scenario import parse_scenario
from umpire.dice import SeededSource
from umpire.scenarios import SHIPPED

BASE = (SHIPPED / "mcpherson_ridge.toml").read_text(encoding="utf-8")

COMPOSITIONS = {
    "002": 'rules = "quick_acw"',
    "002+ladder": '[rules]\nstatus = "five-step"',
    "five-step": '[rules]\nsequence = "five-step"\nfirst = "union"',
    "five-step+MM": '[rules]\nsequence = "five-step"\nstatus = "quick-acw"',
    "card-draw": '[rules]\nsequence = "card-draw"\ncards = "brigade"',
    "002+001": '[rules]\nevents = ["solo-events"]\nattacker = "confederate"',
    "five-step+001": (
        '[rules]\nsequence = "five-step"\nevents = ["solo-events"]\nattacker = "union"'
    ),
    "card-draw+001": (
        '[rules]\nsequence = "card-draw"\ncards = "regiment"\nevents = ["solo-events"]\n'
        'attacker = "confederate"'
    ),
}


def scenario(key: str):  # type: ignore[no-untyped-def]
    return parse_scenario(BASE.replace('rules = "quick_acw"', COMPOSITIONS[key], 1))


@pytest.mark.parametrize("key", sorted(COMPOSITIONS))
def test_random_battles_keep_invariants_and_replay(key: str) -> None:
    scen = scenario(key)
    for seed in range(3):
        pols = {"union": make_policy("random", seed), "confederate": make_policy("ai", seed)}
        if seed % 2:
            pols = {"union": make_policy("ai", seed), "confederate": make_policy("random", seed)}
        rec = Recorder(SeededSource(seed))
        b = new_battle(scen, rec)
        orders = []
        for _ in range(20000):
            req = b.next_request()
            if req is None:
                break
            order = pols[req.side].decide(b, req)
            b.apply(req, order)
            orders.append([req.actor, *order])
            check_invariants(b)
        assert b.state.over and b.state.winner in ("union", "confederate", "draw"), key
        again = replay(scen, rec.faces, orders)
        assert state_hash(again.state.to_json()) == state_hash(b.state.to_json()), key


@pytest.mark.parametrize("key", sorted(COMPOSITIONS))
def test_saved_game_path_equals_fast_path(key: str) -> None:
    scen = scenario(key)
    pols = {"union": make_policy("ai", 7), "confederate": make_policy("random", 7)}
    fast = play(scen, 7, pols)
    pols = {"union": make_policy("ai", 7), "confederate": make_policy("random", 7)}
    game = play_game(scen, 7, pols)
    assert state_hash(game.state["battle"]) == state_hash(fast.state), key


def test_a_module_state_that_empties_is_deleted_from_the_saved_state() -> None:
    """The saved-game path writes ``extra`` only when not empty; when a module's state
    empties, the saved state must lose it too (else replay and view would disagree)."""
    from umpire.battle.game import _close
    from umpire.dice import ScriptedSource
    from umpire.engine.context import Context

    scen = scenario("002")
    b = new_battle(scen, ScriptedSource([]))
    b.state.extra["x"] = 1
    before = b.state.to_json()
    b.state.extra.clear()
    ctx = Context({"battle": before, "scenario": {}}, ScriptedSource([]), {})
    _close(ctx, b)
    assert "extra" not in ctx.state["battle"]
    assert ctx.state["battle"] == b.state.to_json()
