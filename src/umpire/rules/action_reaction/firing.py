"""Seed 003 in battle: ordered and reaction fire (XII.I, XIV), artillery rounds and
the reactions fire causes (XIII): targets, deductions, volleys and gun rounds.

Split from ``steps`` (issue 25); the rulings are in ``fire``, ``artillery`` and ``ammo``.
"""

from __future__ import annotations

import math
from fractions import Fraction
from functools import cache
from typing import TYPE_CHECKING, Any

from umpire.battle import orders as od
from umpire.battle.effects import fx
from umpire.board.fmath import hypot as _hypot
from umpire.dice.luck import Dist, by_faces, dist_of
from umpire.errors import IllegalActionError
from umpire.rules.action_reaction import ammo as A
from umpire.rules.action_reaction import artillery as ART
from umpire.rules.action_reaction import fire as F
from umpire.rules.action_reaction import melee as M
from umpire.rules.action_reaction import weather as W
from umpire.rules.action_reaction.ground import (
    fog_line,
    walls_covering,
)
from umpire.rules.action_reaction.marks import (
    _held,
    book,
    cfg,
    d10,
    held_d6,
    held_d10,
    move_limit,
    react,
    remove,
    say,
    take_hits,
)

if TYPE_CHECKING:
    from umpire.battle.engine import Battle
    from umpire.battle.state import Unit


def fire_reaction(b: Battle, t: Unit, firer: Unit, kind: str) -> None:
    """XV.2-3: the target of infantry or artillery fire reacts (d10 or d6 list)."""
    if not t.alive:
        return
    bk = book(b, t)
    how = F.fire_reaction(kind, t.formation, bool(bk.get("react")))
    if how == "facing":
        face_threat(b, t, firer)
        return
    if how == "d10":
        face = d10(b, 1, f"{t.name} under fire: its reaction (1d10)")[0]
        what, inches = M.reaction(face)
        if b.luck is not None:  # XV.2: the target holds (no retreat nor withdrawal)
            b.note(t.side, "reactions held", int(_held(what)), held_d10())
    elif how == "d6":
        face = b.roll(1, 6, f"{t.name} under fire: its reaction (1d6)")[0]
        what, inches = M.column_reaction(face)
        if b.luck is not None:  # XV.2.(3): a column's reaction
            b.note(t.side, "reactions held", int(_held(what)), held_d6())
    else:
        return
    if what in ("retreat", "withdraw") and bk["off"] and b.comp.morale.test(b, t, "holds"):
        return
    if what == "fire":
        b.comp.status.on_setback(b, t, "fire_reaction", firer)
        say(b, f"  {t.name} reacts: it fires back")
        if may_fire(b, t):
            volley(b, t, firer, reaction=True)
        return
    react(b, t, what, inches, firer)


def face_threat(b: Battle, t: Unit, firer: Unit) -> None:
    """XV.1.a 'Units within the adjacent fields may change their facings' (reading
    ``skirmish_fields``): the target and its side's units within ``skirmish_fields`` inches of
    it turn to face the skirmishers when these are outside their front and the turn is free."""
    reach = float(cfg(b)["skirmish_fields"])
    for v in b.state.units:
        if not v.alive or v.side != t.side or _hypot(v.x - t.x, v.y - t.y) > reach:
            continue
        if move_limit(b, v) == "none" or b.in_arc(v, firer):
            continue
        th = math.atan2(firer.y - v.y, firer.x - v.x)
        if b.free_at(v, v.x, v.y, th, v.hw, v.hd):
            b.place(v, v.x, v.y, th)
            say(b, f"  {v.name} turns to face the skirmishers of {firer.name}")


def displace(b: Battle, u: Unit, frm: Unit, inches: float, face_away: bool, why: str) -> None:
    """Straight away from ``frm`` (its base, met at an angle in contact, does not hold it),
    stopping before any other base (off the table removes it); a unit stopped by another's
    base has collided with it and rolls its reaction (XVII.D)."""
    x0, y0 = u.x, u.y
    if not b.push_away(u, frm, inches, face_away, ignore=(frm.i,)):
        remove(b, u, f"{why} off the table")
        return
    step = b.geo["retreat_step"]
    moved = _hypot(u.x - x0, u.y - y0)
    if moved >= inches - step / 2 or face_away or book(b, u).get("rout"):
        return  # reading collision_in_battle: a routed unit that meets a base only stops
    dx, dy = u.x - frm.x, u.y - frm.y
    n = _hypot(dx, dy) or 1.0
    ahead = b.bases_at(u, u.x + dx / n * step, u.y + dy / n * step, u.theta)
    met = [v for v in ahead if v.i != frm.i]
    if met:
        collide(b, u, met[0])


def collide(b: Battle, u: Unit, v: Unit) -> None:
    """XVII.D 'If a unit collides with another unit it will roll 1 D10 for a reaction'
    (default ``collision_reaction``, reading ``collision_in_battle``): the reaction's marker
    is placed; its movement stops at the base met; a firing reaction fires at the nearest
    enemy in front."""
    face = d10(b, 1, f"{u.name} collides with {v.name}: its reaction (1d10)")[0]
    what, _ = F.collision_reaction(face)
    if b.luck is not None:  # XVII.D: the d10 list of XIII.B.1, held as a charge's reaction
        b.note(u.side, "reactions held", int(_held(what)), held_d10())
    say(b, f"  {u.name} collides with {v.name} ({face}): {what}")
    if what == "none":
        return
    if what in ("retreat", "withdraw") and book(b, u)["off"] and b.comp.morale.test(b, u, "holds"):
        return
    if what == "fire":
        b.comp.status.on_setback(b, u, "fire_reaction", v)
        shots = targets(b, u) if may_fire(b, u) and u.type != "artillery" else []
        if shots:
            volley(b, u, shots[0][0], reaction=True)
        return
    b.comp.status.on_setback(b, u, what, v)


# -- fire (XI, XV) -----------------------------------------------------------------------------


def may_fire(b: Battle, u: Unit) -> bool:
    """Alive, not routed or stalled, a firing troop, not barred by an effect."""
    if not u.alive or not b.comp.status.may_fire(b, u):
        return False
    if u.extra and (fx(u, "no_fire") or fx(u, "no_act")):
        return False
    bk = book(b, u)
    if bk.get("stall") or bk.get("rout"):
        return False
    if u.type == "artillery":
        return not u.limbered and any(any(g.values()) for g in bk.get("ammo", []))
    return not (u.type == "cavalry" and u.mounted)


def halved_dist() -> Dist:
    """'1D6 halved' (reading ``half_rounds_up``): the exact deduction, for the luck report."""
    return by_faces(1, 6, lambda f: ART.halved(f[0]))


def wall_dist(kind: str, sides: int) -> Dist:
    """XVI.F: the exact firing deduction of ``kind``'s die (the stone wall's 1d6)."""
    from umpire.rules.action_reaction import terrain as T

    return by_faces(1, sides, lambda f: T.fire_deduction(kind, f[0]))


def deductions(b: Battle, u: Unit, t: Unit, reaction: bool) -> tuple[int, list[str]]:
    """XV.4 'all are cumulative': smoke, fog, terrain and walls, disruption, effects."""
    from umpire.rules.action_reaction import terrain as T

    out: list[tuple[int, str]] = []
    for v, what in known_deductions(b, u, t):
        if v is None:  # XVI.F: the stone wall's firing deduction is a die, rolled now
            sides = T.fire_die(what) or 6
            face = b.roll(1, sides, f"{t.name} behind a stone wall: the deduction (1d{sides})")[0]
            out.append((T.fire_deduction(what, face), what.replace("_", " ")))
            if b.luck is not None:  # XVI.F: the larger the deduction, the better for the target
                b.note(t.side, "deductions rolled", out[-1][0], wall_dist(what, sides))
        else:
            out.append((v, what))
    if reaction and cfg(b)["reaction_fire_halved"]:
        half = ART.halved(b.roll(1, 6, f"{u.name}'s reaction fire: 1D6 halved")[0])
        out.append((half, "reaction"))
        if b.luck is not None:  # XIII.B.1.(1)(d)(ii): the deduction is the target's luck
            b.note(t.side, "deductions rolled", half, halved_dist())
    mod = effects_mod(u, reaction)
    if mod:
        out.append((-mod, "effects"))
    return sum(v for v, _ in out), [f"-{v} {w}" if v >= 0 else f"+{-v} {w}" for v, w in out]


def known_deductions(b: Battle, u: Unit, t: Unit) -> list[tuple[int | None, str]]:
    """The deductions of ``u``'s fire at ``t`` known before it fires, in order: smoke, fog,
    woodlot, hill, each wall covering ``t`` (None and its XVI kind where a die decides it:
    the stone wall's 1d6) and disruption; the menus fold the dice in (``menu_odds``)."""
    from umpire.rules.action_reaction import terrain as T

    out: list[tuple[int | None, str]] = []
    smoke = W.smoke_deduction(W.smoke_level(book(b, u)["smoke"], book(b, t)["smoke"]))
    if smoke:
        out.append((smoke, "smoke"))
    thick = fog_line(b, u, t)
    if thick:
        out.append((W.fog_deductions(thick)[0], f"fog {thick}"))
    board = b.setup.board
    if board.in_cover(t.x, t.y) or board.is_rough(t.x, t.y):
        out.append((T.fire_deduction("woodlot"), "woodlot"))
    hu, ht = board.height_at(u.x, u.y), board.height_at(t.x, t.y)
    if hu != ht:
        out.append((T.fire_deduction("uphill" if ht > hu else "downhill"), "hill"))
    for kind in walls_covering(b, u, t):
        if T.fire_die(kind) is not None:
            out.append((None, kind))
        else:
            out.append((T.fire_deduction(kind), kind.replace("_", " ")))
    if book(b, u).get("disr"):
        out.append((1, "disrupted"))
    return out


def effects_mod(u: Unit, reaction: bool) -> int:
    """What effects add to ``u``'s stick (``fire_mod``; ``reaction_fire_mod`` in reaction)."""
    if not u.extra:
        return 0
    return int(fx(u, "fire_mod") or 0) + (int(fx(u, "reaction_fire_mod") or 0) if reaction else 0)


def fire_line(u: Unit) -> int:
    """Pieces on the firing line: all in line or skirmish order, the leading piece in column."""
    return 1 if u.formation == "column" else u.stands


def targets(b: Battle, u: Unit) -> list[tuple[Unit, float]]:
    """Enemies ``u`` may fire at: in its front arc, in sight and on its stick."""
    reach = b.comp.combat.reach(b, u)
    st = b.status
    out = []
    for j in b.enemies(u):
        t = b.state.units[j]
        d = b.dist(u.i, j)
        if d <= reach + 1e-9 and b.in_arc(u, t) and b.sees(u, t):
            if b.touching(t) and not st.fire_on_engaged(b, t):
                continue  # the status forbids fire at Engaged units (seed 004 EFFECT)
            out.append((t, d))
    out.sort(key=lambda p: p[1])
    return out


def volley(
    b: Battle, u: Unit, t: Unit, reaction: bool = False, kind: str = "", called: float | None = None
) -> None:
    """One unit's fire at ``t``: infantry on the stick, or each gun's round (XI)."""
    bk = book(b, u)
    if u.type == "artillery":
        guns(b, u, t, kind or best_round(b, u, t), called)
        return
    d = b.dist(u.i, t.i)
    value = ART.stick_value(d)
    if value is None:
        return
    ded, why = deductions(b, u, t, reaction)
    # what hits is said before real dice are asked for (issue 21)
    need = f"hits on {value - ded} or less" if value - ded >= 0 else "no die can hit"
    faces = d10(b, fire_line(u), f'{u.name} fires at {t.name} ({d:.1f}", d10 per piece, {need})')
    hits = ART.stick_hits(faces, value, ded)
    if b.luck is not None:  # XI.A.4: the stick's hits are the firer's luck (issue 24)
        b.note(u.side, "fire hits", hits, dist_of(ART.stick_odds(len(faces), value, ded)))
    say(
        b,
        f'{u.name} fires at {t.name} ({d:.1f}": {value} on the stick'
        + (f" {' '.join(why)}" if why else "")
        + f"): {' '.join(map(str, faces))}: {hits} hit{'s' if hits != 1 else ''}",
    )
    bk["smoke"] = min(int(cfg(b)["smoke_cap"]), bk["smoke"] + 1)
    b.record(u)
    take_hits(b, t, hits, f"fire of {u.name}")
    if not reaction:
        fire_reaction(b, t, u, "skirmish" if u.formation == "skirmish" else "infantry")


def best_round(b: Battle, u: Unit, t: Unit) -> str:
    """The round a battery fires when no one chose: canister on the stick, else shell, case,
    solid shot, whichever is left first."""
    for kind in rounds(b, u, t):
        return kind
    return ""


def rounds(b: Battle, u: Unit, t: Unit) -> list[str]:
    """The rounds the battery may fire at ``t`` (XI.A): canister only on the rifle stick."""
    ammo = book(b, u).get("ammo", [])
    d = b.dist(u.i, t.i)
    out = []
    for kind in ("canister", "shell", "case", "solid_shot"):
        if kind == "canister" and ART.stick_value(d) is None:
            continue
        if A.left(ammo, kind) > 0:
            out.append(kind)
    return out


def guns(b: Battle, u: Unit, t: Unit, kind: str, called: float | None = None) -> None:
    """Each gun with a round of ``kind`` fires it (XI.A-C); smoke unless every gun misfired.
    Consecutive fire lands at the called range (XI.C.1): ``called``, else the range of the
    battery's last shot at ``t`` (reading ``called_range``)."""
    bk = book(b, u)
    if kind not in A.KINDS:
        A.spend([], 0, kind)  # the one-line error for an unknown type
    d = b.dist(u.i, t.i)
    consecutive = bk.get("aim") == t.id
    error = 0.0
    call = ""
    if consecutive and kind != "canister":
        rng = called if called is not None else float(bk.get("aim_range", d))
        error = rng - d
        call = f', range called {rng:.1f}"'
        bk["aim_range"] = rng
    elif kind != "canister":
        bk["aim_range"] = d  # XI.B: first fire is laid on the measured range
    later = kind == "canister" and later_canister(bk)
    total = 0
    smoke = False
    accumulating: list[int] = []
    for g in range(len(bk["ammo"])):
        if bk["ammo"][g].get(kind, 0) <= 0:
            continue
        bk["ammo"] = A.spend(bk["ammo"], g, kind)
        if kind == "canister":
            value = ART.stick_value(d)
            if value is None:
                raise IllegalActionError(f'canister beyond the rifle stick ({d:.1f}")')
            ded, _ = deductions(b, u, t, False)
            if later:
                face = b.roll(1, 6, f"{u.name} gun {g + 1}: accumulating smoke (1D6 halved)")[0]
                accumulating.append(ART.halved(face))
                if b.luck is not None:  # XI.A.4: accumulating smoke, the target's luck
                    b.note(t.side, "deductions rolled", accumulating[-1], halved_dist())
                ded += accumulating[-1]
            faces = d10(b, int(b.r["stick"]["canister_dice"]), f"{u.name} gun {g + 1}: canister")
            hits = ART.stick_hits(faces, value, ded)
            smoke = True
            if b.luck is not None:  # XI.A.4: canister on the stick, the firer's luck
                odds = ART.stick_odds(len(faces), value, ded)
                b.note(u.side, "artillery hits", hits, dist_of(odds))
        else:
            hits, fired = round_at(b, u, t, g, kind, consecutive, error)
            smoke = smoke or fired
            if b.luck is not None and not error:  # one gun's whole round (exact odds
                # at the true range only: a called range that errs has no odds here)
                within = sum(1 for k in (1, 2, 3) if k <= t.hw)
                odds = round_odds(kind, consecutive, within)
                b.note(u.side, "artillery hits", hits, dist_of(odds))
        total += hits
    if kind == "canister":
        bk["canister_fired"] = True
    bk["aim"] = t.id
    if smoke:
        bk["smoke"] = min(int(cfg(b)["smoke_cap"]), bk["smoke"] + 1)
    b.record(u)
    how = ""
    if accumulating:
        how = ", a later shot: accumulating smoke " + " ".join(f"-{v}" for v in accumulating)
    if not smoke:
        # XI.B.1.b.(1)(a) 'Do not place smoke if it is a misfire': nothing left the guns,
        # so nothing reached the target to react to (reading misfire_no_reaction).
        say(b, f"{u.name}: every gun misfires at {t.name} (no smoke, no reaction)")
        return
    say(
        b,
        f'{u.name} fires {kind.replace("_", " ")} at {t.name} ({d:.1f}"{call}{how}): {total} hits',
    )
    take_hits(b, t, total, f"{kind.replace('_', ' ')} of {u.name}")
    fire_reaction(b, t, u, "artillery")


def later_canister(bk: dict[str, Any]) -> bool:
    """XI.A.4.b 'Consecutive Fire' (reading ``canister_later_shot``): the battery fired
    canister before and that fire's smoke still stands on it (it has not thinned to 0)."""
    return bool(bk.get("canister_fired")) and bk["smoke"] > 0


def round_at(
    b: Battle, u: Unit, t: Unit, g: int, kind: str, consecutive: bool, error: float = 0.0
) -> tuple[int, bool]:
    """Reading ``artillery_round``: one gun's round; (hits, made smoke). ``error``: the
    called range less the true one (XI.C.1, reading ``called_range``)."""
    what = "consecutive" if consecutive else "first"
    hand = ART.first_fire(d10(b, 5, f"{u.name} gun {g + 1}: {what} fire (5d10)"), consecutive)
    side = ART.deviation(b.roll(1, 6, f"{u.name} gun {g + 1}: left or right? (1d6)")[0])
    if hand.result == "misfire":
        return 0, False
    flight = hand.flight
    if hand.result == "dud":
        flight = ART.dud_flight(b.roll(1, 6, f"{u.name} gun {g + 1}: the dud (1d6)")[0])
    elif flight == "both":
        flight = ART.settle_flight(b.roll(1, 6, f"{u.name} gun {g + 1}: long or short? (1d6)")[0])
    if side:
        off = ART.halved(b.roll(1, 6, f"{u.name} gun {g + 1}: inches {side} (1D6 halved)")[0])
        if off > t.hw:
            return 0, True
    # Reading called_range: the round lands at the called range (``error`` inches beyond
    # the target), plus a long round's inches or less a short one's.
    land = error
    if flight == "long":
        if not error:
            return 0, True  # on the true range, a long round always passes over
        land += ART.halved(b.roll(1, 6, f"{u.name} gun {g + 1}: inches long (1D6 halved)")[0])
    elif flight == "short":
        land -= ART.halved(b.roll(1, 6, f"{u.name} gun {g + 1}: inches short (1D6 halved)")[0])
    if land > t.hd:
        return 0, True  # beyond the target
    short = -land if land < -t.hd else 0.0
    if short > 2:
        return 0, True
    burst = kind in ("shell", "case") and hand.result in ("burst", "hit")
    if burst:
        n = int(b.r["burst"][f"{kind}_dice"])
        return ART.burst_hits(d10(b, n, f"{u.name} gun {g + 1}: {kind} burst ({n}d10)")), True
    bounce = d10(b, 1, f"{u.name} gun {g + 1}: does the shot bounce? (1d10, even)")[0]
    if short and bounce % 2:
        return 0, True
    n = int(b.r["solid_shot"]["dice_bounce" if bounce % 2 == 0 else "dice_no_bounce"])
    _, hits = ART.solid_shot_hits(bounce, d10(b, n, f"{u.name} gun {g + 1}: shot ({n}d10)"))
    return hits, True


# -- exact odds for the menus -------------------------------------------------------------------


@cache
def round_odds(kind: str, consecutive: bool, within: int) -> dict[int, Fraction]:
    """Exact P(hits) of one gun's round (reading ``artillery_round``); ``within`` is how many
    of the deviations 1, 2, 3 inches still strike (the target's half frontage)."""
    p_side = Fraction(2, 6)  # a 1 or a 6
    p_on_line = 1 - p_side + p_side * Fraction(within, 3)
    out: dict[int, Fraction] = {}

    def add(dist: dict[int, Fraction], p: Fraction) -> None:
        for h, q in dist.items():
            out[h] = out.get(h, Fraction(0)) + p * q

    shot = ART.solid_shot_odds()
    # A shot short by 1 or 2 inches strikes only when it bounced (an even d10): 2 d10 then.
    bounced = {h: q for h, q in _bounced().items()}
    burst = ART.burst_odds(kind) if kind in ("shell", "case") else shot
    for (result, fl), p in ART.result_odds(consecutive).items():
        if result == "misfire":
            add({0: Fraction(1)}, p)
            continue
        strikes = burst if result in ("burst", "hit") and kind in ("shell", "case") else shot
        if result == "dud":
            flights = {"short": Fraction(1, 6), "long": Fraction(1, 6), "": Fraction(4, 6)}
            strikes = shot
        elif fl == "both":
            flights = {"short": Fraction(1, 2), "long": Fraction(1, 2)}
        else:
            flights = {fl: Fraction(1)}
        for f, q in flights.items():
            w = p * q * p_on_line
            if f == "long":
                add({0: Fraction(1)}, w)
            elif f == "short":
                near = Fraction(2, 3)  # 1D6 halved is 1 or 2 on four faces of six
                if strikes is shot:
                    add(bounced, w * near)
                    add({0: Fraction(1)}, w * (1 - near))
                else:
                    add(strikes, w * near)
                    add({0: Fraction(1)}, w * (1 - near))
            else:
                add(strikes, w)
            add({0: Fraction(1)}, p * q * (1 - p_on_line))
    return out


@cache
def _bounced() -> dict[int, Fraction]:
    """P(hits) of a shot that must bounce to strike: half the time 2 d10 (even hits), else 0."""
    out: dict[int, Fraction] = {0: Fraction(1, 2)}
    for k, q in ((0, Fraction(1, 4)), (1, Fraction(1, 2)), (2, Fraction(1, 4))):
        out[k] = out.get(k, Fraction(0)) + q / 2
    return out


def called_range(b: Battle, u: Unit, t: Unit, order: od.AnyFire, kind: str) -> float | None:
    """XI.C.1 'Call the range in inches toward the target': the fourth item of a battery's
    fire order (None: the range of its last shot); only consecutive fire with a round that
    flies (not canister, laid on the stick) calls it; anything else is refused in one line."""
    if order.called is None:
        return None
    try:
        rng = float(order.called)
    except (TypeError, ValueError):
        raise IllegalActionError(
            f"{u.name}: a called range is inches, not {order.called!r}"
        ) from None
    if not 0 < rng <= max(b.setup.board.width, b.setup.board.height) * 2:
        raise IllegalActionError(f'{u.name}: call a range on the table, not {rng:g}"')
    if book(b, u).get("aim") != t.id:
        raise IllegalActionError(
            f"{u.name}: first fire at {t.name} is laid on the measured range (XI.B); "
            "a range is called on consecutive fire (XI.C.1)"
        )
    if kind == "canister":
        raise IllegalActionError(f"{u.name}: canister is laid on the rifle stick, not called")
    return rng


def why_not_fire(b: Battle, u: Unit, t: int) -> str:
    """Why ``u`` cannot fire at unit ``t`` now, in one line."""
    if not 0 <= t < len(b.state.units) or not b.state.units[t].alive:
        return f"{u.name} cannot fire: no such target on the table"
    v = b.state.units[t]
    if not may_fire(b, u):
        return f"{u.name} cannot fire now (mounted, limbered, routed, stalled or out of rounds)"
    if v.side == u.side:
        return f"{u.name} cannot fire at a friendly unit"
    if b.touching(v) and not b.status.fire_on_engaged(b, v):
        return f"{u.name} cannot fire at {v.name}: Engaged units cannot be fired upon"
    d = b.dist(u.i, t)
    if d > b.comp.combat.reach(b, u) + 1e-9:
        return f'{u.name} cannot fire at {v.name}: out of range ({d:.1f}")'
    if not b.in_arc(u, v):
        return f"{u.name} cannot fire at {v.name}: outside its front arc"
    return f"{u.name} cannot fire at {v.name} in this step (no line of sight, or not allowed)"
