"""Issue 24: ``umpire aar GAME -o report.html``, the after-action report.

The report's numbers are checked against the saved game's log: each luck line's expected
value and percentile are recomputed by brute force (every combination of the rolls'
outcomes) from the faces and purpose lines the log holds, on a battle saved part-way so
the enumeration stays small; the strength and losses against the saved state; each
decisive moment's faces against the roll it names. A battle, a Gettysburg command-phase
game (seed 000) and a dice book each build; bad input is one line and no file.
"""

from __future__ import annotations

import itertools
import re
from fractions import Fraction
from pathlib import Path

import pytest

from umpire.aar.collect import Moment, collect
from umpire.aar.html import render
from umpire.ai import make_policy
from umpire.battle.game import new_game, pending_actor
from umpire.battle.run import play
from umpire.battle.scenario import load_scenario
from umpire.battle.setup import setup_for
from umpire.cli.main import main
from umpire.rules.quick_acw import rules as R
from umpire.store import Store

FIRE = re.compile(r"fires at .* \(needs (\d+)\+, modifiers ([+-]\d+)\)$")


def _saved_battle(db: Path, name: str, fires: int) -> Store:
    """Seed 002/004's five-step battle (seed 3), saved after the orders that hold the first
    ``fires`` fire rolls: a small game whose every combination of outcomes can be listed."""
    scen = load_scenario("standard_five_step")
    res = play(scen, 3, {s: make_policy("ai", 1) for s in ("union", "confederate")})
    store = Store(db)
    game = new_game(scen, 3)
    game.act("start", {})
    n = 0
    for rec in res.orders:
        if n >= fires:
            break
        act = game.act("order", {"actor": pending_actor(game), "order": list(rec[1:])})
        n += sum(1 for e in act.events if e.kind == "roll" and FIRE.search(str(e.data["purpose"])))
    store.create(name, game)
    return store


def _brute(rolls: list[list[tuple[int, Fraction]]], obs: int) -> tuple[Fraction, Fraction]:
    """(expectation, P(total < observed)) by listing every combination of outcomes."""
    exp, below = Fraction(0), Fraction(0)
    for combo in itertools.product(*rolls):
        p = Fraction(1)
        for _, q in combo:
            p *= q
        s = sum(v for v, _ in combo)
        exp += p * s
        below += p if s < obs else 0
    return exp, below


def test_fire_luck_against_the_log_by_brute_force(tmp_path: Path) -> None:
    """Seed 002 FIRE ("2d6 + modifiers vs the table; 1 stand, 2 if beaten by 8"): each
    side's fire luck in the report equals the log's fire rolls recomputed by brute force:
    the faces and the needs/modifiers of the purpose line, every 2d6 throw listed."""
    store = _saved_battle(tmp_path / "g.db", "small", 7)
    scen = load_scenario("standard_five_step")
    data = setup_for(scen).comp.combat.data
    rep = collect(store, "small")
    per_side: dict[str, list[tuple[int, list[tuple[int, Fraction]]]]] = {}
    from umpire.battle.game import battle_from

    units = battle_from(store.load("small").state).state.units
    side_of = {u.name: u.side for u in units}
    for r in store.records("small"):
        for e in r.events:
            m = FIRE.search(str(e.data.get("purpose", ""))) if e.kind == "roll" else None
            if m is None:
                continue
            need, mod = int(m[1]), int(m[2])
            faces = [f for g in e.data["dice"] for f in g["faces"]]
            lost = R.fire_stands_lost(sum(faces), need, mod, data)
            counts: dict[int, int] = {}
            for a in range(1, 7):
                for c in range(1, 7):
                    k = R.fire_stands_lost(a + c, need, mod, data)
                    counts[k] = counts.get(k, 0) + 1
            firer = str(e.data["purpose"]).split(" fires at ")[0]
            per_side.setdefault(side_of[firer], []).append(
                (lost, [(k, Fraction(v, 36)) for k, v in sorted(counts.items())])
            )
    assert per_side, "the small game has fire rolls"
    fire = {lk.side: lk for lk in rep.luck if lk.kind == "fire hits"}
    assert set(fire) == set(per_side)
    html = render(rep)
    for side, rolls in per_side.items():
        obs = sum(s for s, _ in rolls)
        exp, below = _brute([d for _, d in rolls], obs)
        lk = fire[side]
        assert (lk.rolls, lk.observed, lk.expected, lk.below) == (len(rolls), obs, exp, below)
        assert f"{obs} where {float(exp):.1f} was expected" in html


def test_battle_report_numbers_match_the_saved_game(tmp_path: Path) -> None:
    """The strength at the end is the saved state's, each side's losses by cause add up to
    what it lost, and every decisive moment's faces are a roll of the action it names."""
    store = _saved_battle(tmp_path / "g.db", "whole", 10_000)  # the whole battle
    rep = collect(store, "whole")
    from umpire.battle.game import battle_from

    st = battle_from(store.load("whole").state).state
    for side, pts in rep.strength.items():
        now = sum(u.stands for u in st.units if u.side == side and u.alive)
        assert pts[-1][1] == now
        assert sum(rep.losses.get(side, {}).values()) == pts[0][1] - now
    assert len(rep.turns) == st.turn and all(t.svg.startswith("<svg") for t in rep.turns)
    assert "End of turn 1" in rep.turns[0].svg and "<polyline" in rep.turns[0].svg
    recs = store.records("whole")
    assert rep.moments and rep.moments == sorted(rep.moments, key=lambda m: (m.chance, m.action))
    for m in rep.moments:
        rolls = [
            tuple(f for g in e.data["dice"] for f in g["faces"])
            for e in recs[m.action - 1].events
            if e.kind == "roll" and e.data["purpose"] == m.purpose
        ]
        assert m.faces in rolls
    assert rep.proof["head"] == store.head("whole")
    assert "umpire games verify whole.json --head" in rep.proof["verify"]


def test_swing_seam_fills_the_top_moments(tmp_path: Path) -> None:
    """Issue 24 'for the few that mattered most (at most five), the swing in the win
    chance': the function given gives the swing of the five least likely moments, and the
    report prints it; without one the report says it was not measured."""
    store = _saved_battle(tmp_path / "g.db", "small", 7)
    asked: list[int] = []

    def fake(name: str, m: Moment) -> float:
        asked.append(m.action)
        return -0.25

    rep = collect(store, "small", swing=fake)
    actions = list(dict.fromkeys((m.action, m.side) for m in rep.moments))
    assert len(asked) == len(set(asked)) == min(5, len(actions))  # each action played on once
    assert [m.swing is not None for m in rep.moments] == [
        (m.action, m.side) in actions[:5] for m in rep.moments
    ]
    assert "-25 points" in render(rep)
    plain = collect(store, "small")
    assert plain.moments[0].swing is None
    assert "not measured: <code>umpire aar small</code>" in render(plain)


def test_aar_command_measures_the_swing_by_playing_on(tmp_path: Path) -> None:
    """Issue 24: `umpire aar` plays on from before and after each decisive action (the
    lab's simulate --from) and prints the swing in points."""
    from umpire.cli.main import main

    db = str(tmp_path / "g.db")
    assert main(["--db", db, "battle", "stone_wall", "--seed", "11", "--game", "w"]) == 0
    out = tmp_path / "w.html"
    args = ["--db", db, "aar", "w", "-o", str(out), "--battles", "6", "--workers", "1"]
    assert main([*args, "--average", "10"]) == 0
    html = out.read_text()
    assert html.count(" points (") >= 1 and "not measured" not in html


def test_cli_builds_battle_cwb_and_book_reports(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`umpire aar GAME -o FILE` for a battle (at the end of terminal play too), a seed 000
    Gettysburg game and a dice book: one self-contained file each (no http reference)."""
    db = str(tmp_path / "g.db")
    assert main(["--db", db, "battle", "standard_five_step", "--seed", "3", "--game", "b"]) == 0
    out = capsys.readouterr().out
    auto = tmp_path / "reports" / "b.html"
    assert f"After-action report: {auto}" in out and auto.exists()
    assert main(["--db", db, "session", "demo", "--seed", "5", "--name", "book"]) == 0
    assert main(["--db", db, "cwb", "new", "--game", "cwb", "--seed", "3"]) == 0
    for _ in range(4):
        assert main(["--db", db, "cwb", "phase", "--game", "cwb"]) == 0
        assert main(["--db", db, "cwb", "next", "--game", "cwb"]) == 0
    capsys.readouterr()
    for name, needle in (
        ("b", "Losses by cause"),
        ("cwb", "Events rolled"),
        ("book", "Results rolled"),
    ):
        path = tmp_path / f"{name}.html"
        assert main(["--db", db, "aar", name, "-o", str(path)]) == 0
        text = path.read_text()
        assert needle in text and "The proof" in text and "Decisive moments" in text
        assert not re.search(r"(src|href)=['\"]?(https?:)?//", text)
    assert "Over the days" in (tmp_path / "cwb.html").read_text()


def test_bad_input_is_one_line_and_no_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An unknown game or a folder that cannot be written: one line, exit 2, nothing left."""
    db = str(tmp_path / "g.db")
    assert main(["--db", db, "session", "demo", "--seed", "5", "--name", "book"]) == 0
    capsys.readouterr()
    assert main(["--db", db, "aar", "nosuch", "-o", str(tmp_path / "x.html")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("umpire: error: unknown game 'nosuch'") and err.count("\n") == 1
    # /proc takes no new file, even from root: the temp file cannot be made
    assert main(["--db", db, "aar", "book", "-o", "/proc/umpire-aar-test.html"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "cannot write /proc/umpire-aar-test.html" in err
    before = set(tmp_path.iterdir())
    assert main(["--db", db, "aar", "book", "-o", str(tmp_path / "no" / "r.html")]) == 2
    assert "does not exist" in capsys.readouterr().err
    assert set(tmp_path.iterdir()) == before  # no temp file left behind


def test_web_table_offers_the_report_when_the_game_ends(tmp_path: Path) -> None:
    """Issue 24: the report is "offered on the web table's page when a game ends": refused
    before (one line), a file to keep after the host ends the game."""
    from fastapi.testclient import TestClient

    from umpire.web.app import create_app

    key = "aar-key"
    c = TestClient(create_app(tmp_path / "web.db", key))
    links = c.post(f"/api/games?key={key}", json={"kind": "book", "title": "Book"}).json()["links"]
    host = links["host"]
    v = c.get("/api" + host).json()
    c.post(
        "/api" + host + "/act", json={"at": v["at"], "action": "roll", "params": {"expr": "2d6"}}
    )
    early = c.get(host + "/aar")
    assert early.status_code == 400 and "when the game is over" in early.text
    assert "after-action report" not in c.get(host + "/panel").text
    c.post(host + "/end", data={"confirm": "end"})
    assert "after-action report" in c.get(host + "/panel").text
    got = c.get(links["spectator"] + "/aar")
    assert got.status_code == 200 and "attachment" in got.headers["content-disposition"]
    assert "After-action report: Book" in got.text and "The proof" in got.text


def test_an_events_decision_is_named_in_words_not_by_its_module_id(tmp_path: Path) -> None:
    """Issue 24's decisive moments give 'the order' of each: a seed 001 event's own decision
    (a reaction such as Impetuous's counter-charge) read "solo-events:reaction: ..." there,
    the module's internal id; now its point in words."""
    from umpire.aar.collect import _order_words
    from umpire.battle.run import new_battle
    from umpire.dice import SeededSource

    scen = load_scenario("mcpherson_cards")
    b = new_battle(scen, SeededSource(1))
    req = b.next_request()
    assert req is not None
    event_req = req._replace(kind="event", step="solo-events:reaction")
    words = _order_words(b, event_req, ["hold"])
    assert "solo-events:" not in words and words.startswith(f"{req.side.title()}: reaction: ")
