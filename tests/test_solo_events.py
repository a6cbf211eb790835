"""Seed 001: the solo random events on the tactical engine (module ``solo-events``).

Each test names seed 001 ("RANDOM EVENTS" and the event's number) or the rules-notes
001 default or reading it serves. The prepared game has two foot, two cavalry and two
artillery units a side; the Confederates attack, so a side die of 1 gives the event to
the Confederates (the attacker) and a 2 to the Union (the defender).
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pytest

from umpire.ai import make_policy
from umpire.ai.human import HumanPolicy
from umpire.battle.effects import fx
from umpire.battle.engine import Battle, Recorder
from umpire.battle.roles import Request, RulesSpec, offered
from umpire.battle.run import new_battle, play, replay, state_hash
from umpire.battle.scenario import parse_scenario
from umpire.dice import ScriptedSource
from umpire.errors import DataFileError, IllegalActionError
from umpire.rules.solo_events import MODULE
from umpire.rules.solo_events.events import KEY, SoloEvents, would_break
from umpire.rules.solo_events.mapping import MAPPING, line_of, load_mapping
from umpire.scenarios import SHIPPED

HEAD = """name = "Solo events test"
[rules]
{rules}
[table]
width = 60
height = 42
turns = 4

[[leaders]]
id = "lee"
name = "Lee"
side = "confederate"
x = 5
y = 22
bonus = 3

[[leaders]]
id = "hill"
name = "Hill"
side = "confederate"
x = 6
y = 40
bonus = 1

[[leaders]]
id = "meade"
name = "Meade"
side = "union"
x = 55
y = 21
"""

UNIT = """
[[units]]
id = "{id}"
name = "{id}"
side = "{side}"
type = "{type}"
stands = {stands}
x = {x}
y = {y}
facing = {facing}
"""

LAYOUT = [("foot", 6), ("foot2", 12), ("cavalry", 18), ("cavalry2", 24)]
LAYOUT += [("artillery", 30), ("artillery2", 36)]

RULES = 'events = ["solo-events"]\nattacker = "confederate"'


def scenario(
    rules: str = RULES, skip: tuple[str, ...] = (), at: dict[str, tuple[float, float]] | None = None
) -> Any:
    """Two of each troop type a side; ``skip`` leaves units out, ``at`` moves them."""
    at = at or {}
    units = []
    for name, y in LAYOUT:
        kind = name.rstrip("2")
        for side, x, facing in (("confederate", 10.0, 0), ("union", 50.0, 180)):
            uid = f"{side[0]}_{name}"
            if uid in skip:
                continue
            ux, uy = at.get(uid, (x, float(y)))
            stands = 2 if kind == "artillery" else 4
            units.append(
                UNIT.format(id=uid, side=side, type=kind, stands=stands, x=ux, y=uy, facing=facing)
            )
    return parse_scenario(HEAD.format(rules=rules) + "".join(units))


def unit(b: Battle, uid: str) -> Any:
    return next(u for u in b.state.units if u.id == uid)


def book(b: Battle) -> dict[str, Any]:
    found: dict[str, Any] = b.state.extra[KEY]
    return found


def start(faces: list[int], scen: Any = None, prepare: Any = None) -> tuple[Battle, Any]:
    """A battle whose first dice are ``faces`` (then 3s), run to its first decision."""
    b = new_battle(scen or scenario(), ScriptedSource([*faces] + [3] * 600), narrate=True)
    if prepare is not None:
        prepare(b)
    return b, b.next_request()


def finish_turn(b: Battle) -> None:
    """Answer every decision (hold where offered) until the next turn's first decision."""
    turn = b.state.turn
    while not b.state.over:
        req = b.next_request()
        if req is None or b.state.turn != turn:
            return
        opts = offered(b, req)
        hold = [c for c in opts if c.kind == "hold"]
        b.apply(req, (hold or opts)[0].order if opts else ("hold",))


def entry(b: Battle) -> dict[str, Any]:
    log = book(b)["log"]
    assert len(log) == 1
    found: dict[str, Any] = log[0]
    return found


def pick(b: Battle, req: Any, uid: str) -> None:
    """The player's answer to a choice: the unit ``uid``."""
    assert req is not None and req.kind == "pick"
    b.apply(req, ("pick", unit(b, uid).i))


# -- the module and its data ----------------------------------------------------------------


def test_module_is_an_events_role_on_any_host() -> None:
    """001 as the events role: id, seed, one role, no needs; it acts at turn start, in a
    side's reaction phase ("occurs during the player's reaction phase") and at turn end."""
    assert (MODULE.id, MODULE.seed, MODULE.provides) == ("solo-events", "001", ("events",))
    assert MODULE.needs("events") == {}
    role = MODULE.role("events", RulesSpec(events=("solo-events",), attacker="union"))
    assert role.points() == ("turn_start", "reaction", "turn_end")
    assert role.step("turn_start").kind == "pick" and role.step("turn_end").kind == ""


def test_every_label_the_mapping_names_is_a_default_or_reading() -> None:
    """Rules-notes 001: the mapping is written down in the module's data, each entry
    labelled; every label id is unique and has text, reason and source."""
    labels = MODULE.defaults()
    ids = [lab.id for lab in labels]
    assert len(ids) == len(set(ids))
    assert all(lab.text and lab.reason and lab.source for lab in labels)
    m = load_mapping()
    used = {e.label for e in m.events.values()} | {lab for _, lab in m.terms.values()}
    assert used <= set(ids)
    assert len(m.events) == 20 and sorted(e.number for e in m.events.values()) == list(range(1, 21))


def test_a_mapping_to_an_unknown_troop_type_names_file_and_line(tmp_path: Path) -> None:
    """Default ``types``: a type an event names must be one of the combat's troop types;
    a copy of the mapping with cavalry -> "zouaves" is refused naming its file and line."""
    text = MAPPING.read_text().replace('cavalry = "cavalry"', 'cavalry = "zouaves"')
    path = tmp_path / "mapping.toml"
    path.write_text(text)
    line = 1 + text.splitlines().index('cavalry = "zouaves"')
    load_mapping(path)  # fine until a combat module is known
    with pytest.raises(DataFileError, match="'zouaves'") as exc:
        load_mapping(path, {"foot", "cavalry", "artillery"})
    assert exc.value.file == str(path) and exc.value.line == line
    assert str(exc.value).startswith(f"{path}:{line}: ")
    # and when the role is bound to a composition (the scenario loads)
    comp = new_battle(scenario(), ScriptedSource([])).comp
    role = SoloEvents(RulesSpec(events=("solo-events",), attacker="union"), path)
    with pytest.raises(DataFileError, match="zouaves"):
        role.bind(comp)


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ("no_act = true", "no_dance = true", "unknown unit effect 'no_dance'"),
        ('label = "stirrups_in"', 'label = "stirrups_out"', "unknown label 'stirrups_out'"),
        ('act = "move_back"', 'act = "wheel"', "unknown act 'wheel'"),
        ("fire_mod = -1", 'fire_mod = "lots"', "bad value 'lots' for 'fire_mod'"),
        ('army_morale_loss = "1d3"', 'army_morale_loss = "d3"', "must be dice such as 1d3"),
    ],
)
def test_bad_mapping_entries_name_their_line(
    tmp_path: Path, old: str, new: str, message: str
) -> None:
    """Bad input in data/mapping.toml (001's events mapped onto the host): one line,
    with the file and the line of the entry."""
    text = MAPPING.read_text()
    assert old in text
    text = text.replace(old, new, 1)
    path = tmp_path / "mapping.toml"
    path.write_text(text)
    with pytest.raises(DataFileError, match=message) as exc:
        load_mapping(path)
    assert exc.value.line is not None and new.split()[0] in text.splitlines()[exc.value.line - 1]


def test_an_unmapped_event_is_refused(tmp_path: Path) -> None:
    """Every one of 001's 20 events must be mapped onto the host."""
    text = MAPPING.read_text()
    text = "\n".join(ln for ln in text.splitlines() if not ln.startswith("whiff_of_grape"))
    path = tmp_path / "mapping.toml"
    path.write_text(text)
    with pytest.raises(DataFileError, match=r"'whiff_of_grape' \(001 event 14\) is not mapped"):
        load_mapping(path)
    assert line_of(text, "events") is not None


def test_the_scenario_must_name_the_attacker() -> None:
    """001 RANDOM EVENTS: 'odd ... the attacker, even ... the defender': a scenario that
    mounts solo-events without [rules] attacker is refused in one line."""
    with pytest.raises(DataFileError, match=r"solo-events needs \[rules\] attacker"):
        scenario(rules='events = ["solo-events"]')


# -- the rolls ------------------------------------------------------------------------------


def test_no_event_on_a_two_to_five() -> None:
    """001 RANDOM EVENTS: only a 1 or a 6 on the first d6 makes an event; one die is rolled."""
    rec = Recorder(ScriptedSource([2, 4, 4, 4] + [3] * 400))
    b = new_battle(scenario(), rec, narrate=True)
    b.next_request()
    assert book(b)["log"] == [] and rec.faces[:1] == [2]
    assert "Random event check (1d6 = 2): no event this turn" in b.lines


def test_the_roll_is_narrated_side_number_and_event() -> None:
    """001 RANDOM EVENTS: the three rolls in the narrative and the log (event 14 for the
    defender, the Union, on a 6 and a 4)."""
    b, _ = start([6, 4, 14])
    assert any(
        ln.startswith("Random event (1d6 = 6): Union (defender, 1d6 = 4): 14 Whiff of Grape — ")
        for ln in b.lines
    )
    pending = book(b)["pending"]
    assert pending["side"] == "union" and pending["event"] == "whiff_of_grape"


def test_one_roll_per_turn_even_if_the_step_is_asked_again() -> None:
    """001: 'At the beginning of each turn': the step's actors roll once per turn."""
    b, _req = start([1, 2, 9])
    step = b.comp.events[0].step("turn_start")
    before = b.roller.position  # type: ignore[attr-defined]
    assert step.actors(b, "confederate") == [0]
    assert b.roller.position == before  # type: ignore[attr-defined]


# -- the 20 events --------------------------------------------------------------------------


def test_event_1_urgent_assistance_the_commander_rides() -> None:
    """001 event 1: the Commander (default ``commander``: Lee, bonus 3, not Hill) moves to
    within 4 BW of the friendly unit furthest from him: c_foot at (10, 6)."""
    b, _ = start([1, 1, 1])
    lee, hill = b.state.leaders[0], b.state.leaders[1]
    assert (hill.x, hill.y) == (6, 40)
    bw = b.comp.combat.bases["foot"][0]
    d0 = math.hypot(10 - 5, 6 - 22)
    assert math.hypot(lee.x - 10, lee.y - 6) == pytest.approx(4 * bw)
    assert math.hypot(lee.x - 5, lee.y - 22) == pytest.approx(d0 - 4 * bw)
    assert "Lee rides" in entry(b)["result"] and entry(b)["unit"] is None


def test_event_1_without_a_commander_has_no_effect() -> None:
    """001 event 1 and reading ``no_effect_not_rerolled``: no leader on the table."""

    def kill_leaders(b: Battle) -> None:
        for ld in b.state.leaders:
            if ld.side == "union":
                ld.alive = False

    b, _ = start([1, 2, 1], prepare=kill_leaders)
    assert entry(b)["result"].startswith("no effect: the Union has no commander")


def test_event_2_anxious_a_random_unit_moves_its_full_move_forward() -> None:
    """001 event 2 (reading ``forward_is_facing``): a d6 over the six Confederate units
    picks c_foot2 (face 2), which moves 6" east, its facing, and has made its move
    (reading ``forced_move_is_its_move``) until the turn ends."""
    b, _ = start([1, 1, 2, 2])
    u = unit(b, "c_foot2")
    assert entry(b)["unit"] == "c_foot2" and entry(b)["die"] == [2, 6]
    rate = b.comp.combat.move_rate(b, u)
    assert (u.x, u.y) == (pytest.approx(10 + rate), pytest.approx(12))
    assert fx(u, "no_move")
    finish_turn(b)
    assert not fx(u, "no_move") and u.x == pytest.approx(10 + rate)


def test_event_3_hesitant() -> None:
    """001 event 3: a random unit may attempt no activity this turn (no_act)."""
    b, _ = start([1, 1, 3, 3])
    u = unit(b, "c_cavalry")
    assert fx(u, "no_act") and entry(b)["chosen"] == "random"
    assert {c.kind for c in b.comp.combat.options(b, Request("move", u.side, u.i, "move"))} <= {
        "hold"
    }
    finish_turn(b)
    assert not fx(u, "no_act")


def test_event_4_retrograde_offers_the_wheel_and_moves_straight_back() -> None:
    """001 event 4: 'One of the player's units (chosen randomly), performs a retrograde
    maneuver to its fullest movement available. The player can perform a retrograde
    wheel, if they so wish.' (reading ``retrograde_wheel``): the Union player is asked;
    straight back is a full move, facing unchanged."""
    b, req = start([1, 2, 4, 1])
    u = unit(b, "u_foot")
    assert req == Request("pick", "union", 0, "solo-events:turn_start")
    opts = offered(b, req)
    assert [c.order for c in opts] == [
        ("retrograde", "back"),
        ("retrograde", "left"),
        ("retrograde", "right"),
    ]
    assert opts[0].text.startswith("Retrograde: u_foot moves straight back")
    assert "wheels back on its left flank" in opts[1].text
    with pytest.raises(IllegalActionError, match="choose one of retrograde back"):
        b.apply(req, ("pick", u.i))
    b.apply(req, ("retrograde", "back"))
    rate = b.comp.combat.move_rate(b, u)
    assert (u.x, u.y) == (pytest.approx(50 + rate), pytest.approx(6))
    assert math.degrees(u.theta) % 360 == pytest.approx(180)
    assert fx(u, "no_move") and entry(b)["wheel"] == "back"
    assert "  Retrograde: the Union moves u_foot straight back" in b.lines
    finish_turn(b)
    assert not fx(u, "no_move")


@pytest.mark.parametrize("flank", ["left", "right"])
def test_event_4_the_player_may_wheel_back(flank: str) -> None:
    """001 event 4: 'The player can perform a retrograde wheel, if they so wish' (reading
    ``retrograde_wheel``): the unit turns about the front corner of one flank while the
    other swings back its full move (a quarter turn at most); it has then made its move.
    u_foot faces west (180 degrees): on its left flank (the south one) its north flank
    swings back east and it turns clockwise seen from above, to face north-west; on its
    right flank, south-west."""
    b, req = start([1, 2, 4, 1])
    u = unit(b, "u_foot")
    x0, y0, hw, hd = u.x, u.y, u.hw, u.hd
    b.apply(req, ("retrograde", flank))
    rate = b.comp.combat.move_rate(b, u)
    turn = min(rate / (2 * hw), math.pi / 2)
    want = math.pi + (-turn if flank == "left" else turn)
    assert math.cos(u.theta - want) == pytest.approx(1.0)
    # the pivot (the flank's front corner) stays where it was
    s = 1.0 if flank == "left" else -1.0
    corner0 = (x0 - hd, y0 - s * hw)  # facing west: front is -x, left is -y
    c, sn = math.cos(u.theta), math.sin(u.theta)
    corner = (u.x + c * hd - s * sn * hw, u.y + sn * hd + s * c * hw)
    assert corner == (pytest.approx(corner0[0]), pytest.approx(corner0[1]))
    assert u.x > x0  # it went back, away from the enemy to the west
    assert fx(u, "no_move") and entry(b)["wheel"] == flank
    assert f"wheels back on its {flank} flank" in entry(b)["result"]
    assert "  Retrograde: the Union wheels u_foot back (a retrograde wheel)" in b.lines


def test_event_4_a_move_off_the_table_is_not_made() -> None:
    """001 event 4 (reading ``forced_moves_at_once``): a full move back that would leave
    the table is not made; the unit stays and the log says why (the player declined the
    wheel)."""
    b, req = start([1, 1, 4, 1], scen=scenario(at={"c_foot": (3.0, 6.0)}))
    if req is not None and book(b)["pending"]:
        b.apply(req, ("retrograde", "back"))
    u = unit(b, "c_foot")
    assert (u.x, u.y) == (3.0, 6.0) and not fx(u, "no_move")
    assert entry(b)["result"].startswith("no effect: a full move back would take c_foot off")


def test_event_2_stops_short_of_contact() -> None:
    """001 event 2: an Anxious unit 4" from the enemy stops before touching it (a move
    into contact is a charge: the host's check refuses it)."""
    scen = scenario(at={"c_foot": (45.0, 6.0)})
    b, _ = start([1, 1, 2, 1], scen=scen)
    u, t = unit(b, "c_foot"), unit(b, "u_foot")
    assert 45.0 < u.x < 50.0 and not b.touching(u)
    assert b.dist(u.i, t.i) > b.geo["contact"]


def said(b: Battle) -> list[tuple[str, str, str]]:
    """Record what the battle says from now on, with the phase (side, step) it is said in."""
    heard: list[tuple[str, str, str]] = []

    class Lines(list[str]):
        def append(self, text: str) -> None:
            ph = b.phase()
            heard.append((ph.side, ph.name, text))
            super().append(text)

    b.lines = Lines(b.lines)
    return heard


def test_event_5_disorganized_in_the_players_reaction_phase() -> None:
    """001 event 5: 'suffers 1DISR ... The disruption occurs during the player's reaction
    phase' (reading ``reaction_phase``; default ``disr_on_host``: seed 002's Morale
    Marker): not at the start of the turn, but at the Confederate reaction point, before
    its defensive fire in the Union half of the turn."""
    b, _ = start([1, 1, 5, 6])
    heard = said(b)
    u = unit(b, "c_artillery2")
    assert not u.marker
    assert entry(b)["result"] == ("c_artillery2: takes one DISR in the Confederate reaction phase")
    finish_turn(b)
    assert u.marker
    line = (
        "confederate",
        "solo-events:reaction",
        "Disorganized (001 event 5), in the Confederate reaction phase: c_artillery2 takes "
        "one DISR (MM)",
    )
    assert line in heard
    names = [ph.name for ph in b.comp.sequence.phases]  # type: ignore[attr-defined]
    sides = [ph.side for ph in b.comp.sequence.phases]  # type: ignore[attr-defined]
    at = [k for k, n in enumerate(names) if n == "solo-events:reaction"]
    assert [sides[k] for k in at] == ["union", "confederate"]
    assert all(names[k + 1] == "defensive_fire" and sides[k + 1] == sides[k] for k in at)
    assert entry(b)["done"] == ["c_artillery2 takes one DISR (MM)"]


def test_event_5_counts_on_the_seed_004_ladder() -> None:
    """001 event 5: 'suffers 1DISR' on the status it is mounted on (default
    ``disr_on_host``): with seed 004's five steps the ladder's Shaken, escalated like any
    effect when the unit was already hit this turn (004 EFFECT: 'a second effect in one
    turn becomes the next worse'); it comes in the Confederate reaction phase."""
    scen = scenario(rules='sequence = "five-step"\n' + RULES)
    b, _ = start([1, 1, 5, 1], scen=scen)
    heard = said(b)
    u = unit(b, "c_foot")
    assert not u.extra.get("status")
    finish_turn(b)
    assert u.extra.get("status") == "shaken"
    assert entry(b)["done"] == ["c_foot takes one DISR (Shaken)"]
    assert any(
        side == "confederate" and name == "solo-events:reaction" and "Disorganized" in text
        for side, name, text in heard
    )

    def hit_this_turn(b: Battle) -> None:
        v = unit(b, "c_foot")
        v.extra.update(status="stop", set=[1, 0], hit=1)

    b, _ = start([1, 1, 5, 1], scen=scen, prepare=hit_this_turn)
    u = unit(b, "c_foot")
    finish_turn(b)
    assert entry(b)["done"] == ["c_foot takes one DISR (Retreated)"]


def test_event_5_not_when_it_would_break_the_unit() -> None:
    """001 event 5: 'unless that would cause the unit to break' (reading
    ``disorganized_no_break``): on seed 004's ladder a Routed unit would stay routed, a
    unit already hit this turn and Retreated would rout; the trial, made in the reaction
    phase, is undone."""
    scen = scenario(rules='sequence = "five-step"\n' + RULES)

    def rout_it(b: Battle) -> None:
        u = unit(b, "c_foot")
        u.extra.update(status="route", set=[1, 0], hit=1)
        u.marker = True

    b, _ = start([1, 1, 5, 1], scen=scen, prepare=rout_it)
    u = unit(b, "c_foot")
    x, y = u.x, u.y
    assert entry(b)["result"] == "c_foot: takes one DISR in the Confederate reaction phase"
    finish_turn(b)
    assert entry(b)["done"][0].startswith("no effect: one more DISR would break c_foot")
    assert u.extra["status"] == "route"
    # a unit with no mark takes Shaken, and the trial leaves the state as it was
    b2 = new_battle(scen, ScriptedSource([3] * 50))
    before = state_hash(b2.state.to_json())
    assert not would_break(b2, unit(b2, "c_foot"))
    assert state_hash(b2.state.to_json()) == before
    assert (x, y) == (10.0, 6.0)


def test_event_6_limited_ammo_and_no_effect_without_artillery() -> None:
    """001 event 6: a random artillery unit may not fire; without artillery the event has
    no effect, logged and not re-rolled (reading ``no_effect_not_rerolled``)."""
    b, _ = start([1, 1, 6, 2])
    u = unit(b, "c_artillery2")
    assert fx(u, "no_fire") and entry(b)["die"] == [2, 2]
    finish_turn(b)
    assert not fx(u, "no_fire")
    rec = Recorder(ScriptedSource([1, 1, 6, 5] + [3] * 400))
    b = new_battle(scenario(skip=("c_artillery", "c_artillery2")), rec, narrate=True)
    b.next_request()
    assert entry(b)["result"] == "no effect: the Confederate has no artillery unit"
    assert entry(b)["unit"] is None and rec.faces == [1, 1, 6]  # no pick, no re-roll


def test_event_7_rough_going() -> None:
    """001 event 7: open ground as rough, rough as impassable, this turn."""
    b, _ = start([1, 1, 7, 1])
    u = unit(b, "c_foot")
    assert fx(u, "terrain") == "harder"
    finish_turn(b)
    assert not fx(u, "terrain")


def test_event_8_bad_aim() -> None:
    """001 event 8: a random artillery unit at -1 to hit, this turn."""
    b, _ = start([1, 2, 8, 1])
    u = unit(b, "u_artillery")
    assert fx(u, "fire_mod") == -1
    finish_turn(b)
    assert not fx(u, "fire_mod")


def test_event_9_valiant_charge_is_the_players_choice_and_adds_to_what_it_had() -> None:
    """001 event 9 (reading ``valiant_charge_all_dice``): the Union player chooses; +1 fire
    and melee this turn, added to the unit's own modifier and given back at turn end
    (reading ``this_turn_only``)."""

    def bonus(b: Battle) -> None:
        b.set_fx(unit(b, "u_foot2"), "fire_mod", 2, "another module's bonus")

    b, req = start([1, 2, 9], prepare=bonus)
    assert req.kind == "pick" and req.side == "union"
    opts = offered(b, req)
    assert len(opts) == 6 and all(c.text.startswith("Valiant Charge: u_") for c in opts)
    pick(b, req, "u_foot2")
    u = unit(b, "u_foot2")
    assert (fx(u, "fire_mod"), fx(u, "melee_mod")) == (3, 1)
    assert entry(b)["chosen"] == "player" and entry(b)["unit"] == "u_foot2"
    finish_turn(b)
    assert (fx(u, "fire_mod"), fx(u, "melee_mod")) == (2, 0)
    assert u.extra["fx_why"]["fire_mod"] == "another module's bonus"


def test_event_10_rally_to_the_flag() -> None:
    """001 event 10: odd d6 adds 1 to army morale, even adds 2 (default ``army_morale``:
    it starts at the number of units, 6)."""
    b, _ = start([1, 1, 10, 4])
    assert book(b)["morale"] == {"confederate": 8, "union": 6}
    b, _ = start([6, 2, 10, 3])
    assert book(b)["morale"] == {"confederate": 6, "union": 7}


def test_event_11_well_disciplined_in_the_reaction_phase() -> None:
    """001 event 11: 'receive a reduction of 1DISR. The reduction occurs during the
    player's reaction phase. The unit cannot try for a separate recovery attempt, during
    this turn' (reading ``well_disciplined``): c_cavalry2 keeps its MM through its own
    rally step (no_rally, though it did not move) and loses it in the Confederate
    reaction phase."""

    def marked(b: Battle) -> None:
        unit(b, "c_cavalry2").marker = True

    b, req = start([1, 1, 11], prepare=marked)
    assert req.side == "confederate"
    pick(b, req, "c_cavalry2")
    heard = said(b)
    u = unit(b, "c_cavalry2")
    assert u.marker and fx(u, "no_rally")
    seen_rally = False
    while b.state.turn == 1:
        req = b.next_request()
        if req is None:
            break
        if b.state.seq > _index(b, "rally", "confederate"):
            seen_rally = True
            if b.state.seq < _index(b, "solo-events:reaction", "confederate"):
                assert u.marker  # its own rally step passed it by
        opts = offered(b, req)
        b.apply(req, next((c.order for c in opts if c.kind == "hold"), ("hold",)))
    assert seen_rally and not u.marker
    assert (
        "confederate",
        "solo-events:reaction",
        "Well Disciplined (001 event 11), in the Confederate reaction phase: c_cavalry2 loses "
        "one DISR",
    ) in heard
    assert not fx(u, "no_rally")


def _index(b: Battle, name: str, side: str) -> int:
    """The position of a phase of the fixed turn (seed 002's sequence)."""
    phases = b.comp.sequence.phases  # type: ignore[attr-defined]
    return next(k for k, ph in enumerate(phases) if ph.name == name and ph.side == side)


@pytest.mark.parametrize(("dice", "rallies"), [((2, 5), True), ((3, 1), False)])
def test_event_12_heroic_rally_two_dice_for_its_recovery_attempt(
    dice: tuple[int, int], rallies: bool
) -> None:
    """001 event 12: 'The player chooses which unit gets to use two dice for a recovery
    attempt, this turn' (reading ``heroic_rally_best_of_two``, default ``recovery`` 4+):
    the unit's recovery attempt is rolled in the Union reaction phase with two dice, the
    better kept; it is its one attempt, not an extra one: its own rally step (it does
    not move) passes it by after a failure."""

    def marked(b: Battle) -> None:
        unit(b, "u_foot").marker = True

    rec = Recorder(ScriptedSource([1, 2, 12, *dice] + [3] * 600))
    b = new_battle(scenario(), rec, narrate=True)
    marked(b)
    req = b.next_request()
    pick(b, req, "u_foot")
    heard = said(b)
    assert rec.faces == [1, 2, 12] and unit(b, "u_foot").marker  # no roll at turn start
    assert fx(unit(b, "u_foot"), "no_rally")
    finish_turn(b)
    assert unit(b, "u_foot").marker is not rallies
    assert rec.faces[3:5] == list(dice)
    result = entry(b)["done"][0]
    assert f"{dice[0]} and {dice[1]}, {max(dice)} kept" in result
    assert any(
        side == "union" and name == "solo-events:reaction" and text.endswith(result)
        for side, name, text in heard
    )


def test_event_13_stirrups_in_only_cavalry() -> None:
    """001 event 13 (reading ``stirrups_in``): the player chooses a cavalry unit; +1 to
    its charge test and melee this turn."""
    b, req = start([6, 2, 13])
    assert {b.state.units[c.order[1]].type for c in offered(b, req)} == {"cavalry"}
    with pytest.raises(IllegalActionError, match="choose one of u_cavalry, u_cavalry2"):
        pick(b, req, "u_foot")
    pick(b, req, "u_cavalry2")
    u = unit(b, "u_cavalry2")
    assert (fx(u, "charge_mod"), fx(u, "melee_mod")) == (1, 1)
    finish_turn(b)
    assert not (fx(u, "charge_mod") or fx(u, "melee_mod"))


def test_event_14_whiff_of_grape() -> None:
    """001 event 14: the player chooses an artillery unit: +1 with canister this turn."""
    b, req = start([1, 1, 14])
    pick(b, req, "c_artillery")
    u = unit(b, "c_artillery")
    assert fx(u, "canister_mod") == 1
    finish_turn(b)
    assert not fx(u, "canister_mod")


def test_event_15_rally_to_the_colours() -> None:
    """001 event 15: the chosen unit's disruption does not cut its dice this turn."""
    b, req = start([1, 2, 15])
    pick(b, req, "u_cavalry")
    u = unit(b, "u_cavalry")
    assert fx(u, "ignore_disruption") == 1
    finish_turn(b)
    assert not fx(u, "ignore_disruption")


def test_event_16_deadly_fire_only_infantry() -> None:
    """001 event 16 (default ``types``: infantry is foot): +1 to its reaction fire."""
    b, req = start([1, 1, 16])
    assert [b.state.units[c.order[1]].id for c in offered(b, req)] == ["c_foot", "c_foot2"]
    pick(b, req, "c_foot2")
    u = unit(b, "c_foot2")
    assert fx(u, "reaction_fire_mod") == 1
    finish_turn(b)
    assert not fx(u, "reaction_fire_mod")


def test_event_17_thick_smoke_a_random_infantry_unit() -> None:
    """001 event 17: a random infantry unit (d2 over the foot) at -1 in reaction fire,
    this turn only (rules-notes 001)."""
    b, _ = start([1, 2, 17, 2])
    u = unit(b, "u_foot2")
    assert fx(u, "reaction_fire_mod") == -1 and entry(b)["die"] == [2, 2]
    finish_turn(b)
    assert not fx(u, "reaction_fire_mod")


def test_event_18_find_the_way() -> None:
    """001 event 18: the chosen unit treats rough ground as open this turn."""
    b, req = start([1, 1, 18])
    pick(b, req, "c_cavalry")
    u = unit(b, "c_cavalry")
    assert fx(u, "terrain") == "easier"
    finish_turn(b)
    assert not fx(u, "terrain")


def test_event_19_hold_the_line_in_fire_and_melee() -> None:
    """001 event 19: 'The player chooses which infantry unit will receive an extra die
    roll during combat, for this turn' (reading ``hold_the_line_fire_and_melee``): on
    seed 002, +1 to its fire (in the menu's odds and the roll's trace, with its cause
    said) and one more stand in its melee."""
    from umpire.rules.quick_acw import losses as LO

    scen = scenario(at={"u_foot": (14.0, 6.0)})
    b, req = start([1, 2, 19], scen=scen)
    pick(b, req, "u_foot")
    u = unit(b, "u_foot")
    assert fx(u, "extra_die") == 1
    fire = [m for m in LO.effect_mods(u, "fire", b.r) if m.id == "extra_die"]
    melee = [m for m in LO.effect_mods(u, "melee", b.r) if m.id == "extra_die"]
    assert [m.value for m in fire] == [1] and [m.value for m in melee] == [1]
    fired = False
    while b.state.turn == 1 and not fired:
        req = b.next_request()
        assert req is not None
        opts = offered(b, req)
        if req.kind == "fire" and req.actor == u.i:
            shot = next(c for c in opts if c.kind == "fire")
            assert "(+" in shot.text
            b.apply(req, shot.order)
            fired = True
        else:
            b.apply(req, next((c.order for c in opts if c.kind == "hold"), ("hold",)))
    assert "  u_foot: +1 to its fire (Hold the Line (001 event 19))" in b.lines
    finish_turn(b)
    assert not fx(u, "extra_die")


def test_event_20_impetuous_needs_a_legal_charge() -> None:
    """001 event 20 (reading ``impetuous_must_charge``): with no unit in charge range it
    has no effect; a unit 3" from the enemy must charge: the combat offers it only
    charges and refuses a hold; it charges in its activity phase, which meets the
    obligation (said in the narrative)."""
    b, _ = start([1, 1, 20])
    assert entry(b)["result"] == "no effect: the Confederate has no unit with a legal charge"
    b, req = start([1, 1, 20], scen=scenario(at={"c_foot": (45.0, 6.0)}))
    u = unit(b, "c_foot")
    assert entry(b)["unit"] == "c_foot" and entry(b)["chosen"] == "only"
    assert fx(u, "must_charge")
    kinds = {c.kind for c in b.comp.combat.options(b, Request("move", u.side, u.i, "move"))}
    assert kinds == {"charge"}
    while req is not None and not (req.kind == "move" and req.actor == u.i):
        b.apply(req, ("hold",))
        req = b.next_request()
    assert req is not None
    with pytest.raises(IllegalActionError, match="must charge this turn"):
        b.apply(req, ("hold",))
    before = state_hash(b.state.to_json())
    with pytest.raises(IllegalActionError, match="cannot reach"):
        b.apply(req, ("charge", unit(b, "u_artillery2").i))  # refused, nothing changes
    assert state_hash(b.state.to_json()) == before and fx(u, "must_charge")
    b.apply(req, ("charge", unit(b, "u_foot").i))
    assert "c_foot must charge (Impetuous (001 event 20))" in b.lines
    assert not fx(u, "must_charge")
    finish_turn(b)
    assert not fx(u, "must_charge")


def test_event_20_impetuous_counter_charges_in_its_reaction_phase() -> None:
    """001 event 20: 'performs a charge, during its activity phase, or a counter charge
    during its reaction phase, which ever is applicable' (reading
    ``impetuous_must_charge``): the Union moves second, so its reaction phase (before its
    defensive fire in the Confederate half) comes first: u_foot, 3" from c_foot, must
    counter-charge there; its player picks the target, a hold is refused; the melee is
    fought in that half; its own activity phase is then free."""
    scen = scenario(at={"u_foot": (13.0, 6.0)})
    b, req = start([1, 2, 20, 6, 6, 6, 6], scen=scen)  # the charge and stand tests pass
    u, t = unit(b, "u_foot"), unit(b, "c_foot")
    assert entry(b)["unit"] == "u_foot" and fx(u, "must_charge")
    heard = said(b)
    while req is not None and req.step != "solo-events:reaction":
        opts = offered(b, req)
        b.apply(req, next((c.order for c in opts if c.kind == "hold"), ("hold",)))
        req = b.next_request()
    assert req == Request("pick", "union", u.i, "solo-events:reaction")
    opts = offered(b, req)
    assert opts and all(c.kind == "charge" for c in opts)
    assert opts[0].text.startswith("Impetuous: u_foot counter-charges: ")
    with pytest.raises(IllegalActionError, match="must counter-charge"):
        b.apply(req, ("hold",))
    b.apply(req, ("charge", t.i))
    assert not fx(u, "must_charge")
    assert (
        "union",
        "solo-events:reaction",
        "u_foot counter-charges in the Union reaction phase (Impetuous (001 event 20))",
    ) in heard
    assert "u_foot charges c_foot" in b.lines
    assert entry(b)["done"] == ["u_foot counter-charges c_foot"]
    finish_turn(b)
    assert any(
        side == "confederate" and name == "melee" and text.startswith("Melee u_foot ")
        for side, name, text in heard
    )


# -- decisions: who chooses, and how ---------------------------------------------------------


def test_the_player_choice_goes_to_the_affected_side_for_every_policy() -> None:
    """001: 'The player chooses' is a decision of the side the event affects (event 19
    for the defender): the random policy and a human at the menu answer it."""
    b, req = start([1, 2, 19])
    assert req == Request("pick", "union", 0, "solo-events:turn_start")
    order = make_policy("random", 1).decide(b, req)
    assert order[0] == "pick" and b.state.units[order[1]].id in ("u_foot", "u_foot2")
    shown: list[str] = []
    prompts: list[str] = []

    def ask(prompt: str) -> str:
        prompts.append(prompt)
        return "2"

    human = HumanPolicy(ask=ask, show=shown.append, retry=False)
    order = human.decide(b, req)
    assert order == ("pick", unit(b, "u_foot2").i)
    assert prompts[0].startswith("union solo-events:turn_start [1-2]")
    assert any("Hold the Line: u_foot2 (foot, 4 stands" in ln for ln in shown)
    b.apply(req, order)
    assert fx(unit(b, "u_foot2"), "extra_die") == 1


def test_the_ai_prefers_a_marked_unit_for_a_recovery() -> None:
    """001 event 11 with default ``ai_preference``: the AI gives Well Disciplined to the
    unit with a marker."""

    def marked(b: Battle) -> None:
        unit(b, "u_artillery2").marker = True

    b, req = start([1, 2, 11], prepare=marked)
    order = make_policy("ai", 0).decide(b, req)
    assert b.state.units[order[1]].id == "u_artillery2"


def test_a_choice_from_the_wrong_side_or_not_a_unit_is_refused() -> None:
    """001: only the affected player chooses, and only among the offered units; a refused
    answer changes nothing."""
    b, req = start([1, 2, 14])
    step = b.comp.events[0].step("turn_start")
    before = state_hash(b.state.to_json())
    with pytest.raises(IllegalActionError, match="the Union chooses, not the Confederate"):
        step.apply(b, "confederate", 0, ("pick", unit(b, "u_artillery").i))
    with pytest.raises(IllegalActionError, match="choose one of u_artillery, u_artillery2"):
        b.apply(req, ("hold",))
    with pytest.raises(IllegalActionError, match=r'a pick order is \["pick", unit\]'):
        b.apply(req, ("pick", "x"))  # issue 25: a malformed order is refused in one line
    assert state_hash(b.state.to_json()) == before


def test_the_random_pick_is_a_logged_die() -> None:
    """Default ``random_pick``: 'chosen randomly' is a d{n} over the eligible units in
    scenario order, recorded with the game's dice and in the log and narrative."""
    rec = Recorder(ScriptedSource([6, 1, 3, 5] + [3] * 400))
    b = new_battle(scenario(), rec, narrate=True)
    b.next_request()
    assert rec.faces[:4] == [6, 1, 3, 5]
    assert entry(b)["die"] == [5, 6] and entry(b)["unit"] == "c_artillery"
    assert "  Hesitant: c_artillery, number 5 of the 6 eligible units, picked at random" in b.lines


# -- army morale ------------------------------------------------------------------------------


def test_a_removed_unit_costs_army_morale_and_a_spent_army_quits() -> None:
    """Default ``army_morale``: each unit removed costs 1d3 at the end of the turn; at zero
    the army quits and the other side wins."""

    def weak(b: Battle) -> None:
        b.next_request()
        book(b)["morale"]["union"] = 2
        u = unit(b, "u_cavalry2")
        u.alive = False
        b.changed(u)

    b = new_battle(scenario(), ScriptedSource([2] + [3] * 600), narrate=True)
    weak(b)
    finish_turn(b)
    assert b.state.over and b.state.winner == "confederate"
    assert book(b)["morale"]["union"] == 2 - 3 and book(b)["counted"] == ["u_cavalry2"]
    assert any("army quits the field; the Confederate wins" in ln for ln in b.lines)


# -- whole battles ------------------------------------------------------------------------------


def mcpherson(rules: str = RULES) -> Any:
    text = (SHIPPED / "mcpherson_ridge.toml").read_text(encoding="utf-8")
    return parse_scenario(text.replace('rules = "quick_acw"', f"[rules]\n{rules}", 1))


@pytest.mark.parametrize("kind", ["random", "ai"])
def test_battles_with_events_end_and_replay_identically(kind: str) -> None:
    """Conformance: 15 seeded battles of quick-acw + solo-events (McPherson's Ridge) per
    policy end, and replay from their faces and orders to the identical state."""
    scen = mcpherson()
    events = picks = 0
    for seed in range(15):
        pols = {"union": make_policy(kind, seed), "confederate": make_policy(kind, seed + 100)}
        res = play(scen, seed, pols)
        assert res.state["over"] and res.winner in ("union", "confederate", "draw")
        again = replay(scen, res.faces, res.orders)
        assert state_hash(again.state.to_json()) == state_hash(res.state), seed
        events += len(res.state["extra"][KEY]["log"])
        picks += sum(1 for o in res.orders if o[1] == "pick")
    assert events >= 15 and picks >= 1  # the events were exercised


def test_a_saved_game_with_events_verifies(tmp_path: Path) -> None:
    """Conformance: a battle with events on the saved-game path (a player's choice
    included) exports and verifies, and reaches the fast path's state."""
    from umpire.battle.game import play_game
    from umpire.store import verify_export
    from umpire.store.sqlite import Store

    scen = mcpherson()

    def pols(seed: int) -> dict[str, Any]:
        return {"union": make_policy("ai", seed), "confederate": make_policy("random", seed)}

    seed = next(s for s in range(40) if any(o[1] == "pick" for o in play(scen, s, pols(s)).orders))
    fast = play(scen, seed, pols(seed))
    game = play_game(scen, seed, pols(seed))
    assert state_hash(game.state["battle"]) == state_hash(fast.state)
    store = Store(tmp_path / "solo.db")
    store.create("solo", game)
    report = verify_export(store.export("solo"))
    assert report.actions == len(game.actions) and report.rolls_checked


# -- invariants (umpire.battle.invariants) -------------------------------------------------------


def _violations(
    b: Battle, side: str, name: str, kind: str, actor: Any, order: Any, act: Any
) -> set[str]:
    """The solo-events invariants broken by one step that does ``act`` (watched by hand)."""
    from umpire.battle.invariants import Watch

    w = Watch(b.comp)
    w.begin(b)
    act()
    w.end(b, side, name, kind, actor, order)
    return {v.invariant for v in w.violations if v.invariant.startswith("solo-events:")}


def test_invariants_hold_the_rulings_and_catch_a_wrong_one() -> None:
    """The module's invariants, each a sentence of seed 001, find a step that breaks it:
    event 5's DISR done outside its player's reaction phase, event 11's separate recovery
    in the host's rally, event 20's hold when a charge was due, event 19's fire not said,
    and an event's effect outliving its turn."""
    from umpire.rules.solo_events.invariants import invariants

    names = {inv.id for inv in invariants(start([2])[0].comp)}
    assert names == {
        "reaction-phase",
        "no-separate-recovery",
        "impetuous",
        "effects-said",
        "this-turn-only",
    }
    # 001 event 5 'The disruption occurs during the player's reaction phase'
    b, _ = start([1, 1, 5, 6])
    role = b.comp.events[0]
    due = book(b)["due"].pop()
    found = _violations(
        b, "confederate", "x", "", None, None, lambda: role.carry_out_due(b, due, "now")
    )
    assert found == {"solo-events:reaction-phase"}
    # 001 event 11 'The unit cannot try for a separate recovery attempt, during this turn'
    b, req = start([1, 1, 11], prepare=lambda b: setattr(unit(b, "c_foot"), "marker", True))
    pick(b, req, "c_foot")
    u = unit(b, "c_foot")
    found = _violations(
        b, "confederate", "rally", "", None, None, lambda: setattr(u, "marker", False)
    )
    assert found == {"solo-events:no-separate-recovery"}
    # 001 event 20 'performs a charge, during its activity phase'
    b, _ = start([1, 1, 20], scen=scenario(at={"c_foot": (45.0, 6.0)}))
    u = unit(b, "c_foot")
    found = _violations(b, "confederate", "move", "move", u.i, ("hold",), lambda: None)
    assert found == {"solo-events:impetuous"}
    # 001 event 19 'an extra die roll during combat', said where it takes hold
    b, req = start([1, 2, 19], scen=scenario(at={"u_foot": (14.0, 6.0)}))
    pick(b, req, "u_foot")
    u, t = unit(b, "u_foot"), unit(b, "c_foot")
    found = _violations(b, "union", "defensive_fire", "fire", u.i, ("fire", t.i), lambda: None)
    assert found == {"solo-events:effects-said"}
    # 'for this turn': an event's effect the module does not hold for this turn
    b, _ = start([2])
    u = unit(b, "c_foot")
    found = _violations(
        b,
        "confederate",
        "x",
        "",
        None,
        None,
        lambda: b.set_fx(u, "fire_mod", 1, "Valiant Charge (001 event 9)"),
    )
    assert found == {"solo-events:this-turn-only"}
