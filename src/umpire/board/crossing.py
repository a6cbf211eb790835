"""Where a straight path crosses a straight wall, to shapely's (GEOS 3.14's) last bit.

Seed 003's walls and fences (``rules.action_reaction.ground.walls_on_path``) read one
number per wall a path meets: ``path.project(path.intersection(wall))``, the inches along
the path to the crossing. shapely spends some 20 microseconds a wall on it (two geometries
made, an overlay, a projection); this module works out the same float from the same
arithmetic GEOS does, so the compiled engine pays a fraction of a microsecond:

- ``Orientation::index`` (``CGAlgorithmsDD::orientationIndex``: Ozaki's filter, then
  double-double arithmetic) says on which side of each segment the other's ends lie;
- a proper crossing (every end strictly on one side) is ``LineIntersector``'s point,
  ``CGAlgorithmsDD::intersection`` in double-double arithmetic (``geos::math::DD``);
- the projection is ``LengthIndexOfPoint``'s: the ``LineSegment::projectionFactor`` of the
  point times the path's length.

Only the plain case is written out: a path and a wall of two distinct points each that
cross properly, or miss. Anything else (an end on the other segment, collinear overlap,
a point outside both segments' boxes after rounding, a division by zero) answers
:data:`ASK`, and the caller asks shapely itself, so every answer is shapely's.
``tests/test_crossing.py`` holds it equal to shapely on random and near-degenerate pairs.

Numbers in, numbers out (no objects), so mypyc compiles it to plain double arithmetic.
"""

from __future__ import annotations

import math
from typing import Final

MISS: Final = -1.0
"""The path and the wall do not meet (shapely: ``intersects`` is False)."""
ASK: Final = -2.0
"""Not the plain case: ask shapely."""

_SPLIT: Final = 134217729.0  # 2 ** 27 + 1, DD::SPLIT
_OZAKI: Final = 3.3306690621773724e-16  # orientationIndexFilter's error coefficient


def _orientation(p1x: float, p1y: float, p2x: float, p2y: float, qx: float, qy: float) -> int:
    """``CGAlgorithmsDD::orientationIndex``: 1 if q is left of p1->p2, -1 right, 0 on it."""
    detleft = (p1x - qx) * (p2y - qy)
    detright = (p1y - qy) * (p2x - qx)
    det = detleft - detright
    err = abs(detleft + detright) * _OZAKI
    if abs(det) >= err:
        return 1 if det > 0.0 else (-1 if det < 0.0 else 0)
    # double-double: (p2 - p1) x (q - p2), each difference exact in two doubles
    ah, al = _dd_add(p2x, 0.0, -p1x, 0.0)
    bh, bl = _dd_add(p2y, 0.0, -p1y, 0.0)
    ch, cl = _dd_add(qx, 0.0, -p2x, 0.0)
    dh, dl = _dd_add(qy, 0.0, -p2y, 0.0)
    mh, ml = _dd_mul(ah, al, dh, dl)
    nh, nl = _dd_mul(bh, bl, ch, cl)
    h, lo = _dd_add(mh, ml, -nh, -nl)
    if h < 0.0 or (h == 0.0 and lo < 0.0):
        return -1
    if h > 0.0 or (h == 0.0 and lo > 0.0):
        return 1
    return 0


def _dd_add(xh: float, xl: float, yh: float, yl: float) -> tuple[float, float]:
    """``DD::selfAdd(yhi, ylo)``: (xh, xl) + (yh, yl) in double-double."""
    s_ = xh + yh
    t_ = xl + yl
    e = s_ - xh
    f = t_ - xl
    s = s_ - e
    t = t_ - f
    s = (yh - e) + (xh - s)
    t = (yl - f) + (xl - t)
    e = s + t_
    h_ = s_ + e
    h = e + (s_ - h_)
    e = t + h
    zh = h_ + e
    return zh, e + (h_ - zh)


def _dd_mul(xh: float, xl: float, yh: float, yl: float) -> tuple[float, float]:
    """``DD::selfMultiply(yhi, ylo)``: (xh, xl) * (yh, yl) in double-double."""
    c_ = _SPLIT * xh
    hx = c_ - xh
    c = _SPLIT * yh
    hx = c_ - hx
    tx = xh - hx
    hy = c - yh
    c_ = xh * yh
    hy = c - hy
    ty = yh - hy
    c = ((((hx * hy - c_) + hx * ty) + tx * hy) + tx * ty) + (xh * yl + xl * yh)
    zh = c_ + c
    hx = c_ - zh
    return zh, c + hx


def _dd_div(xh: float, xl: float, yh: float, yl: float) -> float:
    """``(x / y).ToDouble()`` in double-double (``DD::selfDivide``, then hi + lo);
    ``yh`` is not zero."""
    c_ = xh / yh
    c = _SPLIT * c_
    hc = c - c_
    u = _SPLIT * yh
    hc = c - hc
    tc = c_ - hc
    hy = u - yh
    u_ = c_ * yh
    hy = u - hy
    ty = yh - hy
    u = (((hc * hy - u_) + hc * ty) + tc * hy) + tc * ty
    c = ((((xh - u_) - u) + xl) - c_ * yl) / yh
    u = c_ + c
    return u + ((c_ - u) + c)


def crossing(
    x0: float, y0: float, x1: float, y1: float, ax: float, ay: float, bx: float, by: float
) -> float:
    """How far along the path (x0, y0)-(x1, y1) it crosses the wall (ax, ay)-(bx, by):
    shapely's ``path.project(path.intersection(wall))`` where ``path.intersects(wall)``;
    :data:`MISS` where the two do not meet; :data:`ASK` where the answer is not the plain
    case (ask shapely). Integers count as the floats shapely makes of them."""
    x0, y0, x1, y1 = float(x0), float(y0), float(x1), float(y1)
    ax, ay, bx, by = float(ax), float(ay), float(bx), float(by)
    if ax == bx and ay == by:
        return ASK  # a point, not a wall
    # Envelope::intersects(p1, p2, q1, q2)
    if min(x0, x1) > max(ax, bx) or max(x0, x1) < min(ax, bx):
        return MISS
    if min(y0, y1) > max(ay, by) or max(y0, y1) < min(ay, by):
        return MISS
    if x0 == x1 and y0 == y1:  # a path of no length: a point off the wall's line misses
        return MISS if _orientation(ax, ay, bx, by, x0, y0) != 0 else ASK
    # LineIntersector::computeIntersect: p is the path, q the wall
    pq1 = _orientation(x0, y0, x1, y1, ax, ay)
    pq2 = _orientation(x0, y0, x1, y1, bx, by)
    if (pq1 > 0 and pq2 > 0) or (pq1 < 0 and pq2 < 0):
        return MISS
    qp1 = _orientation(ax, ay, bx, by, x0, y0)
    qp2 = _orientation(ax, ay, bx, by, x1, y1)
    if (qp1 > 0 and qp2 > 0) or (qp1 < 0 and qp2 < 0):
        return MISS
    if pq1 == 0 or pq2 == 0 or qp1 == 0 or qp2 == 0:
        # GEOS takes the end that lies on the other segment (the path's own ends project
        # to 0 and to its length); two or more ends on lines, or collinear: ask shapely
        if pq1 != 0 and pq2 != 0:
            if qp1 == 0 and qp2 != 0:
                return 0.0
            if qp2 == 0 and qp1 != 0:
                return _along(x0, y0, x1, y1, x1, y1)
        elif qp1 != 0 and qp2 != 0:
            if pq1 == 0 and pq2 != 0:
                return _along(x0, y0, x1, y1, ax, ay)
            if pq2 == 0 and pq1 != 0:
                return _along(x0, y0, x1, y1, bx, by)
        return ASK
    # CGAlgorithmsDD::intersection, in DD arithmetic throughout
    pxh, pxl = _dd_add(y0, 0.0, -y1, 0.0)
    pyh, pyl = _dd_add(x1, 0.0, -x0, 0.0)
    mh, ml = _dd_mul(x0, 0.0, y1, 0.0)
    nh, nl = _dd_mul(x1, 0.0, y0, 0.0)
    pwh, pwl = _dd_add(mh, ml, -nh, -nl)
    qxh, qxl = _dd_add(ay, 0.0, -by, 0.0)
    qyh, qyl = _dd_add(bx, 0.0, -ax, 0.0)
    mh, ml = _dd_mul(ax, 0.0, by, 0.0)
    nh, nl = _dd_mul(bx, 0.0, ay, 0.0)
    qwh, qwl = _dd_add(mh, ml, -nh, -nl)
    mh, ml = _dd_mul(pyh, pyl, qwh, qwl)
    nh, nl = _dd_mul(qyh, qyl, pwh, pwl)
    xh, xl = _dd_add(mh, ml, -nh, -nl)
    mh, ml = _dd_mul(qxh, qxl, pwh, pwl)
    nh, nl = _dd_mul(pxh, pxl, qwh, qwl)
    yh, yl = _dd_add(mh, ml, -nh, -nl)
    mh, ml = _dd_mul(pxh, pxl, qyh, qyl)
    nh, nl = _dd_mul(qxh, qxl, pyh, pyl)
    wh, wl = _dd_add(mh, ml, -nh, -nl)
    if wh == 0.0:
        return ASK  # parallel after all: GEOS falls back to the nearest end
    ix = _dd_div(xh, xl, wh, wl)
    iy = _dd_div(yh, yl, wh, wl)
    if not (math.isfinite(ix) and math.isfinite(iy)):
        return ASK
    # LineIntersector::isInSegmentEnvelopes, else GEOS takes the nearest end
    if not (min(x0, x1) <= ix <= max(x0, x1) and min(y0, y1) <= iy <= max(y0, y1)):
        return ASK
    if not (min(ax, bx) <= ix <= max(ax, bx) and min(ay, by) <= iy <= max(ay, by)):
        return ASK
    return _along(x0, y0, x1, y1, ix, iy)


def _along(x0: float, y0: float, x1: float, y1: float, ix: float, iy: float) -> float:
    """``LengthIndexOfPoint::indexOf``: how far along the path (x0, y0)-(x1, y1), of two
    distinct points, (ix, iy) projects (clamped to its ends)."""
    if ix == x0 and iy == y0:
        return 0.0
    dx = x0 - x1
    dy = y0 - y1
    length = math.sqrt(dx * dx + dy * dy)
    if ix == x1 and iy == y1:
        return length
    ex = x1 - x0
    ey = y1 - y0
    r = ((ix - x0) * ex + (iy - y0) * ey) / (ex * ex + ey * ey)
    if r <= 0.0:
        return 0.0
    if r <= 1.0:
        return r * length
    return length
