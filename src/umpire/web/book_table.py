"""The dice book at the web table: rolls, tables, picks and decks, each logged with its odds.

Actions are the ``session`` module's; the page states a roll's exact distribution before
the dice are thrown (``odds``), and a deck's chances of each card before a draw.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from umpire.dice.notation import DiceExpr
from umpire.engine.game import Game
from umpire.errors import IllegalActionError, UmpireError

ROLE = "table"
ACTIONS = ("roll", "table", "pick", "deck", "draw", "shuffle", "new_day")


def _text(params: dict[str, Any], key: str, limit: int = 200) -> str:
    value = params.get(key, "")
    if not isinstance(value, str | int | float):
        raise IllegalActionError(f"{key}: a text, not {type(value).__name__}")
    text = str(value).strip()
    if len(text) > limit:
        raise IllegalActionError(f"{key}: at most {limit} characters")
    return text


def params_for(action: str, params: dict[str, Any]) -> dict[str, Any]:
    """The action's parameters, checked and made plain (form values arrive as text)."""
    if action not in ACTIONS:
        raise IllegalActionError(f"unknown action '{action}' ({', '.join(ACTIONS)})")
    if action == "roll":
        expr = _text(params, "expr", 80)
        if not expr:
            raise IllegalActionError("roll: give a dice expression such as 2d6 or 3d6+1")
        _dist(expr)  # refuse a bad expression before anything is logged
        return {"expr": expr, "purpose": _text(params, "purpose")}
    if action == "table":
        return {"table": _text(params, "table", 80), "purpose": _text(params, "purpose")}
    if action == "pick":
        raw = params.get("options", "")
        options = raw if isinstance(raw, list) else str(raw).replace("\n", ",").split(",")
        opts = [str(o).strip() for o in options if str(o).strip()][:100]
        if not opts:
            raise IllegalActionError("pick: give the options, separated by commas")
        try:
            count = int(params.get("count", 1) or 1)
        except (TypeError, ValueError):
            raise IllegalActionError("pick: count is a whole number") from None
        return {"options": opts, "count": count, "purpose": _text(params, "purpose")}
    if action == "deck":
        raw = params.get("cards", "")
        cards = raw if isinstance(raw, list) else str(raw).replace("\n", ",").split(",")
        return {
            "name": _text(params, "name", 40),
            "cards": [str(c).strip() for c in cards if str(c).strip()][:200],
            "replace": str(params.get("replace", "")).lower() in ("1", "true", "on", "yes"),
        }
    if action in ("draw", "shuffle"):
        return {"deck": _text(params, "deck", 40)}
    return {}


def check_dice_limits(expr: DiceExpr) -> None:
    """Issue 21's limits on what a person typed at the table, checked before any exact
    distribution is computed: the one call site of the dice library's check
    (``umpire.dice.check_odds_cost``: a one-line refusal when exact odds would cost more
    than ``MAX_ODDS_COST``; the nesting limit is the parser's). The web table also bounds
    the cost itself, whatever the estimate misses: odds requests run in a process of their
    own under a time cap and a rate limit per link (``umpire.web.guard``)."""
    from umpire.dice import check_odds_cost

    check_odds_cost(expr)


def _dist(expr: str) -> list[tuple[int, Fraction]]:
    from umpire.dice import parse

    try:
        parsed = parse(expr)
        check_dice_limits(parsed)
        dist = parsed.distribution()
    except UmpireError as exc:
        raise IllegalActionError(f"roll: {exc}") from None
    return [(int(v), Fraction(p)) for v, p in dist]


def odds(expr: str) -> dict[str, Any]:
    """The exact distribution of a roll before it is thrown (values and probabilities)."""
    rows = _dist(expr)
    mean = sum((v * p for v, p in rows), Fraction(0))
    return {
        "expr": expr,
        "mean": float(mean),
        "rows": [{"value": v, "p": str(p), "pct": float(p) * 100} for v, p in rows[:60]],
    }


def need_view(n: int, sides: int, purpose: str, labels: list[str]) -> dict[str, Any]:
    """A roll of real dice the page asks for, with its exact odds before it is thrown."""
    if labels:
        p = Fraction(1, len(labels))
        rows = [
            {"value": k + 1, "label": lab, "p": str(p), "pct": float(p) * 100}
            for k, lab in enumerate(labels)
        ]
        return {
            "n": 1,
            "sides": len(labels),
            "purpose": purpose,
            "labels": labels,
            "odds": {"expr": "a draw from a cup", "mean": 0.0, "rows": rows},
        }
    return {"n": n, "sides": sides, "purpose": purpose, "labels": [], "odds": odds(f"{n}d{sides}")}


def view(game: Game) -> dict[str, Any]:
    """The book: its history (newest first), its decks with each card's chance next."""
    from umpire.tables import Deck

    st = game.state
    decks = []
    for name, raw in sorted(st.get("decks", {}).items()):
        deck = Deck.from_state(raw)
        probs = deck.draw_probabilities()
        decks.append(
            {
                "name": name,
                "left": len(deck.remaining),
                "drawn": list(deck.drawn),
                "next": [{"card": c, "p": float(p) * 100} for c, p in sorted(probs.items())],
            }
        )
    return {
        "kind": "book",
        "day": st.get("day", 1),
        "history": list(reversed(st.get("history", [])))[:40],
        "decks": decks,
    }
