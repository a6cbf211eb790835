"""Seed 002 charges that reach, contacts that hold, routs that say how far (issue 20).

Each test names the seed 002 sentence it holds the engine to. The charges and the
contacts are checked on the scalar engine (state and narrative) and on the batch
simulator (the same answers, kernels on and off).
"""

from __future__ import annotations

import numpy as np
import pytest

from umpire.battle.engine import Battle, Request
from umpire.battle.run import new_battle
from umpire.battle.scenario import parse_scenario
from umpire.battle.state import Unit
from umpire.dice import ScriptedSource
from umpire.dice.bulk import Dice
from umpire.errors import IllegalActionError
from umpire.rules.quick_acw import losses as LO
from umpire.rules.quick_acw import menu as M
from umpire.rules.quick_acw import reach as RCH
from umpire.rules.quick_acw import steps as S
from umpire.rules.quick_acw.ai import ScriptedAI, charge_chance
from umpire.rules.quick_acw.batch import kcharge as KC
from umpire.rules.quick_acw.batch.sim import Sim
from umpire.rules.quick_acw.batch.static import static_for
from umpire.rules.quick_acw.roles import MODULE
from umpire.scenarios import Scenario

HEAD = """name = "test"
[table]
width = 48
height = 36
turns = 3
"""


def unit(uid: str, side: str, x: float, y: float, facing: float, **kw: object) -> str:
    """One [[units]] entry (foot, 4 stands, unless told)."""
    kw.setdefault("type", "foot")
    kw.setdefault("stands", 4)
    extra = "".join(
        f"{k} = {str(v).lower() if isinstance(v, bool) else repr(v) if isinstance(v, str) else v}\n"
        for k, v in kw.items()
    ).replace("'", '"')
    return (
        f'[[units]]\nid = "{uid}"\nside = "{side}"\nx = {x}\ny = {y}\nfacing = {facing}\n{extra}\n'
    )


def scenario(text: str) -> Scenario:
    return parse_scenario(HEAD + text, "t.toml")


def battle(text: str, faces: list[int]) -> Battle:
    return new_battle(scenario(text), ScriptedSource(faces), narrate=True)


# A Confederate line charging east at a Union line 6" away, a friend of the charger's
# between them: its path is blocked, the contact point is free.
BLOCKED = (
    unit("c", "confederate", 10, 18, 0)
    + unit("u", "union", 16, 18, 180)
    + unit("f", "confederate", 13, 18, 0)
)
CLEAR = unit("c", "confederate", 10, 18, 0) + unit("u", "union", 14, 18, 180)


def test_charge_through_a_friend_is_not_offered_002_charge_paragraph() -> None:
    """Seed 002 charge paragraph: 'To move into contact with an enemy, you must roll your
    charge # or higher': the move goes along its path (default ``charge_path_clear``); a
    charge whose way is blocked by a friend cannot be ordered, and the reason is in words."""
    b = battle(BLOCKED, [])
    c, u, f = b.state.units
    u.marker = True  # worth charging: shaken
    assert RCH.charge_option(b, c, u) is None
    with pytest.raises(IllegalActionError, match=f"{f.name} is in the way"):
        RCH.charge_reach(b, c, u)
    req = Request("move", "confederate", c.i, "move")
    assert not [o for o in M.options(b, req) if o.order[0] == "charge"]
    # the AI would like this charge (the target has a marker), yet does not order it
    assert charge_chance(b, c, u, False) > 0.5
    assert ScriptedAI().move(b, c)[0] != "charge"


def test_ai_charges_when_the_way_is_clear_002_charge_paragraph() -> None:
    """The same charge with the friend out of the way is legal and the AI orders it."""
    text = (
        unit("c", "confederate", 10, 18, 0)
        + unit("u", "union", 16, 18, 180)
        + unit("f", "confederate", 13, 28, 0)
    )
    b = battle(text, [])
    c, u, _ = b.state.units
    u.marker = True
    assert RCH.charge_option(b, c, u) is not None
    assert ScriptedAI().move(b, c) == ("charge", u.i)


def test_passed_charge_on_a_standing_target_reaches_contact_002_charge_paragraph() -> None:
    """'If successful, the charged unit must roll to see if they stand': one that stands is
    reached, the contact is listed for the melee and the narrative says so."""
    b = battle(CLEAR, [4, 3, 5, 3])
    c, u = b.state.units
    S.do_charge(b, c, u)
    assert b.state.contacts == [[0, 1, 0]]
    assert u.i in b.touching(c)
    assert f"{c.name} makes contact with {u.name}" in b.lines[-1]


def test_target_that_cannot_get_away_is_reached_002_charge_paragraph() -> None:
    """'If it fails, it retreats 2D6" directly away from the enemy': a target whose way back
    is blocked stays, says how far it got, and the charger reaches it (a listed contact)."""
    text = CLEAR + unit("w", "union", 14 + 0.75, 18, 180)  # a friend right behind it
    b = battle(text, [4, 3, 2, 2, 3, 4])  # charge 7 passes, stand 4 fails, retreat 7"
    c, u, w = b.state.units
    S.do_charge(b, c, u)
    text_all = "\n".join(b.lines)
    assert f'{u.name} retreats 0.0" away from {c.name}, not 7": {w.name} in the way' in text_all
    assert u.x == 14 and u.marker
    assert b.state.contacts == [[0, 1, 0]]
    assert f"{c.name} reaches {u.name}, which could not get away" in text_all


def test_a_charger_stopped_short_says_where_and_why_002_charge_paragraph() -> None:
    """Default ``charge_path_clear``: a charger stopped short (something came into its way
    after the order) stops at the last free half inch and the narrative says why."""
    b = battle(BLOCKED, [])
    c, u, f = b.state.units
    assert S.charge_move(b, c, u, 1.0, 0.0, 5.0, 0.0, "")
    assert c.x == pytest.approx(12.0)
    assert b.lines[-1] == (
        f'  {c.name} stops after 2.0" of 5.0", short of {u.name}: {f.name} in the way'
    )


COLUMN = unit("c", "confederate", 10, 18, 0, formation="column") + unit(
    "u", "union", 10 + 1.5 + 0.375, 18, 180
)
"""A Confederate column (4 stands, 3" deep) touching a Union line at its front."""


def column_in_contact() -> tuple[Battle, Unit, Unit]:
    """:data:`COLUMN` on the scalar engine."""
    b = battle(COLUMN, [])
    c, u = b.state.units
    return b, c, u


def test_units_in_contact_stay_in_contact_when_stands_are_lost_002_melee() -> None:
    """Seed 002 TURN ORDER 'Melee - any enemy units touching now fight': a column in contact
    that loses a stand to fire closes up on the enemy (default
    ``contact_kept_when_stands_lost``), it does not shrink away from it."""
    b, c, u = column_in_contact()
    assert u.i in b.touching(c)
    LO.lose_stands(b, c, 1, "fire")
    assert c.stands == 3 and u.i in b.touching(c)
    assert c.x == pytest.approx(10.375)  # the front edge where it was
    assert f"{c.name} closes up on {u.name}" in b.lines[-1]


def test_flank_contact_holds_when_the_line_loses_stands_002_melee() -> None:
    """The same for a line touched on its flank: it narrows toward the charger."""
    text = unit("u", "union", 20, 18, 90) + unit("c", "confederate", 20 + 2 + 0.375, 18, 180)
    b = battle(text, [])
    u, c = b.state.units
    assert c.i in b.touching(u)
    LO.lose_stands(b, u, 1, "fire")
    assert c.i in b.touching(u)


def test_listed_contact_not_fought_says_why_002_melee() -> None:
    """'any enemy units touching now fight': a charge that reached contact but whose target
    left the table before the melee is not left unexplained."""
    b = battle(CLEAR, [4, 3, 5, 3])
    c, u = b.state.units
    S.do_charge(b, c, u)
    LO.remove(b, u, "below half strength")
    S.MeleeStep().auto(b, "confederate")
    assert (
        b.lines[-1] == f"No melee for {c.name}'s charge on {u.name}: {u.name} left the table first"
    )


def test_blocked_rout_reports_the_distance_moved_002_movement_rout() -> None:
    """Seed 002 Move: 'make a Rout move of up to 12"': a rout that is blocked says how far it
    went, not the full 12" (default ``blocked_retreat_stops``)."""
    text = CLEAR + unit("w", "union", 17, 18, 180)
    b = battle(text, [])
    _, u, w = b.state.units
    u.marker = True
    LO.rout_move(b, u)
    assert u.x == pytest.approx(16.0)
    c = b.state.units[0]
    assert b.lines[-1] == f'  {u.name} routs 2.0" away from {c.name}, not 12": {w.name} in the way'


@pytest.mark.parametrize(("mounted", "inches"), [(False, 12.0), (True, 24.0)])
def test_dismounted_cavalry_routs_12_002_movement_foot_note(mounted: bool, inches: float) -> None:
    """Seed 002 MOVEMENT: '"Foot" includes dismounted cavalry for movement': dismounted
    cavalry routs 12" as foot; mounted cavalry 24"."""
    text = unit("c", "confederate", 4, 18, 0) + unit(
        "u", "union", 8, 18, 180, type="cavalry", mounted=mounted
    )
    b = battle(text, [])
    _, u = b.state.units
    u.marker = True
    LO.rout_move(b, u)
    assert u.x == pytest.approx(8 + inches)
    assert b.lines[-1].endswith(f'routs {inches:g}" away from {b.state.units[0].name}')


def test_unlimbered_guns_limber_in_place_to_rout_002_movement_rout_column() -> None:
    """Seed 002 MOVEMENT, ROUT column of 'Artillery - unlimbered': 'limbers'. Reading
    ``unlimbered_artillery_rout``: it limbers in place (no free 12"), and routs as
    limbered artillery (12") at a later move."""
    text = unit("c", "confederate", 4, 18, 0) + unit(
        "g", "union", 10, 18, 180, type="artillery", stands=2, limbered=False
    )
    b = battle(text, [])
    _, g = b.state.units
    g.marker = True
    LO.rout_move(b, g)
    assert (g.x, g.y) == (10, 18) and g.limbered and g.moved
    assert "limbers in place" in b.lines[-1]
    LO.rout_move(b, g)
    assert g.x == pytest.approx(22)
    labels = {lab.id: lab for lab in MODULE.defaults()}
    assert "limbers in place" in labels["unlimbered_artillery_rout"].text
    assert labels["dismounted_cavalry_routs_as_foot"].label == "reading"


# -- the batch simulator follows the same rules --------------------------------------------


def sim_of(text: str) -> Sim:
    return Sim(static_for(scenario(text)), 1, Dice.per_battle([0]))


@pytest.mark.parametrize(("text", "clear"), [(BLOCKED, False), (CLEAR, True)])
def test_batch_charge_path_as_the_scalar_002_charge_paragraph(text: str, clear: bool) -> None:
    """The batch simulator's charges walk the same path test (default ``charge_path_clear``)."""
    b = battle(text, [])
    c, u = b.state.units[:2]
    assert (RCH.charge_option(b, c, u) is not None) == clear
    sim = sim_of(text)
    r = np.array([0])
    reach = KC.charge_reach(sim.bases(), r, 0, np.array([1]), np.array([99.0]), 99.0)
    _, _, cx, cy, cth, _ = reach
    cdist = np.hypot(cx - sim.x[0, 0], cy - sim.y[0, 0])
    assert sim._charge_path_clear(r, 0, cx, cy, cdist, cth).tolist() == [clear]


def test_batch_keeps_contact_as_the_scalar_002_melee() -> None:
    """The batch simulator closes up a column that loses a stand in contact, to the same
    place as the scalar engine (default ``contact_kept_when_stands_lost``)."""
    b, c, _ = column_in_contact()
    LO.lose_stands(b, c, 1, "fire")
    sim = sim_of(COLUMN)
    sim.lose_stands(np.array([0]), np.array([0]), np.array([1]))
    assert (sim.x[0, 0], sim.y[0, 0]) == (c.x, c.y)
    assert sim.touching(np.array([0]), np.array([0]), np.array([1])).tolist() == [True]


# -- the invariants these rulings establish (umpire.battle.invariants) ----------------------


def check_of(b: Battle, inv: str):  # type: ignore[no-untyped-def]
    """The check of seed 002's invariant ``inv`` for ``b``'s composition."""
    from umpire.rules.quick_acw.invariants import invariants

    return {i.id: i.check for i in invariants(b.comp)}[inv]


def seen_of(b: Battle, before: dict, actor: int | None, order: tuple, said: list[str]):  # type: ignore[no-untyped-def,type-arg]
    """A StepSeen of a move step that took ``b`` from ``before`` to its state now."""
    from umpire.battle.invariants import StepSeen

    kind = "move" if actor is not None else ""
    return StepSeen(
        b, 1, 0, "union", "move", kind, actor, order, before, b.state.to_json(), said, [], None
    )


def test_retreat_distance_invariant_002_charge_paragraph() -> None:
    """Invariant ``retreat-distance`` (seed 002 'it retreats 2D6" directly away from the
    enemy', default ``blocked_retreat_stops``): a retreat narrated as further than the unit
    went is a violation; the blocked retreat as the engine narrates it is not."""
    b = battle(CLEAR + unit("w", "union", 17, 18, 180), [])
    c, u, _ = b.state.units
    before = b.state.to_json()
    LO.move_away(b, u, c, 7.0, False, "retreat")
    check = check_of(b, "retreat-distance")
    assert not check(seen_of(b, before, None, None, b.lines[-1:]))
    wrong = [f'  {u.name} retreats 7" away from {c.name}']
    assert check(seen_of(b, before, None, None, wrong))


def test_unlimbered_rout_invariant_002_movement_rout_column() -> None:
    """Invariant ``unlimbered-rout`` (seed 002 MOVEMENT, unlimbered artillery's ROUT column:
    'limbers'): a gun that routs 12" while unlimbered is a violation."""
    text = unit("c", "confederate", 4, 18, 0) + unit(
        "g", "union", 10, 18, 180, type="artillery", stands=2, limbered=False
    )
    b = battle(text, [])
    _, g = b.state.units
    g.marker = True
    before = b.state.to_json()
    check = check_of(b, "unlimbered-rout")
    LO.rout_move(b, g)
    assert not check(seen_of(b, before, g.i, ("rout",), b.lines[-1:]))
    b.place(g, 22, 18)  # the old ruling: a free 12"
    assert check(seen_of(b, before, g.i, ("rout",), []))


def test_touching_at_answers_as_touching_box_002_charge_paragraph() -> None:
    """Seed 002 charge paragraph: 'To move into contact with an enemy, you must roll your
    charge #': a plain move may not end touching an enemy. ``Battle.touching_at`` (the
    move test's yes/no, no base made unless an enemy is near) answers as ``touching_box``
    at many random places, many of them touching (issue 25: a pure speed change)."""
    import math
    import random

    rng = random.Random(25)
    text = "".join(
        unit(f"u{k}", "confederate" if k % 2 else "union", 4 + (k * 7) % 40, 4 + (k * 5) % 28, 0)
        for k in range(12)
    )
    b = battle(text, [])
    units = b.state.units
    touching = 0
    for _ in range(3000):
        u = units[rng.randrange(len(units))]
        v = units[rng.randrange(len(units))]
        x, y = v.x + rng.uniform(-4, 4), v.y + rng.uniform(-4, 4)
        th = rng.uniform(-math.pi, math.pi)
        box = (x, y, math.cos(th), math.sin(th), u.hw, u.hd)
        want = bool(b.touching_box(u, box))
        assert b.touching_at(u, x, y, th, u.hw, u.hd) == want
        touching += want
    assert 100 < touching < 2900  # both answers are tested
