"""Seed 001 RANDOM EVENTS: the trigger, the side and the event against their exact odds.

"At the beginning of each turn, roll a D6. If the result is a '1' or a '6', then a
random event has occurred. ... roll a D6. If the result is odd, then the event will
affect the attacker. If the result is even, then the event will affect the defender.
Roll a D20". The odds are computed by enumerating the module's own rolls over the exact
distribution of a d6 (``umpire.dice``), and a seeded run of many turn starts must sit
within 4 standard errors of them.
"""

from __future__ import annotations

import math
from collections import Counter
from fractions import Fraction
from typing import Any

from umpire.battle.run import new_battle
from umpire.battle.scenario import parse_scenario
from umpire.dice import ScriptedSource, SeededSource, parse
from umpire.rules.solo_events.events import KEY

SCEN = """name = "Solo odds"
[rules]
events = ["solo-events"]
attacker = "union"
[table]
width = 60
height = 40
turns = 3

[[units]]
id = "c1"
side = "confederate"
type = "foot"
stands = 4
x = 10
y = 10

[[units]]
id = "u1"
side = "union"
type = "foot"
stands = 4
x = 50
y = 30
facing = 180
"""

D6 = dict(parse("1d6").distribution().outcomes)


def first_roll(faces: list[int]) -> tuple[bool, str]:
    """(an event?, the side it affects) when the turn's dice are ``faces``.

    Event 10 (Rally to the Flag) needs no unit, so the three rolls are the whole story.
    """
    b = new_battle(parse_scenario(SCEN), ScriptedSource([*faces, 10, 1] + [3] * 50))
    b.comp.events[0].step("turn_start").actors(b, "confederate")
    log = b.state.extra[KEY]["log"]
    return bool(log), (log[0]["side"] if log else "")


def test_trigger_and_side_odds_by_enumeration() -> None:
    """001 RANDOM EVENTS: P(event) = 2/6 (a 1 or a 6) and P(attacker | event) = 1/2 (odd),
    enumerating the module's rolls over the exact 1d6 distribution."""
    assert {k: Fraction(1, 6) for k in range(1, 7)} == D6
    p_event = Fraction(0)
    p_attacker = Fraction(0)
    for check, p_check in D6.items():
        for side, p_side in D6.items():
            event, who = first_roll([check, side])
            if event:
                p_event += p_check * p_side
                if who == "union":  # the attacker of this scenario
                    p_attacker += p_check * p_side
    assert p_event == Fraction(2, 6)
    assert p_attacker / p_event == Fraction(1, 2)


def test_each_event_is_one_face_of_the_d20() -> None:
    """001 RANDOM EVENTS: 'Roll a D20, and check the corresponding event number': each
    of the 20 events has probability 1/20 (the shipped table, by enumeration)."""
    from umpire.tables import builtin_tables

    table = builtin_tables().get("solo_events")
    probs = {row.id: p for row, p in table.row_probabilities()}
    assert len(probs) == 20 and set(probs.values()) == {Fraction(1, 20)}
    assert [table.lookup(n).id for n in (1, 5, 14, 20)] == [
        "urgent_assistance",
        "disorganized",
        "whiff_of_grape",
        "impetuous",
    ]


def test_seeded_turn_starts_sit_within_four_standard_errors() -> None:
    """001 RANDOM EVENTS: 3000 seeded turn starts: the share with an event is 1/3, the
    attacker's share of events 1/2, and the d20's events are even (chi-square)."""
    b = new_battle(parse_scenario(SCEN), SeededSource(2012), narrate=True)
    role: Any = b.comp.events[0]
    step = role.step("turn_start")
    n = 3000
    events = attacker = 0
    numbers: Counter[int] = Counter()
    for turn in range(1, n + 1):
        b.state.turn = turn
        b.lines.clear()
        step.actors(b, "confederate")
        role.book(b)["pending"] = None
        role.unmark(b)
        heads = [ln for ln in b.lines if ln.startswith("Random event (")]
        assert len(heads) <= 1
        if heads:
            events += 1
            attacker += "(attacker, " in heads[0]
            numbers[int(heads[0].split("): ")[2].split()[0])] += 1
    p = 1 / 3
    assert abs(events - n * p) < 4 * math.sqrt(n * p * (1 - p))
    assert abs(attacker - events / 2) < 4 * math.sqrt(events * 0.25)
    expected = events / 20
    chi2 = sum((numbers[k] - expected) ** 2 / expected for k in range(1, 21))
    assert chi2 < 45.3  # 19 degrees of freedom: P(chi2 > 45.3) < 0.001
