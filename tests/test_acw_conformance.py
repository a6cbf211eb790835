"""Conformance: many seeded battles, random and scripted; invariants, ending, replay."""

from __future__ import annotations

import pytest
import shapely

from umpire.ai import make_policy
from umpire.battle.engine import Recorder
from umpire.battle.game import play_game
from umpire.battle.run import new_battle, play, replay, state_hash
from umpire.battle.scenario import load_scenario
from umpire.board.geometry import corners
from umpire.dice import SeededSource


def check_invariants(b) -> None:  # type: ignore[no-untyped-def]
    polys = []
    for u in b.state.units:
        assert u.stands >= 0
        assert isinstance(u.marker, bool)  # one marker at most
        if u.alive:
            assert u.stands * 2 >= u.stands0, "removal at half"
            polys.append(shapely.Polygon(corners(*u.box())))
    for i, p in enumerate(polys):
        for q in polys[i + 1 :]:
            assert p.intersection(q).area < 1e-3, "bases overlap"


def no_fire_through_friends(b, actor: int, target: int) -> None:  # type: ignore[no-untyped-def]
    u = b.state.units[actor]
    t = b.state.units[target]
    line = shapely.LineString([(u.x, u.y), (t.x, t.y)])
    for v in b.state.units:
        if v.alive and v.side == u.side and v.i != u.i:
            inner = shapely.Polygon(corners(v.x, v.y, v.theta, v.hw - 1e-3, v.hd - 1e-3))
            assert not line.intersects(inner), "fire through a friendly unit"


def run_checked(scen_name: str, seed: int, kind: str) -> None:
    scen = load_scenario(scen_name)
    pols = {"union": make_policy(kind, seed), "confederate": make_policy(kind, seed + 1000)}
    rec = Recorder(SeededSource(seed))
    b = new_battle(scen, rec)
    orders = []
    for _ in range(20000):
        req = b.next_request()
        if req is None:
            break
        order = pols[req.side].decide(b, req)
        if order[0] == "fire":
            no_fire_through_friends(b, req.actor, int(order[1]))
        b.apply(req, order)
        orders.append([req.actor, *order])
        check_invariants(b)
    assert b.state.over and b.state.winner in ("union", "confederate", "draw")
    again = replay(scen, rec.faces, orders)
    assert state_hash(again.state.to_json()) == state_hash(b.state.to_json())


@pytest.mark.parametrize("seed", range(8))
def test_random_battles_mcpherson(seed: int) -> None:
    """Random policy: no illegal state, the battle ends, replay is identical."""
    run_checked("mcpherson_ridge", seed, "random")


@pytest.mark.parametrize("seed", range(3))
def test_scripted_battles(seed: int) -> None:
    """Scripted AI on both scenarios: invariants, ending, replay."""
    run_checked("mcpherson_ridge", seed, "ai")
    run_checked("standard", seed, "random")


def test_same_seed_same_result() -> None:
    """The same seed and the same choices give the same result."""
    scen = load_scenario("standard")
    pols = {"union": make_policy("ai"), "confederate": make_policy("ai")}
    a = play(scen, 11, pols)
    b = play(scen, 11, pols)
    assert a.to_json() == b.to_json()


def test_fast_path_equals_saved_game_path() -> None:
    """The fast path and the engine-Game path give identical states for the same seed."""
    scen = load_scenario("mcpherson_ridge")
    pols = {"union": make_policy("ai"), "confederate": make_policy("ai")}
    fast = play(scen, 5, pols)
    game = play_game(scen, 5, pols)
    assert state_hash(fast.state) == state_hash(game.state["battle"])
    assert game.source.position == len(fast.faces)
    game.reexecute()


@pytest.mark.parametrize(("scen_name", "kind"), [("standard", "ai"), ("mcpherson_ridge", "random")])
def test_cached_geometry_equals_fresh(scen_name: str, kind: str) -> None:
    """The hot path's caches (contacts, ranges, sight, targets) always equal a fresh look.

    Every few decisions the battle's cached answers are compared with those of a new
    Battle built from the same state (nothing cached), for every pair of units.
    """
    from umpire.battle.engine import Battle
    from umpire.battle.setup import new_state
    from umpire.rules.quick_acw import reach as RCH

    scen = load_scenario(scen_name)
    pols = {"union": make_policy(kind, 3), "confederate": make_policy(kind, 4)}
    b = new_battle(scen, Recorder(SeededSource(3)))
    for n in range(20000):
        req = b.next_request()
        if req is None:
            break
        b.apply(req, pols[req.side].decide(b, req))
        if n % 7:
            continue
        st = new_state(scen)
        st.load_json(b.state.to_json())
        fresh = Battle(b.setup, st, SeededSource(0))
        alive = [u for u in b.state.units if u.alive]
        for u in alive:
            f = fresh.state.units[u.i]
            assert b.touching(u) == fresh.touching(f)
            assert RCH.targets(b, u, exact=False) == RCH.targets(fresh, f, exact=False)
            for v in alive:
                if v.i != u.i:
                    assert b.dist(u.i, v.i) == fresh.dist(u.i, v.i)
                    assert b.sees(u, v) == fresh.sees(f, fresh.state.units[v.i])
    assert b.state.over
