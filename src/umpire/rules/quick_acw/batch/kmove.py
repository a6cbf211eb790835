"""Compiled kernels (numba, through :mod:`umpire.jit`) for the batch simulator's move step.

Seed 002 MOVEMENT as the scripted AI plays it: where ``Sim._destinations`` runs its
best-first search over every battle at once with numpy masks, :func:`destinations`
walks each battle on its own and stops at the first legal place, with the same
candidates, scores, ties, rough-ground walks and legality tests (``steps.move_ok``:
on the table, no overlap, no path across an enemy base, touching no enemy). The
geometry helpers repeat ``umpire.board.vgeom``'s formulas (the scalar engine's) in the
same order of operations; the single-precision prefilters are the numpy form's too.

The simulator calls them where ``umpire.jit.ENABLED`` (read at each call: tests and
benchmarks switch it off to compare the forms), else its numpy forms.
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import NDArray

from umpire import jit
from umpire.board.kgeom import (
    distance_le,
    on_table,
    overlap,
    segment_hits_box,
)
from umpire.board.kterrain import cell_of, path_rough

F = NDArray[np.float64]
F32 = NDArray[np.float32]
B = NDArray[np.bool_]
I = NDArray[np.int64]  # noqa: E741

SLACK = 1e-3  # as sim.SLACK: the single-precision prefilters' margin
OV_PAD = 1e-6 + SLACK  # the overlap prefilter's pad on the half diagonal
HAIR = 1e-9  # as vgeom.HAIR
COVER_BONUS, ROUGH_PENALTY, OUT_OF_RADIUS = 3.0, 1.0, 4.0  # as sim's (the AI's scores)
KEEP = 4  # destinations tried before holding in place
OFFSETS = (0.0, 0.0, 0.5, 0.5, -0.5, -0.5, 1.0, 1.0, -1.0, -1.0)
FRACS = (1.0, 0.5, 1.0, 0.5, 1.0, 0.5, 1.0, 0.5, 1.0, 0.5)


# -- bases (``vgeom``'s formulas, one pair at a time) --------------------------------------
@jit.inline
def clear_of(
    b: int,
    xa: float,
    ya: float,
    c: float,
    s: float,
    bhw: float,
    bhd: float,
    sx: float,
    sy: float,
    moving: bool,
    nb: I,
    n_nb: int,
    own_side: int,
    X: F,
    Y: F,
    C: F,
    S: F,
    HW: F,
    HD: F,
    X32: F32,
    Y32: F32,
    R32: F32,
    side: I,
    tol: float,
) -> bool:
    """``Sim.room`` past the table's edge for a base at (xa, ya) in battle ``b``, against
    the units ``nb[:n_nb]``: it overlaps none, its path from (sx, sy) (where ``moving``)
    crosses no enemy and it touches no enemy. The single-precision prefilters are the
    numpy form's; the exact tests decide."""
    f32 = np.float32
    half = math.sqrt(bhw * bhw + bhd * bhd)
    lim_ov = f32(half + OV_PAD)
    lim_t = f32(half + (tol + SLACK))
    bxf, byf = f32(xa), f32(ya)
    lo_x, hi_x = f32(min(sx, xa)), f32(max(sx, xa))
    lo_y, hi_y = f32(min(sy, ya)), f32(max(sy, ya))
    for i in range(n_nb):
        v = nb[i]
        vx, vy, vr = X32[b, v], Y32[b, v], R32[b, v]
        dx = vx - bxf
        dy = vy - byf
        d2 = dx * dx + dy * dy
        lim = lim_ov + vr
        ox, oy, oc, os_, ohw, ohd = X[b, v], Y[b, v], C[b, v], S[b, v], HW[b, v], HD[b, v]
        if d2 < lim * lim and overlap(xa, ya, c, s, bhw, bhd, ox, oy, oc, os_, ohw, ohd, 1e-6):
            return False
        if side[v] == own_side:
            continue
        er = vr + f32(SLACK)
        if (
            moving
            and lo_x <= vx + er
            and hi_x >= vx - er
            and lo_y <= vy + er
            and hi_y >= vy - er
            and segment_hits_box(sx, sy, xa, ya, ox, oy, oc, os_, ohw, ohd)
        ):
            return False
        lim = lim_t + vr
        if d2 <= lim * lim and distance_le(xa, ya, c, s, bhw, bhd, ox, oy, oc, os_, ohw, ohd, tol):
            return False
    return True


@jit.inline
def room_of(
    b: int,
    u: int,
    x: float,
    y: float,
    c: float,
    s: float,
    hw: float,
    hd: float,
    moving: bool,
    nb: I,
    X: F,
    Y: F,
    C: F,
    S: F,
    HW: F,
    HD: F,
    X32: F32,
    Y32: F32,
    R32: F32,
    alive: B,
    side: I,
    tol: float,
    width: float,
    height: float,
) -> bool:
    """``Sim.room`` for one base of unit ``u`` in battle ``b``: on the table, then
    :func:`clear_of` every other living base (``nb``: scratch for its neighbours)."""
    if not on_table(x, y, c, s, hw, hd, width, height):
        return False
    n_nb = 0
    for v in range(X.shape[1]):
        if v != u and alive[b, v]:
            nb[n_nb] = v
            n_nb += 1
    ok: bool = clear_of(
        b, x, y, c, s, hw, hd, X[b, u], Y[b, u], moving, nb, n_nb,
        side[u], X, Y, C, S, HW, HD, X32, Y32, R32, side, tol,
    )  # fmt: skip
    return ok


# -- the destinations ------------------------------------------------------------------------
@jit.inline
def scores(dist: float, cover: float, far: bool) -> tuple[float, float]:
    """The scripted AI's score of a place and its rough-ground version (``sim._scores``)."""
    score = -dist + cover
    worse = score - ROUGH_PENALTY
    if far:
        score = score - OUT_OF_RADIUS
        worse = worse - OUT_OF_RADIUS
    return score, worse


@jit.kernel
def atan2s(y: F, x: F) -> F:
    """``math.atan2`` of each pair (as ``vgeom.matan2``)."""
    out = np.empty(y.shape[0])
    for q in range(y.shape[0]):
        out[q] = math.atan2(y[q], x[q])
    return out


@jit.kernel
def destinations(
    r: I,
    u: int,
    ux: F,
    uy: F,
    gx: F,
    gy: F,
    want: F,
    ca: F,
    sa: F,
    cth: F,
    sth: F,
    hw: F,
    hd: F,
    allow0: F,
    allow1: F,
    far_on: B,
    lx: F,
    ly: F,
    l_radius: float,
    X: F,
    Y: F,
    C: F,
    S: F,
    HW: F,
    HD: F,
    X32: F32,
    Y32: F32,
    R32: F32,
    alive: B,
    side: I,
    tol: float,
    width: float,
    height: float,
    cell: float,
    nx: int,
    ny: int,
    rough: B,
    cover: B,
    field: I,
    boxes: I,
) -> tuple[I, F, F]:
    """``Sim._destinations`` without carrying the move out: per row (battle ``r``) the
    place taken (its number 0-9, -1 none) and its centre.

    Per row: the ten places toward the goal (``ca``/``sa``: the cos and sin of the five
    bearings), their scores with exact distances (``math.hypot``: the scalar AI's), tried
    best first (the first of equal scores), rough ground walked only when a place whose
    score is still an upper bound comes out on top, at most ``KEEP`` tried; legal as
    ``Sim.room_near`` (the same neighbour list and prefilters, the exact tests decide).
    """
    m = r.shape[0]
    nu = X.shape[1]
    f32 = np.float32
    pick = np.full(m, -1, dtype=np.int64)
    ox = np.zeros(m)
    oy = np.zeros(m)
    px = np.empty(10)
    py = np.empty(10)
    score = np.empty(10)
    worse = np.empty(10)
    key = np.empty(10)
    known = np.empty(10, dtype=np.bool_)
    rgh = np.empty(10, dtype=np.bool_)
    cov = np.empty(10)
    far = np.empty(10, dtype=np.bool_)
    exact = np.empty(10, dtype=np.bool_)
    nb = np.empty(nu, dtype=np.int64)
    own_side = side[u]
    for q in range(m):
        b = r[q]
        x0, y0 = ux[q], uy[q]
        start_rough = rough[cell_of(x0, y0, cell, nx, ny)]
        for j in range(10):
            step = want[q] * FRACS[j]
            bj = j // 2
            px[j] = x0 + ca[q, bj] * step
            py[j] = y0 + sa[q, bj] * step
            valid = not (step <= 1e-6 and (OFFSETS[j] != 0.0 or FRACS[j] < 1.0))
            k = cell_of(px[j], py[j], cell, nx, ny)
            cov[j] = COVER_BONUS if cover[k] else 0.0
            far[j] = False
            if far_on[q]:  # out of the leader's radius: math.hypot within a hair of it
                ddx, ddy = lx[q] - px[j], ly[q] - py[j]
                d = math.sqrt(ddx * ddx + ddy * ddy)
                if abs(d - l_radius) < HAIR:
                    d = jit.hypot(ddx, ddy)
                far[j] = not d <= l_radius
            ddx, ddy = gx[q] - px[j], gy[q] - py[j]
            sc, wr = scores(math.sqrt(ddx * ddx + ddy * ddy), cov[j], far[j])
            score[j] = sc
            worse[j] = wr
            exact[j] = False
            rgh[j] = rough[k] or start_rough
            known[j] = rgh[j]
            key[j] = (wr if rgh[j] else sc) if valid else -math.inf
        # the neighbours (``Sim.neighbours``): every base the places could meet
        bhw, bhd = hw[q], hd[q]
        half = math.sqrt(bhw * bhw + bhd * bhd)
        reach = f32(1.5 * want[q] + half + (tol + 0.05))
        xf, yf = f32(x0), f32(y0)
        n_nb = 0
        for v in range(nu):
            if v == u or not alive[b, v]:
                continue
            dx = X32[b, v] - xf
            dy = Y32[b, v] - yf
            lim = reach + f32(1.5) * R32[b, v]
            if dx * dx + dy * dy <= lim * lim:
                nb[n_nb] = v
                n_nb += 1
        c, s = cth[q], sth[q]
        sx, sy = X[b, u], Y[b, u]
        tried = 0
        while True:
            j = -1
            top = -math.inf
            for i in range(10):
                if key[i] > top:
                    top = key[i]
                    j = i
            if j < 0:
                break
            # near ties: the scores with math.hypot (the scalar AI's floats), look again
            n_near, fix = 0, False
            for i in range(10):
                if abs(key[i] - top) < HAIR:
                    n_near += 1
                    fix = fix or not exact[i]
            if n_near > 1 and fix:
                for i in range(10):
                    if abs(key[i] - top) < HAIR and not exact[i]:
                        d = jit.hypot(gx[q] - px[i], gy[q] - py[i])
                        score[i], worse[i] = scores(d, cov[i], far[i])
                        exact[i] = True
                        key[i] = worse[i] if rgh[i] else score[i]
                continue
            if not known[j]:  # the score is an upper bound: walk the path, look again
                hit = path_rough(x0, y0, px[j], py[j], cell, nx, ny, field, boxes)
                known[j] = True
                rgh[j] = hit
                key[j] = worse[j] if hit else score[j]
                continue
            xa, ya = px[j], py[j]
            ddx, ddy = xa - x0, ya - y0
            dist = math.sqrt(ddx * ddx + ddy * ddy)
            moving = dist > 0
            allow = allow1[q] if rgh[j] and moving else allow0[q]
            ok = dist <= allow + 1e-6
            if ok:
                ok = on_table(xa, ya, c, s, bhw, bhd, width, height)
            if ok:
                ok = clear_of(
                    b, xa, ya, c, s, bhw, bhd, sx, sy, moving, nb, n_nb, own_side,
                    X, Y, C, S, HW, HD, X32, Y32, R32, side, tol,
                )  # fmt: skip
            if ok:
                pick[q] = j
                ox[q] = xa
                oy[q] = ya
                break
            key[j] = -math.inf
            tried += 1
            if tried >= KEEP:
                break
    return pick, ox, oy


# -- the unit's enemy and its charges ----------------------------------------------------------
@jit.kernel
def nearest(
    r: I, u: int, X: F, Y: F, alive: B, E: I, near_lo: float, near_hi: float
) -> tuple[B, I, F, F, F, F]:
    """``Sim.unit_move``'s look at the enemy, per row (battle ``r``): has he a living
    unit, the nearest (the first of equal squared distances: its place in ``E``), its
    centre, the distance to it (``math.hypot`` within a hair of ``near_lo`` or
    ``near_hi``, as ``vgeom.exact_near``) and the facing toward it (``math.atan2``)."""
    m = r.shape[0]
    has = np.zeros(m, dtype=np.bool_)
    near = np.zeros(m, dtype=np.int64)
    enx = np.zeros(m)
    eny = np.zeros(m)
    dist = np.zeros(m)
    face = np.zeros(m)
    for q in range(m):
        b = r[q]
        ux, uy = X[b, u], Y[b, u]
        best = math.inf
        k = 0
        for i in range(E.shape[0]):
            e = E[i]
            if not alive[b, e]:
                continue
            has[q] = True
            dx, dy = X[b, e] - ux, Y[b, e] - uy
            d2 = dx * dx + dy * dy
            if d2 < best:
                best = d2
                k = i
        near[q] = k
        ex, ey = X[b, E[k]], Y[b, E[k]]
        enx[q], eny[q] = ex, ey
        dx, dy = ex - ux, ey - uy
        d = math.sqrt(dx * dx + dy * dy)
        if abs(d - near_lo) < HAIR or abs(d - near_hi) < HAIR:
            d = jit.hypot(dx, dy)
        dist[q] = d
        face[q] = math.atan2(dy, dx)
    return has, near, enx, eny, dist, face


@jit.kernel
def charge_reach(
    r: I,
    u: int,
    E: I,
    open0: F,
    look: float,
    X: F,
    Y: F,
    C: F,
    S: F,
    HW: F,
    HD: F,
    RAD: F,
    alive: B,
) -> tuple[I, I, F, F, F, F, B]:
    """``Sim.charges`` up to the odds: per row, the enemies (by place in ``E``) within
    ``look`` whose contact point (``steps.contact_point``) lies within the open move
    ``open0``; their pairs (row, place), the contact point, the normal of the edge met,
    flank or rear. The same prefilter and decisions as the numpy form."""
    m = r.shape[0]
    ne = E.shape[0]
    pq = np.empty(m * ne, dtype=np.int64)
    pe = np.empty(m * ne, dtype=np.int64)
    ocx = np.empty(m * ne)
    ocy = np.empty(m * ne)
    onx = np.empty(m * ne)
    ony = np.empty(m * ne)
    ofl = np.empty(m * ne, dtype=np.bool_)
    n = 0
    for q in range(m):
        b = r[q]
        ux, uy, hd = X[b, u], Y[b, u], HD[b, u]
        for i in range(ne):
            e = E[i]
            if not alive[b, e]:
                continue
            tx, ty = X[b, e], Y[b, e]
            dx, dy = tx - ux, ty - uy
            d2 = dx * dx + dy * dy
            lim = min(open0[q] + hd + RAD[b, e] + 1e-6, look)
            if not d2 <= lim * lim * (1 + 1e-9):
                continue
            d = math.sqrt(dx * dx + dy * dy)
            if abs(d - look) < HAIR:
                d = jit.hypot(dx, dy)
            if not d <= look:
                continue
            c, s, thw, thd = C[b, e], S[b, e], HW[b, e], HD[b, e]
            ldx, ldy = ux - tx, uy - ty
            fwd, lat = ldx * c + ldy * s, -ldx * s + ldy * c
            front = fwd > thd
            rear = fwd < -thd
            side = not front and not rear and abs(lat) > thw
            sign = 1.0 if lat > 0 else -1.0
            nx = -c if rear else (-s * sign if side else c)
            ny = -s if rear else (c * sign if side else s)
            off = thw if side else thd
            cx = tx + nx * (off + hd)
            cy = ty + ny * (off + hd)
            ddx, ddy = cx - ux, cy - uy
            if not math.sqrt(ddx * ddx + ddy * ddy) <= open0[q] + 1e-6:
                continue
            pq[n], pe[n] = q, i
            ocx[n], ocy[n], onx[n], ony[n] = cx, cy, nx, ny
            ofl[n] = rear or side
            n += 1
    return pq[:n], pe[:n], ocx[:n], ocy[:n], onx[:n], ony[:n], ofl[:n]


@jit.kernel
def charge_paths(
    sx: F,
    sy: F,
    cx: F,
    cy: F,
    nx: F,
    ny: F,
    open_allow: F,
    rough_allow: F,
    cell: float,
    gnx: int,
    gny: int,
    field: I,
    boxes: I,
) -> tuple[F, F, B]:
    """``Sim.charges``' exact distance and facing of each charge (``math.hypot``,
    ``math.atan2``) and whether the move allows it, rough ground on the way counted."""
    m = sx.shape[0]
    cdist = np.empty(m)
    cth = np.empty(m)
    legal = np.empty(m, dtype=np.bool_)
    for q in range(m):
        cdist[q] = jit.hypot(cx[q] - sx[q], cy[q] - sy[q])
        cth[q] = math.atan2(-ny[q], -nx[q])
        hit = path_rough(sx[q], sy[q], cx[q], cy[q], cell, gnx, gny, field, boxes)
        legal[q] = cdist[q] <= (rough_allow[q] if hit else open_allow[q]) + 1e-6
    return cdist, cth, legal


@jit.kernel
def frees(
    r: I,
    u: I,
    x: F,
    y: F,
    c: F,
    s: F,
    hw: F,
    hd: F,
    ignore: I,
    X: F,
    Y: F,
    C: F,
    S: F,
    HW: F,
    HD: F,
    X32: F32,
    Y32: F32,
    R32: F32,
    alive: B,
    width: float,
    height: float,
) -> B:
    """``Sim.free_at``: each base on the table and clear of every other living base
    (``Sim.overlaps_any``'s prefilter, then the separating axes), ``ignore`` aside."""
    m = r.shape[0]
    out = np.zeros(m, dtype=np.bool_)
    for q in range(m):
        xa, ya, ca, sa, bhw, bhd = x[q], y[q], c[q], s[q], hw[q], hd[q]
        if not on_table(xa, ya, ca, sa, bhw, bhd, width, height):
            continue
        out[q] = not overlaps_any(
            r[q], u[q], ignore[q], xa, ya, ca, sa, bhw, bhd,
            X, Y, C, S, HW, HD, X32, Y32, R32, alive,
        )  # fmt: skip
    return out


@jit.inline
def overlaps_any(
    b: int,
    u: int,
    ignore: int,
    xa: float,
    ya: float,
    ca: float,
    sa: float,
    bhw: float,
    bhd: float,
    X: F,
    Y: F,
    C: F,
    S: F,
    HW: F,
    HD: F,
    X32: F32,
    Y32: F32,
    R32: F32,
    alive: B,
) -> bool:
    """``Sim.overlaps_any`` for one base of unit ``u`` in battle ``b`` (``ignore``: another
    unit left out, -1 none): bounding circles in single precision, then separating axes."""
    f32 = np.float32
    xf, yf = f32(xa), f32(ya)
    reach = f32(math.sqrt(bhw * bhw + bhd * bhd) + OV_PAD)
    for v in range(X.shape[1]):
        if v in (u, ignore) or not alive[b, v]:
            continue
        dx = X32[b, v] - xf
        dy = Y32[b, v] - yf
        lim = reach + R32[b, v]
        if dx * dx + dy * dy < lim * lim and overlap(
            xa, ya, ca, sa, bhw, bhd, X[b, v], Y[b, v], C[b, v], S[b, v], HW[b, v], HD[b, v], 1e-6
        ):
            return True
    return False


@jit.kernel
def slides(
    r: I,
    u: I,
    dx: F,
    dy: F,
    dist: F,
    th: F,
    c: F,
    s: F,
    step: float,
    X: F,
    Y: F,
    TH: F,
    C: F,
    S: F,
    HW: F,
    HD: F,
    X32: F32,
    Y32: F32,
    R32: F32,
    alive: B,
    width: float,
    height: float,
) -> tuple[B, F, F, F]:
    """``Sim.slide`` without placing: per row, is the unit still on the table, where it
    stops and its facing. Up to ``dist`` along (dx, dy) in steps of ``step``, stopping
    before another base; blocked at once, it keeps its facing where turning would overlap.
    ``c``/``s``: the cos and sin of the new facing ``th``."""
    m = r.shape[0]
    ok = np.ones(m, dtype=np.bool_)
    bx = np.empty(m)
    by = np.empty(m)
    bth = th.copy()
    for q in range(m):
        b, v = r[q], u[q]
        x0, y0 = X[b, v], Y[b, v]
        hw, hd = HW[b, v], HD[b, v]
        nst = max(1, math.ceil(dist[q] / step))
        lx, ly = x0, y0  # the last free step (the start: none)
        moved = False
        for k in range(1, nst + 1):
            d = min(dist[q], k * step)
            nx, ny = x0 + dx[q] * d, y0 + dy[q] * d
            if not (nx >= 0 and nx <= width and ny >= 0 and ny <= height) or not on_table(
                nx, ny, c[q], s[q], hw, hd, width, height
            ):
                ok[q] = False  # off the table: the caller removes the unit
                break
            if overlaps_any(
                b, v, -1, nx, ny, c[q], s[q], hw, hd, X, Y, C, S, HW, HD, X32, Y32, R32, alive
            ):
                break
            lx, ly = nx, ny
            moved = True
        bx[q], by[q] = lx, ly
        if ok[q] and not moved and th[q] != TH[b, v]:
            stuck = overlaps_any(
                b, v, -1, x0, y0, c[q], s[q], hw, hd, X, Y, C, S, HW, HD, X32, Y32, R32, alive
            ) or not on_table(x0, y0, c[q], s[q], hw, hd, width, height)
            if stuck:
                bth[q] = TH[b, v]
    return ok, bx, by, bth


@jit.kernel
def clear_paths(
    r: I,
    u: I,
    dx: F,
    dy: F,
    dist: F,
    c: F,
    s: F,
    step: float,
    X: F,
    Y: F,
    C: F,
    S: F,
    HW: F,
    HD: F,
    X32: F32,
    Y32: F32,
    R32: F32,
    alive: B,
    width: float,
    height: float,
) -> B:
    """``Sim.path_clear``: per row, is every step of :func:`slides`' walk (up to ``dist``
    along (dx, dy), facing ``c``/``s``) on the table and clear of every other base
    (default ``charge_path_clear``)? The same steps, the same tests."""
    m = r.shape[0]
    ok = np.ones(m, dtype=np.bool_)
    for q in range(m):
        b, v = r[q], u[q]
        x0, y0 = X[b, v], Y[b, v]
        hw, hd = HW[b, v], HD[b, v]
        nst = max(1, math.ceil(dist[q] / step))
        for k in range(1, nst + 1):
            d = min(dist[q], k * step)
            nx, ny = x0 + dx[q] * d, y0 + dy[q] * d
            if (
                not (nx >= 0 and nx <= width and ny >= 0 and ny <= height)
                or not on_table(nx, ny, c[q], s[q], hw, hd, width, height)
                or overlaps_any(
                    b, v, -1, nx, ny, c[q], s[q], hw, hd, X, Y, C, S, HW, HD, X32, Y32, R32, alive
                )
            ):
                ok[q] = False
                break
    return ok


@jit.kernel
def places(
    r: I,
    u: I,
    x: F,
    y: F,
    th: F,
    c: F,
    s: F,
    X: F,
    Y: F,
    X32: F32,
    Y32: F32,
    TH: F,
    C: F,
    S: F,
    VER: NDArray[np.int32],
    lalive: B,
    latt: NDArray[np.int16],
    LX: F,
    LY: F,
) -> None:
    """``Sim.place``: move the bases (``c``/``s``: the cos and sin of ``th``) and any
    living leader attached to them; a base that moves bumps its version (the sight cache's
    key)."""
    for q in range(r.shape[0]):
        b, v = r[q], u[q]
        if X[b, v] != x[q] or Y[b, v] != y[q]:
            VER[b, v] += 1
        X[b, v], Y[b, v] = x[q], y[q]
        X32[b, v], Y32[b, v] = np.float32(x[q]), np.float32(y[q])
        TH[b, v], C[b, v], S[b, v] = th[q], c[q], s[q]
        for ld in range(lalive.shape[1]):
            if lalive[b, ld] and latt[b, ld] == v:
                LX[b, ld], LY[b, ld] = x[q], y[q]


@jit.kernel
def moves(
    r: I,
    u: I,
    x: F,
    y: F,
    th: F,
    c: F,
    s: F,
    form: I,
    mounted: B,
    limbered: B,
    chg: I,
    X: F,
    Y: F,
    X32: F32,
    Y32: F32,
    TH: F,
    C: F,
    S: F,
    VER: NDArray[np.int32],
    FORM: NDArray[np.int8],
    MOUNTED: B,
    LIMBERED: B,
    MOVED: B,
    lalive: B,
    latt: NDArray[np.int16],
    LX: F,
    LY: F,
) -> None:
    """``Sim.do_move`` but the resizing (the caller's, where the formation changes): the
    formation, mounted and limbered flags, the base placed as :func:`places`, moved."""
    for q in range(r.shape[0]):
        b, v = r[q], u[q]
        dx, dy = x[q] - X[b, v], y[q] - Y[b, v]
        dist = math.sqrt(dx * dx + dy * dy)
        FORM[b, v] = form[q]
        MOUNTED[b, v] = mounted[q]
        LIMBERED[b, v] = limbered[q]
        if X[b, v] != x[q] or Y[b, v] != y[q]:
            VER[b, v] += 1
        X[b, v], Y[b, v] = x[q], y[q]
        X32[b, v], Y32[b, v] = np.float32(x[q]), np.float32(y[q])
        TH[b, v], C[b, v], S[b, v] = th[q], c[q], s[q]
        for ld in range(lalive.shape[1]):
            if lalive[b, ld] and latt[b, ld] == v:
                LX[b, ld], LY[b, ld] = x[q], y[q]
        MOVED[b, v] = MOVED[b, v] or dist > 1e-9 or chg[q] != 0


@jit.inline
def crosses(x0: float, y0: float, x1: float, y1: float, segs: F) -> bool:
    """Does the segment properly cross any of ``segs`` (k, 4) (``geometry.crosses_any``)?"""
    for k in range(segs.shape[0]):
        ax, ay, bx, by = segs[k, 0], segs[k, 1], segs[k, 2], segs[k, 3]
        d1 = (bx - ax) * (y0 - ay) - (by - ay) * (x0 - ax)
        d2 = (bx - ax) * (y1 - ay) - (by - ay) * (x1 - ax)
        d3 = (x1 - x0) * (ay - y0) - (y1 - y0) * (ax - x0)
        d4 = (x1 - x0) * (by - y0) - (y1 - y0) * (bx - x0)
        if d1 * d2 < 0 and d3 * d4 < 0:
            return True
    return False


@jit.kernel
def crossings(x0: F, y0: F, x1: F, y1: F, segs: F) -> B:
    """:func:`crosses` of each segment."""
    out = np.zeros(x0.shape[0], dtype=np.bool_)
    for q in range(x0.shape[0]):
        out[q] = crosses(x0[q], y0[q], x1[q], y1[q], segs)
    return out


# -- the advance's set-up (the numpy glue of ``Sim.advance`` and ``_destinations_k``) ------
# Unit types, formations and changes as ``vrules``'s; the scripted AI's numbers as sim's.
FOOT, CAV, ART = 0, 1, 2
LINE, COLUMN = 0, 1
NO_CHANGE, FORMATION, MOUNT = 0, 1, 2
FORM_LINE_WITHIN, MOUNT_BEYOND = 14.0, 16.0
STOP_FOOT, STOP_MOUNTED = 4.0, 8.0
BEARINGS = (0.0, 0.5, -0.5, 1.0, -1.0)


@jit.inline
def move_key(ut: int, form: int, mounted: bool, limbered: bool) -> int:
    """``vrules.move_key`` for one unit: the MOVEMENT table row."""
    if ut == ART:
        return 4 if limbered else 5
    if ut == CAV and mounted:
        return 3 if form == COLUMN else 2
    return 1 if form == COLUMN else 0


@jit.inline
def move_inches(
    move_open: F, move_rough: F, costs: F, key: int, rough: bool, cmd: bool, lost: bool, chg: int
) -> float:
    """``vrules.move_inches`` for one unit (``costs``: command, leader, formation, mount),
    the factors multiplied in the same order."""
    factor = move_rough[key] if rough else 1.0
    factor = factor * (1.0 if cmd else costs[0])
    factor = factor * (costs[1] if lost else 1.0)
    if chg == FORMATION:
        factor = factor * (1.0 - costs[2])
    elif chg == MOUNT:
        factor = factor * (1.0 - costs[3])
    else:
        factor = factor * 1.0
    out: float = move_open[key] * factor
    return out


@jit.inline
def base_half(ut: int, form: int, stands: int, base_w: F, base_d: F) -> tuple[float, float]:
    """(half frontage, half depth) of a base (``state.base_size``, default ``stand_sizes``)."""
    w, dp = base_w[ut], base_d[ut]
    n = max(np.int64(stands), 1)
    if ut != ART and form == COLUMN:
        return w / 2, n * dp / 2
    return n * w / 2, dp / 2


@jit.kernel
def resize(
    r: I,
    u: I,
    utype: I,
    form: NDArray[np.int8],
    stands: NDArray[np.int16],
    base_w: F,
    base_d: F,
    HW: F,
    HD: F,
    RAD: F,
    R32: F32,
) -> None:
    """The bases of units ``u[q]`` in battles ``r[q]`` from type, formation and stands, with
    their radius (``math.hypot``) in double and single precision."""
    for q in range(r.shape[0]):
        b, v = r[q], u[q]
        hw, hd = base_half(utype[v], form[b, v], stands[b, v], base_w, base_d)
        HW[b, v], HD[b, v] = hw, hd
        RAD[b, v] = jit.hypot(hw, hd)
        R32[b, v] = np.float32(RAD[b, v])


@jit.kernel
def hypots(dx: F, dy: F) -> F:
    """``math.hypot`` of each pair."""
    out = np.empty(dx.shape[0])
    for q in range(dx.shape[0]):
        out[q] = jit.hypot(dx[q], dy[q])
    return out


@jit.kernel
def allowances(
    r: I,
    u: int,
    ut: int,
    form: NDArray[np.int8],
    mounted: B,
    limbered: B,
    cmd: B,
    lost: B,
    move_open: F,
    move_rough: F,
    costs: F,
) -> tuple[F, F]:
    """Unit ``u``'s move as it stands, in the open and on rough ground, per battle ``r``."""
    m = r.shape[0]
    open_, rough = np.empty(m), np.empty(m)
    for q in range(m):
        b = r[q]
        key = move_key(ut, form[b, u], mounted[b, u], limbered[b, u])
        open_[q] = move_inches(move_open, move_rough, costs, key, False, cmd[b, u], lost[b, u], 0)
        rough[q] = move_inches(move_open, move_rough, costs, key, True, cmd[b, u], lost[b, u], 0)
    return open_, rough


@jit.kernel
def advance_plan(
    r: I,
    u: int,
    ut: int,
    ux: F,
    uy: F,
    enx: F,
    eny: F,
    dist_en: F,
    face: F,
    form_a: NDArray[np.int8],
    mounted_a: B,
    lim_a: B,
    cmd_a: B,
    lost_a: B,
    stands_a: NDArray[np.int16],
    defend: bool,
    obj: F,
    move_open: F,
    move_rough: F,
    costs: F,
    base_w: F,
    base_d: F,
) -> tuple[I, I, B, F, F, F, F, F, F, F, F, F, F, F, I, B]:
    """``Sim.advance``'s orders before the search, per battle: the formation change, the
    goal and the distance wanted (exact), then ``_destinations_k``'s inputs (the five
    bearings' cos/sin, the facing's, the open and rough allowances, the new base), these
    only where the unit is to move (``want`` over 1e-6), left unset elsewhere."""
    m = r.shape[0]
    chg = np.zeros(m, dtype=np.int64)
    form2 = np.empty(m, dtype=np.int64)
    mounted2 = np.empty(m, dtype=np.bool_)
    gx, gy, want = np.empty(m), np.empty(m), np.empty(m)
    ca, sa = np.empty((m, 5)), np.empty((m, 5))
    cf, sf = np.empty(m), np.empty(m)
    allow0, allow1, hw, hd = np.empty(m), np.empty(m), np.empty(m), np.empty(m)
    fj = np.empty(m, dtype=np.int64)
    mj = np.empty(m, dtype=np.bool_)
    for q in range(m):
        b = r[q]
        form, mounted, lim = int(form_a[b, u]), mounted_a[b, u], lim_a[b, u]
        cmd, lost = cmd_a[b, u], lost_a[b, u]
        c = NO_CHANGE
        if ut == FOOT and form == COLUMN and dist_en[q] < FORM_LINE_WITHIN:
            c = FORMATION
        elif ut == CAV and not mounted and dist_en[q] > MOUNT_BEYOND:
            c = MOUNT
        chg[q] = c
        f2 = LINE if (c == FORMATION and ut != ART) else form
        m2 = (not mounted) if c == MOUNT else mounted
        form2[q], mounted2[q] = f2, m2
        x0, y0 = ux[q], uy[q]
        if defend:  # the nearest objective (the first on a tie), its inner half
            best, bd = 0, np.inf
            for k in range(obj.shape[0]):
                dx, dy = obj[k, 0] - x0, obj[k, 1] - y0
                d2 = dx * dx + dy * dy  # numpy's ``** 2``
                if d2 < bd:
                    best, bd = k, d2
            ox, oy, orad = obj[best, 0], obj[best, 1], obj[best, 2]
            if jit.hypot(ox - x0, oy - y0) <= orad:
                g_x, g_y, stop = x0, y0, 0.0
            else:
                g_x, g_y, stop = ox, oy, orad * 0.5
        else:
            g_x, g_y = enx[q], eny[q]
            stop = STOP_FOOT if (ut == FOOT or not mounted) else STOP_MOUNTED
        gx[q], gy[q] = g_x, g_y
        key = move_key(ut, f2, m2, lim)
        allow = move_inches(move_open, move_rough, costs, key, False, cmd, lost, c)
        d = jit.hypot(g_x - x0, g_y - y0)
        want[q] = max(0.0, min(allow, d - stop))
        f = f2 if c == FORMATION else form
        mt = m2 if c == MOUNT else mounted
        fj[q], mj[q] = f, mt
        if want[q] <= 1e-6:  # at the goal: no search (the rest is the search's)
            continue
        base = math.atan2(g_y - y0, g_x - x0)
        for j in range(5):
            a = base + BEARINGS[j]
            ca[q, j] = math.cos(a)
            sa[q, j] = math.sin(a)
        cf[q] = math.cos(face[q])
        sf[q] = math.sin(face[q])
        mkey = 4 if (ut == ART and c == FORMATION) else move_key(ut, f, mt, lim)
        allow0[q] = move_inches(move_open, move_rough, costs, mkey, False, cmd, lost, c)
        allow1[q] = move_inches(move_open, move_rough, costs, mkey, True, cmd, lost, c)
        hw[q], hd[q] = base_half(ut, f, stands_a[b, u], base_w, base_d)
    return chg, form2, mounted2, gx, gy, want, ca, sa, cf, sf, allow0, allow1, hw, hd, fj, mj


@jit.kernel
def leaders(
    lds: I,
    starts: I,
    units: I,
    alive: B,
    lalive: B,
    X: F,
    Y: F,
    LX: F,
    LY: F,
    latt: NDArray[np.int16],
    leader_open: float,
    leader_rough: float,
    cell: float,
    nx: int,
    ny: int,
    field: I,
    boxes: I,
) -> bool:
    """``Sim.command_step``'s orders, battle by battle: each leader ``lds[k]`` (his units
    ``units[starts[k]:starts[k + 1]]``) joins the living unit nearest his brigade's
    centroid if within half his move (half that through rough ground). True where any
    leader had a unit to look at (the bonuses then want refreshing)."""
    looked = False
    half = leader_open * 0.5
    slow_at = leader_open * leader_rough + 1e-6
    for k in range(lds.shape[0]):
        ld = lds[k]
        us = units[starts[k] : starts[k + 1]]
        if us.shape[0] == 0:
            continue
        for b in range(X.shape[0]):
            cnt = 0
            for j in range(us.shape[0]):
                if alive[b, us[j]]:
                    cnt += 1
            if cnt == 0 or not lalive[b, ld]:
                continue
            looked = True
            sx, sy = 0.0, 0.0
            for j in range(us.shape[0]):  # sums in unit order, as the scalar sum()
                al = alive[b, us[j]]
                sx = sx + (X[b, us[j]] if al else 0.0)
                sy = sy + (Y[b, us[j]] if al else 0.0)
            cx, cy = sx / cnt, sy / cnt
            best, bd = 0, np.inf
            for j in range(us.shape[0]):
                if alive[b, us[j]]:
                    dx, dy = X[b, us[j]] - cx, Y[b, us[j]] - cy
                    d2 = dx * dx + dy * dy
                    if d2 < bd:
                        best, bd = j, d2
            bx, by = X[b, us[best]], Y[b, us[best]]
            ddx, ddy = bx - LX[b, ld], by - LY[b, ld]
            dist = math.sqrt(ddx * ddx + ddy * ddy)
            if not jit.hypot(ddx, ddy) <= half:
                continue
            allow = leader_open
            if dist > slow_at and path_rough(
                LX[b, ld], LY[b, ld], bx, by, cell, nx, ny, field, boxes
            ):
                allow = leader_open * leader_rough
            if dist <= allow + 1e-6:
                LX[b, ld], LY[b, ld] = bx, by
                latt[b, ld] = us[best]
    return looked


@jit.inline
def melee_mod(
    b: int,
    u: int,
    e: int,
    attacking: bool,
    flank: bool,
    X: F,
    Y: F,
    units: tuple[NDArray[np.int8], B, B, NDArray[np.int8], NDArray[np.int16]],
    side: I,
    utype: I,
    mods: I,
    conf: int,
    board: tuple[I, float, int, int, F],
) -> int:
    """Seed 002 MELEE "Add" list plus the stands fighting, summed (``rules.melee_modifiers``)
    for unit ``u`` against ``e`` in battle ``b``. ``units``: bonus, marker, mounted, form,
    stands; ``mods``: mounted cavalry attacking, wall or stream (defending, across the
    line between the centres), infantry column, uphill, Confederates attacking, marker;
    ``board``: the hill levels, cell, nx, ny and the walls and streams."""
    bonus, marker, mounted, form, stands = units
    level, cell, nx, ny, segs = board
    ux, uy, ex, ey = X[b, u], Y[b, u], X[b, e], Y[b, e]
    total = np.int64(stands[b, u])
    if attacking and utype[u] == CAV and mounted[b, u]:
        total += mods[0]
    if not attacking and crosses(ux, uy, ex, ey, segs):
        total += mods[1]
    if utype[u] == FOOT and form[b, u] == COLUMN:
        total += mods[2]
    total += bonus[b, u]
    if level[cell_of(ux, uy, cell, nx, ny)] > level[cell_of(ex, ey, cell, nx, ny)]:
        total += mods[3]
    if attacking and side[u] == conf:
        total += mods[4]
    if marker[b, u]:
        total += mods[5]
    if attacking and flank:
        total += stands[b, u]
    out: int = total
    return out


@jit.kernel
def melee_mods(
    r: I,
    u: I,
    e: I,
    attacking: B,
    flank: B,
    X: F,
    Y: F,
    units: tuple[NDArray[np.int8], B, B, NDArray[np.int8], NDArray[np.int16]],
    side: I,
    utype: I,
    mods: I,
    conf: int,
    board: tuple[I, float, int, int, F],
) -> I:
    """:func:`melee_mod` of unit ``u[q]`` against ``e[q]`` in battle ``r[q]``."""
    out = np.empty(r.shape[0], dtype=np.int64)
    for q in range(r.shape[0]):
        out[q] = melee_mod(
            r[q], u[q], e[q], attacking[q], flank[q], X, Y, units, side, utype, mods, conf, board
        )
    return out


@jit.kernel
def charge_odds(
    r: I,
    u: int,
    tu: I,
    flank: B,
    X: F,
    Y: F,
    units: tuple[NDArray[np.int8], B, B, NDArray[np.int8], NDArray[np.int16]],
    side: I,
    utype: I,
    morale: I,
    morale_marker: int,
    mods: I,
    conf: int,
    board: tuple[I, float, int, int, F],
    table: F,
    lo: int,
    hi: int,
    clip: int,
) -> F:
    """``scripted.charge_chance`` for unit ``u`` charging ``tu[q]`` in battle ``r[q]``: the
    two morale needs, the melee modifiers (:func:`melee_mod`), then ``odds``'
    charge table (``tables.charge_table``)."""
    bonus, marker = units[0], units[1]
    out = np.empty(r.shape[0])
    for q in range(r.shape[0]):
        b, t = r[q], tu[q]
        n_a = morale[side[u]] - (bonus[b, u] + (morale_marker if marker[b, u] else 0))
        n_d = morale[side[t]] - (bonus[b, t] + (morale_marker if marker[b, t] else 0))
        ma = melee_mod(b, u, t, True, flank[q], X, Y, units, side, utype, mods, conf, board)
        md = melee_mod(b, t, u, False, False, X, Y, units, side, utype, mods, conf, board)
        i = min(max(n_a, lo), hi) - lo
        j = min(max(n_d, lo), hi) - lo
        k = min(max(ma - md, -clip), clip) + clip
        out[q] = table[i, j, k]
    return out


@jit.kernel
def holds(
    r: I,
    u: int,
    ut: int,
    x: F,
    y: F,
    th: F,
    form: I,
    mounted: B,
    limbered: B,
    chg: I,
    rough: B,
    cmd_a: B,
    lost_a: B,
    stands_a: NDArray[np.int16],
    move_open: F,
    move_rough: F,
    costs: F,
    base_w: F,
    base_d: F,
    X: F,
    Y: F,
    C: F,
    S: F,
    HW: F,
    HD: F,
    X32: F32,
    Y32: F32,
    R32: F32,
    alive: B,
    side: I,
    tol: float,
    width: float,
    height: float,
) -> B:
    """``Sim.move_ok`` for unit ``u`` (type ``ut``) in battles ``r``: the distance within
    the allowance (``vrules.move_inches``; rough counted only for a real move), then the
    new base (``vrules.base_size``) with room as :func:`room_of`."""
    m = r.shape[0]
    out = np.zeros(m, dtype=np.bool_)
    nb = np.empty(X.shape[1], dtype=np.int64)
    for q in range(m):
        b = r[q]
        dx, dy = x[q] - X[b, u], y[q] - Y[b, u]
        dist = math.sqrt(dx * dx + dy * dy)
        f, c = int(form[q]), chg[q]
        key = 4 if (ut == ART and c == FORMATION) else move_key(ut, f, mounted[q], limbered[q])
        rgh = rough[q] and dist > 0
        allow = move_inches(move_open, move_rough, costs, key, rgh, cmd_a[b, u], lost_a[b, u], c)
        if not dist <= allow + 1e-6:
            continue
        hw, hd = base_half(ut, f, stands_a[b, u], base_w, base_d)
        t = th[q]
        out[q] = room_of(
            b, u, x[q], y[q], math.cos(t), math.sin(t), hw, hd, dist > 0, nb,
            X, Y, C, S, HW, HD, X32, Y32, R32, alive, side, tol, width, height,
        )  # fmt: skip
    return out
