"""Decisions: every player choice and every "chosen at random" goes through here.

A rule raises a :class:`Decision` (who decides, the options, how many to pick). A
:class:`Policy` answers it: a person at a prompt, a random policy that draws on the
game's dice source (so its picks are logged and replayed), or a script in tests.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol

from umpire.errors import DiceSourceError, IllegalChoiceError

PickFn = Callable[[int, str], int]
"""``pick(n, purpose) -> index in 0..n-1`` drawn from the game's dice, and logged."""


@dataclass(frozen=True, slots=True)
class Option:
    """One option of a decision: a stable id and a label for people."""

    id: str
    label: str = ""

    def __str__(self) -> str:
        return self.label or self.id


@dataclass(frozen=True, slots=True)
class Decision:
    """A choice put to ``decider`` (a side id, or ``"random"``): pick options."""

    decider: str
    prompt: str
    options: tuple[Option, ...]
    pick: int = 1
    purpose: str = ""
    allow_fewer: bool = False

    def option_ids(self) -> list[str]:
        """The ids of the options, in order."""
        return [o.id for o in self.options]

    def validate(self, answer: Sequence[str]) -> list[str]:
        """Check an answer: known options, no repeats, the right count."""
        ids = self.option_ids()
        chosen = list(answer)
        for a in chosen:
            if a not in ids:
                raise IllegalChoiceError(
                    f"'{a}' is not an option for '{self.prompt}' (options: {', '.join(ids)})"
                )
        if len(set(chosen)) != len(chosen):
            raise IllegalChoiceError(f"an option was chosen twice for '{self.prompt}'")
        want = min(self.pick, len(ids))
        if len(chosen) > want or (len(chosen) < want and not self.allow_fewer):
            raise IllegalChoiceError(
                f"'{self.prompt}' needs {want} choice{'s' if want != 1 else ''}, got {len(chosen)}"
            )
        return chosen


def as_options(options: Iterable[str | Option]) -> tuple[Option, ...]:
    """Normalise strings and options to a tuple of options."""
    return tuple(o if isinstance(o, Option) else Option(str(o)) for o in options)


class Policy(Protocol):
    """Answers decisions. ``kind`` is logged so a replay knows how to re-ask."""

    kind: str

    def choose(self, decision: Decision, pick: PickFn) -> list[str]:
        """Return the chosen option ids."""
        ...


def random_pick(decision: Decision, pick: PickFn) -> list[str]:
    """Pick ``decision.pick`` distinct options uniformly, one die per pick."""
    remaining = list(decision.options)
    chosen: list[str] = []
    for i in range(min(decision.pick, len(remaining))):
        label = decision.purpose or decision.prompt
        idx = pick(len(remaining), f"random pick {i + 1}: {label}")
        chosen.append(remaining.pop(idx).id)
    return chosen


class RandomPolicy:
    """Chooses uniformly at random with the game's dice (logged like any roll)."""

    kind = "random"

    def choose(self, decision: Decision, pick: PickFn) -> list[str]:
        """Random distinct options, as many as the decision asks."""
        return random_pick(decision, pick)


class ScriptedPolicy:
    """Answers from a list, in order; for tests and for re-executing a log."""

    kind = "scripted"

    def __init__(self, answers: Iterable[Sequence[str] | str]):
        self._answers = [[a] if isinstance(a, str) else list(a) for a in answers]

    def choose(self, decision: Decision, pick: PickFn) -> list[str]:
        """The next scripted answer."""
        if not self._answers:
            raise DiceSourceError(f"no scripted answer left for '{decision.prompt}'")
        return self._answers.pop(0)


class PromptPolicy:
    """Asks a person at the terminal; refuses answers outside the options and asks again."""

    kind = "prompt"

    def __init__(self, ask: Callable[[str], str] | None = None, *, tries: int = 5):
        self._ask = ask or input
        self._tries = tries

    def choose(self, decision: Decision, pick: PickFn) -> list[str]:
        """Show the options numbered; accept numbers or ids separated by spaces/commas."""
        how_many = f"up to {decision.pick}" if decision.allow_fewer else str(decision.pick)
        lines = [f"[{decision.decider}] {decision.prompt} (choose {how_many}):"]
        for i, o in enumerate(decision.options, 1):
            lines.append(f"  {i}. {o.label or o.id}" + (f"  [{o.id}]" if o.label else ""))
        print("\n".join(lines))
        last: IllegalChoiceError | None = None
        for _ in range(self._tries):
            try:
                text = self._ask("> ")
            except EOFError:
                raise IllegalChoiceError(
                    f"no answer for '{decision.prompt}' (standard input closed)"
                ) from None
            answer = []
            for token in text.replace(",", " ").split():
                if token.isdigit() and 1 <= int(token) <= len(decision.options):
                    answer.append(decision.options[int(token) - 1].id)
                else:
                    answer.append(token)
            try:
                return decision.validate(answer)
            except IllegalChoiceError as exc:
                last = exc
                print(f"  {exc}")
        assert last is not None
        raise last
