"""Seed 000's events: what every event shares: titles, exact odds, the limits on how
often an event may happen, the effects it leaves and the orders it issues or accepts.

Split from ``events`` (issue 25).
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

from umpire.engine import Context, Option
from umpire.errors import IllegalActionError

from .clock import stamp
from .state import (
    corps_label,
    in_play,
    leader_label,
    now,
    stopped_now,
    today,
)

S = dict[str, Any]
EventFn = Callable[[Context, str], str]


def title(side: str) -> str:
    """``"Union"`` / ``"Confederate"``."""
    return side.capitalize()


def frac(p: Fraction) -> str:
    """``"1/6 (16.67%)"``."""
    text = f"{p.numerator}/{p.denominator}" if p else "0"
    return f"{text} ({float(p) * 100:.2f}%)"


def p_at_least(expr: str, target: int) -> Fraction:
    """Exact probability that ``expr`` totals ``target`` or more."""
    from umpire.dice import parse

    return sum(
        (Fraction(p) for v, p in parse(expr).distribution().outcomes if int(v) >= target),
        Fraction(0),
    )


LIMITS: tuple[tuple[str, str, str, bool, int], ...] = (
    ("ambush:union", "Ambush!", "union", True, 1),
    ("ambush:confederate", "Ambush!", "confederate", True, 1),
    (
        "loose_cannon:confederate",
        "Loose Cannon order (Sickles Saves the Day)",
        "confederate",
        True,
        1,
    ),
    ("arrest:union", "Arrest that General!", "union", False, 2),
    ("arrest:confederate", "Arrest that General!", "confederate", False, 2),
    ("longstreet:july1", "Longstreet Moves to the Right: July 1 entry", "confederate", False, 1),
    ("longstreet:july2", "Longstreet Moves to the Right: free order", "confederate", False, 1),
)
"""(usage key, event, side, per day?, most): seed 000's limits ('cannot happen more than once
on any given day', 'one Loose Cannon order per day', 'may occur twice per game', 'can only
happen twice in the game - once ... July 1st and once ... July 2nd or later')."""


def use(ctx: Context, key: str, *, day: bool) -> None:
    """Count one use of a limited event (per day by calendar date, or per game)."""
    if day:
        ctx.inc(["usage", "day", today(ctx.state), key])
    else:
        ctx.inc(["usage", "game", key])


def no_result(ctx: Context, why: str) -> str:
    """Log and return a 'no result' outcome."""
    ctx.say(f"No result: {why}.")
    return f"no result: {why}"


def turn_end(st: S) -> str:
    """``"the end of the Union player turn of July 2 14:00"``: when one-turn effects lapse."""
    return f"the end of the {title(st['clock']['side'])} player turn of {stamp(now(st))}"


def add_effect(ctx: Context, effect: S) -> str:
    """Put an effect in force until the end of this player turn; returns its id (``e1``...)."""
    st = ctx.state
    n = int(st.get("next_effect", 1))
    ctx.set("next_effect", n + 1)
    eid = f"e{n}"
    ctx.append("effects", {**effect, "id": eid, "at": stamp(now(st)), "until": turn_end(st)})
    return eid


def order_options(st: S, oids: list[str]) -> list[Option]:
    """Orders as choices: ``o3: attack order to A. P. Hill (III Corps [3]), D4``."""
    out = []
    for oid in oids:
        o = st["orders"][oid]
        to = leader_label(st, o["recipient"]) if o["recipient"] in st["leaders"] else "?"
        out.append(Option(oid, f"{oid}: {o['kind']} order to {to}, {o['status']}"))
    return out


def corps_option(st: S, cid: str) -> Option:
    """A corps as a choice: ``II Corps [2], Richard S. Ewell``."""
    cmd = st["corps"][cid]["commander"]
    who = f", {st['leaders'][cmd]['name']}" if cmd else ""
    return Option(cid, corps_label(st, cid) + who)


def find_effect(st: S, eid: str, kind: str) -> tuple[int, S]:
    """The effect in force with id ``eid`` and its index, or a one-line refusal."""
    for i, e in enumerate(st["effects"]):
        if e.get("id") == eid:
            if e["kind"] != kind:
                raise IllegalActionError(f"effect {eid} is {e['kind']}, not {kind}")
            return i, e
    known = ", ".join(f"{e['id']} ({e['kind']})" for e in st["effects"] if e.get("id")) or "none"
    raise IllegalActionError(f"no effect '{eid}' in force (in force: {known})")


def all_corps_in_play(st: S, side: str) -> list[str]:
    """Every corps of a side on the field, of any kind (reading ``panic_corps``)."""
    out = []
    for cid, c in st["corps"].items():
        if c["side"] != side:
            continue
        cmd = c["commander"]
        units = any(u["corps"] == cid and u["status"] == "in_play" for u in st["units"].values())
        if units or (cmd and in_play(st["leaders"][cmd])):
            out.append(cid)
    return out


def issue_order(ctx: Context, order: S) -> str:
    """Add an order to the book and return its id."""
    n = int(ctx.state["next_order"])
    ctx.set("next_order", n + 1)
    oid = f"o{n}"
    ctx.set(["orders", oid], {"id": oid, **order})
    return oid


def accept_order(ctx: Context, oid: str) -> None:
    """An order takes effect; an attack order to a corps commander counts for stoppage.

    Refused for an attack order of a corps stopped by Corps Attack Stoppage this turn.
    """
    o = ctx.state["orders"][oid]
    if o["kind"] == "attack":
        refuse_if_stopped(ctx.state, o.get("corps"), oid)
    ctx.set(["orders", oid, "status"], "accepted")
    ctx.set(["orders", oid, "accepted_at"], stamp(now(ctx.state)))
    cid = o.get("corps")
    if o["kind"] == "attack" and cid:
        ctx.append(["corps", cid, "attack_orders"], oid)
        ctx.set(["corps", cid, "stopped"], False)


def refuse_if_stopped(st: S, cid: str | None, oid: str) -> None:
    """Seed 000: 'there is also nothing that can be done about an RE-imposed attack stoppage
    until the next turn at the earliest' (reading ``stoppage_until``)."""
    if cid and stopped_now(st, cid):
        raise IllegalActionError(
            f"{corps_label(st, cid)} was stopped by Corps Attack Stoppage this turn "
            f"({stamp(now(st))}): attack order {oid} cannot be accepted until the next turn"
        )
