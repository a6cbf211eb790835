"""numba kernels for seed 002 COMMAND and MOVEMENT as the scripted AI (``quick_acw.ai``)
plays them, battle by battle, the scalar engine's formulas in its order, exact where they decide."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import NamedTuple

import numpy as np
from numpy.typing import NDArray

from umpire import jit
from umpire.board.kgeom import HAIR, Box, on_table
from umpire.board.kterrain import cell_of, path_rough
from umpire.rules.quick_acw import ai as AI
from umpire.rules.quick_acw.batch import tables as V
from umpire.rules.quick_acw.batch.arrays import Bases, Forms, Leaders, Poses, Rules, Scene, Units
from umpire.rules.quick_acw.batch.kbases import base_half, clear_of

F = NDArray[np.float64]
B = NDArray[np.bool_]
I = NDArray[np.int64]  # noqa: E741

FOOT, CAV, ART, LINE, COLUMN = V.FOOT, V.CAV, V.ART, V.LINE, V.COLUMN
NO_CHANGE, FORMATION, MOUNT = V.NO_CHANGE, V.FORMATION, V.MOUNT
BEARINGS = AI.OFFSETS  # the scripted AI's numbers (``quick_acw.ai``), one source
FORM_LINE_WITHIN, MOUNT_BEYOND, KEEP = AI.FORM_LINE_WITHIN, AI.MOUNT_BEYOND, AI.KEEP
STOP_FOOT, STOP_MOUNTED = AI.STOP_FOOT, AI.STOP_MOUNTED
COVER_BONUS, ROUGH_PENALTY, OUT_OF_RADIUS = AI.COVER_BONUS, AI.ROUGH_PENALTY, AI.OUT_OF_RADIUS


class Near(NamedTuple):
    """:func:`nearest`'s answer per battle: an enemy alive, the nearest's centre, range, bearing."""

    has: B
    x: F
    y: F
    dist: F
    face: F


class Advance(NamedTuple):
    """:func:`advance_plan`'s answer per battle: the change and what it makes of formation
    and mounted, goal, inches wanted, bearings, facing, allowances, base."""

    chg: I
    form2: I
    mounted2: B
    gx: F
    gy: F
    want: F
    ca: F
    sa: F
    cf: F
    sf: F
    allow0: F
    allow1: F
    hw: F
    hd: F


move_row: Callable[[int, bool, bool, bool, int], int] = V.N.move_row
_move_inches: Callable[..., float] = V.N.move_inches


@jit.inline
def move_inches(ru: Rules, key: int, rough: bool, cmd: bool, lost: bool, chg: int) -> float:
    """The inches a move by MOVEMENT row ``key`` may cover (``numeric.move_inches``)."""
    return _move_inches(ru.move_open[key], ru.move_rough[key], rough, cmd, lost, chg, ru.costs)


@jit.kernel
def allowances(us: Units, r: I, u: int, ut: int, ru: Rules) -> tuple[F, F]:
    """Unit ``u``'s move as it stands, in the open and on rough ground, per battle ``r``."""
    m = r.shape[0]
    open_, rough = np.empty(m), np.empty(m)
    for q in range(m):
        b = r[q]
        key = move_row(ut, us.form[b, u] == COLUMN, us.mounted[b, u], us.limbered[b, u], 0)
        cmd, lost = us.in_cmd[b, u], us.lost_ldr[b, u]
        open_[q] = move_inches(ru, key, False, cmd, lost, NO_CHANGE)
        rough[q] = move_inches(ru, key, True, cmd, lost, NO_CHANGE)
    return open_, rough


@jit.inline
def exact(dx: float, dy: float, lo: float, hi: float) -> float:
    """The distance, with ``math.hypot``'s last bit where it lies within a hair of a limit."""
    d = math.sqrt(dx * dx + dy * dy)
    if abs(d - lo) < HAIR or abs(d - hi) < HAIR:
        d = jit.hypot(dx, dy)
    return d


@jit.kernel
def leaders(
    bs: Bases, ld: Leaders, lds: I, starts: I, units: I, open_: float, rough: float, sc: Scene
) -> bool:
    """``ScriptedAI.leader``: each leader joins his unit nearest the brigade's centroid if
    within half his move (rough counted). True if any leader had a unit to look at."""
    looked = False
    slow_at = open_ * rough + 1e-6
    for k in range(lds.shape[0]):
        i = lds[k]
        us = units[starts[k] : starts[k + 1]]
        for b in range(bs.x.shape[0]):
            cnt = 0
            sx, sy = 0.0, 0.0
            for j in range(us.shape[0]):  # sums in unit order, as the scalar sum()
                al = bs.alive[b, us[j]]
                cnt += al
                sx = sx + (bs.x[b, us[j]] if al else 0.0)
                sy = sy + (bs.y[b, us[j]] if al else 0.0)
            if cnt == 0 or not ld.alive[b, i]:
                continue
            looked = True
            cx, cy = sx / cnt, sy / cnt
            best, bd2 = 0, np.inf
            for j in range(us.shape[0]):
                if bs.alive[b, us[j]]:
                    dx, dy = bs.x[b, us[j]] - cx, bs.y[b, us[j]] - cy
                    if dx * dx + dy * dy < bd2:
                        best, bd2 = j, dx * dx + dy * dy
            bx, by = bs.x[b, us[best]], bs.y[b, us[best]]
            ddx, ddy = bx - ld.x[b, i], by - ld.y[b, i]
            dist = math.sqrt(ddx * ddx + ddy * ddy)
            if not jit.hypot(ddx, ddy) <= open_ * 0.5:
                continue
            allow = open_
            if dist > slow_at and path_rough(ld.x[b, i], ld.y[b, i], bx, by, sc.bd):
                allow = open_ * rough
            if dist <= allow + 1e-6:
                ld.x[b, i], ld.y[b, i] = bx, by
                ld.att[b, i] = us[best]
    return looked


@jit.kernel
def nearest(bs: Bases, r: I, u: int, E: I) -> Near:
    """``ScriptedAI.move``'s look at the enemy per battle ``r`` (:class:`Near`; the distance
    exact near ``FORM_LINE_WITHIN`` and ``MOUNT_BEYOND``, which it decides)."""
    m = r.shape[0]
    has = np.zeros(m, dtype=np.bool_)
    enx, eny, dist, face = np.zeros(m), np.zeros(m), np.zeros(m), np.zeros(m)
    for q in range(m):
        b = r[q]
        ux, uy = bs.x[b, u], bs.y[b, u]
        best, k = math.inf, 0
        for i in range(E.shape[0]):
            if bs.alive[b, E[i]]:
                has[q] = True
                dx, dy = bs.x[b, E[i]] - ux, bs.y[b, E[i]] - uy
                if dx * dx + dy * dy < best:
                    best, k = dx * dx + dy * dy, i
        enx[q], eny[q] = bs.x[b, E[k]], bs.y[b, E[k]]
        dx, dy = enx[q] - ux, eny[q] - uy
        dist[q] = exact(dx, dy, FORM_LINE_WITHIN, MOUNT_BEYOND)
        face[q] = math.atan2(dy, dx)
    return Near(has, enx, eny, dist, face)


@jit.kernel
def advance_plan(bs: Bases, us: Units, r: I, u: int, en: Near, obj: F, sc: Scene) -> Advance:
    """``ScriptedAI.move`` without a charge, before the search: :class:`Advance`; ``obj``:
    the objectives of a side that defends them (none: it makes for the enemy)."""
    m, ut, ru = r.shape[0], sc.utype[u], sc.ru
    enx, eny, dist_en, face = en.x, en.y, en.dist, en.face
    chg, form2, mounted2 = np.zeros(m, np.int64), np.empty(m, np.int64), np.empty(m, np.bool_)
    gx, gy, want = np.empty(m), np.empty(m), np.empty(m)
    ca, sa = np.empty((m, 5)), np.empty((m, 5))
    cf, sf = np.empty(m), np.empty(m)
    allow0, allow1, hw, hd = np.empty(m), np.empty(m), np.empty(m), np.empty(m)
    for q in range(m):
        b = r[q]
        form, mounted, lim = int(us.form[b, u]), us.mounted[b, u], us.limbered[b, u]
        cmd, lost = us.in_cmd[b, u], us.lost_ldr[b, u]
        c = NO_CHANGE
        if ut == FOOT and form == COLUMN and dist_en[q] < FORM_LINE_WITHIN:
            c = FORMATION
        elif ut == CAV and not mounted and dist_en[q] > MOUNT_BEYOND:
            c = MOUNT
        chg[q] = c
        f2 = LINE if (c == FORMATION and ut != ART) else form
        m2 = (not mounted) if c == MOUNT else mounted
        form2[q], mounted2[q] = f2, m2
        x0, y0 = bs.x[b, u], bs.y[b, u]
        if obj.shape[0]:  # the nearest objective (the first on a tie), its inner half
            best, bd2 = 0, np.inf
            for k in range(obj.shape[0]):
                dx, dy = obj[k, 0] - x0, obj[k, 1] - y0
                if dx * dx + dy * dy < bd2:  # numpy's ``** 2``
                    best, bd2 = k, dx * dx + dy * dy
            ox, oy, orad = obj[best, 0], obj[best, 1], obj[best, 2]
            if jit.hypot(ox - x0, oy - y0) <= orad:
                g_x, g_y, stop = x0, y0, 0.0
            else:
                g_x, g_y, stop = ox, oy, orad * 0.5
        else:
            g_x, g_y = enx[q], eny[q]
            stop = STOP_FOOT if (ut == FOOT or not mounted) else STOP_MOUNTED
        gx[q], gy[q] = g_x, g_y
        key = move_row(ut, f2 == COLUMN, m2, lim, c)
        allow0[q] = move_inches(ru, key, False, cmd, lost, c)
        want[q] = max(0.0, min(allow0[q], jit.hypot(g_x - x0, g_y - y0) - stop))
        if want[q] <= 1e-6:  # at the goal: no search
            continue
        base = math.atan2(g_y - y0, g_x - x0)
        for j in range(5):
            ca[q, j] = math.cos(base + BEARINGS[j])
            sa[q, j] = math.sin(base + BEARINGS[j])
        cf[q], sf[q] = math.cos(face[q]), math.sin(face[q])
        allow1[q] = move_inches(ru, key, True, cmd, lost, c)
        hw[q], hd[q] = base_half(ut, f2, us.stands[b, u], ru.base_w, ru.base_d)
    return Advance(chg, form2, mounted2, gx, gy, want, ca, sa, cf, sf, allow0, allow1, hw, hd)


@jit.inline
def scores(dist: float, cover: float, far: bool) -> tuple[float, float]:
    """The scripted AI's score of a place and its rough-ground version (``_candidates``)."""
    score = -dist + cover
    worse = score - ROUGH_PENALTY
    if far:
        score = score - OUT_OF_RADIUS
        worse = worse - OUT_OF_RADIUS
    return score, worse


@jit.kernel
def destinations(
    bs: Bases, ld: Leaders, r: I, u: int, go: I, p: Advance, sc: Scene
) -> tuple[I, F, F]:
    """``ScriptedAI._candidates`` + ``_try`` for rows ``go`` of ``p``: the place taken (0-9,
    -1 none) and its centre; rough walked lazily (the scalar's heap), ``KEEP`` tried at most."""
    m, bd, tol, lead, side = go.shape[0], sc.bd, sc.ru.contact, sc.uleader[u], sc.side
    l_radius = sc.l_radius[lead] if lead >= 0 else 0.0
    nu = bs.x.shape[1]
    f32 = np.float32
    pick = np.full(m, -1, dtype=np.int64)
    ox, oy = np.zeros(m), np.zeros(m)
    px, py, score, worse, key, cov = (np.empty(10), np.empty(10), np.empty(10),
        np.empty(10), np.empty(10), np.empty(10))  # fmt: skip
    known, rgh = np.empty(10, dtype=np.bool_), np.empty(10, dtype=np.bool_)
    far, exact_ = np.empty(10, dtype=np.bool_), np.empty(10, dtype=np.bool_)
    nb = np.empty(nu, dtype=np.int64)
    for w in range(m):
        q = go[w]
        b = r[q]
        x0, y0 = bs.x[b, u], bs.y[b, u]
        start_rough = bd.rough[cell_of(x0, y0, bd.cell, bd.nx, bd.ny)]
        far_on = lead >= 0 and ld.alive[b, lead]
        for j in range(10):
            step = p.want[q] * (1.0 if j % 2 == 0 else 0.5)
            px[j] = x0 + p.ca[q, j // 2] * step
            py[j] = y0 + p.sa[q, j // 2] * step
            valid = not (step <= 1e-6 and j > 0)
            k = cell_of(px[j], py[j], bd.cell, bd.nx, bd.ny)
            cov[j] = COVER_BONUS if bd.cover[k] else 0.0
            far[j] = False
            if far_on:  # out of the leader's radius: math.hypot within a hair of it
                d = exact(ld.x[b, lead] - px[j], ld.y[b, lead] - py[j], l_radius, l_radius)
                far[j] = not d <= l_radius
            ddx, ddy = p.gx[q] - px[j], p.gy[q] - py[j]
            score[j], worse[j] = scores(math.sqrt(ddx * ddx + ddy * ddy), cov[j], far[j])
            exact_[j] = False
            rgh[j] = bd.rough[k] or start_rough
            known[j] = rgh[j]
            key[j] = (worse[j] if rgh[j] else score[j]) if valid else -math.inf
        hw, hd = p.hw[q], p.hd[q]
        reach = f32(1.5 * p.want[q] + math.sqrt(hw * hw + hd * hd) + (tol + 0.05))
        n_nb = 0
        for v in range(nu):
            if v != u and bs.alive[b, v]:
                dx, dy = bs.x32[b, v] - f32(x0), bs.y32[b, v] - f32(y0)
                lim = reach + f32(1.5) * bs.r32[b, v]
                if dx * dx + dy * dy <= lim * lim:
                    nb[n_nb] = v
                    n_nb += 1
        tried = 0
        while tried < KEEP:
            j, top = -1, -math.inf
            for i in range(10):
                if key[i] > top:
                    j, top = i, key[i]
            if j < 0:
                break
            # near ties: the scores with math.hypot (the scalar AI's floats), look again
            n_near, fix = 0, False
            for i in range(10):
                if abs(key[i] - top) < HAIR:
                    n_near += 1
                    fix = fix or not exact_[i]
            if n_near > 1 and fix:
                for i in range(10):
                    if abs(key[i] - top) < HAIR and not exact_[i]:
                        d = jit.hypot(p.gx[q] - px[i], p.gy[q] - py[i])
                        score[i], worse[i] = scores(d, cov[i], far[i])
                        exact_[i] = True
                        key[i] = worse[i] if rgh[i] else score[i]
                continue
            if not known[j]:  # the score is an upper bound: walk the path, look again
                rgh[j] = path_rough(x0, y0, px[j], py[j], bd)
                known[j] = True
                key[j] = worse[j] if rgh[j] else score[j]
                continue
            xa, ya, c, s = px[j], py[j], p.cf[q], p.sf[q]
            dist = math.sqrt((xa - x0) * (xa - x0) + (ya - y0) * (ya - y0))
            moving = dist > 0
            ok = dist <= (p.allow1[q] if rgh[j] and moving else p.allow0[q]) + 1e-6
            ok = ok and on_table(xa, ya, c, s, hw, hd, bd.width, bd.height)
            if ok and clear_of(bs, b, u, Box(xa, ya, c, s, hw, hd), moving, nb[:n_nb], side, tol):
                pick[w], ox[w], oy[w] = j, xa, ya
                break
            key[j] = -math.inf
            tried += 1
    return pick, ox, oy


@jit.kernel
def holds(bs: Bases, us: Units, p: Poses, fm: Forms, sc: Scene) -> B:
    """``steps.move_ok`` of moves ``p`` as ``fm``: within the allowance, then room."""
    out = np.zeros(p.r.shape[0], dtype=np.bool_)
    nb = np.empty(bs.x.shape[1], dtype=np.int64)
    ru, side, w, h = sc.ru, sc.side, sc.bd.width, sc.bd.height
    for q in range(p.r.shape[0]):
        b, u, x, y, t = p.r[q], p.u[q], p.x[q], p.y[q], p.th[q]
        dx, dy, ut = x - bs.x[b, u], y - bs.y[b, u], sc.utype[u]
        dist = math.sqrt(dx * dx + dy * dy)
        f, c = int(fm.form[q]), fm.chg[q]
        key = move_row(ut, f == COLUMN, fm.mounted[q], fm.limbered[q], c)
        rough = fm.rough[q] and dist > 0
        allow = move_inches(ru, key, rough, us.in_cmd[b, u], us.lost_ldr[b, u], c)
        if dist <= allow + 1e-6:
            hw, hd = base_half(ut, f, us.stands[b, u], ru.base_w, ru.base_d)
            co, si = math.cos(t), math.sin(t)
            if not on_table(x, y, co, si, hw, hd, w, h):  # room: on the table, clear of the rest
                continue
            n_nb = 0
            for v in range(bs.x.shape[1]):
                if v != u and bs.alive[b, v]:
                    nb[n_nb] = v
                    n_nb += 1
            out[q] = clear_of(
                bs, b, u, Box(x, y, co, si, hw, hd), dist > 0, nb[:n_nb], side, ru.contact
            )
    return out
