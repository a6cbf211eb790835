"""Geometry of two bases for the kernels (a base: six floats x, y, cos, sin, hw, hd):
numba's copy of :mod:`umpire.board.numeric` (one source) and fast bounds built on it."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import NamedTuple

from umpire import jit
from umpire.board import numeric

HAIR = 1e-9  # within it of a limit the corner-to-box distance defers to the exact one

Corners = numeric.Corners
_N = jit.twin(numeric)

corners: Callable[[float, float, float, float, float, float], Corners] = _N.corners
overlap: Callable[..., bool] = _N.overlap
distance: Callable[..., float] = _N.distance
on_table: Callable[..., bool] = _N.on_table
band: Callable[[object, float], int] = _N.band
wall_across: Callable[..., bool] = _N.wall_across
crosses: Callable[[float, float, float, float, object], bool] = _N.crosses
segment_hits_box: Callable[..., bool] = _N.segment_hits_box
point_box_sq: Callable[..., float] = _N.point_box_sq
range_bounds: Callable[..., tuple[float, float]] = _N.range_bounds
"""The functions of the same names in ``numeric`` (see there)."""


class Box(NamedTuple):
    """One base: centre, facing's cos and sin, half frontage and depth."""

    x: float
    y: float
    c: float
    s: float
    hw: float
    hd: float


@jit.inline
def quick_distance(a: Box, b: Box) -> float:
    """The corner-to-box distance of two bases both ways (0 overlapping): the fast bound,
    exact but within :data:`HAIR` of a limit (there :func:`distance` decides)."""
    x, y, c, s, hw, hd = a
    ox, oy, oc, os_, ohw, ohd = b
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
def distance_le(a: Box, b: Box, limit: float) -> bool:
    """``geometry.box_distance(a, b) <= limit``: the corner-to-box form, and the scalar's
    corner-to-edge form within a hair of the limit."""
    dq = quick_distance(a, b)
    if abs(dq - limit) >= HAIR:
        return dq <= limit
    return box_distance(a, b) <= limit


@jit.inline
def box_distance(a: Box, b: Box) -> float:
    """:func:`distance` of two bases (the scalar's corner-to-edge form)."""
    return distance(a.x, a.y, a.c, a.s, a.hw, a.hd, b.x, b.y, b.c, b.s, b.hw, b.hd)
