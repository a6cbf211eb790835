"""Seed 000's army events: panic, retreat orders, Sickles, orders accepted or delayed,
Buford's withdrawal, ambush, attack stoppage, Longstreet and dragging feet, each citing
its seed passage.

Split from ``events`` (issue 25).
"""

from __future__ import annotations

from fractions import Fraction

from umpire.engine import Context, Option

from .clock import parse_stamp, stamp
from .event_kit import (
    EventFn,
    S,
    accept_order,
    add_effect,
    all_corps_in_play,
    corps_option,
    frac,
    issue_order,
    no_result,
    order_options,
    p_at_least,
    title,
    turn_end,
    use,
)
from .state import (
    corps_in_play,
    corps_label,
    corps_with_attack_orders,
    enemy,
    in_play,
    leader_label,
    now,
    open_orders,
    panic_row,
    param,
    placed_hexes,
    today,
    unit_hex,
    unit_label,
    units_in_play,
    usage,
    within,
)


# ------------------------------------------------------------------ random event table
def panic_check(ctx: Context, side: str) -> str:
    """Seed 000, Panic Check:

    Wrecked infantry divisions (+ row shift) against a d66 Panic Table roll.
    """
    st = ctx.state
    if st["panic"][side]["panicked"]:
        return no_result(ctx, f"the {title(side)} army is already in panic")
    row, shift, why = panic_row(st, side)
    per = int(st["params"]["panic_per_row"])
    p = Fraction(min(per * row, 36), 36)
    ctx.say(
        f"Panic row {row} ({row - shift} wrecked infantry divisions + {shift} shift: {why}); "
        f"P(panic) = {frac(p)}."
    )
    if p == 0:
        ctx.say("No Panic Table roll: with row 0 the army cannot panic.")
        return "no panic (row 0, not rolled)"
    res = ctx.table(f"cwb_{side}_panic", f"{title(side)} Panic Check (row {row})")
    band = int(res.outcome.effects["band"])
    if band > row:
        ctx.say(f"Band {band} is above row {row}: no panic.")
        return "no panic"
    ctx.set(["panic", side], {"panicked": True, "at": stamp(now(st)), "left_map": False})
    head = st["armies"][side]["commander"]
    who = (
        str(st["leaders"][head]["name"])
        if head in st["leaders"]
        else f"the {title(side)} army's command"
    )
    if side == "union":
        ctx.instruct(
            f"PANIC: {who} decides to retreat to Pipe Creek. No further attack orders by "
            "the army commander (initiative attacks still allowed). Every corps is issued an "
            "order to retreat off the south or east map edges (below); once accepted they "
            "must move to do so. The game ends when all Federals have left the map."
        )
    else:
        ctx.instruct(
            f"PANIC: {who} decides to retreat behind South Mountain. No further attack "
            "orders by the army commander (initiative attacks still allowed). Every corps "
            "is issued an order to retreat off the west map edge (below); once accepted they "
            "must move to do so. The game ends when all Confederates have left the map."
        )
    retreat_orders(ctx, side)
    return "panic"


def retreat_orders(ctx: Context, side: str) -> list[str]:
    """Seed 000, Panic: 'All corps must be issued orders to retreat off the south or east map
    edges' (Confederates: 'off the west map edge'); they go in transit like any order."""
    st = ctx.state
    edge = str(param(st, "panic_edges")[side])
    army = st["armies"][side]["commander"]
    made: list[str] = []
    for cid in all_corps_in_play(st, side):
        cmd = st["corps"][cid]["commander"]
        if not cmd:  # a corps-level command led by its division (Stuart's cavalry)
            heads = [
                st["divisions"][d]["commander"]
                for d in st["corps"][cid]["divisions"]
                if st["divisions"][d]["commander"]
                and in_play(st["leaders"][st["divisions"][d]["commander"]])
            ]
            if not heads:
                continue
            cmd = heads[0]
        oid = issue_order(
            ctx,
            {
                "side": side,
                "issuer": army or f"army:{side}",
                "recipient": cmd,
                "corps": cid,
                "kind": "retreat",
                "text": f"Retreat off the {edge} (Army Panic)",
                "status": "transit",
                "issued_at": stamp(now(st)),
                "arrive_at": None,
                "pending_delay": 0,
                "drag": None,
                "panic": True,
            },
        )
        made.append(f"{oid} to {leader_label(st, cmd)}")
    if made:
        ctx.instruct(
            "Retreat orders written (in transit; record each arrival with `umpire cwb order "
            "arrive`): " + "; ".join(made) + "."
        )
    return made


def sickles(ctx: Context, side: str) -> str:
    """Seed 000, Sickles Saves the Day:

    The Confederates write one Loose Cannon order a day for a random corps.
    """
    st = ctx.state
    foe = enemy(side)
    key = f"loose_cannon:{foe}"
    if usage(st, key, day=True) >= 1:
        return no_result(
            ctx, "the Confederate player has already written a Loose Cannon order today"
        )
    corps = corps_in_play(st, side)
    if not corps:
        return no_result(ctx, "no Union corps is in play")
    answer = ctx.decide(
        foe,
        "Sickles Saves the Day: write a Loose Cannon order for a randomly selected Union corps, "
        "or decline and wait for a better chance?",
        [Option("write", "write the Loose Cannon order"), Option("decline", "decline")],
        purpose="Sickles Saves the Day: write or decline",
    )[0]
    if answer == "decline":
        return no_result(ctx, "the Confederate player declines (today's order is not used)")
    cid = ctx.random_choice(
        [corps_option(st, c) for c in corps], "Sickles Saves the Day: the Union corps"
    )[0]
    cmd = st["corps"][cid]["commander"]
    for oid, o in st["orders"].items():
        if o["corps"] == cid and o["status"] not in ("cancelled", "done", "stopped", "Dt"):
            ctx.set(["orders", oid, "status"], "cancelled")
    if st["corps"][cid]["attack_orders"]:
        ctx.set(["corps", cid, "attack_orders"], [])
    oid = issue_order(
        ctx,
        {
            "side": side,
            "issuer": foe,
            "recipient": cmd,
            "corps": cid,
            "kind": "loose_cannon",
            "text": "Loose Cannon (written by the Confederate player)",
            "status": "accepted",
            "issued_at": stamp(now(st)),
            "arrive_at": None,
            "pending_delay": 0,
            "drag": None,
            "accepted_at": stamp(now(st)),
        },
    )
    use(ctx, key, day=True)
    ctx.instruct(
        f"Confederate player: write a Loose Cannon order ({oid}) for the Union "
        f"{corps_label(st, cid)}: a one-turn movement order for the whole corps; it "
        "cancels the corps' other orders."
    )
    return f"loose cannon {cid}"


def immediate_acceptance(ctx: Context, side: str) -> str:
    """Seed 000, Immediate Order Acceptance:

    One order in delay or transit (at random) is accepted.
    """
    st = ctx.state
    cands = open_orders(st, side)
    if not cands:
        return no_result(ctx, "no order is in delay or in transit")
    oid = ctx.random_choice(order_options(st, cands), "Immediate Order Acceptance: the order")[0]
    accept_order(ctx, oid)
    ctx.instruct(f"Order {oid} ({ctx.state['orders'][oid]['text']}) is accepted now.")
    return f"{oid} accepted"


def orders_delay(ctx: Context, side: str) -> str:
    """Seed 000, Orders Delay:

    One order in delay or transit (at random) goes up a step; D6 -> Dt.
    """
    st = ctx.state
    cands = open_orders(st, side)
    if not cands:
        return no_result(ctx, "no order is in delay or in transit")
    oid = ctx.random_choice(order_options(st, cands), "Orders Delay: the order")[0]
    o = st["orders"][oid]
    if o["status"] == "transit":
        ctx.set(["orders", oid, "pending_delay"], int(o["pending_delay"]) + 1)
        ctx.instruct(f"Order {oid} is in transit: its status goes up one step when it arrives.")
        return f"{oid} +1 on arrival"
    old = str(o["status"])  # read before the change: "a D4 would become a D5"
    n = int(old[1:]) + 1
    new = "Dt" if n > int(st["params"]["delay_max"]) else f"D{n}"
    ctx.set(["orders", oid, "status"], new)
    ctx.instruct(
        f"Order {oid} goes from {old} to {new}" + (" (the order is lost)." if new == "Dt" else ".")
    )
    return f"{oid} {old}->{new}"


def withdraw_buford(ctx: Context, side: str) -> str:
    """Seed 000, Withdraw Buford:

    From July 2 withdraw Buford's division now; ignore on July 1 or if gone.
    """
    st = ctx.state
    if today(st) == "July 1":
        return no_result(ctx, "rolled on July 1st")
    if st["buford"]["withdrawn"]:
        return no_result(ctx, "Buford is already withdrawn")
    gone = []
    for name in st["params"]["buford_units"]:
        if name in st["leaders"]:
            if st["leaders"][name]["status"] in ("active", "waiting"):
                ctx.set(["leaders", name, "status"], "withdrawn")
                ctx.set(["leaders", name, "hex"], None)
                gone.append(name)
        elif name in st["units"] and st["units"][name]["status"] in ("in_play", "waiting"):
            ctx.set(["units", name, "status"], "withdrawn")
            ctx.set(["units", name, "hex"], None)
            lid = st["units"][name].get("leader")
            if lid and st["leaders"][lid]["status"] in ("active", "waiting"):
                ctx.set(["leaders", lid, "status"], "withdrawn")
            gone.append(name)
    ctx.set("buford.withdrawn", True)
    ctx.instruct(
        "Withdraw Buford: remove " + ", ".join(gone) + " from the map now "
        "(the scheduled July 2 11:00 AM withdrawal no longer applies)."
    )
    return "buford withdrawn"


def ambush(ctx: Context, side: str) -> str:
    """Seed 000, Ambush!:

    One brigade's straggler losses are permanent for the next movement and fire phases; once a day.
    """
    st = ctx.state
    key = f"ambush:{side}"
    if usage(st, key, day=True) >= 1:
        return no_result(ctx, "Ambush! has already happened today")
    brigades = units_in_play(st, side, ("brigade",))
    if not brigades:
        return no_result(ctx, f"no {side} brigade is in play")
    bid = ctx.random_choice(
        [Option(b, unit_label(st, b)) for b in brigades], "Ambush!: the brigade"
    )[0]
    use(ctx, key, day=True)
    phases = [str(x) for x in param(st, "ambush_phases")]
    eid = add_effect(ctx, {"kind": "ambush", "side": side, "unit": bid, "phases": phases})
    ctx.instruct(
        f"Ambush!: for the next movement, defensive fire and offensive fire phases, "
        f"treat all straggler losses against the units of {unit_label(st, bid)} as "
        f"permanent losses ({eid}, until {turn_end(st)})."
    )
    return f"ambush {bid}"


def attack_stoppage(ctx: Context, side: str) -> str:
    """Seed 000, Corps Attack Stoppage:

    One corps with attack orders (at random) immediately stops.
    """
    st = ctx.state
    cands = corps_with_attack_orders(st, side)
    if not cands:
        return no_result(ctx, f"no {side} corps has attack orders")
    cid = ctx.random_choice(
        [corps_option(st, c) for c in cands], "Corps Attack Stoppage: the corps"
    )[0]
    for oid in st["corps"][cid]["attack_orders"]:
        ctx.set(["orders", oid, "status"], "stopped")
    ctx.set(["corps", cid, "attack_orders"], [])
    ctx.set(["corps", cid, "stopped"], True)
    ctx.set(["corps", cid, "stopped_at"], now(st))
    ctx.instruct(
        f"Corps Attack Stoppage: the {title(side)} {corps_label(st, cid)} stops its "
        "attack now (nothing can undo this before next turn)."
    )
    return f"{cid} stopped"


def longstreet_group(st: S) -> tuple[list[str], list[str]]:
    """Seed 000: Longstreet, I Corps HQ and Supply, M/1 and H/1 minus L/H/1 and Bachman/Arty/H/1."""
    params = st["params"]
    leaders: list[str] = []
    units: list[str] = []
    for name in params["longstreet_units"]:
        if name in st["leaders"]:
            leaders.append(name)
        elif name in st["units"]:
            units.append(name)
        elif name in st["divisions"]:
            div = st["divisions"][name]
            leaders.append(div["original"])
            units.extend(div["brigades"])
            units.extend(div["batteries"])
    except_ = set(params["longstreet_except"])
    units = [u for u in units if u not in except_]
    leaders += [st["units"][u]["leader"] for u in units if st["units"][u].get("leader")]
    return leaders, units


def longstreet_right(ctx: Context, side: str) -> str:
    """Seed 000, Longstreet Moves to the Right:

    July 1 variable entry; July 2+ free attack order (+24 MPs).
    """
    st = ctx.state
    params = st["params"]
    t = now(st)
    if today(st) == "July 1":
        if usage(st, "longstreet:july1", day=False) >= 1:
            return no_result(ctx, "the July 1 variable entry has already been used")
        _, units = longstreet_group(st)
        regular = min(int(st["units"][u]["arrives"] or 0) for u in units)
        if any(st["units"][u]["status"] != "waiting" for u in units) or t >= regular:
            return no_result(ctx, "Longstreet's units are already due or on the map (not used)")
        use(ctx, "longstreet:july1", day=False)
        ctx.set("longstreet.variable", "active")
        ctx.set("longstreet.activated_at", t)
        start = max(parse_stamp(str(params["longstreet_variable_from"])), t)
        ctx.instruct(
            "Longstreet Moves to the Right: surprise reinforcement. From the first Confederate "
            f"Command Phase after this one at or after {stamp(start)}, umpire rolls "
            f"{params['longstreet_variable_formula']} each phase: on "
            f"{params['longstreet_variable_target']}+ Longstreet, I Corps HQ and Supply, M/1 and "
            f"H/1 (minus L/H/1 and Bachman/Arty/H/1) enter at {params['longstreet_entry_hex']} "
            f"with orders to move to the Army HQ (regular entry {stamp(regular)})."
        )
        return "longstreet variable entry active"
    if usage(st, "longstreet:july2", day=False) >= 1:
        return no_result(ctx, "the July 2+ free order has already been used")
    ls = st["leaders"].get("longstreet")
    if ls is None or not in_play(ls):
        return no_result(ctx, "Longstreet is not in play (the use is not spent)")
    cid = ls["command"] if ls["post"] == "corps" else "1"
    had_attack = bool(st["corps"].get(cid, {}).get("attack_orders"))
    close = False if had_attack else _troops_in_small_arms(ctx, cid)
    use(ctx, "longstreet:july2", day=False)
    oid = issue_order(
        ctx,
        {
            "side": side,
            "issuer": "longstreet",
            "recipient": "longstreet",
            "corps": cid,
            "kind": "attack",
            "text": "Free attack order (Longstreet Moves to the Right)",
            "status": "transit",
            "issued_at": stamp(t),
            "arrive_at": None,
            "pending_delay": 0,
            "drag": None,
        },
    )
    accept_order(ctx, oid)
    if not had_attack and not close:
        ctx.set("longstreet.mps", int(params["longstreet_mps"]))
        ctx.instruct(
            f"Longstreet writes one attack order to himself ({oid}, a free initiative) "
            f"and has {params['longstreet_mps']} accumulated MPs for an extended move."
        )
        return "longstreet free order + 24 MPs"
    why = "he already has attack orders" if had_attack else "his troops are within small-arms range"
    ctx.instruct(
        f"Longstreet writes one attack order to himself ({oid}, a free initiative); no "
        f"accumulated MPs because {why}."
    )
    return "longstreet free order"


def _troops_in_small_arms(ctx: Context, cid: str) -> bool:
    """Are any of the corps' troops within small-arms range of an enemy unit? Computed or asked."""
    st = ctx.state
    reach = int(st["params"]["small_arms_range"])
    foes = placed_hexes(st, "union")
    troops = [u for u, d in st["units"].items() if d["corps"] == cid and d["status"] == "in_play"]
    placed = [u for u in troops if unit_hex(st, u)]
    if foes and placed and len(placed) == len(troops):
        return any(within(st, str(unit_hex(st, u)), foes, reach) for u in placed)
    if not troops:
        return False
    ans = ctx.decide(
        "confederate",
        f"Does Longstreet have troops within small-arms range ({reach} hexes) of any enemy unit?",
        [Option("no"), Option("yes")],
        purpose="Longstreet: troops within small-arms range",
    )
    return ans[0] == "yes"


def longstreet_variable_entry(ctx: Context) -> str | None:
    """Seed 000, Longstreet Moves to the Right: the July 1 variable entry roll of a phase.

    'begin rolling for variable entry ... On a 10+, all these units enter at hex A43.01.'
    """
    st = ctx.state
    lst = st["longstreet"]
    if lst["variable"] != "active":
        return None
    params = st["params"]
    t = now(st)
    if t < parse_stamp(str(params["longstreet_variable_from"])) or t <= int(lst["activated_at"]):
        return None
    leaders, units = longstreet_group(st)
    if any(st["units"][u]["status"] != "waiting" for u in units):
        ctx.set("longstreet.variable", "void")
        return no_result(ctx, "Longstreet's units came on normally; the variable entry is void")
    expr = str(params["longstreet_variable_formula"])
    target = int(params["longstreet_variable_target"])
    ctx.say(
        f"Longstreet variable entry: {expr}, {target}+ enters; P = "
        f"{frac(p_at_least(expr, target))}."
    )
    r = ctx.roll(expr, f"Longstreet variable entry ({target}+)")
    if int(r.total) < target:
        ctx.say(f"Rolled {r.total}: Longstreet does not enter this turn.")
        return f"variable entry {r.total}: not yet"
    hex_id = str(params["longstreet_entry_hex"])
    place = bool(placed_hexes(st, "confederate"))
    for lid in leaders:
        if st["leaders"][lid]["status"] == "waiting":
            ctx.set(["leaders", lid, "status"], "active")
    for uid in units:
        ctx.set(["units", uid, "status"], "in_play")
        if place:
            ctx.set(["units", uid, "hex"], hex_id)
    ctx.set("longstreet.variable", "entered")
    lee = st["armies"]["confederate"]["commander"]
    issue_order(
        ctx,
        {
            "side": "confederate",
            "issuer": lee or "lee",
            "recipient": "longstreet",
            "corps": "1",
            "kind": "move",
            "text": "Move to the Army HQ (Longstreet Moves to the Right)",
            "status": "accepted",
            "issued_at": stamp(t),
            "arrive_at": None,
            "pending_delay": 0,
            "drag": None,
            "accepted_at": stamp(t),
        },
    )
    ctx.instruct(
        f"Rolled {r.total}: Longstreet, I Corps HQ and Supply, M/1 and H/1 (minus L/H/1 "
        f"and Bachman/Arty/H/1) enter now at {hex_id} with orders to move to the Army HQ."
    )
    return f"variable entry {r.total}: entered"


def drag_feet(ctx: Context, side: str) -> str:
    """Seed 000, Longstreet Drags his Feet:

    A random corps commander's delayed order is accepted division by division.
    """
    st = ctx.state
    by_cmd: dict[str, list[str]] = {}
    for oid in open_orders(st, side):
        o = st["orders"][oid]
        r = o["recipient"]
        ld = st["leaders"].get(r)
        if ld is not None and ld["post"] == "corps" and in_play(ld) and not o.get("drag"):
            by_cmd.setdefault(r, []).append(oid)
    if not by_cmd:
        return no_result(ctx, "no order to a corps commander is in delay or in transit")
    cmd = ctx.random_choice(
        [Option(c, leader_label(st, c)) for c in by_cmd],
        "Longstreet Drags his Feet: the corps commander",
    )[0]
    orders = by_cmd[cmd]
    oid = (
        orders[0]
        if len(orders) == 1
        else ctx.random_choice(order_options(st, orders), "Longstreet Drags his Feet: the order")[0]
    )
    cid = st["leaders"][cmd]["command"]
    divs = [
        d
        for d in st["corps"][cid]["divisions"]
        if any(st["units"][b]["status"] == "in_play" for b in st["divisions"][d]["brigades"])
    ]
    divs = divs or list(st["corps"][cid]["divisions"])
    ctx.set(["orders", oid, "drag"], {"divisions": divs, "committed": []})
    ctx.instruct(
        f"Longstreet Drags his Feet: order {oid} to {leader_label(st, cmd)} must be "
        f"accepted division by division ({', '.join(divs)}): one roll per turn for the "
        "corps (`umpire cwb order roll`), and each success commits one division of the "
        "player's choice."
    )
    return f"{oid} drag feet"


EVENTS: dict[str, EventFn] = {
    "panic_check": panic_check,
    "sickles": sickles,
    "immediate_acceptance": immediate_acceptance,
    "orders_delay": orders_delay,
    "withdraw_buford": withdraw_buford,
    "ambush": ambush,
    "attack_stoppage": attack_stoppage,
    "longstreet_right": longstreet_right,
    "drag_feet": drag_feet,
}
