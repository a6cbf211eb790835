"""Unit effects (umpire.battle.effects) honoured by the seed 002 combat role.

Events modules (seed 001) and sequences (seed 004) put effects on units; quick ACW's
fire, melee, charge and movement read them, show them in the trace and in the odds.
"""

from __future__ import annotations

import pytest

from umpire.battle.roles import Request
from umpire.battle.run import new_battle
from umpire.battle.scenario import parse_scenario
from umpire.dice import ScriptedSource
from umpire.errors import IllegalActionError
from umpire.rules.quick_acw import losses as LO
from umpire.rules.quick_acw import reach as RCH
from umpire.rules.quick_acw import steps as S

SCEN = """name = "Effects"
[table]
width = 40
height = 24
turns = 3

[[terrain]]
kind = "rough"
points = [[20, 0], [24, 0], [24, 24], [20, 24]]

[[units]]
id = "c1"
name = "1st VA"
side = "confederate"
type = "foot"
stands = 4
x = 10
y = 12
facing = 0

[[units]]
id = "u1"
name = "2nd WI"
side = "union"
type = "foot"
stands = 4
x = 14
y = 12
facing = 180
"""


@pytest.fixture
def battle():  # type: ignore[no-untyped-def]
    return new_battle(parse_scenario(SCEN), ScriptedSource([3] * 50))


def test_fire_mod_in_trace_and_odds(battle) -> None:  # type: ignore[no-untyped-def]
    """Seed 001 event 9 (Valiant Charge) as ``fire_mod``: +1 in the fire trace and odds."""
    b = battle
    u, t = b.state.units
    step = S.FireStep()
    base = step.shots(b, u, exact=True)
    assert base, "the Union unit 4 inches away is a target"
    before = S.fire_effects(b, u, t, reaction=False)
    assert before == []
    b.set_fx(u, "fire_mod", 1, "Valiant Charge")
    mods = S.fire_effects(b, u, t, reaction=False)
    assert [(m.id, m.value, m.text) for m in mods] == [("fire_mod", 1, "Valiant Charge")]
    # reaction fire only counts in a defensive (reaction) step
    b.set_fx(u, "reaction_fire_mod", 1, "Deadly Fire")
    assert [m.id for m in S.fire_effects(b, u, t, reaction=False)] == ["fire_mod"]
    assert [m.id for m in S.fire_effects(b, u, t, reaction=True)] == [
        "fire_mod",
        "reaction_fire_mod",
    ]


def test_no_move_and_no_act_refuse_moves(battle) -> None:  # type: ignore[no-untyped-def]
    """``no_move`` and ``no_act`` (seed 001 event 3, Hesitant) refuse a move with the cause."""
    b = battle
    u = b.state.units[0]
    assert RCH.move_ok(b, u, 8.0, 12.0, 0.0, "")
    b.set_fx(u, "no_act", 1, "Hesitant")  # the battle forgets the legal move it kept
    with pytest.raises(IllegalActionError, match="Hesitant"):
        RCH.check_move(b, u, 8.0, 12.0, 0.0, "")
    assert RCH.targets(b, u) == []  # and no fire
    assert b.clear_fx(u)
    assert u.extra == {}


def test_terrain_harder_and_easier(battle) -> None:  # type: ignore[no-untyped-def]
    """Seed 001 events 7 (Rough Going) and 18 (Find the Way) as the ``terrain`` effect."""
    b = battle
    u = b.state.units[0]
    u.x, u.y = 19.0, 12.0
    b.dirty()
    # into rough ground: 3" of a 6" move at half speed is allowed normally
    assert RCH.move_ok(b, u, 22.0, 12.0, 0.0, "")
    b.set_fx(u, "terrain", "harder", "Rough Going")
    with pytest.raises(IllegalActionError, match="rough ground"):
        RCH.check_move(b, u, 22.0, 12.0, 0.0, "")
    # open counts as rough: 4" in the open is more than half of 6"
    with pytest.raises(IllegalActionError, match=r'may move 3\.00"'):
        RCH.check_move(b, u, 15.0, 12.0, 0.0, "")
    b.set_fx(u, "terrain", "easier", "Find the Way")
    assert RCH.check_move(b, u, 24.5, 12.0, 0.0, "") == pytest.approx(5.5)


def test_ignore_disruption_cancels_the_marker(battle) -> None:  # type: ignore[no-untyped-def]
    """Seed 001 event 15 (Rally to the Colours): the MM's -1 fire / -2 melee are cancelled."""
    b = battle
    u = b.state.units[0]
    u.marker = True
    b.set_fx(u, "ignore_disruption", 1, "Rally to the Colours")
    fire = LO.effect_mods(u, "fire", b.r)
    melee = LO.effect_mods(u, "melee", b.r)
    assert [(m.id, m.value) for m in fire] == [("ignore_disruption", 1)]
    assert [(m.id, m.value) for m in melee] == [("ignore_disruption", 2)]


def test_must_charge_refuses_other_orders(battle) -> None:  # type: ignore[no-untyped-def]
    """Seed 001 event 20 (Impetuous) as ``must_charge``: only charges are offered and legal."""
    b = battle
    u = b.state.units[0]
    req = Request("move", "confederate", 0, "move")
    opts = b.comp.combat.options(b, req)
    assert {c.kind for c in opts} >= {"charge", "move", "hold"}
    b.set_fx(u, "must_charge", 1, "Impetuous")
    opts = b.comp.combat.options(b, req)
    assert {c.kind for c in opts} == {"charge"}
    with pytest.raises(IllegalActionError, match="must charge"):
        S.MoveStep().apply(b, "confederate", 0, ("hold",))
