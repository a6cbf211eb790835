"""Seed 004 rulings fixed in issue 20: each test names the seed 004 sentence it holds.

- 004-RM-3, RANDOM MOVEMENT: "The units on that card ... - and only those units - may fire
  and move": step 4 fires only at the drawn card's units.
- 004-III-11, III: "British Rifle units can either fire or move in a given turn, but may
  not do both in the same turn": step 4 fire counts as firing.
- 004-ST-5, EFFECT: '"Engaged" units cannot be fired upon': by anyone, under the ladder.
- 004-RM-1, RANDOM MOVEMENT: "grouped into regiments (all cavalry, ...) or brigades (Civil
  War ... infantry)": a cavalry regiment has a card of its own.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import pytest

from umpire.ai import make_policy
from umpire.battle.engine import Battle
from umpire.battle.roles import Request
from umpire.battle.run import new_battle
from umpire.battle.scenario import load_scenario, parse_scenario
from umpire.dice import SeededSource
from umpire.errors import IllegalActionError


def run_until(
    b: Battle, decide: Callable[[Request], Any], stop: Callable[[Request], bool]
) -> Request:
    """Answer requests with ``decide`` until ``stop`` says the pending one is the one wanted."""
    for _ in range(10000):
        req = b.next_request()
        assert req is not None, "the battle ended first"
        if stop(req):
            return req
        b.apply(req, decide(req))
    raise AssertionError("no such request")


# -- 004-RM-3: only the drawn card's units are shot at in step 4 -----------------------------


@pytest.mark.parametrize("name", ["mcpherson_cards", "stone_wall_cards"])
def test_rm3_step_four_fires_only_at_the_drawn_cards_units(name: str) -> None:
    """Seed 004 RANDOM MOVEMENT (004-RM-3): 'The units on that card (whichever side they
    belong to) - and only those units - may fire and move'. Step 4's defensive and
    pass-thru fire answers the drawn card's movement: every shot of it, in the state and
    in the narrative, is at a unit of that card (before the fix a unit's 'crossed a field
    of fire' mark lasted the whole turn: about half of step 4's shots were at units of
    earlier cards)."""
    scen = load_scenario(name)
    shots = 0
    for seed in range(3):
        pols = {"union": make_policy("ai", seed), "confederate": make_policy("ai", seed + 7)}
        b = new_battle(scen, SeededSource(seed), narrate=True)
        seq: Any = b.comp.sequence
        while (req := b.next_request()) is not None:
            order = pols[req.side].decide(b, req)
            if req.step == "defensive_fire" and order[0] == "fire":
                deck = b.state.extra["cards"]
                card = seq.cards(b)[deck["card"]]
                t = b.state.units[int(order[1])]
                assert t.i in card[2], f"seed {seed}: step 4 shot at {t.name}, not on {card[0]}"
                before = len(b.lines)
                b.apply(req, order)
                said = " ".join(b.lines[before:])
                assert "fires" in said and f" at {t.name}" in said, said
                shots += 1
                continue
            b.apply(req, order)
    assert shots > 10


def test_rm3_a_crossing_mark_ends_when_the_next_card_moves() -> None:
    """004-RM-3: the 'crossed a field of fire' mark of a unit moved under an earlier card
    is gone when the next card's units start their movement, so that card's step 4 cannot
    shoot at it again."""
    from umpire.rules.quick_acw.steps import FireStep
    from umpire.rules.sequence_cards.sequence import crossing, mark_start

    b = new_battle(duel("card-draw", cards="regiment"), SeededSource(1))
    c1, c2, u = b.state.units
    b.scope = frozenset({c1.i})  # card 1: the 1st VA moves across the 2nd WI's front
    mark_start(b, "confederate")
    b.place(c1, 22.0, 20.0)
    crossing(b, "confederate", 0.5)
    assert c1.extra.get("crossed") == [u.i]
    step4 = FireStep(targets="chargers", mark="fired_defensive", mode="defensive")
    b.scope = None
    assert [t for t, *_ in step4.shots(b, u, exact=True)] == [c1.i]
    b.scope = frozenset({c2.i})  # card 2: the 2nd VA's units start to move
    mark_start(b, "confederate")
    assert "crossed" not in c1.extra
    crossing(b, "confederate", 0.5)  # the 2nd VA did not move
    b.scope = None
    assert step4.shots(b, u, exact=True) == []


DUEL = """name = "Duel"
[rules]
sequence = "{sequence}"
first = "union"
cards = "{cards}"
[table]
width = 60
height = 40
turns = 3

[[units]]
id = "c1"
name = "1st VA"
side = "confederate"
type = "foot"
stands = 6
x = 16
y = 20
facing = 0
{extra_c}
[[units]]
id = "c2"
name = "2nd VA"
side = "confederate"
type = "foot"
stands = 6
x = 16
y = 32
facing = 0

[[units]]
id = "u1"
name = "2nd WI"
side = "union"
type = "foot"
stands = 6
x = 26
y = 20
facing = 180
"""


def duel(sequence: str = "five-step", extra_c: str = "", cards: str = "brigade"):  # type: ignore[no-untyped-def]
    return parse_scenario(DUEL.format(sequence=sequence, extra_c=extra_c, cards=cards))


# -- 004-III-11: rifles fire or move, and step 4 fire is fire ---------------------------------


def rifles_battle() -> tuple[Battle, Request]:
    """Union (side A) advances into the fire of Confederate rifles, which fire in step 4;
    returns the battle at the rifles' own movement request."""
    b = new_battle(duel(extra_c="rifles = true"), SeededSource(3), narrate=True)
    c1 = b.state.units[0]

    def decide(req: Request) -> Any:
        if req.step == "move" and req.side == "union":
            return ("move", 22.5, 20.0, 3.14159265)  # 3.5" on, into the 1st VA's 6" range
        if req.step == "defensive_fire" and req.actor == c1.i:
            return ("fire", 2)
        return ("hold",)

    req = run_until(b, decide, lambda r: r.step == "move" and r.actor == c1.i)
    return b, req


def test_iii11_rifles_that_fired_in_step_four_may_not_move() -> None:
    """Seed 004 III (004-III-11): 'British Rifle units can either fire or move in a given
    turn, but may not do both in the same turn'. A side-B rifle unit that conducts
    defensive fire in step 4 has fired this turn: in its own step 3 it may not move (the
    Confederates are rifles here; no shipped scenario has side-B rifles)."""
    b, req = rifles_battle()
    c1 = b.state.units[0]
    assert any(ln.startswith("1st VA fires at 2nd WI") for ln in b.lines), b.lines
    assert "  1st VA (rifles) fired this turn and may not move (seed 004 III)" in b.lines
    with pytest.raises(IllegalActionError, match=r"may not move this turn \(rifles"):
        b.apply(req, ("move", 18.0, 20.0, 0.0))
    assert [c.order[0] for c in b.comp.combat.options(b, req)] == ["hold"]
    x = c1.x
    b.apply(req, ("hold",))
    assert c1.x == x


def test_iii11_rifles_that_held_fire_may_move() -> None:
    """004-III-11, the other half: a rifle unit that did not fire may move."""
    b = new_battle(duel(extra_c="rifles = true"), SeededSource(3), narrate=True)
    c1 = b.state.units[0]

    def decide(req: Request) -> Any:
        if req.step == "move" and req.side == "union":
            return ("move", 22.5, 20.0, 3.14159265)
        return ("hold",)

    req = run_until(b, decide, lambda r: r.step == "move" and r.actor == c1.i)
    b.apply(req, ("move", 18.0, 20.0, 0.0))
    assert c1.x == pytest.approx(18.0)


# -- 004-RM-1: a card per cavalry regiment ---------------------------------------------------


def test_rm1_each_cavalry_regiment_has_its_own_card() -> None:
    """Seed 004 RANDOM MOVEMENT (004-RM-1): 'The units of each side should be grouped into
    regiments (all cavalry, Napoleonic infantry), or brigades (Civil War and British
    Napoleonic infantry)': with cards by brigade, Gamble's three cavalry regiments draw
    three cards; Meredith's infantry brigade draws one."""
    from umpire.rules.sequence_cards.sequence import cards_of

    scen = load_scenario("mcpherson_cards")
    cards = cards_of(scen, "brigade")
    names = {name: [scen.units[i].name for i in idx] for name, _, idx in cards.values()}
    for cav in (
        "8th Illinois Cavalry",
        "12th Illinois/3rd Indiana Cavalry",
        "8th New York Cavalry",
    ):
        assert names[cav] == [cav]
    assert len(names["Brig. Gen. Solomon Meredith's brigade"]) == 4
    assert not any("Gamble" in name for name in names)
    # what the players see: the shuffle counts ten cards, and a cavalry regiment is drawn
    b = new_battle(scen, SeededSource(0), narrate=True)
    pols = {"union": make_policy("ai", 0), "confederate": make_policy("ai", 1)}
    while b.state.turn < 2 and (req := b.next_request()) is not None:
        b.apply(req, pols[req.side].decide(b, req))
    assert "Turn 1: the cards are shuffled, 10 in the box" in b.lines
    assert any(
        ln.startswith("Union draws: 8th Illinois Cavalry (union)")
        or ln.startswith("Confederate draws: 8th Illinois Cavalry (union)")
        for ln in b.lines
    )


# -- 004-ST-5: Engaged units cannot be fired upon ---------------------------------------------


def engaged(sequence: str, status: str = "", combat: str = "quick-acw") -> Battle:
    """The duel with the 1st VA in contact with the 2nd WI (no charge pending: Engaged), the
    2nd VA 10" off with the 2nd WI in its front arc and range."""
    text = DUEL.format(sequence=sequence, extra_c="", cards="brigade")
    text = text.replace('first = "union"', f'first = "union"\ncombat = "{combat}"')
    if status:
        text = text.replace('first = "union"', f'first = "union"\nstatus = "{status}"')
    b = new_battle(parse_scenario(text), SeededSource(5), narrate=True)
    c1, c2, u = b.state.units
    b.place(c1, u.x - u.hd - c1.hd, u.y, 0.0)  # front to front with the 2nd WI
    b.place(c2, u.x - 8.0, u.y + u.hw + c2.hw + 0.5, -0.3)  # beside, aimed at the 2nd WI
    assert c1.i in b.touching(u)
    return b


def test_st5_engaged_units_cannot_be_fired_upon_by_anyone_under_the_ladder() -> None:
    """Seed 004 EFFECT (004-ST-5): '"Engaged" units cannot be fired upon'. Under the
    ladder neither the unit in contact (seed 002's engaged_no_fire would let it fire) nor
    anyone else may fire at an Engaged unit; the refusal says why."""
    from umpire.rules.quick_acw.steps import FireStep

    b = engaged("five-step")
    c1, c2, u = b.state.units
    fire = FireStep()
    assert fire.shots(b, u, exact=True) == []  # the 2nd WI touches only the Engaged 1st VA
    assert fire.shots(b, c1, exact=True) == []
    assert u.i not in [t for t, *_ in fire.shots(b, c2, exact=True)]
    for firer in (u, c2):
        target = c1 if firer is u else u
        with pytest.raises(IllegalActionError, match="Engaged units cannot be fired upon"):
            fire.apply(b, firer.side, firer.i, ("fire", target.i))
    assert not any("fires at" in ln for ln in b.lines)


@pytest.mark.parametrize(("sequence", "status"), [("quick-acw", ""), ("five-step", "quick-acw")])
def test_st5_seed_002_still_lets_the_units_in_contact_fire(sequence: str, status: str) -> None:
    """Seed 002's default engaged_no_fire stands where the ladder is not the status: the
    units in contact may fire at each other, no one else at them."""
    from umpire.rules.quick_acw.steps import FireStep

    b = engaged(sequence, status)
    c1, c2, u = b.state.units
    fire = FireStep()
    assert [t for t, *_ in fire.shots(b, u, exact=True)] == [c1.i]
    assert [t for t, *_ in fire.shots(b, c1, exact=True)] == [u.i]
    assert u.i not in [t for t, *_ in fire.shots(b, c2, exact=True)]


def test_st5_a_charger_in_contact_is_charging_until_its_melee() -> None:
    """Reading engaged_not_fired_on: III step 4 'defensive fire at charging units' comes
    before step 5's melee, so a charge that reached contact in this movement may still be
    fired at in step 4 (by the unit it touches, seed 002); with [engaged] from = "contact"
    it may not."""
    import dataclasses

    from umpire.rules.quick_acw.steps import FireStep
    from umpire.rules.sequence_cards.status import LadderStatus

    b = engaged("five-step")
    c1, _, u = b.state.units
    c1.charged = True
    b.state.contacts = [[c1.i, u.i, 0]]
    step4 = FireStep(targets="chargers", mark="fired_defensive", mode="defensive")
    assert [t for t, *_ in step4.shots(b, u, exact=True)] == [c1.i]
    strict = LadderStatus("five-step", dataclasses.replace(b.status.lad, engaged_from="contact"))  # type: ignore[attr-defined]
    assert not strict.fire_on_engaged(b, c1)
    b.state.contacts = []  # the melee is fought: Engaged from now on
    b.memo.clear()
    assert step4.shots(b, u, exact=True) == []


def test_st5_under_the_ladder_action_reaction_fire_spares_engaged_units() -> None:
    """004-ST-5 with seed 003's combat (as in stone_wall_cards): its targets leave out
    Engaged units under the ladder, and keep them under 003's own marks."""
    from umpire.rules.action_reaction.firing import targets

    b = engaged("card-draw", combat="action-reaction")
    c1, c2, u = b.state.units
    assert u.i not in [t.i for t, _ in targets(b, c2)]
    assert targets(b, c1) == [] and c1.i not in [t.i for t, _ in targets(b, u)]
    pure = engaged("action-reaction", combat="action-reaction", status="action-reaction")
    c1, c2, u = pure.state.units
    assert c1.i in [t.i for t, _ in targets(pure, u)]


# -- the invariants these rulings establish (umpire.battle.invariants) -----------------------


def seen_of(b: Battle, name: str, kind: str, actor: int, order: Any, turn: int = 1) -> Any:
    """A step as the watch sees it (the state unchanged by the step)."""
    from umpire.battle.invariants import StepSeen

    now = b.state.to_json()
    return StepSeen(b, turn, 0, "union", name, kind, actor, order, now, now, [], [], None)


def test_invariants_catch_fire_at_engaged_units_and_rifles_that_fire_and_move() -> None:
    """004-ST-5 and 004-III-11 as invariants: a fire order at an Engaged unit, and a rifle
    unit with a fire and a move in one turn, are violations citing the seed."""
    from umpire.battle.invariants import module_invariants

    b = engaged("five-step")
    c1, c2, u = b.state.units
    checks = {f"{m}:{i.id}": i for m, i in module_invariants(b.comp)}
    eng = checks["five-step:engaged"]
    assert eng.cites.startswith("004 EFFECT")
    assert eng.check(seen_of(b, "other_fire", "fire", c2.i, ("fire", u.i)))
    b.state.contacts = [[c1.i, u.i, 0]]  # a charge of this movement: still charging
    assert not eng.check(seen_of(b, "defensive_fire", "fire", u.i, ("fire", c1.i)))

    r = new_battle(duel(extra_c="rifles = true"), SeededSource(1))
    rifles = {f"{m}:{i.id}": i for m, i in module_invariants(r.comp)}["five-step:rifles"]
    c1 = r.state.units[0]
    assert not rifles.check(seen_of(r, "defensive_fire", "fire", c1.i, ("fire", 2)))
    before = r.state.to_json()
    r.place(c1, c1.x - 2.0, c1.y)
    from umpire.battle.invariants import StepSeen

    moved = StepSeen(
        r,
        1,
        0,
        "confederate",
        "move",
        "move",
        c1.i,
        ("move", c1.x, c1.y, c1.theta),  # a whole move order (issue 25: orders are typed)
        before,
        r.state.to_json(),
        [],
        [],
        None,
    )
    assert rifles.check(moved) == ["1st VA (rifles) fired and moved in turn 1"]


def test_iii11_a_rifle_unit_that_charged_has_moved_even_if_it_went_nowhere() -> None:
    """004-III-11, 'can either fire or move in a given turn': a rifle unit that charged
    (whose charge went nowhere) has used its move; it may not fire in step 4 after it."""
    from umpire.battle.effects import fx
    from umpire.rules.sequence_cards.sequence import crossing, mark_start

    b = new_battle(duel(extra_c="rifles = true"), SeededSource(1))
    c1 = b.state.units[0]
    mark_start(b, "confederate")
    c1.charged = c1.moved = True  # ordered to charge, stopped where it stood
    crossing(b, "confederate", 0.5)
    assert fx(c1, "no_fire")


# -- 004 EFFECT: a Shaken unit may not advance, even part of the way --------------------------


@pytest.mark.parametrize("combat", ["quick-acw", "action-reaction"])
def test_effect_shaken_may_not_head_nearer_even_to_end_farther(combat: str) -> None:
    """Seed 004 EFFECT, default ``ladder_effects`` ("Shaken: may not advance"), reading
    ``no_advance_path``: no point of a Shaken unit's move may come nearer its nearest enemy.
    Before the fix only the end point was judged, so a Shaken regiment ordered past the
    enemy to a point farther off, and stopped short by a wall's die, ended nearer it
    (stone_wall_cards, seeds 100159, 100251, 100558, 100674 and 100825 of the large run:
    "20th Maine advanced on 15th Alabama while Shaken"). Moving sideways or back is free."""
    text = DUEL.format(sequence="five-step", extra_c="", cards="brigade")
    text = text.replace('first = "union"', f'first = "union"\ncombat = "{combat}"')
    b = new_battle(parse_scenario(text), SeededSource(1), narrate=True)
    u = b.state.units[2]
    req = run_until(b, lambda r: ("hold",), lambda r: r.kind == "move" and r.actor == u.i)
    b.comp.status.set_status(b, u, "shaken", "a test")
    th = u.theta
    past = (25.2, 24.5, th)  # 10.2" from the 1st VA at the end, but heading towards it
    assert math.hypot(past[0] - 16, past[1] - 20) > math.hypot(u.x - 16, u.y - 20)
    with pytest.raises(IllegalActionError, match=r"may not advance.*nearer its nearest enemy"):
        b.apply(req, ("move", *past, ""))
    assert u.extra["status"] == "shaken"
    b.apply(req, ("move", 26.0, 24.0, th, ""))  # straight sideways: allowed
    assert (u.x, u.y) == (26.0, 24.0)


def test_effect_shaken_large_run_seed_100053_holds() -> None:
    """Seed 004 EFFECT ("Shaken: may not advance") with seed 003's movement (XII.F, a wall's
    die stopping a move short): a large-run battle that breaks the ladder without reading
    ``no_advance_path`` (stone_wall_cards seed 100053, odds v random: "83rd Pennsylvania
    advanced on 47th Alabama while Shaken", turn 10, ordered past it to a point farther off
    and stopped short nearer) keeps every invariant. The five seeds first found (100159,
    100251, 100558, 100674, 100825) play other battles since issue 25's changes; this one
    fails when only the end point is judged (checked 2026-11-27)."""
    from umpire.lab.conformance import check_battle

    c = check_battle(load_scenario("stone_wall_cards"), 100053, ("odds", "random"))
    assert c.failures() == []
