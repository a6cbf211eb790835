"""Seed 000's leader events: casualties and arrests, who fills a lost leader's place,
friendly fire and the movement events, each citing its seed passage.

Split from ``events`` (issue 25).
"""

from __future__ import annotations

from typing import Any

from umpire.engine import Context, Option
from umpire.errors import IllegalActionError

from .clock import stamp
from .event_kit import (
    EventFn,
    add_effect,
    find_effect,
    no_result,
    title,
    use,
)
from .state import (
    command_label,
    enemy,
    in_play,
    leader_label,
    leaders_of,
    now,
    param,
    placed_hexes,
    split_known,
    unit_hex,
    unit_label,
    units_in_play,
    usage,
    within,
)


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
