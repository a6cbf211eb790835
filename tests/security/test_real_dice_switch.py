"""Attack: real dice switched on silently (issue 22, "Nobody can see or choose the dice").

A side could switch to real dice at any moment and type 6 6; the opponent's page showed an
ordinary roll. Switching is announced on every page at once, needs the other side's
agreement in a game between two people (reading ``web_real_dice``), and every typed roll
is marked typed in every log and in the export.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from umpire.web.app import create_app

KEY = "real-key"
CWB = {"kind": "cwb", "dice": "committed", "start": "July 2 14:00"}
"""Seed 000's assistant: the phasing Confederate player rolls the random events (2d6)."""


def seats(c: TestClient) -> dict[str, str]:
    links: dict[str, str] = c.post(f"/api/games?key={KEY}", json=CWB).json()["links"]
    return {k: "/api" + v for k, v in links.items()}


def test_real_dice_need_the_other_sides_agreement_and_every_page_is_told(tmp_path: Path) -> None:
    c = TestClient(create_app(tmp_path / "w.db", KEY))
    s = seats(c)
    # the attack: switch on silently, then type the faces one wants
    v = c.post(s["confederate"] + "/real-dice", json={"on": True}).json()
    assert not v["real_dice"], "switched on without the other side's agreement"
    for seat in ("union", "host", "spectator"):
        req = c.get(s[seat]).json()["real_dice_request"]
        assert req["by"] == "confederate" and req["answer"] is (seat == "union")
    assert "asks to roll real dice" in c.get(s["union"].removeprefix("/api")).text
    r = c.post(s["confederate"] + "/act", json={"at": 0, "action": "phase"}).json()
    assert r["roll"] is None  # the game's own dice roll: nobody is asked to type faces
    assert c.post(s["host"] + "/real-dice/answer", json={"agree": True}).status_code == 403
    assert c.post(s["confederate"] + "/real-dice/answer", json={"agree": True}).status_code == 403
    c.post(s["union"] + "/real-dice/answer", json={"agree": True})
    for seat in ("union", "host", "spectator", "confederate"):
        v = c.get(s[seat]).json()
        assert v["real_dice_sides"] == ["confederate"] and v["real_dice_request"] is None
        assert "confederate player rolls real dice" in v["records"][0]["text"]
        assert "union agreed" in v["records"][0]["text"]
    assert c.get(s["confederate"]).json()["real_dice"]


def typed_roll(c: TestClient, s: dict[str, str]) -> dict[str, Any]:
    """The Confederate player (real dice, agreed) rolls the next phase's events as 6 6 ..."""
    c.post(s["confederate"] + "/real-dice", json={"on": True})
    c.post(s["union"] + "/real-dice/answer", json={"agree": True})
    v = c.get(s["confederate"]).json()
    for cmd in v["table"]["commands"]:
        if cmd["action"] == "phase":
            break
    else:
        raise AssertionError("no phase to roll")
    at = v["at"]
    c.post(s["confederate"] + "/act", json={"at": at, "action": "phase"})
    for _ in range(20):
        v = c.get(s["confederate"]).json()
        if v["roll"] is not None:
            n = v["roll"]["n"]
            top = 6 if not v["roll"].get("labels") else 1
            c.post(s["confederate"] + "/faces", json={"at": at, "faces": [top] * n})
            continue
        q = c.get(s["union"]).json()["table"]["question"]
        if q:
            c.post(s["union"] + "/answer", json={"at": at, "answer": [q["options"][0][0]]})
            continue
        break
    out: dict[str, Any] = c.get(s["union"]).json()
    assert out["at"] == at + 1
    return out


def test_every_typed_roll_is_marked_typed_in_every_log_and_in_the_export(tmp_path: Path) -> None:
    c = TestClient(create_app(tmp_path / "w.db", KEY))
    s = seats(c)
    v = typed_roll(c, s)
    for seat in ("union", "spectator", "host", "confederate"):
        entry = c.get(s[seat]).json()["log"][0]
        rolls = [line for line in entry["lines"] if line["kind"] == "roll"]
        assert rolls and all("(real dice, typed)" in line["text"] for line in rolls), rolls
        assert entry["typed"]
    assert v["log"][0]["typed"]
    page = c.get(s["union"].removeprefix("/api")).text
    assert "(real dice, typed)" in page
    c.post(s["host"] + "/end")
    export = c.get(s["host"] + "/export").json()
    draws = [d for e in export["actions"][-1]["events"] for d in e.get("draws", [])]
    assert draws and all(d[3:] == ["typed"] for d in draws)
    assert any(r["kind"] == "real_dice" and r["agreed"] == "union" for r in export["records"])
    report = c.get(s["host"] + "/verify").json()
    assert any("confederate switched real dice on, union agreed" in x for x in report["records"])
    assert any("typed" in n for n in report["notes"])


def test_against_the_ai_real_dice_switch_at_once_and_are_recorded(tmp_path: Path) -> None:
    c = TestClient(create_app(tmp_path / "w.db", KEY))
    body = {"kind": "battle", "scenario": "stone_wall", "players": {"union": "ai"}}
    links = c.post(f"/api/games?key={KEY}", json=body).json()["links"]
    v = c.post("/api" + links["confederate"] + "/real-dice", json={"on": True}).json()
    assert v["real_dice"] and v["real_dice_sides"] == ["confederate"]
    assert "against the AI" in c.get("/api" + links["spectator"]).json()["records"][0]["text"]
    v = c.post("/api" + links["confederate"] + "/real-dice", json={"on": False}).json()
    assert not v["real_dice"] and "game's dice again" in v["records"][0]["text"]


@pytest.mark.parametrize("dice", ["committed", "joint"])
def test_real_dice_type_only_the_typers_own_rolls_the_other_sides_come_from_the_game(
    tmp_path: Path, dice: str
) -> None:
    """A cheating player's next step: with real dice agreed, the Confederate player typed
    every roll of the actions it started, the Union's own among them (seed 003: a Union
    unit's reaction to fire, its officer against the men, its deduction behind a wall),
    and could type them as 1s. A roll that names a unit or leader of another side comes
    from the game's dice (checked by verify); the typer types only its own."""
    import hashlib
    import itertools
    import secrets

    c = TestClient(create_app(tmp_path / "w.db", KEY))
    body = {"kind": "battle", "scenario": "stone_wall", "dice": dice}
    s = {
        k: "/api" + v for k, v in c.post(f"/api/games?key={KEY}", json=body).json()["links"].items()
    }
    if dice == "joint":  # both browsers commit, then reveal (docs/dice-protocol.md)
        values = {side: secrets.token_hex(32) for side in ("union", "confederate")}
        for side, val in values.items():
            digest = hashlib.sha256(val.encode()).hexdigest()
            c.post(s[side] + "/commit", json={"digest": digest})
        for side, val in values.items():
            c.post(s[side] + "/reveal", json={"value": val, "entropy": secrets.token_hex(32)})
    c.post(s["confederate"] + "/real-dice", json={"on": True})
    c.post(s["union"] + "/real-dice/answer", json={"agree": True})
    table = c.get(s["union"]).json()["table"]
    union_names = [u["name"] for u in table["units"] + table["leaders"] if u["side"] == "union"]
    assert union_names
    asked: list[str] = []
    faces = itertools.cycle([1, 2, 5, 3, 6, 4])
    mixed = False
    for _ in range(300):
        moved = False
        for side in ("confederate", "union"):
            v = c.get(s[side]).json()
            if v["roll"] is not None and side == "confederate":
                asked.append(v["roll"]["purpose"])
                n = v["roll"]["n"]
                top = len(v["roll"].get("labels") or []) or 6
                given = [min(next(faces), top) for _ in range(n)]
                c.post(s[side] + "/faces", json={"at": v["at"], "faces": given})
                moved = True
                continue
            q = v["table"].get("question")
            if q:
                c.post(s[side] + "/answer", json={"at": v["at"], "answer": [q["options"][0][0]]})
                moved = True
                continue
            choices = v["table"]["choices"]
            if choices:
                fire = [ch["i"] for ch in choices if ch["kind"] in ("fire", "charge")]
                i = fire[0] if fire else choices[0]["i"]
                order = {"at": v["at"], "choice": i, "entropy": secrets.token_hex(32)}
                assert c.post(s[side] + "/order", json=order).status_code == 200
                moved = True
        log = c.get(s["spectator"]).json()["log"]
        for entry in log:
            texts = [line["text"] for line in entry["lines"] if line["kind"] == "roll"]
            if any("typed" in t for t in texts) and any("typed" not in t for t in texts):
                mixed = True
        if mixed or not moved:
            break
    assert asked, "the Confederate player was never asked for real dice"
    theirs = [p for p in asked if any(p.startswith(name) for name in union_names)]
    assert not theirs, f"the Confederate player typed the Union's rolls: {theirs[:3]}"
    assert mixed, "no action of the typer held a roll of the game's dice for the Union"
    c.post(s["host"] + "/end")
    report = c.get(s["host"] + "/verify").json()
    assert report["ok"] and report["rolls_checked"]
    assert any("typed" in n for n in report["notes"])
