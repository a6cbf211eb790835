"""Decks of cards drawn blind, as immutable values with a JSON state.

Seed 004 draws random-movement cards from one box for both sides, without replacement
until the box is empty (a labelled reading in rules-notes.md). Each draw rolls ONE die
with as many sides as cards remain, so the draw is logged and replayed like any roll,
and every remaining card has exactly ``1 / len(remaining)`` chance.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from umpire.dice import DiceSource
from umpire.errors import DataFileError, IllegalActionError


@dataclass(frozen=True)
class Deck:
    """The cards of a deck, which remain to be drawn, and which were drawn (in order).

    With ``replace=True`` a drawn card goes straight back: ``remaining`` never shrinks
    and ``drawn`` records the history. Duplicate card names are allowed (two "Union"
    cards are two cards).
    """

    cards: tuple[str, ...]
    remaining: tuple[str, ...]
    drawn: tuple[str, ...] = ()
    replace: bool = False

    @classmethod
    def new(cls, cards: Sequence[str], replace: bool = False) -> Deck:
        """A full deck in the given order (the order only matters for replay)."""
        full = tuple(cards)
        return cls(cards=full, remaining=full, drawn=(), replace=replace)

    def draw(self, source: DiceSource, purpose: str = "draw a card") -> tuple[str, Deck]:
        """Draw one card uniformly among the remaining ones; return it and the new deck."""
        if not self.remaining:
            raise IllegalActionError(
                f"the deck is empty ({len(self.drawn)} of {len(self.cards)} cards drawn); "
                "reshuffle it first"
            )
        (face,) = source.dice(1, len(self.remaining), purpose)
        index = face - 1
        card = self.remaining[index]
        if self.replace:
            rest = self.remaining
        else:
            rest = self.remaining[:index] + self.remaining[index + 1 :]
        return card, Deck(self.cards, rest, (*self.drawn, card), self.replace)

    def draw_probabilities(self) -> dict[str, Fraction]:
        """Exact chance of each card name on the next draw (duplicates add up)."""
        if not self.remaining:
            return {}
        count = Counter(self.remaining)
        total = len(self.remaining)
        return {card: Fraction(n, total) for card, n in count.items()}

    def reshuffle(self) -> Deck:
        """All cards back in the deck, nothing drawn."""
        return Deck.new(self.cards, self.replace)

    @property
    def empty(self) -> bool:
        """True when no card can be drawn."""
        return not self.remaining

    def to_state(self) -> dict[str, Any]:
        """A JSON-able state that ``from_state`` turns back into the same deck."""
        return {
            "cards": list(self.cards),
            "remaining": list(self.remaining),
            "drawn": list(self.drawn),
            "replace": self.replace,
        }

    @classmethod
    def from_state(cls, state: Mapping[str, Any]) -> Deck:
        """Rebuild a deck from ``to_state``; refuses states whose cards do not add up."""
        try:
            cards = tuple(str(c) for c in state["cards"])
            remaining = tuple(str(c) for c in state["remaining"])
            drawn = tuple(str(c) for c in state.get("drawn", ()))
            replace = state.get("replace", False)
        except (KeyError, TypeError) as error:
            raise DataFileError(f"malformed deck state: {error!r}") from None
        if not isinstance(replace, bool):
            raise DataFileError(
                f"malformed deck state: replace must be true or false, not {replace!r}"
            )
        if replace:
            ok = Counter(remaining) == Counter(cards) and set(drawn) <= set(cards)
        else:
            ok = Counter(remaining) + Counter(drawn) == Counter(cards)
        if not ok:
            raise DataFileError(
                "malformed deck state: remaining and drawn cards do not match the deck"
            )
        return cls(cards, remaining, drawn, replace)
