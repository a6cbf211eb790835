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
on_table: Callable[..., bool] = _N.on_table
"""Are a base's four corners on the table (``numeric.on_table``)?"""
band: Callable[[object, float], int] = _N.band
"""The range band of a distance (``numeric.band``: -1 beyond the last top)."""
wall_across: Callable[..., bool] = _N.wall_across
"""Does a wall cross the line from a target toward its firer (``numeric.wall_across``)?"""
crosses: Callable[[float, float, float, float, object], bool] = _N.crosses
"""Does a segment properly cross any of a flat array of lines (``numeric.crosses``)?"""
"""The scalar engine's nearest-point distance of two bases (``numeric.distance``)."""
segment_hits_box: Callable[..., bool] = _N.segment_hits_box
"""Does a segment cross a base, shrunk by the last argument (``numeric.segment_hits_box``)?"""


point_box_sq: Callable[..., float] = _N.point_box_sq
"""The squared distance from a point to a base (``numeric.point_box_sq``)."""
range_bounds: Callable[..., tuple[float, float]] = _N.range_bounds
"""Bounds on the range of two bases (``numeric.range_bounds``)."""


@jit.inline
def quick_distance(
    x: float, y: float, c: float, s: float, hw: float, hd: float,
    ox: float, oy: float, oc: float, os_: float, ohw: float, ohd: float,
) -> float:  # fmt: skip
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
    x: float, y: float, c: float, s: float, hw: float, hd: float,
    ox: float, oy: float, oc: float, os_: float, ohw: float, ohd: float, limit: float,
) -> bool:  # fmt: skip
    """``geometry.box_distance(a, b) <= limit``: the corner-to-box form, and the scalar's
    corner-to-edge form within a hair of the limit."""
    dq = quick_distance(x, y, c, s, hw, hd, ox, oy, oc, os_, ohw, ohd)
    if abs(dq - limit) >= HAIR:
        return dq <= limit
    return distance(x, y, c, s, hw, hd, ox, oy, oc, os_, ohw, ohd) <= limit
