"""A tactical battle at the web table: any composition a scenario names (002, 003, 004, 001).

The page is a view of the saved game: the battlefield, the order of battle, the phase and
the pending decision with its legal orders and their exact odds. An order is one engine
action (``order``) on the saved game, so undo, fork, export and verify work as at the CLI.
Sides the AI plays answer at once after a human's order, each answer its own action.
"""

from __future__ import annotations

import math
from typing import Any

from umpire.battle.engine import Battle, Request
from umpire.battle.game import actor_id, pending
from umpire.battle.orders import Move
from umpire.battle.roles import KNOWN_LATER, Choice, explain, offered
from umpire.battle.words import briefing, result_words
from umpire.engine.game import Game
from umpire.errors import IllegalActionError
from umpire.web.board import battle_svg, short_names


def choices(b: Battle, req: Request) -> list[Choice]:
    """The legal orders of the pending decision (the same list the CLI numbers)."""
    return offered(b, req)


def _odds(c: Choice) -> dict[str, float]:
    return {k: round(float(v), 4) for k, v in c.odds.items()}


def _target(c: Choice) -> int | None:
    """The unit an order aims at (fire, charge), for taps on the map."""
    o = c.order
    return o.t if o.kind == "fire" or o.kind == "charge" else None


def units_view(b: Battle) -> list[dict[str, Any]]:
    """The order of battle: every unit with its strength and marks."""
    out = []
    short = short_names(b)
    for u in b.state.units:
        out.append(
            {
                "i": u.i,
                "id": u.id,
                "name": u.name,
                "short": short[u.i],
                "side": u.side,
                "type": u.type,
                "formation": u.formation,
                "mounted": u.mounted,
                "limbered": u.limbered,
                "stands": u.stands,
                "stands0": u.stands0,
                "alive": u.alive,
                "status": b.status.label(u) if u.alive else "removed",
                "x": round(u.x, 2),
                "y": round(u.y, 2),
                "facing": round(math.degrees(u.theta) % 360, 1),
            }
        )
    return out


def leaders_view(b: Battle) -> list[dict[str, Any]]:
    """Leaders with their command radius and the unit they ride with."""
    out = []
    for ld in b.state.leaders:
        att = b.state.units[ld.attached].name if ld.attached >= 0 else ""
        out.append(
            {
                "id": ld.id,
                "name": ld.name,
                "side": ld.side,
                "alive": ld.alive,
                "bonus": ld.bonus,
                "radius": ld.radius,
                "x": round(ld.x, 2),
                "y": round(ld.y, 2),
                "attached": att,
            }
        )
    return out


def view(game: Game, side: str | None) -> dict[str, Any]:
    """What a seat sees: everything on the table, and its own decision's menu."""
    b, req = pending(game)
    st = b.state
    out: dict[str, Any] = {
        "kind": "battle",
        "title": game.scenario.get("name", "battle"),
        "turn": st.turn,
        "turns": b.setup.turns,
        "over": st.over,
        "winner": st.winner,
        "units": units_view(b),
        "leaders": leaders_view(b),
        "svg": battle_svg(b, req, side),
        "rules": {
            "sequence": b.comp.sequence.id,
            "combat": b.comp.combat.id,
            "status": b.comp.status.id,
            "events": [e.id for e in b.comp.events],
        },
        "waiting": None,
        "choices": [],
        "started": bool(game.actions),
        "briefing": briefing(b) if st.turn <= 1 and not st.over else [],
        "result": result_words(b) if st.over else "",  # issue 23: the result in words
    }
    if req is None:
        return out
    ph = b.phase()
    actor = actor_id(b, req)
    title = b.comp.step_title(ph.name)  # words from the module's data, not its id
    who = (
        b.state.leaders[req.actor].name
        if req.kind == "leader"
        else (b.state.units[req.actor].name if req.kind in ("move", "fire") else "")
    )
    out["waiting"] = {
        "side": req.side,
        "kind": req.kind,
        "step": title,
        "step_id": ph.name,
        "actor": actor,
        "actor_index": req.actor if req.kind in ("move", "fire") else None,
        "who": who,
    }
    if side == req.side:
        out["choices"] = [
            {
                "i": k,
                "text": c.text,
                "kind": c.kind,
                "odds": _odds(c),
                "target": _target(c),
                # issue 23: why, and what no odds can hold (as the terminal says it)
                "why": [line.strip() for line in explain(b, req, c)[1:]] + [LATER],
            }
            for k, c in enumerate(choices(b, req))
        ]
    return out


LATER = "not yet known for any order: " + ", ".join(KNOWN_LATER)
"""The last line of every entry's why on the page (the terminal says it under the list)."""

RAYS = 32  # directions probed for a move allowance's outline
PROBES = 8  # distances tried along each, then refined by halving
HALVINGS = 3


def allowance(game: Game) -> dict[str, Any]:
    """Where the acting unit may go, as an outline the page draws: along each of ``RAYS``
    directions, the furthest point up to which every probed move is one the combat role
    accepts (``check``, the same test a tap on the table meets). The server decides what is
    legal; the page only draws the answer. No points when the decision is not a move, or
    when the unit cannot move at all (``why`` then says why, in the check's words)."""
    b, req = pending(game)
    if req is None or req.kind != "move":
        return {"unit": None, "points": [], "why": "no unit is to move now"}
    u = b.state.units[req.actor]
    combat = b.comp.combat
    w, h = b.setup.board.width, b.setup.board.height
    top = max(2.0, combat.move_rate(b, u) * 1.6)

    why: list[str] = []

    def ok(a: float, d: float) -> bool:
        x, y = u.x + math.cos(a) * d, u.y + math.sin(a) * d
        if not (0 <= x <= w and 0 <= y <= h):
            return False
        try:
            combat.check(b, req, Move("move", x, y, a, ""))
        except IllegalActionError as exc:
            why.append(str(exc))
            return False
        return True

    points = []
    for k in range(RAYS):
        a = 2 * math.pi * k / RAYS
        good, bad = 0.0, top
        for j in range(1, PROBES + 1):
            d = top * j / PROBES
            if not ok(a, d):
                bad = d
                break
            good = d
        if bad > good:
            for _ in range(HALVINGS):
                mid = (good + bad) / 2
                good, bad = (mid, bad) if ok(a, mid) else (good, mid)
        points.append([round(u.x + math.cos(a) * good, 2), round(u.y + math.sin(a) * good, 2)])
    if all(math.hypot(x - u.x, y - u.y) < 0.05 for x, y in points):
        # it cannot move from where it stands: say why (the check's own words), no outline
        return {"unit": u.i, "name": u.name, "points": [], "why": why[0] if why else ""}
    return {"unit": u.i, "name": u.name, "points": points, "why": ""}


def order_for(
    game: Game, side: str, choice: int | None, tap: tuple[float, float] | None
) -> tuple[str, list[Any]]:
    """(actor id, order) for a menu pick or a tap on the table; refused with the reason."""
    b, req = pending(game)
    if req is None:
        raise IllegalActionError(
            "the battle is over" if game.actions else "the battle has not started yet"
        )
    if req.side != side:
        raise IllegalActionError(f"it is the {req.side} side's decision, not yours ({side})")
    menu = choices(b, req)
    if choice is not None:
        if not 0 <= choice < len(menu):
            raise IllegalActionError(
                f"no order {choice} on the menu (it has {len(menu)}: 0 to {len(menu) - 1})"
            )
        return actor_id(b, req), list(menu[choice].order)
    if tap is None:
        raise IllegalActionError("pick an order from the menu, or tap the table")
    x, y = tap
    w, h = b.setup.board.width, b.setup.board.height
    if not (0 <= x <= w and 0 <= y <= h):
        raise IllegalActionError(f'({x:g}, {y:g}) is off the table ({w:g}" x {h:g}")')
    if req.kind != "move":
        raise IllegalActionError(f"a tap moves a unit; this is a {req.kind} decision: use the menu")
    u = b.state.units[req.actor]
    theta = math.atan2(y - u.y, x - u.x) if math.hypot(x - u.x, y - u.y) > 1e-6 else u.theta
    order = Move("move", x, y, theta, "")
    b.comp.combat.check(b, req, order)
    return actor_id(b, req), list(order)


def target_choice(game: Game, side: str, unit: int) -> int:
    """The menu index of the first order aimed at ``unit`` (a tap on an enemy)."""
    b, req = pending(game)
    if req is None or req.side != side:
        raise IllegalActionError("it is not your decision")
    for k, c in enumerate(choices(b, req)):
        if _target(c) == unit:
            return k
    name = b.state.units[unit].name if 0 <= unit < len(b.state.units) else f"unit {unit}"
    raise IllegalActionError(f"no order of this {req.kind} decision aims at {name}")


def ai_side_to_act(game: Game, players: dict[str, str]) -> str | None:
    """The side to act next when the AI plays it (None: a person's turn, or the end)."""
    _, req = pending(game)
    if req is None or players.get(req.side, "human") == "human":
        return None
    return req.side


def ai_order(game: Game, level: str = "ai") -> tuple[str, list[Any]]:
    """The AI's order at ``level`` for the pending decision (deterministic in the state:
    easy's noise is seeded by the number of actions so far)."""
    from umpire.ai import make_policy

    b, req = pending(game)
    if req is None:
        raise IllegalActionError("the battle is over")
    return actor_id(b, req), list(make_policy(level, len(game.actions)).decide(b, req))
