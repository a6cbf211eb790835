"""The answers the engine and seed 004's sequences keep between decisions (issue 25's speed
work) change when what they read changes: a cache that is wrong once is a rules bug.

Seed 004 RANDOM MOVEMENT: "The units on that card ... - and only those units - may fire
and move"; seed 002 FIRE: "can't shoot through friendly troops".
"""

from __future__ import annotations

from umpire.ai import make_policy
from umpire.battle.run import new_battle
from umpire.battle.scenario import parse_scenario
from umpire.dice import SeededSource
from umpire.scenarios import SHIPPED

CARDS = (SHIPPED / "mcpherson_cards.toml").read_text(encoding="utf-8")

LINE = """name = "Line of sight"
[rules]
sequence = "five-step"
first = "union"
[table]
width = 60
height = 40
turns = 3

[[units]]
id = "c1"
name = "1st VA"
side = "confederate"
type = "foot"
stands = 4
x = 10
y = 20
facing = 0

[[units]]
id = "c2"
name = "2nd VA"
side = "confederate"
type = "foot"
stands = 4
x = 10
y = 35
facing = 0

[[units]]
id = "u1"
name = "2nd WI"
side = "union"
type = "foot"
stands = 4
x = 22
y = 20
facing = 180
"""


def test_a_cards_phases_follow_the_card_drawn_at_the_same_position() -> None:
    """Seed 004 RANDOM MOVEMENT, '- and only those units -': the phase at one position of a
    card's steps is limited to the units of the card drawn, whichever card was read there
    before (the sequence keeps each card's row of phases)."""
    scen = parse_scenario(CARDS)
    b = new_battle(scen, SeededSource(5))
    assert b.next_request() is not None  # a card is drawn and its units act
    seq_ = b.comp.sequence
    deck = b.state.extra["cards"]
    cards = seq_.cards(b)  # type: ignore[attr-defined]
    drawn = deck["card"]
    other = next(c for c, (_, side, _) in cards.items() if c != drawn and side == deck["side"])
    pos = b.state.seq
    assert b.phase().units == frozenset(cards[drawn][2])
    deck["card"] = other  # as a draw would leave it
    assert seq_.at(b, pos).units == frozenset(cards[other][2])
    deck["card"] = drawn
    assert seq_.at(b, pos).units == frozenset(cards[drawn][2])


def test_the_phase_of_a_pending_decision_is_let_go_when_the_cursor_moves() -> None:
    """The engine holds the phase of the decision it asked for until it is applied; a
    restored state (an undone trial) puts the cursor back, and the phase with it."""
    scen = parse_scenario(CARDS)
    b = new_battle(scen, SeededSource(7))
    pols = {"union": make_policy("ai", 1), "confederate": make_policy("ai", 2)}
    req = b.next_request()
    assert req is not None
    first = b.phase()
    snapshot = b.state.to_json()
    while req is not None and b.phase() == first:
        b.apply(req, pols[req.side].decide(b, req))
        req = b.next_request()
    assert req is not None and b.phase() != first
    b.restore(snapshot)
    assert b.phase() == first == b.comp.sequence.at(b, b.state.seq)


def test_a_friendly_base_moved_into_the_line_blocks_the_sight_line() -> None:
    """Seed 002 FIRE: "can't shoot through friendly troops": the sight line kept for a
    firer and its target is asked again when a friendly base moves (the stamp of the
    firer's side), and again when it moves away."""
    b = new_battle(parse_scenario(LINE), SeededSource(1))
    c1, c2, u1 = b.state.units
    assert b.sees(c1, u1)
    b.place(c2, 16.0, 20.0, 0.0)  # across the line from c1 to u1
    assert not b.sees(c1, u1)
    b.place(c2, 16.0, 35.0, 0.0)
    assert b.sees(c1, u1)


def test_step4_fire_at_a_crossing_unit_behind_a_friend_is_barred_until_it_moves() -> None:
    """Seed 004 III step 4 ('fire at units which have passed thru the field of fire') and
    seed 002 FIRE ("can't shoot through friendly troops"): the step-4 scope judges sight
    before it works out the shot, and the answer follows the friendly base in the way."""
    from umpire.rules.quick_acw import reach as RCH
    from umpire.rules.quick_acw import steps as S

    b = new_battle(parse_scenario(LINE), SeededSource(1))
    c1, c2, u1 = b.state.units
    step = S.FireStep(targets="chargers", mode="defensive")
    b.place(u1, 16.0, 20.0, u1.theta)  # within c1's range
    u1.extra["crossed"] = [c1.i]
    b.place(c2, 13.0, 20.0, 0.0)  # across the line from c1 to u1 (the memo forgets)
    assert step.shots(b, c1, exact=False) == []
    assert not step.eligible(b, c1.i)
    b.place(c2, 16.0, 35.0, 0.0)
    got = step.shots(b, c1, exact=False)
    assert [s[0] for s in got] == [u1.i] and step.eligible(b, c1.i)
    assert got == RCH.targets(b, c1, exact=False)  # the same shot as the unscoped step's


def test_step4_scoped_shots_are_the_unscoped_ones_among_the_allowed() -> None:
    """Seed 004 III step 4: the scoped step's shots (sight judged first) are, at every
    decision of a played five-step battle, the step-2 shots at the allowed units, in order
    (asked scoped first, so the scoped path works each one out itself)."""
    from umpire.battle.scenario import load_scenario
    from umpire.rules.quick_acw import reach as RCH
    from umpire.rules.quick_acw import steps as S

    b = new_battle(load_scenario("standard_five_step"), SeededSource(3))
    pols = {"union": make_policy("ai", 1), "confederate": make_policy("ai", 2)}
    step = S.FireStep(targets="chargers", mode="defensive")
    seen = 0
    req = b.next_request()
    while req is not None:
        for u in b.state.units:
            if not u.alive:
                continue
            allowed = step._chargers(b, u)
            scoped = step.shots(b, u, exact=False)
            want = [s for s in RCH.targets(b, u, exact=False) if s[0] in allowed]
            assert scoped == want
            seen += len(scoped)
        b.apply(req, pols[req.side].decide(b, req))
        req = b.next_request()
    assert seen > 0
