"""Attack: undo re-rolls (issue 22, "Nobody can see or choose the dice").

With joint dice the host undid a fire order and the side gave it again: the same order
rolled new dice each time, until they suited. With committed dice the same dice came back,
but the side had already seen them. Now, in a game between two people, for every kind of
hidden dice, undoing anything that rolled a die needs the other side's consent in its page
(the host's link alone cannot), every undo is announced on every page and recorded beside
the log with the withdrawn faces, the export carries the records and verify lists them.
With open practice dice (seeded) the person may undo freely, and the record still shows it.
"""

from __future__ import annotations

import hashlib
import json
import secrets
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from umpire.errors import VerifyError
from umpire.store import Store, verify_export
from umpire.web.app import create_app

KEY = "undo-key"


def start(c: TestClient, dice: str, **body: Any) -> dict[str, str]:
    body = {"kind": "battle", "scenario": "stone_wall", "dice": dice, **body}
    links: dict[str, str] = c.post(f"/api/games?key={KEY}", json=body).json()["links"]
    if dice == "joint":  # both browsers commit, then reveal (docs/dice-protocol.md)
        values = {s: secrets.token_hex(32) for s in ("union", "confederate")}
        for s, val in values.items():
            digest = hashlib.sha256(val.encode()).hexdigest()
            c.post("/api" + links[s] + "/commit", json={"digest": digest})
        for s, val in values.items():
            c.post(
                "/api" + links[s] + "/reveal", json={"value": val, "entropy": secrets.token_hex(32)}
            )
    return links


def order(c: TestClient, link: str, v: dict[str, Any], choice: int) -> dict[str, Any]:
    body = {"at": v["at"], "choice": choice, "entropy": secrets.token_hex(32)}
    r = c.post("/api" + link + "/order", json=body)
    assert r.status_code == 200, r.text
    out: dict[str, Any] = r.json()
    return out


def rolled(entry: dict[str, Any]) -> bool:
    return any(line["kind"] == "roll" for line in entry["lines"])


def play_until_a_fire_order(c: TestClient, links: dict[str, str]) -> tuple[str, dict[str, Any]]:
    """Both sides play (firing when they can) until a side's own order rolls dice."""
    for _ in range(80):
        for side in ("confederate", "union"):
            v = c.get("/api" + links[side]).json()
            choices = v["table"]["choices"]
            if not choices:
                continue
            fire = [ch["i"] for ch in choices if ch["kind"] == "fire"]
            after = order(c, links[side], v, fire[0] if fire else choices[0]["i"])
            if fire and rolled(after["log"][0]):
                return side, after
    raise AssertionError("no fire order in 80 rounds")


@pytest.mark.parametrize("dice", ["committed", "joint"])
def test_undo_of_a_roll_needs_the_other_sides_consent_and_is_recorded(
    tmp_path: Path, dice: str
) -> None:
    c = TestClient(create_app(tmp_path / "w.db", KEY))
    links = start(c, dice)
    side, after = play_until_a_fire_order(c, links)
    other = "union" if side == "confederate" else "confederate"
    at = after["at"]
    faces = [line["text"] for line in after["log"][0]["lines"] if line["kind"] == "roll"]
    # the attack: the host's link alone takes the fire order back (to give it again)
    r = c.post("/api" + links["host"] + "/undo", json={"at": at})
    assert r.status_code == 403, r.text
    assert c.get("/api" + links[side]).json()["at"] == at
    # the side may only ask; nothing is dropped yet, and every page is told
    r = c.post("/api" + links[side] + "/undo", json={"at": at})
    assert r.status_code == 200 and r.json() == {"dropped": 0, "asked": True}
    for seat in ("host", other, "spectator", side):
        v = c.get("/api" + links[seat]).json()
        assert v["at"] == at and v["undo_request"]["by"] == side
        assert v["undo_request"]["withdrawn"][0]["no"] == at
        assert v["undo_request"]["answer"] is (seat == other)
    page = c.get(links[other]).text
    assert "asks to take back" in page and "agree to the undo" in page
    assert (
        c.post("/api" + links[side] + "/undo/answer", json={"at": at, "agree": True}).status_code
        == 403
    )
    assert (
        c.post("/api" + links["host"] + "/undo/answer", json={"at": at, "agree": True}).status_code
        == 403
    )
    r = c.post("/api" + links[other] + "/undo/answer", json={"at": at, "agree": True})
    assert r.status_code == 200 and r.json()["dropped"] == 1
    for seat in ("host", other, "spectator", side):
        v = c.get("/api" + links[seat]).json()
        assert v["at"] == at - 1 and v["undo_request"] is None
        text = v["records"][0]["text"]
        assert f"{side} asked, {other} agreed" in text and "dice [" in text
    # the record stays beside the log: the export carries it and verify lists it
    c.post("/api" + links["host"] + "/end")
    export = c.get("/api" + links["host"] + "/export").json()
    (rec,) = [r for r in export["records"] if r["kind"] == "undo"]
    assert rec["by"] == side and rec["agreed"] == other and rec["from"] == at - 1
    withdrawn = rec["withdrawn"][0]
    assert withdrawn["no"] == at and withdrawn["events"][0]["by"] == side
    assert any(e.get("draws") for e in withdrawn["events"])
    report = c.get("/api" + links["host"] + "/verify").json()
    assert report["ok"] and any(
        f"undo asked by {side}, {other} agreed" in x for x in report["records"]
    )
    assert faces  # the withdrawn roll was shown in the log before it was taken back
    # an import keeps the records beside the log, and a tampered withdrawn face is caught
    copy = Store(tmp_path / "copy.db")
    copy.import_(export, name="copy")
    assert [r["kind"] for r in copy.export("copy")["records"]] == ["undo"]
    bad = json.loads(json.dumps(export))
    draws = next(d for e in bad["records"][0]["withdrawn"][0]["events"] for d in e.get("draws", []))
    draws[2][0] = draws[2][0] % draws[1] + 1
    with pytest.raises(VerifyError, match="withdrawn actions do not chain"):
        verify_export(bad)
    from umpire.engine.chain import heads  # a forger who also rewrites the record's head

    rec = bad["records"][0]
    rec["head"] = heads(rec["from_head"], rec["withdrawn"])[-1]
    with pytest.raises(VerifyError, match=r"withdrawn action .* the seed gives"):
        verify_export(bad)


def test_a_refused_undo_changes_nothing_and_is_recorded(tmp_path: Path) -> None:
    c = TestClient(create_app(tmp_path / "w.db", KEY))
    links = start(c, "committed")
    side, after = play_until_a_fire_order(c, links)
    other = "union" if side == "confederate" else "confederate"
    at = after["at"]
    c.post("/api" + links[side] + "/undo", json={"at": at})
    r = c.post("/api" + links[other] + "/undo/answer", json={"at": at, "agree": False})
    assert r.status_code == 200 and r.json()["dropped"] == 0
    v = c.get("/api" + links["spectator"]).json()
    assert v["at"] == at and v["undo_request"] is None
    assert f"refused by {other}" in v["records"][0]["text"]


def test_with_open_practice_dice_or_the_ai_the_person_undoes_freely_and_it_is_recorded(
    tmp_path: Path,
) -> None:
    c = TestClient(create_app(tmp_path / "w.db", KEY))
    links = start(c, "seeded")
    side, after = play_until_a_fire_order(c, links)
    other = "union" if side == "confederate" else "confederate"
    r = c.post("/api" + links[side] + "/undo", json={"at": after["at"]})
    assert r.status_code == 200 and r.json()["dropped"] == 1
    text = c.get("/api" + links[other]).json()["records"][0]["text"]
    assert f"{side} asked, no consent needed: open practice dice" in text and "dice [" in text
    ai = start(c, "committed", players={"union": "ai"})
    _, after = play_until_a_fire_order(c, ai)
    r = c.post("/api" + ai["confederate"] + "/undo", json={"at": after["at"]})
    assert r.status_code == 200 and r.json()["dropped"] >= 1
    rec = c.get("/api" + ai["spectator"]).json()["records"][0]["text"]
    assert "no consent needed: against the AI" in rec
