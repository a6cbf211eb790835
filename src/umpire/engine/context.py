"""The context an action runs in: dice, tables, decisions and changes, all logged.

A rule module's action function receives a :class:`Context`. Everything it does that
matters goes through the context and becomes an :class:`~umpire.engine.events.Event`;
when the function returns, the events are committed together, and when it raises an
:class:`~umpire.errors.UmpireError` they are all discarded and the game is unchanged.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
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


class RecordingSource(DiceSource):
    """Wraps a dice source and remembers every draw (position, sides, faces)."""

    kind = "recording"

    def __init__(self, inner: DiceSource):
        self.inner = inner
        self.draws: list[list[JSON]] = []

    @property  # type: ignore[override, unused-ignore]
    def position(self) -> int:  # type: ignore[override, unused-ignore]
        """Dice drawn so far from the wrapped source."""
        return self.inner.position

    def dice(self, n: int, sides: int, purpose: str = "") -> list[int]:
        """Draw from the wrapped source and record the draw."""
        pos = self.inner.position
        faces = self.inner.dice(n, sides, purpose)
        self.draws.append([pos, sides, list(faces)])
        return faces

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
    ):
        self.state = state
        self.events: list[Event] = []
        self._source = RecordingSource(source)
        self._policies = policies
        self._tables = tables
        self._default_policy = default_policy

    # -- dice -------------------------------------------------------------
    def roll(self, expr: str, purpose: str) -> RollResult:
        """Roll a dice expression on the game's source and log it."""
        from umpire.dice import parse

        result = parse(expr).roll(self._source)
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
        result = tset.get(table_id).roll(
            self._source,
            mod=mod,
            shift=shift,
            tables=tset,
            used_today=used_today,
            used_game=used_game,
        )
        self.events.append(
            Event(
                "lookup",
                {"purpose": purpose, **result.to_json(), "draws": self._source.take()},
            )
        )
        return result

    def draw(self, deck: Deck, purpose: str) -> tuple[str, Deck]:
        """Draw a card from a deck with the game's dice, and log it."""
        card, rest = deck.draw(self._source)
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
        """One uniform index in 0..n-1 from a logged d``n``."""
        if n < 1:
            raise IllegalActionError(f"nothing to pick from for '{purpose}'")
        return int(self.roll(f"d{n}", purpose).total) - 1

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
        answer = decision.validate(policy.choose(decision, self._pick))
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
        apply_change(self.state, op, p, value)
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
