"""Board geometry against shapely: distances, overlaps, segment hits, terrain LOS."""

from __future__ import annotations

import numpy as np
import shapely
from hypothesis import given, settings
from hypothesis import strategies as st

from umpire.board import Board, Feature, corners, distances, overlaps, segments_hit_boxes

box = st.tuples(
    st.floats(0, 20), st.floats(0, 20), st.floats(-3.2, 3.2), st.floats(0.2, 3), st.floats(0.2, 3)
)


@settings(max_examples=150, deadline=None)
@given(box, box)
def test_distance_and_overlap_match_shapely(a: tuple[float, ...], b: tuple[float, ...]) -> None:
    """Nearest-point distance and overlap agree with shapely polygons."""
    pa, pb = shapely.Polygon(corners(*a)), shapely.Polygon(corners(*b))
    arr = [np.array([v]) for v in b]
    d = distances(*a, *arr)[0]
    assert abs(d - pa.distance(pb)) < 1e-6
    inter = pa.intersection(pb).area
    ov = bool(overlaps(*a, *arr)[0])
    if inter > 1e-4:
        assert ov
    if not ov:
        assert inter < 1e-4


@settings(max_examples=150, deadline=None)
@given(box, st.floats(0, 20), st.floats(0, 20), st.floats(0, 20), st.floats(0, 20))
def test_segment_hits_box(b: tuple[float, ...], x0: float, y0: float, x1: float, y1: float) -> None:
    """The slab test agrees with shapely for segments that clearly cross or miss."""
    poly = shapely.Polygon(corners(*b))
    line = shapely.LineString([(x0, y0), (x1, y1)])
    hit = segments_hit_boxes(
        np.array([x0]),
        np.array([y0]),
        np.array([x1]),
        np.array([y1]),
        *[np.array([v]) for v in b],
        shrink=0.0,
    )[0, 0]
    if line.intersection(poly).length > 1e-3:
        assert hit
    if line.distance(poly) > 1e-6:
        assert not hit


def test_terrain_lookups() -> None:
    """Woods are rough, cover and block sight beyond 2"; hills block when higher than both."""
    b = Board(
        48,
        36,
        [
            Feature("woods", ((10, 10), (20, 10), (20, 20), (10, 20))),
            Feature("hill", ((30, 0), (40, 0), (40, 10), (30, 10)), level=1),
            Feature("stream", ((0, 30), (48, 30))),
        ],
    )
    assert b.is_rough(15, 15) and b.in_cover(15, 15) and not b.is_rough(5, 5)
    assert b.is_rough(5, 30.2) and b.height_at(35, 5) == 1
    los = b.terrain_los(
        np.array([5.0, 5, 25, 35]),
        np.array([15.0, 15, 5, 5]),
        np.array([11.0, 21, 45, 45]),
        np.array([15.0, 15, 5, 5]),
    )
    assert list(los) == [True, False, False, True]
    assert b.crosses_obstacle(5, 29, 5, 31) and not b.crosses_wall(5, 29, 5, 31)
