"""Lab runs kept in the save file (SQLite) for reports: one run row, one row per battle.

Schema (docs/lab.md): ``lab_runs`` holds what was asked (scenario, N, seed, the arms and
the configuration) and, once every battle is in, the summary and ``complete = 1``;
``lab_battles`` holds one row per battle and arm, written one transaction per chunk as
chunks finish. A run that was interrupted stays ``complete = 0`` and is not loaded as a
result (``load_run`` refuses it), so no half-written run is ever reported.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from umpire.errors import UmpireError, UnknownNameError
from umpire.lab.play import Record
from umpire.sides import SIDES

SCHEMA = """
CREATE TABLE IF NOT EXISTS lab_runs(
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    created TEXT NOT NULL,
    scenario TEXT NOT NULL,
    n INTEGER NOT NULL,
    seed INTEGER NOT NULL,
    arms TEXT NOT NULL,
    config TEXT NOT NULL,
    seconds REAL,
    summary TEXT,
    complete INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS lab_battles(
    run INTEGER NOT NULL REFERENCES lab_runs(id) ON DELETE CASCADE,
    arm INTEGER NOT NULL,
    i INTEGER NOT NULL,
    seed INTEGER NOT NULL,
    winner TEXT NOT NULL,
    turns INTEGER NOT NULL,
    lost_confederate INTEGER NOT NULL,
    lost_union INTEGER NOT NULL,
    removed_confederate INTEGER NOT NULL,
    removed_union INTEGER NOT NULL,
    leaders_confederate INTEGER NOT NULL,
    leaders_union INTEGER NOT NULL,
    broke_confederate INTEGER,
    broke_union INTEGER,
    events TEXT NOT NULL,
    dice INTEGER NOT NULL,
    path TEXT NOT NULL,
    PRIMARY KEY(run, arm, i)
);
"""

_COLS = (
    "i, seed, winner, turns, lost_confederate, lost_union, removed_confederate, "
    "removed_union, leaders_confederate, leaders_union, broke_confederate, broke_union, "
    "events, dice, path"
)


def ensure(conn: sqlite3.Connection) -> None:
    """Make the lab's tables in a save file (idempotent)."""
    conn.executescript(SCHEMA)


@contextmanager
def _tx(conn: sqlite3.Connection) -> Iterator[None]:
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")


def begin(
    conn: sqlite3.Connection,
    scenario: str,
    n: int,
    seed: int,
    arms: Sequence[dict[str, Any]],
    config: dict[str, Any],
) -> int:
    """Record a new run (not complete yet); its id."""
    ensure(conn)
    with _tx(conn):
        cur = conn.execute(
            "INSERT INTO lab_runs(created, scenario, n, seed, arms, config) VALUES(?,?,?,?,?,?)",
            (
                datetime.now(UTC).isoformat(timespec="seconds"),
                scenario,
                n,
                seed,
                json.dumps(list(arms)),
                json.dumps(config),
            ),
        )
    run_id = cur.lastrowid
    assert run_id is not None
    return run_id


def add(conn: sqlite3.Connection, run_id: int, arm: int, recs: Sequence[Record]) -> None:
    """Store one chunk's battles, in one transaction."""
    rows = [
        (
            run_id,
            arm,
            r["i"],
            r["seed"],
            r["winner"],
            r["turns"],
            r["losses"]["confederate"],
            r["losses"]["union"],
            r["removed"]["confederate"],
            r["removed"]["union"],
            r["leaders_lost"]["confederate"],
            r["leaders_lost"]["union"],
            r["broke"]["confederate"],
            r["broke"]["union"],
            json.dumps(r["events"], sort_keys=True),
            r["dice"],
            r["path"],
        )
        for r in recs
    ]
    with _tx(conn):
        conn.executemany(
            f"INSERT INTO lab_battles(run, arm, {_COLS}) VALUES({','.join('?' * 17)})", rows
        )


def finish(conn: sqlite3.Connection, run_id: int, seconds: float, summary: dict[str, Any]) -> None:
    """Mark a run complete, with its summary."""
    with _tx(conn):
        conn.execute(
            "UPDATE lab_runs SET seconds = ?, summary = ?, complete = 1 WHERE id = ?",
            (seconds, json.dumps(summary), run_id),
        )


@dataclass(frozen=True, slots=True)
class Run:
    """A stored run: what was asked, the summary, and every battle of every arm."""

    id: int
    created: str
    scenario: str
    n: int
    seed: int
    arms: list[dict[str, Any]]
    config: dict[str, Any]
    seconds: float
    summary: dict[str, Any]
    battles: list[list[Record]]
    """Per arm, the battles in order (the records ``umpire.lab.play`` made)."""


def _record(row: sqlite3.Row | tuple[Any, ...]) -> Record:
    (i, seed, winner, turns, lc, lu, rc, ru, ldc, ldu, bc, bu, events, dice, path) = row
    return {
        "i": i,
        "seed": seed,
        "winner": winner,
        "turns": turns,
        "losses": dict(zip(SIDES, (lc, lu), strict=True)),
        "removed": dict(zip(SIDES, (rc, ru), strict=True)),
        "leaders_lost": dict(zip(SIDES, (ldc, ldu), strict=True)),
        "broke": dict(zip(SIDES, (bc, bu), strict=True)),
        "events": json.loads(events),
        "dice": dice,
        "path": path,
    }


def load_run(conn: sqlite3.Connection, run_id: int) -> Run:
    """A complete run by id (UnknownNameError if there is none; refused if interrupted)."""
    ensure(conn)
    row = conn.execute(
        "SELECT id, created, scenario, n, seed, arms, config, seconds, summary, complete "
        "FROM lab_runs WHERE id = ?",
        (run_id,),
    ).fetchone()
    if row is None:
        raise UnknownNameError(f"no lab run {run_id} (umpire runs lists them)")
    if not row[9]:
        raise UmpireError(f"lab run {run_id} did not finish (interrupted); run it again")
    arms = json.loads(row[5])
    battles: list[list[Record]] = []
    for k in range(len(arms)):
        rows = conn.execute(
            f"SELECT {_COLS} FROM lab_battles WHERE run = ? AND arm = ? ORDER BY i", (run_id, k)
        ).fetchall()
        battles.append([_record(r) for r in rows])
    return Run(
        row[0],
        row[1],
        row[2],
        row[3],
        row[4],
        arms,
        json.loads(row[6]),
        row[7],
        json.loads(row[8]),
        battles,
    )


def list_runs(conn: sqlite3.Connection) -> list[dict[str, Any]]:
    """Every run, newest first: id, created, scenario, n, seed, arms' labels, complete."""
    ensure(conn)
    out = []
    for rid, created, scen, n, seed, arms, secs, complete in conn.execute(
        "SELECT id, created, scenario, n, seed, arms, seconds, complete FROM lab_runs "
        "ORDER BY id DESC"
    ):
        out.append(
            {
                "id": rid,
                "created": created,
                "scenario": scen,
                "n": n,
                "seed": seed,
                "arms": [a["label"] for a in json.loads(arms)],
                "seconds": secs,
                "complete": bool(complete),
            }
        )
    return out
