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
