"""Issue 25, "the rest of the house": kinds and effects are ``Literal``s declared once, and
a unit effect changes only through the Battle's change operations (``set_fx``,
``clear_fx``), which log the unit on the saved path and forget the cached menus.
"""

from __future__ import annotations

from typing import Any, get_args

import pytest

from test_change_ops import Log
from umpire.ai import make_policy
from umpire.battle.effects import KEYS, FxKey, fx, fx_flag, fx_key, fx_why
from umpire.battle.engine import Battle
from umpire.battle.menus import ChoiceKind
from umpire.battle.orders import OrderKind
from umpire.battle.roles import offers
from umpire.battle.run import new_battle
from umpire.battle.scenario import load_scenario
from umpire.dice import SeededSource


def test_set_and_clear_fx_log_the_unit_and_forget_the_memo() -> None:
    """Seed 001 event 3 (Hesitant: 'may not move ... this turn') as ``no_act``: putting it on
    and taking it off go through the battle, which logs the unit as it then is and forgets
    ``memo`` (a legal move kept there is legal no longer)."""
    b = new_battle(load_scenario("standard"), SeededSource(1))
    u = b.state.units[0]
    log = Log()
    b.journal = log
    b.memo["kept"] = True
    b.set_fx(u, "no_act", b.state.turn, "Hesitant (001 event 3)")
    assert fx(u, "no_act") == b.state.turn and fx_why(u, "no_act") == "Hesitant (001 event 3)"
    assert log.seen == [("unit", u.i)] and b.memo == {}
    b.memo["kept"] = True
    assert not b.clear_fx(u, "no_fire")  # it had none: nothing changes, nothing is logged
    assert log.seen == [("unit", u.i)] and b.memo == {"kept": True}
    assert b.clear_fx(u, "no_act")
    assert log.seen == [("unit", u.i)] * 2 and b.memo == {}
    assert u.extra == {}


def test_effect_names_are_declared_once() -> None:
    """Every effect name is one of ``effects.KEYS`` (the ``FxKey`` Literal): seed 001's
    mapped events and seed 004's fire-step marks ('cannot fire again in their following
    step 1 or 2') name only those."""
    from umpire.rules.solo_events.mapping import shipped

    assert get_args(FxKey) == KEYS and len(set(KEYS)) == len(KEYS)
    assert fx_key("no_fire") == "no_fire" and fx_key("no_dance") is None
    for ev in shipped().events.values():
        assert all(key in KEYS for key, _ in ev.fx), ev.id
    assert fx_flag("", "mark") == "" and fx_flag("fired", "mark") == "fired"


def test_a_fire_step_refuses_a_mark_that_is_no_effect() -> None:
    """Seed 004 III's fire steps name the flags they set and read (``mark``,
    ``blocked_by``): a name that is no unit effect is refused in one line, when the
    sequence is built, naming the parameter and the name."""
    b = new_battle(load_scenario("standard"), SeededSource(1))
    combat = b.comp.combat
    assert combat.step("fire", mark="fired", blocked_by="fired_defensive") is not None
    with pytest.raises(ValueError, match=r"blocked_by = 'fired_defensve' is not a unit effect"):
        combat.step("fire", blocked_by="fired_defensve")


@pytest.mark.parametrize("name", ["standard", "mcpherson_cards", "stone_wall_cards"])
def test_menus_offer_only_the_declared_kinds(name: str) -> None:
    """Seed 002 MOVE/FIRE/COMMAND menus (and the others'): every offer's kind is a
    ``ChoiceKind``, which is an ``OrderKind`` (a pick stands for an event's choices)."""
    assert set(get_args(ChoiceKind)) <= set(get_args(OrderKind))
    b = new_battle(load_scenario(name), SeededSource(5))
    pols = {s: make_policy("ai") for s in ("union", "confederate")}
    seen: set[str] = set()
    for _ in range(80):
        req = b.next_request()
        if req is None:
            break
        seen |= {o.kind for o in offers(b, req)}
        b.apply(req, pols[req.side].decide(b, req))
    assert seen and seen <= set(get_args(ChoiceKind)), seen


@pytest.mark.parametrize("name", ["standard", "mcpherson_ridge"])
def test_a_change_of_formation_goes_through_reshape(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Seed 002 MOVEMENT ('change formation') and 003 XII.F (formation changes): a move that
    changes formation gives the unit its new base through ``Battle.reshape`` (a change
    operation), not by writing the formation and resizing the base itself."""
    b = new_battle(load_scenario(name), SeededSource(2))
    calls: list[tuple[int, str]] = []
    reshape = Battle.reshape

    def spy(self: Battle, u: Any, **kw: Any) -> None:
        calls.append((u.i, kw.get("formation", "")))
        reshape(self, u, **kw)

    monkeypatch.setattr(Battle, "reshape", spy)
    pol = make_policy("ai")
    for _ in range(200):
        req = b.next_request()
        assert req is not None
        if req.kind == "move":
            for o in offers(b, req):
                order = o.order
                if order.kind == "move" and order.change in ("line", "column") and o.legal():
                    u = b.state.units[req.actor]
                    b.apply(req, order)
                    assert u.formation == order.change
                    assert (u.i, order.change) in calls
                    return
        b.apply(req, pol.decide(b, req))
    pytest.fail("no change of formation offered")


@pytest.mark.parametrize("name", ["standard", "stone_wall"])
def test_the_marks_are_read_afresh_not_cached(name: str) -> None:
    """Seed 004 III ('cannot fire again in their following step 1 or 2'): a fire step
    ``blocked_by`` a mark refuses a unit as soon as the mark is on, though putting a mark on
    leaves ``memo`` as it is (``effects.MARKS``: no cached answer reads them)."""
    b = new_battle(load_scenario(name), SeededSource(4))
    pol = make_policy("ai")
    step: Any = b.comp.combat.step("fire", blocked_by="fired_defensive")

    def shots(u: Any) -> list[Any]:
        return list(step.shots(b, u, exact=False) if name == "standard" else step.shots(b, u))

    for _ in range(300):
        for u in b.state.units:
            if u.alive and shots(u):
                b.memo["probe"] = True
                memo = dict(b.memo)
                b.set_fx(u, "fired_defensive", b.state.turn)
                assert b.memo == memo  # kept (seed 002's: the targets cached for the others)
                assert shots(u) == []
                b.set_fx(u, "no_fire", b.state.turn)  # an effect the cached menus read
                assert b.memo == {}
                return
        req = b.next_request()
        assert req is not None
        b.apply(req, pol.decide(b, req))
    pytest.fail("no unit with a target")
