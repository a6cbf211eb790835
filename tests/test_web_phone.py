"""The web table on a phone (issue 22, "A page that works on a phone"), the server's side:
short map labels with a legend, step headings in words from the modules' data, the acting
unit's move allowance asked of the server, presence on the host's start page, and pages
that run no inline script. The taps themselves: tests/browser/test_phone_browser.py."""

from __future__ import annotations

import math
import re
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from umpire.ai import make_policy
from umpire.battle.game import pending
from umpire.battle.run import new_battle
from umpire.battle.scenario import load_scenario
from umpire.dice import SeededSource
from umpire.errors import IllegalActionError
from umpire.scenarios import shipped
from umpire.web.app import create_app
from umpire.web.board import short_name, short_names

KEY = "phone-key"


@pytest.fixture
def client(tmp_path: Path) -> TestClient:
    return TestClient(create_app(tmp_path / "web.db", KEY))


def new_game(c: TestClient, **body: Any) -> dict[str, str]:
    body.setdefault("kind", "battle")
    body.setdefault("scenario", "stone_wall")
    r = c.post(f"/api/games?key={KEY}", json=body)
    assert r.status_code == 200, r.text
    links: dict[str, str] = r.json()["links"]
    return links


def test_units_are_labelled_with_short_names_not_ids() -> None:
    """Issue 22: 'Units are labelled with 5 px ids ("u13 2"): label them with their names
    (short forms)'. Each label is a few letters, unique in its battle, and the order of
    battle (the legend) pairs it with the whole name."""
    assert short_name("15th Alabama") == "15Ala"
    assert short_name("2nd WI") == "2WI"
    assert short_name("Hazlett's Battery D, 5th US") == "Hazlett"
    assert short_name("12th Illinois/3rd Indiana Cavalry") == "12Ill"
    for name in shipped():
        b = new_battle(load_scenario(name), SeededSource(1))
        labels = short_names(b)
        assert len(set(labels)) == len(labels), (name, labels)
        assert all(1 <= len(x) <= 8 for x in labels), labels
        assert all(u.id not in labels for u in b.state.units if u.id != u.name)


def test_the_map_labels_units_by_short_name_and_the_legend_names_them(
    client: TestClient,
) -> None:
    links = new_game(client, scenario="standard")
    page = client.get(links["union"]).text
    labels = re.findall(r'<text class="label"[^>]*>([^<]*)</text>', page)
    assert "2WI" in labels and "u1" not in labels, labels
    assert '<td class="short">2WI</td><td>2nd WI</td>' in page  # the legend
    assert 'class="key"' in page


def test_step_headings_are_words_from_the_modules_data() -> None:
    """Issue 22: 'Step headings show raw ids ("solo-events:turn_start"): words.' Every
    decision step of every shipped scenario has its words in its module's labels.toml
    ``[steps]`` (a fallback would only replace the underscores)."""
    for name in shipped():
        b = new_battle(load_scenario(name), SeededSource(3))
        ai = make_policy("ai")
        seen: set[str] = set()
        for _ in range(400):
            req = b.next_request()
            if req is None:
                break
            seen.add(b.phase().name)
            b.apply(req, ai.decide(b, req))
        for step in seen:
            title = b.comp.step_title(step)
            point = step.rpartition(":")[2]
            assert title != point.replace("_", " "), (name, step, title)
            assert ":" not in title.partition(": ")[2] and "_" not in title, title
    b = new_battle(load_scenario("mcpherson_cards"), SeededSource(3))
    assert b.comp.step_title("solo-events:turn_start") == "Random events at the start of the turn"


def test_the_page_heading_shows_the_step_in_words(client: TestClient) -> None:
    links = new_game(client, scenario="mcpherson_cards", dice="seeded", seed=5)
    for role in ("union", "confederate", "spectator"):
        page = client.get(links[role]).text
        assert "solo-events:" not in page
        heading = re.search(r"<h2>([^<]*)<small>", page)
        assert heading is not None and "_" not in heading.group(1), heading
    view = client.get("/api" + links["union"]).json()["table"]["waiting"]
    assert view["step"] != view["step_id"]


def test_the_allowance_is_where_the_server_accepts_a_move(client: TestClient) -> None:
    """Issue 22: 'tapping the table shows where the selected unit may go (its allowance
    drawn as a shape)'. The outline comes from the combat role's own check, so a tap just
    inside it is a legal move and a tap well beyond it is refused with the reason."""
    links = new_game(client, scenario="mcpherson_ridge", dice="seeded", seed=2, players={})
    app: Any = client.app
    svc = app.state.service
    seat = svc.seat(links["confederate"].rsplit("/", 1)[1])
    game = svc._load(seat.game)
    b, req = pending(game)
    while req is not None and req.kind != "move":  # the first order on each menu
        tok = links[req.side].rsplit("/", 1)[1]
        svc.order(svc.seat(tok), len(game.actions), 0, None, None, None)
        game = svc._load(seat.game)
        b, req = pending(game)
    assert req is not None
    got = client.get(links[req.side] + "/allowance").json()
    assert got["unit"] == req.actor and len(got["points"]) == 32
    assert client.get("/api" + links["spectator"] + "/allowance").json() == got
    u = b.state.units[req.actor]
    inside = outside = 0
    for x, y in got["points"]:
        d = math.hypot(x - u.x, y - u.y)
        if d < 0.2:
            continue
        a = math.atan2(y - u.y, x - u.x)
        near = (u.x + math.cos(a) * d * 0.97, u.y + math.sin(a) * d * 0.97)
        b.comp.combat.check(b, req, ("move", *near, a, ""))  # accepted: no error
        inside += 1
        far = (u.x + math.cos(a) * (d + 1.5), u.y + math.sin(a) * (d + 1.5))
        with pytest.raises(IllegalActionError):
            b.comp.combat.check(b, req, ("move", *far, a, ""))
        outside += 1
    assert inside >= 16 and outside >= 16
    # the page draws it; the fire arc of the acting unit is in the map
    page = client.get(links[req.side]).text
    assert 'class="reach-layer"' in page and 'class="arc"' in page


def test_the_allowance_of_a_table_without_units_is_refused(client: TestClient) -> None:
    links = new_game(client, kind="book")
    r = client.get("/api" + links["host"] + "/allowance")
    assert r.status_code == 400 and "battle" in r.json()["error"]


def test_the_start_page_lists_who_is_connected(client: TestClient) -> None:
    """Issue 22: 'the host page lists the games with who is connected now (presence
    through the live feed)'. A page's live feed counts it present until it closes."""
    links = new_game(client)
    app: Any = client.app
    svc = app.state.service
    union = svc.seat(links["union"].rsplit("/", 1)[1])
    assert client.get("/lobby").status_code == 403
    before = client.get(f"/lobby?key={KEY}").text
    assert 'data-role="union" data-pages="0"' in before and "union: away" in before
    svc.arrive(union)
    lobby = svc.lobby
    now = client.get(f"/lobby?key={KEY}").text
    assert 'data-role="union" data-pages="1"' in now and "union: here" in now
    assert "confederate: away" in now
    assert f'hx-get="/lobby?key={KEY}"' in client.get(f"/?key={KEY}").text
    svc.leave(union)
    assert svc.lobby > lobby
    assert "union: away" in client.get(f"/lobby?key={KEY}").text


INLINE_SCRIPT = re.compile(r"<script(?![^>]*\bsrc=)[^>]*>", re.I)
HANDLER = re.compile(r"<[^>]+\son[a-z]+\s*=", re.I)


def test_no_page_runs_inline_script(client: TestClient) -> None:
    """Issue 22 asks for a Content-Security-Policy without inline script: every page kind
    keeps its script in /static (no <script> body, no on...= attribute)."""
    pages = [f"/?key={KEY}", f"/lobby?key={KEY}"]
    for body in (
        {"scenario": "stone_wall"},
        {"scenario": "mcpherson_cards"},
        {"kind": "book"},
        {"kind": "cwb", "dice": "seeded", "seed": 26, "start": "July 2 14:00"},
    ):
        links = new_game(client, **body)
        pages += [link for link in links.values()]
        pages += [link + "/panel" for link in links.values()]
    for path in pages:
        text = client.get(path).text
        assert not INLINE_SCRIPT.search(text), path
        assert not HANDLER.search(text), (path, HANDLER.search(text))


def test_a_steps_table_that_is_not_words_is_refused(tmp_path: Path) -> None:
    """The ``[steps]`` table of a module's labels.toml maps names to words: anything else
    is refused with the file named, not shown as a heading."""
    from umpire.errors import DataFileError
    from umpire.rules.labels import load_steps

    bad = tmp_path / "labels.toml"
    bad.write_text("[steps]\nmove = 3\n", encoding="utf-8")
    with pytest.raises(DataFileError, match="steps"):
        load_steps(bad)
    good = tmp_path / "good.toml"
    good.write_text('[steps]\nmove = "Movement"\n', encoding="utf-8")
    assert load_steps(good) == {"move": "Movement"}


def test_the_page_shows_the_briefing_before_the_first_order(client: TestClient) -> None:
    """Issue 23: 'A briefing before the first order: the scenario's situation, each side's
    forces in short, the objectives and victory conditions, the turn limit (... in the web
    table: on the page)'."""
    links = new_game(client, scenario="stone_wall", dice="seeded", seed=5)
    page = client.get(links["union"]).text
    assert "<summary>Briefing: The stone wall at dawn (Action/Reaction)</summary>" in page
    assert "Situation: A regiment-scale fight" in page
    assert "Union, defending (breaks when 50% of its 3 units are lost)" in page
    assert "end of turn 12 (the turn limit)" in page
