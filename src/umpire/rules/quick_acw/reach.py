"""Seed 002 in battle: what a unit can reach: its fire targets, ranges and modifiers,
the formation changes and moves open to it, and the charges it can make.

Split from ``steps`` (issue 25); the numbers come from ``rules.py`` and ``data``.
"""

from __future__ import annotations

import math
from functools import cache
from typing import Any, Final

from umpire.battle.effects import fx, fx_why
from umpire.battle.engine import Battle
from umpire.battle.state import Unit, base_size
from umpire.board import numeric as NB
from umpire.board.fmath import hypot as _hypot
from umpire.board.geometry import SURELY, Box, corners, local, surely_beyond
from umpire.errors import IllegalActionError
from umpire.rules.data import on_change
from umpire.rules.quick_acw import rules as R

# math's functions that mypyc has no native form of, held in C statics (``Final``): a
# call then skips looking the name up in ``math`` (the same functions, the same floats).
_atan2: Final = math.atan2

CHANGES = ("", "line", "column", "mount", "dismount", "limber", "unlimber")


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
    # Kept in b.memo: the whole step's shots (``scope`` None) in one table by firer and
    # ``exact`` (an int key: no tuple to build and hash at each of thousands of asks),
    # each with the marker and fire class it was worked out for; a scoped step's by key.
    memo = b.memo
    table: dict[int, tuple[bool, str, list[tuple[int, int, list[R.Mod], float]]]] | None = None
    slot = 2 * u.i + (1 if exact else 0)
    key: tuple[Any, ...] = ()
    if scope is None:
        table = memo.get("targets")
        if table is None:
            table = memo["targets"] = {}
        got = table.get(slot)
        if got is not None and got[0] == u.marker and got[1] == fc:
            return got[2]
    else:
        key = ("targets", u.i, u.marker, fc, exact, *scope)
        hit: list[tuple[int, int, list[R.Mod], float]] | None = memo.get(key)
        if hit is not None:
            return hit
    if not b.status.may_fire(b, u):  # a status change clears b.memo
        if table is not None:
            table[slot] = (u.marker, fc, [])
        else:
            memo[key] = []
        return []
    us = b.state.units
    touching = b.touching(u)
    cand: list[int] | None = None
    if touching:  # the status may forbid fire at Engaged units (seed 004 EFFECT)
        st = b.status
        cand = [e for e in touching if st.fire_on_engaged(b, us[e])]
    else:  # the enemies in contact with no one (kept for the whole side)
        free: dict[str, list[int]] | None = memo.get("free")
        if free is None:
            free = memo["free"] = {}
        cand = free.get(u.side)
        if cand is None:
            cand = free[u.side] = [e for e in b.enemies(u) if not b.touching(us[e])]
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
        elif only is not None and not touching and not b.sees(u, t):
            # A scoped step (seed 004 step 4) looks at units that just moved: no shot of
            # theirs is kept, and a friendly base in the way most often settles it, so
            # sight comes first and the shot is not worked out (both pure: same answer).
            continue
        else:
            shot = _shot(b, u, t, fc, exact)
            known[c] = (ver[c], shot)
        if shot is None:
            continue
        if not touching and not b.sees(u, t):
            continue
        out.append((c, shot[0], shot[1], shot[2]))
    if not touching:  # (a firer in contact: the status's answer may read the contacts list)
        if table is not None:
            table[slot] = (u.marker, fc, out)
        else:
            memo[key] = out
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
    """Bounds on the nearest-point distance of two bases (``numeric.range_bounds``)."""
    x, y, c, s, hw, hd = a
    ox, oy, oc, os_, ohw, ohd = b_
    return NB.range_bounds(x, y, c, s, hw, hd, ra, ox, oy, oc, os_, ohw, ohd, rb)


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
    return board.wall_across(t.x, t.y, firer.x, firer.y, t.hd + 1.0)


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
    key = _move_row(u, formation, mounted, limbered, change)
    return R.move_inches(key, rough, u.in_command, u.leader_lost, change, b.r)


def allowances(
    b: Battle, u: Unit, formation: str, mounted: bool, limbered: bool, change: str | None
) -> tuple[float, float]:
    """:func:`allowance` in the open and over rough ground, the row found once."""
    key = _move_row(u, formation, mounted, limbered, change)
    return R.move_inches_both(key, u.in_command, u.leader_lost, change, b.r)


def _move_row(u: Unit, formation: str, mounted: bool, limbered: bool, change: str | None) -> str:
    """Seed 002 MOVEMENT: the row a move reads (limbering or unlimbering: the limbered
    row, of which the change costs half)."""
    if u.type == "artillery" and change == "formation":
        return "artillery_limbered"
    return R.move_key(u.type, formation, mounted, limbered)


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
        a_open, a_rough = allowances(b, u, form, mounted, limbered, cost)
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
    if b.touching_at(u, x, y, theta, hw, hd):
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
