"""numba kernels for seed 002 FIRE as the scripted AI plays it: candidate shots
(:func:`fire_matrix`), the target picked (:func:`pick`), shots measured again
(:func:`reband`); the scalar engine's formulas in its order, exact where they decide."""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np
from numpy.typing import NDArray

from umpire import jit
from umpire.board import kgeom as G
from umpire.board import ksight
from umpire.board.kterrain import cell_of
from umpire.rules.quick_acw.batch.arrays import Bases, Scene, Units
from umpire.rules.quick_acw.batch.kbases import box_of
from umpire.rules.quick_acw.batch.tables import ES_LO

I = NDArray[np.int64]  # noqa: E741
I8 = NDArray[np.int8]
F = NDArray[np.float64]
B = NDArray[np.bool_]

UNSEEN, SEEN, BLOCKED = 0, 1, 2  # a candidate shot's line of sight: not looked at yet
SLACK = 1e-3  # inches added to single-precision prefilters (as ``kbases``)
RAD2DEG = 180.0 / math.pi  # numpy's degrees() factor


class Volley(NamedTuple):
    """A side's fire: its units, the enemy's, per battle each firer's class (-1 none), actor."""

    FU: I
    TU: I
    fc: I
    actor: B


class Shots(NamedTuple):
    """Candidate shots (battle, firer, target): needed (0 none), modifier, sight (``SEEN``...)."""

    need: I8
    mod: I8
    los: I8


class Seen(NamedTuple):
    """Terrain's sight kept (``cache``) per firer, target, battle (``ids``) and versions."""

    ids: I
    ns: int
    nb: int
    cache: I


# -- one shot: seed 002 FIRE for one firer and target -----------------------------------


@jit.inline
def _band(bands: F, ba: G.Box, bb: G.Box) -> int:
    """``numeric.band`` of the exact range between two bases (-1 beyond): the scalar's
    nearest-point form within a hair of a band's top."""
    d = G.quick_distance(ba, bb)
    for i in range(len(bands)):
        if abs(d - (bands[i] + 1e-9)) < G.HAIR:
            d = G.box_distance(ba, bb)
            break
    return G.band(bands, d)


@jit.kernel
def shots(
    at: I, rows: I, known: bool, sh: Shots, bs: Bases, un: Units, v: Volley, sc: Scene
) -> None:
    """``steps.targets`` but the sight: (needed, modifier) of the candidates ``at`` (flat
    places in ``sh.need``), (0, 0) none; ``known``: in arc, only range and cover moved."""
    x, y, c, s, hw, hd, rad = bs.x, bs.y, bs.c, bs.s, bs.hw, bs.hd, bs.rad
    form, marker, mounted = un.form, un.marker, un.mounted
    bd, ru, need, mod, utype, side = sc.bd, sc.ru, sh.need, sh.mod, sc.utype, sc.side
    cover, walls, cell, nx, ny = bd.cover, bd.walls, bd.cell, bd.nx, bd.ny
    bands, fire_table, need_at, run = ru.bands, ru.fire_table, ru.need_at, ru.run
    nf, nt = need.shape[1], need.shape[2]
    for q in range(len(at)):
        ia, tb = divmod(at[q], nt)
        ib, fa = divmod(ia, nf)
        row, fu, tu, fclass = rows[ib], v.FU[fa], v.TU[tb], v.fc[ib, fa]
        need[ib, fa, tb], mod[ib, fa, tb] = 0, 0
        ux, uy, uc, us = x[row, fu], y[row, fu], c[row, fu], s[row, fu]
        tx, ty = x[row, tu], y[row, tu]
        uhw, uhd = hw[row, fu], hd[row, fu]
        tc, ts, thw, thd = c[row, tu], s[row, tu], hw[row, tu], hd[row, tu]
        fb, tb_ = G.Box(ux, uy, uc, us, uhw, uhd), G.Box(tx, ty, tc, ts, thw, thd)
        if known:
            col = _band(bands, fb, tb_)
            nd = fire_table[fclass, col] if col >= 0 else 0
        else:
            dx, dy = tx - ux, ty - uy
            fwd, lat = dx * uc + dy * us, -dx * us + dy * uc
            if not fwd > 0:
                continue
            ratio = abs(lat) / fwd
            inarc = ratio <= ru.tan_arc
            if abs(ratio - ru.tan_arc) < 1e-6:
                inarc = math.atan2(abs(lat), fwd) * RAD2DEG <= ru.arc
            if not inarc:
                continue
            lo, hi = G.range_bounds(
                ux, uy, uc, us, uhw, uhd, rad[row, fu], tx, ty, tc, ts, thw, thd, rad[row, tu]
            )
            plo, phi = G.band(bands, lo - 1e-7), G.band(bands, hi + 1e-7)  # -1: the last place
            nd = need_at[fclass, plo]
            if run[fclass, plo] != run[fclass, phi]:
                col = _band(bands, fb, tb_)
                nd = fire_table[fclass, col] if col >= 0 else 0
        if nd <= 0:
            continue
        cov = cover[cell_of(tx, ty, cell, nx, ny)]
        rch, near = thd + 1.0, False
        for w in range(0, walls.shape[0], 4):
            ax, ay, bx, by = walls[w], walls[w + 1], walls[w + 2], walls[w + 3]
            near = tx + rch >= min(ax, bx) and tx - rch <= max(ax, bx)
            if near and ty + rch >= min(ay, by) and ty - rch <= max(ay, by):
                break
            near = False
        if near and not cov:  # a wall within reach of the target: does it lie across the fire?
            cov = G.wall_across(tx, ty, ux, uy, rch, walls)
        k = (side[fu] * 3 + fclass) * 2 + form[row, fu]
        k = (k * 2 + marker[row, fu]) * 3 + utype[tu]
        k = ((k * 2 + mounted[row, tu]) * 2 + form[row, tu]) * 2 + cov
        need[ib, fa, tb], mod[ib, fa, tb] = nd, ru.fire_mods[k]


@jit.kernel
def contacts(bs: Bases, rows: I, A: I, Bu: I, tol: float) -> tuple[NDArray[np.float32], B]:
    """Squared centre distances (float32) and contacts of units ``A`` and ``Bu``."""
    x32, y32, r32, alive = bs.x32, bs.y32, bs.r32, bs.alive
    m, na, nb = len(rows), len(A), len(Bu)
    d2 = np.empty((m, na, nb), dtype=np.float32)
    adj = np.zeros((m, na, nb), dtype=np.bool_)
    pad = np.float32(tol + SLACK)
    for i in range(m):
        row = rows[i]
        for a in range(na):
            ua = A[a]
            xa, ya, ra = x32[row, ua], y32[row, ua], r32[row, ua] + pad
            for b in range(nb):
                ub = Bu[b]
                dx, dy = x32[row, ub] - xa, y32[row, ub] - ya
                dd = dx * dx + dy * dy
                d2[i, a, b] = dd
                lim = ra + r32[row, ub]
                if not (dd <= lim * lim and alive[row, ua] and alive[row, ub]):
                    continue
                adj[i, a, b] = G.distance_le(box_of(bs, row, ua), box_of(bs, row, ub), tol)
    return d2, adj


@jit.kernel
def fire_matrix(
    bs: Bases, us: Units, rows: I, v: Volley, d2: NDArray[np.float32], adj: B, sc: Scene
) -> tuple[I8, I8, I8]:
    """Every firer's candidate shots (needed, modifier, sight): firers in contact at what
    they touch (SEEN), the others at untouched targets within range (:func:`shots`)."""
    FU, TU, fc, actor = v
    m, nf, nt = len(rows), len(FU), len(TU)
    need = np.zeros((m, nf, nt), dtype=np.int8)
    mod = np.zeros((m, nf, nt), dtype=np.int8)
    los = np.zeros((m, nf, nt), dtype=np.int8)
    at = np.empty(m * nf * nt, dtype=np.int64)  # (pages untouched beyond the candidates)
    r32, alive, max_range = bs.r32, bs.alive, sc.ru.max_range
    touched = np.zeros(nt, dtype=np.bool_)
    # (no slices or arrays made inside the loops: numba counts references to them there)
    got = 0
    for i in range(m):
        row = rows[i]
        for b in range(nt):
            touched[b] = False
        for a in range(nf):
            for b in range(nt):
                if adj[i, a, b]:
                    touched[b] = True
        for a in range(nf):
            engaged = False
            for b in range(nt):
                if adj[i, a, b]:
                    engaged = True
                    break
            if engaged:  # firers in contact fire only at what they touch
                for b in range(nt):
                    los[i, a, b] = SEEN
            if not actor[i, a]:
                continue
            top = np.float32(max_range[max(fc[i, a], 0)] + (1e-6 + SLACK))
            rf = top + r32[row, FU[a]]
            for b in range(nt):
                tu = TU[b]
                if engaged:
                    if not adj[i, a, b]:
                        continue
                elif touched[b] or not alive[row, tu]:
                    continue
                reach = rf + r32[row, tu]
                if d2[i, a, b] <= reach * reach:
                    at[got] = (i * nf + a) * nt + b
                    got += 1
    shots(at[:got], rows, False, Shots(need, mod, los), bs, us, v, sc)
    return need, mod, los


@jit.kernel
def reband(
    bs: Bases, us: Units, r: I, tcol: I, after: int, v: Volley, sh: Shots, sc: Scene
) -> None:
    """Measure again the shots of firers ``after``.. at the shrunk targets ``tcol``."""
    need, nf = sh.need, len(v.FU)
    nt = need.shape[2]
    at = np.empty(len(r) * max(nf - after, 0), dtype=np.int64)
    got = 0
    for q in range(len(r)):
        for a in range(after, nf):
            if need[r[q], a, tcol[q]] > 0:
                at[got] = (r[q] * nf + a) * nt + tcol[q]
                got += 1
    shots(at[:got], np.arange(need.shape[0]), True, sh, bs, us, v, sc)


# -- the line of sight (``Battle.sees``) and the pick of a target ------------------------


@jit.kernel
def pick(
    bs: Bases, kk: int, v: Volley, sh: Shots, alive_t: B, bonus: F, seen: Seen, sc: Scene
) -> tuple[I, I]:
    """``ScriptedAI``'s target for firer ``kk``: the seen candidate of highest value (targets
    ``alive_t``, valued times ``bonus``), sight (``Battle.sees``) looked at in that order;
    terrain's answer cached per pair and versions."""
    x, y, c, s, hw, hd = bs.x, bs.y, bs.c, bs.s, bs.hw, bs.hd
    x32, y32, r32, alive, ver = bs.x32, bs.y32, bs.r32, bs.alive, bs.ver
    FU, TU, actor, local = v.FU, v.TU, v.actor, sc.local
    need, mod, los = sh
    ids, ns, nb, cache = seen
    es, es_lo = sc.ru.es, ES_LO
    n, nt = need.shape[0], need.shape[2]
    rows = np.empty(n, dtype=np.int64)
    picks = np.empty(n, dtype=np.int64)
    value = np.empty(nt, dtype=np.float64)
    hi = len(es) - 1 + es_lo
    u = FU[kk]
    pad = np.float32(SLACK)
    got = 0
    for row in range(n):
        if not actor[row, kk]:
            continue
        for b in range(nt):
            nd = need[row, kk, b]
            if nd > 0 and alive_t[row, b] and los[row, kk, b] != BLOCKED:
                e = min(max(int(nd) - int(mod[row, kk, b]), es_lo), hi)
                value[b] = es[e - es_lo] * bonus[row, b]
            else:
                value[b] = -np.inf
        while True:
            best, p = -np.inf, -1
            for b in range(nt):
                if value[b] > best:
                    best, p = value[b], b
            if p < 0:
                break
            if los[row, kk, p] == UNSEEN:
                t = TU[p]
                x0, y0, x1, y1 = x[row, u], y[row, u], x[row, t], y[row, t]
                slot = (local[u] * ns + local[t]) * nb + ids[row]
                key = (np.int64(ver[row, u]) << 31) | np.int64(ver[row, t])
                if cache[slot] >> 1 == key:
                    ok = (cache[slot] & 1) == 1
                else:
                    ok = ksight.sight_clear(x0, y0, x1, y1, sc.bd)
                    cache[slot] = (key << 1) | (1 if ok else 0)
                if ok:  # friendly bases across the line
                    lo_x, hi_x = np.float32(min(x0, x1)), np.float32(max(x0, x1))
                    lo_y, hi_y = np.float32(min(y0, y1)), np.float32(max(y0, y1))
                    for w in range(len(FU)):
                        v = FU[w]
                        if v == u or not alive[row, v]:
                            continue
                        X, Y = x32[row, v], y32[row, v]
                        rr = r32[row, v] + pad
                        if (
                            lo_x <= X + rr
                            and hi_x >= X - rr
                            and lo_y <= Y + rr
                            and hi_y >= Y - rr
                            and G.segment_hits_box(x0, y0, x1, y1, x[row, v], y[row, v], c[row, v],
                                                 s[row, v], hw[row, v], hd[row, v], 1e-6)
                        ):  # fmt: skip
                            ok = False
                            break
                los[row, kk, p] = SEEN if ok else BLOCKED
            if los[row, kk, p] == SEEN:
                rows[got] = row
                picks[got] = p
                got += 1
                break
            value[p] = -np.inf
    return rows[:got], picks[:got]
