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

from umpire.board.numeric import EPS as EPS  # re-exported: the scalar engine's names
from umpire.board.numeric import SURELY as SURELY
from umpire.board.numeric import corners as _corners
from umpire.board.numeric import crosses as _crosses
from umpire.board.numeric import distance as _distance
from umpire.board.numeric import overlap as _overlap
from umpire.board.numeric import segment_hits_box as _segment_hits_box
from umpire.board.numeric import surely_beyond as surely_beyond

# math's functions that mypyc has no native form of, held in C statics (``Final``): a
# call then skips looking the name up in ``math`` (the same functions, the same floats).
_atan2: Final = math.atan2

F = NDArray[np.float64]
B = NDArray[np.bool_]


def corners(x: float, y: float, theta: float, hw: float, hd: float) -> list[tuple[float, float]]:
    """The four corners: front-left, front-right, rear-right, rear-left."""
    q = _corners(x, y, math.cos(theta), math.sin(theta), hw, hd)
    return [(q[0], q[1]), (q[2], q[3]), (q[4], q[5]), (q[6], q[7])]


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
# dwarfs the arithmetic for a handful of bases. Thin wrappers over
# :mod:`umpire.board.numeric`, the one source the batch simulator's kernels compile too;
# its formulas and order of operations are those of the vectorised functions above, so
# both give the same floats.

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
    return _corners(x, y, c, s, hw, hd)


def box_overlap(a: Box, b: Box, tol: float = 1e-6) -> bool:
    """Separating-axis test of two bases (as :func:`overlaps`)."""
    x, y, c, s, hw, hd = a
    ox, oy, oc, os_, ohw, ohd = b
    return _overlap(x, y, c, s, hw, hd, ox, oy, oc, os_, ohw, ohd, tol)


def overlap_at(
    x: float, y: float, c: float, s: float, hw: float, hd: float, b: Box, tol: float = 1e-6
) -> bool:
    """:func:`box_overlap` of the base (x, y, c, s, hw, hd) and ``b`` (no tuple made)."""
    ox, oy, oc, os_, ohw, ohd = b
    return _overlap(x, y, c, s, hw, hd, ox, oy, oc, os_, ohw, ohd, tol)


def box_distance(a: Box, b: Box) -> float:
    """Nearest-point distance of two bases, 0 if they overlap (as :func:`distances`;
    :func:`umpire.board.numeric.distance`)."""
    x, y, c, s, hw, hd = a
    ox, oy, oc, os_, ohw, ohd = b
    return _distance(x, y, c, s, hw, hd, ox, oy, oc, os_, ohw, ohd)


def segment_hits_box(
    x0: float, y0: float, x1: float, y1: float, b: Box, shrink: float = 1e-6
) -> bool:
    """Does the segment cross the base (slab test, as :func:`segments_hit_boxes`)?"""
    bx, by, c, s, hw, hd = b
    return _segment_hits_box(x0, y0, x1, y1, bx, by, c, s, hw, hd, shrink)


def crosses_any(x0: float, y0: float, x1: float, y1: float, segs: list[Box4]) -> bool:
    """Does segment (x0,y0)-(x1,y1) properly cross any of ``segs`` (as
    :func:`segment_crosses_segments`; :func:`umpire.board.numeric.crosses`)?"""
    return _crosses(x0, y0, x1, y1, [v for seg in segs for v in seg])
