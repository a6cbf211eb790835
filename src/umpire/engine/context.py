"""The context an action runs in: dice, tables, decisions and changes, all logged.

A rule module's action function receives a :class:`Context`. Everything it does that
matters goes through the context and becomes an :class:`~umpire.engine.events.Event`;
when the function returns, the events are committed together, and when it raises an
:class:`~umpire.errors.UmpireError` they are all discarded and the game is unchanged.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from typing import TYPE_CHECKING, Any

from umpire.dice.sources import DiceSource
from umpire.engine.decisions import Decision, Option, Policy, RandomPolicy, as_options
from umpire.engine.events import (
    JSON,
    Event,
    Path,
    apply_change,
    copy_state,
    get_path,
    parse_path,
)
from umpire.errors import IllegalActionError

if TYPE_CHECKING:
    from umpire.dice import RollResult
    from umpire.tables import Deck, TableResult, TableSet


Watcher = Callable[[list[Event]], None]
"""Shown the events an action has logged so far, before it asks anything (a die, a choice)."""

_WATCHER: ContextVar[Watcher | None] = ContextVar("umpire_watcher", default=None)


@contextmanager
def watching(watcher: Watcher) -> Iterator[None]:
    """While inside, every action's Context shows its events to ``watcher`` as they happen.

    Before a decision is put to a policy and before a die or a draw is asked of the source,
    the events logged since the last call are passed on, so a person at the table sees each
    roll and its result before the question it causes.
    """
    token = _WATCHER.set(watcher)
    try:
        yield
    finally:
        _WATCHER.reset(token)


def _typed(source: DiceSource) -> list[str]:
    """``["typed"]`` for a draw of real dice typed into a game whose own dice are another
    source's (``TypedDice``): verify does not check those faces against the seed."""
    return ["typed"] if getattr(source, "typing", False) else []


class RecordingSource(DiceSource):
    """Wraps a dice source and remembers every draw (position, sides, faces).

    ``label`` (set by the Context while it rolls) is passed to the wrapped source as the
    purpose of its dice, so a person at the table is told what a roll is for.
    """

    kind = "recording"

    def __init__(self, inner: DiceSource):
        self.inner = inner
        self.draws: list[list[JSON]] = []
        self.label = ""
        self.before: Callable[[], None] | None = None

    @property  # type: ignore[override, unused-ignore]
    def position(self) -> int:  # type: ignore[override, unused-ignore]
        """Dice drawn so far from the wrapped source."""
        return self.inner.position

    def _purpose(self, n: int, sides: int, term: str) -> str:
        """The roll's label, with the dice term when it is not plain ``NdS``."""
        if not self.label:
            return term
        if not term or term in (f"{n}d{sides}", f"d{sides}"):
            return self.label
        return f"{self.label} ({term})"

    def dice(self, n: int, sides: int, purpose: str = "") -> list[int]:
        """Draw from the wrapped source and record the draw."""
        if self.before is not None:
            self.before()
        pos = self.inner.position
        faces = self.inner.dice(n, sides, self._purpose(n, sides, purpose))
        self.draws.append([pos, sides, list(faces), *_typed(self.inner)])
        return faces

    def draw_one(self, labels: Sequence[str], purpose: str) -> int:
        """One of ``labels`` drawn at the table (a cup): its index, recorded as a d``n`` face.

        A source that cannot draw (a script replaying the log) gives the recorded face.
        """
        if self.before is not None:
            self.before()
        pos = self.inner.position
        draw = getattr(self.inner, "draw", None)
        if callable(draw):
            index = int(draw(labels, purpose))
        else:
            index = self.inner.dice(1, len(labels), purpose)[0] - 1
        self.draws.append([pos, len(labels), [index + 1], *_typed(self.inner)])
        return index

    def take(self) -> list[list[JSON]]:
        """The draws since the last call, and forget them."""
        out, self.draws = self.draws, []
        return out


class Context:
    """What an action may do: read the state, roll, look up tables, decide, change."""

    def __init__(
        self,
        state: JSON,
        source: DiceSource,
        policies: Mapping[str, Policy],
        *,
        tables: TableSet | None = None,
        default_policy: Policy | None = None,
        at_table: bool = False,
        apply: Callable[[str, Path, JSON], None] | None = None,
    ):
        self.state = state
        self._apply = apply
        """Performs each change on ``state`` instead of ``apply_change`` (re-execution passes
        a :class:`~umpire.engine.statehash.StateHasher`'s, so the hash follows the changes)."""
        self.events: list[Event] = []
        self._source = RecordingSource(source)
        self._policies = policies
        self._tables = tables
        self._default_policy = default_policy
        self.at_table = at_table
        """The game's dice are thrown at a table (a physical source): random picks are made
        the table's way (one d6, or a cup). The game passes it in play and in re-execution."""
        self._pool: list[Option] | None = None
        self._watcher = _WATCHER.get()
        self._shown = 0
        if self._watcher is not None:
            self._source.before = self.show

    def show(self) -> None:
        """Pass the events logged since the last call to the watcher (see :func:`watching`)."""
        if self._watcher is not None and self._shown < len(self.events):
            new = self.events[self._shown :]
            self._shown = len(self.events)
            self._watcher(new)

    # -- dice -------------------------------------------------------------
    def roll(self, expr: str, purpose: str) -> RollResult:
        """Roll a dice expression on the game's source and log it."""
        from umpire.dice import parse

        self._source.label = purpose
        try:
            result = parse(expr).roll(self._source)
        finally:
            self._source.label = ""
        self.events.append(
            Event(
                "roll",
                {"purpose": purpose, **result.to_json(), "draws": self._source.take()},
            )
        )
        return result

    def table(
        self,
        table_id: str,
        purpose: str,
        *,
        mod: int = 0,
        shift: int = 0,
        used_today: Mapping[str, int] | None = None,
        used_game: Mapping[str, int] | None = None,
        tables: TableSet | None = None,
    ) -> TableResult:
        """Roll on a roll table (following nested tables) and log the whole trace."""
        tset = tables or self._tables
        if tset is None:
            from umpire.tables import builtin_tables

            tset = builtin_tables()
        self._source.label = purpose
        try:
            result = tset.get(table_id).roll(
                self._source,
                mod=mod,
                shift=shift,
                tables=tset,
                used_today=used_today,
                used_game=used_game,
            )
        finally:
            self._source.label = ""
        self.events.append(
            Event(
                "lookup",
                {"purpose": purpose, **result.to_json(), "draws": self._source.take()},
            )
        )
        return result

    def draw(self, deck: Deck, purpose: str) -> tuple[str, Deck]:
        """Draw a card from a deck with the game's dice, and log it."""
        self._source.label = purpose
        try:
            card, rest = deck.draw(self._source)
        finally:
            self._source.label = ""
        self.events.append(
            Event(
                "draw",
                {
                    "purpose": purpose,
                    "card": card,
                    "left": len(rest.remaining),
                    "draws": self._source.take(),
                },
            )
        )
        return card, rest

    def _pick(self, n: int, purpose: str) -> int:
        """One uniform index in 0..n-1 from a logged d``n`` (or the table's way: ``at_table``)."""
        if n < 1:
            raise IllegalActionError(f"nothing to pick from for '{purpose}'")
        if not self.at_table:
            return int(self.roll(f"d{n}", purpose).total) - 1
        # A decision's options, still in the pool, name the slips (a multi-pick takes them out).
        pool = self._pool if self._pool is not None and len(self._pool) == n else None
        labels = [str(o) for o in pool] if pool is not None else [str(i) for i in range(1, n + 1)]
        index = self._table_pick(labels, purpose)
        if pool is not None:
            pool.pop(index)
        return index

    def pick_one(self, labels: Sequence[str], purpose: str, *, cup: bool = False) -> int:
        """A uniform random pick among ``labels`` (logged): its index.

        Digital dice roll one d``n``. At a table (``at_table``) up to six are picked with one
        d6 and more are drawn from a cup; ``cup`` makes every pick a draw (cards in a box).
        """
        if not labels:
            raise IllegalActionError(f"nothing to pick from for '{purpose}'")
        if not self.at_table:
            return int(self.roll(f"d{len(labels)}", purpose).total) - 1
        return self._table_pick([str(lab) for lab in labels], purpose, cup=cup)

    def _table_pick(self, labels: list[str], purpose: str, cup: bool = False) -> int:
        """Seed 000, Random Events are Random: "roll a die to choose ... (assuming there are 6
        or fewer ...) or place all potentially affected leaders in a cup and pull one out".

        Up to six: one d6, faces above ``n`` rolled again; more: a draw from a cup. Uniform
        either way; both are logged, and a replay reads the same faces from the log.
        """
        n = len(labels)
        if n == 1:
            self.say(f"{purpose}: {labels[0]}, the only one to choose from (no roll).")
            index = 0
        elif n <= 6 and not cup:
            faces = ", ".join(f"{i} = {lab}" for i, lab in enumerate(labels, 1))
            again = f"; {n + 1}-6 roll again" if n < 5 else "; 6 roll again" if n == 5 else ""
            label = f"{purpose} (one d6: {faces}{again})"
            while True:
                face = int(self.roll("1d6", label).total)
                if face <= n:
                    break
                self.say(f"{face} picks nobody: roll the d6 again.")
            index = face - 1
        else:
            index = self._source.draw_one(labels, purpose)
            self.events.append(
                Event(
                    "draw",
                    {
                        "purpose": purpose,
                        "card": labels[index],
                        "left": n - 1,
                        "how": "drawn from a cup at the table",
                        "cup": labels,
                        "draws": self._source.take(),
                    },
                )
            )
        return index

    # -- decisions --------------------------------------------------------
    def decide(
        self,
        decider: str,
        prompt: str,
        options: Sequence[str | Option],
        *,
        pick: int = 1,
        purpose: str = "",
        allow_fewer: bool = False,
    ) -> list[str]:
        """Put a decision to ``decider`` and return the chosen option ids (logged)."""
        opts = as_options(options)
        decision = Decision(decider, prompt, opts, pick, purpose or prompt, allow_fewer)
        if not opts:
            raise IllegalActionError(f"no options for '{prompt}'")
        policy: Policy
        if decider == "random":
            policy = RandomPolicy()
        else:
            found = self._policies.get(decider) or self._default_policy
            if found is None:
                raise IllegalActionError(f"nobody is set to decide for '{decider}'")
            policy = found
        self.show()
        self._pool = list(opts)
        try:
            answer = decision.validate(policy.choose(decision, self._pick))
        finally:
            self._pool = None
        self.events.append(
            Event(
                "decision",
                {
                    "decider": decider,
                    "policy": policy.kind,
                    "prompt": prompt,
                    "purpose": decision.purpose,
                    "options": [o.id for o in opts],
                    "pick": pick,
                    "answer": answer,
                },
            )
        )
        return answer

    def random_choice(
        self, options: Sequence[str | Option], purpose: str, pick: int = 1
    ) -> list[str]:
        """Choose at random with the dice: the seeds' "chosen at random"."""
        return self.decide("random", purpose, options, pick=pick, purpose=purpose)

    # -- changes ----------------------------------------------------------
    def _change(self, op: str, path: str | Path, value: JSON = None) -> None:
        p = parse_path(path)
        if self._apply is None:
            apply_change(self.state, op, p, value)
        else:
            self._apply(op, p, value)
        data: dict[str, JSON] = {"op": op, "path": p}
        if op != "delete":
            # The log keeps its own copy: later edits by the caller cannot rewrite history.
            data["value"] = copy_state(value) if isinstance(value, dict | list) else value
        self.events.append(Event("change", data))

    def set(self, path: str | Path, value: JSON) -> None:
        """Set the value at ``path`` (parents are created)."""
        self._change("set", path, value)

    def inc(self, path: str | Path, by: int = 1) -> None:
        """Add ``by`` to the number at ``path`` (missing counts start at 0)."""
        self._change("inc", path, by)

    def append(self, path: str | Path, value: JSON) -> None:
        """Append to the list at ``path``."""
        self._change("append", path, value)

    def remove(self, path: str | Path, value: JSON) -> None:
        """Remove the first equal item from the list at ``path``."""
        self._change("remove", path, value)

    def delete(self, path: str | Path) -> None:
        """Delete the key at ``path``."""
        self._change("delete", path)

    def get(self, path: str | Path, default: JSON = None) -> JSON:
        """Read the state at ``path``."""
        return get_path(self.state, path, default)

    # -- words for the players -------------------------------------------
    def say(self, text: str) -> None:
        """A narrative line for the log."""
        self.events.append(Event("note", {"text": text}))

    def instruct(self, text: str) -> None:
        """Something the players must now do on the table or map."""
        self.events.append(Event("instruction", {"text": text}))


ActionFn = Callable[[Context, dict[str, Any]], None]
