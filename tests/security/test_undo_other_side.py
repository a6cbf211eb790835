"""Attack: undo takes the other side's order (issue 22, "Nobody can see or choose the dice").

A side's undo dropped two actions, its own and the other side's answer. A side undoes only
its own actions (reading ``web_undo``); anything more needs the other side's consent.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from umpire.web.app import create_app

KEY = "undo-key"


def rolled(entry: dict[str, Any]) -> bool:
    return any(line["kind"] in ("roll", "draw") for line in entry["lines"])


def test_a_sides_undo_never_drops_the_other_sides_answer_on_its_own(tmp_path: Path) -> None:
    c = TestClient(create_app(tmp_path / "w.db", KEY))
    body = {"kind": "battle", "scenario": "stone_wall", "dice": "committed"}
    links = c.post(f"/api/games?key={KEY}", json=body).json()["links"]
    # play hold/move orders until one side's dice-free order is answered by the other side's
    found = None
    given: dict[int, str] = {}  # action number -> the side whose order it was
    for _ in range(60):
        for side in ("confederate", "union"):
            v = c.get("/api" + links[side]).json()
            choices = v["table"]["choices"]
            if not choices:
                continue
            hold = [ch["i"] for ch in choices if ch["kind"] == "hold"]
            r = c.post(
                "/api" + links[side] + "/order",
                json={"at": v["at"], "choice": hold[0] if hold else choices[0]["i"]},
            )
            log = r.json()["log"]
            given[log[0]["no"]] = side
            if (
                len(log) >= 2
                and given.get(log[1]["no"]) not in (side, None)
                and not rolled(log[0])
                and not rolled(log[1])
            ):
                found = (given[log[1]["no"]], side, r.json()["at"])
                break
        if found:
            break
    assert found, "no dice-free order answered by the other side"
    first, answerer, at = found
    # the attack: the first side takes back its order, and the other side's answer with it
    r = c.post("/api" + links[first] + "/undo", json={"at": at})
    assert r.status_code == 200, r.text
    assert r.json()["dropped"] == 0 and r.json()["asked"]
    assert c.get("/api" + links[answerer]).json()["at"] == at  # the answer stands
    # the answering side sees what would go, its own action among it, and decides
    req = c.get("/api" + links[answerer]).json()["undo_request"]
    assert [a["by"] for a in req["withdrawn"]] == [first, answerer] and req["answer"]
    r = c.post("/api" + links[answerer] + "/undo/answer", json={"at": at, "agree": True})
    assert r.json()["dropped"] == 2
    text = c.get("/api" + links["spectator"]).json()["records"][0]["text"]
    assert f"{first} asked, {answerer} agreed" in text


def test_a_side_takes_back_its_own_dice_free_order_alone_and_it_is_announced(
    tmp_path: Path,
) -> None:
    c = TestClient(create_app(tmp_path / "w.db", KEY))
    body = {"kind": "battle", "scenario": "stone_wall", "dice": "committed"}
    links = c.post(f"/api/games?key={KEY}", json=body).json()["links"]
    side = "confederate"  # side A moves first (seed 002 sequence)
    v = c.get("/api" + links[side]).json()
    hold = next(ch["i"] for ch in v["table"]["choices"] if ch["kind"] == "hold")
    after = c.post("/api" + links[side] + "/order", json={"at": v["at"], "choice": hold}).json()
    assert after["may_undo"] and not after["undo_needs_consent"]
    r = c.post("/api" + links[side] + "/undo", json={"at": after["at"]})
    assert r.json() == {"dropped": 1}
    text = c.get("/api" + links["union"]).json()["records"][0]["text"]
    assert "confederate asked, no consent needed: its own last order, no die rolled since" in text
