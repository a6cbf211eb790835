"""What the web table does, apart from HTTP: create games, open links, act, undo, fork, end.

Every change is an engine action on the saved game, made under the game's lock and only
if the request saw the game as it is now (``at``: the number of actions the page showed);
a request made on an older state is refused as stale and changes nothing. Each thread
keeps its own SQLite connection to the one save file (WAL: readers never wait).
"""

from __future__ import annotations

import re
import secrets
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from umpire.battle.game import pending
from umpire.dice.sources import read_faces
from umpire.engine.game import Game
from umpire.errors import DiceSourceError, IllegalActionError, UmpireError
from umpire.rules import TABLE_MODULES, table_module
from umpire.sides import SIDES_UNION_FIRST
from umpire.store import Store
from umpire.web import battle_table as BT
from umpire.web import book_table as BK
from umpire.web import module_table as MT
from umpire.web.log import recent, record_line
from umpire.web.seats import HOST, SPECTATOR, LinkError, Seat, Seats

KINDS = ("battle", "book", "cwb")
PLAYERS = ("human", "ai", "easy", "normal", "hard")
"""Who plays a side: a person, or the AI at a level (``ai`` is ``normal``; issue 23)."""
DICE = ("committed", "seeded", "joint")


def roles_of(kind: str) -> list[str]:
    """The seats that play a kind of table: a module's sides, a battle's, the dice book's."""
    if kind in TABLE_MODULES:
        return list(table_module(kind).sides)
    return list(SIDES_UNION_FIRST) if kind == "battle" else [BK.ROLE]


class StaleError(UmpireError):
    """The page acted on a state that has moved on (another seat acted first)."""


class RoleError(UmpireError):
    """A seat asked for something only another seat may do."""


class Service:
    """The web table's operations over one save file."""

    def __init__(self, db: str | Path | None = None):
        self.db = Store(db).path
        self._local = threading.local()
        self._locks: dict[str, threading.Lock] = {}
        self._guard = threading.Lock()
        self._writing = threading.Lock()
        self.versions: dict[str, int] = {}
        # Names this process's version numbers: a page compares versions only within one boot.
        self.boot = secrets.token_hex(4)
        self._loaded: dict[str, Any] = {}  # games rebuilt, shared by the threads' connections
        self._views: dict[tuple[str, int, str, str | None], dict[str, Any]] = {}
        # Who is connected now: game -> role -> open live feeds (a page holds one while open).
        self.present: dict[str, dict[str, int]] = {}
        self.lobby = 0  # changes when a game changes or a page comes or goes (the start page)

    # -- plumbing ---------------------------------------------------------------------------
    @property
    def store(self) -> Store:
        """This thread's connection to the save file."""
        st: Store | None = getattr(self._local, "store", None)
        if st is None:
            st = self._local.store = Store(self.db, self._loaded)
            self._local.seats = Seats(st)
        return st

    @property
    def seats(self) -> Seats:
        """This thread's link book."""
        self.store  # noqa: B018 - opens the connection and the link book with it
        found: Seats = self._local.seats
        return found

    @contextmanager
    def locked(self, game: str) -> Iterator[None]:
        """One change at a time on a game (two browsers at the same moment: one wins)."""
        with self._guard:
            lock = self._locks.setdefault(game, threading.Lock())
        with lock, self._writing:  # one writer at a time: SQLite never makes a writer sleep
            yield
        with self._guard:  # two threads' changes are two versions, never one
            self.versions[game] = self.versions.get(game, 0) + 1
            self.lobby += 1

    def arrive(self, seat: Seat) -> None:
        """A page of ``seat`` opened its live feed: it is connected now."""
        with self._guard:
            roles = self.present.setdefault(seat.game, {})
            roles[seat.role] = roles.get(seat.role, 0) + 1
            self.lobby += 1

    def leave(self, seat: Seat) -> None:
        """A page of ``seat`` closed its live feed (closed, reloaded, or off the network)."""
        with self._guard:
            roles = self.present.get(seat.game, {})
            left = roles.get(seat.role, 0) - 1
            if left > 0:
                roles[seat.role] = left
            else:
                roles.pop(seat.role, None)
            self.lobby += 1

    def connected(self, game: str) -> dict[str, int]:
        """Role -> pages connected now, for the host (presence through the live feed)."""
        with self._guard:
            return dict(self.present.get(game, {}))

    def version(self, game: str) -> int:
        """A number that changes whenever the game changes (the live updates watch it)."""
        return self.versions.get(game, 0)

    def seat(self, token: str) -> Seat:
        """The seat a link opens (LinkError when it opens nothing)."""
        return self.seats.seat(token)

    def _check_at(self, game: str, at: int | None) -> None:
        n = self.store.info(game).actions
        if at is None:
            raise IllegalActionError("the request must say which state it acts on (at)")
        if at != n:
            raise StaleError(
                f"the game has moved on (it is at action {n}, your page showed {at}): "
                f"look again and choose again"
            )

    def _load(self, game: str) -> Game:
        return self.store.load(game)

    # -- creating ---------------------------------------------------------------------------
    def scenarios(self) -> list[dict[str, str]]:
        """The shipped scenarios a battle can start from."""
        from umpire.battle.scenario import load_scenario
        from umpire.scenarios import shipped

        out = []
        for name in shipped():
            s = load_scenario(name)
            out.append({"id": name, "name": s.name, "description": s.description})
        return out

    def create(
        self,
        kind: str,
        scenario: str = "",
        players: dict[str, str] | None = None,
        dice: str = "committed",
        title: str = "",
        seed: int | None = None,
        start: str = "",
    ) -> tuple[str, dict[str, str]]:
        """A new game with its table: (game name, role -> link token)."""
        from umpire.dice import CommittedSource, JointSource, SeededSource

        if kind not in KINDS:
            raise UmpireError(f"unknown kind of game '{kind}' ({', '.join(KINDS)})")
        if dice not in DICE:
            raise UmpireError(f"unknown dice '{dice}' ({', '.join(DICE)})")
        if seed is not None and dice != "seeded":
            raise UmpireError("a seed is given only with open (seeded) dice")
        if dice == "committed":
            source: Any = CommittedSource()
        elif dice == "joint":
            source = JointSource(roles_of(kind))
        else:
            source = SeededSource(secrets.randbits(48) if seed is None else seed)
        config: dict[str, Any]
        if kind in TABLE_MODULES:
            module = table_module(kind)
            options = {"start": start} if start else {}
            game = Game.new(module.id, module.table_start(options), source)
            name = self._name(f"web-{kind}")
            config = {
                "players": dict.fromkeys(roles_of(kind), "human"),
                "title": title or module.name,
            }
        elif kind == "battle":
            from umpire.battle.scenario import load_scenario
            from umpire.rules import get_module
            from umpire.scenarios import shipped

            if scenario not in shipped():
                raise UmpireError(
                    f"unknown scenario '{scenario}' (shipped: {', '.join(shipped())})"
                )
            scen = load_scenario(scenario)
            who = {s: (players or {}).get(s, "human") for s in SIDES_UNION_FIRST}
            for side, p in who.items():
                if p not in PLAYERS:
                    raise UmpireError(f"{side}: unknown player '{p}' ({', '.join(PLAYERS)})")
            game = Game.new(get_module("battle"), scen.to_json(), source)
            if dice != "joint":  # joint dice start once every side has given its value
                game.act("start", {})
            name = self._name(f"web-{scenario}")
            config = {"players": who, "title": scen.name}
        else:
            game = Game.new("session", {"title": title or "dice book"}, source)
            name = self._name("web-book")
            config = {"players": {BK.ROLE: "human"}, "title": title or "dice book"}
        self.store.create(name, game)
        self.seats.open_table(name, kind, roles_of(kind), config)
        if kind == "battle" and dice != "joint":
            self._run_ai(name, None)
        return name, self.seats.links(name)

    def _name(self, stem: str) -> str:
        stem = re.sub(r"[^A-Za-z0-9_.-]", "-", stem)[:60]
        return f"{stem}-{secrets.token_hex(3)}"

    # -- views ------------------------------------------------------------------------------
    def view(self, seat: Seat) -> dict[str, Any]:
        """Everything a seat's page shows (never another seat's link, never a hidden seed)."""
        info = self.store.info(seat.game)
        kind = self.seats.kind(seat.game)
        config = self.seats.config(seat.game)
        game = self._load(seat.game)
        out: dict[str, Any] = {
            "game": seat.game,
            "kind": kind,
            "role": seat.role,
            "side": seat.side,
            "title": config.get("title", seat.game),
            "players": config.get("players", {}),
            "at": info.actions,
            "version": self.version(seat.game),
            "ended": info.ended,
            "dice": {
                "source": info.source_kind,
                "commitment": info.commitment,
                "seed": info.public_seed() if info.source_kind in ("committed", "joint") else None,
                "joint": self._joint(seat.game) if info.source_kind == "joint" else None,
            },
            "log": recent(game.actions),
        }
        solo = self._solo(seat.game, info.source_kind, config)
        plan = None if info.ended else self._undo_plan(game, seat, solo)
        out["may_undo"] = plan is not None
        out["undo_needs_consent"] = plan is not None and plan[1] is None
        out["undo_request"] = self._undo_request_view(config, game, seat)
        out["real_dice_request"] = self._real_request_view(config, seat)
        out["real_dice_sides"] = sorted(s for s, on in config.get("real_dice", {}).items() if on)
        out["consent"] = solo is None
        out["records"] = [
            {"at": r["at"], "kind": r["kind"], "text": record_line(r)}
            for r in self.store.table_records(seat.game)[-8:]
        ][::-1]
        out["fork"] = info.fork
        pending = self.seats.pending(seat.game)
        if kind == "battle":
            out["table"] = self._battle_view(seat.game, game, seat.side)
            if pending is not None:
                out["table"]["choices"] = []  # the order is being carried out
        elif kind in TABLE_MODULES:
            out["table"] = MT.view(game, table_module(kind), seat.side, pending)
        else:
            out["table"] = BK.view(game)
        out["real_dice"] = bool(seat.side and self._real(seat.game, seat.side))
        out["roll"] = None
        out["rolling"] = None
        if pending is not None and pending.get("need"):
            out["rolling"] = pending["by"]
            if seat.side == pending["by"]:
                out["roll"] = pending["need"]
        if seat.role == HOST:
            out["links"] = self.seats.links(seat.game)
        return out

    def allowance(self, seat: Seat) -> dict[str, Any]:
        """Where a battle's acting unit may move now (``battle_table.allowance``), computed
        once per state: every seat may see it (the whole table is in view)."""
        if self.seats.kind(seat.game) != "battle":
            raise IllegalActionError("only a battle has units to move")
        game = self._load(seat.game)
        last = game.actions[-1].state_hash if game.actions else ""
        key = (seat.game, len(game.actions), last, "allowance")
        hit = self._views.get(key)
        if hit is None:
            hit = BT.allowance(game)
            if len(self._views) >= 512:
                self._views.pop(next(iter(self._views)), None)
            self._views[key] = hit
        return hit

    def _joint(self, game: str) -> dict[str, Any]:
        out = dict(self.store.joint_public(game))
        out.pop("seed", None)  # shown once the game has ended, in "seed" above
        return out

    def commit(self, seat: Seat, digest: str) -> None:
        """Joint dice, phase one: this side's commitment to its secret value."""
        side = self._may_act(seat)
        with self.locked(seat.game):
            self.store.joint_commit(seat.game, side, digest)

    def reveal(self, seat: Seat, value: str, entropy: str | None) -> None:
        """Joint dice, phase two: this side's value; when all are in, a battle starts."""
        side = self._may_act(seat)
        with self.locked(seat.game):
            public = self.store.joint_contribute(seat.game, side, value)
            if public["ready"] and self.seats.kind(seat.game) == "battle":
                game = self._load(seat.game)
                if not game.actions:
                    self.store.play(seat.game, game, "start", {}, entropy=entropy)
                    self._ai_loop(seat.game, game, entropy)

    def _battle_view(self, name: str, game: Game, side: str | None) -> dict[str, Any]:
        """The battle as ``side`` sees it, computed once per state of the game (the other
        seats and the page after an order ask for the same one)."""
        last = game.actions[-1].state_hash if game.actions else ""
        key = (name, len(game.actions), last, side)
        hit = self._views.get(key)
        if hit is None:
            hit = BT.view(game, side)
            if len(self._views) >= 512:
                self._views.pop(next(iter(self._views)), None)
            self._views[key] = hit
        return dict(hit)  # a shallow copy: the caller may replace its "choices"

    # -- acting -----------------------------------------------------------------------------
    def _may_act(self, seat: Seat) -> str:
        if seat.side is None:
            raise RoleError(
                "a spectator's link only watches"
                if seat.role == SPECTATOR
                else "the host's link does not play a side: open a side's link"
            )
        if self.store.info(seat.game).ended:
            raise RoleError("this game has ended; the host may fork it to play on")
        return seat.side

    def _real(self, game: str, side: str) -> bool:
        """Does ``side`` roll real dice at the table (and type the faces) now?"""
        return bool(self.seats.config(game).get("real_dice", {}).get(side))

    def set_real_dice(self, seat: Seat, on: bool) -> None:
        """A side switches to typing the faces of real dice (or back to the game's dice).

        Reading ``web_real_dice``: back to the game's dice at once; to real dice at once
        against the AI or with open dice, else only when the other side agrees in its page
        (this asks it). Every switch is recorded beside the log and shown on every page.
        """
        side = self._may_act(seat)
        with self.locked(seat.game):
            config = self.seats.config(seat.game)
            real = config.setdefault("real_dice", {})
            request = config.get("real_dice_request")
            if not on:
                if request and request.get("by") == side:
                    config.pop("real_dice_request")
                    self.store.add_record(
                        seat.game, "real_dice_refused", {"by": side, "refused": side}
                    )
                if real.get(side):
                    real[side] = False
                    self.store.add_record(seat.game, "real_dice", {"side": side, "on": False})
                self.seats.set_config(seat.game, config)
                return
            if real.get(side):
                return
            why = self._solo(seat.game)
            if why is not None:
                real[side] = True
                self.seats.set_config(seat.game, config)
                self.store.add_record(
                    seat.game, "real_dice", {"side": side, "on": True, "why": why}
                )
                return
            if request:
                raise RoleError(
                    f"the {request['by']} side's switch to real dice waits for an answer first"
                )
            config["real_dice_request"] = {"by": side, "at": self.store.info(seat.game).actions}
            self.seats.set_config(seat.game, config)

    def answer_real_dice(self, seat: Seat, agree: bool) -> None:
        """The other side agrees to (or refuses) a switch to real dice; the asker may take
        the request back (refuse)."""
        side = self._may_act(seat)
        with self.locked(seat.game):
            config = self.seats.config(seat.game)
            request = config.get("real_dice_request")
            if not request:
                raise RoleError("no switch to real dice waits for an answer")
            asker = str(request["by"])
            if asker == side and agree:
                raise RoleError("the other side must agree to your real dice, not you")
            config.pop("real_dice_request")
            if agree:
                config.setdefault("real_dice", {})[asker] = True
                data = {"side": asker, "on": True, "agreed": side}
                self.store.add_record(seat.game, "real_dice", data)
            else:
                data = {"by": asker, "refused": side}
                self.store.add_record(seat.game, "real_dice_refused", data)
            self.seats.set_config(seat.game, config)

    def _real_request_view(self, config: dict[str, Any], seat: Seat) -> dict[str, Any] | None:
        request = config.get("real_dice_request")
        if not request:
            return None
        return {
            "by": request["by"],
            "mine": request["by"] == seat.side,
            "answer": bool(seat.side) and request["by"] != seat.side,
        }

    def _solo(
        self, game: str, kind: str | None = None, config: dict[str, Any] | None = None
    ) -> str | None:
        """Why a side needs nobody's consent to undo or roll real dice here (against the AI,
        one player, open practice dice), or None in a game between two people. (``kind``:
        the game's dice, and ``config``: its table's settings, when the caller has them.)"""
        if (kind or self.store.info(game).source_kind) == "seeded":
            return "open practice dice"
        players = (config if config is not None else self.seats.config(game)).get("players", {})
        if sum(1 for p in players.values() if p == "human") >= 2:
            return None
        return "against the AI" if any(p != "human" for p in players.values()) else "one player"

    def _idle(self, game: str) -> None:
        pending = self.seats.pending(game)
        if pending is not None:
            who = (pending.get("ask") or {}).get("decider") or pending.get("by")
            what = "an answer" if pending.get("ask") else "the faces of real dice"
            raise RoleError(f"the game waits for {what} from the {who} side first")

    def _run(
        self,
        name: str,
        game: Game,
        action: str,
        params: dict[str, Any],
        *,
        by: str,
        answers: list[dict[str, Any]] | None = None,
        faces: list[int] | None = None,
        entropy: str | None = None,
    ) -> bool:
        """Run an action to its end (logged: True) or to its next question or roll of real
        dice (nothing logged; kept as the game's pending action: False)."""
        from umpire.dice import NeedFaces, TypedDice

        kind = self.seats.kind(name)
        module = table_module(kind) if kind in TABLE_MODULES else None
        inner = game.source
        after = game.actions[-1] if game.actions else None  # saved only if still the last
        if faces is not None:
            own = None if inner.kind == "joint" and entropy is None else _own_rolls(game, by)
            game.source = TypedDice(inner, faces, own)
        need: dict[str, Any] | None = None
        record, ask = None, None
        try:
            if module is not None:
                record, ask = MT.run(game, module, action, params, answers or [], entropy, by)
            else:
                record = game.act(action, params, None, entropy, by=by)
        except NeedFaces as exc:
            need = BK.need_view(exc.n, exc.sides, exc.purpose, exc.labels)
        finally:
            game.source = inner
        if record is not None:
            self.store.append(name, record, after, game)
            self.seats.set_pending(name, None)
            return True
        self.seats.set_pending(
            name,
            {
                "action": action,
                "params": params,
                "answers": answers or [],
                "faces": faces,
                "entropy": entropy,  # the same on every run, so the same dice come
                "by": by,
                "ask": ask,
                "need": need,
            },
        )
        return False

    def order(
        self,
        seat: Seat,
        at: int | None,
        choice: int | None = None,
        tap: tuple[float, float] | None = None,
        unit: int | None = None,
        entropy: str | None = None,
    ) -> None:
        """A battle order: a menu pick, a tap on the table (a move) or on a unit (a target)."""
        side = self._may_act(seat)
        if self.seats.kind(seat.game) != "battle":
            raise RoleError("orders are for battles; this table is not a battle")
        with self.locked(seat.game):
            self._check_at(seat.game, at)
            self._idle(seat.game)
            game = self._load(seat.game)
            if unit is not None:
                choice = BT.target_choice(game, side, unit)
            actor, order = BT.order_for(game, side, choice, tap)
            faces: list[int] | None = [] if self._real(seat.game, side) else None
            params = {"actor": actor, "order": order}
            if self._run(seat.game, game, "order", params, by=side, faces=faces, entropy=entropy):
                self._ai_loop(seat.game, game, entropy)

    def _run_ai(self, name: str, entropy: str | None) -> None:
        with self.locked(name):
            self._ai_loop(name, self._load(name), entropy)

    def _ai_loop(self, name: str, game: Game, entropy: str | None) -> None:
        """The AI's answers after a person's order; with joint dice each takes entropy
        derived from that order's (reading ``web_ai_entropy``: the host cannot choose it)."""
        import hashlib

        players = self.seats.config(name).get("players", {})
        for _ in range(5000):
            side = BT.ai_side_to_act(game, players)
            if side is None:
                break
            actor, order = BT.ai_order(game, str(players[side]))
            derived = (
                hashlib.sha256(f"{entropy}:{len(game.actions) + 1}".encode()).hexdigest()
                if entropy
                else None
            )
            self.store.play(
                name,
                game,
                "order",
                {"actor": actor, "order": order},
                entropy=derived,
                by=self._side_of(game, actor),
            )
        _, req = pending(game)
        if req is None and game.actions and not self.store.info(name).ended:
            self.store.end(name)  # the battle is over: the committed seed is revealed

    def act(
        self,
        seat: Seat,
        at: int | None,
        action: str,
        params: dict[str, Any],
        entropy: str | None = None,
    ) -> None:
        """A dice-book action (roll, table, pick, deck, draw, shuffle, new_day), or one of the
        commands a module's table offers this seat now."""
        side = self._may_act(seat)
        kind = self.seats.kind(seat.game)
        if kind == "battle":
            raise RoleError("this is a battle: give orders, not dice-book actions")
        with self.locked(seat.game):
            self._check_at(seat.game, at)
            self._idle(seat.game)
            game = self._load(seat.game)
            if kind in TABLE_MODULES:
                offered = {
                    c["action"]: c for c in table_module(kind).table_commands(game.state, side)
                }
                if action not in offered:
                    known = ", ".join(offered) or "nothing now"
                    raise RoleError(f"'{action}' is not open to you now (open: {known})")
                clean = dict(offered[action]["params"])
            else:
                clean = BK.params_for(action, params)
            faces: list[int] | None = [] if self._real(seat.game, side) else None
            self._run(seat.game, game, action, clean, by=side, faces=faces, entropy=entropy)

    def answer(self, seat: Seat, at: int | None, answer: list[str]) -> None:
        """Answer the question waiting for this seat; the action runs on."""
        from umpire.engine.decisions import Decision, Option

        side = self._may_act(seat)
        with self.locked(seat.game):
            pending = self._waiting(seat.game, at, "ask", "no question is waiting")
            ask = pending["ask"]
            if ask["decider"] != side:
                raise RoleError(f"the question is for the {ask['decider']} side, not yours")
            decision = Decision(
                ask["decider"],
                ask["prompt"],
                tuple(Option(i, label) for i, label in ask["options"]),
                int(ask["pick"]),
                allow_fewer=bool(ask["allow_fewer"]),
            )
            chosen = decision.validate(answer)
            self._resume(
                seat.game,
                pending,
                answers=[*pending["answers"], {"decider": side, "answer": chosen}],
            )

    def faces(self, seat: Seat, at: int | None, faces: list[int] | str) -> None:
        """The faces of the real dice the pending action waits for (typed text or numbers),
        read as every typed roll is (:func:`read_faces`: a d10's 0 is its 10); it runs on."""
        side = self._may_act(seat)
        with self.locked(seat.game):
            pending = self._waiting(seat.game, at, "need", "no roll of real dice is waiting")
            if pending["by"] != side:
                raise RoleError(f"the {pending['by']} player rolls these dice, not you")
            need = pending["need"]
            text = faces if isinstance(faces, str) else " ".join(str(f) for f in faces)
            try:
                got = read_faces(text, int(need["n"]), int(need["sides"]), str(need["purpose"]))
            except DiceSourceError as exc:
                raise IllegalActionError(str(exc)) from None
            self._resume(seat.game, pending, faces=[*(pending["faces"] or []), *got])

    def _waiting(self, game: str, at: int | None, part: str, nothing: str) -> dict[str, Any]:
        """The game's pending action when it waits for ``part`` (``ask``: an answer, ``need``:
        the faces of real dice), else ``RoleError(nothing)``; a stale ``at`` is refused first.
        Called under the game's lock."""
        self._check_at(game, at)
        pending = self.seats.pending(game)
        if pending is None or not pending.get(part):
            raise RoleError(nothing)
        return pending

    def _resume(
        self,
        name: str,
        pending: dict[str, Any],
        answers: list[dict[str, Any]] | None = None,
        faces: list[int] | None = None,
    ) -> None:
        game = self._load(name)
        done = self._run(
            name,
            game,
            pending["action"],
            pending["params"],
            by=pending["by"],
            answers=pending["answers"] if answers is None else answers,
            faces=pending["faces"] if faces is None else faces,
            entropy=pending.get("entropy"),
        )
        if done and self.seats.kind(name) == "battle":
            self._ai_loop(name, game, pending.get("entropy"))

    # -- undo, fork, end --------------------------------------------------------------------
    def _by(self, game: Game, record: Any) -> str | None:
        """The side that asked for an action (the log says; older logs: a battle order's
        actor's side)."""
        by: str | None = record.by
        if by is not None:
            return by
        if record.name == "order" and isinstance(record.params, dict):
            return self._side_of(game, record.params.get("actor"))
        return None

    def _undo_plan(self, game: Game, seat: Seat, solo: str | None) -> tuple[int, str | None] | None:
        """Where this seat may take the game back to, and why it needs nobody's consent
        (None: the other side must agree), if anywhere (reading ``web_undo``). ``solo``:
        :meth:`_solo`'s answer for the game."""
        n = len(game.actions)
        if n == 0:
            return None
        if seat.role == HOST:  # the host link alone never takes back a side's dice
            return (n - 1, solo) if solo is not None else None
        if seat.side is None:
            return None
        own = [r.no for r in game.actions if self._by(game, r) == seat.side]
        if not own:
            return None
        to = own[-1] - 1
        if solo is not None:
            return to, solo
        withdrawn = game.actions[to:]
        if all(self._by(game, r) == seat.side for r in withdrawn) and not any(
            _rolled(r) for r in withdrawn
        ):
            return to, "its own last order, no die rolled since"
        return to, None

    @staticmethod
    def _side_of(game: Game, actor: Any) -> str | None:
        for u in game.scenario.get("units", []):
            if u.get("id") == actor:
                return str(u.get("side"))
        for ld in game.scenario.get("leaders", []):
            if ld.get("id") == actor:
                return str(ld.get("side"))
        return None

    def _live_undo_request(self, config: dict[str, Any], game: Game) -> dict[str, Any] | None:
        """The undo waiting for consent, if it still asks about the game as it is now."""
        request = config.get("undo_request")
        if not request:
            return None
        last = game.actions[-1].state_hash if game.actions else ""
        if request.get("at") != len(game.actions) or request.get("last") != last:
            return None  # the game moved on: the request is spent
        found: dict[str, Any] = request
        return found

    def _undo_request_view(
        self, config: dict[str, Any], game: Game, seat: Seat
    ) -> dict[str, Any] | None:
        request = self._live_undo_request(config, game)
        if request is None:
            return None
        withdrawn = game.actions[int(request["to"]) :]
        return {
            "by": request["by"],
            "to": request["to"],
            "mine": request["by"] == seat.side,
            "answer": bool(seat.side) and request["by"] != seat.side,
            "withdrawn": recent(withdrawn, len(withdrawn))[::-1],
        }

    def undo(self, seat: Seat, at: int | None) -> dict[str, Any]:
        """Take back what this seat may take back, or ask the other side to agree.

        Returns ``{"dropped": n, "asked": bool}``: actions dropped now, or 0 and a request
        shown to every page until the other side answers (or the game moves on).
        """
        with self.locked(seat.game):
            self._check_at(seat.game, at)
            if self.store.info(seat.game).ended:
                raise RoleError("this game has ended; fork it to play on")
            self._idle(seat.game)
            game = self._load(seat.game)
            plan = self._undo_plan(game, seat, self._solo(seat.game))
            if plan is None:
                raise RoleError(
                    "nothing to take back: a side takes back its own orders (the other side "
                    "agrees in its page when a die was rolled or its order would go too); "
                    "the host's link undoes only against the AI or with open dice"
                )
            to, why = plan
            if why is not None:
                return {"dropped": self._undo_now(seat.game, to, seat.role, None, why)}
            config = self.seats.config(seat.game)
            if self._live_undo_request(config, game):
                raise RoleError("an undo already waits for an answer")
            config["undo_request"] = {
                "by": seat.side,
                "to": to,
                "at": len(game.actions),
                "last": game.actions[-1].state_hash,
            }
            self.seats.set_config(seat.game, config)
            return {"dropped": 0, "asked": True}

    def answer_undo(self, seat: Seat, at: int | None, agree: bool) -> int:
        """The other side agrees to (or refuses) the undo waiting for it; the asker may
        take its request back (refuse). Returns the actions dropped."""
        side = self._may_act(seat)
        with self.locked(seat.game):
            self._check_at(seat.game, at)
            self._idle(seat.game)
            game = self._load(seat.game)
            config = self.seats.config(seat.game)
            request = self._live_undo_request(config, game)
            if request is None:
                raise RoleError("no undo waits for an answer")
            asker = str(request["by"])
            if asker == side and agree:
                raise RoleError("the other side must agree to your undo, not you")
            config.pop("undo_request", None)
            self.seats.set_config(seat.game, config)
            if not agree:
                self.store.add_record(seat.game, "undo_refused", {"by": asker, "refused": side})
                return 0
            return self._undo_now(seat.game, int(request["to"]), asker, side, None)

    def _undo_now(self, name: str, to: int, by: str, agreed: str | None, why: str | None) -> int:
        """Drop the actions after ``to`` and record who asked, who agreed (or why nobody
        had to) and the withdrawn actions whole, beside the log."""
        config = self.seats.config(name)
        if config.pop("undo_request", None) is not None:
            self.seats.set_config(name, config)
        record: dict[str, Any] = {"by": by, "agreed": agreed}
        if why is not None:
            record["why"] = why
        return self.store.undo(name, to, record)

    def fork(self, seat: Seat, keep_dice: bool = False) -> tuple[str, dict[str, str]]:
        """The host copies the game as it stands to a new table with new links.

        Reading ``web_fork``: the fork rolls dice of its own from the fork point (its own
        seed and commitment), so forking a game in play foresees none of its dice; a fork
        that keeps the parent's dice (to replay history) is made only from an ended game,
        whose seed is public, and plays them as open dice that say so.
        """
        if seat.role != HOST:
            raise RoleError("only the host's link may fork the game")
        kind = self.seats.kind(seat.game)
        config = self.seats.config(seat.game)
        info = self.store.info(seat.game)
        if info.source_kind not in ("committed", "seeded", "joint"):
            raise RoleError(f"a game with {info.source_kind} dice is forked at the command line")
        try:
            source = self.store.fork_source(seat.game, keep_dice)
        except UmpireError as exc:
            raise RoleError(exc.message) from None
        for key in ("undo_request", "real_dice_request", "real_dice"):
            config.pop(key, None)
        new = self._name(seat.game.rsplit("-", 1)[0] + "-fork")
        self.store.fork(seat.game, new, source=source, keeps_dice=keep_dice)
        self.seats.open_table(new, kind, roles_of(kind), config)
        return new, self.seats.links(new)

    def end(self, seat: Seat) -> None:
        """The host ends the game: the committed seed is revealed and verify can check it."""
        if seat.role != HOST:
            raise RoleError("only the host's link may end the game")
        with self.locked(seat.game):
            if not self.store.info(seat.game).ended:
                self.store.end(seat.game)

    def aar(self, seat: Seat) -> str:
        """The after-action report (issue 24, ``umpire aar``) of a game that is over: a
        battle that has ended on the table, or any game its host ended."""
        from umpire.aar.collect import collect, saved_state
        from umpire.aar.html import render

        info = self.store.info(seat.game)
        over = info.ended
        if not over and info.module == "battle":
            over = bool(saved_state(self.store, seat.game)["battle"]["over"])
        if not over:
            raise IllegalActionError("the after-action report is written when the game is over")
        return render(collect(self.store, seat.game))

    def verify(self, seat: Seat) -> dict[str, Any]:
        """Verify the game's export (every die against the revealed seed, the replay)."""
        from umpire.store import verify_export

        info = self.store.info(seat.game)
        if info.source_kind == "committed" and not info.ended:
            raise RoleError("the seed is revealed when the game ends: verify then")
        parent = None
        if info.fork is not None and not info.fork.get("keeps_dice"):
            name = str(info.fork.get("parent"))
            if name in self.store.names() and self.store.info(name).ended:
                parent = self.store.export(name)
        report = verify_export(self.store.export(seat.game), parent=parent)
        return {
            "ok": True,
            "actions": report.actions,
            "dice": report.dice,
            "rolls_checked": report.rolls_checked,
            "notes": report.notes,
            "parts": report.parts,
            "records": report.records,
        }

    def export(self, seat: Seat) -> dict[str, Any]:
        """The game's export, once it has ended (before, it could show a side's secrets)."""
        if not self.store.info(seat.game).ended:
            raise RoleError("the export is given when the game has ended")
        return self.store.export(seat.game)

    def games(self) -> list[dict[str, Any]]:
        """Games with a table, newest first, for the host's start page."""
        out = []
        for info in reversed(self.store.all()):
            if self.seats.has_table(info.name):
                kind = self.seats.kind(info.name)
                here = self.connected(info.name)
                roles = [*roles_of(kind), HOST, SPECTATOR]
                out.append(
                    {
                        "name": info.name,
                        "kind": kind,
                        "title": self.seats.config(info.name).get("title", info.name),
                        "present": [{"role": r, "pages": here.get(r, 0)} for r in roles],
                        "ended": info.ended,
                        "actions": info.actions,
                        "created": info.created,
                    }
                )
        return out

    def saved(self) -> list[dict[str, Any]]:
        """Saved games without a table that the page can open (battles, seed 000, books)."""
        kinds = {"battle": "battle", "quick_acw": "battle", "session": "book"}
        kinds.update({mid: kind for kind, mid in TABLE_MODULES.items()})
        out = []
        for info in reversed(self.store.all()):
            if info.module in kinds and not self.seats.has_table(info.name):
                out.append({"name": info.name, "kind": kinds[info.module], "actions": info.actions})
        return out

    def open_saved(self, game: str) -> dict[str, str]:
        """Give a saved game (made at the command line) a table: links for every side."""
        kinds = {item["name"]: item["kind"] for item in self.saved()}
        if game not in kinds:
            raise LinkError(f"no saved game '{game}' without a table")
        kind = kinds[game]
        roles = roles_of(kind)
        info = self.store.info(game)
        if info.source_kind == "physical":
            raise RoleError("a game with physical dice is played at the command line")
        config = {"players": {r: "human" for r in roles}, "title": game}
        self.seats.open_table(game, kind, roles, config)
        return self.seats.links(game)

    def host_link(self, game: str) -> str:
        """The host's link of a game (for the host's start page only)."""
        links = self.seats.links(game)
        if HOST not in links:
            raise LinkError(f"game '{game}' has no table")
        return links[HOST]


def _rolled(record: Any) -> bool:
    """Did the action roll or draw any die (the game's or real dice typed at the table)?"""
    return any(d[2] for e in record.events for d in e.data.get("draws", []))


def _own_rolls(game: Game, side: str) -> Callable[[str], bool]:
    """Whether a roll in ``side``'s action is ``side``'s to type with real dice (reading
    ``web_real_dice``): not when its purpose starts with the name of another side's unit or
    leader ("20th Maine: is officer 1 hit?"), which the game's own dice roll instead; every
    other roll of the action is the typer's, as the action is."""
    names = sorted(
        (
            (str(x["name"]), str(x.get("side")))
            for kind in ("units", "leaders")
            for x in game.scenario.get(kind, [])
            if x.get("name")
        ),
        key=lambda pair: -len(pair[0]),
    )

    def own(purpose: str) -> bool:
        for name, owner in names:
            if purpose.startswith(name) and not purpose[len(name) : len(name) + 1].isalnum():
                return owner == side
        return True

    return own
