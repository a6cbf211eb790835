"""Seed 003 in battle: charges (XII.H) and hand-to-hand (XV): who may charge, the
odds of reaching and of the target giving way, contact, and the melee itself.

Split from ``steps`` (issue 25); the rulings are in ``melee`` and ``h2h``.
"""

from __future__ import annotations

import math
from fractions import Fraction
from functools import cache
from operator import truediv
from typing import TYPE_CHECKING

from umpire.battle.effects import fx, fx_why
from umpire.board.fmath import hypot as _hypot
from umpire.dice.luck import Dist, by_faces
from umpire.errors import IllegalActionError
from umpire.rules.action_reaction import melee as M
from umpire.rules.action_reaction import menu_odds as MO
from umpire.rules.action_reaction import movement as MV
from umpire.rules.action_reaction import officers as O
from umpire.rules.action_reaction.firing import (
    may_fire,
    volley,
)
from umpire.rules.action_reaction.ground import (
    clear_field,
    obstacles,
    stop_short,
    terrain_cost,
)
from umpire.rules.action_reaction.h2h import loser_odds
from umpire.rules.action_reaction.marks import (
    KEY,
    OWN_MORALE,
    _held,
    book,
    cfg,
    d10,
    dice_total,
    held_d10,
    move_limit,
    odds,
    react,
    say,
    take_hits,
    troop,
)
from umpire.rules.action_reaction.moving import (
    allowance,
)

if TYPE_CHECKING:
    from umpire.battle.engine import Battle
    from umpire.battle.state import Unit


def charge_dice(u: Unit) -> list[tuple[int, int]]:
    """XII.H.3-4 dice (count, sides) per roll; IllegalActionError for other pieces."""
    try:
        return M.charge_dice(troop(u), u.formation, u.stands)
    except ValueError as exc:
        raise IllegalActionError(f"{u.name}: {exc}") from None


def charge_roll_dist(n: int, sides: int) -> Dist:
    """XII.H.3-4: the exact inches one charge roll adds (reading ``d10_zero``: a column's
    d10 reads 0 to 9), for the luck report (issue 24)."""
    if sides == 10:
        return by_faces(n, 10, lambda f: sum(f) % 10)
    return dice_total(n, sides)


def may_charge(b: Battle, u: Unit, t: Unit) -> str:
    """Why ``u`` may not charge ``t`` ("" if it may): reading ``charges_only_foot_and_horse``."""
    return (
        may_charge_now(b, u) or may_see_to_charge(b, u, t) or may_reach(b, u, t, max_charge(b, u))
    )


def may_charge_now(b: Battle, u: Unit) -> str:
    """The part of :func:`may_charge` about ``u`` alone (its troop, order and marks): a
    menu asks it once, then :func:`may_see_to_charge` and :func:`may_reach` for each
    enemy."""
    if troop(u) == "other":
        return f"{u.name} may not charge: no other pieces may charge (003 XII.H.5)"
    if u.formation not in ("line", "column"):
        return f"{u.name} may not charge in {u.formation} order: a charge is in line or column"
    bk = book(b, u)
    if move_limit(b, u) != "free" or bk.get("disr") or bk.get("prone"):
        return f"{u.name} may not charge now (routed, stalled, in reaction, disrupted or prone)"
    if u.extra and fx(u, "no_charge"):
        return f"{u.name} may not charge this turn ({fx_why(u, 'no_charge')})"
    return ""


def may_see_to_charge(b: Battle, u: Unit, t: Unit) -> str:
    """The part of :func:`may_charge` about seeing the target ``t``: an enemy on the table
    in ``u``'s front and sight."""
    if not t.alive or t.side == u.side:
        return f"{u.name} may only charge an enemy unit on the table"
    if not (b.in_arc(u, t) and b.sees(u, t)):
        return f"{u.name} cannot see {t.name} in its front"
    return ""


def may_reach(b: Battle, u: Unit, t: Unit, longest: float) -> str:
    """The part of :func:`may_charge` about reaching ``t`` seen: within ``u``'s longest
    charge (``longest``, :func:`max_charge`) and nothing in the way."""
    if b.dist(u.i, t.i) > longest + 1e-9:
        return f"{t.name} is beyond {u.name}'s longest charge ({longest:.0f}\")"
    v = path_blocker(b, u, t)
    if v is not None:
        return f"{u.name} cannot charge {t.name}: {v.name} is in the way"
    return ""


def path_blocker(b: Battle, u: Unit, t: Unit) -> Unit | None:
    """Reading ``charge_path_clear``: the first base (not ``t``'s) on ``u``'s straight path
    to contact with ``t``, or None (steps of the charger's own depth, so none is missed)."""
    x, y, th = contact_spot(u, t)
    dx, dy = x - u.x, y - u.y
    dist = _hypot(dx, dy)
    if dist <= 1e-9:
        return None
    step = max(0.25, 2 * u.hd)
    n = math.ceil(dist / step)
    for k in range(1, n + 1):
        f = min(1.0, k * step / dist)
        for v in b.bases_at(u, u.x + dx * f, u.y + dy * f, th):
            if v.i != t.i:
                return v
    return None


def max_charge(b: Battle, u: Unit) -> float:
    """The longest a charge could go: the move plus the highest die."""
    return longest_charge(charge_dice(u), allowance(b, u, u.formation, u.mounted, u.limbered))


def longest_charge(dice: list[tuple[int, int]], base: float) -> float:
    """:func:`max_charge` of a unit whose charge dice and move (``base``) are known."""
    n, sides = dice[0]
    return base + n * sides


@cache
def _max_at_least(rolls: int, n: int, sides: int, need: int) -> Fraction:
    """P(the highest of ``rolls`` sums of ``n``d``sides`` is at least ``need``)."""
    from umpire.dice import parse

    dist = parse(f"{n}d{sides}").distribution()
    below = sum((Fraction(p) for v, p in dist if int(v) < need), Fraction(0))
    return 1 - below**rolls


def reach_odds(b: Battle, u: Unit, t: Unit) -> Fraction:
    """Exact P(the charge reaches): the centre die covers the gap (XII.H) through the
    terrain on the front's path, each obstacle's die folded in (XVI, ``menu_odds``)."""
    return reach_odds_of(
        b, u, t, charge_dice(u), allowance(b, u, u.formation, u.mounted, u.limbered)
    )


def reach_odds_of(
    b: Battle, u: Unit, t: Unit, dice: list[tuple[int, int]], base: float
) -> Fraction:
    """:func:`reach_odds` with ``u``'s charge dice and allowance given (a menu works them
    out once for every enemy it offers)."""
    n, sides = dice[0]
    gap = b.dist(u.i, t.i)
    met = charge_terrain(b, u, t)
    if met:
        return MO.reach_odds_through(tuple(dice), base, gap, met)
    need = math.ceil(gap - base - 1e-9)
    if need <= (0 if sides == 10 else n):
        return Fraction(1)
    if sides == 10:  # a column's d10 shows 0-9
        return Fraction(max(0, 10 - need), 10)
    return _max_at_least(len(dice), n, sides, need)


def charge_terrain(b: Battle, u: Unit, t: Unit) -> tuple[tuple[float, str], ...]:
    """XVI on ``u``'s charge at ``t``: the obstacles its front meets, as it meets them."""
    if not MV.deductions_apply(u.type, u.formation, u.mounted, u.limbered):
        return ()
    return tuple(obstacles(b, u, *charge_path_end(u, t), t))


def give_way_odds(b: Battle, u: Unit, t: Unit) -> tuple[Fraction, Fraction]:
    """Exact (P(``t`` gives way), P(``t`` fires)) when ``u``'s charge reaches it: it reacts
    (XIII.A.2, reading ``cheer_and_hear``), rolls the d10 list (XIII.B.1), and its officers
    may hold it (XIII.B.2, reading ``any_officer_rallies``; when the scenario names another
    morale test, by that test's odds)."""
    morale = b.comp.morale
    if morale.id == OWN_MORALE:
        return odds(b, _give_way, clear_field(b, u, t), int(book(b, t)["off"]))
    hold = morale.pass_odds(b, t, "stands") if book(b, t)["off"] else Fraction(0)
    return _held_or_not(clear_field(b, u, t), hold)


def _give_way(clear: bool, officers: int) -> tuple[Fraction, Fraction]:
    """:func:`give_way_odds` from what it reads: a clear field, the defender's officers."""
    return _held_or_not(clear, O.rally_odds(officers))


def _held_or_not(clear: bool, hold: Fraction) -> tuple[Fraction, Fraction]:
    """:func:`give_way_odds` from a clear field and P(the defender's officers hold it)."""
    p = M.reacts_odds(clear)
    ro = M.reaction_odds()
    away = ro.get("retreat", Fraction(0)) + ro.get("withdraw", Fraction(0))
    return p * away * (1 - hold), p * ro.get("fire", Fraction(0))


@cache
def _strike_odds(n: int, m: int) -> dict[str, Fraction]:
    """:func:`loser_odds` kept (the charge menus ask it for every reach)."""
    return loser_odds(n, m)


@cache
def _strike_parts(n: int, m: int) -> tuple[int, int, int, int, float]:
    """(defender's numerator and denominator, attacker's, the defender's as a float) of
    :func:`_strike_odds`."""
    strike = _strike_odds(n, m)
    d, a = strike["defender"], strike["attacker"]
    return d.numerator, d.denominator, a.numerator, a.denominator, float(d)


def _charge_numbers(
    reach: Fraction, away: Fraction, n: int, m: int
) -> tuple[float, float, float, float]:
    """(P(win), P(reach), P(the defender wins the first strike), the attacker's losing
    chance) of a charge as floats: the exact products :func:`charge_choice` offers.

    Each product is rounded once from its whole numbers, unreduced (``truediv`` of two
    ints is correctly rounded, as ``float(Fraction)`` is; the compiled build's ``/`` of
    two machine ints is not): the same floats without the Fractions' greatest common
    divisors, which were the menu's dearest part (a reach's denominator is large)."""
    dn, dd, an, ad, first = _strike_parts(min(n, 12), min(m, 12))
    rn, rd = reach.numerator, reach.denominator
    kn, kd = away.denominator - away.numerator, away.denominator  # 1 - away
    return (
        truediv(rn * kn * dn, rd * kd * dd),
        first,
        truediv(rn, rd),
        truediv(rn * kn * an, rd * kd * ad),
    )


def contact_spot(u: Unit, t: Unit) -> tuple[float, float, float]:
    """Where ``u`` stands when its front touches ``t``'s: straight at ``t``'s centre."""
    dx, dy = t.x - u.x, t.y - u.y
    d = _hypot(dx, dy) or 1.0
    th = math.atan2(dy, dx)
    gap = d - (t.hd + u.hd)
    return u.x + dx / d * max(0.0, gap), u.y + dy / d * max(0.0, gap), th


def charge_path_end(u: Unit, t: Unit) -> tuple[float, float]:
    """The end of the front's path to the defender's line (XVI's terrain is met on it)."""
    x, y, _ = contact_spot(u, t)
    d = _hypot(x - u.x, y - u.y)
    if d > 1e-9:  # the front's path to the defender's line, not the ground under it
        x, y = x + (x - u.x) / d * (u.hd + 0.1), y + (y - u.y) / d * (u.hd + 0.1)
    return x, y


def contact_place(b: Battle, u: Unit, t: Unit) -> str:
    """Move ``u`` along the line of the charge until its front meets ``t``'s
    (:func:`contact_spot`). Another base on the way stops it before that base; where the
    contact spot overlaps ``t``'s corners (met at an angle) it backs to the first free spot.
    "" when it reached ``t`` (hand-to-hand follows); else why it stopped, naming the unit
    in the way (the charge is then over)."""
    x, y, th = contact_spot(u, t)
    x0, y0 = u.x, u.y
    dx, dy = x - x0, y - y0
    dist = _hypot(dx, dy)
    step = b.geo["retreat_step"]
    if dist > 1e-9:
        dx, dy = dx / dist, dy / dist
        k = 1
        while (k - 1) * step < dist:
            d = min(dist, k * step)
            others = [v for v in b.bases_at(u, x0 + dx * d, y0 + dy * d, th) if v.i != t.i]
            if others:
                back = max(0.0, d - step)
                if b.free_at(u, x0 + dx * back, y0 + dy * back, th, u.hw, u.hd):
                    b.place(u, x0 + dx * back, y0 + dy * back, th)
                return f'{others[0].name} is in the way ({dist - back:.1f}" short)'
            k += 1
    d = 0.0
    while not b.free_at(u, x - dx * d, y - dy * d, th, u.hw, u.hd):
        if d >= dist:
            return ""  # only ``t`` in the way: it stays where it is, in hand-to-hand
        d = min(dist, d + 0.1)
    b.place(u, x - dx * d, y - dy * d, th)
    return ""


def mark_charge(b: Battle, u: Unit, t: Unit, centre: float) -> None:
    """XIII.A.1 'places a marker at the farthest point of advance, and places a marker where
    the charge will end should the attacker be successful' (reading ``charge_markers``):
    both on the line of the charge, in ``state.extra["ar"]["markers"]`` and the narrative."""
    x, y, _ = contact_spot(u, t)
    dx, dy = t.x - u.x, t.y - u.y
    d = _hypot(dx, dy) or 1.0
    gap = b.dist(u.i, t.i)
    reach = max(0.0, centre)
    fx_, fy = u.x + dx / d * reach, u.y + dy / d * reach
    st = b.state.extra.setdefault(KEY, {})
    marks = [m for m in st.get("markers", []) if m["unit"] != u.id]
    marks.append({"unit": u.id, "kind": "farthest", "x": fx_, "y": fy, "turn": b.state.turn})
    marks.append({"unit": u.id, "kind": "charge_end", "x": x, "y": y, "turn": b.state.turn})
    st["markers"] = marks
    beyond = reach - gap
    say(
        b,
        f"  markers: farthest advance at ({fx_:.1f}, {fy:.1f}), "
        + (f"{beyond:.1f}\" beyond {t.name}'s line" if beyond >= 0 else f'{-beyond:.1f}" short')
        + f"; the charge ends at ({x:.1f}, {y:.1f}) if it succeeds",
    )


def resolve_charge(b: Battle, u: Unit, t: Unit) -> None:
    """XII.H, XIII and XIV for one announced charge."""
    if not (u.alive and t.alive):
        return
    dice = charge_dice(u)
    base = allowance(b, u, u.formation, u.mounted, u.limbered)
    rolls = []
    for n, sides in dice:
        r = sum(b.roll(n, sides, f"{u.name} charges {t.name}: {n}d{sides}"))
        rolls.append(r % 10 if sides == 10 else r)  # reading d10_zero: a column's 0 is 0
        if b.luck is not None:  # XII.H.3-4: the farther the dice carry it, the better
            b.note(u.side, "charge dice", rolls[-1], charge_roll_dist(n, sides))
    arranged = M.centre_out(rolls)
    x, y = charge_path_end(u, t)
    cross = terrain_cost(b, u, x, y, base + max(arranged), t)
    ded = base + max(arranged) - cross.left
    dists = [base - ded + r for r in arranged]
    centre = max(dists)
    gap = b.dist(u.i, t.i)
    words = cross.words
    say(
        b,
        f'{u.name} charges {t.name} ({gap:.1f}" away): dice {arranged}, '
        f'{centre:.1f}" at the centre' + (f" ({', '.join(words)})" if words else ""),
    )
    u.charged = True
    b.record(u)
    mark_charge(b, u, t, centre)
    if cross.stop is not None:
        x, y, _ = contact_spot(u, t)
        stop_short(b, u, x, y, cross.stop)
        book(b, u)["still"] = b.state.turn
        b.record(u)
        say(b, f"  the charge of {u.name} halts short of {t.name}: {cross.why}")
        return
    if centre < gap:
        k = max(0.0, centre) / max(gap, 1e-9)
        x, y, th = contact_spot(u, t)
        nx, ny = u.x + (x - u.x) * k * 0.95, u.y + (y - u.y) * k * 0.95
        if b.free_at(u, nx, ny, th, u.hw, u.hd):
            b.place(u, nx, ny, th)
        say(b, f"  the charge falls short of {t.name}")
        return
    pieces = max(1, sum(1 for d in dists if d >= gap)) if u.formation == "line" else u.stands
    farthest = centre - gap
    # XIII.A.2 and B: the cheer, the hearing and the defender's reaction.
    cheer, hear = d10(b, 2, f"{u.name} cheers? {t.name} hears? (2d10, even)")
    reacts = M.reacts(cheer, hear, clear_field(b, u, t))
    say(
        b,
        f"  {u.name} {'cheers' if cheer % 2 == 0 else 'charges in silence'} ({cheer}); "
        f"{t.name} {'reacts' if reacts else 'will not react until struck'} ({hear})",
    )
    tb = book(b, t)
    if reacts:
        what, inches = M.reaction(d10(b, 1, f"{t.name}'s reaction to the charge (1d10)")[0])
        if b.luck is not None:  # XIII.B.1.(1): the charged unit holds
            b.note(t.side, "reactions held", int(_held(what)), held_d10())
        if what in ("retreat", "withdraw") and tb["off"] and b.comp.morale.test(b, t, "stands"):
            what, inches = "none", 0
        if what == "fire":
            b.comp.status.on_setback(b, t, "fire_reaction", u)
            say(b, f"  {t.name} fires on the charge")
            if may_fire(b, t):
                volley(b, t, u, reaction=True)
            broken = charge_broken(b, u)
            if broken:
                say(b, f"  the charge of {u.name} is broken by the fire ({broken}): no melee")
                return
        elif what in ("retreat", "withdraw"):
            react(b, t, what, inches, u)
            farthest -= inches
            if farthest < 0 or not t.alive:
                say(b, f"  {u.name} halts at its farthest point of advance")
                return
    if not (u.alive and t.alive):
        return
    blocked = contact_place(b, u, t)
    if blocked:
        say(b, f"  the charge of {u.name} halts short of {t.name}: {blocked}")
        return
    melee(b, u, t, pieces, farthest)


def charge_broken(b: Battle, u: Unit) -> str:
    """Reading ``charge_broken_by_fire``: why the defender's reaction fire stopped ``u``'s
    charge ("" if it goes on): gone, routed or stalled, or held back by its loss roll (it
    withdrew or went prone: in reaction, or a status that forbids the advance)."""
    if not u.alive:
        return "no pieces left"
    bk = book(b, u)
    if bk.get("rout"):
        return "it routs"
    if bk.get("stall"):
        return "it stalls"
    if move_limit(b, u) != "free":
        return (b.comp.status.label(u) or "held").lower()
    return ""


def melee(
    b: Battle, u: Unit, t: Unit, pieces: int, farthest: float, struck: frozenset[int] = frozenset()
) -> None:
    """XIV: strikes in line until the attacker loses or reaches its farthest advance; in
    column one strike, and the column pierces the line (XIV.B.2). Disruption by reading
    ``melee_disruption``: the side that loses a strike; both sides when both suffered hits."""
    column = u.formation == "column"
    strikes = 0
    hurt = {"attacker": False, "defender": False}  # who suffered hits in this melee
    while u.alive and t.alive:
        strikes += 1
        if column:
            n, m = M.column_dice(t.stands)
        else:
            n, m = pieces, min(t.stands, pieces + 1)
        n += int(fx(u, "extra_die") or 0) if u.extra else 0
        a = b.roll(n, 6, f"hand-to-hand: {u.name} (attacker, {n}d6)")
        if b.luck is not None:  # XIV.A.3, reading luck_tallies: each side's own dice, total
            b.note(u.side, "hand-to-hand dice", sum(a), dice_total(n, 6))
        d = b.roll(m, 6, f"hand-to-hand: {t.name} (defender, {m}d6)")
        if b.luck is not None:
            b.note(t.side, "hand-to-hand dice", sum(d), dice_total(m, 6))
        s = M.strike(a, d)
        say(
            b,
            f"  hand-to-hand {strikes}: {sorted(a, reverse=True)} against "
            f"{sorted(d, reverse=True)}: {s.attacker_hits} to {s.defender_hits}",
        )
        hurt["defender"] = hurt["defender"] or s.attacker_hits > 0
        hurt["attacker"] = hurt["attacker"] or s.defender_hits > 0
        take_hits(b, t, s.attacker_hits, f"hand-to-hand with {u.name}")
        take_hits(b, u, s.defender_hits, f"hand-to-hand with {t.name}")
        if s.loser == "attacker":
            disrupt(b, u, t)  # XIV.A.3.a.(6)-(7), XIV.B.3: back 3" and a red marker
            if u.alive:
                b.comp.combat.displace(b, u, t, 3.0, False, "back")
            break
        if not s.loser:
            say(b, f"  neither side gives way ({'equal hits' if s.attacker_hits else 'no hits'})")
            break
        disrupt(b, t, u)
        if column:
            # XIV.B.d: 'The defender will place a red disrupted marker on the unit and create
            # a hole for the attacker to pass through' - it does not back up.
            say(b, f"  {u.name} pierces the line of {t.name} through the hole")
            if u.alive:
                pierce(b, u, farthest, struck | {t.i})
            return
        if t.alive:
            b.comp.combat.displace(b, t, u, 3.0, False, "back")
        if not (u.alive and t.alive):
            break
        # XIV.A.3.b.(2): the attacker follows while the defender has not passed its
        # farthest point of advance (a defender that also routed may be out of reach).
        gap = b.dist(u.i, t.i)
        if gap > farthest + 1e-9:
            th = math.atan2(t.y - u.y, t.x - u.x)
            if farthest > 0:
                b.slide(u, math.cos(th), math.sin(th), farthest, u.theta)
            say(b, f"  {u.name} reaches its farthest point of advance")
            break
        farthest -= gap
        blocked = contact_place(b, u, t)
        if blocked:
            say(b, f"  {u.name} cannot follow {t.name}: {blocked}")
            break
    if hurt["attacker"] and hurt["defender"]:
        # XIV.A.3.b 'If both players suffer hits ... (3) At that point both players place
        # red disrupted markers by their units.'
        disrupt(b, u, t)
        disrupt(b, t, u)


def pierce(b: Battle, u: Unit, farthest: float, struck: frozenset[int]) -> None:
    """XIV.B.2: 'The attacker pierced the opponent's line and continues forward until
    reaching the point of advance or striking another unit': hand-to-hand with the next
    enemy ahead within the advance left (a), else a halt there, disrupted (b; reading
    ``column_pierces``: the hole lets it through the broken line, no other base)."""
    dx, dy = math.cos(u.theta), math.sin(u.theta)
    ahead: list[tuple[float, Unit]] = []
    for v in b.state.units:
        if not v.alive or v.side == u.side or v.i in struck:
            continue
        along = (v.x - u.x) * dx + (v.y - u.y) * dy
        aside = abs((v.y - u.y) * dx - (v.x - u.x) * dy)
        gap = along - u.hd - v.hd
        if along > 0 and aside <= u.hw + v.hw and gap <= farthest:
            ahead.append((gap, v))
    if ahead:
        gap, v = min(ahead, key=lambda p: (p[0], p[1].i))
        x, y, th = contact_spot(u, v)
        if b.free_at(u, x, y, th, u.hw, u.hd, ignore=tuple(struck)):
            b.place(u, x, y, th)
            say(b, f"  {u.name} strikes {v.name}")
            melee(b, u, v, u.stands, farthest - max(0.0, gap), struck)
            clear_of_hole(b, u)
            return
    nx, ny = u.x + dx * max(0.0, farthest), u.y + dy * max(0.0, farthest)
    if farthest > 0 and b.free_at(u, nx, ny, u.theta, u.hw, u.hd):
        b.place(u, nx, ny, u.theta)
        say(b, f'  {u.name} goes on {farthest:.1f}" to its point of advance')
    else:
        b.slide(u, dx, dy, max(0.0, farthest), u.theta)
        clear_of_hole(b, u)
        say(b, f"  {u.name} halts at its point of advance")
    if cfg(b)["charge_halt_disrupts"]:
        disrupt(b, u, u)


def clear_of_hole(b: Battle, u: Unit) -> None:
    """Reading ``column_pierces``: the hole lets a column through a broken line, not stand
    in it. A column that halts (or is thrown back) while still on a base it pierced goes to
    the nearest free spot on its line (back first, as a point of advance on the line halts
    it short).
    """
    if b.free_at(u, u.x, u.y, u.theta, u.hw, u.hd):
        return
    dx, dy = math.cos(u.theta), math.sin(u.theta)
    step, limit = 0.1, 4 * (u.hd + u.hw) + 24.0
    d = step
    while d <= limit:
        for sign in (-1.0, 1.0):  # back first (where it came from), then on
            nx, ny = u.x + sign * dx * d, u.y + sign * dy * d
            if b.free_at(u, nx, ny, u.theta, u.hw, u.hd):
                b.place(u, nx, ny, u.theta)
                return
        d += step


def disrupt(b: Battle, u: Unit, frm: Unit) -> None:
    """A red disruption marker (XIV), put on by the mounted status (``disrupted``)."""
    if u.alive and not book(b, u).get("disr"):
        say(b, f"  {u.name} is disrupted")
        b.comp.status.on_setback(b, u, "disrupted", frm)
