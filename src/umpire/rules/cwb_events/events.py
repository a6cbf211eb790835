"""The random events of Seed 000 for both sides, applied through the engine Context.

Every function cites the seed passage it implements. Random picks use
``ctx.random_choice``; player choices use ``ctx.decide`` with the side that the seed
names; every roll goes through ``ctx.roll`` / ``ctx.table`` so its exact odds are logged.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

from umpire.engine import Context, Option
from umpire.errors import IllegalActionError

from .clock import parse_stamp, stamp
from .state import (
    command_label,
    corps_in_play,
    corps_label,
    corps_with_attack_orders,
    enemy,
    in_play,
    leader_label,
    leaders_of,
    now,
    open_orders,
    panic_row,
    param,
    placed_hexes,
    split_known,
    stopped_now,
    today,
    unit_hex,
    unit_label,
    units_in_play,
    usage,
    within,
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


# ------------------------------------------------------------------ leaders, succession
def _new_leader(
    ctx: Context, side: str, post: str, command: str, rating: Any, for_name: str, hex_id: str | None
) -> str:
    n = int(ctx.state["next_repl"])
    ctx.set("next_repl", n + 1)
    lid = f"repl{n}"
    rank = str(dict(param(ctx.state, "replacement_ranks")).get(post, "Col."))
    ctx.set(
        ["leaders", lid],
        {
            "id": lid,
            "name": f"{rank} {lid}, replacing {replaced_surname(for_name)}",
            "side": side,
            "post": post,
            "command": command,
            "rating": rating,
            "original_rating": rating,
            "permanent": False,
            "status": "active",
            "arrives": now(ctx.state),
            "hex": hex_id,
            "promoted_from": None,
            "replaced": None,
            "original_post": post,
            "original_command": command,
        },
    )
    return lid


def replaced_surname(name: str) -> str:
    """Whom a replacement stands for: the surname of the leader he replaces, through any
    earlier replacements (``"Col. repl1, replacing Law"`` -> ``"Law"``; older saves'
    ``"Replacement for Replacement for Law"`` -> ``"Law"``)."""
    tail = name.rpartition("replacing ")[2] if "replacing " in name else name
    words = tail.split()
    return words[-1] if words else name


def redirect_orders(ctx: Context, old: str, new: str | None) -> None:
    """Orders to a leader who left his post (lost or promoted) go to who now holds it
    (seed 000: a lost leader is "immediately replaced"; Drags his Feet and the other events
    then find the order with the corps' commander)."""
    if not new or new == old:
        return
    st = ctx.state
    for oid, o in st["orders"].items():
        if o["recipient"] == old and o["status"] not in ("cancelled", "done", "stopped", "Dt"):
            ctx.set(["orders", oid, "recipient"], new)
            ctx.say(f"Order {oid} ({o['kind']}) now goes to {leader_label(st, new)}.")


def _promote(ctx: Context, lid: str, post: str, command: str, rating: Any) -> None:
    ld = ctx.state["leaders"][lid]
    ctx.set(["leaders", lid, "promoted_from"], ld["command"])
    ctx.set(["leaders", lid, "post"], post)
    ctx.set(["leaders", lid, "command"], command)
    ctx.set(["leaders", lid, "rating"], rating)
    ctx.set(["leaders", lid, "permanent"], False)


def fill_brigade(ctx: Context, bid: str, for_name: str) -> str:
    """A replacement colonel takes the brigade (default ``succession``)."""
    st = ctx.state
    side = st["units"][bid]["side"]
    new = _new_leader(
        ctx, side, "brigade", bid, st["params"]["replacement_brigade_rating"], for_name, None
    )
    ctx.set(["units", bid, "leader"], new)
    return new


def fill_division(ctx: Context, did: str, for_name: str) -> str:
    """The first in-play brigade leader is promoted (a 'promoted brigadier', like Rowley)."""
    st = ctx.state
    div = st["divisions"][did]
    rating = st["params"]["replacement_division_rating"]
    for bid in div["brigades"]:
        blid = st["units"][bid]["leader"]
        if blid and in_play(st["leaders"][blid]) and st["leaders"][blid]["post"] == "brigade":
            name = st["leaders"][blid]["name"]
            _promote(ctx, blid, "division", did, rating)
            ctx.set(["divisions", did, "commander"], blid)
            ctx.say(f"{leader_label(st, blid)} takes command (promoted from the {bid} brigade).")
            new = fill_brigade(ctx, bid, name)
            ctx.say(f"{leader_label(st, new)} takes command.")
            redirect_orders(ctx, str(blid), new)
            return str(blid)
    new = _new_leader(ctx, div["side"], "division", did, rating, for_name, None)
    ctx.set(["divisions", did, "commander"], new)
    ctx.say(f"{leader_label(st, new)} takes command.")
    return new


def fill_corps(ctx: Context, cid: str, for_name: str, cause: str) -> str:
    """The corps' successor or first in-play division commander moves up; cascades down.

    Seed 000, Arrest that General!: a replacement by arrest waives the attack stoppage
    modifier for a lost corps commander (default ``stoppage_modifier``).
    """
    st = ctx.state
    corps = st["corps"][cid]
    ctx.set(["corps", cid, "lost_commander"], cause != "arrested")
    order = list(corps["divisions"])
    succ = corps.get("successor")
    if succ in st["leaders"]:
        cmd = st["leaders"][succ]["command"]
        if cmd in order:
            order.remove(cmd)
            order.insert(0, cmd)
    for did in order:
        dlid = st["divisions"][did]["commander"]
        if dlid and in_play(st["leaders"][dlid]) and st["leaders"][dlid]["post"] == "division":
            ld = st["leaders"][dlid]
            rating = (
                ld["rating"]
                if isinstance(ld["rating"], int)
                else st["params"]["replacement_corps_rating"]
            )
            name = ld["name"]
            _promote(ctx, dlid, "corps", cid, rating)
            ctx.set(["corps", cid, "commander"], dlid)
            ctx.say(f"{leader_label(st, dlid)} takes command (promoted from the {did} division).")
            redirect_orders(ctx, str(dlid), fill_division(ctx, did, name))
            return str(dlid)
    new = _new_leader(
        ctx, corps["side"], "corps", cid, st["params"]["replacement_corps_rating"], for_name, None
    )
    ctx.set(["corps", cid, "commander"], new)
    ctx.say(f"{leader_label(st, new)} takes command.")
    return new


def fill_army(ctx: Context, side: str, for_name: str) -> str | None:
    """Seed 000, Meade/Lee is a Casualty: 'immediately replaced by the ranking corps commander'."""
    st = ctx.state
    army = st["armies"][side]
    ranked = [
        lid
        for lid in army["seniority"]
        if in_play(st["leaders"][lid]) and st["leaders"][lid]["post"] == "corps"
    ]
    ranked += [
        lid
        for lid, ld in st["leaders"].items()
        if ld["side"] == side and ld["post"] == "corps" and in_play(ld) and lid not in ranked
    ]
    if not ranked:
        ctx.set(["armies", side, "commander"], None)
        ctx.instruct(f"The {title(side)} army has no corps commander in play to take command.")
        return None
    lid = ranked[0]
    ld = st["leaders"][lid]
    cid, name = ld["command"], ld["name"]
    was = leader_label(st, lid)
    _promote(ctx, lid, "army", f"army:{side}", ld["rating"])
    ctx.set(["armies", side, "commander"], lid)
    ctx.instruct(
        f"{was}, the ranking corps commander, now commands the "
        f"{command_label(st, 'army', f'army:{side}')}."
    )
    redirect_orders(ctx, str(lid), fill_corps(ctx, cid, name, "promoted"))
    return str(lid)


def lose_leader(ctx: Context, lid: str, status: str) -> None:
    """Remove a leader from play (wounded, killed or arrested) and fill his post.

    The book keeps when he was lost and who took his post (``cwb status`` shows both).
    """
    st = ctx.state
    ld = st["leaders"][lid]
    post, command, name, side = ld["post"], ld["command"], ld["name"], ld["side"]
    ctx.instruct(f"{leader_label(st, lid)} is {status}: remove him from play.")
    ctx.set(["leaders", lid, "status"], status)
    ctx.set(["leaders", lid, "hex"], None)
    ctx.set(["leaders", lid, "lost_at"], stamp(now(st)))
    new: str | None
    if post == "army":
        new = fill_army(ctx, side, name)
    elif post == "corps":
        new = fill_corps(ctx, command, name, status)
    elif post == "division":
        new = fill_division(ctx, command, name)
    else:
        new = fill_brigade(ctx, command, name)
        ctx.say(f"{leader_label(st, new)} takes command.")
    ctx.set(["leaders", lid, "replaced"], new)
    redirect_orders(ctx, lid, new)


def casualty(ctx: Context, lid: str, table: str) -> str:
    """Roll wounded/killed for a leader on ``table`` and apply it."""
    res = ctx.table(table, f"casualty roll for {leader_label(ctx.state, lid)}")
    status = str(res.outcome.effects["status"])
    lose_leader(ctx, lid, status)
    return f"{lid} {status}"


def eligible_leaders(ctx: Context, side: str, ids: list[str], reach: int, what: str) -> list[str]:
    """Seed 000, Random Events and Leader Loss: the leaders within ``reach`` of an enemy unit.

    Computed from positions where known; the rest are put to the owning player.
    """
    known, unknown = split_known(ctx.state, side, ids, reach)
    answered: list[str] = []
    if unknown:
        purpose = f"eligibility: {side} {what} within {reach} hexes"
        answered = ctx.decide(
            side,
            f"Which of these {title(side)} {what} are within {reach} hexes of an enemy unit? "
            "(choose every one that is; none is allowed)",
            [Option(i, leader_label(ctx.state, i)) for i in unknown],
            pick=len(unknown),
            allow_fewer=True,
            purpose=purpose,
        )
        remember(ctx, purpose, answered)
    chosen = set(known) | set(answered)
    return [i for i in ids if i in chosen]


def remember(ctx: Context, purpose: str, answer: list[str]) -> None:
    """Keep an answer about the map for the next time it is asked ("same as before")."""
    ctx.set(["memory", purpose], {"answer": list(answer), "at": stamp(now(ctx.state))})


# ------------------------------------------------------------------ leader table events
def army_casualty(ctx: Context, side: str) -> str:
    """Seed 000, Meade/Lee is a Casualty:

    1-5 wounded, 6 killed; ranking corps commander takes over.
    """
    st = ctx.state
    lid = st["armies"][side]["original"]
    ld = st["leaders"][lid]
    if not in_play(ld) or st["armies"][side]["commander"] != lid:
        return no_result(ctx, f"{leader_label(st, lid)} is not in play or already a casualty")
    return casualty(ctx, lid, "cwb_army_casualty")


def corps_loss(ctx: Context, side: str) -> str:
    """Seed 000, Check for corps commander loss:

    Random in-play permanent corps commander, 1-4 W, 5-6 K.
    """
    cands = leaders_of(ctx.state, side, "corps", permanent=True)
    if not cands:
        return no_result(ctx, "all permanent corps commanders are out of play")
    lid = ctx.random_choice(
        [Option(c, leader_label(ctx.state, c)) for c in cands],
        f"{title(side)} corps commander loss",
    )[0]
    return casualty(ctx, lid, "cwb_leader_casualty")


def _nominated_loss(ctx: Context, side: str, post: str, reach: int) -> str:
    """Seed 000: the enemy chooses two eligible, the owner one, and the loser is drawn at random."""
    st = ctx.state
    what = f"{post} commanders" if post == "division" else f"{post} leaders"
    cands = leaders_of(st, side, post, permanent=True)
    eligible = eligible_leaders(ctx, side, cands, reach, what)
    if not eligible:
        return no_result(ctx, f"no permanent {side} {what} are eligible")
    foe = enemy(side)
    n = min(2, len(eligible))
    picked = ctx.decide(
        foe,
        f"{title(foe)} player: choose {n} eligible {title(side)} "
        f"{what if n > 1 else what[:-1]} for the loss check",
        [Option(i, leader_label(st, i)) for i in eligible],
        pick=n,
        purpose=f"{foe} nominates {what}",
    )
    rest = [i for i in eligible if i not in picked]
    own: list[str] = []
    if rest:
        own = ctx.decide(
            side,
            f"{title(side)} player: choose one eligible {title(side)} {post} leader for the check",
            [Option(i, leader_label(st, i)) for i in rest],
            pick=1,
            purpose=f"{side} nominates one of its {what}",
        )
    nominees = picked + own
    ctx.say("Nominated: " + ", ".join(leader_label(st, i) for i in nominees) + ".")
    lid = ctx.random_choice(
        [Option(i, leader_label(st, i)) for i in nominees], f"draw the affected {post} leader"
    )[0]
    return casualty(ctx, lid, "cwb_leader_casualty")


def division_loss(ctx: Context, side: str) -> str:
    """Seed 000, Check for Divisional commander loss (eligible: within 8 hexes of an enemy unit)."""
    return _nominated_loss(ctx, side, "division", int(ctx.state["params"]["division_loss_range"]))


def brigade_loss(ctx: Context, side: str) -> str:
    """Seed 000, Check for Brigade commander loss (eligible: within 4 hexes of an enemy unit)."""
    return _nominated_loss(ctx, side, "brigade", int(ctx.state["params"]["brigade_loss_range"]))


def arrest(ctx: Context, side: str) -> str:
    """Seed 000, Arrest that General!:

    A random 0-0/0-1 brigade (Union: by 1d6 level) leader is replaced; twice a game.
    """
    st = ctx.state
    key = f"arrest:{side}"
    if usage(st, key, day=False) >= 2:
        return no_result(ctx, "Arrest that General! has already occurred twice this game")
    level = "brigade"
    if side == "union":
        level = str(
            ctx.table("cwb_union_arrest_level", "Arrest that General!: level").outcome.effects[
                "level"
            ]
        )
    if level == "brigade":
        cands = [
            lid
            for lid in leaders_of(st, side, "brigade")
            if st["leaders"][lid]["rating"] in ("0-0", "0-1")
        ]
        what = "0-0 or 0-1 brigade commander"
    else:
        cands = [lid for lid in leaders_of(st, side, level) if st["leaders"][lid]["rating"] == 0]
        what = f"0-rated {level} commander"
    if not cands:
        return no_result(ctx, f"no {what} in play (the use is not spent)")
    lid = ctx.random_choice(
        [Option(c, leader_label(st, c)) for c in cands], f"Arrest that General!: {what}"
    )[0]
    use(ctx, key, day=False)
    lose_leader(ctx, lid, "arrested")
    return f"{lid} arrested"


def friendly_fire(ctx: Context, side: str) -> str:
    """Seed 000, Friendly Fire:

    The enemy picks a unit adjacent to a friend and within 4 of an enemy; 4-6 column.
    """
    st = ctx.state
    foe = enemy(side)
    reach = int(st["params"]["friendly_fire_range"])
    units = units_in_play(st, side, ("brigade", "battery"))
    mine = placed_hexes(st, side)
    foes = placed_hexes(st, foe)
    options: list[Option] = []
    for uid in units:
        h = unit_hex(st, uid)
        if h is None or not foes:
            options.append(Option(uid, unit_label(st, uid) + " (position not tracked)"))
            continue
        others = [x for x in mine if x != h] if mine.count(h) < 2 else list(mine)
        if within(st, h, others, 1) and within(st, h, foes, reach):
            options.append(Option(uid, unit_label(st, uid) + f" at {h}"))
    if not options:
        return no_result(
            ctx, f"no {side} unit is adjacent to a friend and within {reach} hexes of a {foe} unit"
        )
    uid = ctx.decide(
        foe,
        f"{title(foe)} player: choose one {title(side)} unit adjacent to another {title(side)} "
        f"unit and within {reach} hexes of a {title(foe)} unit, to suffer Friendly Fire",
        options,
        purpose="Friendly Fire target",
    )[0]
    res = ctx.table("cwb_friendly_fire", "Friendly Fire on the 4-6 column")
    halves = int(res.outcome.effects["halves"])
    steps = halves // 2
    if halves % 2:
        kept = ctx.table("cwb_half_step", "Friendly Fire: is the half step kept?")
        steps += 1 if kept.outcome.effects["keep"] else 0
    eid = add_effect(
        ctx,
        {
            "kind": "friendly_fire",
            "side": side,
            "unit": uid,
            "by": foe,
            "steps": steps,
            "checks": None,
        },
    )
    ctx.instruct(
        f"Friendly Fire on {unit_label(st, uid)}: {steps} step loss{'es' if steps != 1 else ''} "
        f"({res.outcome.text}, 4-6 column); ignore low ammo; check stragglers and morale as if "
        f"it were a flank attack. {title(side)} player: record the results "
        f"(`umpire cwb checks {eid} --stragglers N --morale RESULT`)."
    )
    return f"{uid} loses {steps}"


def record_checks(ctx: Context, eid: str, stragglers: int, morale: str) -> None:
    """Seed 000, Friendly Fire: 'Check stragglers and morale normally, as if it were a flank
    attack': the owner rolls them on his charts; the book keeps the result."""
    st = ctx.state
    i, effect = find_effect(st, eid, "friendly_fire")
    if effect["checks"] is not None:
        raise IllegalActionError(f"the checks of {eid} are already recorded ({effect['checks']})")
    results = [str(r) for r in param(st, "morale_results")]
    if morale not in results:
        raise IllegalActionError(
            f"unknown morale result '{morale}' (results: {', '.join(results)})"
        )
    if stragglers < 0:
        raise IllegalActionError(f"stragglers must be 0 or more, not {stragglers}")
    checks = {"stragglers": stragglers, "morale": morale}
    ctx.set(["effects", i, "checks"], checks)
    ctx.say(
        f"Friendly Fire on {unit_label(st, effect['unit'])}: {stragglers} straggler"
        f"{'s' if stragglers != 1 else ''}, morale: {morale} (recorded)."
    )


def find_effect(st: S, eid: str, kind: str) -> tuple[int, S]:
    """The effect in force with id ``eid`` and its index, or a one-line refusal."""
    for i, e in enumerate(st["effects"]):
        if e.get("id") == eid:
            if e["kind"] != kind:
                raise IllegalActionError(f"effect {eid} is {e['kind']}, not {kind}")
            return i, e
    known = ", ".join(f"{e['id']} ({e['kind']})" for e in st["effects"] if e.get("id")) or "none"
    raise IllegalActionError(f"no effect '{eid}' in force (in force: {known})")


def _movement(ctx: Context, side: str, mover: str) -> str:
    """Seed 000, Owning/Enemy player random movement (reading ``random_movement``)."""
    st = ctx.state
    count = int(param(st, "random_move_regiments"))
    reach = int(param(st, "random_move_hexes"))
    eid = add_effect(
        ctx,
        {
            "kind": "random_movement",
            "side": side,
            "mover": mover,
            "count": count,
            "hexes": reach,
            "regiments": [],
        },
    )
    ctx.instruct(
        f"{title(mover)} player: move two {title(side)} regiments anywhere on the map up to 3 "
        "hexes each. They may end outside command radius (and stay so this turn) and may move "
        "adjacent to enemy units, but not through hexes with enemy units. Record which "
        f"(`umpire cwb moved {eid} REGIMENT REGIMENT`)."
    )
    return f"{mover} moves two {side} regiments"


def record_movement(ctx: Context, eid: str, regiments: list[str]) -> None:
    """Seed 000, random movement: 'move two of his regiments anywhere on the board up to 3
    hexes': the book keeps which regiments the mover moved."""
    st = ctx.state
    i, effect = find_effect(st, eid, "random_movement")
    if effect["regiments"]:
        raise IllegalActionError(
            f"the regiments of {eid} are already recorded ({', '.join(effect['regiments'])})"
        )
    names = [r.strip() for r in regiments if r.strip()]
    count = int(effect["count"])
    if not 1 <= len(names) <= count:
        raise IllegalActionError(f"{eid} moves 1 to {count} regiments, not {len(names)}")
    if len({n.lower() for n in names}) != len(names):
        raise IllegalActionError(f"a regiment is named twice for {eid}")
    ctx.set(["effects", i, "regiments"], names)
    ctx.say(
        f"Random movement {eid}: the {title(effect['mover'])} player moves "
        f"{', '.join(names)} ({title(effect['side'])}) up to {effect['hexes']} hexes (recorded)."
    )


def owner_movement(ctx: Context, side: str) -> str:
    """Seed 000, Owning player random movement:

    The owner moves two of his regiments up to 3 hexes.
    """
    return _movement(ctx, side, side)


def enemy_movement(ctx: Context, side: str) -> str:
    """Seed 000, Enemy player random movement: 'Same as above, except that the' enemy moves them."""
    return _movement(ctx, side, enemy(side))


LEADER_EVENTS: dict[str, EventFn] = {
    "army_casualty": army_casualty,
    "corps_loss": corps_loss,
    "division_loss": division_loss,
    "brigade_loss": brigade_loss,
    "arrest": arrest,
    "friendly_fire": friendly_fire,
    "owner_movement": owner_movement,
    "enemy_movement": enemy_movement,
}


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


def run_phase(ctx: Context, side: str) -> S:
    """Seed 000, Checking for Random Events:

    The phasing side rolls its own table, last in the Command Phase.
    """
    st = ctx.state
    if st["game_over"]:
        raise IllegalActionError(f"the game is over ({st['game_over']})")
    turn_side = st["clock"]["side"]
    if side != turn_side:
        raise IllegalActionError(
            f"it is the {title(turn_side)} player turn ({stamp(now(st))}): no {title(side)} "
            "random event can occur now"
        )
    if st["clock"]["phase_done"]:
        raise IllegalActionError(
            f"the {title(side)} random events of {stamp(now(st))} have already been rolled "
            "(use `umpire cwb next` to go on)"
        )
    record: S = {"at": stamp(now(st)), "side": side}
    if side == "confederate":
        entry = longstreet_variable_entry(ctx)
        if entry is not None:
            record["variable_entry"] = entry
    res = ctx.table(f"cwb_{side}_events", f"{title(side)} Random Event Table")
    event = str(res.outcome.effects["event"])
    record.update(roll=res.steps[0].raw, row=res.outcome.id, event=event)
    if event == "consult_leader":
        lres = ctx.table(f"cwb_{side}_leader", f"{title(side)} Leader Table")
        levent = str(lres.outcome.effects["event"])
        record.update(leader_roll=lres.steps[0].raw, leader_event=levent)
        record["result"] = LEADER_EVENTS[levent](ctx, side)
    else:
        record["result"] = EVENTS[event](ctx, side)
    ctx.append("history", record)
    ctx.set("clock.phase_done", True)
    return record
