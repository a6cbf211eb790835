"""numba kernels for the scripted AI's charges (seed 002 charge paragraph) and the melee
modifiers (seed 002 MELEE), battle by battle, the scalar engine's formulas in its order."""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import NDArray

from umpire import jit
from umpire.board.kgeom import crosses
from umpire.board.kterrain import cell_of, path_rough
from umpire.rules.quick_acw.batch.arrays import Bases, Scene, Units
from umpire.rules.quick_acw.batch.kmove import exact
from umpire.rules.quick_acw.batch.tables import CH_DIFF, CH_HI, CH_LO

F = NDArray[np.float64]
B = NDArray[np.bool_]
I = NDArray[np.int64]  # noqa: E741


@jit.kernel
def charge_reach(bs: Bases, r: I, u: int, E: I, open0: F, look: float) -> tuple[I, I, F, F, F, B]:
    """The charges unit ``u`` could make: enemies within ``look`` whose contact point
    (``steps.contact_point``) is within ``open0``: (row, place), point, facing, flank."""
    m, ne = r.shape[0], E.shape[0]
    pq, pe = np.empty(m * ne, dtype=np.int64), np.empty(m * ne, dtype=np.int64)
    ocx, ocy, oth = np.empty(m * ne), np.empty(m * ne), np.empty(m * ne)
    ofl = np.empty(m * ne, dtype=np.bool_)
    n = 0
    for q in range(m):
        b = r[q]
        ux, uy, hd = bs.x[b, u], bs.y[b, u], bs.hd[b, u]
        for i in range(ne):
            e = E[i]
            if not bs.alive[b, e]:
                continue
            tx, ty = bs.x[b, e], bs.y[b, e]
            dx, dy = tx - ux, ty - uy
            lim = min(open0[q] + hd + bs.rad[b, e] + 1e-6, look)
            if not dx * dx + dy * dy <= lim * lim * (1 + 1e-9):
                continue
            if not exact(dx, dy, look, look) <= look:
                continue
            c, s, thw, thd = bs.c[b, e], bs.s[b, e], bs.hw[b, e], bs.hd[b, e]
            fwd, lat = -dx * c - dy * s, dx * s - dy * c
            rear = fwd < -thd
            side = not fwd > thd and not rear and abs(lat) > thw
            sign = 1.0 if lat > 0 else -1.0
            nx = -c if rear else (-s * sign if side else c)
            ny = -s if rear else (c * sign if side else s)
            off = thw if side else thd
            cx, cy = tx + nx * (off + hd), ty + ny * (off + hd)
            ddx, ddy = cx - ux, cy - uy
            if math.sqrt(ddx * ddx + ddy * ddy) <= open0[q] + 1e-6:
                pq[n], pe[n] = q, i
                ocx[n], ocy[n], oth[n] = cx, cy, math.atan2(-ny, -nx)
                ofl[n] = rear or side
                n += 1
    return pq[:n], pe[:n], ocx[:n], ocy[:n], oth[:n], ofl[:n]


@jit.kernel
def charge_paths(sx: F, sy: F, cx: F, cy: F, open_: F, rough: F, sc: Scene) -> tuple[F, B]:
    """Each charge's exact distance, and whether the move allows it."""
    m = sx.shape[0]
    cdist, legal = np.empty(m), np.empty(m, dtype=np.bool_)
    for q in range(m):
        cdist[q] = jit.hypot(cx[q] - sx[q], cy[q] - sy[q])
        hit = path_rough(sx[q], sy[q], cx[q], cy[q], sc.bd)
        legal[q] = cdist[q] <= (rough[q] if hit else open_[q]) + 1e-6
    return cdist, legal


@jit.inline
def melee_mod(
    bs: Bases, us: Units, sc: Scene, b: int, u: int, e: int, attacking: bool, flank: bool
) -> int:
    """Seed 002 MELEE modifiers and stands fighting of unit ``u`` against ``e`` in battle
    ``b``: the facts of ``steps.melee_key``, summed by ``tables.melee_modifier_table``."""
    side, utype, table, bd = sc.side, sc.utype, sc.ru.melee, sc.bd
    ux, uy, ex, ey = bs.x[b, u], bs.y[b, u], bs.x[b, e], bs.y[b, e]
    ob = not attacking and crosses(ux, uy, ex, ey, bd.obstacles)
    cells = cell_of(ux, uy, bd.cell, bd.nx, bd.ny), cell_of(ex, ey, bd.cell, bd.nx, bd.ny)
    up = bd.level[cells[0]] > bd.level[cells[1]]
    k = ((side[u] * 3 + utype[u]) * 2 + us.mounted[b, u]) * 2 + us.form[b, u]
    k = (((((k * 2 + attacking) * 2 + ob) * 2 + up) * 2 + us.marker[b, u]) * 2) + flank
    out: int = table[k, 0] + table[k, 1] * us.stands[b, u] + table[k, 2] * us.bonus[b, u]
    return out


@jit.kernel
def melee_mods(bs: Bases, us: Units, sc: Scene, r: I, u: I, e: I, attacking: B, flank: B) -> I:
    """:func:`melee_mod` of unit ``u[q]`` against ``e[q]`` in battle ``r[q]``."""
    out = np.empty(r.shape[0], dtype=np.int64)
    for q in range(r.shape[0]):
        out[q] = melee_mod(bs, us, sc, r[q], u[q], e[q], attacking[q], flank[q])
    return out


@jit.kernel
def charge_odds(bs: Bases, us: Units, sc: Scene, r: I, u: int, tu: I, flank: B) -> F:
    """``scripted.charge_chance`` for ``u`` charging ``tu[q]`` in battle ``r[q]``: morale
    needs and melee modifiers looked up in ``tables.charge_table``."""
    side, morale, marker, table = sc.side, sc.ru.morale, sc.ru.marker, sc.ru.charge
    lo, hi, clip = CH_LO, CH_HI, CH_DIFF
    out = np.empty(r.shape[0])
    for q in range(r.shape[0]):
        b, t = r[q], tu[q]
        n_a = morale[side[u]] - (us.bonus[b, u] + (marker if us.marker[b, u] else 0))
        n_d = morale[side[t]] - (us.bonus[b, t] + (marker if us.marker[b, t] else 0))
        ma = melee_mod(bs, us, sc, b, u, t, True, flank[q])
        md = melee_mod(bs, us, sc, b, t, u, False, False)
        i = min(max(n_a, lo), hi) - lo
        j = min(max(n_d, lo), hi) - lo
        out[q] = table[i, j, min(max(ma - md, -clip), clip) + clip]
    return out
