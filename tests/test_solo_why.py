"""Issue 23 'Every menu entry can say why (`?` or `why N`)': on every shipped scenario each
entry of every menu a player is shown has a reason beyond its own words, in the rules'
terms: seed 002's leaders (COMMAND, LEADERS), holding and a Morale Marker's turn about
or rout (Move, Rally), a charge's tests and melee (the charge paragraph, MORALE, MELEE);
seed 001's event picks (RANDOM EVENTS, event 20 Impetuous)."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from umpire.ai import make_policy
from umpire.battle import orders as od
from umpire.battle.engine import Battle, Order, Request
from umpire.battle.roles import explain, offered
from umpire.battle.run import play
from umpire.battle.scenario import load_scenario
from umpire.scenarios import shipped


class Asking:
    """The normal AI, asking `why` of every entry of every menu it is shown first."""

    def __init__(self, seed: int, found: dict[tuple[str, str], list[list[str]]]):
        self.inner = make_policy("normal", seed)
        self.kind = self.inner.kind
        self.found = found

    def decide(self, b: Battle, req: Request) -> Order:
        for c in offered(b, req):
            o = od.as_order(c.order)
            # fire has three records by length (FireAt, FireRound, Fire): one key for all
            key = (req.kind, "Fire" if o.kind == "fire" else type(o).__name__)
            self.found.setdefault(key, []).append(explain(b, req, c))
        order: Order = self.inner.decide(b, req)
        return order


def _whys(name: str, seeds: range) -> dict[tuple[str, str], list[list[str]]]:
    found: dict[tuple[str, str], list[list[str]]] = {}
    scen = load_scenario(name)
    for s in seeds:
        play(scen, s, {side: Asking(s, found) for side in ("union", "confederate")})
    return found


@pytest.mark.parametrize("name", sorted(shipped()))
def test_every_entry_of_every_menu_says_why_issue_23(name: str) -> None:
    """Issue 23: 'Every menu entry can say why': each entry's `why` has at least one line of
    reason after the entry's own words (a leader's join, a plain hold, a Morale Marker's
    turn about and rout, an event's pick were bare)."""
    found = _whys(name, range(1))
    bare = Counter(key for key, whys in found.items() for w in whys if len(w) < 2)
    assert not bare, bare


def test_seed_002_leader_hold_rally_and_charge_say_why() -> None:
    """Seed 002 COMMAND ('all troops must be within Leader Radius to move full, otherwise
    1/2 move'), Leaders (24", half speed), MORALE ('Attached leaders add bonus'), Move
    ('units with Morale Markers (MM) may either 1) not move except to turn around 180
    degrees, or 2) make a Rout move of up to 12"'), Rally, the charge paragraph and
    MELEE, FIRE ('Mounted cavalry can't fire. You can't shoot through friendly troops. If you
    can't see it you can't shoot it'): the words `why` gives on `mcpherson_ridge`."""
    found = _whys("mcpherson_ridge", range(2))
    said = {key: "\n".join("\n".join(w) for w in whys) for key, whys in found.items()}
    lead = said[("leader", "Leader")]
    assert 'may ride 24" in the open, x0.5 through rough ground (002 MOVEMENT, Leaders)' in lead
    assert 'within his 6" radius after the Command step move at full rate' in lead
    assert "(one of his units) he adds +2 to its charge, stand and melee rolls" in lead
    assert "he is lost on a 5-6 (002 MORALE, MELEE, LEADERS)" in lead
    assert "it stays where it is, as it faces" in said[("move", "Hold")]
    # 002 MOVEMENT's ROUGH column on the entry's own path (default rough_terrain): why an
    # "advance half a move 1.5"" of a unit that 'may move 3" in the open' stops there
    moves = said[("move", "Move")]
    assert re.search(
        r'may move 3" in the open: .*\n  its path touches rough ground: the whole move goes '
        r'at the rough rate, 1\.5" \(the rough column, 002 MOVEMENT; default rough_terrain\)',
        moves,
    )
    assert "its path is open ground: the open rate (002 MOVEMENT)" in moves
    assert "rough ground on the way" not in moves
    hold_fire = said[("fire", "Hold")]  # 002 FIRE: 'Mounted cavalry can't fire. ...'
    assert "in sight and not through friendly troops; mounted cavalry and limbered" in hold_fire
    assert "(default engaged_no_fire)" in hold_fire
    turn, rout = said[("move", "Turn")], said[("move", "Rout")]
    assert "with a Morale Marker it may only turn about (180 degrees) or rout" in turn
    assert "so it rallies: its marker is removed at the Rally step" in turn
    assert 'a rout: up to 12" directly away from the nearest enemy' in rout
    charge = said[("move", "Charge")]
    assert re.search(r"the charge test \(002 MORALE\): [78]\+ on 2d6, [+-]\d", charge)
    assert "failed, it goes half way and takes a Morale Marker" in charge
    assert "melee (002 MELEE), 2d6 each:" in charge and "stands fighting +" in charge
    assert "not yet known: the dice of the tests and the melee" in charge


def test_seed_001_event_picks_say_why() -> None:
    """Seed 001 RANDOM EVENTS ('The player chooses which unit will ...') and event 20
    (Impetuous, 'a counter charge during its reaction phase'): an event's pick names the
    event, its text and who chooses; a forced counter-charge says why it must charge and
    then the charge's own why (seed 002's tests and melee)."""
    found = _whys("mcpherson_cards", range(3))
    picks = ["\n".join(w) for w in found[("pick", "Pick")]]
    assert any("(001 event 18): one unit treats rough terrain as open" in p for p in picks)
    assert all("player chooses (001: 'the player chooses')" in p for p in picks)
    # 001 events 7 and 18 (Rough Going, Find the Way) change the going on the entry's path
    said = ["\n".join(w) for w in found[("move", "Move")]]
    assert any("Rough Going (001 event 7) this turn: open counts as rough" in w for w in said)
    assert any(
        "Find the Way (001 event 18) this turn: rough as open\n  so the open" in w for w in said
    )
    # seed 004 status ladder (default ladder_effects): Shaken may not advance, Stop holds
    moves = "\n".join("\n".join(w) for w in found[("move", "Move")])
    assert "Shaken: it may not advance (the card-draw status rules)" in moves
    holds = "\n".join("\n".join(w) for w in found[("move", "Hold")])
    assert "it may not move this turn, so it holds (the card-draw status rules)" in holds
    counter = "\n".join(found[("pick", "Charge")][0])
    assert "Impetuous (001 event 20): it must charge" in counter
    assert "the charge test (002 MORALE)" in counter


def test_the_terminal_why_shows_a_leaders_reason(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 23 `why N` at the prompt, on a seed 002 leader's entry (COMMAND, LEADERS):
    the reason is printed, not only the entry's own words."""
    from test_acw_cli import feed, run

    feed(monkeypatch, [*["why 1", "1"] * 6, "quit"])
    code, out, err = run(capsys, "battle", "mcpherson_ridge", "--seed", "5", "--human", "union")
    assert code == 0, err
    assert "(leader) at" in out
    assert 'may ride 24" in the open, x0.5 through rough ground (002 MOVEMENT, Leaders)' in out


def test_the_web_tables_why_names_what_is_not_yet_known() -> None:
    """Issue 23: 'Odds shown in a menu include every modifier already known ...; say which
    are not yet known': each entry's why on the web table ends, as the terminal's does,
    with what no odds can hold (seed 002 FIRE on `mcpherson_ridge`: the dice, the reply)."""
    from umpire.battle.game import save_game
    from umpire.web.battle_table import view

    game = save_game(load_scenario("mcpherson_ridge"), 5, [])
    side = view(game, None)["waiting"]["side"]
    menu = view(game, side)["choices"]
    assert menu
    for c in menu:
        assert c["why"][-1].startswith("not yet known for any order: the dice themselves")
        assert len(c["why"]) >= 2, c


def test_the_web_table_says_the_result_in_words(tmp_path: Path) -> None:
    """Issue 23: 'The result in words ("Union holds 3 objectives of 3: Union victory;
    losses 7 stands to 1")': the web table's page at the end says it as the terminal does
    (seed 003 `stone_wall`, the AI on both sides), not only who won."""
    import time

    from fastapi.testclient import TestClient

    from test_web_api import KEY, api, new_game
    from umpire.web.app import create_app

    client = TestClient(create_app(tmp_path / "web.db", KEY))
    players = {"union": "ai", "confederate": "ai"}
    links = new_game(client, scenario="stone_wall", dice="seeded", seed=5, players=players)
    for _ in range(100):
        table = client.get(api(links["spectator"])).json()["table"]
        if table["over"]:
            break
        time.sleep(0.1)
    assert table["over"]
    words = table["result"]
    assert "victory after" in words and "losses: Confederate" in words and "{" not in words
    assert f'<p class="result">{words}</p>' in client.get(links["spectator"]).text


def test_why_calls_a_figure_a_chance_only_where_the_entry_names_it() -> None:
    """Issue 23 'Odds shown in a menu include every modifier already known': `why` words
    each figure for what it is. Seed 002 FIRE ('42% hit') and the charge ('drives it off
    39%') name their chance; seed 003's artillery (XI: 'about 2.1 hits') ranks by expected
    hits, which is no chance, and its small arms (XV, a d10 per piece) get the chance of
    at least one hit, not an unnamed 'result'."""
    said = {
        key: ["\n".join(w) for w in ws] for key, ws in _whys("mcpherson_ridge", range(1)).items()
    }
    fires = said[("fire", "Fire")]
    assert all("now: the chance the entry names " in w for w in fires)
    assert any(re.search(r"hit:\n.*\n.*the chance the entry names \d+%", w) for w in fires)
    found = _whys("stone_wall", range(1))
    fire = ["\n".join(w) for w in found[("fire", "Fire")]]
    guns = [w for w in fire if re.match(r"\d guns?: ", w)]
    rifles = [w for w in fire if w.startswith("fire at ")]
    assert guns and rifles
    assert not any("chance" in w for w in guns)
    assert all(re.search(r"the chance of at least one hit \d+%", w) for w in rifles)


def test_explain_lines_are_in_the_log(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """Issue 23: '`umpire battle ... --explain` (and the log) says in a line why the AI
    chose an order': the `--log` file's narrative holds the same lines (seed 003
    `stone_wall`, hard on the Union)."""
    import json

    from test_acw_cli import run

    log = tmp_path / "b.log"
    args = ["stone_wall", "--seed", "3", "--no-save", "--player", "union=hard", "--explain"]
    code, out, err = run(capsys, "battle", *args, "--log", str(log))
    assert code == 0, err
    said = [ln for ln in json.loads(log.read_text())["narrative"] if "[hard union " in ln]
    assert said and all(ln.strip() in out for ln in said)
    assert any("charges: " in ln and "to go in" in ln for ln in said)
