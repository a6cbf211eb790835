"""The battle setup (board raster, kept odds) is shared by equal scenarios, not by
different ones, and is dropped when the rules data changes (``battle.setup.per_scenario``)."""

from __future__ import annotations

import pickle

from umpire.battle.run import play
from umpire.battle.scenario import load_scenario
from umpire.battle.setup import setup_for
from umpire.rules.data import clear_caches


def test_a_scenario_loaded_again_or_unpickled_shares_the_setup() -> None:
    a = load_scenario("standard")
    b = load_scenario("standard")
    c = pickle.loads(pickle.dumps(a))  # as a lab worker receives each chunk's scenario
    assert a is not b and a is not c
    assert setup_for(b) is setup_for(a)
    assert setup_for(c) is setup_for(a)


def test_a_different_scenario_gets_its_own_setup() -> None:
    a = load_scenario("standard")
    raw = a.model_dump()
    raw["units"][0]["x"] += 1.0  # a unit an inch along: a different scenario
    b = type(a).model_validate(raw)
    assert setup_for(b) is not setup_for(a)
    assert setup_for(b).scenario is b


def test_a_rules_change_drops_the_shared_setup() -> None:
    a = load_scenario("standard")
    before = setup_for(a)
    clear_caches()
    assert setup_for(load_scenario("standard")) is not before


def test_battles_on_a_shared_setup_play_as_on_a_fresh_one() -> None:
    from umpire.ai import make_policy

    pols = {"union": make_policy("ai"), "confederate": make_policy("ai")}
    first = play(load_scenario("standard_five_step"), 3, pols)
    again = play(load_scenario("standard_five_step"), 3, pols)
    clear_caches()  # a fresh setup
    fresh = play(load_scenario("standard_five_step"), 3, pols)
    assert first.faces == again.faces == fresh.faces
    assert first.orders == again.orders == fresh.orders
