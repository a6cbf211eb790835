"""Oriented rectangles (unit bases) in inches, with numpy-vectorised tests.

A base is a centre ``(x, y)``, a facing angle ``theta`` (radians, 0 = +x, counter-
clockwise), a half frontage ``hw`` (along the lateral axis) and a half depth ``hd``
(along the facing). The battle engine keeps these as plain floats; the functions here
take one base against arrays of others so a whole row of tests costs one numpy call.
Shapely is used to cross-check these functions in tests, never in the inner loop.
"""

from __future__ import annotations

import math
from typing import Any, Final

import numpy as np
from numpy.typing import NDArray

from umpire.board.fmath import hypot as _hypot

# math's functions that mypyc has no native form of, held in C statics (``Final``): a
# call then skips looking the name up in ``math`` (the same functions, the same floats).
_atan2: Final = math.atan2

F = NDArray[np.float64]
B = NDArray[np.bool_]

EPS = 1e-9


def corners(x: float, y: float, theta: float, hw: float, hd: float) -> list[tuple[float, float]]:
    """The four corners: front-left, front-right, rear-right, rear-left."""
    c, s = math.cos(theta), math.sin(theta)
    fx, fy = c * hd, s * hd  # forward half vector
    lx, ly = -s * hw, c * hw  # left half vector
    return [
        (x + fx + lx, y + fy + ly),
        (x + fx - lx, y + fy - ly),
        (x - fx - lx, y - fy - ly),
        (x - fx + lx, y - fy + ly),
    ]


def corners_array(x: F, y: F, theta: F, hw: F, hd: F) -> F:
    """Corners of many bases, shape (n, 4, 2), same order as :func:`corners`."""
    c, s = np.cos(theta), np.sin(theta)
    fx, fy = c * hd, s * hd
    lx, ly = -s * hw, c * hw
    xs = np.stack([x + fx + lx, x + fx - lx, x - fx - lx, x - fx + lx], axis=-1)
    ys = np.stack([y + fy + ly, y + fy - ly, y - fy - ly, y - fy + ly], axis=-1)
    return np.stack([xs, ys], axis=-1)


def overlaps(
    x: float,
    y: float,
    theta: float,
    hw: float,
    hd: float,
    ox: F,
    oy: F,
    otheta: F,
    ohw: F,
    ohd: F,
    tol: float = 1e-6,
) -> B:
    """Separating-axis test of one base against many: True where the interiors overlap.

    Bases that only touch (distance 0) do not overlap; ``tol`` is the slack in inches.
    """
    c, s = math.cos(theta), math.sin(theta)
    oc, os_ = np.cos(otheta), np.sin(otheta)
    dx, dy = ox - x, oy - y
    sep = np.zeros(ox.shape, dtype=bool)
    # axes of the single base: forward (c, s), lateral (-s, c)
    for ax, ay, r_self in ((c, s, hd), (-s, c, hw)):
        dist = np.abs(dx * ax + dy * ay)
        r_other = ohd * np.abs(oc * ax + os_ * ay) + ohw * np.abs(-os_ * ax + oc * ay)
        sep |= dist >= r_self + r_other - tol
    # axes of the other bases
    for axx, axy, r_o in ((oc, os_, ohd), (-os_, oc, ohw)):
        dist = np.abs(dx * axx + dy * axy)
        r_s = hd * np.abs(c * axx + s * axy) + hw * np.abs(-s * axx + c * axy)
        sep |= dist >= r_o + r_s - tol
    return ~sep


def _point_segment(px: F, py: F, ax: F, ay: F, bx: F, by: F) -> F:
    """Distance from points to segments (broadcasting)."""
    vx, vy = bx - ax, by - ay
    wx, wy = px - ax, py - ay
    ll = vx * vx + vy * vy
    t = np.clip((wx * vx + wy * vy) / np.where(ll > EPS, ll, 1.0), 0.0, 1.0)
    qx, qy = ax + t * vx - px, ay + t * vy - py
    return np.sqrt(qx * qx + qy * qy)


def distances(
    x: float,
    y: float,
    theta: float,
    hw: float,
    hd: float,
    ox: F,
    oy: F,
    otheta: F,
    ohw: F,
    ohd: F,
) -> F:
    """Nearest-point distance from one base to many (0 where they touch or overlap).

    Default ``range_nearest_points``: ranges are measured between the nearest points.
    """
    a = np.array(corners(x, y, theta, hw, hd))  # (4, 2)
    b = corners_array(ox, oy, otheta, ohw, ohd)  # (n, 4, 2)
    a_next = np.roll(a, -1, axis=0)
    b_next = np.roll(b, -1, axis=1)
    # corners of A (4) against edges of each B (n, 4): shape (n, 4, 4)
    d1 = _point_segment(
        a[None, :, None, 0],
        a[None, :, None, 1],
        b[:, None, :, 0],
        b[:, None, :, 1],
        b_next[:, None, :, 0],
        b_next[:, None, :, 1],
    )
    # corners of each B against edges of A
    d2 = _point_segment(
        b[:, :, None, 0],
        b[:, :, None, 1],
        a[None, None, :, 0],
        a[None, None, :, 1],
        a_next[None, None, :, 0],
        a_next[None, None, :, 1],
    )
    d = np.minimum(d1.reshape(len(ox), -1).min(axis=1), d2.reshape(len(ox), -1).min(axis=1))
    ov = overlaps(x, y, theta, hw, hd, ox, oy, otheta, ohw, ohd, tol=0.0)
    return np.where(ov, 0.0, d)


def segments_hit_boxes(
    x0: F, y0: F, x1: F, y1: F, bx: F, by: F, btheta: F, bhw: F, bhd: F, shrink: float = 1e-6
) -> B:
    """Which segments cross which bases: shape (m segments, n bases), slab test in box frames.

    ``shrink`` trims the boxes so a segment that only grazes an edge does not count.
    """
    c, s = np.cos(btheta)[None, :], np.sin(btheta)[None, :]
    ax0, ay0 = x0[:, None] - bx[None, :], y0[:, None] - by[None, :]
    ax1, ay1 = x1[:, None] - bx[None, :], y1[:, None] - by[None, :]
    # local coordinates: f along facing, l lateral
    f0, l0 = ax0 * c + ay0 * s, -ax0 * s + ay0 * c
    f1, l1 = ax1 * c + ay1 * s, -ax1 * s + ay1 * c
    tmin = np.zeros(f0.shape)
    tmax = np.ones(f0.shape)
    ok = np.ones(f0.shape, dtype=bool)
    for p0, p1, half in ((f0, f1, bhd[None, :] - shrink), (l0, l1, bhw[None, :] - shrink)):
        d = p1 - p0
        small = np.abs(d) < EPS
        ok &= ~(small & (np.abs(p0) > half))
        with np.errstate(divide="ignore", invalid="ignore"):
            ta = (-half - p0) / d
            tb = (half - p0) / d
        lo = np.where(small, -np.inf, np.minimum(ta, tb))
        hi = np.where(small, np.inf, np.maximum(ta, tb))
        tmin = np.maximum(tmin, lo)
        tmax = np.minimum(tmax, hi)
    return ok & (tmin <= tmax)


def segment_crosses_segments(x0: float, y0: float, x1: float, y1: float, segs: F) -> bool:
    """True if segment (x0,y0)-(x1,y1) properly crosses any of ``segs`` (shape (k, 4))."""
    if len(segs) == 0:
        return False
    ax, ay, bx, by = segs[:, 0], segs[:, 1], segs[:, 2], segs[:, 3]

    def orient(px: Any, py: Any, qx: Any, qy: Any, rx: Any, ry: Any) -> Any:
        return (qx - px) * (ry - py) - (qy - py) * (rx - px)

    d1 = orient(ax, ay, bx, by, x0, y0)
    d2 = orient(ax, ay, bx, by, x1, y1)
    d3 = orient(x0, y0, x1, y1, ax, ay)
    d4 = orient(x0, y0, x1, y1, bx, by)
    return bool(np.any((d1 * d2 < 0) & (d3 * d4 < 0)))


def local(x: float, y: float, theta: float, px: float, py: float) -> tuple[float, float]:
    """A point in a base's frame: (forward, lateral-left) coordinates."""
    c, s = math.cos(theta), math.sin(theta)
    dx, dy = px - x, py - y
    return dx * c + dy * s, -dx * s + dy * c


SURELY: Final = 1.000000001  # 1 + 1e-9 (a literal: the mypyc build inlines it)
"""The relative margin of :func:`surely_beyond` (far above the rounding of either side)."""


def surely_beyond(dx: float, dy: float, lim: float) -> bool:
    """Is ``hypot(dx, dy) > lim`` for certain? Told from the squares (no call), with a
    margin far above rounding: True settles it, False says nothing (ask ``hypot``)."""
    return dx * dx + dy * dy > lim * lim * SURELY + 1e-12


def angle_to(x: float, y: float, tx: float, ty: float) -> float:
    """The facing angle that points from (x, y) at (tx, ty)."""
    return _atan2(ty - y, tx - x)


def norm_angle(a: float) -> float:
    """An angle folded into (-pi, pi]."""
    a = math.fmod(a + math.pi, 2 * math.pi)
    if a <= 0:
        a += 2 * math.pi
    return a - math.pi


# -- scalar versions for the battle's hot path -------------------------------------------
# One pair at a time in plain floats: numpy's per-call overhead (tens of microseconds)
# dwarfs the arithmetic for a handful of bases. The formulas and the order of the
# operations are those of the vectorised functions above, so both give the same floats.

Box = tuple[float, float, float, float, float, float]
"""A base ready for the scalar tests: (x, y, cos theta, sin theta, hw, hd)."""
Box4 = tuple[float, float, float, float]
"""A segment (x0, y0, x1, y1)."""


def box_of(x: float, y: float, theta: float, hw: float, hd: float) -> Box:
    """The scalar form of a base."""
    return x, y, math.cos(theta), math.sin(theta), hw, hd


def box_corners(b: Box) -> tuple[float, float, float, float, float, float, float, float]:
    """x0, y0 .. x3, y3 in the order of :func:`corners`."""
    x, y, c, s, hw, hd = b
    fx, fy = c * hd, s * hd
    lx, ly = -s * hw, c * hw
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


def box_overlap(a: Box, b: Box, tol: float = 1e-6) -> bool:
    """Separating-axis test of two bases (as :func:`overlaps`)."""
    return overlap_at(a[0], a[1], a[2], a[3], a[4], a[5], b, tol)


def overlap_at(
    x: float, y: float, c: float, s: float, hw: float, hd: float, b: Box, tol: float = 1e-6
) -> bool:
    """:func:`box_overlap` of the base (x, y, c, s, hw, hd) and ``b`` (no tuple made)."""
    ox, oy, oc, os_, ohw, ohd = b
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


def _point_to_edges(px: float, py: float, q: tuple[float, ...], best: float) -> float:
    """min(best, the squared distances from (px, py) to the four edges of ``q``)."""
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


def box_distance(a: Box, b: Box) -> float:
    """Nearest-point distance of two bases, 0 if they overlap (as :func:`distances`).

    The least of the corner-to-edge distances both ways, as the vectorised version
    computes them; the corner of each base nearest the other's centre is tried first, and
    a corner whose distance to the other's centre, less its radius, already exceeds the
    best found (with a margin far above rounding, told from the squares) is skipped: it
    cannot hold the minimum, so the result is the same float (a least value does not
    depend on the order it is found in). sqrt of the least square is the least sqrt (sqrt
    is correctly rounded, hence monotonic).
    """
    if box_overlap(a, b, 0.0):
        return 0.0
    # as tuples of any length, made once: a fixed-length tuple indexed by a variable is
    # made into one (eight boxed floats) at every use in the mypyc build
    pa: tuple[float, ...] = box_corners(a)
    pb: tuple[float, ...] = box_corners(b)
    ax, ay, bx, by = a[0], a[1], b[0], b[1]
    ra, rb = _hypot(a[4], a[5]), _hypot(b[4], b[5])
    na = _nearest_corner(pa, bx, by)
    nb = _nearest_corner(pb, ax, ay)
    best = _point_to_edges(pa[na], pa[na + 1], pb, math.inf)
    best = _point_to_edges(pb[nb], pb[nb + 1], pa, best)
    for n in range(0, 8, 2):
        if n != na:
            px, py = pa[n], pa[n + 1]
            if not surely_beyond(px - bx, py - by, math.sqrt(best) + rb + 1e-9):
                best = _point_to_edges(px, py, pb, best)
        if n != nb:
            px, py = pb[n], pb[n + 1]
            if not surely_beyond(px - ax, py - ay, math.sqrt(best) + ra + 1e-9):
                best = _point_to_edges(px, py, pa, best)
    return math.sqrt(best)


def _nearest_corner(q: tuple[float, ...], x: float, y: float) -> int:
    """The index (0, 2, 4 or 6) of the corner of ``q`` nearest (x, y) (the first on a tie)."""
    best, found = math.inf, 0
    for k in range(0, 8, 2):
        dx, dy = q[k] - x, q[k + 1] - y
        d = dx * dx + dy * dy
        if d < best:
            best, found = d, k
    return found


def segment_hits_box(
    x0: float, y0: float, x1: float, y1: float, b: Box, shrink: float = 1e-6
) -> bool:
    """Does the segment cross the base (slab test, as :func:`segments_hit_boxes`)?"""
    bx, by, c, s, hw, hd = b
    ax0, ay0 = x0 - bx, y0 - by
    ax1, ay1 = x1 - bx, y1 - by
    tmin, tmax = 0.0, 1.0
    # the slab along the base's depth, then along its frontage (a loop over a tuple of
    # the two written out: the mypyc build boxed every float of it)
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


def crosses_any(x0: float, y0: float, x1: float, y1: float, segs: list[Box4]) -> bool:
    """Does segment (x0,y0)-(x1,y1) properly cross any of ``segs`` (as
    :func:`segment_crosses_segments`)?"""
    for ax, ay, bx, by in segs:
        d1 = (bx - ax) * (y0 - ay) - (by - ay) * (x0 - ax)
        d2 = (bx - ax) * (y1 - ay) - (by - ay) * (x1 - ax)
        if d1 * d2 < 0:
            d3 = (x1 - x0) * (ay - y0) - (y1 - y0) * (ax - x0)
            d4 = (x1 - x0) * (by - y0) - (y1 - y0) * (bx - x0)
            if d3 * d4 < 0:
                return True
    return False
