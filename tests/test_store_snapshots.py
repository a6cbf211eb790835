"""Issue 21: "an action's cost must not grow with the game's length", in a new process too.

Each `umpire session roll` is a new process whose ``Store.load`` used to decode and replay
the whole log. The save file now caches a state snapshot every ``snapshot_every`` actions
(``snapshots``, written with the action); a cold load starts from the newest snapshot whose
action still has its state hash and reads older actions only when asked (``ActionLog``).
These tests hold that a cold load from a snapshot is exactly a full replay (state, hash,
dice position, the rolls that follow), for a dice book and a tactical battle; that undo,
replaced actions, broken snapshots and files without the table fall back to the log; and
that export and verify never see the cache. The speed is in benchmarks/RESULTS.md.
"""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from umpire.ai import make_policy
from umpire.battle.game import new_game, pending_actor
from umpire.battle.run import play
from umpire.battle.scenario import load_scenario
from umpire.cli.main import main
from umpire.dice import SeededSource
from umpire.engine import Game
from umpire.engine.game import ActionLog
from umpire.errors import UmpireError
from umpire.store import Store, verify_export

EXPRS = ("2d6", "d20+3", "3d6", "4d6kh3", "d66")


def _book(path: Path, rolls: int, every: int = 32, name: str = "b") -> Store:
    """A seeded dice book of ``rolls`` rolls, each played and saved through the store."""
    store = Store(path, snapshot_every=every)
    store.create(name, Game.new("session", {"title": name}, SeededSource(2121)))
    for i in range(rolls):
        params = {"expr": EXPRS[i % len(EXPRS)], "purpose": f"roll {i}"}
        store.play(name, store.load(name), "roll", params)
    return store


def _snapshots(path: Path, name: str = "b") -> list[int]:
    with sqlite3.connect(path) as conn:
        rows = conn.execute("SELECT no FROM snapshots WHERE game = ? ORDER BY no", (name,))
        return [r[0] for r in rows]


def _copy(path: Path, to: Path) -> Path:
    """A copy of a save file as it stands (its write-ahead log included)."""
    to.unlink(missing_ok=True)
    with sqlite3.connect(path) as src, sqlite3.connect(to) as dst:
        src.backup(dst)
    return to


def _full(path: Path, name: str = "b") -> Game:
    """The game replayed from the start of its log (no snapshot), in a copy of the file."""
    copy = _copy(path, path.with_name(path.stem + "-full.db"))
    with sqlite3.connect(copy) as conn:
        conn.execute("DELETE FROM snapshots")
    game = Store(copy).load(name)
    assert game.actions.held == 0
    return game


def _same(cold: Game, full: Game) -> None:
    assert cold.state == full.state
    assert cold.state_hash() == full.state_hash() == full.actions[-1].state_hash
    assert cold.source.position == full.source.position
    assert len(cold.actions) == len(full.actions)
    assert cold.actions[-1].to_json() == full.actions[-1].to_json()


def _next_rolls(game: Game, n: int = 6) -> list[Any]:
    return [game.act("roll", {"expr": "3d6", "purpose": f"next {i}"}).to_json() for i in range(n)]


def test_issue21_cold_load_from_a_snapshot_is_a_full_replay(tmp_path: Path) -> None:
    """Issue 21 'an action's cost must not grow': a new Store loads a 300-roll book from its
    newest snapshot (action 288) and holds the same state, hash, dice position and next
    rolls as a replay of the whole log; the 288 older actions stay unread."""
    db = tmp_path / "b.db"
    _book(db, 300).close()
    assert _snapshots(db) == list(range(32, 301, 32))
    cold = Store(db).load("b")
    assert cold.actions.held == 288
    full = _full(db)
    _same(cold, full)
    assert cold.source.position == sum(
        len(d[2]) for r in full.actions for e in r.events for d in e.data.get("draws", [])
    )
    assert _next_rolls(cold) == _next_rolls(full)
    # reading the log on demand gives the very records the full load holds
    assert [r.to_json() for r in cold.actions[:5]] == [r.to_json() for r in full.actions[:5]]
    assert cold.actions[100].to_json() == full.actions[100].to_json()
    assert [r.no for r in cold.actions[280:295]] == list(range(281, 296))
    assert [r.to_json() for r in cold.actions] == [r.to_json() for r in full.actions]
    assert cold.actions.held == 0 and cold.actions == full.actions


def test_issue21_load_and_play_reads_no_older_action(tmp_path: Path) -> None:
    """The load-and-play path (what `umpire session roll` does) decodes only the actions
    after the snapshot: the older ones are never fetched, and the roll writes the next
    snapshot when its number is a multiple."""
    db = tmp_path / "b.db"
    _book(db, 95).close()
    store = Store(db, snapshot_every=32)
    game = store.load("b")
    assert game.actions.held == 64
    for i in range(2):
        store.play("b", game, "roll", {"expr": "2d6", "purpose": f"more {i}"})
    assert game.actions.held == 64 and len(game.actions) == 97
    assert _snapshots(db) == [32, 64, 96]
    _same(Store(db).load("b"), _full(db))


def test_issue21_tactical_battle_cold_load_from_a_snapshot(tmp_path: Path) -> None:
    """A tactical battle (seed 002/004's five-step battle) saved order by order through
    the store: a cold load from its snapshots is the full replay, and both play on alike."""
    scen = load_scenario("standard_five_step")
    res = play(scen, 3, {s: make_policy("ai", 1) for s in ("union", "confederate")})
    db = tmp_path / "battle.db"
    store = Store(db, snapshot_every=8)
    store.create("battle", new_game(scen, 3))
    store.play("battle", store.load("battle"), "start", {})
    for rec in res.orders[:30]:
        game = store.load("battle")
        store.play("battle", game, "order", {"actor": pending_actor(game), "order": list(rec[1:])})
    store.close()
    snaps = _snapshots(db, "battle")
    assert snaps and snaps[-1] == 24
    cold = Store(db).load("battle")
    assert cold.actions.held == 24
    full = _full(db, "battle")
    _same(cold, full)
    for game in (cold, full):
        rec = res.orders[30]
        game.act("order", {"actor": pending_actor(game), "order": list(rec[1:])})
    _same(cold, full)


def test_issue21_undo_past_a_snapshot_drops_it(tmp_path: Path) -> None:
    """`games undo` to before a snapshot deletes it with the actions; the game then loads
    from the older snapshot, and playing on writes new ones."""
    db = tmp_path / "b.db"
    store = _book(db, 100)
    store.undo("b", 70)
    assert _snapshots(db) == [32, 64]
    cold = Store(db).load("b")
    assert cold.actions.held == 64 and len(cold.actions) == 70
    _same(cold, _full(db))
    store.undo("b", 10)
    assert _snapshots(db) == []
    for i in range(30):
        store.play("b", store.load("b"), "roll", {"expr": "d6", "purpose": f"again {i}"})
    assert _snapshots(db) == [32]
    _same(Store(db).load("b"), _full(db))
    store.delete("b")
    assert _snapshots(db) == []


def test_issue21_an_undo_by_an_older_umpire_drops_the_snapshots(tmp_path: Path) -> None:
    """An Umpire from before the snapshots deletes actions without knowing the table: the
    table's foreign key (ON DELETE CASCADE, foreign keys on as every Store opens the file)
    drops the snapshots with them."""
    db = tmp_path / "b.db"
    _book(db, 70).close()
    with sqlite3.connect(db) as conn:
        conn.execute("PRAGMA foreign_keys=ON")
        conn.execute("DELETE FROM events WHERE game = 'b' AND action_no > 40")
        conn.execute("DELETE FROM actions WHERE game = 'b' AND no > 40")
    assert _snapshots(db) == [32]
    _same(Store(db).load("b"), _full(db))


def test_issue21_a_snapshot_of_a_replaced_action_is_ignored(tmp_path: Path) -> None:
    """A snapshot counts only while the action at its number still has its state hash (an
    older Umpire may undo and replay without knowing the cache), and only if its state
    gives that hash: otherwise the load falls back to an older snapshot or the log."""
    db = tmp_path / "b.db"
    _book(db, 70).close()
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE snapshots SET state_hash = 'x' || state_hash WHERE no = 64")
    cold = Store(db).load("b")
    assert cold.actions.held == 32
    _same(cold, _full(db))
    with sqlite3.connect(db) as conn:  # the 32nd's state no longer gives its hash
        conn.execute('UPDATE snapshots SET state = \'{"title": "forged"}\' WHERE no = 32')
    cold = Store(db).load("b")
    assert cold.actions.held == 0
    _same(cold, _full(db))


def test_issue21_a_loaded_log_refuses_to_read_after_an_undo(tmp_path: Path) -> None:
    """A game loaded from a snapshot reads its older actions from the file on demand; if
    another connection has undone past the snapshot since, it says so in one line rather
    than mixing two logs."""
    db = tmp_path / "b.db"
    _book(db, 40).close()
    game = Store(db, snapshot_every=32).load("b")
    other = Store(db, snapshot_every=32)
    other.undo("b", 20)
    other.play("b", other.load("b"), "roll", {"expr": "d6", "purpose": "new"})
    with pytest.raises(UmpireError, match="changed in the save file since it was loaded"):
        list(game.actions)


def test_issue21_a_save_file_without_the_table_loads(tmp_path: Path) -> None:
    """A save file made before the snapshots (no table) opens, loads from the log, gets the
    table on open and snapshots as play goes on."""
    db = tmp_path / "old.db"
    _book(db, 40, every=1000).close()
    with sqlite3.connect(db) as conn:
        conn.execute("DROP TABLE snapshots")
    store = Store(db, snapshot_every=32)
    game = store.load("b")
    assert len(game.actions) == 40 and game.actions.held == 0
    for i in range(30):
        store.play("b", store.load("b"), "roll", {"expr": "d6", "purpose": f"on {i}"})
    assert _snapshots(db) == [64]
    _same(Store(db).load("b"), _full(db))


def test_issue21_export_and_verify_never_see_the_snapshots(tmp_path: Path) -> None:
    """The snapshots are a cache: the export (and its chain head) of a game with them is
    byte for byte the export without them, and it verifies; an import has none."""
    db = tmp_path / "b.db"
    store = _book(db, 100)
    with_snaps = store.export("b")
    copy = _copy(db, tmp_path / "copy.db")
    with sqlite3.connect(copy) as conn:
        conn.execute("DELETE FROM snapshots")
    assert Store(copy).export("b") == with_snaps
    report = verify_export(with_snaps)
    assert report.actions == 100
    store.import_(with_snaps, name="again")
    assert _snapshots(db, "again") == []
    _same(store.load("again"), _full(db))


def test_issue21_action_log_reads_ranges_and_counts_faces() -> None:
    """ActionLog: index, slice and iteration over a log whose older part is read on demand
    give what a list gives; ``faces`` is the dice position after the logged actions."""
    game = Game.new("session", {"title": "t"}, SeededSource(5))
    for i in range(20):
        game.act("roll", {"expr": "2d6", "purpose": str(i)})
    records = list(game.actions)
    reads: list[tuple[int, int]] = []

    def fetch(lo: int, hi: int) -> list[Any]:
        reads.append((lo, hi))
        return records[lo:hi]

    log = ActionLog(records[12:], 12, fetch, base_faces=24)
    assert len(log) == 20 and log.faces == 40 == game.source.position
    assert log[-1] is records[-1] and log[15] is records[15] and reads == []
    assert log[-3:] == records[-3:] and reads == []
    assert log[3] is records[3] and log[-20] is records[0]
    assert log[10:14] == records[10:14] and log[::5] == records[::5]
    assert list(reversed(log)) == records[::-1]
    assert list(log) == records and log.held == 0
    with pytest.raises(IndexError):
        log[20]


def test_issue21_session_roll_at_the_terminal_after_many_rolls(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`umpire session roll` on a book of 600 rolls (default snapshots, every 256) loads
    from the snapshot at 512 and saves a roll that the full replay agrees with; the
    installed console script does the same in a new process."""
    from umpire.cli import common

    db = tmp_path / "umpire.db"
    common.set_db_path(db)
    try:
        store = Store(db)
        store.create("long", Game.new("session", {"title": "long"}, SeededSource(21)))
        for i in range(600):
            store.play("long", store.load("long"), "roll", {"expr": "2d6", "purpose": str(i)})
        store.close()
        assert _snapshots(db, "long") == [256, 512]
        assert main(["session", "roll", "long", "3d6", "--purpose", "volley"]) == 0
        out = capsys.readouterr().out
        assert "volley" in out
        exe = Path(sys.executable).parent / "umpire"
        proc = subprocess.run(
            [str(exe), "session", "roll", "long", "d20", "--purpose", "last"],
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
            env={**os.environ, "UMPIRE_DB": str(db)},
        )
        assert proc.returncode == 0, proc.stderr
        assert "last" in proc.stdout
        cold = Store(db).load("long")
        assert len(cold.actions) == 602 and cold.actions.held == 512
        _same(cold, _full(db, "long"))
        assert verify_export(Store(db).export("long")).actions == 602
    finally:
        common.set_db_path(None)


def test_issue21_a_lazy_log_is_read_from_another_thread(tmp_path: Path) -> None:
    """The web's connections (one a thread) share the games they loaded: a game loaded from
    a snapshot in one thread reads its older actions in another through a connection of
    its own (a SQLite connection serves only the thread that made it)."""
    import threading

    db = tmp_path / "b.db"
    _book(db, 40).close()
    game = Store(db, snapshot_every=32).load("b")
    out: list[Any] = []
    worker = threading.Thread(target=lambda: out.append([r.no for r in game.actions[:3]]))
    worker.start()
    worker.join()
    assert out == [[1, 2, 3]]
    assert len(list(game.actions)) == 40
