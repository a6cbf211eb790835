"""Attack: one stray tap ends the game (issue 22: "'End the game' asks for confirmation; say
plainly that it cannot be undone.")."""

from __future__ import annotations

from pathlib import Path

from fastapi.testclient import TestClient

from umpire.web.app import create_app

KEY = "end-test-key"


def test_ending_the_game_asks_first_and_says_it_cannot_be_undone(tmp_path: Path) -> None:
    """The host's page says it cannot be undone; a post without the confirmation is refused
    (one line) and the game goes on; with it, the game ends."""
    with TestClient(create_app(tmp_path / "web.db", KEY)) as c:
        links = c.post(f"/api/games?key={KEY}", json={"kind": "book"}).json()["links"]
        host = links["host"]
        page = c.get(host).text
        assert "cannot be undone" in page
        assert 'name="confirm" value="end"' in page
        assert "Yes, end the game" in page
        refused = c.post(host + "/end", headers={"hx-request": "true"})
        assert refused.status_code == 400 and "cannot be undone" in refused.text
        assert c.get("/api" + host).json()["ended"] is False
        done = c.post(host + "/end", data={"confirm": "end"}, headers={"hx-request": "true"})
        assert done.status_code == 200
        assert c.get("/api" + host).json()["ended"] is True
