"""Compiled geometry of bases (numba, through :mod:`umpire.jit`): one pair at a time.

The batch simulator's kernels (``rules/quick_acw/batch/kmove.py``, ``kfire.py``) test
bases one pair at a time with these inlined helpers. :func:`corners`, :func:`overlap`,
:func:`distance` and :func:`segment_hits_box` are numba's copies of the scalar engine's
own functions (:mod:`umpire.board.numeric`, one source for both engines, issue 25), so a
kernel and the scalar engine decide alike; the rest are the batch simulator's own fast
forms built on them (``tests/test_seed002_movement_kernels.py`` compares them on random
bases). A base is (x, y, cos, sin, hw, hd), passed as six floats.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from umpire import jit
from umpire.board import numeric

HAIR = 1e-9
"""Within it of a limit the corner-to-box distance defers to the exact one."""

Corners = numeric.Corners
_N = jit.twin(numeric)

corners: Callable[[float, float, float, float, float, float], Corners] = _N.corners
"""x0, y0 .. x3, y3 of a base (``numeric.corners``)."""
overlap: Callable[..., bool] = _N.overlap
"""Separating-axis test: do the interiors overlap by more than ``tol``
(``numeric.overlap``: x, y, c, s, hw, hd, ox, oy, oc, os_, ohw, ohd, tol)?"""
distance: Callable[..., float] = _N.distance
band: Callable[[object, float], int] = _N.band
"""The range band of a distance (``numeric.band``: -1 beyond the last top)."""
crosses: Callable[[float, float, float, float, object], bool] = _N.crosses
"""Does a segment properly cross any of a flat array of lines (``numeric.crosses``)?"""
"""The scalar engine's nearest-point distance of two bases (``numeric.distance``)."""
_segment_hits_box: Callable[..., bool] = _N.segment_hits_box


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
    """The squared distance from a point to a base (:func:`quick_distance`'s term)."""
    dx, dy = px - x, py - y
    f = max(abs(dx * c + dy * s) - hd, 0.0)
    lat = max(abs(-dx * s + dy * c) - hw, 0.0)
    return f * f + lat * lat


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
    """The corner-to-box distance of two bases both ways, 0 overlapping: a bound the
    batch simulator's kernels test first (within :data:`HAIR` of a limit they ask
    :func:`distance`)."""
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
    """``geometry.box_distance(a, b) <= limit``: the corner-to-box form, and the scalar's
    corner-to-edge form within a hair of the limit."""
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
    """Does the segment cross the base (``numeric.segment_hits_box``, shrink 1e-6)?"""
    return _segment_hits_box(x0, y0, x1, y1, bx, by, c, s, hw, hd, 1e-6)
