"""Compiled geometry of bases (numba, through :mod:`umpire.jit`): one pair at a time.

The batch simulator's kernels (``rules/quick_acw/batch/kmove.py``, ``kfire.py``) test
bases one pair at a time with these inlined helpers. Each repeats its numpy twin in
:mod:`umpire.board.vgeom` (and so the scalar ``umpire.board.geometry``) in the same order
of operations, so a kernel and the numpy form decide alike
(``tests/test_seed002_movement_kernels.py`` compares them on random bases).
A base is (x, y, cos, sin, hw, hd), passed as six floats.
"""

from __future__ import annotations

import math

from umpire import jit
from umpire.board.geometry import EPS

HAIR = 1e-9  # decisions within a hair of a threshold are taken again exactly

Corners = tuple[float, float, float, float, float, float, float, float]


@jit.inline
def corners(x: float, y: float, c: float, s: float, hw: float, hd: float) -> Corners:
    """x0, y0 .. x3, y3 of a base (``vgeom.corners``)."""
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


@jit.inline
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
    """Separating-axis test (``vgeom.overlap``): do the interiors overlap?"""
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


@jit.inline
def on_table(
    x: float, y: float, c: float, s: float, hw: float, hd: float, width: float, height: float
) -> bool:
    """Are the base's four corners on the table (``Sim.on_table``)?"""
    cs = corners(x, y, c, s, hw, hd)
    return (
        0 <= cs[0] <= width
        and 0 <= cs[1] <= height
        and 0 <= cs[2] <= width
        and 0 <= cs[3] <= height
        and 0 <= cs[4] <= width
        and 0 <= cs[5] <= height
        and 0 <= cs[6] <= width
        and 0 <= cs[7] <= height
    )


@jit.inline
def point_box_sq(
    px: float, py: float, x: float, y: float, c: float, s: float, hw: float, hd: float
) -> float:
    """The squared distance from a point to a base (``vgeom.point_box`` before its root,
    ``vgeom.quick_distance``'s term)."""
    dx, dy = px - x, py - y
    f = max(abs(dx * c + dy * s) - hd, 0.0)
    lat = max(abs(-dx * s + dy * c) - hw, 0.0)
    return f * f + lat * lat


@jit.inline
def edges_sq(p: Corners, q: Corners) -> float:
    """The least squared distance from the corners ``p`` to the edges of the base with
    corners ``q`` (``vgeom._edges_sq``)."""
    best = math.inf
    for k in range(0, 8, 2):
        ax, ay = q[k], q[k + 1]
        m = (k + 2) & 7
        vx, vy = q[m] - ax, q[m + 1] - ay
        ll = vx * vx + vy * vy
        den = ll if ll > EPS else 1.0
        for i in range(0, 8, 2):
            px, py = p[i], p[i + 1]
            t = ((px - ax) * vx + (py - ay) * vy) / den
            t = min(max(t, 0.0), 1.0)
            qx, qy = ax + t * vx - px, ay + t * vy - py
            best = min(best, qx * qx + qy * qy)
    return best


@jit.inline
def quick_distance(
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
    """``vgeom.quick_distance`` of one pair (corner to box both ways, 0 overlapping)."""
    if overlap(x, y, c, s, hw, hd, ox, oy, oc, os_, ohw, ohd, 0.0):
        return 0.0
    pa = corners(x, y, c, s, hw, hd)
    pb = corners(ox, oy, oc, os_, ohw, ohd)
    best = math.inf
    for k in range(0, 8, 2):
        best = min(best, point_box_sq(pa[k], pa[k + 1], ox, oy, oc, os_, ohw, ohd))
        best = min(best, point_box_sq(pb[k], pb[k + 1], x, y, c, s, hw, hd))
    return math.sqrt(best)


@jit.inline
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
    """``vgeom.distance`` of one pair (the scalar engine's nearest-point distance)."""
    if overlap(x, y, c, s, hw, hd, ox, oy, oc, os_, ohw, ohd, 0.0):
        return 0.0
    pa = corners(x, y, c, s, hw, hd)
    pb = corners(ox, oy, oc, os_, ohw, ohd)
    return math.sqrt(min(edges_sq(pa, pb), edges_sq(pb, pa)))


@jit.inline
def distance_le(
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
    limit: float,
) -> bool:
    """``geometry.box_distance(a, b) <= limit`` as ``vgeom.distance_le``: the corner-to-box
    form, and the scalar's corner-to-edge form within a hair of the limit."""
    dq = quick_distance(x, y, c, s, hw, hd, ox, oy, oc, os_, ohw, ohd)
    if abs(dq - limit) >= HAIR:
        return dq <= limit
    return distance(x, y, c, s, hw, hd, ox, oy, oc, os_, ohw, ohd) <= limit


@jit.inline
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
) -> bool:
    """Does the segment cross the base (slab test, ``vgeom.segment_hits_box``, shrink 1e-6)?"""
    ax0, ay0 = x0 - bx, y0 - by
    ax1, ay1 = x1 - bx, y1 - by
    tmin, tmax = 0.0, 1.0
    for axis in range(2):
        if axis == 0:
            p0, p1, half = ax0 * c + ay0 * s, ax1 * c + ay1 * s, hd - 1e-6
        else:
            p0, p1, half = -ax0 * s + ay0 * c, -ax1 * s + ay1 * c, hw - 1e-6
        d = p1 - p0
        if abs(d) < EPS:
            if abs(p0) > half:
                return False
            continue
        ta = (-half - p0) / d
        tb = (half - p0) / d
        lo, hi = min(ta, tb), max(ta, tb)
        if not lo <= tmin:  # as numpy's where(lo <= tmin, tmin, lo)
            tmin = lo
        if not hi >= tmax:
            tmax = hi
    return tmin <= tmax
