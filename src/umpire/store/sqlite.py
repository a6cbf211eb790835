"""Games kept in SQLite: one transaction per action, so a kill loses at most that action.

The database holds each game's module, scenario and dice source, and its log (actions
and their events). A game's state is rebuilt from the log. Joint dice
(docs/dice-protocol.md) keep each side's commitment and revealed value in ``joint_sides``.

``snapshots`` is a cache, never part of the log (issue 21): every ``SNAPSHOT_EVERY``-th
action saved by :meth:`Store.append` also saves the state after it and the dice position, in
the same transaction, so a new process loads a long game from its newest snapshot and the
actions after it, not from the start. A snapshot counts only while the action it follows
still has its state hash; export, import, verify and the hash chain never read it.
"""

from __future__ import annotations

import builtins
import hashlib
import json
import os
import sqlite3
import threading
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from umpire.engine.events import JSON, Event, canonical_json
from umpire.engine.game import ActionLog, ActionRecord, Fetch, Game
from umpire.engine.statehash import StateHasher
from umpire.errors import DataFileError, UmpireError, UnknownNameError

if TYPE_CHECKING:
    from umpire.dice import DiceSource, JointSource
    from umpire.engine.decisions import Policy

SCHEMA_VERSION = 3
"""1: games, actions, events. 2: joint_sides. 3: games.fork and table_records (each added
in place to older files when they are opened)."""
EXPORT_FORMAT = "umpire-game/1"

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS games(
    name TEXT PRIMARY KEY,
    module TEXT NOT NULL,
    scenario TEXT NOT NULL,
    source_kind TEXT NOT NULL,
    seed TEXT,
    commitment TEXT,
    revealed INTEGER NOT NULL DEFAULT 0,
    ended INTEGER NOT NULL DEFAULT 0,
    parent TEXT,
    created TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS actions(
    game TEXT NOT NULL REFERENCES games(name) ON DELETE CASCADE,
    no INTEGER NOT NULL,
    name TEXT NOT NULL,
    params TEXT NOT NULL,
    state_hash TEXT NOT NULL,
    created TEXT NOT NULL,
    PRIMARY KEY(game, no)
);
CREATE TABLE IF NOT EXISTS events(
    game TEXT NOT NULL,
    action_no INTEGER NOT NULL,
    idx INTEGER NOT NULL,
    kind TEXT NOT NULL,
    data TEXT NOT NULL,
    PRIMARY KEY(game, action_no, idx),
    FOREIGN KEY(game, action_no) REFERENCES actions(game, no) ON DELETE CASCADE
);
CREATE TABLE IF NOT EXISTS joint_sides(
    game TEXT NOT NULL REFERENCES games(name) ON DELETE CASCADE,
    ord INTEGER NOT NULL,
    side TEXT NOT NULL,
    commitment TEXT,
    contribution TEXT,
    PRIMARY KEY(game, side)
);
CREATE TABLE IF NOT EXISTS snapshots(
    game TEXT NOT NULL,
    no INTEGER NOT NULL,
    state TEXT NOT NULL,
    position INTEGER NOT NULL,
    state_hash TEXT NOT NULL,
    PRIMARY KEY(game, no),
    FOREIGN KEY(game, no) REFERENCES actions(game, no) ON DELETE CASCADE
);
CREATE TABLE IF NOT EXISTS table_records(
    game TEXT NOT NULL REFERENCES games(name) ON DELETE CASCADE,
    idx INTEGER NOT NULL,
    at INTEGER NOT NULL,
    kind TEXT NOT NULL,
    data TEXT NOT NULL,
    created TEXT NOT NULL,
    PRIMARY KEY(game, idx)
);
"""

SNAPSHOT_EVERY = 256
"""Actions between state snapshots (benchmarks/RESULTS.md, "Issue 21: snapshots"): a cold
load replays fewer than this many actions; a snapshot costs one encoding of the state."""

RECORD_KINDS = ("undo", "undo_refused", "real_dice", "real_dice_refused", "players")
"""What the table records beside the log (docs/web.md): undos with the actions they withdrew,
refused undos, switches to (or from) real dice typed at the table, and who plays each side
at the terminal (``players``: ``umpire battle --resume`` gives each person their side back)."""

JointRow = tuple[str, str | None, str | None]
"""A side of a joint-dice game as saved: (side, its commitment, its revealed value)."""


def default_db_path() -> Path:
    """``$UMPIRE_DB``, else ``$XDG_DATA_HOME/umpire/umpire.db`` (``~/.local/share``)."""
    env = os.environ.get("UMPIRE_DB")
    if env:
        return Path(env).expanduser()
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "umpire" / "umpire.db"


@dataclass(frozen=True, slots=True)
class GameInfo:
    """A game's row: what it is, where its dice come from, how far it has got."""

    name: str
    module: str
    source_kind: str
    seed: str | None
    commitment: str | None
    revealed: bool
    ended: bool
    parent: str | None
    created: str
    actions: int
    fork: dict[str, Any] | None = None
    """A fork's record: its parent, the action and the parent's chain head it was forked at,
    the dice position there, and whether it keeps the parent's dice (``keeps_dice``)."""

    def public_seed(self) -> str | None:
        """The seed if anyone may see it: always for seeded games, once revealed for committed
        and joint games (whose seed is the host's secret until the game ends)."""
        if self.source_kind in ("committed", "joint") and not self.revealed:
            return None
        return self.seed

    def to_json(self) -> dict[str, Any]:
        """A JSON object (never shows an unrevealed committed or joint seed)."""
        out: dict[str, Any] = {
            "name": self.name,
            "module": self.module,
            "source": self.source_kind,
            "seed": self.public_seed(),
            "commitment": self.commitment,
            "revealed": self.revealed,
            "ended": self.ended,
            "parent": self.parent,
            "created": self.created,
            "actions": self.actions,
        }
        if self.fork is not None:
            out["fork"] = dict(self.fork)
        return out


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def source_info(source: DiceSource) -> tuple[str, str | None, str | None]:
    """(kind, seed text, commitment) of a dice source, for saving."""
    from umpire.dice import CommittedSource, JointSource, SeededSource

    if isinstance(source, JointSource):
        return "joint", str(source.reveal()), source.commitment
    if isinstance(source, CommittedSource):
        return "committed", str(source.reveal()), source.commitment
    if isinstance(source, SeededSource):
        return "seeded", str(source.seed), None
    return source.kind, None, None


@dataclass(frozen=True, slots=True)
class _Loaded:
    """A game as :meth:`Store.load` last handed it out on this connection: the Game itself
    (its actions change its state in place, issue 21) and the dice drawn by its first
    ``count`` actions."""

    created: str
    game: Game
    count: int
    position: int


@dataclass(frozen=True, slots=True)
class _Snapshot:
    """A usable snapshot: the action it follows, the state then (whose hash is ``digest``,
    the action's recorded hash) and the dice position after it."""

    no: int
    state: JSON
    position: int
    digest: str


def _faces_in(records: Iterable[ActionRecord]) -> int:
    """How many dice the actions drew (the stream's position after them)."""
    return sum(len(d[2]) for r in records for e in r.events for d in e.data.get("draws", []))


class Store:
    """A SQLite file of games. Every write is one transaction."""

    def __init__(
        self,
        path: str | Path | None = None,
        loaded: dict[str, Any] | None = None,
        snapshot_every: int = SNAPSHOT_EVERY,
    ):
        self.path = Path(path) if path is not None else default_db_path()
        self.snapshot_every = snapshot_every
        """Save a state snapshot after every action whose number is a multiple of this."""
        self._conn: sqlite3.Connection | None = None
        self._loaded: dict[str, _Loaded] = {} if loaded is None else loaded
        """Games this connection rebuilt, so a long game is not replayed from its start on
        every load: the same Game object is handed out again, with only the actions logged
        since applied (its actions change its state in place; an action it made but did not
        save makes the entry stale). Connections of one process may share it (``loaded``):
        each entry is checked against the file before it is used."""

    # -- connection -------------------------------------------------------
    @property
    def conn(self) -> sqlite3.Connection:
        """The open connection (opened, and the schema made, on first use)."""
        if self._conn is None:
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                conn = sqlite3.connect(self.path, isolation_level=None, timeout=10)
                conn.execute("PRAGMA journal_mode=WAL")
                conn.execute("PRAGMA foreign_keys=ON")
                conn.execute("PRAGMA synchronous=NORMAL")
                conn.executescript(_SCHEMA)
                columns = {r[1] for r in conn.execute("PRAGMA table_info(games)")}
                if "fork" not in columns:
                    conn.execute("ALTER TABLE games ADD COLUMN fork TEXT")
                conn.execute(
                    "INSERT INTO meta(key, value) VALUES('schema', ?) ON CONFLICT(key) DO "
                    "UPDATE SET value = excluded.value "
                    "WHERE CAST(value AS INTEGER) < CAST(excluded.value AS INTEGER)",
                    (str(SCHEMA_VERSION),),
                )
            except (sqlite3.DatabaseError, OSError) as exc:
                raise UmpireError(
                    f"cannot open the save file: {exc}", file=str(self.path)
                ) from None
            self._conn = conn
        return self._conn

    def close(self) -> None:
        """Close the connection."""
        if self._conn is not None:
            self._conn.close()
            self._conn = None

    @contextmanager
    def _tx(self) -> Iterator[sqlite3.Connection]:
        """One write transaction; the write lock is taken first (``BEGIN IMMEDIATE``), so what
        is read inside is what the write changes. A save file kept busy by another process
        past the timeout, or a row another process wrote first, is a one-line refusal."""
        conn = self.conn
        try:
            conn.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as exc:
            raise UmpireError(
                f"the save file is busy ({exc}); nothing was saved: run it again",
                file=str(self.path),
            ) from None
        try:
            yield conn
        except sqlite3.IntegrityError:
            conn.execute("ROLLBACK")
            raise UmpireError(
                "the game changed while this ran (another process saved first); nothing was "
                "saved: run it again"
            ) from None
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        else:
            conn.execute("COMMIT")

    # -- reading ----------------------------------------------------------
    def names(self) -> builtins.list[str]:
        """Every game's name, oldest first."""
        rows = self.conn.execute("SELECT name FROM games ORDER BY created, name").fetchall()
        return [r[0] for r in rows]

    def info(self, name: str) -> GameInfo:
        """A game's row, or :class:`UnknownNameError`."""
        row = self.conn.execute(
            "SELECT name, module, source_kind, seed, commitment, revealed, ended, parent, "
            # Actions run 1..n (import checks it): MAX(no) reads the primary key's last
            # entry, where COUNT(*) read every action (issue 21: a long book's cost grew).
            "created, (SELECT COALESCE(MAX(no), 0) FROM actions a WHERE a.game = g.name), "
            "fork "
            "FROM games g WHERE name = ?",
            (name,),
        ).fetchone()
        if row is None:
            known = self.names()
            hint = f" (games: {', '.join(known[-8:])})" if known else " (no games saved yet)"
            raise UnknownNameError(f"unknown game '{name}'{hint}")
        return GameInfo(
            row[0],
            row[1],
            row[2],
            row[3],
            row[4],
            bool(row[5]),
            bool(row[6]),
            row[7],
            row[8],
            int(row[9]),
            None if row[10] is None else dict(json.loads(row[10])),
        )

    def all(self) -> list[GameInfo]:
        """Every game's row."""
        return [self.info(n) for n in self.names()]

    def last_played(self, module: str) -> builtins.list[tuple[str, str]]:
        """Open games of ``module`` as (name, when last played: the newest action or the
        creation, ISO time), the most recent first."""
        rows = self.conn.execute(
            "SELECT g.name, g.created, MAX(a.created), MAX(a.rowid) FROM games g "
            "LEFT JOIN actions a ON a.game = g.name "
            "WHERE g.module = ? AND g.ended = 0 GROUP BY g.name",
            (module,),
        ).fetchall()
        latest = sorted(
            ((max(str(c), str(last or "")), int(rowid or 0), str(n)) for n, c, last, rowid in rows),
            reverse=True,
        )
        return [(n, when) for when, _, n in latest]

    def records(
        self, name: str, after: int = 0, upto: int | None = None
    ) -> builtins.list[ActionRecord]:
        """The log of a game: its actions with their events, in order (those after ``after``,
        up to action ``upto`` if given)."""
        self.info(name)
        return self._records(name, after, upto)

    def _records(
        self, name: str, after: int, upto: int | None, conn: sqlite3.Connection | None = None
    ) -> builtins.list[ActionRecord]:
        conn = self.conn if conn is None else conn
        last = -1 if upto is None else upto
        actions = conn.execute(
            "SELECT no, name, params, state_hash FROM actions WHERE game = ? AND no > ? "
            "AND (? < 0 OR no <= ?) ORDER BY no",
            (name, after, last, last),
        ).fetchall()
        events: dict[int, list[Event]] = {a[0]: [] for a in actions}
        for no, kind, data in conn.execute(
            "SELECT action_no, kind, data FROM events WHERE game = ? AND action_no > ? "
            "AND (? < 0 OR action_no <= ?) ORDER BY action_no, idx",
            (name, after, last, last),
        ):
            events[no].append(Event(kind, json.loads(data)))
        return [ActionRecord(no, nm, json.loads(p), events[no], h) for no, nm, p, h in actions]

    def _fetcher(self, name: str, no: int, digest: str) -> Fetch:
        """Reads a loaded game's older actions on demand (its :class:`ActionLog`), refusing if
        action ``no`` no longer has the state hash it had at the load (an undo since).

        The game may be read later, in another thread (the web's connections, one a thread,
        share the games they loaded): it then reads through a connection of its own."""
        owner = threading.get_ident()

        def fetch(lo: int, hi: int) -> builtins.list[ActionRecord]:
            mine = threading.get_ident() == owner
            try:
                conn = self.conn if mine else sqlite3.connect(self.path, timeout=10)
            except sqlite3.DatabaseError as exc:
                raise UmpireError(
                    f"cannot open the save file: {exc}", file=str(self.path)
                ) from None
            own = not conn.in_transaction
            if own:
                conn.execute("BEGIN")
            try:
                row = conn.execute(
                    "SELECT state_hash FROM actions WHERE game = ? AND no = ?", (name, no)
                ).fetchone()
                if row is None or row[0] != digest:
                    raise UmpireError(
                        f"game '{name}' changed in the save file since it was loaded "
                        "(an undo?): load it again"
                    )
                return self._records(name, lo, hi, conn)
            finally:
                if own:
                    conn.execute("COMMIT")
                if not mine:
                    conn.close()

        return fetch

    def _snapshot(self, name: str, upto: int) -> _Snapshot | None:
        """The newest usable snapshot at or before action ``upto``. One whose action has since been
        replaced, or whose state does not give its hash, is passed over."""
        rows = self.conn.execute(  # read newest first, one row at a time
            "SELECT s.no, s.state, s.position, s.state_hash FROM snapshots s JOIN actions a "
            "ON a.game = s.game AND a.no = s.no AND a.state_hash = s.state_hash "
            "WHERE s.game = ? AND s.no <= ? ORDER BY s.no DESC",
            (name, upto),
        )
        for no, text, position, digest in rows:
            # The text was written as the state's canonical JSON: it gives the recorded hash
            # itself, and only the very state has that text (SHA-256 in C, no re-encoding).
            if hashlib.sha256(str(text).encode()).hexdigest() != digest:
                continue
            try:
                state = json.loads(text)
            except ValueError:
                continue
            rows.close()
            return _Snapshot(int(no), state, int(position), str(digest))
        return None

    def scenario(self, name: str) -> dict[str, Any]:
        """A game's scenario."""
        self.info(name)
        row = self.conn.execute("SELECT scenario FROM games WHERE name = ?", (name,)).fetchone()
        result: dict[str, Any] = json.loads(row[0])
        return result

    def load(
        self,
        name: str,
        policies: Mapping[str, Policy] | None = None,
        physical: Any = None,
        draw: Any = None,
    ) -> Game:
        """Rebuild a game from its log; its dice continue where the log stops.

        ``physical(n, sides, purpose)`` asks for faces thrown at the table and
        ``draw(labels, purpose)`` for a slip drawn from a cup (games with physical dice).
        """
        from umpire.rules import get_module

        info = self.info(name)
        module = get_module(info.module)
        hit = self._loaded.get(name)
        if hit is not None and self._still(name, info, hit):
            # The same Game again, on from where it was: its own actions since (saved, as
            # _still checked) and any another connection logged. No copy, no replay.
            game = hit.game
            game.extend(self.records(name, after=len(game.actions)))
            position = hit.position + _faces_in(game.actions[hit.count :])
            game.source = _make_source(info, position, physical, draw, self._joint_rows(name))
            game.policies = dict(policies or {})
        else:
            scenario = self.scenario(name)
            snap = self._snapshot(name, info.actions)
            if snap is None:
                records = self.records(name)
                log = ActionLog(records)
                position = log.faces
                state = Game.replay_state(module, scenario, records)
                source = _make_source(info, position, physical, draw, self._joint_rows(name))
                game = Game(module, scenario, source, dict(policies or {}), log, state)
            else:
                # Issue 21: from the newest snapshot, replaying only the actions after it;
                # the older ones stay in the file until something reads them.
                no, state = snap.no, snap.state
                records = self.records(name, after=no)
                for _ in Game.replay_steps(state, records):
                    pass
                # the state as a saved game holds it (decoded JSON and logged values): the
                # hasher takes it as it is, where the first action would copy it
                hasher = StateHasher(state)
                log = ActionLog(records, no, self._fetcher(name, no, snap.digest), snap.position)
                position = log.faces
                source = _make_source(info, position, physical, draw, self._joint_rows(name))
                game = Game(module, scenario, source, dict(policies or {}), log, state, hasher)
        if len(self._loaded) >= 64 and name not in self._loaded:
            self._loaded.pop(next(iter(self._loaded)))
        self._loaded[name] = _Loaded(info.created, game, len(game.actions), position)
        return game

    def _still(self, name: str, info: GameInfo, hit: _Loaded) -> bool:
        """Is a game this connection loaded before still the start of its log? (Not after an
        undo or a delete, by this or any other connection: its last action is checked.)"""
        n = len(hit.game.actions)
        if hit.created != info.created or n > info.actions:
            return False
        if n == 0:
            return True
        row = self.conn.execute(
            "SELECT name, state_hash FROM actions WHERE game = ? AND no = ?", (name, n)
        ).fetchone()
        last = hit.game.actions[-1]
        return row is not None and (row[0], row[1]) == (last.name, last.state_hash)

    def _joint_rows(self, name: str) -> builtins.list[JointRow]:
        """The sides of a joint-dice game as saved, in their order (none for other games)."""
        rows = self.conn.execute(
            "SELECT side, commitment, contribution FROM joint_sides WHERE game = ? ORDER BY ord",
            (name,),
        ).fetchall()
        return [(str(a), b, c) for a, b, c in rows]

    def joint_public(self, name: str) -> dict[str, Any]:
        """The public record of a joint-dice game (docs/dice-protocol.md): the host's
        commitment, the sides and their commitments, the values revealed so far (none before
        every side has committed), the phase, who it waits for, whether the dice are ready,
        and the host's seed once the game has ended (``None`` before)."""
        from umpire.dice.sources import joint_public_view

        info = self._joint_info(name)
        rows = self._joint_rows(name)
        view = joint_public_view(
            info.commitment,
            [r[0] for r in rows],
            {r[0]: r[1] for r in rows},
            {r[0]: r[2] for r in rows},
        )
        return {"game": name, **view, "seed": info.public_seed()}

    def _joint_info(self, name: str) -> GameInfo:
        info = self.info(name)
        if info.source_kind != "joint":
            raise UmpireError(
                f"game '{name}' does not use joint dice (its dice are {info.source_kind})"
            )
        return info

    def _joint_source(self, name: str) -> JointSource:
        """The joint source as saved, for checking a side's commitment or value."""
        info = self._joint_info(name)
        if info.ended:
            raise UmpireError(f"game '{name}' has ended: its joint dice take no more values")
        return _joint_source(info, 0, self._joint_rows(name))

    def joint_commit(self, name: str, side: str, digest_hex: str) -> dict[str, Any]:
        """Phase one: save ``side``'s commitment (sha256 hex of its value's hex text).

        Refused with a one-line error, changing nothing: not a joint game, an ended game, an
        unknown side, a second commitment, a malformed digest. Returns :meth:`joint_public`.
        """
        with self._tx() as conn:
            source = self._joint_source(name)
            source.commit(side, digest_hex)
            conn.execute(
                "UPDATE joint_sides SET commitment = ? WHERE game = ? AND side = ?",
                (source.commitments[side], name, side),
            )
        return self.joint_public(name)

    def joint_contribute(self, name: str, side: str, value_hex: str) -> dict[str, Any]:
        """Phase two, once every side has committed: save ``side``'s value (64 lowercase hex
        digits), which must match its commitment.

        Refused with a one-line error, changing nothing: not a joint game, an ended game, an
        unknown side, a side not yet able to reveal (someone has not committed), a second
        value, a malformed value, a value that does not match. Returns :meth:`joint_public`.
        """
        with self._tx() as conn:
            source = self._joint_source(name)
            source.contribute(side, value_hex)
            conn.execute(
                "UPDATE joint_sides SET contribution = ? WHERE game = ? AND side = ?",
                (value_hex, name, side),
            )
        return self.joint_public(name)

    # -- writing ----------------------------------------------------------
    def create(self, name: str, game: Game, parent: str | None = None) -> None:
        """Save a new game (and any actions it already has) under ``name``."""
        _check_name(name)
        kind, seed, commitment = source_info(game.source)
        with self._tx() as conn:
            if conn.execute("SELECT 1 FROM games WHERE name = ?", (name,)).fetchone():
                raise UmpireError(f"a game named '{name}' already exists")
            conn.execute(
                "INSERT INTO games(name, module, scenario, source_kind, seed, commitment, "
                "revealed, ended, parent, created) VALUES(?,?,?,?,?,?,0,0,?,?)",
                (
                    name,
                    game.module.id,
                    canonical_json(game.scenario),
                    kind,
                    seed,
                    commitment,
                    parent,
                    _now(),
                ),
            )
            _insert_joint(conn, name, game.source)
            for record in game.actions:
                _insert_action(conn, name, record)
            if len(game.actions) >= self.snapshot_every:
                _insert_snapshot(conn, name, game.actions[-1], game)

    def append(
        self,
        name: str,
        record: ActionRecord,
        after: ActionRecord | None = None,
        game: Game | None = None,
    ) -> None:
        """Save one action and its events atomically, as action ``record.no`` of the game.

        Checked inside the write transaction, so two processes (or a page and a terminal)
        playing the same game cannot both save: the game must still be open, hold exactly
        ``record.no - 1`` actions, and end with ``after`` (the action the record was played
        after, when the caller knows it). Otherwise nothing is saved and the refusal says
        to run it again (the action is then played on the game as it now is).

        ``game`` (the game ``record`` was just played on, as :meth:`play` passes it): every
        ``snapshot_every``-th action also saves a snapshot of its state, in the same
        transaction (the module's docstring).
        """
        with self._tx() as conn:
            # MAX(no), not COUNT(*): one step down the primary key's index however long the
            # game (actions are numbered 1, 2, 3... without gaps).
            row = conn.execute(
                "SELECT ended, (SELECT COALESCE(MAX(no), 0) FROM actions a WHERE a.game = g.name) "
                "FROM games g WHERE name = ?",
                (name,),
            ).fetchone()
            if row is None:
                raise UnknownNameError(f"game '{name}' is gone (deleted while this ran)")
            if row[0]:
                raise UmpireError(f"game '{name}' has ended; fork it to play on")
            last = None
            if after is not None:
                last = conn.execute(
                    "SELECT name, params, state_hash FROM actions WHERE game = ? AND no = ?",
                    (name, after.no),
                ).fetchone()
            want = (after.name, canonical_json(after.params), after.state_hash) if after else None
            if int(row[1]) != record.no - 1 or (after is not None and last != want):
                raise UmpireError(
                    f"the game '{name}' changed while this ran (another player or window saved "
                    f"or undid an action); nothing was saved: run it again"
                )
            _insert_action(conn, name, record)
            if game is not None and record.no % self.snapshot_every == 0:
                _insert_snapshot(conn, name, record, game)

    def play(
        self,
        name: str,
        game: Game,
        action: str,
        params: Mapping[str, Any],
        entropy: str | None = None,
        by: str | None = None,
    ) -> ActionRecord:
        """Run one action on a loaded game and save it; nothing is saved if it fails, or if
        the game changed in the file since it was loaded (:meth:`append`).

        ``entropy`` is the browser's fresh random hex for a joint-dice game, ``by`` the side
        that asked for it (see Game.act).
        """
        after = game.actions[-1] if game.actions else None
        record = game.act(action, params, entropy=entropy, by=by)
        self.append(name, record, after, game)
        return record

    def undo(self, name: str, to: int, record: Mapping[str, Any] | None = None) -> int:
        """Drop every action after action ``to``; returns how many were dropped.

        ``record`` (who asked, who agreed: a web table's undo) is kept beside the log in the
        same transaction, with the chain heads before and after and every withdrawn action
        whole (its faces too), so no re-roll goes unseen (:meth:`table_records`).
        """
        info = self.info(name)
        if not 0 <= to <= info.actions:
            raise UmpireError(f"game '{name}' has actions 0..{info.actions}; cannot undo to {to}")
        withdrawn: builtins.list[dict[str, Any]] = []
        if record is not None:
            start, links = self.chain(name)
            withdrawn = [r.to_json() for r in self.records(name, after=to)]
            data = {
                **dict(record),
                "from": to,
                "from_head": links[to - 1] if to else start,
                "head": links[-1] if links else start,
                "withdrawn": withdrawn,
            }
        self._loaded.pop(name, None)
        with self._tx() as conn:
            conn.execute("DELETE FROM snapshots WHERE game = ? AND no > ?", (name, to))
            conn.execute("DELETE FROM events WHERE game = ? AND action_no > ?", (name, to))
            cur = conn.execute("DELETE FROM actions WHERE game = ? AND no > ?", (name, to))
            if record is not None:
                _insert_record(conn, name, to, "undo", data)
            return int(cur.rowcount)

    def add_record(self, name: str, kind: str, data: Mapping[str, Any]) -> None:
        """Keep a record beside the log (a refused undo, a switch to real dice)."""
        if kind not in RECORD_KINDS:
            raise UmpireError(f"unknown kind of table record '{kind}'")
        at = self.info(name).actions
        with self._tx() as conn:
            _insert_record(conn, name, at, kind, dict(data))

    def table_records(self, name: str) -> builtins.list[dict[str, Any]]:
        """The records kept beside the log, oldest first: ``{"at", "kind", ...}``."""
        rows = self.conn.execute(
            "SELECT at, kind, data, created FROM table_records WHERE game = ? ORDER BY idx",
            (name,),
        ).fetchall()
        return [{"at": a, "kind": k, **json.loads(d), "created": c} for a, k, d, c in rows]

    def fork_source(self, name: str, keep_dice: bool = False) -> DiceSource:
        """The dice a fork of ``name`` rolls from the fork point (reading ``web_fork``, the
        same at the terminal): dice of its own, so forking a game in play foresees none of
        its dice (a new seed and commitment; joint dice keep the sides' public values).
        ``keep_dice`` replays the parent's own dice, as open dice: only from an ended game,
        whose seed is public. Games with physical (typed) dice keep typing."""
        import secrets

        from umpire.dice import CommittedSource, JointSource, SeededSource

        info = self.info(name)
        if keep_dice:
            if not info.ended:
                raise UmpireError(
                    "a fork keeps the parent's dice only once the game has ended (its seed is "
                    "secret until then): fork it with dice of its own"
                )
            if info.source_kind == "joint" or info.seed is None:
                raise UmpireError(
                    f"a game with {info.source_kind} dice cannot be replayed with its own "
                    f"dice: fork it with dice of its own"
                )
            return SeededSource(int(info.seed))
        if info.source_kind == "committed":
            return CommittedSource()
        if info.source_kind == "seeded":
            return SeededSource(secrets.randbits(48))
        if info.source_kind == "joint":
            public = self.joint_public(name)
            return JointSource(
                public["sides"],
                commitments={k: v for k, v in public["commitments"].items() if v},
                contributions=public["contributions"],
            )
        raise UmpireError(
            f"a game with {info.source_kind} dice is forked keeping its dice (--keep-dice)"
        )

    def fork(
        self,
        name: str,
        new: str,
        at: int | None = None,
        *,
        source: DiceSource | None = None,
        keeps_dice: bool | None = None,
    ) -> int:
        """Copy a game's start and its first ``at`` actions (all by default) to ``new``.

        ``source`` gives the fork dice of its own from the fork point (its own seed and
        commitment; a joint source keeps the parent's sides and values); without it the fork
        keeps the parent's dice. Either way the fork's record names the parent, the action,
        the parent's chain head there and the dice position (``GameInfo.fork``); its chain
        starts from an identity that holds that record.
        """
        info = self.info(name)
        upto = info.actions if at is None else at
        if not 0 <= upto <= info.actions:
            raise UmpireError(f"game '{name}' has actions 0..{info.actions}; cannot fork at {upto}")
        _check_name(new)
        start, links = self.chain(name)
        kept = self.records(name, upto=upto)
        copied = self.conn.execute(
            "SELECT COUNT(*) FROM table_records WHERE game = ? AND at <= ?", (name, upto)
        ).fetchone()[0]
        record = {
            "parent": name,
            "at": upto,
            "head": links[upto - 1] if upto else start,
            "dice": _faces_in(kept),
            "keeps_dice": source is None if keeps_dice is None else keeps_dice,
            "records": int(copied),
        }
        with self._tx() as conn:
            if conn.execute("SELECT 1 FROM games WHERE name = ?", (new,)).fetchone():
                raise UmpireError(f"a game named '{new}' already exists")
            if source is None:
                conn.execute(
                    "INSERT INTO games(name, module, scenario, source_kind, seed, commitment, "
                    "revealed, ended, parent, created, fork) SELECT ?, module, scenario, "
                    "source_kind, seed, commitment, revealed, 0, ?, ?, ? FROM games "
                    "WHERE name = ?",
                    (new, f"{name}@{upto}", _now(), canonical_json(record), name),
                )
            else:
                kind, seed, commitment = source_info(source)
                conn.execute(
                    "INSERT INTO games(name, module, scenario, source_kind, seed, commitment, "
                    "revealed, ended, parent, created, fork) SELECT ?, module, scenario, ?, ?, "
                    "?, 0, 0, ?, ?, ? FROM games WHERE name = ?",
                    (
                        new,
                        kind,
                        seed,
                        commitment,
                        f"{name}@{upto}",
                        _now(),
                        canonical_json(record),
                        name,
                    ),
                )
            conn.execute(
                "INSERT INTO actions SELECT ?, no, name, params, state_hash, created "
                "FROM actions WHERE game = ? AND no <= ?",
                (new, name, upto),
            )
            conn.execute(
                "INSERT INTO events SELECT ?, action_no, idx, kind, data "
                "FROM events WHERE game = ? AND action_no <= ?",
                (new, name, upto),
            )
            if source is None:
                conn.execute(
                    "INSERT INTO joint_sides(game, ord, side, commitment, contribution) "
                    "SELECT ?, ord, side, commitment, contribution FROM joint_sides "
                    "WHERE game = ?",
                    (new, name),
                )
            else:
                _insert_joint(conn, new, source)
            conn.execute(
                "INSERT INTO table_records(game, idx, at, kind, data, created) "
                "SELECT ?, idx, at, kind, data, created FROM table_records "
                "WHERE game = ? AND at <= ?",
                (new, name, upto),
            )
        return upto

    def end(self, name: str) -> GameInfo:
        """End a game and reveal its seed (committed and joint games become verifiable)."""
        self.info(name)
        with self._tx() as conn:
            conn.execute("UPDATE games SET ended = 1, revealed = 1 WHERE name = ?", (name,))
        return self.info(name)

    def delete(self, name: str) -> None:
        """Remove a game and its log."""
        self.info(name)
        self._loaded.pop(name, None)
        with self._tx() as conn:
            conn.execute("DELETE FROM snapshots WHERE game = ?", (name,))
            conn.execute("DELETE FROM events WHERE game = ?", (name,))
            conn.execute("DELETE FROM actions WHERE game = ?", (name,))
            conn.execute("DELETE FROM joint_sides WHERE game = ?", (name,))
            conn.execute("DELETE FROM table_records WHERE game = ?", (name,))
            conn.execute("DELETE FROM games WHERE name = ?", (name,))

    # -- the hash chain ------------------------------------------------------
    def chain(self, name: str) -> tuple[str, list[str]]:
        """The game's identity (the chain's start) and the chain's link after each action."""
        from umpire.engine.chain import heads, identity

        info = self.info(name)
        start = identity(
            info.module, self.scenario(name), info.source_kind, info.commitment, info.fork
        )
        return start, heads(start, (r.to_json() for r in self.records(name)))

    def head(self, name: str) -> str:
        """The chain's head: the link after the last action (the identity before any)."""
        start, links = self.chain(name)
        return links[-1] if links else start

    # -- export / import ----------------------------------------------------
    def export(self, name: str) -> dict[str, Any]:
        """The whole game as one JSON object (an unrevealed committed or joint seed stays hidden).

        The game record states the chain's identity and head, and every action its link,
        so ``umpire games verify`` can name the first action where a log departs. A joint
        game adds its ``joint`` record: each side's commitment and revealed value (the host's
        commitment and seed are the game record's, as for committed dice).
        """
        info = self.info(name)
        start, links = self.chain(name)
        actions = [
            {**r.to_json(), "chain": lk} for r, lk in zip(self.records(name), links, strict=True)
        ]
        out: dict[str, Any] = {
            "format": EXPORT_FORMAT,
            "game": {**info.to_json(), "identity": start, "head": links[-1] if links else start},
            "scenario": self.scenario(name),
            "actions": actions,
        }
        beside = self.table_records(name)
        if beside:
            out["records"] = beside
        if info.source_kind == "joint":
            out["joint"] = {
                "sides": [
                    {"side": side, "commitment": digest, "contribution": value}
                    for side, digest, value in self._joint_rows(name)
                ]
            }
        return out

    def import_(
        self, data: Mapping[str, Any], name: str | None = None, file: str | None = None
    ) -> str:
        """Load an export into the store after checking that it replays."""
        from umpire.store.verify import (
            check_joint_record,
            check_replay,
            module_of,
            parse_export,
            records_of,
        )

        export = parse_export(data, file=file)
        check_joint_record(export, file=file)
        new = name or export.game.name
        try:
            _check_name(new)
        except UmpireError as exc:
            where, hint = ("--name", "") if name else ("game.name", " (use --name)")
            raise DataFileError(f"{where}: {exc.message}{hint}", file=file) from None
        module = module_of(export, file=file)
        records = records_of(export)
        # Refuse a log that does not replay before writing anything.
        check_replay(module, export.scenario, records, file=file)
        with self._tx() as conn:
            if conn.execute("SELECT 1 FROM games WHERE name = ?", (new,)).fetchone():
                raise UmpireError(f"a game named '{new}' already exists (use --name)")
            g = export.game
            conn.execute(
                "INSERT INTO games(name, module, scenario, source_kind, seed, commitment, "
                "revealed, ended, parent, created, fork) VALUES(?,?,?,?,?,?,?,?,?,?,?)",
                (
                    new,
                    g.module,
                    canonical_json(export.scenario),
                    g.source,
                    g.seed,
                    g.commitment,
                    int(g.revealed),
                    int(g.ended),
                    g.parent,
                    g.created,
                    None if g.fork is None else canonical_json(g.fork),
                ),
            )
            for rec in export.records or []:
                if rec.kind not in RECORD_KINDS:
                    raise UmpireError(f"unknown kind of table record '{rec.kind}'")
                data = rec.model_dump(exclude={"at", "kind", "created"})
                _insert_record(conn, new, rec.at, rec.kind, data, rec.created)
            if export.joint is not None:
                conn.executemany(
                    "INSERT INTO joint_sides(game, ord, side, commitment, contribution) "
                    "VALUES(?,?,?,?,?)",
                    [
                        (new, i, s.side, s.commitment, s.contribution)
                        for i, s in enumerate(export.joint.sides)
                    ],
                )
            for record in records:
                _insert_action(conn, new, record)
        return new


def _insert_action(conn: sqlite3.Connection, name: str, record: ActionRecord) -> None:
    conn.execute(
        "INSERT INTO actions(game, no, name, params, state_hash, created) VALUES(?,?,?,?,?,?)",
        (name, record.no, record.name, canonical_json(record.params), record.state_hash, _now()),
    )
    conn.executemany(
        "INSERT INTO events(game, action_no, idx, kind, data) VALUES(?,?,?,?,?)",
        [(name, record.no, i, e.kind, canonical_json(e.data)) for i, e in enumerate(record.events)],
    )


def _insert_snapshot(conn: sqlite3.Connection, name: str, record: ActionRecord, game: Game) -> None:
    """Save the state after ``record`` (the game's last action) and the dice position: a
    cache (the module's docstring). Written only when the state gives the recorded hash."""
    if not game.actions or game.actions[-1] is not record:
        return
    text = canonical_json(game.state)
    if hashlib.sha256(text.encode()).hexdigest() != record.state_hash:
        return
    conn.execute(
        "INSERT OR REPLACE INTO snapshots(game, no, state, position, state_hash) VALUES(?,?,?,?,?)",
        (name, record.no, text, game.actions.faces, record.state_hash),
    )


def _insert_record(
    conn: sqlite3.Connection,
    name: str,
    at: int,
    kind: str,
    data: Mapping[str, Any],
    created: str | None = None,
) -> None:
    """One record beside the log, numbered after the game's last (``created``: when it was
    made, for an import; now by default)."""
    row = conn.execute(
        "SELECT COALESCE(MAX(idx), 0) FROM table_records WHERE game = ?", (name,)
    ).fetchone()
    conn.execute(
        "INSERT INTO table_records(game, idx, at, kind, data, created) VALUES(?,?,?,?,?,?)",
        (name, int(row[0]) + 1, at, kind, canonical_json(dict(data)), created or _now()),
    )


def _insert_joint(conn: sqlite3.Connection, name: str, source: DiceSource) -> None:
    """Save the sides of a joint source (with any commitments and values it already has)."""
    from umpire.dice import JointSource

    if not isinstance(source, JointSource):
        return
    commitments, values = source.commitments, source.contributions
    conn.executemany(
        "INSERT INTO joint_sides(game, ord, side, commitment, contribution) VALUES(?,?,?,?,?)",
        [(name, i, s, commitments.get(s), values.get(s)) for i, s in enumerate(source.sides)],
    )


def _joint_source(info: GameInfo, position: int, rows: builtins.list[JointRow]) -> JointSource:
    """A joint source rebuilt from its saved sides, at ``position``."""
    from umpire.dice import JointSource

    if info.seed is None or not rows:
        raise DataFileError(
            f"game '{info.name}' has joint dice without "
            + ("the host's seed (an unrevealed import)" if info.seed is None else "its sides")
        )
    try:
        return JointSource(
            [r[0] for r in rows],
            int(info.seed),
            position,
            commitments={r[0]: r[1] for r in rows if r[1] is not None},
            contributions={r[0]: r[2] for r in rows if r[2] is not None},
        )
    except UmpireError as exc:
        raise DataFileError(f"game '{info.name}' has broken joint dice: {exc.message}") from None


def _check_name(name: str) -> None:
    """A game's name: 1-80 characters, not blank, no slash, '@' (the web's GAME@ACTION),
    control character (a tab, a newline, or an escape that would rewrite the terminal when
    `games list` prints it) or other character ``str.isprintable`` refuses (a soft hyphen or
    another invisible format character, a line separator); the refusal quotes at most 40
    characters of it."""
    if (
        not name.strip()
        or len(name) > 80
        or any(c in "/\\@" or (c != " " and not c.isprintable()) for c in name)
    ):
        shown = repr(name) if len(repr(name)) <= 40 else repr(name)[:39] + "…"
        raise UmpireError(
            f"bad game name {shown}: 1-80 characters, not blank, no slashes, '@', "
            "control or invisible characters"
        )


def _make_source(
    info: GameInfo,
    position: int,
    physical: Any,
    draw: Any = None,
    joint: builtins.list[JointRow] | None = None,
) -> DiceSource:
    from umpire.dice import CommittedSource, PhysicalSource, SeededSource

    if info.source_kind == "joint":
        return _joint_source(info, position, joint or [])
    if info.source_kind == "seeded" and info.seed is not None:
        return SeededSource(int(info.seed), position=position)
    if info.source_kind == "committed" and info.seed is not None:
        return CommittedSource(int(info.seed), position=position)
    if info.source_kind == "physical":
        if physical is None:
            raise UmpireError(f"game '{info.name}' uses physical dice: run it interactively")
        source = PhysicalSource(physical, draw)
        source.position = position  # the log's dice positions count on from here
        return source
    raise DataFileError(f"game '{info.name}' has an unusable dice source '{info.source_kind}'")
