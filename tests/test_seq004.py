"""Seed 004: the status ladder, the five-step sequence and the card draw.

Each test names the seed 004 section it serves: "III. SEQUENCE OF ACTION", "RANDOM
MOVEMENT", "EFFECT"; rules-notes 004 for the defaults and readings.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from umpire.ai import make_policy
from umpire.battle.compose import CompositionError, compose
from umpire.battle.effects import fx
from umpire.battle.game import play_game
from umpire.battle.roles import RulesSpec
from umpire.battle.run import new_battle, play
from umpire.battle.scenario import parse_scenario
from umpire.dice import ScriptedSource, SeededSource
from umpire.errors import DataFileError
from umpire.rules.sequence_cards.ladder import effect_for_margin, escalate
from umpire.scenarios import SHIPPED
from umpire.store.sqlite import Store

RUNGS = ("stop", "shaken", "retreat", "lose", "route")

# Hand-derived from seed 004 EFFECT and rules-notes 004 (reading "escalation"): for each
# prior status, the result of each incoming effect (stop, shaken, retreat, lose, route).
FIRST_THIS_TURN = {
    "": "stop shaken retreat lose route",
    "stop": "stop shaken retreat lose route",
    "shaken": "shaken shaken retreat lose route",
    # "a unit that has already been forced to Retreat or Rout ... next worse than its status"
    "retreat": "lose lose lose route route",
    "lose": "route route route route route",
    "route": "route route route route route",
}
AGAIN_THIS_TURN = {
    # "a unit effected twice in the same turn suffers the next worse effect"
    "": "shaken retreat lose route route",
    "stop": "shaken retreat lose route route",
    "shaken": "retreat retreat lose route route",  # "Shaken" + "Stop" = "Retreat"
    "retreat": "lose lose lose route route",
    "lose": "route route route route route",
    "route": "route route route route route",
}


@pytest.mark.parametrize("again", [False, True])
@pytest.mark.parametrize("prior", ["", *RUNGS])
def test_escalation_ladder_exhaustively(prior: str, again: bool) -> None:
    """Seed 004 EFFECT: every prior status x every effect x first or second in the turn."""
    table = AGAIN_THIS_TURN if again else FIRST_THIS_TURN
    want = table[prior].split()
    got = [escalate(prior, incoming, again) for incoming in RUNGS]
    assert got == want


@pytest.mark.parametrize(
    ("margin", "effect"),
    [
        *[(0, "stop"), (1, "stop"), (2, "shaken"), (3, "shaken"), (4, "retreat")],
        *[(5, "retreat"), (6, "lose"), (7, "lose"), (8, "route"), (15, "route")],
    ],
)
def test_fire_margin_bands(margin: int, effect: str) -> None:
    """Rules-notes 004 default: 0-1 Stop, 2-3 Shaken, 4-5 Retreat, 6-7 Lose, 8+ Route."""
    assert effect_for_margin(margin) == effect


def test_a_bad_ladder_file_names_the_file(tmp_path: Path) -> None:
    from umpire.rules.sequence_cards.ladder import DATA, load

    text = (DATA / "rules.toml").read_text().replace('[8, "route"]', '[8, "panic"]')
    path = tmp_path / "rules.toml"
    path.write_text(text)
    with pytest.raises(DataFileError, match=r"rules.toml.*unknown status 'panic'"):
        load(path)


BASE = (SHIPPED / "mcpherson_ridge.toml").read_text(encoding="utf-8")

DUEL = """name = "Duel"
[rules]
sequence = "{sequence}"
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
stands = 6
x = 20
y = 20
facing = 0
{extra_c}
[[units]]
id = "u1"
name = "2nd WI"
side = "union"
type = "foot"
stands = 6
x = 24
y = 20
facing = 180
{extra_u}
"""


def duel(sequence: str = "five-step", extra_c: str = "", extra_u: str = ""):  # type: ignore[no-untyped-def]
    return parse_scenario(DUEL.format(sequence=sequence, extra_c=extra_c, extra_u=extra_u))


def test_effects_happen_at_once_and_the_marker_follows_the_ladder() -> None:
    """EFFECT + rules-notes 004: Retreat moves a full move back, Lose costs a stand first,
    Route turns away and stops fire; Shaken or worse counts as the host's Morale Marker."""
    b = new_battle(duel(), ScriptedSource([]))
    c, u = b.state.units
    st = b.status
    st.on_hit(b, c, 0, 1, "fire")
    assert st.label(c) == "Stop" and not c.marker and st.move_limit(b, c) == "none"
    x0 = c.x
    b.state.turn += 1  # a new turn: no escalation from the Stop
    st.on_hit(b, c, 4, 1, "fire")  # Retreat: 6" back from the Union unit (it is to the east)
    assert st.label(c) == "Retreated" and c.marker
    assert c.x == pytest.approx(x0 - 6.0) and c.stands == 6
    b.state.turn += 1
    st.on_hit(b, c, 6, 1, "fire")  # first this turn, but Retreated already: next worse, Route
    assert st.label(c) == "Routed" and not st.may_fire(b, c)
    assert abs(abs(c.theta) - 3.14159) < 0.01  # faces away from the enemy (west)
    b.state.turn += 1
    u.extra.clear()
    st.on_hit(b, u, 6, 1, "fire")  # Lose: a stand, then the retreat
    assert u.stands == 5 and st.label(u) == "Retreated"


def five_step_names(scen):  # type: ignore[no-untyped-def]
    b = new_battle(scen, ScriptedSource([]))
    out = []
    seq = 0
    while (ph := b.comp.sequence.at(b, seq)) is not None:
        out.append((ph.side, ph.name))
        seq += 1
    return out


def test_five_steps_side_a_then_side_b() -> None:
    """III: artillery (not canister), other fire, move, the other side's defensive and
    pass-through fire, melee; for side A (the scenario's first), then side B."""
    phases = five_step_names(duel())
    steps = [n for _, n in phases if n not in ("after_fire", "mark_start", "crossing", "turn_end")]
    half = ["artillery_fire", "other_fire", "command", "move", "rally", "defensive_fire", "melee"]
    assert steps == half + half
    sides = [s for s, n in phases if n in half]
    u, c = "union", "confederate"
    assert sides == [u, u, u, u, u, c, u, c, c, c, c, c, u, c]


def test_defensive_fire_only_at_chargers_and_crossers_and_bars_the_next_fire() -> None:
    """III step 4: 'defensive fire at charging units ... units which have passed thru the
    field of fire'; 'cannot fire again in their following step 1 or 2'."""
    from umpire.rules.quick_acw.steps import FireStep

    b = new_battle(duel(), ScriptedSource([]))
    c, u = b.state.units
    step4 = FireStep(targets="chargers", mark="fired_defensive", mode="defensive")
    assert FireStep().shots(b, u, exact=True), "in range: ordinary fire may target it"
    assert step4.shots(b, u, exact=True) == []  # neither charged nor crossed
    c.extra["crossed"] = [u.i]
    assert [t for t, *_ in step4.shots(b, u, exact=True)] == [c.i]
    b.roller = ScriptedSource([6, 6])
    step4.apply(b, "union", u.i, ("fire", c.i))
    assert fx(u, "fired_defensive") == b.state.turn
    step1 = FireStep(units="artillery", blocked_by="fired_defensive", mark="fired")
    step2 = FireStep(units="other", blocked_by="fired_defensive", mark="fired")
    assert step2.shots(b, u, exact=True) == [] and step1.shots(b, u, exact=True) == []
    from umpire.rules.sequence_cards.sequence import after_fire

    after_fire(b, "union")  # after its steps 1-2 the bar is gone
    assert not fx(u, "fired_defensive")
    b.place(c, 20.0, 20.0, 0.0)  # the target back where it stood (the hit drove it off)
    c.extra.clear()
    c.marker = False
    assert step2.shots(b, u, exact=True)


def test_pass_through_marks_the_fields_crossed() -> None:
    """III step 4 / reading pass_through: a move across an enemy's front arc and range."""
    from umpire.rules.sequence_cards.sequence import crossing, mark_start

    extra_c = ""
    b = new_battle(duel(extra_c=extra_c), ScriptedSource([]))
    c, u = b.state.units
    u.x, u.y, u.theta = 30.0, 10.0, 1.5708  # faces north, 6" range for foot
    b.dirty()
    mark_start(b, "confederate")
    b.place(c, 40.0, 14.0)  # path from (20, 20) passes (30, 16.5): 6.5" in front of u
    crossing(b, "confederate", 0.5)
    assert c.extra.get("crossed") == [u.i]
    mark_start(b, "confederate")
    b.place(c, 40.0, 30.0)  # beside u's front arc, then beyond its range
    crossing(b, "confederate", 0.5)
    assert "crossed" not in c.extra


def test_rifles_fire_or_move_not_both() -> None:
    """III: 'British Rifle units can either fire or move in a given turn ... not both'."""
    from umpire.rules.sequence_cards.sequence import after_fire, crossing, mark_start

    b = new_battle(duel(extra_u="rifles = true"), ScriptedSource([]))
    u = b.state.units[1]
    b.set_fx(u, "fired", b.state.turn)
    after_fire(b, "union")
    assert fx(u, "no_move")
    # the other: a rifle unit that moved may not fire
    b2 = new_battle(duel(extra_c="rifles = true"), ScriptedSource([]))
    c2 = b2.state.units[0]
    mark_start(b2, "confederate")
    b2.place(c2, 18.0, 20.0)
    crossing(b2, "confederate", 0.5)
    assert fx(c2, "no_fire")


def test_card_draw_refuses_the_quick_acw_marker() -> None:
    """RANDOM MOVEMENT / EFFECT: card draws need the Retreated and Routed markers."""
    with pytest.raises(CompositionError, match=r"card-draw.*quick-acw.*status ladder"):
        compose(RulesSpec(sequence="card-draw", status="quick-acw"))


def card_scen(cards: str = "brigade"):  # type: ignore[no-untyped-def]
    return parse_scenario(
        BASE.replace(
            'rules = "quick_acw"', f'[rules]\nsequence = "card-draw"\ncards = "{cards}"', 1
        )
    )


def test_every_card_once_a_turn_drawers_alternate_and_phases_keep_to_the_card() -> None:
    """RANDOM MOVEMENT: 'Side A draws one card ... The side that did not move now draws';
    rules-notes 004: without replacement, all cards back next turn; only its units act."""
    scen = card_scen()
    pols = {"union": make_policy("ai", 1), "confederate": make_policy("random", 2)}
    b = new_battle(scen, SeededSource(11))
    turn_cards: dict[int, list[str]] = {}
    last_card = ""
    while (req := b.next_request()) is not None:
        deck = b.state.extra["cards"]
        if deck["card"] != last_card:
            last_card = deck["card"]
            turn_cards.setdefault(b.state.turn, []).append(last_card)
        ph = b.phase()
        if ph.units is not None:  # a card's own steps ask only its units (or leaders)
            if req.kind == "leader":
                assert any(b.state.units[i].leader == req.actor for i in ph.units)
            else:
                assert req.actor in ph.units
        b.apply(req, pols[req.side].decide(b, req))
        if b.state.turn > 3:
            break
    from umpire.rules.sequence_cards.sequence import cards_of

    all_cards = set(cards_of(scen, "brigade"))
    assert len(all_cards) == 10  # 4 brigades, 3 batteries, 3 cavalry regiments (004-RM-1)
    for turn in (1, 2):
        # the cards whose units act get asked; every card drawn at most once a turn
        assert len(turn_cards[turn]) == len(set(turn_cards[turn]))
    # the drawer after a card is the side whose units did not act
    b2 = new_battle(scen, SeededSource(3), narrate=True)
    b2.next_request()
    draws = [ln for ln in b2.lines if "draws:" in ln]
    assert draws[0].startswith("Confederate draws:")  # side A (default: Confederates)


def test_the_deck_order_is_nowhere_before_the_draw(tmp_path: Path) -> None:
    """RANDOM MOVEMENT 'without looking': the state, the log and an export hold only the
    sorted cards left; the next card comes from a die not yet rolled."""
    scen = card_scen()
    pols = {"union": make_policy("ai", 1), "confederate": make_policy("ai", 2)}
    game = play_game(scen, 21, pols, max_actions=6)
    deck = game.state["battle"]["extra"]["cards"]
    assert deck["deck"] == sorted(deck["deck"])
    store = Store(tmp_path / "d.db")
    store.create("d", game)
    decks = list(find_decks(store.export("d")))
    assert decks, "the export holds the box as it was after each action"
    assert all(d == sorted(d) for d in decks)
    # two seeds, two orders: the order is made by the dice at each draw
    orders = []
    for seed in (1, 2):
        b = new_battle(scen, SeededSource(seed), narrate=True)
        for _ in range(400):
            req = b.next_request()
            if req is None or b.state.turn > 1:
                break
            b.apply(req, ("hold",))
        orders.append([ln for ln in b.lines if "draws:" in ln])
    assert orders[0] != orders[1]


def find_decks(obj: object):  # type: ignore[no-untyped-def]
    """Every list stored under a "deck" key anywhere in a JSON value."""
    if isinstance(obj, dict):
        for k, v in obj.items():
            if k == "deck" and isinstance(v, list):
                yield v
            else:
                yield from find_decks(v)
    elif isinstance(obj, list):
        for v in obj:
            yield from find_decks(v)


@pytest.mark.parametrize("sequence", ["five-step", "card-draw"])
def test_battles_end_and_markers_match_the_ladder(sequence: str) -> None:
    """Seeded battles end; a unit on the table has the Morale Marker iff Shaken or worse."""
    scen = parse_scenario(
        BASE.replace('rules = "quick_acw"', f'[rules]\nsequence = "{sequence}"', 1)
    )
    for seed in range(3):
        pols = {"union": make_policy("ai", seed), "confederate": make_policy("random", seed)}
        res = play(scen, seed, pols)
        assert res.winner in ("union", "confederate", "draw")
        b = new_battle(scen, SeededSource(0))
        b.state.load_json(res.state)
        for u in b.state.units:
            if not u.alive:
                continue
            status = u.extra.get("status", "")
            assert u.marker == (status in ("shaken", "retreat", "lose", "route"))
