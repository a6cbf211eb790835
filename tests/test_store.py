"""SQLite saves: atomic actions, undo, fork, export/import, verify, bad input."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from umpire.dice import CommittedSource, SeededSource
from umpire.engine import Game
from umpire.errors import UmpireError, UnknownNameError, VerifyError
from umpire.store import Store, verify_export


def make(store: Store, name: str = "g", source: Any = None) -> Game:
    game = Game.new("session", {"title": name}, source or SeededSource(42))
    store.create(name, game)
    return game


def test_wal_mode_and_default_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("UMPIRE_DB")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    store = Store()
    assert store.path == tmp_path / "xdg" / "umpire" / "umpire.db"
    make(store)
    mode = store.conn.execute("PRAGMA journal_mode").fetchone()[0]
    assert mode == "wal"


def test_play_load_and_continue(tmp_path: Path) -> None:
    store = Store(tmp_path / "s.db")
    make(store)
    for expr in ("2d6", "d66", "3d6"):
        store.play("g", store.load("g"), "roll", {"expr": expr})
    reopened = Store(tmp_path / "s.db")
    game = reopened.load("g")
    assert len(game.actions) == 3
    assert game.source.position == 2 + 2 + 3
    # The next roll continues the seeded stream exactly where the log stops.
    record = reopened.play("g", game, "roll", {"expr": "d6"})
    assert record.events[1].data["dice"][0]["faces"] == [SeededSource.face_at(42, 7, 6)]


def test_failed_action_writes_nothing(tmp_path: Path) -> None:
    store = Store(tmp_path / "s.db")
    make(store)
    with pytest.raises(UmpireError):
        store.play("g", store.load("g"), "roll", {"expr": "3d6+"})
    assert store.info("g").actions == 0
    assert store.conn.execute("SELECT COUNT(*) FROM events").fetchone()[0] == 0


def test_half_written_action_is_rolled_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A failure inside the transaction (a kill mid-write) leaves no partial action."""
    store = Store(tmp_path / "s.db")
    make(store)
    game = store.load("g")
    record = game.act("roll", {"expr": "2d6"})
    import umpire.store.sqlite as mod

    real = mod._insert_action

    def broken(conn: sqlite3.Connection, name: str, rec: Any) -> None:
        conn.execute(
            "INSERT INTO actions(game, no, name, params, state_hash, created) VALUES(?,?,?,?,?,?)",
            (name, rec.no, rec.name, "{}", rec.state_hash, "now"),
        )
        raise KeyboardInterrupt

    monkeypatch.setattr(mod, "_insert_action", broken)
    with pytest.raises(KeyboardInterrupt):
        store.append("g", record)
    monkeypatch.setattr(mod, "_insert_action", real)
    assert Store(tmp_path / "s.db").info("g").actions == 0


def test_undo_and_fork(tmp_path: Path) -> None:
    store = Store(tmp_path / "s.db")
    make(store)
    hashes = []
    for expr in ("2d6", "2d6", "2d6"):
        hashes.append(store.play("g", store.load("g"), "roll", {"expr": expr}).state_hash)
    assert store.fork("g", "g2", at=1) == 1
    assert store.load("g2").state_hash() == hashes[0]
    assert store.info("g2").parent == "g@1"
    assert store.undo("g", 2) == 1
    assert store.load("g").state_hash() == hashes[1]
    with pytest.raises(UmpireError, match="cannot undo to 9"):
        store.undo("g", 9)
    with pytest.raises(UmpireError, match="already exists"):
        store.fork("g", "g2")


def test_unknown_game(tmp_path: Path) -> None:
    store = Store(tmp_path / "s.db")
    make(store, "known")
    with pytest.raises(UnknownNameError, match="unknown game 'nope' \\(games: known\\)"):
        store.load("nope")


def committed_export(tmp_path: Path) -> dict[str, Any]:
    store = Store(tmp_path / "c.db")
    make(store, "c", CommittedSource(123456789))
    for expr in ("2d6", "d66", "4d6kh3"):
        store.play("c", store.load("c"), "roll", {"expr": expr})
    store.play("c", store.load("c"), "pick", {"options": ["a", "b", "c"], "count": 2})
    store.end("c")
    return store.export("c")


def test_export_verify_and_tamper(tmp_path: Path) -> None:
    data = committed_export(tmp_path)
    assert data["game"]["seed"] == "123456789"
    report = verify_export(data)
    assert report.rolls_checked and report.dice == 2 + 2 + 4 + 2
    # Change one face of the d66 roll (action 2) consistently in faces, draws and total.
    bad = json.loads(json.dumps(data))
    roll = bad["actions"][1]["events"][1]
    face = roll["draws"][0][2][0]
    new = 1 if face != 1 else 2
    roll["draws"][0][2][0] = new
    with pytest.raises(VerifyError, match=r"tampered roll at log event 6 \(action 2"):
        verify_export(bad)
    # A wrong revealed seed is caught by the commitment.
    wrong = json.loads(json.dumps(data))
    wrong["game"]["seed"] = "1"
    with pytest.raises(VerifyError, match="does not match the commitment"):
        verify_export(wrong)


def test_edited_total_is_caught_by_reexecution(tmp_path: Path) -> None:
    data = committed_export(tmp_path)
    bad = json.loads(json.dumps(data))
    bad["actions"][0]["events"][1]["total"] += 1
    with pytest.raises(VerifyError, match="action 1"):
        verify_export(bad)


def test_unrevealed_commitment_hides_the_seed(tmp_path: Path) -> None:
    store = Store(tmp_path / "c.db")
    make(store, "c", CommittedSource(99))
    store.play("c", store.load("c"), "roll", {"expr": "2d6"})
    data = store.export("c")
    assert data["game"]["seed"] is None
    report = verify_export(data)
    assert not report.rolls_checked and "not revealed" in report.notes[0]


def test_import_round_trip_and_refusal(tmp_path: Path) -> None:
    data = committed_export(tmp_path)
    store = Store(tmp_path / "other.db")
    assert store.import_(data) == "c"
    assert store.load("c").state_hash() == data["actions"][-1]["state_hash"]
    bad = json.loads(json.dumps(data))
    bad["actions"][0]["state_hash"] = "0" * 64
    with pytest.raises(VerifyError):
        store.import_(bad, name="c2")
    assert "c2" not in store.names()
    with pytest.raises(UmpireError, match="not an umpire game export"):
        store.import_({"format": "umpire-game/1"}, name="c3")


def test_corrupt_change_path_is_reported(tmp_path: Path) -> None:
    data = committed_export(tmp_path)
    bad = json.loads(json.dumps(data))
    change = next(e for e in bad["actions"][2]["events"] if e["kind"] == "change")
    change["op"] = "remove"
    change["path"] = ["nowhere", "at", "all"]
    with pytest.raises(VerifyError, match="action 3 does not replay"):
        verify_export(bad)


def test_kill_mid_play_leaves_a_sound_save(tmp_path: Path) -> None:
    """A process killed with SIGKILL while saving loses at most the action in flight."""
    import signal
    import subprocess
    import sys
    import time

    db = tmp_path / "kill.db"
    script = (
        "import sys\n"
        "from umpire.dice import SeededSource\n"
        "from umpire.engine import Game\n"
        "from umpire.store import Store\n"
        "s = Store(sys.argv[1])\n"
        "s.create('k', Game.new('session', {}, SeededSource(1)))\n"
        "print('ready', flush=True)\n"
        "while True:\n"
        "    s.play('k', s.load('k'), 'roll', {'expr': '3d6'})\n"
    )
    proc = subprocess.Popen(
        [sys.executable, "-c", script, str(db)], stdout=subprocess.PIPE, text=True
    )
    assert proc.stdout is not None and proc.stdout.readline().strip() == "ready"
    time.sleep(0.8)
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=30)
    store = Store(db)
    assert store.conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    info = store.info("k")
    assert info.actions > 0
    report = verify_export(store.export("k"))
    assert report.actions == info.actions and report.dice == 3 * info.actions


def test_a_shared_load_cache_follows_other_connections_writes_undos_and_deletes(
    tmp_path: Path,
) -> None:
    """Connections sharing ``loaded`` (the web server's threads) read only the actions logged
    since a game was last rebuilt, and rebuild it whole after an undo or a delete by any of
    them; every load equals a fresh connection's load."""
    db = tmp_path / "s.db"
    shared: dict[str, Any] = {}
    a, b = Store(db, shared), Store(db, shared)

    def fresh() -> Any:
        return Store(db).load("g").state

    make(a)
    g = b.load("g")
    for _ in range(3):
        b.play("g", g, "roll", {"expr": "2d6"})
    assert a.load("g").state == fresh() and len(a.load("g").actions) == 3
    b.undo("g", 1)
    g = Store(db).load("g")  # a third connection: the shared entry is still the old log
    Store(db).play("g", g, "roll", {"expr": "3d6"})
    Store(db).play("g", g, "roll", {"expr": "4d6"})
    loaded = a.load("g")
    assert loaded.state == fresh() and [r.params["expr"] for r in loaded.actions] == [
        "2d6",
        "3d6",
        "4d6",
    ]
    assert loaded.source.position == Store(db).load("g").source.position
    a.delete("g")
    make(b)
    assert b.load("g").actions == [] and b.load("g").state == fresh()
