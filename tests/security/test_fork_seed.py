"""Attack: a fork reveals the live seed (issue 22, "Nobody can see or choose the dice").

Forking a committed game in play kept its seed; ending the fork revealed it, and its
SHA-256 was the live game's commitment, so whoever forked could foresee every die of the
live game. Forking an ended game gave a game in play whose page showed the revealed seed.
Now (reading ``web_fork``) a fork rolls dice of its own from the fork point, its export
names the parent and the parent's chain head there, the dice before the fork verify with
the parent's export once the parent has ended (verify says which part it checked), and a
fork that keeps the parent's dice is made only from an ended game, and says so.
"""

from __future__ import annotations

import hashlib
import json
import secrets
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from umpire.store import Store
from umpire.web.app import create_app

KEY = "fork-key"


def book(c: TestClient, dice: str = "committed") -> dict[str, str]:
    links = c.post(f"/api/games?key={KEY}", json={"kind": "book", "dice": dice}).json()["links"]
    return {k: "/api" + v for k, v in links.items()}


def roll(c: TestClient, seat: str, n: int = 1) -> None:
    for _ in range(n):
        at = c.get(seat).json()["at"]
        r = c.post(seat + "/act", json={"at": at, "action": "roll", "params": {"expr": "3d6"}})
        assert r.status_code == 200, r.text


def test_forking_a_game_in_play_foresees_none_of_its_dice(tmp_path: Path) -> None:
    db = tmp_path / "w.db"
    c = TestClient(create_app(db, KEY))
    live = book(c)
    roll(c, live["table"], 2)
    live_game = c.get(live["table"]).json()
    # the attack: fork the live game, end the fork, read its seed
    fork = {k: "/api" + v for k, v in c.post(live["host"] + "/fork").json()["links"].items()}
    ended = c.post(fork["host"] + "/end").json()
    seed = ended["dice"]["seed"]
    assert hashlib.sha256(seed.encode()).hexdigest() != live_game["dice"]["commitment"]
    assert seed != Store(db).info(live_game["game"]).seed
    fork_export = c.get(fork["host"] + "/export").json()
    assert Store(db).info(live_game["game"]).seed not in json.dumps(fork_export)
    # the fork's export names its parent and the parent's chain head at the fork point
    record = fork_export["game"]["fork"]
    assert record["parent"] == live_game["game"] and record["at"] == 2
    assert record["head"] == Store(db).head(live_game["game"]) and not record["keeps_dice"]
    # verify says which part it checked: not the parent's dice while the parent plays on
    report = c.get(fork["host"] + "/verify").json()
    assert report["ok"] and report["rolls_checked"]
    assert any("are the parent's" in p and "not checked here" in p for p in report["parts"])
    # once the parent has ended, its export checks the dice before the fork
    c.post(live["host"] + "/end")
    report = c.get(fork["host"] + "/verify").json()
    assert any("checked with the parent" in p for p in report["parts"]), report["parts"]


def test_the_fork_rolls_its_own_dice_after_the_fork(tmp_path: Path) -> None:
    db = tmp_path / "w.db"
    c = TestClient(create_app(db, KEY))
    live = book(c)
    roll(c, live["table"], 1)
    fork = {k: "/api" + v for k, v in c.post(live["host"] + "/fork").json()["links"].items()}
    roll(c, live["table"], 3)
    roll(c, fork["table"], 3)
    mine = c.get(fork["table"]).json()
    theirs = c.get(live["table"]).json()
    assert mine["dice"]["commitment"] != theirs["dice"]["commitment"]
    for seat in (fork, live):
        c.post(seat["host"] + "/end")
    report = c.get(fork["host"] + "/verify").json()
    assert report["ok"] and report["dice"] == 12
    assert any("dice 3-11: checked against this game's own seed" in p for p in report["parts"])
    assert any("dice 0-2" in p and "checked with the parent" in p for p in report["parts"])


def test_forking_an_ended_game_shows_no_revealed_seed_as_a_live_secret(tmp_path: Path) -> None:
    db = tmp_path / "w.db"
    c = TestClient(create_app(db, KEY))
    live = book(c)
    roll(c, live["table"], 2)
    seed = c.post(live["host"] + "/end").json()["dice"]["seed"]
    fork = {k: "/api" + v for k, v in c.post(live["host"] + "/fork").json()["links"].items()}
    v = c.get(fork["host"]).json()
    assert not v["ended"] and v["dice"]["seed"] is None and v["dice"]["source"] == "committed"
    assert seed not in c.get(fork["host"].removeprefix("/api")).text
    assert v["dice"]["commitment"] != hashlib.sha256(seed.encode()).hexdigest()


def test_a_fork_keeps_the_parents_dice_only_from_an_ended_game_and_says_so(
    tmp_path: Path,
) -> None:
    db = tmp_path / "w.db"
    c = TestClient(create_app(db, KEY))
    live = book(c)
    roll(c, live["table"], 2)
    r = c.post(live["host"] + "/fork", json={"keep_dice": True})
    assert r.status_code == 403 and "ended" in r.json()["error"]
    seed = c.post(live["host"] + "/end").json()["dice"]["seed"]
    links = c.post(live["host"] + "/fork", json={"keep_dice": True}).json()["links"]
    fork = {k: "/api" + v for k, v in links.items()}
    v = c.get(fork["table"]).json()
    assert v["dice"]["source"] == "seeded" and v["fork"]["keeps_dice"]
    page = c.get(links["table"]).text
    assert "replays its dice" in page and "anyone can foresee every die" in page
    roll(c, fork["table"], 1)
    c.post(fork["host"] + "/end")
    report = c.get(fork["host"] + "/verify").json()
    assert report["ok"] and report["rolls_checked"] and report["dice"] == 9
    assert c.get(fork["host"] + "/export").json()["game"]["seed"] == seed


@pytest.mark.parametrize("players", [{}, {"union": "ai"}])
def test_a_joint_dice_battle_forked_in_play_gets_its_own_host_seed(
    tmp_path: Path, players: dict[str, str]
) -> None:
    db = tmp_path / "w.db"
    c = TestClient(create_app(db, KEY))
    body = {"kind": "battle", "scenario": "stone_wall", "dice": "joint", "players": players}
    links = {
        k: "/api" + v for k, v in c.post(f"/api/games?key={KEY}", json=body).json()["links"].items()
    }
    sides = [s for s in ("union", "confederate") if s not in players]
    values = {s: secrets.token_hex(32) for s in ("union", "confederate")}
    for s in ("union", "confederate"):
        digest = hashlib.sha256(values[s].encode()).hexdigest()
        c.post(links[s] + "/commit", json={"digest": digest})
    for s in ("union", "confederate"):
        c.post(links[s] + "/reveal", json={"value": values[s], "entropy": secrets.token_hex(32)})
    assert sides
    live = c.get(links["host"]).json()
    fork = c.post(links["host"] + "/fork").json()
    fv = c.get("/api" + fork["links"]["host"]).json()
    assert fv["dice"]["joint"]["commitment"] != live["dice"]["joint"]["commitment"]
    assert fv["dice"]["joint"]["ready"] and fv["at"] == live["at"]
    assert Store(db).info(live["game"]).seed not in json.dumps(fv)


def test_verify_checks_a_forks_dice_with_the_parents_export_and_refuses_another_parent(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The store and ``umpire games verify --parent``: the fork's own part against its own
    seed, the part before the fork against the parent's export (chain head, actions, dice)."""
    from umpire.cli.main import main
    from umpire.dice import CommittedSource
    from umpire.engine.game import Game
    from umpire.errors import VerifyError
    from umpire.store import verify_export

    store = Store(tmp_path / "s.db")
    store.create("p", Game.new("session", {}, CommittedSource()))
    store.create("other", Game.new("session", {}, CommittedSource()))
    for name in ("p", "p", "other"):
        store.play(name, store.load(name), "roll", {"expr": "2d6"})
    store.fork("p", "f", source=CommittedSource(), keeps_dice=False)
    store.play("f", store.load("f"), "roll", {"expr": "2d6"})
    for name in ("p", "f", "other"):
        store.end(name)
    fork, parent = store.export("f"), store.export("p")
    report = verify_export(fork, parent=parent)
    assert report.parts == [
        "dice 0-3 (actions 1-2): checked with the parent 'p''s export against the parent's seed",
        "dice 4-5: checked against this game's own seed",
    ]
    with pytest.raises(VerifyError, match="is game 'other', not 'p'"):
        verify_export(fork, parent=store.export("other"))
    bad = json.loads(json.dumps(parent))
    bad["game"]["name"] = "p"
    bad["actions"][1]["events"][1]["draws"][0][2] = [6, 6]
    with pytest.raises(VerifyError):
        verify_export(fork, parent=bad)
    # an import keeps the fork record; the CLI checks with a parent's file
    Store(tmp_path / "t.db").import_(fork, name="f2")
    assert Store(tmp_path / "t.db").info("f2").fork == fork["game"]["fork"]
    (tmp_path / "f.json").write_text(json.dumps(fork))
    (tmp_path / "p.json").write_text(json.dumps(parent))
    code = main(["games", "verify", str(tmp_path / "f.json"), "--parent", str(tmp_path / "p.json")])
    out = capsys.readouterr()
    assert code == 0, out.err
    assert "checked with the parent 'p''s export" in out.out


def test_the_pages_verify_says_which_part_it_checked_and_lists_the_records(
    tmp_path: Path,
) -> None:
    """What a person clicking "verify" reads, not only the JSON: the fork's parts (its own
    dice against its own seed, the parent's before the fork) and the records beside the log
    (an undo with its withdrawn dice). Before, the box said 'every die checked against the
    revealed seed' and nothing of either."""
    c = TestClient(create_app(tmp_path / "w.db", KEY))
    live = book(c)
    roll(c, live["table"], 2)
    fork = {k: "/api" + v for k, v in c.post(live["host"] + "/fork").json()["links"].items()}
    roll(c, fork["table"], 2)
    at = c.get(fork["table"]).json()["at"]
    assert c.post(fork["table"] + "/undo", json={"at": at}).json()["dropped"] == 1
    c.post(fork["host"] + "/end")
    from html import unescape

    page = unescape(c.get(fork["host"].removeprefix("/api") + "/verify").text)
    assert "every die checked against the revealed seed" not in page
    assert "checked against this game's own seed" in page
    assert "are the parent's" in page and "not checked here" in page
    assert "undo asked by table" in page, page
