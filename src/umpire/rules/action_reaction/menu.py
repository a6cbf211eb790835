"""Seed 003's menus (issue 23): every legal order in words with its exact odds, every
modifier known when the menu is drawn folded in (``menu_odds``), and why each entry reads
as it does (the combat role's ``explain`` seam): the allowance and what cut it, who may
fire and why, what the stick's number means, what is not yet known.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction
from typing import TYPE_CHECKING

from umpire.battle import orders as od
from umpire.battle.roles import Choice, Offer, Request, choices
from umpire.board.fmath import hypot as _hypot
from umpire.errors import IllegalActionError
from umpire.rules.action_reaction import artillery as ART
from umpire.rules.action_reaction import melee as M
from umpire.rules.action_reaction import menu_odds as MO
from umpire.rules.action_reaction import movement as MV
from umpire.rules.action_reaction.charging import (
    _charge_numbers,
    charge_dice,
    charge_terrain,
    give_way_odds,
    longest_charge,
    may_charge,
    may_charge_now,
    may_reach,
    may_see_to_charge,
    reach_odds,
    reach_odds_of,
)
from umpire.rules.action_reaction.firing import (
    effects_mod,
    fire_line,
    known_deductions,
    later_canister,
    may_fire,
    rounds,
    targets,
)
from umpire.rules.action_reaction.ground import downhill_most, fog_at, obstacles
from umpire.rules.action_reaction.marks import book, cfg, fog, move_limit, troop
from umpire.rules.action_reaction.moving import (
    CHANGES,
    after_change,
    allowance,
    change_refused,
    check_move,
)
from umpire.rules.action_reaction.steps import FireStep

if TYPE_CHECKING:
    from umpire.battle.engine import Battle
    from umpire.battle.state import Unit


def known_fire(b: Battle, u: Unit, t: Unit) -> tuple[int, tuple[str, ...], str]:
    """(fixed deduction, walls whose die decides theirs, the words) of ``u``'s fire at
    ``t`` known now: :func:`known_deductions` and the effects (issue 23: the menu's odds
    hold every modifier known when it is drawn)."""
    found = known_deductions(b, u, t)
    fixed, rolled = _known_sums(u, found)
    return fixed, rolled, _known_words(u, found)


def _known_sums(u: Unit, found: list[tuple[int | None, str]]) -> tuple[int, tuple[str, ...]]:
    """:func:`known_fire`'s numbers: the fixed deduction and the walls whose die decides."""
    fixed, rolled = -effects_mod(u, False), []
    for v, what in found:
        if v is None:
            rolled.append(what)
        else:
            fixed += v
    return fixed, tuple(rolled)


def _known_words(u: Unit, found: list[tuple[int | None, str]]) -> str:
    """:func:`known_fire`'s words (made only when a menu line is read)."""
    from umpire.rules.action_reaction import terrain as T

    words = []
    for v, what in found:
        if v is None:
            words.append(f"-1d{T.fire_die(what)} {what.replace('_', ' ')}")
        else:
            words.append(f"-{v} {what}")
    if effects_mod(u, False):
        words.append(f"{effects_mod(u, False):+d} effects")
    return " ".join(words)


def fire_choices(b: Battle, u: Unit) -> list[Choice]:
    """Every legal fire order with its exact expected hits (and pieces, at 3 hits a piece),
    every deduction known now folded in (a wall's die over its faces, ``menu_odds``)."""
    return [o.choice() for o in fire_offers(b, u)]


def fire_offers(b: Battle, u: Unit) -> list[Offer]:
    """:func:`fire_choices` as offers whose words are made only when asked (the AI reads
    the odds and the orders, never the words)."""
    out: list[Offer] = []
    if not may_fire(b, u):
        return [Offer(od.HOLD, "hold", {}, "hold fire")]
    per = int(cfg(b)["hits_per_piece"])
    step = b.phase().step
    found = step.shots(b, u) if isinstance(step, FireStep) else targets(b, u)
    for t, d in found:
        value = ART.stick_value(d) or 0
        known = known_deductions(b, u, t)
        fixed, rolled = _known_sums(u, known)
        if u.type == "artillery":
            for kind in rounds(b, u, t):
                n = sum(1 for g in book(b, u)["ammo"] if g.get(kind, 0) > 0)
                if kind == "canister":
                    later = later_canister(book(b, u))
                    mean = MO.stick_floats(
                        int(b.r["stick"]["canister_dice"]), value, fixed, rolled, later
                    )[0]
                    e = n * mean
                else:  # XI.A.2-3, B, C: a round that flies takes no deductions
                    later = False
                    e = n * float(_round(b, u, t, kind))
                out.append(
                    Offer(
                        od.FireRound("fire", t.i, kind),
                        "fire",
                        {"inflict": e / per, "p": min(1.0, e / per)},
                        _gun_words(b, u, t, d, value, known, kind, n, e, later),
                    )
                )
        else:
            e, some = MO.stick_floats(fire_line(u), value, fixed, rolled)
            out.append(
                Offer(
                    od.FireAt("fire", t.i),
                    "fire",
                    {"inflict": e / per, "p": some},
                    _volley_words(u, t, d, value, known, e),
                )
            )
    out.append(Offer(od.HOLD, "hold", {}, "hold fire"))
    return out


def _volley_words(
    u: Unit, t: Unit, d: float, value: int, known: list[tuple[int | None, str]], e: float
) -> Callable[[], str]:
    """The words of a volley's menu line, made when asked."""

    def text() -> str:
        words = _known_words(u, known)
        return (
            f'fire at {t.name} ({d:.1f}", {value} on the stick'
            + (f" {words}" if words else "")
            + f"): about {e:.1f} hits"
        )

    return text


def _gun_words(
    b: Battle,
    u: Unit,
    t: Unit,
    d: float,
    value: int,
    known: list[tuple[int | None, str]],
    kind: str,
    n: int,
    e: float,
    later: bool,
) -> Callable[[], str]:
    """The words of a battery's menu line, made when asked."""

    def text() -> str:
        if kind == "canister":
            words = _known_words(u, known)
            how = f"{value} on the stick" + (f" {words}" if words else "")
            how += " -1D6 halved accumulating smoke" if later else ""
        else:
            how = _called(b, u, t)
        return (
            f"{n} gun{'s' if n > 1 else ''}: {kind.replace('_', ' ')} at {t.name} "
            f'({d:.1f}", {how}): about {e:.1f} hits'
        )

    return text


def _round(b: Battle, u: Unit, t: Unit, kind: str) -> Fraction:
    """One gun's round at ``t`` now: first fire on the measured range, consecutive fire at
    the range of the last shot (XI.C.1, reading ``called_range``), exact."""
    within = sum(1 for k in (1, 2, 3) if k <= t.hw)
    bk = book(b, u)
    cons = bk.get("aim") == t.id
    error = float(bk.get("aim_range", b.dist(u.i, t.i))) - b.dist(u.i, t.i) if cons else 0.0
    return MO.round_expected_at(kind, cons, within, error, t.hd)


def _called(b: Battle, u: Unit, t: Unit) -> str:
    """First fire, or consecutive fire at the range called (and how far off it is)."""
    bk = book(b, u)
    if bk.get("aim") != t.id:
        return "first fire"
    rng = float(bk.get("aim_range", b.dist(u.i, t.i)))
    off = rng - b.dist(u.i, t.i)
    return f'consecutive fire, range called {rng:.1f}"' + (
        f' ({abs(off):.1f}" {"over" if off > 0 else "short"})' if abs(off) >= 0.05 else ""
    )


def charge_choice(b: Battle, u: Unit, t: Unit) -> Choice | None:
    """A charge with its exact odds: P(reach), P(the defender gives way or fires), and of
    the first strike for N against M when it stands."""
    found = charge_offer(b, u, t)
    return None if found is None else found.choice()


def charge_offer(b: Battle, u: Unit, t: Unit) -> Offer | None:
    """:func:`charge_choice` as an offer whose words are made only when asked (the AI reads
    the odds, never the words; the words walk the charge's path again)."""
    if may_charge(b, u, t):
        return None
    return _charge_offer(b, u, t, reach_odds(b, u, t))


def _charge_offers(b: Battle, u: Unit, enemies: list[Unit]) -> list[Offer]:
    """:func:`charge_offer` for each of ``enemies`` in turn (those ``u`` may charge), the
    unit's own part of :func:`may_charge`, its dice and its allowance worked out once."""
    out: list[Offer] = []
    if may_charge_now(b, u):
        return out
    dice: list[tuple[int, int]] | None = None
    base = longest = 0.0
    for t in enemies:
        if may_see_to_charge(b, u, t):
            continue
        if dice is None:  # max_charge's and reach_odds' own order: the dice, then the move
            dice = charge_dice(u)
            base = allowance(b, u, u.formation, u.mounted, u.limbered)
            longest = longest_charge(dice, base)
        if may_reach(b, u, t, longest):
            continue
        out.append(_charge_offer(b, u, t, reach_odds_of(b, u, t, dice, base)))
    return out


def _charge_offer(b: Battle, u: Unit, t: Unit, reach: Fraction) -> Offer:
    """:func:`charge_offer` for a charge ``u`` may make, its P(reach) given."""
    if u.formation == "column":
        n, m = M.column_dice(t.stands)
    else:
        n = u.stands
        m = min(t.stands, n + 1)
    away, fires = give_way_odds(b, u, t)
    win, first, goes_in, lost = _charge_numbers(reach, away, n, m)  # not kept: reach is new
    per = int(cfg(b)["hits_per_piece"])

    def text() -> str:
        return (
            f"charge {t.name}: reaches {pct(reach)}{_over(b, u, t)}; it gives way "
            f"{float(away):.0%}, fires {float(fires):.0%}; if it stands, {u.name} wins the "
            f"first strike {first:.0%} ({n} against {m} dice)"
        )

    return Offer(
        od.Charge("charge", t.i),
        "charge",
        {"p": win, "goes_in": goes_in, "inflict": win * n / per, "suffer": lost * m / per},
        text,
    )


def pct(p: Fraction) -> str:
    """A chance in whole percent that says 100% or 0% only when it is sure."""
    if 0 < p < Fraction(1, 200):
        return "<1%"
    if Fraction(199, 200) <= p < 1:
        return ">99%"
    return f"{float(p):.0%}"


def _over(b: Battle, u: Unit, t: Unit) -> str:
    """The terrain a charge's odds went through, in words (XVI; its dice are in the odds)."""
    kinds = dict.fromkeys(_NAMES.get(k, k.replace("_", " ")) for _, k in charge_terrain(b, u, t))
    return f" through the {', the '.join(kinds)}" if kinds else ""


_NAMES = {"uphill": "slope up", "downhill": "slope down"}


def move_choices(b: Battle, u: Unit) -> list[Choice]:
    """Charges with their odds, sensible moves, formation changes, hold."""
    return choices(move_offers(b, u))


def _legal_move(b: Battle, u: Unit, order: od.Move) -> Callable[[], bool]:
    """The legality test of a move offer (:func:`check_move` without its message)."""

    def test() -> bool:
        try:
            check_move(b, u, float(order.x), float(order.y), float(order.theta), order.change)
        except IllegalActionError:
            return False
        return True

    return test


def move_offers(b: Battle, u: Unit) -> list[Offer]:
    """:func:`move_choices` before the moves' legality tests (run when a policy asks)."""
    hold = Offer(od.HOLD, "hold", {}, "hold")
    limit = move_limit(b, u)
    if limit not in ("free", "no_advance") or book(b, u).get("still") == b.state.turn:
        return [hold]
    out: list[Offer] = []
    enemies = sorted(
        (v for v in b.state.units if v.alive and v.side != u.side),
        key=lambda v: (v.x - u.x) ** 2 + (v.y - u.y) ** 2,
    )
    if troop(u) != "other":
        out.extend(_charge_offers(b, u, enemies[:6]))
    bk = book(b, u)
    prone = bool(bk.get("prone"))
    moves: list[tuple[od.Move, str]] = []
    if prone:
        moves.append((od.Move("move", u.x, u.y, u.theta, "stand"), "stand up"))
    else:
        allow = allowance(b, u, u.formation, u.mounted, u.limbered)
        goals = [(v.x, v.y, 4.0, f"toward {v.name}") for v in enemies[:1]]
        goals += [(o.x, o.y, 0.0, f"toward {o.name}") for o in b.setup.objectives]
        for gx, gy, stop, words in goals:
            d = _hypot(gx - u.x, gy - u.y)
            for frac in (1.0, 0.5):
                step = max(0.0, min(allow * frac, d - stop))
                if d > 1e-9 and step > 0.1:
                    th = math.atan2(gy - u.y, gx - u.x)
                    moves.append(
                        (
                            od.Move(
                                "move",
                                u.x + (gx - u.x) / d * step,
                                u.y + (gy - u.y) / d * step,
                                th,
                                "",
                            ),
                            f'advance {step:.1f}" {words}',
                        )
                    )
        if enemies:
            en = enemies[0]
            d = _hypot(en.x - u.x, en.y - u.y) or 1.0
            step = allow * 0.5
            moves.append(
                (
                    od.Move(
                        "move",
                        u.x - (en.x - u.x) / d * step,
                        u.y - (en.y - u.y) / d * step,
                        u.theta,
                        "",
                    ),
                    f'fall back {step:.1f}" facing the enemy',
                )
            )
            th = math.atan2(en.y - u.y, en.x - u.x)
            if abs(math.remainder(th - u.theta, 2 * math.pi)) > 0.05:
                moves.append((od.Move("move", u.x, u.y, th, ""), f"wheel to face {en.name}"))
        for change in CHANGES[1:]:
            if change_refused(u, change, prone):
                continue
            moves.append((od.Move("move", u.x, u.y, u.theta, change), f"{change} in place"))
    for order, text in moves:
        out.append(Offer(order, "move", {}, text, _legal_move(b, u, order)))
    out.append(hold)
    return out


def options(b: Battle, req: Request) -> list[Choice]:
    """The legal orders for a pending request, in words, with their odds."""
    return choices(offers(b, req))


def offers(b: Battle, req: Request) -> list[Offer]:
    """:func:`options` before the moves' legality tests (the generic AI tests what it picks)."""
    u = b.state.units[req.actor]
    if req.kind == "fire":
        return fire_offers(b, u)
    if req.kind == "move":
        return move_offers(b, u)
    return [Offer(od.HOLD, "hold", {}, "hold")]


def explain(b: Battle, req: Request, choice: Choice) -> list[str]:
    """Why a menu entry reads as it does (issue 23), in seed 003's terms: a move's allowance
    and what cut it (XII.F rates and change costs, XII.D fog, XVI terrain), a fire order's
    stick number and every deduction in its odds, a charge's odds part by part, why a unit
    holds, and what is not yet known when the menu is drawn."""
    lines = [f"{choice.text}:"]
    order = od.as_order(choice.order)
    if not 0 <= req.actor < len(b.state.units):
        return lines
    u = b.state.units[req.actor]
    if isinstance(order, od.Move):
        return lines + _why_move(b, u, order)
    if isinstance(order, od.Charge) and 0 <= int(order.t) < len(b.state.units):
        return lines + _why_charge(b, u, b.state.units[int(order.t)])
    if order.kind == "fire" and 0 <= int(order.t) < len(b.state.units):
        lines += _why_fire(b, u, b.state.units[int(order.t)], order)
        if u.type != "artillery" and "p" in choice.odds:  # small arms: p = 1 - P(no hit)
            lines.append(f"  the chance of at least one hit {choice.odds['p']:.0%}")
        return lines
    return lines + _why_hold(b, req, u)


def _why_move(b: Battle, u: Unit, order: od.Move) -> list[str]:
    """XII.F: the allowance and what cut it; XVI: the terrain on the path, rolled as it goes."""
    change = str(order.change)
    try:
        form, mounted, limbered, cost = after_change(u, change, bool(book(b, u).get("prone")))
    except IllegalActionError as exc:
        return [f"  {exc}"]
    base = MV.rate(u.type, form, mounted, limbered)
    allow = allowance(b, u, form, mounted, limbered) - cost
    cuts = []
    if cost:
        what = f"a formation change ({change})" if change not in ("", "stand") else "standing up"
        cuts.append(f'{cost:g}" for {what} (XII.F)')
    thick = fog_at(b, u.x, u.y) if fog(b) else 0
    if base - cost - allow > 1e-9:
        cuts.append(f'{base - cost - allow:g}" for fog (thickness {thick}, XII.D)')
    how = _HOW.get((u.type, form, mounted, limbered), form)
    if u.type == "artillery" and not limbered:
        how = "unlimbered, by hand to the front (XII.F.8)"
    words = f'{u.name} may move {max(allow, 0):g}": {base:g}" {how}'
    lines = ["  " + words + (" less " + " and ".join(cuts) if cuts else "")]
    if change == "prone":
        lines.append(
            "  going prone costs no movement (XII.F.1.3); prone, it must stand up (5 points, "
            "XII.F.1.4, skirmishers free) before it moves again"
        )
    if move_limit(b, u) == "no_advance":
        lines.append(
            f"  {u.name} is in reaction or shaken: no part of its move may come nearer its "
            "nearest enemy (reading in_reaction)"
        )
    x, y = float(order.x), float(order.y)
    dist = _hypot(x - u.x, y - u.y)
    more = downhill_most(b, u, x, y, form, mounted, limbered) if dist > 1e-9 else 0.0
    if more:
        lines.append(
            f'  down the hill it may be ordered up to {more:g}" farther: the 1D6 halved it '
            "gains (XVI.C) is rolled as it goes, and it stops where the die lets it"
        )
    if dist > 1e-9 and MV.deductions_apply(u.type, form, mounted, limbered):
        met = obstacles(b, u, x, y, None)
        if met:
            said = ", ".join(_NAMES.get(k, k.replace("_", " ")) for _, k in met)
            lines.append(
                f"  not yet known: the terrain dice on its path ({said}; XVI), rolled as it "
                "moves: a die over the movement left there halts it for the turn"
            )
    return lines


_HOW = {
    ("foot", "line", False, False): "in line (XII.F.1.1)",
    ("foot", "column", False, False): "in column (XII.F.1.2)",
    ("foot", "skirmish", False, False): "skirmishers, without deductions (XII.F.3)",
}


def _why_charge(b: Battle, u: Unit, t: Unit) -> list[str]:
    """XII.H, XIII, XIV: what each number of a charge entry holds."""
    n, sides = charge_dice(u)[0]
    rolls = len(charge_dice(u))
    base = allowance(b, u, u.formation, u.mounted, u.limbered)
    dice = f"{n}d{sides}" + (f" for each of {rolls} stands" if rolls > 1 else "")
    lines = [
        f'  reaches: {base:g}" of regular movement (XII.F, less fog) plus the centre die of '
        f'{dice} (XII.H) must cover the {b.dist(u.i, t.i):.1f}" to {t.name}'
    ]
    met = charge_terrain(b, u, t)
    if met:
        said = ", ".join(_NAMES.get(k, k.replace("_", " ")) for _, k in met)
        lines.append(
            f"  the terrain on its path is in that chance ({said}, XVI): each die over the "
            "movement left there stops the charge, every face counted"
        )
    lines.append(
        "  gives way / fires: the cheer and the hearing (even d10s, XIII.A-B), the "
        "defender's d10 reaction (1 retreat, odd withdraw, even fire, 10 nothing) and its "
        "officers' contests to hold it (XIII.B.2), every face counted"
    )
    lines.append(
        "  first strike: hand-to-hand, 1d6 a piece, paired high to low (XIV); not in the "
        "odds: what the defender's reaction fire does to the charge (it is rolled then)"
    )
    return lines


def _why_fire(b: Battle, u: Unit, t: Unit, order: od.AnyFire) -> list[str]:
    """XI, XV: the stick's number, the deductions in the odds, what is rolled later."""
    d = b.dist(u.i, t.i)
    kind = str(order.ammo)
    value = ART.stick_value(d)
    lines = []
    if u.type == "artillery" and kind != "canister":
        cons = book(b, u).get("aim") == t.id
        how = _called(b, u, t) + (", XI.C.1" if cons else ", XI.B")
        lines.append(
            f"  {kind.replace('_', ' ')}: each gun's hand of 5d10, its flight, its left or right "
            f"and its burst or bounce, every face counted ({how}); "
            "smoke and cover are not deducted from a round that flies (XI.A.4 takes them "
            "for canister)"
        )
    else:
        pieces = (
            "9 d10 a gun (XI.A.4)"
            if u.type == "artillery"
            else f"a d10 for each of the {fire_line(u)} pieces on its firing line"
        )
        lines.append(
            f'  {value} on the stick: the rifle stick\'s number at {d:.1f}" (nine 3" '
            f"sections valued 9 down to 1; default rifle_stick); {pieces}, 0-9, hits at or "
            "under it less the deductions"
        )
        _, rolled, words = known_fire(b, u, t)
        lines.append(
            "  deductions in the odds (known now, XV.4 'all are cumulative'): "
            + (words or "none")
            + ("; a wall's die is rolled when it fires, its faces all counted" if rolled else "")
        )
        if u.type == "artillery" and later_canister(book(b, u)):
            lines.append(
                "  a later canister shot: each gun adds the accumulating smoke's 1D6 halved "
                "(XI.A.4.b), its faces counted"
            )
    lines.append(
        "  not yet known: nothing that changes the hits; the target's reaction (XV) is "
        "rolled after them"
    )
    return lines


def _why_hold(b: Battle, req: Request, u: Unit) -> list[str]:
    """Why a unit holds, or why only some units may fire (XV, XI)."""
    if req.kind == "fire":
        who = [
            f"{v.name}: {why_no_fire(b, v)}"
            for v in b.state.units
            if v.alive and v.side == u.side and why_no_fire(b, v)
        ]
        return [
            "  only units that may fire and have a target are asked: in their front arc, in "
            "sight and on the stick (27\"; a battery's rounds fly farther); not routed or "
            "stalled, no mounted cavalry, artillery unlimbered with rounds left",
            *(["  not asked now: " + "; ".join(who)] if who else []),
        ]
    limit = move_limit(b, u)
    if limit in ("free", "no_advance") and book(b, u).get("still") != b.state.turn:
        return ["  it stays where it is, as it faces"]
    why = b.comp.status.label(u) or ("stalled by terrain" if book(b, u).get("still") else "")
    return [f"  {u.name} may not move now ({why or 'routed, stalled or held'}): hold only"]


def why_no_fire(b: Battle, v: Unit) -> str:
    """Why ``v`` is not asked to fire now ("" when it may): XV, XI, the marks of 003."""
    if not may_fire(b, v):
        if v.type == "cavalry" and v.mounted:
            return "mounted cavalry does not fire"
        if v.type == "artillery" and v.limbered:
            return "limbered"
        bk = book(b, v)
        if bk.get("rout") or bk.get("stall"):
            return "routed" if bk.get("rout") else "stalled"
        return "it may not fire now (its status, an effect or no rounds left)"
    if not targets(b, v):
        return "no enemy in its front arc, in sight and in range"
    return ""
