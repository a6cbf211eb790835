"""Issue 24 audit: what a user of `umpire aar` saw that was wrong for a Gettysburg
command-phase game (seed 000) and a dice book."""

from __future__ import annotations

from pathlib import Path

import pytest

from umpire.cli.main import main


def test_cwb_and_book_reports_offer_no_swing_and_say_why_no_luck(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 24's win-chance swing is "play on from the position before and after the
    roll": a seed 000 game and a dice book have no winner to play on for. Their reports
    said "not measured: umpire aar GAME plays on to measure it" even when written by that
    very command, and a cwb game's luck said "No roll of this game carries its exact odds"
    above a table of its rolls' exact odds."""
    db = str(tmp_path / "g.db")
    assert main(["--db", db, "session", "demo", "--seed", "5", "--name", "book"]) == 0
    assert main(["--db", db, "cwb", "new", "--game", "cwb", "--seed", "3"]) == 0
    for _ in range(3):
        assert main(["--db", db, "cwb", "phase", "--game", "cwb"]) == 0
        assert main(["--db", db, "cwb", "next", "--game", "cwb"]) == 0
    capsys.readouterr()
    for name in ("cwb", "book"):
        path = tmp_path / f"{name}.html"
        assert main(["--db", db, "aar", name, "-o", str(path)]) == 0
        text = path.read_text()
        assert "Decisive moments" in text and "% <small>(" in text  # exact odds, ranked
        assert "win-chance swing</th>" not in text and "plays on to measure it" not in text
        assert "no winner to play on for" in text
        assert "No roll of this game carries its exact odds" not in text
    cwb = (tmp_path / "cwb.html").read_text()
    assert "No roll of this game is good or bad for a side in itself" in cwb


def test_web_table_offers_a_battles_report_when_it_is_over(tmp_path: Path) -> None:
    """Issue 24: the report is "offered on the web table's page when a game ends": for a
    battle, on the panel once the battle is over (refused in one line before), the file
    being the battle's report (story with maps, luck, the proof)."""
    from fastapi.testclient import TestClient

    from umpire.web.app import create_app

    key = "aar-key"
    c = TestClient(create_app(tmp_path / "web.db", key))
    r = c.post(
        f"/api/games?key={key}",
        json={"kind": "battle", "scenario": "stone_wall_cards", "players": {"union": "ai"}},
    )
    links = r.json()["links"]
    side = "/api" + links["confederate"]
    early = c.get(links["spectator"] + "/aar")
    assert early.status_code == 400 and "when the game is over" in early.text
    for _ in range(400):
        v = c.get(side).json()
        if v["table"]["over"]:
            break
        hold = next(x["i"] for x in v["table"]["choices"] if x["kind"] == "hold")
        assert c.post(side + "/order", json={"at": v["at"], "choice": hold}).status_code == 200
    assert c.get(side).json()["table"]["over"]
    assert "After-action report</a>" in c.get(links["confederate"] + "/panel").text
    got = c.get(links["spectator"] + "/aar")
    assert got.status_code == 200 and "attachment" in got.headers["content-disposition"]
    text = got.text
    assert "After-action report: The stone wall by the cards" in text
    assert "<h2>Luck</h2>" in text and "End of turn 1" in text and "The proof" in text


def test_a_game_ended_at_the_terminal_prints_its_reports_path(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 24: the report is "printed as a path at the end of terminal play" for any game:
    only a battle did; a Gettysburg game ended with `umpire games end` and the dice book's
    demo (which ends its game) printed none."""
    db = str(tmp_path / "g.db")
    assert main(["--db", db, "cwb", "new", "--game", "cwb", "--seed", "3"]) == 0
    assert main(["--db", db, "cwb", "phase", "--game", "cwb"]) == 0
    capsys.readouterr()
    assert main(["--db", db, "games", "end", "cwb"]) == 0
    out = capsys.readouterr().out
    path = tmp_path / "reports" / "cwb.html"
    assert f"After-action report: {path} (umpire aar cwb -o FILE writes it again)" in out
    assert "Gettysburg" in path.read_text()
    assert main(["--db", db, "session", "demo", "--seed", "5", "--name", "book"]) == 0
    out = capsys.readouterr().out
    book = tmp_path / "reports" / "book.html"
    assert f"After-action report: {book}" in out and book.exists()


def test_cwb_report_gives_the_orders_lives_and_the_story_in_the_games_own_times(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 24, seed 000: "the orders' lives". An order's arrival read "arrived 2280" (the
    module's minutes) and a game started on July 2 14:00 told its first actions at "July 1"
    under the module's internal action names ("order_issue")."""
    db = str(tmp_path / "g.db")
    steps = [
        ["cwb", "new", "--game", "d", "--seed", "1", "--date", "July 2", "--time", "14:00"],
        ["cwb", "order", "issue", "--side", "confederate", "--from", "lee", "--to", "longstreet"],
        ["cwb", "order", "arrive", "o1", "A"],
    ]
    for args in steps:
        assert main(["--db", db, *args]) == 0
    path = tmp_path / "d.html"
    assert main(["--db", db, "aar", "d", "-o", str(path)]) == 0
    capsys.readouterr()
    text = path.read_text()
    assert "The orders&#x27; lives" in text or "The orders' lives" in text
    assert "(arrived July 2 14:00)" in text and "arrived 2" not in text.replace(
        "arrived July 2", ""
    )
    assert "July 2 14:00: order issue (action 1)" in text
    assert "July 1" not in text.split("<h2>The story</h2>")[1].split("<h2>The proof")[0]


@pytest.mark.parametrize(
    "scenario",
    [
        "standard",
        "standard_five_step",
        "stone_wall",
        "stone_wall_cards",
        "mcpherson_ridge",
        "mcpherson_cards",
    ],
)
def test_every_shipped_composition_builds_its_report(tmp_path: Path, scenario: str) -> None:
    """Issue 24: "for any saved game of any module (a tactical battle of every
    composition ...)": each shipped scenario's whole AI battle, saved, gives a report with a
    map per turn (paths drawn, the objectives named), the three charts, luck lines and the
    proof; nothing in it reaches the network."""
    import re
    from html import escape

    from umpire.aar.collect import collect
    from umpire.aar.html import render
    from umpire.ai import make_policy
    from umpire.battle.game import new_game, pending_actor
    from umpire.battle.run import play
    from umpire.battle.scenario import load_scenario
    from umpire.sides import SIDES
    from umpire.store import Store

    scen = load_scenario(scenario)
    res = play(scen, 2, {s: make_policy("ai", 2) for s in SIDES})
    game = new_game(scen, 2)
    game.act("start", {})
    for rec in res.orders:
        game.act("order", {"actor": pending_actor(game), "order": list(rec[1:])})
    store = Store(tmp_path / "g.db")
    store.create("g", game)
    rep = collect(store, "g")
    html = render(rep)
    assert len(rep.turns) == res.turns and all(t.svg.startswith("<svg") for t in rep.turns)
    assert all(f"End of turn {k + 1}" in t.svg for k, t in enumerate(rep.turns))
    assert sum("<polyline" in t.svg for t in rep.turns) >= 1  # the units' paths
    objective = scen.objectives[0].name if scen.objectives else ""
    assert escape(objective) in rep.turns[-1].svg
    assert html.count("<div class=chart>") == 3
    assert rep.luck and " was expected " in html and "The proof" in html
    assert not re.search(r"(src|href)=['\"]?(https?:)?//", html)
