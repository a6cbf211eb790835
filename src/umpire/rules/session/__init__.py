"""The dice book: a game with no rule module of its own, for rolls, tables and decks.

Players at a real table use it as a logged, replayable, verifiable dice tray: every
roll, table lookup, random pick and card draw is kept in the game's log, so the game
can be exported and checked against its committed seed afterwards.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from umpire.dice import MAX_SIDES
from umpire.engine.context import ActionFn, Context
from umpire.errors import IllegalActionError, UnknownNameError
from umpire.rules.labels import Labelled

LIMIT_READING = Labelled(
    id="limit_exhausted",
    label="reading",
    text="A table result past its per-day or per-game limit has no effect and is not re-rolled.",
    reason="Seed 000 says such events 'cannot happen' more often; it gives no re-roll.",
    source="000: Ambush!, Arrest that General!",
)


HISTORY_READING = Labelled(
    id="history_kept",
    label="reading",
    text="A dice book keeps its last 200 entries in its state for the page to show (set "
    "'history_keep' in the book's scenario, 1-10000); every roll stays in the log, the "
    "export and verify. Books made before this kept every entry and still do.",
    reason="The state is hashed after every action: a history without end made each roll "
    "cost more than the last (issue 21: 8,000 rolls). The log is the record; the state "
    "needs only what the page shows.",
    source="dice book",
)
HISTORY_KEEP = 200

MAX_PICK = MAX_SIDES
"""A pick rolls one die with a side per option, so it is among at most MAX_SIDES options."""


def _history(ctx: Context, entry: dict[str, Any]) -> None:
    """Add a history entry; drop the oldest beyond the book's ``history_keep`` (reading
    ``history_kept``; a book without it, made before, keeps every entry)."""
    ctx.append("history", entry)
    ctx.inc("count")
    keep = ctx.state.get("history_keep")
    if isinstance(keep, int) and len(ctx.state["history"]) > keep:
        ctx.remove("history", ctx.state["history"][0])


def act_roll(ctx: Context, params: dict[str, Any]) -> None:
    """Roll a dice expression."""
    expr = str(params.get("expr", ""))
    purpose = str(params.get("purpose") or expr)
    result = ctx.roll(expr, purpose)
    _history(ctx, {"what": "roll", "expr": result.expr, "purpose": purpose, "total": result.total})


def act_table(ctx: Context, params: dict[str, Any]) -> None:
    """Roll on a roll table, keeping the per-day and per-game limits of its rows."""
    table_id = str(params.get("table", ""))
    usage = ctx.state["usage"]
    result = ctx.table(
        table_id,
        str(params.get("purpose") or table_id),
        mod=int(params.get("mod", 0)),
        shift=int(params.get("shift", 0)),
        used_today=usage["day"],
        used_game=usage["game"],
    )
    outcome = result.outcome
    final_table = result.steps[-1].table_id if result.steps else table_id
    if outcome.limit is not None and not result.exhausted:
        key = f"{final_table}.{outcome.id}"
        ctx.inc(["usage", "day", key])
        ctx.inc(["usage", "game", key])
    _history(
        ctx,
        {
            "what": "table",
            "table": table_id,
            "outcome": outcome.id,
            "text": outcome.text,
            "exhausted": result.exhausted,
        },
    )


def act_pick(ctx: Context, params: dict[str, Any]) -> None:
    """Pick among options at random, with the dice."""
    options = [str(o) for o in params.get("options", [])]
    if not options:
        raise IllegalActionError("pick needs at least one option")
    if len(options) > MAX_PICK:  # one die of up to MAX_SIDES sides picks (docs/dice.md)
        raise IllegalActionError(
            f"a pick is among at most {MAX_PICK} options, not {len(options)} "
            "(for more, make a deck and draw from it)"
        )
    count = int(params.get("count", 1))
    if not 1 <= count <= len(options):
        raise IllegalActionError(f"cannot pick {count} of {len(options)} options")
    chosen = ctx.random_choice(options, str(params.get("purpose") or "random pick"), pick=count)
    _history(ctx, {"what": "pick", "options": options, "chosen": chosen})


def act_deck_new(ctx: Context, params: dict[str, Any]) -> None:
    """Make a named deck of cards (with or without replacement)."""
    from umpire.tables import Deck

    name = str(params.get("name", ""))
    cards = [str(c) for c in params.get("cards", [])]
    if not name or not cards:
        raise IllegalActionError("a deck needs a name and at least one card")
    deck = Deck.new(cards, replace=bool(params.get("replace", False)))
    ctx.set(["decks", name], deck.to_state())
    _history(ctx, {"what": "deck", "deck": name, "cards": cards})


def _deck(ctx: Context, name: str) -> Any:
    from umpire.tables import Deck

    state = ctx.state["decks"].get(name)
    if state is None:
        known = ", ".join(sorted(ctx.state["decks"])) or "none"
        raise UnknownNameError(f"unknown deck '{name}' (decks: {known})")
    return Deck.from_state(state)


def act_draw(ctx: Context, params: dict[str, Any]) -> None:
    """Draw a card from a named deck."""
    name = str(params.get("deck", ""))
    card, deck = ctx.draw(_deck(ctx, name), f"draw from {name}")
    ctx.set(["decks", name], deck.to_state())
    _history(ctx, {"what": "draw", "deck": name, "card": card})


def act_shuffle(ctx: Context, params: dict[str, Any]) -> None:
    """Return every card to a named deck."""
    name = str(params.get("deck", ""))
    ctx.set(["decks", name], _deck(ctx, name).reshuffle().to_state())
    _history(ctx, {"what": "shuffle", "deck": name})


def act_new_day(ctx: Context, params: dict[str, Any]) -> None:
    """Start a new day: per-day table limits start again."""
    ctx.set(["usage", "day"], {})
    ctx.inc("day")
    _history(ctx, {"what": "new_day", "day": ctx.state["day"]})


def _keep(scenario: Mapping[str, Any]) -> int:
    """The book's ``history_keep`` (reading ``history_kept``), checked: a whole number
    1-10000."""
    keep = scenario.get("history_keep", HISTORY_KEEP)
    if isinstance(keep, bool) or not isinstance(keep, int) or not 1 <= keep <= 10_000:
        raise IllegalActionError(
            f"history_keep must be a whole number from 1 to 10000, not {str(keep)[:40]!r}"
        )
    return keep


class SessionModule:
    """The dice book module: rolls, tables, random picks and decks, all logged."""

    id = "session"
    name = "Dice book (rolls, tables, picks and decks)"
    seed = "-"
    provides = ("dice", "tables", "decks")

    def initial_state(self, scenario: dict[str, Any]) -> dict[str, Any]:
        """An empty book on day 1."""
        return {
            "day": 1,
            "count": 0,
            "usage": {"day": {}, "game": {}},
            "decks": {},
            "history": [],
            "history_keep": _keep(scenario),
            "title": scenario.get("title", "dice book"),
        }

    def actions(self) -> Mapping[str, ActionFn]:
        """roll, table, pick, deck, draw, shuffle, new_day."""
        return {
            "roll": act_roll,
            "table": act_table,
            "pick": act_pick,
            "deck": act_deck_new,
            "draw": act_draw,
            "shuffle": act_shuffle,
            "new_day": act_new_day,
        }

    def defaults(self) -> list[Labelled]:
        """The readings this module applies."""
        return [LIMIT_READING, HISTORY_READING]


MODULE = SessionModule()
