"""The web table's API (issue "The web table"): every route, its refusals, stale and
concurrent requests, oversized and malformed ones, and what each seat may see."""

from __future__ import annotations

import html
import json
import threading
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from umpire.store import Store
from umpire.web.app import create_app

KEY = "test-host-key"


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


def api(link: str) -> str:
    return "/api" + link


def one_line(r: Any, code: int, *needles: str) -> None:
    """A refusal: the status, a one-line message naming what was wrong."""
    assert r.status_code == code, (r.status_code, r.text)
    msg = r.json()["error"]
    assert "\n" not in msg and "Traceback" not in msg
    for n in needles:
        assert n in msg, msg


def test_the_host_key_guards_the_start_page_and_new_games(client: TestClient) -> None:
    assert client.get("/").status_code == 403
    assert client.get("/?key=wrong").status_code == 403
    assert client.get(f"/?key={KEY}").status_code == 200
    one_line(client.post("/api/games", json={"kind": "book"}), 403, "key")


def test_scenarios_are_listed(client: TestClient) -> None:
    names = {s["id"] for s in client.get("/api/scenarios").json()}
    assert {"stone_wall", "stone_wall_cards"} <= names


def test_a_new_battle_gives_one_link_per_side_and_a_spectator(client: TestClient) -> None:
    links = new_game(client)
    assert set(links) == {"host", "union", "confederate", "spectator"}
    assert len(set(links.values())) == 4
    v = client.get(api(links["confederate"])).json()
    assert v["role"] == "confederate" and v["kind"] == "battle"
    assert v["table"]["waiting"]["side"] == "confederate"  # side A moves first
    assert v["table"]["choices"], "the side to act sees its menu"
    u = client.get(api(links["union"])).json()
    assert u["table"]["choices"] == []  # the other side sees no menu
    assert "links" not in u and "links" not in v  # only the host sees the links
    h = client.get(api(links["host"])).json()
    assert set(h["links"]) == set(links) and h["table"]["choices"] == []
    for link in links.values():
        assert client.get(link).status_code == 200  # every page renders


def test_an_order_by_menu_advances_and_logs(client: TestClient) -> None:
    links = new_game(client)
    v = client.get(api(links["confederate"])).json()
    at = v["at"]
    hold = next(c["i"] for c in v["table"]["choices"] if c["text"] == "hold")
    r = client.post(api(links["confederate"]) + "/order", json={"at": at, "choice": hold})
    assert r.status_code == 200, r.text
    assert r.json()["at"] == at + 1
    assert r.json()["log"][0]["name"] == "order"


def test_a_tap_on_the_table_moves_the_acting_unit(client: TestClient) -> None:
    links = new_game(client)
    v = client.get(api(links["confederate"])).json()
    w = v["table"]["waiting"]
    u = v["table"]["units"][w["actor_index"]]
    x, y = u["x"], u["y"] - 2.0
    r = client.post(api(links["confederate"]) + "/order", json={"at": v["at"], "x": x, "y": y})
    assert r.status_code == 200, r.text
    moved = r.json()["table"]["units"][w["actor_index"]]
    assert moved["y"] == pytest.approx(y, abs=0.01)
    r = client.post(
        api(links["confederate"]) + "/order", json={"at": r.json()["at"], "x": 500, "y": 500}
    )
    one_line(r, 400, "off the table")


def test_cross_side_spectator_and_host_orders_are_refused_and_nothing_changes(
    client: TestClient,
) -> None:
    links = new_game(client)
    v = client.get(api(links["confederate"])).json()
    body = {"at": v["at"], "choice": 0}
    one_line(client.post(api(links["union"]) + "/order", json=body), 400, "confederate side")
    one_line(client.post(api(links["spectator"]) + "/order", json=body), 403, "watches")
    one_line(client.post(api(links["host"]) + "/order", json=body), 403, "does not play")
    assert client.get(api(links["confederate"])).json()["at"] == v["at"]


def test_forged_and_expired_links(client: TestClient, tmp_path: Path) -> None:
    one_line(client.get("/api/t/not-a-real-token"), 404, "not valid")
    assert client.get("/t/not-a-real-token").status_code == 404
    links = new_game(client, kind="book")
    game = client.get(api(links["host"])).json()["game"]
    Store(tmp_path / "web.db").delete(game)
    one_line(client.get(api(links["table"])), 404, "expired")


def test_a_stale_order_is_refused_and_nothing_is_half_applied(client: TestClient) -> None:
    links = new_game(client)
    v = client.get(api(links["confederate"])).json()
    r = client.post(api(links["confederate"]) + "/order", json={"at": v["at"], "choice": 0})
    assert r.status_code == 200
    again = client.post(api(links["confederate"]) + "/order", json={"at": v["at"], "choice": 0})
    one_line(again, 409, "moved on")
    assert client.get(api(links["confederate"])).json()["at"] == v["at"] + 1


def test_malformed_and_oversized_requests(client: TestClient) -> None:
    links = new_game(client)
    at = client.get(api(links["confederate"])).json()["at"]
    url = api(links["confederate"]) + "/order"
    one_line(client.post(url, json={"at": "soon"}), 422, "at")
    one_line(client.post(url, json={"at": at, "choice": -1}), 422, "choice")
    one_line(client.post(url, json={"at": at, "choice": 999}), 400, "no order 999")
    one_line(client.post(url, json={"at": at, "bogus": 1}), 422, "bogus")
    big = json.dumps({"at": at, "pad": "x" * 70_000})
    r = client.post(url, content=big, headers={"content-type": "application/json"})
    one_line(r, 413, "too large")
    # the page's own form: a bad number is one line too
    r = client.post(links["confederate"] + "/order", data={"at": "x"})
    assert r.status_code == 400 and "at: a whole number" in r.text
    assert client.get(api(links["confederate"])).json()["at"] == at


def test_two_browsers_at_the_same_moment_one_wins(client: TestClient) -> None:
    """Both seats of one side's link act on the same state at once: one order is applied,
    the other is told the state moved on; nothing is lost."""
    links = new_game(client)
    url = api(links["confederate"]) + "/order"
    at = client.get(api(links["confederate"])).json()["at"]
    codes: list[int] = []
    barrier = threading.Barrier(2)

    def go() -> None:
        barrier.wait()
        codes.append(client.post(url, json={"at": at, "choice": 0}).status_code)

    threads = [threading.Thread(target=go) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(codes) == [200, 409]
    assert client.get(api(links["confederate"])).json()["at"] == at + 1


def test_undo_takes_back_a_sides_own_move_but_not_past_a_die(client: TestClient) -> None:
    links = new_game(client)
    side = api(links["confederate"])
    v = client.get(side).json()
    assert not v["may_undo"]
    w = v["table"]["waiting"]
    u = v["table"]["units"][w["actor_index"]]
    r = client.post(side + "/order", json={"at": v["at"], "x": u["x"], "y": u["y"] - 1.0})
    after = r.json()
    rolled = any(line["kind"] == "roll" for line in after["log"][0]["lines"])
    if not rolled:
        assert after["may_undo"]
        one_line(client.post(api(links["union"]) + "/undo", json={"at": after["at"]}), 403)
        r = client.post(side + "/undo", json={"at": after["at"]})
        assert r.status_code == 200 and r.json()["dropped"] == 1
        assert client.get(side).json()["at"] == v["at"]
    one_line(client.post(side + "/undo", json={"at": v["at"] + 99}), 409)


def test_fork_end_verify_and_export(client: TestClient) -> None:
    links = new_game(client, kind="book")
    table, host = api(links["table"]), api(links["host"])
    v = client.get(table).json()
    assert v["dice"]["source"] == "committed" and v["dice"]["seed"] is None
    r = client.post(
        table + "/act", json={"at": v["at"], "action": "roll", "params": {"expr": "3d6"}}
    )
    assert r.status_code == 200, r.text
    one_line(client.get(host + "/export"), 403, "ended")
    one_line(client.get(host + "/verify"), 403, "revealed")
    one_line(client.post(table + "/fork"), 403, "host")
    forked = client.post(host + "/fork").json()
    assert set(forked["links"]) == {"host", "table", "spectator"}
    assert client.get("/api" + forked["links"]["table"]).json()["at"] == 1
    one_line(client.post(table + "/end"), 403, "host")
    ended = client.post(host + "/end").json()
    assert ended["ended"] and ended["dice"]["seed"]
    report = client.get(host + "/verify").json()
    assert report["ok"] and report["rolls_checked"] and report["dice"] == 3
    export = client.get(host + "/export").json()
    assert export["game"]["seed"] == ended["dice"]["seed"]
    one_line(client.post(table + "/act", json={"at": 1, "action": "roll", "params": {}}), 403)


def test_the_dice_book_rolls_picks_and_draws_with_odds(client: TestClient) -> None:
    links = new_game(client, kind="book", title="Saturday")
    table = api(links["table"])
    o = client.get(table + "/odds", params={"expr": "2d6"}).json()
    seven = next(r for r in o["rows"] if r["value"] == 7)
    assert seven["p"] == "1/6"  # 6 of the 36 rolls, by hand
    at = client.get(table).json()["at"]
    steps = [
        ("roll", {"expr": "2d6", "purpose": "morale"}),
        ("pick", {"options": "a, b, c"}),
        ("deck", {"name": "act", "cards": "Union, Union, Confederate"}),
        ("draw", {"deck": "act"}),
    ]
    for action, params in steps:
        r = client.post(table + "/act", json={"at": at, "action": action, "params": params})
        assert r.status_code == 200, r.text
        at += 1
    v = client.get(table).json()
    assert v["table"]["decks"][0]["left"] == 2
    one_line(
        client.post(table + "/act", json={"at": at, "action": "roll", "params": {"expr": "2q"}}),
        400,
    )
    one_line(client.post(table + "/act", json={"at": at, "action": "explode", "params": {}}), 400)
    one_line(
        client.post(table + "/act", json={"at": at, "action": "draw", "params": {"deck": "x"}}), 400
    )
    assert client.get(table).json()["at"] == at


def test_a_battle_against_the_ai_plays_to_the_end_and_reveals_its_seed(
    client: TestClient,
) -> None:
    links = new_game(client, scenario="stone_wall_cards", players={"union": "ai"})
    side = api(links["confederate"])
    for _ in range(400):
        v = client.get(side).json()
        if v["table"]["over"]:
            break
        assert v["table"]["waiting"]["side"] == "confederate"
        hold = next(c["i"] for c in v["table"]["choices"] if c["kind"] == "hold")
        assert client.post(side + "/order", json={"at": v["at"], "choice": hold}).status_code == 200
    v = client.get(side).json()
    assert v["table"]["over"] and v["ended"] and v["dice"]["seed"]
    assert client.get(api(links["host"]) + "/verify").json()["ok"]


def test_the_live_update_stream_refuses_a_forged_link(client: TestClient) -> None:
    r = client.get("/t/forged/events")
    assert r.status_code == 404 and "not valid" in r.text


# -- the Gettysburg assistant at the web table (seed 000 through the AtTable seam) ----------

CWB = {"kind": "cwb", "dice": "seeded", "seed": 26, "start": "July 2 14:00"}
"""Seed 26 at July 2 14:00: the Confederate phase rolls Friendly Fire (2d6 7, d66 46), which
asks the Union player to choose the Confederate unit that suffers it (seed 000)."""


def test_a_cwb_phase_asks_the_other_side_and_only_that_side(client: TestClient) -> None:
    links = new_game(client, **CWB)
    conf, union = api(links["confederate"]), api(links["union"])
    v = client.get(conf).json()
    assert v["table"]["phasing"] == "confederate"
    assert [c["action"] for c in v["table"]["commands"]] == ["phase"]
    odds = v["table"]["commands"][0]["odds"]  # the event table's chances before the roll
    from fractions import Fraction

    assert sum(Fraction(o["p"]) for o in odds) == 1
    assert next(o for o in odds if o["range"] == "7")["p"] == "1/6"  # 2d6: 6 of 36
    assert client.get(union).json()["table"]["commands"] == []  # not the Union's turn
    one_line(client.post(union + "/act", json={"at": 0, "action": "phase"}), 403, "not open")
    r = client.post(conf + "/act", json={"at": 0, "action": "phase"})
    assert r.status_code == 200, r.text
    c_view = r.json()["table"]
    assert c_view["waiting_for"] == "union" and c_view["question"] is None
    assert any("Friendly fire" in line["text"] for line in c_view["shown"])  # the rolls shown
    u_view = client.get(union).json()
    q = u_view["table"]["question"]
    assert q is not None and "Friendly Fire" in q["prompt"] and q["pick"] == 1
    assert u_view["at"] == 0  # nothing is logged while the question waits
    # the Confederate page holds no trace of the Union's options or prompt
    assert q["prompt"] not in json.dumps(client.get(conf).json())
    one_line(client.post(conf + "/answer", json={"at": 0, "answer": [q["options"][0][0]]}), 403)
    one_line(client.post(union + "/answer", json={"at": 0, "answer": ["nobody"]}), 400)
    one_line(client.post(union + "/answer", json={"at": 0, "answer": []}), 400, "needs 1")
    chosen = q["options"][1][0]
    r = client.post(union + "/answer", json={"at": 0, "answer": [chosen]})
    assert r.status_code == 200, r.text
    done = r.json()
    assert done["at"] == 1 and done["table"]["question"] is None
    assert any("union chose " + chosen in line["text"] for line in done["log"][0]["lines"])
    assert [c["action"] for c in client.get(conf).json()["table"]["commands"]] == ["next"]
    # the same game, replayed by the engine from its log, verifies (dice and the answer)
    client.post(api(links["host"]) + "/end")
    assert client.get(api(links["host"]) + "/verify").json()["ok"]


def test_the_same_seed_gives_the_same_question_after_a_reload(client: TestClient) -> None:
    """Re-running an action that waits for an answer rolls the same dice (counter-based)."""
    a = new_game(client, **CWB)
    b = new_game(client, **CWB)
    for links in (a, b):
        client.post(api(links["confederate"]) + "/act", json={"at": 0, "action": "phase"})
    qa = client.get(api(a["union"])).json()["table"]["question"]
    qb = client.get(api(b["union"])).json()["table"]["question"]
    assert qa == qb


# -- joint dice at the web table (docs/dice-protocol.md) ------------------------------------


def test_a_joint_dice_battle_commits_reveals_starts_plays_and_verifies(
    client: TestClient,
) -> None:
    import hashlib
    import secrets

    links = new_game(client, dice="joint", players={"union": "ai"})
    conf, union = api(links["confederate"]), api(links["union"])
    v = client.get(conf).json()
    assert v["at"] == 0 and v["dice"]["joint"]["phase"] == "commit"  # not started yet
    values = {s: secrets.token_hex(32) for s in ("union", "confederate")}
    digest = {s: hashlib.sha256(val.encode()).hexdigest() for s, val in values.items()}
    # a side may not reveal before every side has committed; values stay hidden till then
    assert client.post(conf + "/commit", json={"digest": digest["confederate"]}).status_code == 200
    one_line(client.post(conf + "/reveal", json={"value": values["confederate"]}), 400)
    seen = json.dumps(client.get(union).json())
    assert values["confederate"] not in seen
    assert client.post(union + "/commit", json={"digest": digest["union"]}).status_code == 200
    one_line(client.post(union + "/reveal", json={"value": values["confederate"]}), 400)
    assert client.post(union + "/reveal", json={"value": values["union"]}).status_code == 200
    r = client.post(
        conf + "/reveal", json={"value": values["confederate"], "entropy": secrets.token_hex(32)}
    )
    assert r.status_code == 200, r.text
    v = r.json()
    assert v["dice"]["joint"]["ready"] and v["at"] >= 1  # the battle started
    for _ in range(6):
        v = client.get(conf).json()
        if v["table"]["over"]:
            break
        hold = next(c["i"] for c in v["table"]["choices"] if c["kind"] == "hold")
        body = {"at": v["at"], "choice": hold, "entropy": secrets.token_hex(32)}
        assert client.post(conf + "/order", json=body).status_code == 200
    client.post(api(links["host"]) + "/end")
    report = client.get(api(links["host"]) + "/verify").json()
    assert report["ok"] and report["rolls_checked"] and report["dice"] > 0


# -- real dice typed at the table ------------------------------------------------------------


def test_real_dice_in_the_dice_book_are_asked_checked_logged_and_verified(
    client: TestClient,
) -> None:
    links = new_game(client, kind="book")
    table = api(links["table"])
    assert client.post(table + "/real-dice", json={"on": True}).json()["real_dice"]
    r = client.post(table + "/act", json={"at": 0, "action": "roll", "params": {"expr": "2d6"}})
    v = r.json()
    assert v["at"] == 0 and v["roll"]["n"] == 2 and v["roll"]["sides"] == 6
    seven = next(row for row in v["roll"]["odds"]["rows"] if row["value"] == 7)
    assert seven["p"] == "1/6"  # the odds before the dice are thrown
    one_line(
        client.post(table + "/act", json={"at": 0, "action": "roll", "params": {"expr": "d6"}}),
        403,
        "waits",
    )
    one_line(
        client.post(table + "/faces", json={"at": 0, "faces": [3]}), 400, "got 1 face", "2 faces"
    )
    one_line(
        client.post(table + "/faces", json={"at": 0, "faces": [3, 9]}), 400, "9 is outside 1..6"
    )
    v = client.post(table + "/faces", json={"at": 0, "faces": [3, 4]}).json()
    assert v["at"] == 1 and v["roll"] is None
    assert "[3, 4] = 7" in v["log"][0]["lines"][0]["text"]
    client.post(table + "/real-dice", json={"on": False})
    r = client.post(table + "/act", json={"at": 1, "action": "roll", "params": {"expr": "3d6"}})
    assert r.json()["at"] == 2  # the game's own dice again
    client.post(api(links["host"]) + "/end")
    report = client.get(api(links["host"]) + "/verify").json()
    assert report["ok"] and report["rolls_checked"] and report["dice"] == 5
    assert any("2 dice were real dice typed" in n for n in report["notes"])


def test_faces_typed_in_the_page_are_read_as_every_typed_roll(client: TestClient) -> None:
    """The page's faces form reads text as the terminal's dice prompt does (one reading,
    ``read_faces``): a d10's 0 is its 10; a sign, a non-ASCII digit or a word is refused
    in one line naming it, and nothing is applied."""
    links = new_game(client, kind="book")
    table = api(links["table"])
    page = links["table"]
    client.post(table + "/real-dice", json={"on": True})
    r = client.post(table + "/act", json={"at": 0, "action": "roll", "params": {"expr": "2d10"}})
    assert r.json()["roll"]["sides"] == 10
    for typed, needle in [
        ("-3 4", "'-3' is not a number"),
        ("\u0663 4", "is not a number"),
        ("three 4", "'three' is not a number"),
        ("11 4", "11 is outside"),
        ("4", "got 1 face"),
    ]:
        bad = client.post(page + "/faces", data={"at": "0", "faces": typed})
        assert bad.status_code == 400, (typed, bad.status_code)
        shown = html.unescape(bad.text)
        assert needle in shown and "Traceback" not in shown, (typed, shown[-300:])
        assert client.get(table).json()["at"] == 0  # nothing applied
    ok = client.post(page + "/faces", data={"at": "0", "faces": "0, 7"})
    assert ok.status_code == 200, ok.text[:300]
    v = client.get(table).json()
    assert v["at"] == 1 and "[10, 7] = 17" in v["log"][0]["lines"][0]["text"]


def test_real_dice_and_a_question_in_one_cwb_phase(client: TestClient) -> None:
    """Seed 000: the Confederate player rolls the events with real dice (2d6 7: Consult
    Leader Table; d66 4 6: Friendly Fire), which then asks the Union player a question."""
    links = new_game(client, **CWB)
    conf, union = api(links["confederate"]), api(links["union"])
    client.post(conf + "/real-dice", json={"on": True})
    v = client.post(conf + "/act", json={"at": 0, "action": "phase"}).json()
    assert v["roll"]["n"] == 2 and v["roll"]["sides"] == 6
    assert client.get(union).json()["rolling"] == "confederate"
    one_line(client.post(union + "/faces", json={"at": 0, "faces": [4, 3]}), 403, "rolls these")
    v = client.post(conf + "/faces", json={"at": 0, "faces": [4, 3]}).json()
    assert v["roll"] is not None and "Leader" in v["roll"]["purpose"]
    v = client.post(conf + "/faces", json={"at": 0, "faces": [4, 6]}).json()
    assert v["roll"] is None and v["table"]["waiting_for"] == "union"
    q = client.get(union).json()["table"]["question"]
    assert "Friendly Fire" in q["prompt"]
    client.post(union + "/answer", json={"at": 0, "answer": [q["options"][0][0]]})
    for _ in range(10):  # Friendly Fire's own dice, if it rolls any, are the table's too
        v = client.get(conf).json()
        if v["roll"] is None:
            break
        client.post(conf + "/faces", json={"at": 0, "faces": [2] * v["roll"]["n"]})
    assert client.get(conf).json()["at"] == 1
    client.post(api(links["host"]) + "/end")
    report = client.get(api(links["host"]) + "/verify").json()
    assert report["ok"] and any("typed" in n for n in report["notes"])


def test_a_game_saved_at_the_command_line_opens_at_a_table(
    client: TestClient, tmp_path: Path
) -> None:
    from umpire.battle.game import save_game
    from umpire.battle.scenario import load_scenario

    store = Store(tmp_path / "web.db")
    store.create("cli-battle", save_game(load_scenario("stone_wall"), 5, []))
    page = client.get(f"/?key={KEY}")
    assert "cli-battle" in page.text
    r = client.post(f"/open/cli-battle?key={KEY}", follow_redirects=False)
    assert r.status_code == 303
    host = r.headers["location"]
    v = client.get("/api" + host).json()
    assert v["kind"] == "battle" and set(v["links"]) == {
        "host",
        "union",
        "confederate",
        "spectator",
    }
    assert v["at"] == 1  # the saved start
    assert client.post(f"/open/cli-battle?key={KEY}").status_code == 404  # once only


def test_answers_and_faces_are_refused_when_nothing_waits_for_them(client: TestClient) -> None:
    """An answer with no question waiting, faces with no roll of real dice waiting: 403 in
    one line; a stale ``at`` is refused (409) before either is looked at."""
    table = api(new_game(client, kind="book")["table"])
    at = client.get(table).json()["at"]
    one_line(client.post(table + "/answer", json={"at": at, "answer": ["a"]}), 403, "question")
    one_line(client.post(table + "/faces", json={"at": at, "faces": [3]}), 403, "real dice")
    one_line(client.post(table + "/answer", json={"at": at + 5, "answer": ["a"]}), 409)
    one_line(client.post(table + "/faces", json={"at": at + 5, "faces": [3]}), 409)
