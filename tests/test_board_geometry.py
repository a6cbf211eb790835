"""Board geometry against shapely: distances, overlaps, segment hits, terrain LOS."""

from __future__ import annotations

import math
import random
from typing import Any

import numpy as np
import shapely
from hypothesis import given, settings
from hypothesis import strategies as st

from umpire.board import Board, Feature, corners, distances, overlaps, segments_hit_boxes
from umpire.board.geometry import (
    box_distance,
    box_of,
    box_overlap,
    crosses_any,
    segment_crosses_segments,
    segment_hits_box,
)
from umpire.board.terrain import clear_distance

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


# -- the scalar hot path gives the very floats of the vectorised functions ---------------


@settings(max_examples=300, deadline=None)
@given(box, box, st.sampled_from([None, 0.0, 0.01, 1.0]))
def test_scalar_box_functions_equal_vectorised(
    a: tuple[float, ...], b: tuple[float, ...], gap: float | None
) -> None:
    """box_distance / box_overlap are bit-identical to distances / overlaps (also touching)."""
    if gap is not None:  # put b right against a's front edge, facing it
        x, y, th, _, hd = a
        d = hd + b[4] + gap
        b = (x + math.cos(th) * d, y + math.sin(th) * d, th + math.pi, b[3], b[4])
    arr = [np.array([v]) for v in b]
    assert box_distance(box_of(*a), box_of(*b)) == float(distances(*a, *arr)[0])
    assert box_distance(box_of(*b), box_of(*a)) == float(distances(*a, *arr)[0])
    assert box_overlap(box_of(*a), box_of(*b)) == bool(overlaps(*a, *arr)[0])


@settings(max_examples=200, deadline=None)
@given(box, st.lists(st.floats(-2, 22), min_size=4, max_size=4))
def test_scalar_segment_tests_equal_vectorised(b: tuple[float, ...], seg: list[float]) -> None:
    """segment_hits_box and crosses_any agree with their numpy forms."""
    x0, y0, x1, y1 = seg
    hit = segments_hit_boxes(*[np.array([v]) for v in seg], *[np.array([v]) for v in b])
    assert segment_hits_box(x0, y0, x1, y1, box_of(*b)) == bool(hit[0, 0])
    corners_b = corners(*b)
    edges = [(*p, *q) for p, q in zip(corners_b, corners_b[1:] + corners_b[:1], strict=True)]
    assert crosses_any(x0, y0, x1, y1, edges) == segment_crosses_segments(
        x0, y0, x1, y1, np.array(edges)
    )


def _reference_samples(b: Board, seg: tuple[float, float, float, float]) -> tuple[Any, ...]:
    """The plain numpy sampling of a line (every half cell, both ends, clamped cells)."""
    x0, y0, x1, y1 = seg
    length = float(np.hypot(x1 - x0, y1 - y0))
    k = max(2, int(length / (b.cell / 2)) + 2)
    t = np.linspace(0.0, 1.0, k)
    i = np.clip(((x0 + (x1 - x0) * t) / b.cell).astype(np.intp), 0, b.nx - 1)
    j = np.clip(((y0 + (y1 - y0) * t) / b.cell).astype(np.intp), 0, b.ny - 1)
    return i, j, length / (k - 1)


def test_terrain_walks_equal_plain_sampling() -> None:
    """path_rough and sight_clear (box pre-filter, skipping walk) equal plain sampling."""
    from umpire.battle.scenario import load_scenario

    rng = random.Random(7)
    for name in ("standard", "mcpherson_ridge"):
        s = load_scenario(name)
        b = Board(
            s.table.width,
            s.table.height,
            [Feature(t.kind, tuple(t.points), t.name, t.level) for t in s.terrain],
        )
        for _ in range(3000):
            x0, y0 = rng.uniform(-1, b.width + 1), rng.uniform(-1, b.height + 1)
            length, angle = rng.choice([0.3, 3, 6, 12, 30, 60]), rng.uniform(0, 2 * math.pi)
            seg = (x0, y0, x0 + length * math.cos(angle), y0 + length * math.sin(angle))
            i, j, step = _reference_samples(b, seg)
            assert b.path_rough(*seg) == bool(b.rough[i, j].any()), seg
            lev = b.level[i, j]
            clear = (
                b.block[i, j].sum() * step <= b.see_woods + 1e-9
                and not (lev > max(lev[0], lev[-1])).any()
            )
            assert b.sight_clear(*seg) == bool(clear), seg


def test_clear_distance_is_chebyshev() -> None:
    """The skip field: Chebyshev distance in cells to the mask, capped."""
    mask = np.zeros((9, 7), dtype=bool)
    mask[2, 3] = True
    field = clear_distance(mask, cap=4)
    for i in range(9):
        for j in range(7):
            assert field[i, j] == min(max(abs(i - 2), abs(j - 3)), 4)
    assert (clear_distance(np.zeros((3, 3), dtype=bool), cap=5) == 5).all()
