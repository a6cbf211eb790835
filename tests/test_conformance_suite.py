"""The conformance suite: every composition played against every module's invariants.

Issue 20, "A conformance suite over every composition": for every shipped scenario and
every test composition, seeded battles with the scripted/odds AI and random policies on
both sides are checked after every step against the invariants each module in the
composition states (``invariants(comp)``, each citing its seed section) and the engine's
own, and each battle must replay from its log to the identical state. A failure names the
scenario, the seed, the players, the turn and step, and the invariant with its seed section.

``KNOWN_OPEN`` lists the invariants of wrong rulings not yet fixed (issue 20's list): their
violations are set aside here, and ``test_known_open_rulings_are_still_found`` fails as
soon as one of them is no longer found, so the list cannot outlive the fix.
``benchmarks/conformance.py`` is the large run (thousands of battles, other seeds and
compositions kept for it alone).
"""

from __future__ import annotations

from functools import cache

import pytest

from umpire.battle.invariants import CORE, Invariant, StepSeen, Watch
from umpire.battle.orders import Hold
from umpire.battle.run import new_battle
from umpire.battle.scenario import load_scenario, parse_scenario
from umpire.battle.setup import setup_for
from umpire.dice import SeededSource
from umpire.lab.conformance import Summary, check_many
from umpire.rules import SPECS, role_module, role_module_ids
from umpire.scenarios import SHIPPED, shipped

BASE_TEXT = (SHIPPED / "mcpherson_ridge.toml").read_text(encoding="utf-8")

TEST_COMPOSITIONS = {name: text for spec in SPECS for name, text in spec.conformance.items()}
"""McPherson's Ridge under other ``[rules]`` tables: compositions no shipped scenario uses,
each declared by the module it exercises (``[conformance]`` of its ``module.toml``)."""

SHIPPED_SEEDS = range(24)
TEST_SEEDS = range(10)

KNOWN_OPEN: set[str] = set()
"""Invariants whose wrong rulings are not fixed yet (issue 20): set aside, and each must
still be found somewhere (remove it here with its fix)."""

NOT_YET: set[str] = set()
"""Registered role modules that do not state invariants yet (remove each as it does)."""


def scenario_of(key: str):  # type: ignore[no-untyped-def]
    if key in TEST_COMPOSITIONS:
        return parse_scenario(BASE_TEXT.replace('rules = "quick_acw"', TEST_COMPOSITIONS[key], 1))
    return load_scenario(key)


@cache
def summary(key: str) -> Summary:
    seeds = TEST_SEEDS if key in TEST_COMPOSITIONS else SHIPPED_SEEDS
    return check_many(scenario_of(key), seeds, name=key)


ALL = sorted(shipped()) + sorted(TEST_COMPOSITIONS)


@pytest.mark.parametrize("key", ALL)
def test_every_composition_keeps_every_invariant(key: str) -> None:
    """Seeded battles of ``key`` (AI v AI, random v odds, odds v random): no invariant of
    any module in use is broken at any step, every battle ends and replays exactly."""
    s = summary(key)
    assert s.battles == len(TEST_SEEDS if key in TEST_COMPOSITIONS else SHIPPED_SEEDS)
    assert s.steps > 100 * s.battles, "the watch saw every step"
    bad = s.failures(but=KNOWN_OPEN)
    assert not bad, "\n".join(bad[:20])


def test_known_open_rulings_are_still_found() -> None:
    """Each invariant set aside as a known wrong ruling is still broken somewhere: when its
    fix lands, this fails until it leaves ``KNOWN_OPEN`` and is checked everywhere."""
    broken: set[str] = set()
    for key in ALL:
        broken |= summary(key).broken()
    assert broken >= KNOWN_OPEN, f"fixed, remove from KNOWN_OPEN: {sorted(KNOWN_OPEN - broken)}"


def test_every_registered_module_is_checked_and_states_invariants() -> None:
    """A role module is checked the day it registers: some composition of the suite uses
    it, and it states invariants for that composition (else it is listed in NOT_YET)."""
    used: dict[str, list[object]] = {}
    for key in ALL:
        comp = setup_for(scenario_of(key)).comp
        for mid in comp.modules:
            used.setdefault(mid, []).append(comp)
    for mid in role_module_ids():
        assert mid in used, f"no composition of the suite uses role module {mid}"
        m = role_module(mid)
        stated = any(getattr(m, "invariants", lambda c: [])(c) for c in used[mid])
        assert stated or mid in NOT_YET, f"{mid} states no invariants"
        assert not (stated and mid in NOT_YET), f"{mid} states invariants: remove it from NOT_YET"
    for inv in CORE:
        assert inv.cites and inv.text


def test_a_broken_invariant_is_reported_with_its_battle_turn_step_and_seed_section() -> None:
    """The watch calls every invariant after every step, and a violation names the step
    and the section cited (here a test invariant that objects to every fire order)."""
    scen = load_scenario("mcpherson_ridge")
    b = new_battle(scen, SeededSource(3), narrate=True)
    watch = Watch(b.comp)

    def no_fire(seen: StepSeen) -> list[str]:
        if seen.order and seen.order[0] == "fire" and seen.actor is not None:
            return [f"{b.state.units[seen.actor].name} fired"]
        return []

    watch.invariants.append(("test", Invariant("no-fire", "test 1.1", "nobody fires", no_fire)))
    b.watch = watch
    from umpire.ai import make_policy

    pol = make_policy("ai")
    while (req := b.next_request()) is not None and not watch.violations:
        b.apply(req, pol.decide(b, req))
    v = watch.violations[0]
    assert v.invariant == "test:no-fire" and v.cites == "test 1.1"
    assert str(v).startswith(f"turn {v.turn} step {v.seq} (")
    assert "fired" in str(v) and "[test 1.1]" in str(v)


def test_overlapping_bases_are_found_by_the_engine_invariant() -> None:
    """The engine's own invariant: two bases put on top of each other are reported."""
    scen = load_scenario("mcpherson_ridge")
    b = new_battle(scen, SeededSource(1), narrate=True)
    u, v = b.state.units[0], b.state.units[1]
    b.place(v, u.x, u.y, u.theta)
    watch = Watch(b.comp)
    watch.begin(b)
    watch.end(b, "union", "test", "", None, None)
    assert any(x.invariant == "engine:no-overlap" and u.name in x.text for x in watch.violations)


def test_a_base_changed_behind_the_engines_back_is_caught() -> None:
    """The engine's ``caches-current`` invariant: a unit whose base grows (a formation
    change) without the engine being told keeps its old radius and box in the caches every
    later ruling reads; the step is reported, and the overlap it hides is found from the
    state itself."""
    scen = load_scenario("stone_wall")
    b = new_battle(scen, SeededSource(1), narrate=True)
    u = next(w for w in b.state.units if w.type == "foot")
    b.box(u)  # cached as it stands
    u.formation = "column" if u.formation == "line" else "line"
    u.resize()  # and nobody calls b.changed(u)
    watch = Watch(b.comp)
    watch.begin(b)
    watch.end(b, u.side, "test", "", None, None)
    texts = [x.text for x in watch.violations if x.invariant == "engine:caches-current"]
    assert any(f"{u.name}'s base radius is kept as" in t for t in texts), texts
    assert any(f"{u.name}'s base is kept where it no longer is" in t for t in texts), texts


def test_a_formation_change_on_a_stalled_move_keeps_the_bases_apart() -> None:
    """Seed 003 XII.F, reading ``no_room_to_change``: a move the ground stops at once made
    its formation change where the unit stood without checking the room and without telling
    the engine (4th Texas into line over 15th Alabama at turn 9 of this battle; the hard
    AI's forks met later moves that the stale caches let through). Every step keeps every
    invariant now."""
    from umpire.lab.conformance import check_battle

    got = check_battle(load_scenario("stone_wall"), 4, ("random", "hard"))
    assert got.violations == [], [str(v) for v in got.violations]
    got = check_battle(load_scenario("stone_wall"), 3, ("random", "hard"))
    assert got.violations == [], [str(v) for v in got.violations]


def test_a_passed_charge_that_never_arrives_is_caught() -> None:
    """Seed 002 charge paragraph ("To move into contact with an enemy, you must roll your
    charge # ... If successful, the charged unit must roll to see if they stand"): the
    invariant objects to a charge step whose charger passed, whose target stood, and that
    left no contact and said nothing about why."""
    from umpire.battle.invariants import module_invariants

    scen = load_scenario("standard")
    b = new_battle(scen, SeededSource(1), narrate=True)
    check = dict((f"{m}:{i.id}", i) for m, i in module_invariants(b.comp))[
        "quick-acw:charge-reaches"
    ].check
    u, t = b.state.units[0], next(x for x in b.state.units if x.side != b.state.units[0].side)
    before = b.state.to_json()
    seen = StepSeen(
        b,
        1,
        0,
        u.side,
        "move",
        "move",
        u.i,
        ("charge", t.i),
        before,
        before,
        [
            f"{u.name} charges {t.name}",
            f"  {u.name} charge test: rolled 5+5 = 10 vs 8+: pass",
            f"  {t.name} stand test: rolled 4+4 = 8 vs 7+: pass",
        ],
        [],
        None,
    )
    assert check(seen), "an unexplained failed contact is a violation"
    seen.said.append(f'  {u.name} stops 3.0" short: blocked by a friendly unit')
    assert not check(seen), "a charge that says why it stopped is not"


def test_a_move_its_status_forbids_is_caught() -> None:
    """The engine's status invariant asks the status role in use: seed 002 MOVEMENT
    ("units with Morale Markers (MM) may either 1) not move except to turn around 180
    degrees, or 2) make a Rout move") and 003's routed units (XII.A) may not make a move."""
    from umpire.battle.invariants import module_invariants

    for name, mark in (("mcpherson_ridge", "marker"), ("stone_wall", "rout")):
        b = new_battle(load_scenario(name), SeededSource(1), narrate=True)
        u = b.state.units[0]
        if mark == "marker":
            u.marker = True
        else:
            u.extra.setdefault("ar", {})["rout"] = 9.0
        before = b.state.to_json()
        b.place(u, u.x + 2.0, u.y, u.theta)
        seen = StepSeen(
            b,
            1,
            0,
            u.side,
            "move",
            "move",
            u.i,
            ("move", u.x, u.y, u.theta, ""),
            before,
            b.state.to_json(),
            [],
            [],
            None,
        )
        check = dict((f"{m}:{i.id}", i) for m, i in module_invariants(b.comp))[
            "engine:status-allows"
        ].check
        assert check(seen) and u.name in check(seen)[0], name
        seen.order = Hold("hold")  # issue 25: a typed order
        assert not check(seen), name


def test_a_contact_parted_without_a_word_is_caught() -> None:
    """Seed 002 TURN ORDER ("Melee—any enemy units touching now fight"): units a charge
    brought into contact stay touching until the melee, or the step that parts them says
    why (a retreat, a rout). Here a charger is moved off its target in silence."""
    from umpire.battle.invariants import module_invariants

    b = new_battle(load_scenario("mcpherson_ridge"), SeededSource(1), narrate=True)
    u = b.state.units[0]
    t = next(x for x in b.state.units if x.side != u.side)
    b.place(u, t.x, t.y + t.hd + u.hd + 0.01, t.theta)  # touching t's front
    assert t.i in b.touching(u)
    b.state.contacts = [[u.i, t.i, 0]]
    before = b.state.to_json()
    b.place(u, u.x, u.y + 5.0, u.theta)
    seen = StepSeen(
        b,
        1,
        0,
        t.side,
        "defensive_fire",
        "fire",
        t.i,
        ("fire", u.i),
        before,
        b.state.to_json(),
        [],
        [],
        None,
    )
    check = dict((f"{m}:{i.id}", i) for m, i in module_invariants(b.comp))[
        "quick-acw:contact-kept"
    ].check
    assert check(seen) and "parted" in check(seen)[0]
    seen.said.append(f'  {u.name} retreats 5" away from {t.name}')
    assert not check(seen)


def test_a_rout_after_closing_up_is_measured_by_its_own_distance() -> None:
    """Seed 002 MOVEMENT ROUT ("Rout move ... 12 inches") with the closing-up reading
    (``contact_kept_when_stands_lost``): a unit that loses stands in a melee closes up on
    its enemy, then routs; its centre moves by both, so ``rout-distance`` compares the
    distance said only where the rout is the unit's one move of the step (found by
    McPherson's Ridge under the 004 ladder, seed 3, once its victory was rebalanced)."""
    from umpire.battle.invariants import module_invariants

    b = new_battle(load_scenario("mcpherson_ridge"), SeededSource(1), narrate=True)
    check = dict((f"{m}:{i.id}", i) for m, i in module_invariants(b.comp))[
        "quick-acw:rout-distance"
    ].check
    u = b.state.units[0]
    v = next(x for x in b.state.units if x.side != u.side)
    before = b.state.to_json()
    b.place(u, u.x + 0.75, u.y, u.theta)  # closed up 0.75" forward, routed 1.5" back: net 0.75"
    after = b.state.to_json()
    said = [f'  {u.name} routs 1.5" away from {v.name}, not 10": a friend in the way']

    def seen(lines: list[str]) -> StepSeen:
        return StepSeen(
            b, 1, 0, v.side, "melee", "melee", None, None, before, after, lines, [], None
        )

    assert check(seen(said)), "a rout that moved another distance than it said is a violation"
    assert not check(seen([f"  {u.name} closes up on {v.name}", *said])), (
        "a unit that also closed up moved by both: not a violation"
    )
