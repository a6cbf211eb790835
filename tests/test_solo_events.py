"""Seed 001: solo random events on the tactical engine.

Each test names seed 001 ("RANDOM EVENTS" and the event's number) or the rules-notes
001 default or reading it serves.
"""

from __future__ import annotations

import math
from fractions import Fraction
from pathlib import Path

import pytest

from umpire.ai import make_policy
from umpire.battle.effects import fx
from umpire.battle.run import new_battle
from umpire.dice import ScriptedSource, SeededSource, parse
from umpire.errors import DataFileError
from umpire.rules.solo_events.events import DATA, EFFECTS, load_mapping
from umpire.scenarios import parse_scenario
from umpire.tables import builtin_tables

SCEN = """name = "Solo test"
[rules]
events = ["solo-events"]
attacker = "confederate"
[table]
width = 60
height = 40
turns = 3

[[leaders]]
id = "lee"
name = "Lee"
side = "confederate"
x = 5
y = 20
bonus = 3

[[leaders]]
id = "meade"
name = "Meade"
side = "union"
x = 55
y = 20

{units}
"""

UNIT = """[[units]]
id = "{id}"
name = "{id}"
side = "{side}"
type = "{type}"
stands = 4
x = {x}
y = {y}
facing = {facing}
{extra}
"""


def scenario(with_artillery: bool = True, attacker: str = "confederate"):  # type: ignore[no-untyped-def]
    units = []
    kinds = ["foot", "cavalry", *(["artillery"] if with_artillery else [])]
    for k, kind in enumerate(kinds):
        extra = 'leader = "lee"' if kind == "foot" else ""
        units.append(
            UNIT.format(
                id=f"c_{kind}",
                side="confederate",
                type=kind,
                x=10,
                y=8 + 10 * k,
                facing=0,
                extra=extra,
            )
        )
        units.append(
            UNIT.format(
                id=f"u_{kind}", side="union", type=kind, x=50, y=8 + 10 * k, facing=180, extra=""
            )
        )
    text = SCEN.format(units="\n".join(units)).replace(
        'attacker = "confederate"', f'attacker = "{attacker}"'
    )
    return parse_scenario(text)


def unit(b, uid: str):  # type: ignore[no-untyped-def]
    return next(u for u in b.state.units if u.id == uid)


def start_turn(faces: list[int], with_artillery: bool = True):  # type: ignore[no-untyped-def]
    """A battle whose first dice are ``faces``; run to the first decision."""
    b = new_battle(scenario(with_artillery), ScriptedSource(faces + [3] * 400), narrate=True)
    req = b.next_request()
    return b, req


def test_trigger_and_side_odds_exact() -> None:
    """001 RANDOM EVENTS: 'If the result is a 1 or a 6 ... a random event'; 'odd ... the
    attacker ... even ... the defender': P(event) = 1/3, P(attacker) = 1/2, by enumeration
    of the shipped tables over the exact 1d6 distribution."""
    dist = dict(parse("1d6").distribution())
    check, side = builtin_tables().get("solo_event_check"), builtin_tables().get("solo_event_side")
    p_event = sum(
        (p for v, p in dist.items() if check.lookup(int(v)).effects["event"]), Fraction(0)
    )
    p_att = sum(
        (p for v, p in dist.items() if side.lookup(int(v)).effects["side"] == "attacker"),
        Fraction(0),
    )
    assert p_event == Fraction(1, 3) and p_att == Fraction(1, 2)
    events = builtin_tables().get("solo_events")
    assert [events.lookup(v).id for v in (1, 20)] == ["urgent_assistance", "impetuous"]


def test_trigger_frequencies_sit_within_four_standard_errors() -> None:
    """600 seeded turn starts: the share with an event, and with the attacker, match 1/3 and
    1/2 within 4 standard errors."""
    scen = scenario()
    n, events, attacker = 600, 0, 0
    for seed in range(n):
        b = new_battle(scen, SeededSource(seed), narrate=True)
        b.next_request()
        heads = [ln for ln in b.lines if ln.startswith("Random event (")]
        if heads:
            events += 1
            attacker += "(attacker" in heads[0]
    se = math.sqrt(n * (1 / 3) * (2 / 3))
    assert abs(events - n / 3) < 4 * se
    se2 = math.sqrt(events * 0.25)
    assert abs(attacker - events / 2) < 4 * se2


def test_no_event_on_a_two() -> None:
    b, _ = start_turn([2])
    assert b.state.extra["solo_events"]["log"] == []
    assert any("no event this turn" in ln for ln in b.lines)


@pytest.mark.parametrize(
    ("number", "event"),
    [(3, "hesitant"), (6, "limited_ammo"), (7, "rough_going"), (8, "bad_aim"), (17, "thick_smoke")],
)
def test_random_events_mark_a_unit_chosen_by_a_logged_die(number: int, event: str) -> None:
    """001 events 3, 6, 7, 8, 17 ('chosen randomly'): a d{n} picks the unit; its effect
    lasts this turn only (reading this_turn_only)."""
    b, _ = start_turn([1, 1, number, 1])  # event, attacker (Confederate), the event, pick 1
    log = b.state.extra["solo_events"]["log"]
    assert log and log[0]["event"] == event and log[0]["chosen"] == "random"
    u = unit(b, log[0]["unit"])
    for key, value in EFFECTS[event]:
        assert fx(u, key) == value
    from umpire.rules.solo_events.events import TurnEnd

    TurnEnd(b.comp.events[0]).auto(b, "confederate")
    assert all(not fx(u, key) for key, _ in EFFECTS[event])


@pytest.mark.parametrize(
    ("number", "event", "kind"),
    [
        (9, "valiant_charge", "foot"),
        (13, "stirrups_in", "cavalry"),
        (14, "whiff_of_grape", "artillery"),
        (15, "rally_to_the_colours", "foot"),
        (16, "deadly_fire", "foot"),
        (18, "find_the_way", "cavalry"),
        (19, "hold_the_line", "foot"),
        (11, "well_disciplined", "foot"),
    ],
)
def test_player_choice_events_ask_the_affected_side(number: int, event: str, kind: str) -> None:
    """001 events 9, 11, 13-16, 18, 19 ('the player chooses'): a decision put to the side
    the event affects (here the defender, the Union: the side die is even)."""
    b, req = start_turn([6, 2, number])
    assert req is not None and req.kind == "pick" and req.side == "union"
    opts = b.comp.events[0].step("turn_start").options(b, req)
    target = next(c for c in opts if b.state.units[c.order[1]].type == kind)
    b.apply(req, target.order)
    u = b.state.units[target.order[1]]
    for key, value in EFFECTS[event]:
        assert fx(u, key) == value
    entry = b.state.extra["solo_events"]["log"][0]
    assert entry["chosen"] == "player" and entry["unit"] == u.id


def test_a_choice_outside_the_offer_is_refused() -> None:
    """The pick must be one of the eligible units (seed 001 event 14: an artillery unit)."""
    from umpire.errors import IllegalActionError

    b, req = start_turn([6, 2, 14])
    assert req is not None
    foot = unit(b, "u_foot")
    with pytest.raises(IllegalActionError, match="choose one of u_artillery"):
        b.apply(req, ("pick", foot.i))


def test_no_effect_when_the_type_is_missing() -> None:
    """Rules-notes 001: 'An event that needs a unit type the player lacks has no effect; it
    is logged and not re-rolled' (event 6, Limited Ammo, without artillery)."""
    b, _ = start_turn([1, 1, 6], with_artillery=False)
    log = b.state.extra["solo_events"]["log"]
    assert log[0]["result"].startswith("no effect") and "unit" not in log[0]


def test_disorganized_takes_the_host_marker() -> None:
    """001 event 5: one DISR, mapped to seed 002's Morale Marker (default disr_on_host)."""
    b, _ = start_turn([1, 1, 5, 1])
    u = unit(b, b.state.extra["solo_events"]["log"][0]["unit"])
    assert u.marker


def test_heroic_rally_recovers_with_the_better_of_two_dice() -> None:
    """001 event 12 (reading heroic_rally_best_of_two): 2 and 5 -> 5 >= 4, the MM goes."""
    b, req = start_turn([6, 2, 12])
    assert req is not None
    u = unit(b, "u_foot")
    u.marker = True
    b.roller = ScriptedSource([2, 5])
    b.apply(req, ("pick", u.i))
    assert not u.marker


def test_forced_moves_anxious_and_retrograde() -> None:
    """001 events 2 and 4: a full move forward along the facing / straight back (reading
    forced_moves_at_once, forward_is_facing)."""
    b, _ = start_turn([1, 1, 2, 1])
    u = unit(b, b.state.extra["solo_events"]["log"][0]["unit"])
    assert u.side == "confederate" and u.x > 10.0  # faces east: forward is +x
    b, _ = start_turn([1, 3, 4, 1])
    u = unit(b, b.state.extra["solo_events"]["log"][0]["unit"])
    assert u.side == "confederate" and u.x < 10.0 - 1.0  # back, to the west


def test_urgent_assistance_and_rally_to_the_flag() -> None:
    """001 event 1 (the commander to within 4 BW of the furthest unit) and event 10 (army
    morale +1 on an odd d6, +2 on an even)."""
    b, _ = start_turn([1, 1, 1])
    lee = b.state.leaders[0]
    # the furthest Confederate unit from Lee at (5, 20) is c_foot at (10, 8), 13" away:
    # he rides 13 - 4 BW (1" stands) = 9" toward it
    assert math.hypot(lee.x - 10, lee.y - 8) == pytest.approx(4.0)
    assert math.hypot(lee.x - 5, lee.y - 20) == pytest.approx(9.0)
    b, _ = start_turn([1, 1, 10, 4])
    book = b.state.extra["solo_events"]
    assert book["morale"]["confederate"] == 3 + 2


def test_impetuous_marks_a_unit_that_can_charge() -> None:
    """001 event 20: a random unit in legal charge range must charge (reading
    impetuous_must_charge); with none in range, no effect."""
    b, _ = start_turn([1, 1, 20])
    assert b.state.extra["solo_events"]["log"][0]["result"].startswith("no effect")
    text = SCEN.format(
        units=UNIT.format(id="c1", side="confederate", type="foot", x=10, y=20, facing=0, extra="")
        + UNIT.format(id="u1", side="union", type="foot", x=14, y=20, facing=180, extra="")
    )
    b = new_battle(parse_scenario(text), ScriptedSource([1, 1, 20, 1] + [3] * 200), narrate=True)
    b.next_request()
    entry = b.state.extra["solo_events"]["log"][0]
    assert entry["unit"] == "c1" and fx(unit(b, "c1"), "must_charge")


def test_army_quits_when_its_morale_is_spent() -> None:
    """Default army_morale: each unit removed costs 1d3; at zero the army quits."""
    from umpire.rules.solo_events.events import TurnEnd

    b, _ = start_turn([2])
    book = b.state.extra["solo_events"]
    book["morale"]["union"] = 1
    unit(b, "u_foot").alive = False
    b.roller = ScriptedSource([2])
    TurnEnd(b.comp.events[0]).auto(b, "union")
    assert b.state.over and b.state.winner == "confederate"


def test_a_mapping_to_an_unknown_troop_type_names_file_and_line(tmp_path: Path) -> None:
    """Bad input: an event naming a unit type the scenario's combat lacks."""
    text = (DATA / "mapping.toml").read_text().replace('cavalry = "cavalry"', 'cavalry = "zouaves"')
    path = tmp_path / "mapping.toml"
    path.write_text(text)
    with pytest.raises(DataFileError, match=r"mapping.toml:\d+: .*'zouaves'"):
        load_mapping(path, {"foot", "cavalry", "artillery"})


def test_the_scenario_must_name_the_attacker() -> None:
    """001: 'odd ... the attacker, even ... the defender': [rules] attacker is required."""
    text = SCEN.format(
        units=UNIT.format(id="a", side="union", type="foot", x=5, y=5, facing=0, extra="")
    )
    with pytest.raises(DataFileError, match="solo-events needs \\[rules\\] attacker"):
        parse_scenario(text.replace('attacker = "confederate"\n', ""))


def test_battles_with_events_end_and_replay() -> None:
    """A few seeded battles with the events mounted, generic AI and random policy."""
    from umpire.battle.run import play, replay, state_hash

    scen = scenario()
    for seed in range(4):
        pols = {"union": make_policy("ai", seed), "confederate": make_policy("random", seed)}
        res = play(scen, seed, pols)
        again = replay(scen, res.faces, res.orders)
        assert state_hash(again.state.to_json()) == state_hash(res.state)
