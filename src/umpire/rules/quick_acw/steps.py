"""The seed 002 steps: command, move, rally, fire, melee.

Each class is one step of "TURN ORDER" in seed 002; ``roles.py`` offers them to the
engine through the combat and status roles, so another sequence (seed 004's) can run
them in its own order, and another status module can take over what a hit or a failed
test does (``b.status``). Rules numbers come from ``rules.py``/``data``; these classes
only apply them to the board.
"""

from __future__ import annotations

import math
from functools import cache
from typing import Any, Final

from umpire.battle.effects import clear_fx, fx, fx_why, set_fx
from umpire.battle.engine import Battle, Order
from umpire.battle.roles import AutoStep
from umpire.battle.state import Unit, base_size
from umpire.board.fmath import hypot as _hypot
from umpire.board.geometry import SURELY, Box, corners, local, surely_beyond
from umpire.dice.luck import Dist, by_faces
from umpire.errors import IllegalActionError
from umpire.rules.data import on_change
from umpire.rules.quick_acw import rules as R

# math's functions that mypyc has no native form of, held in C statics (``Final``): a
# call then skips looking the name up in ``math`` (the same functions, the same floats).
_atan2: Final = math.atan2

CHANGES = ("", "line", "column", "mount", "dismount", "limber", "unlimber")


# -- shared rule helpers -----------------------------------------------------------------


def attached_bonus(b: Battle, u: Unit) -> int | None:
    """The bonus of a living leader attached to ``u`` (seed 002 MORALE/MELEE), or None."""
    for ld in b.state.leaders:
        if ld.alive and ld.attached == u.i:
            return ld.bonus
    return None


def add_marker(b: Battle, u: Unit) -> None:
    """Seed 002: "MM are not cumulative - you can only have one per unit"."""
    if u.alive and not u.marker:
        u.marker = True
        if b.narrate:
            b.say(f"  {u.name} takes a Morale Marker")


def lose_stands(b: Battle, u: Unit, n: int, cause: str) -> None:
    """Seed 002: lose stands; leader loss on 5-6; removal below half the original stands."""
    if n <= 0 or not u.alive:
        return
    n = min(n, u.stands)
    u.stands -= n
    b.state.losses[u.side] = b.state.losses.get(u.side, 0) + n
    touched = list(b.touching(u))
    hw, hd = u.hw, u.hd
    u.resize()
    b.changed(u)
    if b.narrate:
        b.say(f"  {u.name} loses {n} stand{'s' if n > 1 else ''} ({cause}), {u.stands} left")
    for ld in b.state.leaders:
        if ld.alive and ld.attached == u.i:
            face = b.roll(1, 6, f"is {ld.name} hit with {u.name}? (leader casualty, 1d6)")[0]
            if b.luck is not None:
                b.note(ld.side, "leaders spared", int(not R.leader_lost(face, b.r)), spared(b))
            if R.leader_lost(face, b.r):
                ld.alive = False
                ld.attached = -1
                for v in b.state.units:
                    if v.leader == ld.i:
                        v.leader_lost = True
                if b.narrate:
                    b.say(f"  {ld.name} is killed or captured (rolled {face})")
    if R.is_removed(u.stands, u.stands0, b.r):
        remove(b, u, "below half strength")
    elif touched:
        keep_contact(b, u, touched, hw, hd)


def keep_contact(b: Battle, u: Unit, touched: list[int], hw: float, hd: float) -> None:
    """Default ``contact_kept_when_stands_lost``: a unit in contact that loses stands closes
    up on the enemy it touched. Its base shrinks about its centre (``hw``/``hd``: the half
    sizes before), which would part it from an enemy at one end; it moves by the shrink
    toward the first such enemy, so the edge that touched stays where it was (the new base
    lies inside the old one: it meets no other base and stays on the table)."""
    now = b.touching(u)
    us = b.state.units
    for e in touched:
        v = us[e]
        if not v.alive or e in now:
            continue
        fwd, lat = local(u.x, u.y, u.theta, v.x, v.y)
        c, s = math.cos(u.theta), math.sin(u.theta)
        if u.hd < hd:  # a column: shorter from front to rear
            k = (hd - u.hd) * (1.0 if fwd > 0 else -1.0)
            x, y = u.x + c * k, u.y + s * k
        else:  # a line or a battery: narrower
            k = (hw - u.hw) * (1.0 if lat > 0 else -1.0)
            x, y = u.x - s * k, u.y + c * k
        b.place(u, x, y)
        if b.narrate:
            b.say(f"  {u.name} closes up on {v.name}")
        return


def remove(b: Battle, u: Unit, why: str) -> None:
    """Take a unit off the table (default ``leader_detached_when_unit_removed``)."""
    u.alive = False
    u.marker = False
    for ld in b.state.leaders:
        if ld.attached == u.i:
            ld.attached = -1
    b.changed(u)
    if b.narrate:
        b.say(f"  {u.name} is removed ({why})")


def nearest_enemy(b: Battle, u: Unit) -> Unit | None:
    """The enemy whose centre is nearest ``u``'s centre."""
    return b.nearest_enemy(u)


def move_away(b: Battle, u: Unit, frm: Unit, dist: float, face_away: bool, why: str) -> None:
    """Move ``u`` directly away from ``frm`` (routs face away; retreats keep facing).

    Default ``blocked_retreat_stops``: a blocked move stops at the last free half inch,
    and the narrative gives the distance actually moved and what stopped it."""
    x0, y0 = u.x, u.y
    if not b.push_away(u, frm, dist, face_away):
        remove(b, u, f"{why} off the table")
        return
    if b.narrate:
        moved = _hypot(u.x - x0, u.y - y0)
        if moved < dist - 1e-6:
            n = _hypot(x0 - frm.x, y0 - frm.y) or 1.0
            dx, dy = (x0 - frm.x) / n, (y0 - frm.y) / n
            what = blocker(b, u, x0, y0, dx, dy, moved, dist)
            b.say(
                f'  {u.name} {why}s {moved:.1f}" away from {frm.name}, not {dist:g}": '
                f"{what} in the way"
            )
        else:
            b.say(f'  {u.name} {why}s {dist:g}" away from {frm.name}')


def blocker(
    b: Battle, u: Unit, x0: float, y0: float, dx: float, dy: float, moved: float, dist: float
) -> str:
    """What stopped ``u`` after ``moved`` of a slide from (x0, y0) along (dx, dy), in words:
    the base at its next half-inch step, or the table edge (for the narrative)."""
    step = b.geo["retreat_step"]
    d = min(dist, (math.floor(moved / step + 1e-6) + 1) * step)
    x, y = x0 + dx * d, y0 + dy * d
    board = b.setup.board
    if not (0 <= x <= board.width and 0 <= y <= board.height) or not board.on_table(
        corners(x, y, u.theta, u.hw, u.hd)
    ):
        return "the table edge"
    who = b.bases_at(u, x, y, u.theta)
    return who[0].name if who else "another base"


def retreat_dice(u: Unit) -> tuple[int, int]:
    """Seed 002: retreat 2D6", 3D6" for mounted cavalry (reading ``cav_retreat_mounted``)."""
    return (3, 6) if u.type == "cavalry" and u.mounted else (2, 6)


def rout_move(b: Battle, u: Unit) -> None:
    """Seed 002 MOVEMENT ROUT: up to 12"/24" directly away from the nearest enemy, facing away.

    Dismounted cavalry routs 12" as foot (reading ``dismounted_cavalry_routs_as_foot``);
    unlimbered artillery limbers in place instead, and routs as limbered artillery at a
    later move (reading ``unlimbered_artillery_rout``)."""
    u.moved = True
    if u.type == "artillery" and not u.limbered:
        u.limbered = True
        b.changed(u)
        if b.narrate:
            b.say(
                f"  {u.name} limbers in place: unlimbered guns that rout limber first, "
                "and rout as limbered artillery at a later move"
            )
        return
    en = nearest_enemy(b, u)
    if en is None:
        return
    dist = R.rout_distance(u.type, b.r, mounted=u.mounted, limbered=u.limbered)
    move_away(b, u, en, dist, True, "rout")


def fire_class(u: Unit) -> str | None:
    """The FIRE table row of a unit (None: cannot fire)."""
    return R.fire_class(u.type, u.mounted, u.limbered)


def targets(b: Battle, u: Unit, exact: bool = True) -> list[tuple[int, int, list[R.Mod], float]]:
    """Every legal target of ``u``: (target, needed, modifiers, range).

    Seed 002 FIRE: range bands, "can't shoot through friendly troops", "If you can't
    see it you can't shoot it"; defaults fire_arc, engaged_no_fire. The answer is kept
    in ``b.memo`` until the board changes (the AI and the step both ask).

    With ``exact=False`` (the AI, and the step when nothing is narrated) the range is
    NaN wherever the band is settled without it: the nearest-point range lies between
    the centre distance less both radii and the centre distance, and when both ends
    fall in one band the number needed is known. Only the narrative shows the range.
    """
    return _targets(b, u, exact, None, None)


def _targets(
    b: Battle, u: Unit, exact: bool, only: set[int] | None, scope: tuple[int, ...] | None
) -> list[tuple[int, int, list[R.Mod], float]]:
    """:func:`targets`, or with ``only`` those of them among ``only`` (the same shots in the
    same order: each candidate is judged on its own), kept in ``b.memo`` under ``scope``."""
    fc = fire_class(u)
    if fc is None or not u.alive:
        return []
    if u.extra and (fx(u, "no_fire") or fx(u, "no_act")):
        return []
    key: tuple[Any, ...] = ("targets", u.i, u.marker, fc, exact)
    if scope is not None:
        key = (*key, *scope)
    hit: list[tuple[int, int, list[R.Mod], float]] | None = b.memo.get(key)
    if hit is not None:
        return hit
    if not b.status.may_fire(b, u):  # a status change clears b.memo
        b.memo[key] = []
        return []
    us = b.state.units
    touching = b.touching(u)
    cand: list[int] | None = touching or b.memo.get(("free", u.side))
    if touching:  # the status may forbid fire at Engaged units (seed 004 EFFECT)
        st = b.status
        cand = [e for e in touching if st.fire_on_engaged(b, us[e])]
    if cand is None:  # the enemies in contact with no one (cached for the whole side)
        cand = b.memo["free", u.side] = [e for e in b.enemies(u) if not b.touching(us[e])]
    reach = max_range(fc, b.r) + 1e-6
    # What one pair's shot is (needed, modifiers, range) reads only the two units: each
    # is kept across changes of the other units, in a row per firer stamped with what
    # it reads of the firer (its version, marker and fire class), per target with its.
    # (The row is looked up at the first candidate within reach: most firers have none.)
    ver = b.versions()
    known: dict[int, tuple[int, tuple[int, list[R.Mod], float] | None]] | None = None
    out = []
    rad = b.rad
    ru = rad[u.i]
    ux, uy = u.x, u.y
    for c in cand:
        if only is not None and c not in only:
            continue
        t = us[c]
        dx, dy = t.x - ux, t.y - uy
        lim = reach + ru + rad[c]
        if dx * dx + dy * dy > lim * lim * SURELY + 1e-12:  # geometry.surely_beyond
            continue  # beyond the longest range even from the nearest corners, for sure
        if _hypot(dx, dy) - ru - rad[c] > reach:
            continue  # beyond the longest range even from the nearest corners
        if known is None:
            stamp = (ver[u.i], u.marker, fc)
            rk = ("shots", u.i, exact)
            row = b.kept.get(rk)
            if row is None or row[0] != stamp:
                row = b.kept[rk] = (stamp, {})
            known = row[1]
        e = known.get(c)
        if e is not None and e[0] == ver[c]:
            shot = e[1]
        else:
            shot = _shot(b, u, t, fc, exact)
            known[c] = (ver[c], shot)
        if shot is None:
            continue
        if not touching and not b.sees(u, t):
            continue
        out.append((c, shot[0], shot[1], shot[2]))
    if not touching:  # (a firer in contact: the status's answer may read the contacts list)
        b.memo[key] = out
    return out


def _shot(
    b: Battle, u: Unit, t: Unit, fc: str, exact: bool
) -> tuple[int, list[R.Mod], float] | None:
    """(needed, modifiers, range) of ``u`` firing at ``t``, sight aside; None: out of range
    or arc. The range is NaN where the band is settled without it (``exact=False``)."""
    rad = b.rad
    ru, rt = rad[u.i], rad[t.i]
    band = -1
    if not exact:
        lo, hi = range_bounds(b.box(u), b.box(t), ru, rt)
        band_lo = R.range_band(lo - 1e-7, b.r)
        if band_lo is not None and band_lo == R.range_band(hi + 1e-7, b.r):
            band = band_lo
    if band >= 0:
        dd = math.nan
        needed: int | None = b.r.fire_table[fc][band] or None
    else:
        dd = b.dist(u.i, t.i)
        needed = R.fire_needed(fc, dd, b.r)
    if needed is None or not b.in_arc(u, t):
        return None
    return needed, fire_mods(b, u, fc, t), dd


def range_bounds(a: Box, b_: Box, ra: float, rb: float) -> tuple[float, float]:
    """Bounds on the nearest-point distance of two bases, from each centre to the other base.

    Every point of a base lies within its radius of its centre, and the distance to a
    convex base changes no faster than the point moves: so the range is at least the
    distance from one centre to the other base less that base's radius, and at most
    that distance.
    """
    d1 = _point_box(b_[0], b_[1], a)
    d2 = _point_box(a[0], a[1], b_)
    return max(d1 - rb, d2 - ra), min(d1, d2)


def _point_box(px: float, py: float, b: Box) -> float:
    """The distance from a point to a base (0 inside)."""
    x, y, c, s, hw, hd = b
    dx, dy = px - x, py - y
    f = abs(dx * c + dy * s) - hd
    lat = abs(-dx * s + dy * c) - hw
    f = f if f > 0.0 else 0.0
    lat = lat if lat > 0.0 else 0.0
    return math.sqrt(f * f + lat * lat)


def fire_reach(b: Battle, u: Unit) -> float:
    """Seed 002 FIRE: the longest range of ``u``'s table row (0: cannot fire); the combat
    role's ``reach``."""
    fc = fire_class(u)
    return 0.0 if fc is None else max_range(fc, b.r)


@cache
def max_range(fc: str, r: R.Rules) -> float:
    """The longest range at which a FIRE table row has a number."""
    top = 0.0
    for band, needed in zip(r.fire_bands, r.fire_table[fc], strict=True):
        if needed:
            top = band
    return top


_FIRE_MODS: dict[tuple[Any, ...], list[R.Mod]] = {}
on_change(_FIRE_MODS.clear)


def fire_mods(b: Battle, u: Unit, fc: str, t: Unit) -> list[R.Mod]:
    """Seed 002 FIRE modifiers for ``u`` firing at ``t`` (shared lists: do not change them)."""
    cover = in_cover(b, u, t)
    key = (u.side, fc, u.formation, u.marker, t.type, t.mounted, t.formation, cover, b.r)
    mods = _FIRE_MODS.get(key)
    if mods is None:
        facts = R.FireFacts(
            u.side, fc, u.formation, u.marker, t.type, t.mounted, t.formation, cover
        )
        mods = _FIRE_MODS[key] = R.fire_modifiers(facts, b.r)
    return mods


def in_cover(b: Battle, firer: Unit, t: Unit) -> bool:
    """Default ``cover_terrain``: cover terrain at the centre, or a wall across the fire."""
    board = b.setup.board
    if board.in_cover(t.x, t.y):
        return True
    dx, dy = firer.x - t.x, firer.y - t.y
    n = _hypot(dx, dy) or 1.0
    reach = t.hd + 1.0
    return board.crosses_wall(t.x, t.y, t.x + dx / n * reach, t.y + dy / n * reach)


def contact_point(u: Unit, t: Unit) -> tuple[float, float, float, bool]:
    """Where a charger ends against ``t`` and whether it qualifies as flank or rear.

    Default ``charge_contact_point``; reading ``flank_rear_start``.
    """
    fwd, lat = local(t.x, t.y, t.theta, u.x, u.y)
    c, s = math.cos(t.theta), math.sin(t.theta)
    if fwd > t.hd:  # in front of the front edge
        nx, ny, off, flank = c, s, t.hd, False
    elif fwd < -t.hd:  # behind the rear edge
        nx, ny, off, flank = -c, -s, t.hd, True
    elif abs(lat) > t.hw:  # beside it, behind the line of its front edge
        sign = 1.0 if lat > 0 else -1.0
        nx, ny, off, flank = -s * sign, c * sign, t.hw, True
    else:
        nx, ny, off, flank = c, s, t.hd, False
    x = t.x + nx * (off + u.hd)
    y = t.y + ny * (off + u.hd)
    return x, y, _atan2(-ny, -nx), flank


def after_change(u: Unit, change: str) -> tuple[str, bool, bool, str | None]:
    """(formation, mounted, limbered, cost kind) after a change; refuses impossible ones."""
    f, m, lim = u.formation, u.mounted, u.limbered
    if change == "":
        return f, m, lim, None
    if change in ("line", "column"):
        if u.type == "artillery":
            raise IllegalActionError(f"{u.name}: artillery has no {change} formation")
        if change == f:
            raise IllegalActionError(f"{u.name} is already in {change}")
        return change, m, lim, "formation"
    if change in ("mount", "dismount"):
        if u.type != "cavalry":
            raise IllegalActionError(f"{u.name}: only cavalry can {change}")
        if (change == "mount") == m:
            raise IllegalActionError(f"{u.name} is already {change}ed")
        return f, change == "mount", lim, "mount"
    if change in ("limber", "unlimber"):
        if u.type != "artillery":
            raise IllegalActionError(f"{u.name}: only artillery can {change}")
        if (change == "limber") == lim:
            raise IllegalActionError(f"{u.name} is already {change}ed")
        return f, m, change == "limber", "formation"
    raise IllegalActionError(f"unknown formation change '{change}' (known: {', '.join(CHANGES)})")


_CAN_CHANGE: dict[tuple[str, str, bool, bool], tuple[str, ...]] = {}


def changes_open(u: Unit) -> tuple[str, ...]:
    """The formation changes ``u`` can make now (those :func:`after_change` does not
    refuse), in the order of ``CHANGES``; known per troop type and formation."""
    key = (u.type, u.formation, u.mounted, u.limbered)
    found = _CAN_CHANGE.get(key)
    if found is None:
        ok = []
        for change in CHANGES[1:]:
            try:
                after_change(u, change)
            except IllegalActionError:
                continue
            ok.append(change)
        found = _CAN_CHANGE[key] = tuple(ok)
    return found


def allowance(
    b: Battle,
    u: Unit,
    formation: str,
    mounted: bool,
    limbered: bool,
    change: str | None,
    rough: bool,
) -> float:
    """Seed 002 MOVEMENT + COMMAND + LEADERS: the inches this move may cover."""
    key = R.move_key(u.type, formation, mounted, limbered)
    if u.type == "artillery" and change == "formation":
        key = "artillery_limbered"  # limbering or unlimbering: half the limbered move
    return R.move_inches(key, rough, u.in_command, u.leader_lost, change, b.r)


def check_move(b: Battle, u: Unit, x: float, y: float, theta: float, change: str) -> float:
    """Validate a normal move; return its length. Raises IllegalActionError with the reason."""
    key = ("move", u.i, x, y, theta, change, u.marker, u.in_command, u.leader_lost)
    dist = b.memo.get(key)
    if dist is None:
        res = _move(b, u, x, y, theta, change, True)
        if isinstance(res, str):
            raise IllegalActionError(res)
        dist = b.memo[key] = res
    return float(dist)


def move_ok(b: Battle, u: Unit, x: float, y: float, theta: float, change: str) -> bool:
    """Is the move legal? (No message is made; a legal answer is kept for ``check_move``.)

    Raises IllegalActionError only for a formation change the unit cannot make.
    """
    res = _move(b, u, x, y, theta, change, False)
    if isinstance(res, str):
        return False
    b.memo["move", u.i, x, y, theta, change, u.marker, u.in_command, u.leader_lost] = res
    return True


def terrain_going(u: Unit, rough: bool, dist: float) -> bool | None:
    """Unit effect ``terrain``: "harder" (open as rough, rough impassable), "easier" (rough as
    open). Returns whether the move counts as rough, None when it may not be made."""
    kind = fx(u, "terrain")
    if kind == "harder":
        return None if rough else dist > 0
    if kind == "easier":
        return False
    return rough


def _move(
    b: Battle, u: Unit, x: float, y: float, theta: float, change: str, why: bool
) -> float | str:
    """The length of a legal move, or why it is illegal ("" unless ``why``)."""
    limit = b.status.move_limit(b, u)
    if limit != "free" and limit != "no_advance":
        if not why:
            return ""
        if limit == "rally":
            return f"{u.name} has a Morale Marker: it may only hold, turn about or rout"
        return f"{u.name} may not move now ({b.status.label(u) or 'held'})"
    if u.extra:
        for key in ("no_move", "no_act"):
            if fx(u, key):
                return f"{u.name} may not move this turn ({fx_why(u, key)})" if why else ""
    form, mounted, limbered, cost = after_change(u, change)
    dist = _hypot(x - u.x, y - u.y)
    if limit == "no_advance" and dist > 0 and b.advances(u, x, y):
        if not why:
            return ""
        return (
            f"{u.name} is {b.status.label(u)} and may not advance (no part of its move may "
            "come nearer its nearest enemy)"
        )
    board = b.setup.board
    if not why and dist > 0 and not (u.extra and fx(u, "terrain")):
        # The yes/no answer needs the ground only when the distance lies between the
        # allowance over rough ground and the one in the open (the walk costs most).
        a_open = allowance(b, u, form, mounted, limbered, cost, False)
        a_rough = allowance(b, u, form, mounted, limbered, cost, True)
        if dist > max(a_open, a_rough) + 1e-6:
            return ""
        if dist > min(a_open, a_rough) + 1e-6:
            rough = board.path_rough(u.x, u.y, x, y) or board.is_rough(x, y)
            if dist > (a_rough if rough else a_open) + 1e-6:
                return ""
        return _move_room(b, u, x, y, theta, form, dist, why)
    rough = dist > 0 and (board.path_rough(u.x, u.y, x, y) or board.is_rough(x, y))
    if u.extra and fx(u, "terrain"):
        going = terrain_going(u, rough, dist)
        if going is None:
            return (
                f"{u.name} cannot enter rough ground this turn ({fx_why(u, 'terrain')})"
                if why
                else ""
            )
        rough = going
    allow = allowance(b, u, form, mounted, limbered, cost, rough)
    if dist > allow + 1e-6:
        if not why:
            return ""
        return f'{u.name} may move {allow:.2f}" this turn, not {dist:.2f}"' + (
            " (rough ground)" if rough else ""
        )
    return _move_room(b, u, x, y, theta, form, dist, why)


def _move_room(
    b: Battle, u: Unit, x: float, y: float, theta: float, form: str, dist: float, why: bool
) -> float | str:
    """The last tests of :func:`_move` (a move within its allowance): room on the table,
    no enemy crossed, no contact. The move's length, or why not ("" unless ``why``)."""
    hw, hd = base_size(u.type, form, u.stands, b.r.bases)
    if not b.free_at(u, x, y, theta, hw, hd):
        return f"{u.name} cannot end there: off the table or on another unit" if why else ""
    if dist > 0 and b.crosses_enemy(u, x, y):
        return f"{u.name} cannot move through an enemy unit" if why else ""
    if b.touching_box(u, (x, y, math.cos(theta), math.sin(theta), hw, hd)):
        if not why:
            return ""
        return f"{u.name} would touch an enemy: moving into contact needs a charge"
    return dist


Charge = tuple[float, float, float, bool, float]


def charge_reach(b: Battle, u: Unit, t: Unit) -> Charge:
    """(x, y, theta, flank, distance) of a legal charge; IllegalActionError otherwise."""
    res = _charge(b, u, t, True)
    if isinstance(res, str):
        raise IllegalActionError(res)
    return res


def charge_option(b: Battle, u: Unit, t: Unit) -> Charge | None:
    """:func:`charge_reach` without a message: None when the charge is illegal."""
    res = _charge(b, u, t, False)
    return None if isinstance(res, str) else res


def charge_options(b: Battle, u: Unit, ts: list[Unit]) -> list[tuple[Unit, Charge]]:
    """:func:`charge_option` for each of ``ts`` (the legal ones, in order), the charger's
    own tests made once (a menu tries its eight nearest enemies)."""
    if b.status.move_limit(b, u) != "free" or u.type == "artillery":
        return []
    if u.extra and (fx(u, "no_move") or fx(u, "no_charge") or fx(u, "no_act")):
        return []
    open_allow = allowance(b, u, u.formation, u.mounted, u.limbered, None, False)
    out = []
    for t in ts:
        if t.alive and t.side != u.side:
            res = _charge_to(b, u, t, False, open_allow)
            if not isinstance(res, str):
                out.append((t, res))
    return out


def charge_in_reach(u: Unit, t: Unit, open_allow: float) -> bool:
    """Could ``u`` reach ``t`` at all with a move of ``open_allow`` in the open? False settles
    that the charge is illegal (rough ground only slows): the contact point lies within
    max(hw, hd) + the charger's depth of the target's centre."""
    dx, dy = t.x - u.x, t.y - u.y
    big = max(t.hw, t.hd)
    if surely_beyond(dx, dy, open_allow + 1e-5 + big + u.hd):
        return False
    gap = _hypot(dx, dy) - big - u.hd
    return not gap > open_allow + 1e-5


def _charge(b: Battle, u: Unit, t: Unit, why: bool) -> Charge | str:
    limit = b.status.move_limit(b, u)
    if limit != "free":
        if not why:
            return ""
        if limit == "rally":
            return f"{u.name} has a Morale Marker and cannot charge"
        return f"{u.name} is {b.status.label(u) or 'held'} and cannot charge"
    if u.extra:
        for key in ("no_move", "no_charge", "no_act"):
            if fx(u, key):
                return f"{u.name} may not charge this turn ({fx_why(u, key)})" if why else ""
    if not t.alive or t.side == u.side:
        return f"{t.name} is not an enemy unit on the table" if why else ""
    if u.type == "artillery":
        return f"{u.name}: artillery does not charge" if why else ""
    return _charge_to(
        b, u, t, why, allowance(b, u, u.formation, u.mounted, u.limbered, None, False)
    )


def _charge_to(b: Battle, u: Unit, t: Unit, why: bool, open_allow: float) -> Charge | str:
    """The geometry of a charge the charger may make (its move in the open: ``open_allow``)."""
    if not why and not charge_in_reach(u, t, open_allow):
        return ""
    x, y, th, flank = contact_point(u, t)
    dist = _hypot(x - u.x, y - u.y)
    if not why and dist > open_allow + 1e-6:
        return ""  # too far even in the open
    board = b.setup.board
    rough = board.path_rough(u.x, u.y, x, y)
    if u.extra and fx(u, "terrain"):
        going = terrain_going(u, rough, dist)
        if going is None:
            return f"{u.name} cannot enter rough ground this turn" if why else ""
        rough = going
    allow = allowance(b, u, u.formation, u.mounted, u.limbered, None, rough)
    if dist > allow + 1e-6:
        if not why:
            return ""
        return f'{u.name} cannot reach {t.name}: {dist:.2f}" needed, {allow:.2f}" allowed'
    if not b.free_at(u, x, y, th, u.hw, u.hd, ignore=(t.i,)):
        return f"{u.name} has no room to contact {t.name}" if why else ""
    d = dist or 1.0
    free, what = charge_path(b, u, (x - u.x) / d, (y - u.y) / d, dist, th, why)
    if what is not None:
        if not why:
            return ""
        return (
            f"{u.name} cannot charge {t.name}: {what} is in the way "
            f'{free:.1f}" along the {dist:.1f}" to contact'
        )
    return x, y, th, flank, dist


def charge_path(
    b: Battle, u: Unit, dx: float, dy: float, dist: float, theta: float, name: bool
) -> tuple[float, str | None]:
    """Default ``charge_path_clear``: the path of a charge, stepped as ``Battle.slide`` moves
    the charger (half-inch steps along (dx, dy), at the facing it ends in), must be clear
    of every other base and on the table. (The inches clear, what is in the way: None when
    nothing is; ``name``: say who or what in words, else any text.)"""
    step = b.geo["retreat_step"]
    n = max(1, math.ceil(dist / step))
    board = b.setup.board
    w, h = board.width, board.height
    x0, y0 = u.x, u.y
    hw, hd = u.hw, u.hd
    free = 0.0
    for k in range(1, n + 1):
        d = min(dist, k * step)
        nx, ny = x0 + dx * d, y0 + dy * d
        if not (0 <= nx <= w and 0 <= ny <= h):
            return free, "the table edge"
        if not b.free_at(u, nx, ny, theta, hw, hd):
            if not name:
                return free, ""
            if not board.on_table(corners(nx, ny, theta, hw, hd)):
                return free, "the table edge"
            who = b.bases_at(u, nx, ny, theta)
            return free, who[0].name if who else "another base"
        free = d
    return dist, None


TWO_D6: Final = by_faces(2, 6, sum)
"""The exact distribution of a 2d6 total (melee's dice, for the luck report)."""


def passes_2d6(number: int) -> Dist:
    """P(2d6 >= ``number``) as a pass (1) or a fail (0): the luck of a test (issue 24)."""
    return by_faces(2, 6, lambda f: int(f[0] + f[1] >= number))


def fire_dist(b: Battle, needed: int, mod: int) -> Dist:
    """Seed 002 FIRE's exact stands lost for one 2d6 with ``mod`` against ``needed``."""
    return by_faces(2, 6, lambda f: R.fire_stands_lost(f[0] + f[1], needed, mod, b.r))


def spared(b: Battle) -> Dist:
    """Seed 002's leader casualty 1d6: P(the leader is spared)."""
    return by_faces(1, 6, lambda f: int(not R.leader_lost(f[0], b.r)))


def morale_roll(b: Battle, u: Unit, purpose: str) -> bool:
    """Seed 002 MORALE: 2d6 + attached leader bonus - 1 with a MM >= 8 (USA) / 7 (CSA)."""
    number, mods = R.morale_test(u.side, attached_bonus(b, u), u.marker, b.r)
    if u.extra:
        extra = effect_mods(u, "charge" if purpose == "charge test" else "morale", b.r)
        mods = mods + extra
        say_effects(b, u, extra, purpose)
    mod = sum(m.value for m in mods)
    faces = b.roll(2, 6, f"{u.name}: {purpose} (needs {number}+, modifiers {mod:+d})")
    total = sum(faces) + mod
    ok = total >= number
    if b.luck is not None:  # seed 002 MORALE: a pass is good for the unit's side
        b.note(u.side, "tests passed", int(ok), passes_2d6(number - mod))
    if b.narrate:
        b.say(
            f"  {u.name} {purpose}: rolled {faces[0]}+{faces[1]}"
            f"{''.join(f' {m.value:+d}' for m in mods)} = {total} vs {number}+: "
            f"{'pass' if ok else 'fail'}"
        )
    return ok


def do_charge(b: Battle, u: Unit, t: Unit) -> None:
    """Seed 002 charge paragraph: charge test, half move and MM on failure, stand test.

    The charger moves along its path (default ``charge_path_clear``); where a base or the
    table edge stops it short, the narrative says where and why."""
    x, y, th, flank, dist = charge_reach(b, u, t)
    if b.narrate:
        b.say(f"{u.name} charges {t.name}" + (" in flank/rear" if flank else ""))
    u.moved = True
    u.charged = True
    dx, dy = (x - u.x) / (dist or 1.0), (y - u.y) / (dist or 1.0)
    if not morale_roll(b, u, "charge test"):
        half = dist * b.r.failed_charge_fraction
        if not charge_move(b, u, t, dx, dy, half, th, "falls short"):
            return
        b.status.on_setback(b, u, "charge_failed", t)
        return
    if not morale_roll(b, t, "stand test"):
        b.status.on_setback(b, t, "stand_failed", u)
        moved = charge_move(b, u, t, dx, dy, dist, th, "advances")
        if moved and t.alive and t.i in b.touching(u):  # its way back was blocked: it goes in
            b.state.contacts.append([u.i, t.i, 1 if flank else 0])
            if b.narrate:
                b.say(f"  {u.name} reaches {t.name}, which could not get away")
        return
    if charge_move(b, u, t, dx, dy, dist, th, "") and t.i in b.touching(u):
        b.state.contacts.append([u.i, t.i, 1 if flank else 0])
        if b.narrate:
            b.say(f"  {u.name} makes contact with {t.name}")


def charge_move(
    b: Battle, u: Unit, t: Unit, dx: float, dy: float, dist: float, th: float, how: str
) -> bool:
    """Move a charger ``dist`` along (dx, dy) (``Battle.slide``); False when it left the table
    (it is removed). The narrative says how far it went (``how``: "falls short", ...) and,
    when something stopped it before ``dist``, what."""
    x0, y0 = u.x, u.y
    if not b.slide(u, dx, dy, dist, th):
        remove(b, u, "charged off the table")
        return False
    if b.narrate:
        moved = _hypot(u.x - x0, u.y - y0)
        if moved < dist - 1e-6:
            what = blocker(b, u, x0, y0, dx, dy, moved, dist)
            b.say(
                f'  {u.name} stops after {moved:.1f}" of {dist:.1f}", short of {t.name}: '
                f"{what} in the way"
            )
        elif how:
            b.say(f'  {u.name} {how} {dist:.1f}" toward {t.name}')
    return True


# -- steps -----------------------------------------------------------------------------


class CommandStep:
    """Seed 002 Command: leaders move (24", half in rough) and may attach to a unit."""

    kind = "leader"
    actor = "first"

    def actors(self, b: Battle, side: str) -> list[int]:
        return [ld.i for ld in b.state.leaders if ld.alive and ld.side == side]

    def eligible(self, b: Battle, actor: int) -> bool:
        return b.state.leaders[actor].alive

    def apply(self, b: Battle, side: str, actor: int, order: Order) -> None:
        ld = b.state.leaders[actor]
        if order[0] == "hold":
            return
        if order[0] != "leader":
            raise IllegalActionError(f"a leader order is needed for {ld.name}, not '{order[0]}'")
        x, y, att = float(order[1]), float(order[2]), int(order[3])
        if att >= 0:
            if att >= len(b.state.units):
                raise IllegalActionError(f"no unit {att}")
            u = b.state.units[att]
            if not u.alive or u.side != ld.side:
                raise IllegalActionError(f"{ld.name} can only attach to a friendly unit in play")
            x, y = u.x, u.y
        board = b.setup.board
        if not (0 <= x <= board.width and 0 <= y <= board.height):
            raise IllegalActionError(f"{ld.name} cannot leave the table")
        dist = _hypot(x - ld.x, y - ld.y)
        rate = b.r.movement["leader"]
        allow = rate.open * (rate.rough if board.path_rough(ld.x, ld.y, x, y) else 1.0)
        if dist > allow + 1e-6:
            raise IllegalActionError(f'{ld.name} may move {allow:g}", not {dist:.2f}"')
        ld.x, ld.y, ld.attached = x, y, att

    def auto(self, b: Battle, side: str) -> None:  # pragma: no cover - not automatic
        raise NotImplementedError


class MoveStep:
    """Seed 002 Move: moves, formation changes, charges, routs of units with a MM."""

    kind = "move"
    actor = "first"

    def actors(self, b: Battle, side: str) -> list[int]:
        leaders = b.state.leaders
        scope = b.scope
        out = []
        for u in b.state.units:
            if u.side != side or (scope is not None and u.i not in scope):
                continue
            u.moved = False
            u.charged = False
            if u.alive:
                out.append(u.i)
                if u.leader >= 0 and leaders[u.leader].alive:
                    ld = leaders[u.leader]
                    u.in_command = _hypot(u.x - ld.x, u.y - ld.y) <= ld.radius + 1e-9
                else:
                    u.in_command = True  # reading lost_leader_command
        b.state.contacts = []
        return out

    def eligible(self, b: Battle, actor: int) -> bool:
        return b.state.units[actor].alive

    def apply(self, b: Battle, side: str, actor: int, order: Order) -> None:
        u = b.state.units[actor]
        kind = order[0]
        if u.extra and fx(u, "must_charge") and kind != "charge" and must_charge(b, u):
            raise IllegalActionError(f"{u.name} must charge this turn ({fx_why(u, 'must_charge')})")
        if kind == "hold":
            return
        if kind == "turn":
            if b.status.move_limit(b, u) != "rally":
                raise IllegalActionError(
                    f"{u.name}: 'turn' is the about-face of a unit with a MM; use a move"
                )
            b.place(u, u.x, u.y, u.theta + math.pi)
            if b.narrate:
                b.say(f"{u.name} turns about")
            return
        if kind == "rout":
            if b.status.move_limit(b, u) != "rally":
                raise IllegalActionError(f"{u.name} has no Morale Marker and cannot rout")
            if b.narrate:
                b.say(f"{u.name} routs")
            rout_move(b, u)
            return
        if kind == "move":
            x, y, th = float(order[1]), float(order[2]), float(order[3])
            change = str(order[4]) if len(order) > 4 else ""
            dist = check_move(b, u, x, y, th, change)
            form, mounted, limbered, _ = after_change(u, change)
            u.formation, u.mounted, u.limbered = form, mounted, limbered
            u.resize()
            b.place(u, x, y, th)
            if dist > 1e-9 or change:
                u.moved = True
                if b.narrate:
                    b.say(f'{u.name} moves {dist:.1f}"' + (f" ({change})" if change else ""))
            return
        if kind == "charge":
            t = int(order[1])
            if not 0 <= t < len(b.state.units):
                raise IllegalActionError(f"no unit {t}")
            if u.extra and fx(u, "must_charge"):  # the charge it had to make: obligation met
                charge_reach(b, u, b.state.units[t])  # refused before anything changes
                if b.narrate:
                    b.say(f"{u.name} must charge ({fx_why(u, 'must_charge')})")
                clear_fx(u, "must_charge")
            do_charge(b, u, b.state.units[t])
            return
        raise IllegalActionError(f"unknown move order '{kind}'")

    def auto(self, b: Battle, side: str) -> None:  # pragma: no cover
        raise NotImplementedError


class RallyStep(AutoStep):
    """Seed 002 Rally: remove MMs of the 1st player's units that did not move."""

    def auto(self, b: Battle, side: str) -> None:
        scope = b.scope
        for u in b.state.units:
            if scope is not None and u.i not in scope:
                continue
            if u.extra and (fx(u, "no_act") or fx(u, "no_rally")):
                continue
            if u.alive and u.side == side and u.marker and not u.moved:
                u.marker = False
                if b.narrate:
                    b.say(f"{u.name} rallies")


class FireStep:
    """Seed 002 Defensive Fire (2nd player) / Offensive Fire (1st player).

    "Fire with all eligible units": a unit is asked only when it has a target at the
    moment its turn to fire comes (otherwise holding is its only order, so no one is
    asked and nothing is logged).

    Other sequences narrow it: ``units`` is ``all``, ``artillery`` (seed 004 step 1:
    artillery except canister) or ``other`` (step 2: the rest, and artillery firing
    canister); ``targets`` is ``any`` or ``chargers`` (step 4: units that charged the
    firer's side or crossed its field of fire this step). The sequence module marks
    what this step reads (``fx`` flags and ``crossed``).
    """

    kind = "fire"

    def __init__(
        self,
        units: str = "all",
        targets: str = "any",
        mark: str = "",
        blocked_by: str = "",
        mode: str = "offensive",
    ):
        self.units = units
        self.targets = targets
        self.mark = mark  # an fx flag set (to the turn) on each unit that fires here
        self.blocked_by = blocked_by  # an fx flag that bars a unit from firing here
        self.reaction = targets == "chargers" or mode == "defensive"  # unit effects' "reaction"
        self.plain = units == "all" and targets == "any" and not mark and not blocked_by

    def actors(self, b: Battle, side: str) -> list[int]:
        want = self.units
        return [
            u.i
            for u in b.state.units
            if u.alive
            and u.side == side
            and fire_class(u)
            and (want != "artillery" or u.type == "artillery")
        ]

    def eligible(self, b: Battle, actor: int) -> bool:
        u = b.state.units[actor]
        if self.plain:
            return u.alive and fire_class(u) is not None and bool(targets(b, u, exact=False))
        return u.alive and fire_class(u) is not None and bool(self.shots(b, u, exact=False))

    def shots(self, b: Battle, u: Unit, exact: bool) -> list[tuple[int, int, list[R.Mod], float]]:
        """The targets this step allows ``u`` (see the class docstring)."""
        if self.plain:
            return targets(b, u, exact=exact)
        if self.blocked_by and u.extra and fx(u, self.blocked_by):
            return []
        if self.targets == "chargers":  # only those who may be shot at here are looked at
            allowed = self._chargers(b, u)
            if not allowed:
                return []
            found = _targets(b, u, exact, allowed, tuple(sorted(allowed)))
        else:
            found = targets(b, u, exact=exact)
        if u.type != "artillery" or self.units == "all":
            return found
        us = b.state.units
        out = []
        for shot in found:
            canister = is_canister(b, u, us[shot[0]])
            if canister != (self.units == "artillery"):
                out.append(shot)
        return out

    def _chargers(self, b: Battle, u: Unit) -> set[int]:
        """The units ``u`` may shoot at in a ``chargers`` step: those that charged its side
        and those that crossed its field of fire."""
        us = b.state.units
        allowed = {i for i in charged_at(b, u.side) if us[i].charged}
        me = u.i
        for t in us:
            ex = t.extra
            if ex:
                crossed = ex.get("crossed")
                if crossed and me in crossed:
                    allowed.add(t.i)
        return allowed

    def apply(self, b: Battle, side: str, actor: int, order: Order) -> None:
        u = b.state.units[actor]
        if order[0] == "hold":
            return
        if order[0] != "fire":
            raise IllegalActionError(f"a fire order is needed for {u.name}, not '{order[0]}'")
        t = int(order[1])
        for c, needed, mods, rng in self.shots(b, u, exact=b.narrate):
            if c == t:
                target = b.state.units[t]
                if u.extra:
                    extra = fire_effects(b, u, target, self.reaction)
                    mods = mods + extra
                    say_effects(b, u, extra, "fire")
                resolve_fire(b, u, target, needed, mods, rng)
                if self.mark:
                    set_fx(u, self.mark, b.state.turn)
                return
        if not self.plain and any(c == t for c, *_ in targets(b, u)):
            raise IllegalActionError(
                f"{u.name} cannot fire at {b.state.units[t].name} in this step"
            )
        raise IllegalActionError(why_not_fire(b, u, t))

    def auto(self, b: Battle, side: str) -> None:  # pragma: no cover
        raise NotImplementedError


def is_canister(b: Battle, u: Unit, t: Unit) -> bool:
    """Reading ``canister_band``: artillery fire in the closest range band is canister."""
    return u.type == "artillery" and b.dist(u.i, t.i) <= b.r.fire_bands[0] + 1e-9


def charged_at(b: Battle, side: str) -> set[int]:
    """Units that charged into contact with ``side`` this step (from the contact list)."""
    us = b.state.units
    return {c[0] for c in b.state.contacts if us[c[1]].side == side}


def why_not_fire(b: Battle, u: Unit, t: int) -> str:
    """The reason ``u`` cannot fire at unit ``t`` (for the one-line error)."""
    if not 0 <= t < len(b.state.units) or not b.state.units[t].alive:
        return f"{u.name} cannot fire: no such target on the table"
    v = b.state.units[t]
    fc = fire_class(u)
    if fc is None:
        return f"{u.name} cannot fire (mounted cavalry or limbered guns)"
    if v.side == u.side:
        return f"{u.name} cannot fire at a friendly unit"
    if b.touching(v) and not b.status.fire_on_engaged(b, v):
        return f"{u.name} cannot fire at {v.name}: Engaged units cannot be fired upon"
    d = float(b.dist_to(u, [t])[0])
    if R.fire_needed(fc, d, b.r) is None:
        return f'{u.name} cannot fire at {v.name}: out of range ({d:.1f}")'
    if not b.in_arc(u, v):
        return f"{u.name} cannot fire at {v.name}: outside its front arc"
    if not b.sight(u, [t])[0]:
        return f"{u.name} cannot fire at {v.name}: no line of sight"
    return f"{u.name} cannot fire at {v.name}: it is engaged in melee"


def resolve_fire(b: Battle, u: Unit, t: Unit, needed: int, mods: list[R.Mod], rng: float) -> int:
    """Seed 002 FIRE: 2d6 + modifiers vs the table; 1 stand and a MM, 2 if beaten by 8."""
    mod = sum(m.value for m in mods)
    # the number needed is in the purpose, so real dice are asked for with it (issue 21)
    faces = b.roll(2, 6, f"{u.name} fires at {t.name} (needs {needed}+, modifiers {mod:+d})")
    lost = R.fire_stands_lost(faces[0] + faces[1], needed, mod, b.r)
    if b.luck is not None:  # seed 002 FIRE: the stands the fire takes, for the firer
        b.note(u.side, "fire hits", lost, fire_dist(b, needed, mod))
    if b.narrate:
        # Seed 002's own status words the result in stands; another status (004's ladder)
        # words it as the hit's margin and then says what the hit does.
        score = sum(faces) + mod
        if not lost:
            result = "miss"
        elif b.status.id == "quick-acw":
            result = f"{lost} stand(s)"
        else:
            result = f"hit, beaten by {score - needed}"
        b.say(
            f'{u.name} fires at {t.name} ({rng:.1f}", needs {needed}+): rolled '
            f"{faces[0]}+{faces[1]}{''.join(f' {m.value:+d}' for m in mods)} = "
            f"{score}: " + result
        )
    if lost:
        b.status.on_hit(b, t, sum(faces) + mod - needed, lost, "fire")
    return lost


def melee_key(
    b: Battle, u: Unit, e: Unit, attacking: bool, flank: bool, bonus: int | None
) -> tuple[Any, ...]:
    """The MELEE modifier facts for ``u`` fighting ``e`` (``bonus``: the attached leader's),
    as a plain tuple in :class:`~umpire.rules.quick_acw.rules.MeleeFacts`' field order."""
    board = b.setup.board
    return (
        u.side,
        u.type,
        u.mounted,
        u.formation,
        u.stands,
        attacking,
        (not attacking) and board.crosses_obstacle(u.x, u.y, e.x, e.y),
        board.height_at(u.x, u.y) > board.height_at(e.x, e.y),
        u.marker,
        bonus,
        flank,
    )


def melee_facts(b: Battle, u: Unit, e: Unit, attacking: bool, flank: bool) -> R.MeleeFacts:
    """The MELEE modifier facts for ``u`` fighting ``e``."""
    return R.MeleeFacts(*melee_key(b, u, e, attacking, flank, attached_bonus(b, u)))


def resolve_melee(b: Battle, a: Unit, d: Unit, charged: bool, flank: bool) -> None:
    """Seed 002 MELEE: both roll 2d6 + stands + modifiers; the difference table decides."""
    ma = R.melee_modifiers(melee_facts(b, a, d, charged, flank), b.r)
    md = R.melee_modifiers(melee_facts(b, d, a, False, False), b.r)
    if a.extra:
        extra = effect_mods(a, "melee", b.r)
        ma = ma + extra
        say_effects(b, a, extra, "melee")
    if d.extra:
        extra = effect_mods(d, "melee", b.r)
        md = md + extra
        say_effects(b, d, extra, "melee")
    fa = b.roll(2, 6, f"melee: {a.name} (attacker) against {d.name}")
    if b.luck is not None:  # seed 002 MELEE: each side's 2d6, higher is better for it
        b.note(a.side, "melee dice", sum(fa), TWO_D6)
    fd = b.roll(2, 6, f"melee: {d.name} (defender) against {a.name}")
    if b.luck is not None:
        b.note(d.side, "melee dice", sum(fd), TWO_D6)
    sa = sum(fa) + sum(m.value for m in ma)
    sd = sum(fd) + sum(m.value for m in md)
    row = R.melee_row(sa - sd, b.r)
    if b.narrate:
        b.say(f"Melee {a.name} {sa} vs {d.name} {sd}")
    if sa >= sd:
        win, lose = a, d
    else:
        win, lose = d, a
    results: list[tuple[Unit, Unit, int, bool]] = [
        (win, lose, row.win_loss, row.win_retreat),
        (lose, win, row.lose_loss, row.lose_retreat),
    ]
    for u, _, n, _ in results:
        lose_stands(b, u, n, "melee")
    for u, other, _, ret in results:
        if ret and u.alive:
            b.status.on_setback(b, u, "melee_retreat", other)


class MeleeStep(AutoStep):
    """Seed 002 Melee: "any enemy units touching now fight" (default ``melee_pairs``)."""

    def auto(self, b: Battle, side: str) -> None:
        us = b.state.units
        pairs: list[tuple[int, int, bool, bool]] = [
            (c[0], c[1], True, bool(c[2])) for c in b.state.contacts
        ]
        seen = {(a, d) for a, d, _, _ in pairs} | {(d, a) for a, d, _, _ in pairs}
        for u in us:
            if u.alive and u.side == side:
                for e in b.touching(u):
                    if (u.i, e) not in seen:
                        pairs.append((u.i, e, False, False))
                        seen |= {(u.i, e), (e, u.i)}
        for a, d, charged, flank in pairs:
            ua, ud = us[a], us[d]
            if ua.alive and ud.alive and d in b.touching(ua):
                resolve_melee(b, ua, ud, charged, flank)
            elif charged and b.narrate:
                b.say(no_melee(ua, ud))
        b.state.contacts = []


def no_melee(a: Unit, d: Unit) -> str:
    """Why a charge that reached contact is not fought in the melee step, in words."""
    if not a.alive or not d.alive:
        gone = ", ".join(x.name for x in (a, d) if not x.alive)
        return f"No melee for {a.name}'s charge on {d.name}: {gone} left the table first"
    return f"No melee for {a.name}'s charge on {d.name}: they no longer touch"


# -- unit effects (umpire.battle.effects) -------------------------------------------------


EFFECT_MOD_KEYS: Final = {"fire": "fire_mod", "melee": "melee_mod", "charge": "charge_mod"}
"""The unit effect that adds to each kind of roll."""


def effect_mods(u: Unit, what: str, r: R.Rules) -> list[R.Mod]:
    """Modifiers that unit effects add to a ``fire``, ``melee``, ``charge`` or ``morale`` roll.

    ``ignore_disruption`` cancels the Morale Marker's modifier (its own line in the trace);
    ``extra_die`` is one more stand fighting in a melee and +1 to a fire roll (reading
    ``extra_die_one_stand``; seed 001 event 19 "an extra die roll during combat").
    """
    out: list[R.Mod] = []
    why = u.extra.get("fx_why", {})
    key = EFFECT_MOD_KEYS.get(what)
    if key and fx(u, key):
        out.append(R.Mod(key, int(fx(u, key)), why.get(key, key), "unit effect"))
    if what in ("melee", "fire") and fx(u, "extra_die"):
        n = int(fx(u, "extra_die"))
        out.append(R.Mod("extra_die", n, why.get("extra_die", "extra die"), "unit effect"))
    if u.marker and fx(u, "ignore_disruption"):
        cancel = {
            "fire": -r.fire_mods["firer_marker"],
            "melee": -r.melee_mods["marker"],
            "charge": -r.morale_marker,
            "morale": -r.morale_marker,
        }[what]
        text = why.get("ignore_disruption", "ignores its marker")
        out.append(R.Mod("ignore_disruption", cancel, text, "unit effect"))
    return out


def say_effects(b: Battle, u: Unit, mods: list[R.Mod], roll: str) -> None:
    """Narrate the unit effects on one roll, each with its cause (an event, a sequence's
    mark), so a player sees where an effect takes hold (reading ``event_modifiers_in_trace``)."""
    if b.narrate:
        for m in mods:
            b.say(f"  {u.name}: {m.value:+d} to its {roll} ({m.text})")


def fire_effects(b: Battle, u: Unit, t: Unit, reaction: bool) -> list[R.Mod]:
    """Unit effects on one shot: the firer's fire, canister and reaction-fire modifiers."""
    out = effect_mods(u, "fire", b.r)
    why = u.extra.get("fx_why", {})
    if fx(u, "canister_mod") and is_canister(b, u, t):
        v = int(fx(u, "canister_mod"))
        out.append(R.Mod("canister_mod", v, why.get("canister_mod", "canister"), "unit effect"))
    if reaction and fx(u, "reaction_fire_mod"):
        v = int(fx(u, "reaction_fire_mod"))
        text = why.get("reaction_fire_mod", "reaction fire")
        out.append(R.Mod("reaction_fire_mod", v, text, "unit effect"))
    return out


def must_charge(b: Battle, u: Unit) -> bool:
    """Unit effect ``must_charge``: true while the unit has a legal charge to make."""
    return any(
        charge_option(b, u, v) is not None for v in b.state.units if v.alive and v.side != u.side
    )


def charge_mods(b: Battle, u: Unit, t: Unit, flank: bool) -> tuple[int, int, int, int, int, int]:
    """The numbers of a charge by ``u`` on ``t``, for its exact odds: (charge number, its
    modifier, stand number, its modifier, attacker's melee modifier, defender's), unit
    effects included (seed 002 charge paragraph, MORALE, MELEE)."""
    r = b.r
    bonus_u, bonus_t = attached_bonus(b, u), attached_bonus(b, t)
    # R.morale_test's number and the sum of its modifiers, without making the modifiers
    n_a, m_a = r.sides[u.side].morale, R.morale_total(bonus_u, u.marker, r)
    n_d, m_d = r.sides[t.side].morale, R.morale_total(bonus_t, t.marker, r)
    ma = melee_total(b, u, t, True, flank, bonus_u)
    md = melee_total(b, t, u, False, False, bonus_t)
    if u.extra:
        m_a += total(effect_mods(u, "charge", r))
        ma += total(effect_mods(u, "melee", r))
    if t.extra:
        m_d += total(effect_mods(t, "morale", r))
        md += total(effect_mods(t, "melee", r))
    return (n_a, m_a, n_d, m_d, ma, md)


def total(mods: list[R.Mod]) -> int:
    """The sum of some modifiers' values."""
    out = 0
    for m in mods:
        out += m.value
    return out


def melee_total(
    b: Battle, u: Unit, e: Unit, attacking: bool, flank: bool, bonus: int | None
) -> int:
    """The sum of seed 002 MELEE modifiers of ``melee_facts(b, u, e, attacking, flank)``
    (``bonus``: the attached leader's), kept per facts (a handful recur: the AI weighs the
    same charges turn after turn) under a plain tuple: a compiled dataclass is made, hashed
    and compared by interpreted functions."""
    r = b.r
    facts = melee_key(b, u, e, attacking, flank, bonus)
    key = (facts, r)
    found = _MELEE_TOTALS.get(key)
    if found is None:
        f = R.MeleeFacts(*facts)
        found = _MELEE_TOTALS[key] = total(R.melee_modifiers(f, r))
    return found


_MELEE_TOTALS: dict[tuple[Any, ...], int] = {}
on_change(_MELEE_TOTALS.clear)
