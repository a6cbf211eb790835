"""Seats at a web table: one secret link per side, one for spectators, one for the host.

A link is an unguessable token (``secrets.token_urlsafe``) kept in the game's SQLite file
beside the games it opens, with the table's settings (who plays each side) and the action
waiting for an answer or for real dice, if any. A token names one game and one role; it
never carries anything else, so a forged or stale token is simply not found.
"""

from __future__ import annotations

import json
import secrets
import sqlite3
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from umpire.errors import UmpireError
from umpire.store import Store

SCHEMA = """
CREATE TABLE IF NOT EXISTS web_seats(
    token TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    role TEXT NOT NULL,
    created TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS web_seats_game ON web_seats(game);
CREATE TABLE IF NOT EXISTS web_tables(
    game TEXT PRIMARY KEY,
    kind TEXT NOT NULL,
    config TEXT NOT NULL,
    pending TEXT
);
"""

HOST = "host"
SPECTATOR = "spectator"


class LinkError(UmpireError):
    """A link that opens nothing: forged, mistyped, or its game was deleted."""


@dataclass(frozen=True, slots=True)
class Seat:
    """What a link opens: a game, and the role it plays there."""

    token: str
    game: str
    role: str

    @property
    def side(self) -> str | None:
        """The side this seat acts for (None for the host and spectators)."""
        return None if self.role in (HOST, SPECTATOR) else self.role


class Seats:
    """The links and table settings of the games played in the browser."""

    def __init__(self, store: Store):
        self.store = store
        store.conn.executescript(SCHEMA)

    def open_table(self, game: str, kind: str, roles: list[str], config: dict[str, Any]) -> None:
        """Give ``game`` its links (the host, each role, a spectator) and its settings."""
        conn = self.store.conn
        now = datetime.now(UTC).isoformat(timespec="seconds")
        conn.execute("BEGIN IMMEDIATE")
        try:
            if conn.execute("SELECT 1 FROM web_tables WHERE game = ?", (game,)).fetchone():
                raise UmpireError(f"game '{game}' already has a table")
            conn.execute(
                "INSERT INTO web_tables(game, kind, config, pending) VALUES(?,?,?,NULL)",
                (game, kind, json.dumps(config, sort_keys=True)),
            )
            for role in [HOST, *roles, SPECTATOR]:
                conn.execute(
                    "INSERT INTO web_seats(token, game, role, created) VALUES(?,?,?,?)",
                    (secrets.token_urlsafe(18), game, role, now),
                )
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        conn.execute("COMMIT")

    def seat(self, token: str) -> Seat:
        """The seat a link opens, or a one-line LinkError (nothing about other links)."""
        if not token or len(token) > 64:
            raise LinkError("this link is not valid: check that it was copied whole")
        row = self.store.conn.execute(
            "SELECT token, game, role FROM web_seats WHERE token = ?", (token,)
        ).fetchone()
        if row is None:
            raise LinkError("this link is not valid (or its game was deleted)")
        seat = Seat(row[0], row[1], row[2])
        alive = self.store.conn.execute("SELECT 1 FROM games WHERE name = ?", (seat.game,))
        if alive.fetchone() is None:
            raise LinkError("this link has expired: its game was deleted")
        return seat

    def links(self, game: str) -> dict[str, str]:
        """Role -> token for a game (the host's page shows them)."""
        rows = self.store.conn.execute(
            "SELECT role, token FROM web_seats WHERE game = ?", (game,)
        ).fetchall()
        return {r[0]: r[1] for r in rows}

    def has_table(self, game: str) -> bool:
        """Has this game been opened in the browser?"""
        row = self.store.conn.execute("SELECT 1 FROM web_tables WHERE game = ?", (game,))
        return row.fetchone() is not None

    def kind(self, game: str) -> str:
        """What kind of table a game has (battle, cwb, book)."""
        return str(self._row(game)[0])

    def config(self, game: str) -> dict[str, Any]:
        """The table's settings (who plays each side, real dice by side)."""
        out: dict[str, Any] = json.loads(self._row(game)[1])
        return out

    def set_config(self, game: str, config: dict[str, Any]) -> None:
        """Replace the table's settings (one statement: all or nothing)."""
        self.store.conn.execute(
            "UPDATE web_tables SET config = ? WHERE game = ?",
            (json.dumps(config, sort_keys=True), game),
        )

    def pending(self, game: str) -> dict[str, Any] | None:
        """The action waiting for an answer or for real dice, if any."""
        raw = self._row(game)[2]
        return None if raw is None else dict(json.loads(raw))

    def set_pending(self, game: str, pending: dict[str, Any] | None) -> None:
        """Keep (or clear) the waiting action."""
        self.store.conn.execute(
            "UPDATE web_tables SET pending = ? WHERE game = ?",
            (None if pending is None else json.dumps(pending, sort_keys=True), game),
        )

    def forget(self, game: str) -> None:
        """Drop a game's links and table (its saved game stays)."""
        conn = self.store.conn
        conn.execute("DELETE FROM web_seats WHERE game = ?", (game,))
        conn.execute("DELETE FROM web_tables WHERE game = ?", (game,))

    def _row(self, game: str) -> tuple[Any, ...]:
        try:
            row = self.store.conn.execute(
                "SELECT kind, config, pending FROM web_tables WHERE game = ?", (game,)
            ).fetchone()
        except sqlite3.DatabaseError as exc:  # pragma: no cover - a broken file
            raise UmpireError(f"cannot read the web tables: {exc}") from None
        if row is None:
            raise LinkError(f"game '{game}' has no table in the browser")
        return tuple(row)


HOST_KEY = "web_host_key"
"""The ``meta`` row of the save file that keeps the key of the host's start page."""


def host_key(store: Store, new: bool = False) -> str:
    """The key of the host's start page, kept in the save file so that a bookmarked start
    page still opens after ``umpire serve`` restarts; made on first use, or made anew when
    ``new`` (the old key then opens nothing)."""
    conn = store.conn
    if not new:
        row = conn.execute("SELECT value FROM meta WHERE key = ?", (HOST_KEY,)).fetchone()
        if row is not None and row[0]:
            return str(row[0])
    key = secrets.token_urlsafe(12)
    if new:
        conn.execute(
            "INSERT INTO meta(key, value) VALUES(?, ?) "
            "ON CONFLICT(key) DO UPDATE SET value = excluded.value",
            (HOST_KEY, key),
        )
        return key
    # Two servers starting at once on one file agree on the first key written.
    conn.execute(
        "INSERT INTO meta(key, value) VALUES(?, ?) ON CONFLICT(key) DO NOTHING", (HOST_KEY, key)
    )
    row = conn.execute("SELECT value FROM meta WHERE key = ?", (HOST_KEY,)).fetchone()
    return str(row[0])
