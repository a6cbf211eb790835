"""numba kernels for the bases of N battles (room, slides, placing, resizing, contacts):
the scalar tests pair by pair behind float32 prefilters SLACK wide; decisions in double."""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import NDArray

from umpire import jit
from umpire.board import numeric
from umpire.board.kgeom import Box, distance_le, on_table, overlap, segment_hits_box
from umpire.rules.quick_acw.batch.arrays import Bases, Leaders, Poses, Rules, Scene, Units
from umpire.rules.quick_acw.batch.tables import ART, COLUMN

F = NDArray[np.float64]
B = NDArray[np.bool_]
I = NDArray[np.int64]  # noqa: E741

SLACK = 1e-3  # inches added to single-precision prefilters (their rounding is ~1e-5)
OV_PAD = 1e-6 + SLACK  # the overlap prefilter's pad on the half diagonal


@jit.inline
def box_of(bs: Bases, b: int, u: int) -> Box:
    """The base of unit ``u`` in battle ``b``."""
    return Box(bs.x[b, u], bs.y[b, u], bs.c[b, u], bs.s[b, u], bs.hw[b, u], bs.hd[b, u])


@jit.inline
def overlaps_any(
    bs: Bases, b: int, u: int, ignore: int, x: float, y: float, c: float, s: float
) -> bool:
    """Does the base of ``u`` at (x, y) overlap another living base (``ignore``: -1 none)?"""
    f32 = np.float32
    hw, hd = bs.hw[b, u], bs.hd[b, u]
    xf, yf = f32(x), f32(y)
    reach = f32(math.sqrt(hw * hw + hd * hd) + OV_PAD)
    for v in range(bs.x.shape[1]):
        if v in (u, ignore) or not bs.alive[b, v]:
            continue
        dx, dy, lim = bs.x32[b, v] - xf, bs.y32[b, v] - yf, reach + bs.r32[b, v]
        if dx * dx + dy * dy < lim * lim and overlap(
            x, y, c, s, hw, hd, bs.x[b, v], bs.y[b, v], bs.c[b, v], bs.s[b, v], bs.hw[b, v],
            bs.hd[b, v], 1e-6,
        ):  # fmt: skip
            return True
    return False


@jit.inline
def clear_of(bs: Bases, b: int, u: int, box: Box, moving: bool, nb: I, side: I, tol: float) -> bool:
    """``steps.move_ok`` on the table for ``u`` moving to ``box``, against the units ``nb``: no
    overlap (``free_at``), no enemy crossed on the way (``crosses_enemy``) nor touched.
    (Hot: arrays and numbers in, not a :class:`Scene`, which each inlined call would copy.)"""
    f32 = np.float32
    x, y, c, s, hw, hd = box
    sx, sy, own = bs.x[b, u], bs.y[b, u], side[u]
    half = math.sqrt(hw * hw + hd * hd)
    lim_ov = f32(half + OV_PAD)
    lim_t = f32(half + (tol + SLACK))
    bxf, byf = f32(x), f32(y)
    lo_x, hi_x = f32(min(sx, x)), f32(max(sx, x))
    lo_y, hi_y = f32(min(sy, y)), f32(max(sy, y))
    for i in range(nb.shape[0]):
        v = nb[i]
        vx, vy, vr = bs.x32[b, v], bs.y32[b, v], bs.r32[b, v]
        dx, dy, lim = vx - bxf, vy - byf, lim_ov + vr
        d2 = dx * dx + dy * dy
        ox, oy, oc, os_ = bs.x[b, v], bs.y[b, v], bs.c[b, v], bs.s[b, v]
        ohw, ohd = bs.hw[b, v], bs.hd[b, v]
        if d2 < lim * lim and overlap(x, y, c, s, hw, hd, ox, oy, oc, os_, ohw, ohd, 1e-6):
            return False
        if side[v] == own:
            continue
        er = vr + f32(SLACK)
        if (
            moving
            and lo_x <= vx + er
            and hi_x >= vx - er
            and lo_y <= vy + er
            and hi_y >= vy - er
            and segment_hits_box(sx, sy, x, y, ox, oy, oc, os_, ohw, ohd, 1e-6)
        ):
            return False
        lim = lim_t + vr
        if d2 <= lim * lim and distance_le(box, Box(ox, oy, oc, os_, ohw, ohd), tol):
            return False
    return True


@jit.kernel
def frees(bs: Bases, p: Poses, ignore: I, sc: Scene) -> B:
    """``Battle.free_at`` of bases as they stand but for their place: each on the table and
    clear of the others, ``ignore`` aside."""
    out = np.zeros(p.r.shape[0], dtype=np.bool_)
    for q in range(p.r.shape[0]):
        b, v, x, y, c, s = p.r[q], p.u[q], p.x[q], p.y[q], math.cos(p.th[q]), math.sin(p.th[q])
        if on_table(x, y, c, s, bs.hw[b, v], bs.hd[b, v], sc.bd.width, sc.bd.height):
            out[q] = not overlaps_any(bs, b, v, ignore[q], x, y, c, s)
    return out


@jit.inline
def step_free(bs: Bases, b: int, v: int, x: float, y: float, c: float, s: float, sc: Scene) -> int:
    """One step of a slide: 0 free, 1 against another base, 2 off the table."""
    w, h = sc.bd.width, sc.bd.height
    on = x >= 0 and x <= w and y >= 0 and y <= h
    if not on or not on_table(x, y, c, s, bs.hw[b, v], bs.hd[b, v], w, h):
        return 2
    return 1 if overlaps_any(bs, b, v, -1, x, y, c, s) else 0


@jit.kernel
def slides(bs: Bases, r: I, u: I, dx: F, dy: F, dist: F, th: F, sc: Scene) -> tuple[B, F, F, F, B]:
    """``Battle.slide`` without placing: still on the table, where it stops, its facing
    (default ``blocked_retreat_stops``; blocked at once, no turn into an overlap), clear."""
    m = r.shape[0]
    ok, clear = np.ones(m, dtype=np.bool_), np.ones(m, dtype=np.bool_)
    bx, by, bth = np.empty(m), np.empty(m), th.copy()
    for q in range(m):
        b, v, c, s = r[q], u[q], math.cos(th[q]), math.sin(th[q])
        x0, y0 = bs.x[b, v], bs.y[b, v]
        lx, ly = x0, y0  # the last free step (the start: none)
        moved = False
        for k in range(1, max(1, math.ceil(dist[q] / sc.ru.step)) + 1):
            d = min(dist[q], k * sc.ru.step)
            nx, ny = x0 + dx[q] * d, y0 + dy[q] * d
            got = step_free(bs, b, v, nx, ny, c, s, sc)
            if got == 2:
                ok[q] = False  # off the table: the caller removes the unit
            if got:
                clear[q] = False
                break
            lx, ly = nx, ny
            moved = True
        bx[q], by[q] = lx, ly
        turned = ok[q] and not moved and th[q] != bs.th[b, v]
        if turned and step_free(bs, b, v, x0, y0, c, s, sc):
            bth[q] = bs.th[b, v]
    return ok, bx, by, bth, clear


@jit.kernel
def places(bs: Bases, ld: Leaders, us: Units, p: Poses, chg: I) -> None:
    """Move the bases and their living leaders, bumping versions; ``chg`` (empty: none): a
    move's formation changes (counted as having moved)."""
    r, u, x, y, th = p
    for q in range(r.shape[0]):
        b, v = r[q], u[q]
        dx, dy = x[q] - bs.x[b, v], y[q] - bs.y[b, v]
        if chg.shape[0]:
            dist = math.sqrt(dx * dx + dy * dy)
            us.moved[b, v] = us.moved[b, v] or dist > 1e-9 or chg[q] != 0
        if bs.x[b, v] != x[q] or bs.y[b, v] != y[q]:
            bs.ver[b, v] += 1
        bs.x[b, v], bs.y[b, v] = x[q], y[q]
        bs.x32[b, v], bs.y32[b, v] = np.float32(x[q]), np.float32(y[q])
        bs.th[b, v], bs.c[b, v], bs.s[b, v] = th[q], math.cos(th[q]), math.sin(th[q])
        for k in range(ld.alive.shape[1]):
            if ld.alive[b, k] and ld.att[b, k] == v:
                ld.x[b, k], ld.y[b, k] = x[q], y[q]


_base_half = jit.twin(numeric).base_half


@jit.inline
def base_half(ut: int, form: int, stands: int, base_w: F, base_d: F) -> tuple[float, float]:
    """(half frontage, half depth) of a base (``numeric.base_half``, ``state.base_size``)."""
    col = ut != ART and form == COLUMN
    out: tuple[float, float] = _base_half(base_w[ut], base_d[ut], stands, col)
    return out


@jit.kernel
def resize(bs: Bases, us: Units, r: I, u: I, utype: I, ru: Rules) -> None:
    """The bases of units ``u[q]`` in battles ``r[q]`` from type, formation and stands."""
    for q in range(r.shape[0]):
        b, v = r[q], u[q]
        hw, hd = base_half(utype[v], us.form[b, v], us.stands[b, v], ru.base_w, ru.base_d)
        bs.hw[b, v], bs.hd[b, v] = hw, hd
        bs.rad[b, v] = jit.hypot(hw, hd)
        bs.r32[b, v] = np.float32(bs.rad[b, v])


@jit.kernel
def touching(bs: Bases, r: I, ua: I, ub: I, tol: float) -> B:
    """Do the bases of ``ua[q]`` and ``ub[q]`` touch in battle ``r[q]`` (contact lists)?"""
    out = np.zeros(r.shape[0], dtype=np.bool_)
    for q in range(r.shape[0]):
        b, a, v = r[q], ua[q], ub[q]
        dx, dy = bs.x[b, v] - bs.x[b, a], bs.y[b, v] - bs.y[b, a]
        lim = bs.rad[b, a] + tol + bs.rad[b, v]
        if dx * dx + dy * dy <= lim * lim * (1 + 1e-9) and bs.alive[b, a] and bs.alive[b, v]:
            out[q] = distance_le(box_of(bs, b, a), box_of(bs, b, v), tol)
    return out


@jit.kernel
def hypots(dx: F, dy: F) -> F:
    """``math.hypot`` of each pair."""
    out = np.empty(dx.shape[0])
    for q in range(dx.shape[0]):
        out[q] = jit.hypot(dx[q], dy[q])
    return out
