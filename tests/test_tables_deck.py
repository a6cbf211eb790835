"""Decks: uniform blind draws with one die, without or with replacement, JSON state."""

from __future__ import annotations

import json
from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from umpire.dice import ScriptedSource, SeededSource
from umpire.errors import DataFileError, IllegalActionError
from umpire.tables import Deck

CARDS = ["1st Brigade", "2nd Brigade", "Battery A", "Union", "Union"]


def test_draws_without_replacement_exhaust_then_refuse() -> None:
    deck = Deck.new(CARDS)
    source = SeededSource(11)
    drawn: list[str] = []
    for left in range(len(CARDS), 0, -1):
        assert len(deck.remaining) == left
        card, deck = deck.draw(source)
        drawn.append(card)
    assert Counter(drawn) == Counter(CARDS)
    assert deck.empty and deck.drawn == tuple(drawn)
    with pytest.raises(IllegalActionError, match="deck is empty"):
        deck.draw(source)
    again = deck.reshuffle()
    assert again.remaining == tuple(CARDS) and again.drawn == ()


def test_draw_uses_one_die_sized_to_the_remaining_cards() -> None:
    calls: list[tuple[int, int, str]] = []

    class Spy(ScriptedSource):
        def dice(self, n: int, sides: int, purpose: str = "") -> list[int]:
            calls.append((n, sides, purpose))
            return super().dice(n, sides, purpose)

    spy = Spy([3, 1])
    card, deck = Deck.new(["a", "b", "c"]).draw(spy, "draw")
    assert card == "c"
    card, deck = deck.draw(spy, "draw")
    assert card == "a" and deck.remaining == ("b",)
    assert calls == [(1, 3, "draw"), (1, 2, "draw")]


@given(st.lists(st.sampled_from("abcde"), min_size=1, max_size=8), st.data())
def test_each_remaining_card_has_exactly_one_in_n(cards: list[str], data: st.DataObject) -> None:
    deck = Deck.new(cards)
    draws = data.draw(st.integers(0, len(cards) - 1))
    source = SeededSource(data.draw(st.integers(0, 2**32)))
    for _ in range(draws):
        _, deck = deck.draw(source)
    n = len(deck.remaining)
    # every face of the d(n) picks a different position: the draw is exactly uniform
    picked = Counter(deck.draw(ScriptedSource([face]))[0] for face in range(1, n + 1))
    expected = {card: Fraction(k, n) for card, k in Counter(deck.remaining).items()}
    assert {card: Fraction(k, n) for card, k in picked.items()} == expected
    assert deck.draw_probabilities() == expected


def test_with_replacement_never_exhausts() -> None:
    deck = Deck.new(["x", "y"], replace=True)
    source = SeededSource(3)
    for _ in range(50):
        card, deck = deck.draw(source)
        assert card in ("x", "y")
    assert deck.remaining == ("x", "y") and len(deck.drawn) == 50
    assert deck.reshuffle().drawn == ()


def test_empty_deck_refuses() -> None:
    with pytest.raises(IllegalActionError):
        Deck.new([], replace=True).draw(SeededSource(1))


def test_state_round_trip() -> None:
    deck = Deck.new(CARDS)
    _, deck = deck.draw(ScriptedSource([2]))
    state = json.loads(json.dumps(deck.to_state()))
    assert Deck.from_state(state) == deck
    assert state == {
        "cards": CARDS,
        "remaining": ["1st Brigade", "Battery A", "Union", "Union"],
        "drawn": ["2nd Brigade"],
        "replace": False,
    }


def test_bad_state_refused() -> None:
    with pytest.raises(DataFileError):
        Deck.from_state({"cards": ["a"], "remaining": ["a", "b"], "drawn": []})
    with pytest.raises(DataFileError):
        Deck.from_state({"remaining": []})
    with pytest.raises(DataFileError):
        Deck.from_state({"cards": ["a"], "remaining": ["a"], "replace": "yes"})
