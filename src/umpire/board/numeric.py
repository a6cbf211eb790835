"""The board's hot rules written once: plain numbers in, numbers out (issue 25).

Every function here is plain, undecorated Python over floats, ints and indexable
sequences (lists and tuples from the scalar engine, numpy arrays from the kernels), so
one source serves both engines: the scalar engine imports this module (compiled by mypyc
in the compiled build, ``benchmarks/build_mypyc.py``), and the batch simulator's kernels
use the numba copy :func:`umpire.jit.twin` makes of the same file
(``umpire.board.kgeom``, ``ksight``, ``kterrain`` hand them out).
``benchmarks/bench_one_source.py`` chose this over the scalar engine calling numba's
compiled functions (RESULTS.md, "Issue 25: one source for both engines").

Rules for this file: no numpy, no Python objects made or kept (no lists, dicts,
generators, closures, keyword arguments or default values), only ``math``'s functions
both compilers know, and module constants that are numbers. A base is six floats
(x, y, cos theta, sin theta, hw, hd); a line is (x0, y0, x1, y1); a board's rasters are
flat sequences with cell (i, j) at ``i * ny + j``.
"""

from __future__ import annotations

import math
import sys
import types
from typing import Final

EPS: Final = 1e-9
"""Below it an edge or a slab's direction counts as zero length (``geometry.EPS``)."""

_math_hypot: Final = math.hypot
SAME: Final = sys.version_info[:2] == (3, 11)
"""Is :func:`hypot`'s algorithm the one this Python's ``math.hypot`` uses? (numba is only
switched on for 3.11, ``umpire.jit``.)"""

_T27: Final = 134217729.0  # 2 ** 27 + 1, Veltkamp's constant for Dekker's split
_LOW: Final = 1.0 / 1024.0 / 1024.0 / 1024.0  # 2 ** -30: below it, scale by frexp
_HIGH: Final = 1024.0 * 1024.0 * 1024.0  # 2 ** 30: above it, scale by frexp
_TINY: Final = 2.2250738585072014e-308  # the least normal double: below it, math's own
_INF: Final = math.inf


def hypot(x: float, y: float) -> float:
    """The length of (x, y): ``math.hypot(x, y)`` to the last bit, on 3.11.

    CPython 3.11's own algorithm for two coordinates (``vector_norm`` in
    ``Modules/mathmodule.c``: lossless scaling by a power of two, Dekker's split,
    compensated sums, one correction of the square root), written out so that mypyc
    compiles it to plain double arithmetic (it has no native ``math.hypot``) and numba to
    the same floats (its own ``math.hypot`` may differ in the last bit).
    ``tests/test_fmath.py`` and ``tests/test_jit.py`` check it against ``math.hypot``.
    """
    ax = -x if x < 0.0 else x
    ay = -y if y < 0.0 else y
    mx = ax if ax > ay else ay
    scale = 1.0
    if SAME and _LOW <= mx <= _HIGH:  # the table's numbers: frexp by exact powers of two
        # (a binary search of the exponent: m ends in [0.5, 1), scale = 2 ** -e exactly)
        m = mx
        if m >= 1.0:
            if m >= 65536.0:
                m *= 1.0 / 65536.0
                scale *= 1.0 / 65536.0
            if m >= 256.0:
                m *= 1.0 / 256.0
                scale *= 1.0 / 256.0
            if m >= 16.0:
                m *= 0.0625
                scale *= 0.0625
            if m >= 4.0:
                m *= 0.25
                scale *= 0.25
            if m >= 2.0:
                m *= 0.5
                scale *= 0.5
            m *= 0.5  # [1, 2) to [0.5, 1)
            scale *= 0.5
        else:
            if m < 1.0 / 65536.0:
                m *= 65536.0
                scale *= 65536.0
            if m < 1.0 / 256.0:
                m *= 256.0
                scale *= 256.0
            if m < 0.0625:
                m *= 16.0
                scale *= 16.0
            if m < 0.25:
                m *= 4.0
                scale *= 4.0
            if m < 0.5:
                m *= 2.0
                scale *= 2.0
    else:
        if ax == _INF or ay == _INF:
            return _INF
        if not SAME or ax != ax or ay != ay or mx < _TINY:  # nan, zero, subnormal
            return _math_hypot(x, y)
        scale = math.ldexp(1.0, -math.frexp(mx)[1])
    csum = 1.0
    frac1 = 0.0
    frac2 = 0.0
    frac3 = 0.0
    # the first coordinate
    v = ax * scale
    t = v * _T27
    hi = t - (t - v)
    lo = v - hi
    v = hi * hi
    old = csum
    csum += v
    frac1 += (old - csum) + v
    v = 2.0 * hi * lo
    old = csum
    csum += v
    frac2 += (old - csum) + v
    frac3 += lo * lo
    # the second
    v = ay * scale
    t = v * _T27
    hi = t - (t - v)
    lo = v - hi
    v = hi * hi
    old = csum
    csum += v
    frac1 += (old - csum) + v
    v = 2.0 * hi * lo
    old = csum
    csum += v
    frac2 += (old - csum) + v
    frac3 += lo * lo
    h = math.sqrt(csum - 1.0 + (frac1 + frac2 + frac3))
    # the correction
    v = h
    t = v * _T27
    hi = t - (t - v)
    lo = v - hi
    v = -hi * hi
    old = csum
    csum += v
    frac1 += (old - csum) + v
    v = -2.0 * hi * lo
    old = csum
    csum += v
    frac2 += (old - csum) + v
    v = -lo * lo
    old = csum
    csum += v
    frac3 += (old - csum) + v
    v = csum - 1.0 + (frac1 + frac2 + frac3)
    return (h + v / (2.0 * h)) / scale


# -- bases ---------------------------------------------------------------------------

Corners = tuple[float, float, float, float, float, float, float, float]


def corners(x: float, y: float, c: float, s: float, hw: float, hd: float) -> Corners:
    """x0, y0 .. x3, y3 of a base: front-left, front-right, rear-right, rear-left."""
    fx, fy = c * hd, s * hd  # forward half vector
    lx, ly = -s * hw, c * hw  # left half vector
    return (
        x + fx + lx,
        y + fy + ly,
        x + fx - lx,
        y + fy - ly,
        x - fx - lx,
        y - fy - ly,
        x - fx + lx,
        y - fy + ly,
    )


def on_table(
    x: float, y: float, c: float, s: float, hw: float, hd: float, width: float, height: float
) -> bool:
    """Are a base's four corners (:func:`corners`' floats) on a table ``width`` by ``height``?"""
    fx, fy = c * hd, s * hd
    lx, ly = -s * hw, c * hw
    ax, ay, bx, by = x + fx, y + fy, x - fx, y - fy
    return (
        0 <= ax + lx <= width
        and 0 <= ay + ly <= height
        and 0 <= ax - lx <= width
        and 0 <= ay - ly <= height
        and 0 <= bx - lx <= width
        and 0 <= by - ly <= height
        and 0 <= bx + lx <= width
        and 0 <= by + ly <= height
    )


def point_box_sq(
    px: float, py: float, x: float, y: float, c: float, s: float, hw: float, hd: float
) -> float:
    """The squared distance from a point to a base (0 inside)."""
    dx, dy = px - x, py - y
    f = abs(dx * c + dy * s) - hd
    lat = abs(-dx * s + dy * c) - hw
    f = f if f > 0.0 else 0.0
    lat = lat if lat > 0.0 else 0.0
    return f * f + lat * lat


def range_bounds(
    x: float, y: float, c: float, s: float, hw: float, hd: float, ra: float,
    ox: float, oy: float, oc: float, os_: float, ohw: float, ohd: float, rb: float,
) -> tuple[float, float]:  # fmt: skip
    """Bounds on the nearest-point distance of two bases (radii ``ra``, ``rb``), from each
    centre to the other base. Every point of a base lies within its radius of its centre,
    and the distance to a convex base changes no faster than the point moves: so the range
    is at least the distance from one centre to the other base less that base's radius,
    and at most that distance."""
    d1 = math.sqrt(point_box_sq(ox, oy, x, y, c, s, hw, hd))
    d2 = math.sqrt(point_box_sq(x, y, ox, oy, oc, os_, ohw, ohd))
    lo = d1 - rb if d1 - rb > d2 - ra else d2 - ra
    return lo, (d1 if d1 < d2 else d2)


def base_half(w: float, d: float, stands: int, deep: bool) -> tuple[float, float]:
    """(half frontage, half depth) of a base of ``stands`` stands ``w`` wide and ``d`` deep:
    side by side, or one behind another where ``deep`` (a column of foot or cavalry)."""
    n = stands if stands > 1 else 1
    if deep:
        return w / 2, n * d / 2
    return n * w / 2, d / 2


def overlap(
    x: float,
    y: float,
    c: float,
    s: float,
    hw: float,
    hd: float,
    ox: float,
    oy: float,
    oc: float,
    os_: float,
    ohw: float,
    ohd: float,
    tol: float,
) -> bool:
    """Separating-axis test of two bases: do the interiors overlap by more than ``tol``?
    (Bases that only touch, distance 0, do not.)"""
    dx, dy = ox - x, oy - y
    if (
        abs(dx * c + dy * s)
        >= hd + (ohd * abs(oc * c + os_ * s) + ohw * abs(-os_ * c + oc * s)) - tol
    ):
        return False
    ax, ay = -s, c
    if (
        abs(dx * ax + dy * ay)
        >= hw + (ohd * abs(oc * ax + os_ * ay) + ohw * abs(-os_ * ax + oc * ay)) - tol
    ):
        return False
    if (
        abs(dx * oc + dy * os_)
        >= ohd + (hd * abs(c * oc + s * os_) + hw * abs(-s * oc + c * os_)) - tol
    ):
        return False
    ax, ay = -os_, oc
    return not (
        abs(dx * ax + dy * ay)
        >= ohw + (hd * abs(c * ax + s * ay) + hw * abs(-s * ax + c * ay)) - tol
    )


SURELY: Final = 1.000000001  # 1 + 1e-9 (a literal: the mypyc build inlines it)
"""The relative margin of :func:`surely_beyond` (far above the rounding of either side)."""


def surely_beyond(dx: float, dy: float, lim: float) -> bool:
    """Is ``hypot(dx, dy) > lim`` for certain? Told from the squares (no call), with a
    margin far above rounding: True settles it, False says nothing (ask ``hypot``)."""
    return dx * dx + dy * dy > lim * lim * SURELY + 1e-12


def point_to_edges(px: float, py: float, q: tuple[float, ...], best: float) -> float:
    """min(best, the squared distances from (px, py) to the four edges of corners ``q``)."""
    for k in range(0, 8, 2):
        ax, ay = q[k], q[k + 1]
        m = (k + 2) & 7
        vx, vy = q[m] - ax, q[m + 1] - ay
        ll = vx * vx + vy * vy
        t = ((px - ax) * vx + (py - ay) * vy) / (ll if ll > EPS else 1.0)
        t = 0.0 if t < 0.0 else (1.0 if t > 1.0 else t)
        qx, qy = ax + t * vx - px, ay + t * vy - py
        d = qx * qx + qy * qy
        if d < best:
            best = d
    return best


def nearest_corner(q: tuple[float, ...], x: float, y: float) -> int:
    """The index (0, 2, 4 or 6) of the corner of ``q`` nearest (x, y) (the first on a tie)."""
    best, found = math.inf, 0
    for k in range(0, 8, 2):
        dx, dy = q[k] - x, q[k + 1] - y
        d = dx * dx + dy * dy
        if d < best:
            best, found = d, k
    return found


def distance(
    x: float,
    y: float,
    c: float,
    s: float,
    hw: float,
    hd: float,
    ox: float,
    oy: float,
    oc: float,
    os_: float,
    ohw: float,
    ohd: float,
) -> float:
    """Nearest-point distance of two bases, 0 if they overlap (default
    ``range_nearest_points``: ranges are measured between the nearest points).

    The least of the corner-to-edge distances both ways; the corner of each base nearest
    the other's centre is tried first, and a corner whose distance to the other's centre,
    less its radius, already exceeds the best found (with a margin far above rounding,
    told from the squares) is skipped: it cannot hold the minimum, so the result is the
    same float (a least value does not depend on the order it is found in). sqrt of the
    least square is the least sqrt (sqrt is correctly rounded, hence monotonic).
    """
    if overlap(x, y, c, s, hw, hd, ox, oy, oc, os_, ohw, ohd, 0.0):
        return 0.0
    # as tuples of any length: a fixed-length tuple indexed by a variable is made into one
    # (eight boxed floats) at every use in the mypyc build
    pa: tuple[float, ...] = corners(x, y, c, s, hw, hd)
    pb: tuple[float, ...] = corners(ox, oy, oc, os_, ohw, ohd)
    ra, rb = hypot(hw, hd), hypot(ohw, ohd)
    na = nearest_corner(pa, ox, oy)
    nb = nearest_corner(pb, x, y)
    best = point_to_edges(pa[na], pa[na + 1], pb, math.inf)
    best = point_to_edges(pb[nb], pb[nb + 1], pa, best)
    for n in range(0, 8, 2):
        if n != na:
            px, py = pa[n], pa[n + 1]
            if not surely_beyond(px - ox, py - oy, math.sqrt(best) + rb + 1e-9):
                best = point_to_edges(px, py, pb, best)
        if n != nb:
            px, py = pb[n], pb[n + 1]
            if not surely_beyond(px - x, py - y, math.sqrt(best) + ra + 1e-9):
                best = point_to_edges(px, py, pa, best)
    return math.sqrt(best)


def segment_hits_box(
    x0: float,
    y0: float,
    x1: float,
    y1: float,
    bx: float,
    by: float,
    c: float,
    s: float,
    hw: float,
    hd: float,
    shrink: float,
) -> bool:
    """Does the segment cross the base (slab test in the base's frame)? ``shrink`` trims
    the base so that a segment that only grazes an edge does not count."""
    ax0, ay0 = x0 - bx, y0 - by
    ax1, ay1 = x1 - bx, y1 - by
    tmin, tmax = 0.0, 1.0
    # the slab along the base's depth, then along its frontage (written out: a loop over
    # a tuple of the two boxed every float of it in the mypyc build)
    p0 = ax0 * c + ay0 * s
    p1 = ax1 * c + ay1 * s
    half = hd - shrink
    d = p1 - p0
    if abs(d) < EPS:
        if abs(p0) > half:
            return False
    else:
        ta = (-half - p0) / d
        tb = (half - p0) / d
        if ta > tb:
            swap = ta
            ta = tb
            tb = swap
        if ta > tmin:
            tmin = ta
        if tb < tmax:
            tmax = tb
    p0 = -ax0 * s + ay0 * c
    p1 = -ax1 * s + ay1 * c
    half = hw - shrink
    d = p1 - p0
    if abs(d) < EPS:
        if abs(p0) > half:
            return False
    else:
        ta = (-half - p0) / d
        tb = (half - p0) / d
        if ta > tb:
            swap = ta
            ta = tb
            tb = swap
        if ta > tmin:
            tmin = ta
        if tb < tmax:
            tmax = tb
    return tmin <= tmax


def range_column(
    tops: tuple[float, ...],
    x: float,
    y: float,
    c: float,
    s: float,
    hw: float,
    hd: float,
    ox: float,
    oy: float,
    oc: float,
    os_: float,
    ohw: float,
    ohd: float,
) -> int:
    """The range band of two bases: the first column whose upper bound (``tops``, rising)
    the :func:`distance` reaches within 1e-9, -1 beyond the last (reading
    ``range_bands_upper_bounds``; the rule ``benchmarks/bench_one_source.py`` times)."""
    return band(tops, distance(x, y, c, s, hw, hd, ox, oy, oc, os_, ohw, ohd))


def band(tops: tuple[float, ...], d: float) -> int:
    """The first band whose upper bound (``tops``, rising) ``d`` reaches within 1e-9, -1
    beyond the last: seed 002 FIRE's range column (reading ``range_bands_upper_bounds``)."""
    for i in range(len(tops)):
        if d <= tops[i] + 1e-9:
            return i
    return -1


def crosses(x0: float, y0: float, x1: float, y1: float, segs: list[float]) -> bool:
    """Does the segment (x0, y0)-(x1, y1) properly cross any of ``segs``, lines laid end to
    end in one flat sequence (x0, y0, x1, y1, x0, y0, ...)? (Walls and streams.)"""
    for q in range(0, len(segs), 4):
        ax, ay, bx, by = segs[q], segs[q + 1], segs[q + 2], segs[q + 3]
        d1 = (bx - ax) * (y0 - ay) - (by - ay) * (x0 - ax)
        d2 = (bx - ax) * (y1 - ay) - (by - ay) * (x1 - ax)
        if d1 * d2 < 0:
            d3 = (x1 - x0) * (ay - y0) - (y1 - y0) * (ax - x0)
            d4 = (x1 - x0) * (by - y0) - (y1 - y0) * (bx - x0)
            if d3 * d4 < 0:
                return True
    return False


def wall_across(
    tx: float, ty: float, fx: float, fy: float, reach: float, segs: list[float]
) -> bool:
    """Does one of ``segs`` (:func:`crosses`) cross the line ``reach`` long from (tx, ty)
    toward (fx, fy): a wall across the fire at a target (default ``cover_terrain``)?"""
    dx, dy = fx - tx, fy - ty
    n = hypot(dx, dy)
    if n == 0.0:
        n = 1.0
    return crosses(tx, ty, tx + dx / n * reach, ty + dy / n * reach, segs)


# -- lines over the board's rasters ----------------------------------------------------
# A line is sampled every half cell, both ends included: k = len / (cell / 2) + 2 points
# at t = n / (k - 1) (the exact floats of numpy's linspace), each read in its cell. Two
# exact short cuts keep the walk short: a line whose cells miss every feature's cell box
# needs no walk at all, and a "clear distance" field (the Chebyshev distance in cells to
# the nearest cell that matters, ``terrain.clear_distance``) lets the walk jump over
# samples that cannot reach such a cell.


def clamp(v: int, hi: int) -> int:
    """``v`` within 0..hi."""
    return 0 if v < 0 else (hi if v > hi else v)


def cell_of(x: float, y: float, cell: float, nx: int, ny: int) -> int:
    """The flat cell of a point, clamped to the table."""
    return clamp(int(x / cell), nx - 1) * ny + clamp(int(y / cell), ny - 1)


def cells_near(
    x0: float, y0: float, x1: float, y1: float, cell: float, nx: int, ny: int
) -> tuple[int, int, int, int]:
    """A cell box (imin, imax, jmin, jmax) holding every sample of the line, one cell of
    slack each way, clamped to the table like the samples' cells (a line may run off it)."""
    lo, hi = (x0, x1) if x0 < x1 else (x1, x0)
    a0, a1 = int(lo / cell) - 1, int(hi / cell) + 1
    lo, hi = (y0, y1) if y0 < y1 else (y1, y0)
    b0, b1 = int(lo / cell) - 1, int(hi / cell) + 1
    return clamp(a0, nx - 1), clamp(a1, nx - 1), clamp(b0, ny - 1), clamp(b1, ny - 1)


def rough_near(
    x0: float,
    y0: float,
    x1: float,
    y1: float,
    cell: float,
    nx: int,
    ny: int,
    boxes: list[tuple[int, int, int, int]],
) -> bool:
    """May the line touch one of the features whose cell boxes (imin, imax, jmin, jmax)
    are ``boxes``? False settles it (the walk's exact pre-filter)."""
    a0, a1, b0, b1 = cells_near(x0, y0, x1, y1, cell, nx, ny)
    for q in range(len(boxes)):
        b = boxes[q]
        if a0 <= b[1] and b[0] <= a1 and b0 <= b[3] and b[2] <= b1:
            return True
    return False


def sight_top(
    x0: float,
    y0: float,
    x1: float,
    y1: float,
    cell: float,
    nx: int,
    ny: int,
    level: list[int],
    block_boxes: list[tuple[int, int, int, int]],
    hill_boxes: list[tuple[int, int, int, int, int]],
    max_level: int,
) -> int:
    """The higher hill level of the sight line's two ends, or -1 when no woods, town or
    higher hill lies near the line (it is clear without a walk). ``hill_boxes`` rows are
    (level, imin, imax, jmin, jmax)."""
    ex, ey = x0 + (x1 - x0), y0 + (y1 - y0)  # the far end as the walk's last sample
    top = max(level[cell_of(x0, y0, cell, nx, ny)], level[cell_of(ex, ey, cell, nx, ny)])
    if rough_near(x0, y0, x1, y1, cell, nx, ny, block_boxes):
        return top
    if top < max_level:
        a0, a1, b0, b1 = cells_near(x0, y0, x1, y1, cell, nx, ny)
        for q in range(len(hill_boxes)):
            b = hill_boxes[q]
            if b[0] > top and a0 <= b[2] and b[1] <= a1 and b0 <= b[4] and b[3] <= b1:
                return top
    return -1


def walk(
    x0: float,
    y0: float,
    x1: float,
    y1: float,
    cell: float,
    nx: int,
    ny: int,
    field: list[int],
    level: list[int],
    block: list[int],
    top: int,
    limit: float,
    rough: bool,
) -> bool:
    """Walk the line's samples over the skip ``field`` and say whether one stops it.

    ``rough``: the first sample in a rough cell (``field`` 0) stops a move (default
    ``rough_terrain``). Else sight (default ``los_centre_to_centre``): a sample on a hill
    above ``top``, or more than ``limit`` inches of woods or town (``block``), stops it.
    Samples whose cells are nearer than ``field`` says to their neighbours' are skipped:
    a sample ``q`` steps on lies at most ``q * span + 1`` cells away.
    """
    dx, dy = x1 - x0, y1 - y0
    length = hypot(dx, dy)
    k = max(2, int(length / (cell / 2)) + 2)
    step = 1.0 / (k - 1)
    seg = length / (k - 1)
    span = max(abs(dx), abs(dy)) * step / cell  # cells per sample, at most
    nx1, ny1 = nx - 1, ny - 1
    last = k - 1
    count = 0
    n = 0
    while n < k:
        t = n * step if n < last else 1.0
        i = int((x0 + dx * t) / cell)
        j = int((y0 + dy * t) / cell)
        i = 0 if i < 0 else (nx1 if i > nx1 else i)
        j = 0 if j < 0 else (ny1 if j > ny1 else j)
        c = i * ny + j
        d = field[c]
        if d == 0:
            if rough or level[c] > top:
                return True
            if block[c]:
                count += 1
                if count * seg > limit:
                    return True
            n += 1
        elif d > 3 and span > 0:
            m = int((d - 3) / span)  # one cell of slack for rounding
            n += m if m > 1 else 1
        else:
            n += 1
    return False


written_out: Final = hypot
"""The algorithm itself, whichever build (the tests compare it with ``math.hypot``)."""

if __name__ == "umpire.board.numeric" and isinstance(hypot, types.FunctionType):
    # this module interpreted (not mypyc's, not numba's copy): math's C function is the
    # fast one there, and gives the same floats
    globals()["hypot"] = _math_hypot
