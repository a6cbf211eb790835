"""A game: a rule module, a scenario, a dice source and the event log.

The state is what the log says: :meth:`Game.replay` rebuilds it from the change
events alone, with no dice and no rules code, and :meth:`Game.reexecute` runs the
actions again with the logged faces and answers to prove the rules give the same log.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, overload

from umpire.dice.sources import check_entropy
from umpire.engine.context import Context
from umpire.engine.decisions import Decision, Policy, RandomPolicy, ScriptedPolicy
from umpire.engine.events import (
    JSON,
    Event,
    Path,
    apply_change,
    copy_state,
    parse_path,
    state_hash,
)
from umpire.engine.statehash import StateHasher
from umpire.errors import (
    DiceSourceError,
    UmpireError,
    UnknownNameError,
    VerifyError,
)

if TYPE_CHECKING:
    from umpire.dice import DiceSource
    from umpire.engine.decisions import PickFn
    from umpire.rules import RuleModule


@dataclass(slots=True)
class ActionRecord:
    """One committed action: its number, name, parameters, events and resulting hash."""

    no: int
    name: str
    params: dict[str, JSON]
    events: list[Event]
    state_hash: str

    @property
    def by(self) -> str | None:
        """The side that asked for this action at a web table, if the log says."""
        if self.events and self.events[0].kind == "action":
            value = self.events[0].data.get("by")
            return value if isinstance(value, str) else None
        return None

    @property
    def entropy(self) -> str | None:
        """The browser's entropy that this action's joint dice came from, if it had any."""
        if self.events and self.events[0].kind == "action":
            value = self.events[0].data.get("entropy")
            return value if isinstance(value, str) else None
        return None

    def to_json(self) -> dict[str, JSON]:
        """A JSON object for exports."""
        return {
            "no": self.no,
            "name": self.name,
            "params": self.params,
            "state_hash": self.state_hash,
            "events": [e.to_json() for e in self.events],
        }

    @staticmethod
    def from_json(obj: dict[str, JSON]) -> ActionRecord:
        """Rebuild from :meth:`to_json` output."""
        return ActionRecord(
            int(obj["no"]),
            str(obj["name"]),
            dict(obj["params"]),
            [Event.from_json(e) for e in obj["events"]],
            str(obj["state_hash"]),
        )


Fetch = Callable[[int, int], list[ActionRecord]]
"""Reads the logged actions numbered ``lo + 1 .. hi`` (:class:`ActionLog`'s older part)."""


class ActionLog(Sequence[ActionRecord]):
    """A game's actions in order; the older ones may stay in the save file until read.

    Issue 21: a game loaded from a state snapshot (``umpire.store``) holds only the actions
    after it; the first ``base`` are read through ``fetch`` when an index, slice or
    iteration reaches them, so loading and playing on (``len``, the last action, appending)
    never decodes the whole log. An index or a slice reads only what it covers; iteration
    reads the older part once and keeps it. ``faces`` counts the dice faces the actions
    drew (the dice position after them), given for the older part as ``base_faces``.
    """

    __slots__ = ("_base", "_faces", "_fetch", "_older", "_tail")

    def __init__(
        self,
        records: Iterable[ActionRecord] = (),
        base: int = 0,
        fetch: Fetch | None = None,
        base_faces: int = 0,
    ) -> None:
        if base and fetch is None:
            raise ValueError("an ActionLog with older actions needs a fetch")
        self._tail = list(records)
        self._base = base
        self._fetch = fetch
        self._older: list[ActionRecord] | None = None if base else []
        self._faces = base_faces + sum(_dice_count(r) for r in self._tail)

    @property
    def faces(self) -> int:
        """The dice faces the logged actions drew: the dice position after them."""
        return self._faces

    def __len__(self) -> int:
        return self._base + len(self._tail)

    @overload
    def __getitem__(self, index: int) -> ActionRecord: ...

    @overload
    def __getitem__(self, index: slice) -> list[ActionRecord]: ...

    def __getitem__(self, index: int | slice) -> ActionRecord | list[ActionRecord]:
        base = self._base
        if isinstance(index, slice):
            start, stop, step = index.indices(len(self))
            if step != 1:
                return self._all()[index]
            if start >= stop:
                return []
            if start >= base:
                return self._tail[start - base : stop - base]
            return self._read(start, min(stop, base)) + self._tail[: max(0, stop - base)]
        i = index + len(self) if index < 0 else index
        if not 0 <= i < len(self):
            raise IndexError("action index out of range")
        if i >= base:
            return self._tail[i - base]
        return self._read(i, i + 1)[0]

    def _read(self, lo: int, hi: int) -> list[ActionRecord]:
        """Records ``lo + 1 .. hi`` of the older part (kept once all were read)."""
        if self._older is not None:
            return self._older[lo:hi]
        assert self._fetch is not None
        records = self._fetch(lo, hi)
        if [r.no for r in records] != list(range(lo + 1, hi + 1)):
            raise UmpireError("the saved log changed under a loaded game: load it again")
        return records

    def _all(self) -> list[ActionRecord]:
        if self._older is None:
            self._older = self._read(0, self._base)
        return self._older + self._tail

    def __iter__(self) -> Iterator[ActionRecord]:
        return iter(self._all())

    def __reversed__(self) -> Iterator[ActionRecord]:
        return reversed(self._all())

    def __eq__(self, other: object) -> bool:
        if isinstance(other, ActionLog | list):
            return len(self) == len(other) and list(self) == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"ActionLog({len(self)} actions, {self._base} held in the save file)"

    def append(self, record: ActionRecord) -> None:
        """Add an action at the end."""
        self._tail.append(record)
        self._faces += _dice_count(record)

    def extend(self, records: Iterable[ActionRecord]) -> None:
        """Add actions at the end."""
        for record in records:
            self.append(record)

    @property
    def held(self) -> int:
        """How many of the oldest actions are still only in the save file (0: all in memory)."""
        return 0 if self._older is not None else self._base


@dataclass(slots=True)
class Game:
    """A running game. Change it only with :meth:`act`."""

    module: RuleModule
    scenario: dict[str, JSON]
    source: DiceSource
    policies: dict[str, Policy] = field(default_factory=dict)
    actions: ActionLog = field(default_factory=ActionLog)
    """The log (a list of records is taken too, and kept as an :class:`ActionLog`)."""
    state: JSON = None
    hasher: StateHasher | None = field(default=None, repr=False, compare=False)
    """Keeps ``state``'s hash change by change (made at the first action; see ``_held``)."""

    def __post_init__(self) -> None:
        if not isinstance(self.actions, ActionLog):
            self.actions = ActionLog(self.actions)

    @staticmethod
    def new(
        module: str | RuleModule,
        scenario: Mapping[str, JSON],
        source: DiceSource,
        policies: Mapping[str, Policy] | None = None,
    ) -> Game:
        """Start a game of ``module`` (an id or a module object) on ``scenario``."""
        from umpire.rules import get_module

        mod = get_module(module) if isinstance(module, str) else module
        scen = copy_state(dict(scenario))
        game = Game(mod, scen, source, dict(policies or {}))
        game.state = mod.initial_state(copy_state(scen))
        return game

    def act(
        self,
        name: str,
        params: Mapping[str, JSON] | None = None,
        policies: Mapping[str, Policy] | None = None,
        entropy: str | None = None,
        by: str | None = None,
    ) -> ActionRecord:
        """Run one action. All its events are kept, or none (the state is unchanged).

        ``entropy`` (hex from the player's browser) is handed to a source that takes it
        (``begin``: joint dice) and logged in the action event; other sources ignore it.
        ``by`` (the side that asked for the action, at a web table) is logged in the action
        event, so who may take it back is in the log and under its hash chain.
        """
        handlers = self.module.actions()
        if name not in handlers:
            known = ", ".join(sorted(handlers))
            raise UnknownNameError(f"unknown action '{name}' for {self.module.id} (known: {known})")
        prm = copy_state(dict(params or {}))
        pos = self.source.position
        head: dict[str, JSON] = {"name": name, "params": prm}
        if by is not None:
            head["by"] = by
        if entropy is not None:
            check_entropy(entropy)
        begin = getattr(self.source, "begin", None)
        if callable(begin):
            begin(entropy)  # None too: a stale entropy must never roll this action's dice
            if entropy is not None:
                head["entropy"] = entropy
        at_table = self.at_table or bool(getattr(self.source, "typing", False))
        if at_table and not self.at_table:
            head["at_table"] = True  # real dice typed into this action: picks the table's way
        hasher = self._held()
        journal = _Journal(hasher)
        ctx = Context(
            hasher.state,
            self.source,
            {**self.policies, **(policies or {})},
            at_table=at_table,
            apply=journal.apply,
        )
        try:
            handlers[name](ctx, prm)
        except BaseException:
            journal.rollback()
            self.source = _source_at(self.source, pos)
            raise
        if hasher.unsaved:  # a tuple or a non-string key: the next action sees it as saved
            self.state = copy_state(hasher.state)
            self.hasher = hasher = StateHasher(self.state)
        record = ActionRecord(
            len(self.actions) + 1,
            name,
            prm,
            [Event("action", head), *ctx.events],
            hasher.hexdigest(),
        )
        self.actions.append(record)
        return record

    def _held(self) -> StateHasher:
        """The hasher holding ``state``, made (on a JSON copy: the state as a saved game holds
        it) at the first action of this object or after ``state`` was replaced.

        Issue 21: an action used to copy the whole state and hash it whole, so its cost grew
        with the game (a dice book's history); now it changes the state in place, journaled
        so a failed action is undone, and the hash follows the changes.
        """
        if self.hasher is None or self.hasher.state is not self.state:
            self.state = copy_state(self.state)
            self.hasher = StateHasher(self.state)
        return self.hasher

    def extend(self, records: Sequence[ActionRecord]) -> None:
        """Add actions logged elsewhere (another connection), applying their changes."""
        if not records:
            return
        hasher = self._held()
        for _ in Game.replay_steps(hasher.state, records, hasher.apply):
            pass
        if hasher.unsaved:
            self.state = copy_state(hasher.state)
            self.hasher = StateHasher(self.state)
        self.actions.extend(records)

    @property
    def at_table(self) -> bool:
        """The dice are thrown at a table (physical): picks are made the table's way."""
        return self.source.kind == "physical"

    def state_hash(self) -> str:
        """The SHA-256 fingerprint of the current state."""
        return state_hash(self.state)

    @property
    def events(self) -> list[Event]:
        """Every event of the log, in order."""
        return [e for a in self.actions for e in a.events]

    # -- replay -------------------------------------------------------------
    @staticmethod
    def replay_state(
        module: RuleModule, scenario: Mapping[str, JSON], actions: Sequence[ActionRecord]
    ) -> JSON:
        """The state the log describes: change events applied in order, nothing else."""
        state = module.initial_state(copy_state(dict(scenario)))
        for _ in Game.replay_steps(state, actions):
            pass
        return state

    @staticmethod
    def replay_steps(
        state: JSON,
        actions: Sequence[ActionRecord],
        apply: Callable[[str, Path, JSON], None] | None = None,
    ) -> Iterator[ActionRecord]:
        """Apply each action's change events to ``state`` in place, yielding after each.

        ``apply`` performs the changes instead of ``apply_change`` (a hasher's, to keep
        the state hash up to date as the state changes).
        """
        for record in actions:
            for event in record.events:
                if event.kind == "change":
                    op, path = str(event.data["op"]), list(event.data["path"])
                    if apply is None:
                        apply_change(state, op, path, event.data.get("value"))
                    else:
                        apply(op, path, event.data.get("value"))
            yield record

    def reexecute(self, upto: int | None = None, *, hashes: bool = True) -> list[str]:
        """Run every logged action again with the logged faces and answers.

        Raises :class:`VerifyError` naming the first action whose events differ, or
        (``hashes``) whose state's hash is not the recorded one. The wording of a log (a
        roll's purpose, a narrative line, a prompt) is not a rule: a game saved by an
        earlier version whose words have changed since still verifies, and the returned
        notes say at which actions the words differ. Neither is where a change stands among
        an action's rolls, when the log has the earlier form (every change at the action's
        end: :func:`_earlier_shape`): such an action verifies when its logged changes give
        the re-executed state and the recorded hash, and one note counts them.

        One state serves the whole run (no copy per action) and its hash is kept up to date
        change by change, so the time grows with the log's length, not with its square.
        """
        from umpire.dice import ScriptedSource
        from umpire.engine.statehash import StateHasher

        notes: list[str] = []
        earlier = 0  # actions whose changes are logged in the earlier form (_earlier_form)
        # Each action sees the state as a saved game holds it (a JSON round trip), as in play.
        hasher = StateHasher(copy_state(self.module.initial_state(copy_state(self.scenario))))
        for record in self.actions[:upto]:
            faces = [f for e in record.events for d in e.data.get("draws", []) for f in d[2]]
            answers = [e.data for e in record.events if e.kind == "decision"]
            # An action logged in the earlier form may replay in this version's: its logged
            # changes must then give the state re-execution gives (see _earlier_form).
            undo = _Journal(hasher) if _earlier_shape(record.events) else None
            source = ScriptedSource(faces)
            ctx = Context(
                hasher.state,
                source,
                {},
                default_policy=_Replayer(answers),
                at_table=self.at_table or bool(record.events[0].data.get("at_table")),
                apply=hasher.apply if undo is None else undo.apply,
            )
            act = self.module.actions().get(record.name)
            if act is None:
                raise VerifyError(
                    f"action {record.no}: '{record.name}' is not an action of {self.module.id}"
                )
            try:
                act(ctx, copy_state(record.params))
            except UmpireError as exc:
                raise VerifyError(
                    f"action {record.no} ({record.name}) does not replay: {exc}"
                ) from None
            except Exception as exc:  # RecursionError, OverflowError: anything
                # A foreign log can hold anything in its parameters: say where, not how.
                raise VerifyError(
                    f"action {record.no} ({record.name}) does not replay: its parameters "
                    f"are not what the action takes ({type(exc).__name__})"
                ) from None
            mine = [e.to_json() for e in record.events[1:]]
            theirs = [_strip_pos(e.to_json()) for e in ctx.events]
            mine = [_strip_pos(e) for e in mine]
            if mine != theirs and [_substance(e) for e in mine] == [_substance(e) for e in theirs]:
                notes.append(
                    f"action {record.no} ({record.name}): the wording of its log differs from "
                    f"this version's; its rolls, choices and changes agree"
                )
                mine = theirs
            if (
                mine != theirs
                and undo is not None
                and _earlier_form(mine, theirs)
                and _digest(hasher) == record.state_hash
            ):
                # the re-executed state is the recorded one: so must the logged changes' be
                undo.rollback()
                for e in record.events:
                    if e.kind == "change":
                        d = e.data
                        hasher.apply(str(d["op"]), parse_path(d["path"]), d.get("value"))
                if _digest(hasher) == record.state_hash:
                    earlier += 1
                    mine = theirs
            if mine != theirs:
                for i, (a, b) in enumerate(zip(mine, theirs, strict=False)):
                    if a != b:
                        raise VerifyError(
                            f"action {record.no} ({record.name}) replays differently at "
                            f"its event {i + 1}: logged {a.get('kind')}, replay {b.get('kind')}"
                        )
                raise VerifyError(
                    f"action {record.no} ({record.name}) replays to a different number of events"
                )
            if hasher.unsaved:  # a key or value JSON would change: the next action sees it saved
                hasher = StateHasher(copy_state(hasher.state))
            if hashes and hasher.hexdigest() != record.state_hash:
                raise VerifyError(f"action {record.no} ({record.name}): state hash differs")
        if earlier:
            notes.append(
                f"{earlier} action{'s' if earlier != 1 else ''} log their changes in an earlier "
                f"form (all at the end of the action, not as they were made); their rolls, "
                f"choices and resulting states agree with this version's"
            )
        return notes

    def truncated(self, upto: int) -> Game:
        """A new game with the same start and the first ``upto`` actions (undo, fork)."""
        if not 0 <= upto <= len(self.actions):
            raise UnknownNameError(
                f"no action {upto} in this game (it has {len(self.actions)} actions)"
            )
        kept = list(self.actions[:upto])
        state = Game.replay_state(self.module, self.scenario, kept)
        source = _source_at(self.source, sum(_dice_count(a) for a in kept))
        return Game(self.module, self.scenario, source, dict(self.policies), ActionLog(kept), state)


class _Journal:
    """Performs an action's changes on the held state in place and remembers how to undo each,
    so an action that fails leaves the state as it was without a copy of the whole state."""

    def __init__(self, hasher: StateHasher) -> None:
        self.hasher = hasher
        self.undo: list[Callable[[], None]] = []

    def apply(self, op: str, path: Path, value: JSON = None) -> None:
        """Remember the undo of one change, then make it (through the hasher)."""
        self.undo.append(_inverse(self.hasher.state, op, path, value))
        self.hasher.apply(op, path, value)

    def rollback(self) -> None:
        """Undo every change, newest first; the hasher then encodes the state afresh."""
        if not self.undo:
            return
        for undo in reversed(self.undo):
            undo()
        self.undo.clear()
        self.hasher.__init__(self.hasher.state)  # type: ignore[misc]


def _noop() -> None:
    return None


def _inverse(state: JSON, op: str, path: Path, value: JSON) -> Callable[[], None]:
    """How to undo ``apply_change(state, op, path, value)``, worked out before it is made.

    Only the entry the change touches is remembered (a replaced value by reference: the
    change puts a new object in its place), so an undo costs the change's size.
    """
    node: Any = state
    try:
        for key in path[:-1]:
            if isinstance(node, dict) and key not in node:
                if op in ("set", "inc", "append"):  # the change makes the parents from here
                    parent, missing = node, key
                    return lambda: parent.pop(missing, None)
                return _noop
            node = node[key]
        key = path[-1]
        parent = node
        if isinstance(parent, dict) and key not in parent:
            return lambda: parent.pop(key, None)
        if not isinstance(parent, dict | list):
            return _noop
        old = parent[key]
        if op in ("set", "inc"):

            def put_back() -> None:
                parent[key] = old

            return put_back
        if op == "delete":
            if isinstance(parent, list):
                index = key + len(parent) if key < 0 else key
                return lambda: parent.insert(index, old)

            def restore() -> None:
                parent[key] = old

            return restore
        if op == "append" and isinstance(old, list):
            size = len(old)

            def shorten() -> None:
                del old[size:]

            return shorten
        if op == "remove" and isinstance(old, list) and value in old:
            index = old.index(value)
            item = old[index]
            return lambda: old.insert(index, item)
    except (KeyError, IndexError, TypeError):
        pass  # the change itself will be refused: nothing to undo
    return _noop


class _Replayer:
    """Answers decisions in re-execution: logged answers, or the dice for random ones."""

    kind = "replay"

    def __init__(self, logged: list[dict[str, JSON]]):
        self._logged = [d for d in logged if d["decider"] != "random"]

    def choose(self, decision: Decision, pick: PickFn) -> list[str]:
        if not self._logged:
            raise DiceSourceError(f"no logged answer for '{decision.prompt}'")
        entry = self._logged.pop(0)
        if entry["policy"] == "random":
            return RandomPolicy().choose(decision, pick)
        return ScriptedPolicy([list(entry["answer"])]).choose(decision, pick)


def _strip_pos(event: dict[str, JSON]) -> dict[str, JSON]:
    """An event without dice positions or policy kinds (they differ in re-execution)."""
    out = {k: v for k, v in event.items() if k not in ("draws", "policy")}
    return out


_WORDS = frozenset({"purpose", "prompt", "text"})
"""Event fields that are wording for people, not rules (see :meth:`Game.reexecute`)."""


def _substance(event: dict[str, JSON]) -> dict[str, JSON]:
    """An event without its wording: what re-execution must reproduce exactly."""
    return {k: v for k, v in event.items() if k not in _WORDS}


def _digest(hasher: StateHasher) -> str:
    """The hash of the hasher's state as a save would record it (a JSON round trip)."""
    if hasher.unsaved:
        return state_hash(copy_state(hasher.state))
    return hasher.hexdigest()


def _earlier_shape(events: Sequence[Event]) -> bool:
    """Are an action's changes logged in the earlier form (the battle's saved path before
    issue 25): every change after its last roll, lookup, draw or decision (notes may
    follow)? A game saved since logs each change as it is made."""
    kinds = [e.kind for e in events[1:]]
    if "change" not in kinds:
        return False
    return all(k in ("change", "note") for k in kinds[kinds.index("change") :])


def _earlier_form(logged: list[dict[str, JSON]], replayed: list[dict[str, JSON]]) -> bool:
    """Do two actions' events differ only in where their changes stand? Everything but the
    changes must agree (wording aside); the caller checks that the logged changes give the
    state re-execution gives, and that its hash is the one recorded."""
    return [_substance(e) for e in logged if e.get("kind") != "change"] == [
        _substance(e) for e in replayed if e.get("kind") != "change"
    ]


def _dice_count(record: ActionRecord) -> int:
    return sum(len(d[2]) for e in record.events for d in e.data.get("draws", []))


def _source_at(source: DiceSource, position: int) -> DiceSource:
    """The same counter-based source at ``position``; other kinds are kept as they are.

    A failed action draws nothing, and undo and fork continue the stream from the log.
    """
    from umpire.dice import CommittedSource, JointSource, SeededSource

    if isinstance(source, JointSource):
        return source.at(position)
    if isinstance(source, CommittedSource):
        return CommittedSource(source.reveal(), position=position)
    if isinstance(source, SeededSource):
        return SeededSource(source.seed, position=position)
    return source


def scenario_of(obj: Mapping[str, Any]) -> dict[str, JSON]:
    """A JSON copy of a scenario mapping."""
    copied: dict[str, JSON] = copy_state(dict(obj))
    return copied
