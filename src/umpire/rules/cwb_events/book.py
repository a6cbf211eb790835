"""Book-keeping actions: the clock, orders, wrecked divisions, positions and leaders.

These are the players' records of what happened at the table; each is an engine action
(logged, undoable). Refusals raise UmpireError subclasses and change nothing.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from umpire.engine import ActionFn, Context
from umpire.errors import IllegalActionError, UnknownNameError

from .army_events import longstreet_group
from .clock import Clock, date_of, parse_date, parse_stamp, parse_time, stamp
from .event_kit import accept_order, issue_order, refuse_if_stopped, title
from .events import run_phase
from .leader_events import lose_leader, record_checks, record_movement
from .state import (
    DELAYS,
    LOST,
    check_side,
    current_holder,
    division_id,
    in_play,
    layout,
    leader_id,
    leader_label,
    now,
    placed_hexes,
    unit_id,
    unit_label,
)

S = dict[str, Any]
ORDER_KINDS = ("move", "attack", "defend", "retreat", "reserve", "other")


def clock_of(st: S) -> Clock:
    """The game's clock."""
    return Clock.from_data(st["clock_data"], "clock (scenario)")


def arrivals(ctx: Context) -> None:
    """Units and leaders whose arrival time has come enter play (default ``arrivals``)."""
    st = ctx.state
    t = now(st)
    _, ls_units = longstreet_group(st)
    entered: list[str] = []
    for uid, u in st["units"].items():
        if u["status"] == "waiting" and u["arrives"] is not None and int(u["arrives"]) <= t:
            ctx.set(["units", uid, "status"], "in_play")
            if u.get("entry") and placed_hexes(st, u["side"]):
                ctx.set(["units", uid, "hex"], u["entry"])
            entered.append(uid)
    for lid, ld in st["leaders"].items():
        if ld["status"] == "waiting" and ld["arrives"] is not None and int(ld["arrives"]) <= t:
            ctx.set(["leaders", lid, "status"], "active")
    if entered:
        ctx.instruct(f"Arriving at {stamp(t)}: " + ", ".join(entered) + ".")
    for oid, o in st["orders"].items():
        if o["status"] == "transit" and o.get("arrive_at") and parse_stamp(o["arrive_at"]) == t:
            ctx.instruct(
                f"Order {oid} ({o['text']}) arrives now: roll its acceptance and record the "
                f"result with `umpire cwb order arrive {oid} <A|D1-D6|Dt>`."
            )
    if st["longstreet"]["variable"] == "active" and any(u in entered for u in ls_units):
        ctx.set("longstreet.variable", "void")
        ctx.say("Longstreet's units come on normally: the variable entry is void.")


def describe_effect(st: S, e: S) -> str:
    """One line for an effect in force (status, log): what it does, to whom."""
    kind = e["kind"]
    if kind == "ambush":
        phases = ", ".join(e.get("phases", []))
        return f"Ambush!: straggler losses of {unit_label(st, e['unit'])} are permanent" + (
            f" ({phases})" if phases else ""
        )
    if kind == "random_movement":
        what = ", ".join(e["regiments"]) if e["regiments"] else "regiments not recorded yet"
        return (
            f"random movement: the {title(e['mover'])} player moves {e['count']} "
            f"{title(e['side'])} regiments up to {e['hexes']} hexes ({what})"
        )
    if kind == "friendly_fire":
        checks = e.get("checks")
        res = (
            f"stragglers {checks['stragglers']}, morale {checks['morale']}"
            if checks
            else "straggler and morale checks not recorded yet"
        )
        return (
            f"Friendly Fire on {unit_label(st, e['unit'])}: {e['steps']} step loss"
            f"{'es' if e['steps'] != 1 else ''}; {res}"
        )
    return str(kind)


def _end_player_turn(ctx: Context) -> None:
    """Effects that last for one player turn end (Ambush!, random movement, Friendly Fire's
    checks, Loose Cannon, 24 MPs); each lapses with a line in the log."""
    st = ctx.state
    if st["effects"]:
        for e in st["effects"]:
            if e.get("id"):
                ctx.say(f"Effect {e['id']} ends: {describe_effect(st, e)}.")
                ctx.append("effects_past", e)
        ctx.set("effects", [])
    for oid, o in st["orders"].items():
        if o["kind"] == "loose_cannon" and o["status"] == "accepted":
            ctx.set(["orders", oid, "status"], "done")
    if st["longstreet"]["mps"]:
        ctx.set("longstreet.mps", 0)


def refuse_after_events(st: S, what: str) -> None:
    """Seed 000, Checking for Random Events: "all random events occur last in the Command
    Phase sequence": once this player turn's events are rolled, the players' own order steps
    wait for the next Command Phase (orders an event grants are written by that event)."""
    if st["clock"]["phase_done"]:
        raise IllegalActionError(
            f"{what} refused: the {title(st['clock']['side'])} random events of "
            f"{stamp(now(st))} are rolled and all random events occur last in the Command "
            "Phase; order steps wait for the next Command Phase (`umpire cwb next`)"
        )


def act_next(ctx: Context, params: S) -> None:
    """Go on to the next player turn (and the next game turn after the second side).

    Seed 000: "each player rolls on his own Random Events Table" in each Command Phase: the
    turn does not move on before the phasing side's roll, unless ``skip_events`` (logged).
    """
    st = ctx.state
    if st["game_over"]:
        raise IllegalActionError(f"the game is over ({st['game_over']})")
    side = str(st["clock"]["side"])
    if not st["clock"]["phase_done"]:
        if not params.get("skip_events"):
            raise IllegalActionError(
                f"the {title(side)} random events of {stamp(now(st))} have not been rolled "
                "(one roll each Command Phase): roll them with `umpire cwb phase`, or skip them "
                "with `umpire cwb next --skip-events` (the log records it)"
            )
        ctx.say(
            f"The {title(side)} random events of {stamp(now(st))} are skipped "
            "(--skip-events): no roll this Command Phase."
        )
    clock = clock_of(st)
    _end_player_turn(ctx)
    first, second = clock.turn_order
    if st["clock"]["side"] == first:
        ctx.set("clock.side", second)
    else:
        t = clock.next_turn(now(st))
        if t > clock.end:
            ctx.set("game_over", f"the last turn ({stamp(clock.end)}) is over")
            ctx.instruct("The game is over: the last turn has been played.")
            return
        ctx.set("clock.minute", t)
        ctx.set("clock.side", first)
        arrivals(ctx)
    ctx.set("clock.phase_done", False)
    ctx.say(f"Now: {stamp(now(ctx.state))}, {title(ctx.state['clock']['side'])} player turn.")


def act_clock_set(ctx: Context, params: S) -> None:
    """Set the clock to a later turn and side (for catching up with the table).

    Never back, nor to the player turn it shows: that would lift an RE stoppage or allow a
    second random-event roll ("one roll each Command Phase"); going back is ``games undo``.
    """
    st = ctx.state
    clock = clock_of(st)
    date = str(params.get("date") or date_of(now(st)))
    tod = params.get("time")
    minute = parse_date(date) * 1440 + (parse_time(str(tod)) if tod else now(st) % 1440)
    clock.check(minute)
    side = check_side(str(params.get("side") or clock.turn_order[0]))
    here = (now(st), clock.turn_order.index(str(st["clock"]["side"])))
    there = (minute, clock.turn_order.index(side))
    if there <= here:
        how = "is the player turn now" if there == here else "is before the player turn now"
        raise IllegalActionError(
            f"the clock only moves forward: {stamp(minute)}, {title(side)} player turn {how} "
            f"({stamp(now(st))}, {title(str(st['clock']['side']))}); to go back use "
            "`umpire games undo` (logged)"
        )
    _end_player_turn(ctx)
    ctx.set("clock.minute", minute)
    ctx.set("clock.side", side)
    ctx.set("clock.phase_done", False)
    arrivals(ctx)
    ctx.say(f"Clock set to {stamp(minute)}, {title(side)} player turn.")


def act_phase(ctx: Context, params: S) -> None:
    """Roll and resolve the phasing side's random events (the side whose turn it is, if none
    is given; another side is refused)."""
    side = params.get("side") or ctx.state["clock"]["side"]
    run_phase(ctx, check_side(str(side)))


def _order(ctx: Context, oid: str) -> S:
    order: S | None = ctx.state["orders"].get(oid)
    if order is None:
        known = ", ".join(ctx.state["orders"]) or "none"
        raise UnknownNameError(f"unknown order '{oid}' (orders: {known})")
    return order


def _corps_of(st: S, lid: str) -> str | None:
    ld = st["leaders"][lid]
    cmd = ld["command"]
    if ld["post"] == "corps":
        return str(cmd)
    if ld["post"] == "division":
        return str(st["divisions"][cmd]["corps"])
    if ld["post"] == "brigade":
        return str(st["units"][cmd]["corps"])
    return None


def act_order_issue(ctx: Context, params: S) -> None:
    """Write an order: issuer, recipient, kind, and arrival (in transit) or a status."""
    st = ctx.state
    given = params.get("side")
    side_or_none = check_side(str(given)) if given else None
    issuer = leader_id(st, str(params.get("issuer", "")), side_or_none)
    side = side_or_none or str(st["leaders"][issuer]["side"])
    recipient = leader_id(st, str(params.get("recipient", "")), side)
    refuse_after_events(st, "cwb order issue")
    kind = str(params.get("kind", "move"))
    if kind not in ORDER_KINDS:
        raise UnknownNameError(f"unknown order kind '{kind}' (kinds: {', '.join(ORDER_KINDS)})")
    if not in_play(st["leaders"][issuer]):
        raise IllegalActionError(f"{leader_label(st, issuer)} is not in play")
    to = st["leaders"][recipient]
    if to["status"] in LOST:
        now_by = current_holder(st, recipient)
        instead = f"; write it to {leader_label(st, now_by)}" if now_by else ""
        raise IllegalActionError(
            f"{leader_label(st, recipient)} is {to['status']} (since {to.get('lost_at')}): "
            f"no new order to a lost leader{instead}"
        )
    if (
        kind == "attack"
        and st["panic"][side]["panicked"]
        and st["leaders"][issuer]["post"] == "army"
    ):
        raise IllegalActionError(
            f"the {title(side)} army is in panic: no further attack orders by the army commander "
            "(initiative attack orders are still allowed)"
        )
    status = str(params.get("status") or "transit")
    if status != "transit" and status not in DELAYS:
        raise UnknownNameError(f"unknown order status '{status}' (transit, A, D1-D6, Dt)")
    arrive = params.get("arrive")
    arrive_at = stamp(parse_stamp(str(arrive))) if arrive else None
    oid = issue_order(
        ctx,
        {
            "side": side,
            "issuer": issuer,
            "recipient": recipient,
            "corps": _corps_of(st, recipient),
            "kind": kind,
            "text": str(params.get("text") or f"{kind} order"),
            "status": "transit",
            "issued_at": stamp(now(st)),
            "arrive_at": arrive_at,
            "pending_delay": 0,
            "drag": None,
        },
    )
    if status != "transit":
        _arrive(ctx, oid, status)
    ctx.say(
        f"Order {oid}: {leader_label(st, issuer)} to {leader_label(st, recipient)}"
        f" ({kind}), {ctx.state['orders'][oid]['status']}."
    )


def _arrive(ctx: Context, oid: str, result: str) -> None:
    """Record an arrival result, applying a stored Orders Delay step (reading ``transit_delay``)."""
    o = ctx.state["orders"][oid]
    if result not in DELAYS:
        raise UnknownNameError(f"unknown arrival result '{result}' (A, D1-D6, Dt)")
    index = min(DELAYS.index(result) + int(o["pending_delay"]), len(DELAYS) - 1)
    final = DELAYS[index]
    if o["pending_delay"]:
        ctx.say(f"Orders Delay applies on arrival: {result} becomes {final}.")
        ctx.set(["orders", oid, "pending_delay"], 0)
    ctx.set(["orders", oid, "arrived_at"], now(ctx.state))
    to = leader_label(ctx.state, o["recipient"]) if o["recipient"] in ctx.state["leaders"] else "?"
    if final == "A" and not o.get("drag"):
        accept_order(ctx, oid)
        ctx.instruct(f"Order {oid} arrives and is accepted by {to}: it is in effect now.")
        return
    status = "D1" if final == "A" else final
    ctx.set(["orders", oid, "status"], status)
    if status == "Dt":
        ctx.instruct(f"Order {oid} arrives and is lost (Dt): {to} never acts on it.")
    else:
        ctx.instruct(
            f"Order {oid} arrives in delay ({status}) with {to}: roll its acceptance "
            f"(1d6 >= {status[1:]}) in a later Command Phase with `umpire cwb order roll {oid}`."
        )


def act_order_arrive(ctx: Context, params: S) -> None:
    """An order in transit arrives with the acceptance result rolled at the table."""
    oid = str(params.get("order", ""))
    o = _order(ctx, oid)
    refuse_after_events(ctx.state, "cwb order arrive")
    if o["status"] != "transit":
        raise IllegalActionError(f"order {oid} is not in transit (it is {o['status']})")
    _arrive(ctx, oid, str(params.get("result", "")).upper().replace("DT", "Dt"))


def _commit_division(ctx: Context, oid: str, division: str | None) -> None:
    st = ctx.state
    o = st["orders"][oid]
    drag = o["drag"]
    left = [d for d in drag["divisions"] if d not in drag["committed"]]
    if division is None:
        division = ctx.decide(
            o["side"],
            f"Order {oid} accepted by one more division: which?",
            left,
            purpose="Drags his Feet: division to commit",
        )[0]
    elif division not in left:
        raise IllegalActionError(
            f"division '{division}' is not waiting on order {oid} "
            f"(waiting: {', '.join(left) or 'none'})"
        )
    ctx.append(["orders", oid, "drag", "committed"], division)
    ctx.instruct(f"Division {division} accepts order {oid}.")
    if len(left) == 1:
        accept_order(ctx, oid)
        ctx.instruct(f"Every division has accepted order {oid}.")


def act_order_accept(ctx: Context, params: S) -> None:
    """Mark an order accepted (or, under Drags his Feet, one more division)."""
    oid = str(params.get("order", ""))
    o = _order(ctx, oid)
    refuse_after_events(ctx.state, "cwb order accept")
    if o["status"] in ("accepted", "cancelled", "done", "stopped", "Dt"):
        raise IllegalActionError(f"order {oid} cannot be accepted (it is {o['status']})")
    if o.get("drag"):
        div = params.get("division")
        _commit_division(ctx, oid, str(div) if div else None)
        return
    accept_order(ctx, oid)


def act_order_roll(ctx: Context, params: S) -> None:
    """Default ``delay_acceptance``: an order in Dn is accepted on 1d6 >= n, once per turn."""
    from .event_kit import frac, p_at_least

    st = ctx.state
    oid = str(params.get("order", ""))
    o = _order(ctx, oid)
    refuse_after_events(st, "cwb order roll")
    status = o["status"]
    if not (status.startswith("D") and status != "Dt"):
        raise IllegalActionError(f"order {oid} is not in delay (it is {status})")
    if o["side"] != st["clock"]["side"]:
        raise IllegalActionError(f"order {oid} is {title(o['side'])}: roll it in that side's turn")
    if o.get("last_roll") == now(st):
        raise IllegalActionError(f"order {oid} has already been rolled for this turn")
    if o.get("arrived_at") == now(st):
        raise IllegalActionError(
            f"order {oid} arrived this turn in {status}: its acceptance is rolled in a later "
            "Command Phase (default delay_acceptance)"
        )
    if o["kind"] == "attack":
        refuse_if_stopped(st, o.get("corps"), oid)
    ctx.set(["orders", oid, "last_roll"], now(st))
    n = int(status[1:])
    ctx.say(f"Order {oid} in {status}: accepted on 1d6 >= {n}, P = {frac(p_at_least('1d6', n))}.")
    r = ctx.roll("1d6", f"acceptance of order {oid} ({status})")
    if int(r.total) < n:
        ctx.say(f"Rolled {r.total}: not accepted this turn.")
        return
    if o.get("drag"):
        _commit_division(ctx, oid, str(params["division"]) if params.get("division") else None)
    else:
        accept_order(ctx, oid)
        ctx.instruct(f"Rolled {r.total}: order {oid} is accepted.")


def act_order_cancel(ctx: Context, params: S) -> None:
    """Cancel an order (the issuer withdraws it or it is finished)."""
    oid = str(params.get("order", ""))
    o = _order(ctx, oid)
    ctx.set(["orders", oid, "status"], "cancelled")
    cid = o.get("corps")
    if cid and oid in ctx.state["corps"][cid]["attack_orders"]:
        ctx.remove(["corps", cid, "attack_orders"], oid)


def act_wreck(ctx: Context, params: S) -> None:
    """Mark a division wrecked (or no longer wrecked with ``undo``)."""
    did = division_id(ctx.state, str(params.get("division", "")))
    value = not bool(params.get("undo"))
    if ctx.state["divisions"][did]["wrecked"] == value:
        raise IllegalActionError(
            f"division {did} is already {'wrecked' if value else 'not wrecked'}"
        )
    ctx.set(["divisions", did, "wrecked"], value)


def act_place(ctx: Context, params: S) -> None:
    """Place or move a unit or a leader on a hex (``hex`` empty removes the position)."""
    st = ctx.state
    name = str(params.get("unit", ""))
    hx = params.get("hex")
    hex_id = layout(st).normal(str(hx)) if hx else None
    if name in st["units"] or name.lower() in {u.lower() for u in st["units"]}:
        uid = unit_id(st, name)
        if st["units"][uid]["status"] not in ("in_play", "waiting"):
            raise IllegalActionError(f"unit {uid} is {st['units'][uid]['status']}")
        if st["units"][uid]["status"] == "waiting":
            ctx.set(["units", uid, "status"], "in_play")
        ctx.set(["units", uid, "hex"], hex_id)
        return
    lid = leader_id(st, name)
    if not in_play(st["leaders"][lid]):
        raise IllegalActionError(
            f"{leader_label(st, lid)} is not in play ({st['leaders'][lid]['status']})"
        )
    ctx.set(["leaders", lid, "hex"], hex_id)


def act_place_many(ctx: Context, params: S) -> None:
    """Place many units and leaders at once: ``{"positions": {name: hex, ...}}``."""
    positions = params.get("positions")
    if not isinstance(positions, dict) or not positions:
        raise IllegalActionError("place_many needs positions: a mapping of unit or leader to hex")
    for name, hex_id in positions.items():
        act_place(ctx, {"unit": name, "hex": hex_id})


def act_enter(ctx: Context, params: S) -> None:
    """A unit (or all of a division) enters play now, ahead of or without its arrival time."""
    st = ctx.state
    name = str(params.get("unit", ""))
    ids = (
        list(st["divisions"][name]["brigades"]) + list(st["divisions"][name]["batteries"])
        if name in st["divisions"]
        else [unit_id(st, name)]
    )
    for uid in ids:
        if st["units"][uid]["status"] == "waiting":
            ctx.set(["units", uid, "status"], "in_play")
            lid = st["units"][uid].get("leader")
            if lid and st["leaders"][lid]["status"] == "waiting":
                ctx.set(["leaders", lid, "status"], "active")
    if name in st["divisions"]:
        lid = st["divisions"][name]["commander"]
        if lid and st["leaders"][lid]["status"] == "waiting":
            ctx.set(["leaders", lid, "status"], "active")


def act_exit(ctx: Context, params: S) -> None:
    """A unit leaves the map; after panic the game ends when the whole army has left."""
    st = ctx.state
    uid = unit_id(st, str(params.get("unit", "")))
    u = st["units"][uid]
    if u["status"] != "in_play":
        raise IllegalActionError(f"unit {uid} is not on the map ({u['status']})")
    ctx.set(["units", uid, "status"], "exited")
    ctx.set(["units", uid, "hex"], None)
    side = u["side"]
    if st["panic"][side]["panicked"] and not any(
        x["side"] == side and x["status"] == "in_play" for x in ctx.state["units"].values()
    ):
        _army_left(ctx, side)


def _army_left(ctx: Context, side: str) -> None:
    ctx.set(["panic", side, "left_map"], True)
    ctx.set("game_over", f"the {title(side)} army has left the map after panic")
    ctx.instruct(f"The game ends: the {title(side)} army has left the map.")


def act_army_left(ctx: Context, params: S) -> None:
    """The players declare that a panicked army has left the map (reading ``panic_end``)."""
    side = check_side(str(params.get("side", "")))
    if not ctx.state["panic"][side]["panicked"]:
        raise IllegalActionError(f"the {title(side)} army is not in panic")
    _army_left(ctx, side)


def act_leader_loss(ctx: Context, params: S) -> None:
    """A leader lost in combat at the table (wounded or killed); his post is filled."""
    st = ctx.state
    lid = leader_id(st, str(params.get("leader", "")))
    status = str(params.get("status", "wounded"))
    if status not in ("wounded", "killed", "arrested"):
        raise UnknownNameError(f"unknown leader status '{status}' (wounded, killed, arrested)")
    if not in_play(st["leaders"][lid]):
        raise IllegalActionError(f"{leader_label(st, lid)} is not in play")
    if (
        st["leaders"][lid]["post"] == "army"
        and st["armies"][st["leaders"][lid]["side"]]["commander"] != lid
    ):
        raise IllegalActionError(f"{leader_label(st, lid)} does not command the army")
    lose_leader(ctx, lid, status)


def act_moved(ctx: Context, params: S) -> None:
    """Record which regiments a random movement moved (``{"effect": "e3", "regiments": [...]}``)."""
    regiments = params.get("regiments")
    if not isinstance(regiments, list):
        raise IllegalActionError("moved needs regiments: a list of one or two names")
    record_movement(ctx, str(params.get("effect", "")), [str(r) for r in regiments])


def act_checks(ctx: Context, params: S) -> None:
    """Record Friendly Fire's straggler and morale checks (effect, stragglers, morale)."""
    try:
        stragglers = int(params.get("stragglers", 0))
    except (TypeError, ValueError):
        raise IllegalActionError(
            f"stragglers must be a whole number, not {params.get('stragglers')!r}"
        ) from None
    record_checks(ctx, str(params.get("effect", "")), stragglers, str(params.get("morale", "")))


_ACTIONS = {
    "phase": act_phase,
    "next": act_next,
    "clock_set": act_clock_set,
    "order_issue": act_order_issue,
    "order_arrive": act_order_arrive,
    "order_accept": act_order_accept,
    "order_roll": act_order_roll,
    "order_cancel": act_order_cancel,
    "wreck": act_wreck,
    "place": act_place,
    "place_many": act_place_many,
    "enter": act_enter,
    "exit": act_exit,
    "army_left": act_army_left,
    "leader_loss": act_leader_loss,
    "moved": act_moved,
    "checks": act_checks,
}
ACTIONS: Mapping[str, ActionFn] = _ACTIONS
