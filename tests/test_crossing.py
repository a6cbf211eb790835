"""``umpire.board.crossing``: where a path crosses a straight wall, shapely's float exactly.

Seed 003 XVI ('Walls and fences', reading ``walls_and_fences``) reads, for each wall a
move or a line of fire crosses, the inches along it to the crossing: what it reads must be
shapely's ``path.project(path.intersection(wall))`` to the last bit (the pinned battles
depend on it), and "no crossing" exactly where shapely's ``intersects`` is False.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterator

import pytest
import shapely

from umpire.board import crossing as C

Case = tuple[float, float, float, float, float, float, float, float]


def shapely_answer(c: Case) -> float | str:
    """What ``ground._walls_on_path`` read from shapely before: MISS, a float, or "raise"."""
    line = shapely.LineString([(c[0], c[1]), (c[2], c[3])])
    wall = shapely.LineString([(c[4], c[5]), (c[6], c[7])])
    if not line.intersects(wall):
        return C.MISS
    try:
        return float(line.project(line.intersection(wall)))
    except shapely.errors.GEOSException:
        return "raise"


def cases(n: int, seed: int) -> Iterator[Case]:
    """Paths and walls as battles make them, and the near-degenerate ones: ends near or on
    the other segment, nearly parallel, quarter-inch grids, far scales."""
    rnd = random.Random(seed)
    u = rnd.uniform
    for i in range(n):
        k = i % 10
        if k == 0:
            a = [u(0, 48) for _ in range(8)]
        elif k == 1:  # the shipped walls' shape: horizontal
            wy = rnd.choice([10.0, 19.0])
            a = [u(0, 36), u(0, 30), u(0, 36), u(0, 30), u(0, 10), wy, u(25, 35), wy]
        elif k == 2:  # a path end within e of the wall's line
            wy, e = u(0, 30), rnd.choice([1e-15, 1e-12, 1e-9, 1e-6, 1e-3])
            a = [u(0, 40), wy + u(-e, e), u(0, 40), u(0, 30), u(0, 20), wy, u(20, 40), wy]
        elif k == 3:  # a path through (near) a wall's end
            ax, ay, bx, by = (u(0, 40) for _ in range(4))
            e = rnd.choice([1e-15, 1e-12, 1e-9, 1e-6])
            px, py = (ax, ay) if rnd.random() < 0.5 else (bx, by)
            tx, ty = px + u(-e, e), py + u(-e, e)
            x0, y0 = u(0, 40), u(0, 40)
            a = [x0, y0, 2 * tx - x0 + u(-e, e), 2 * ty - y0 + u(-e, e), ax, ay, bx, by]
        elif k == 4:  # nearly along the wall
            ax, ay, bx, by = (u(0, 40) for _ in range(4))
            e = rnd.choice([1e-15, 1e-12, 1e-9, 1e-6, 1e-3])
            t0, t1 = u(-0.5, 1.5), u(-0.5, 1.5)
            a = [
                ax + t0 * (bx - ax) + u(-e, e),
                ay + t0 * (by - ay) + u(-e, e),
                ax + t1 * (bx - ax) + u(-e, e),
                ay + t1 * (by - ay) + u(-e, e),
                ax,
                ay,
                bx,
                by,
            ]
        elif k == 5:  # quarter inches: many exact touches and overlaps
            a = [rnd.randint(0, 160) / 4 for _ in range(8)]
        elif k == 6:  # far scales
            s = 2.0 ** rnd.randint(-30, 30)
            a = [u(-1, 1) * s for _ in range(8)]
        elif k == 7:  # a path end exactly on a horizontal (or, swapped, vertical) wall
            w, lo, hi = u(0, 30), u(0, 20), u(20, 40)
            t = rnd.choice([u(lo, hi), lo, hi, float(rnd.randint(0, 40))])
            o = [t, w, u(0, 40), u(0, 30)]
            if rnd.random() < 0.5:
                o = o[2:] + o[:2]
            if rnd.random() < 0.3:
                o[2:] = o[:2]
            a = [*o, lo, w, hi, w]
            if rnd.random() < 0.5:
                a = [a[1], a[0], a[3], a[2], a[5], a[4], a[7], a[6]]
        elif k == 8:  # a wall's end exactly on the path, or the path ending there
            ax, ay, bx, by, x0, y0 = (rnd.randint(0, 80) / 2 for _ in range(6))
            m = rnd.choice([0.5, 1.0, 2.0, 0.25, 3.0])
            a = [x0, y0, x0 + (ax - x0) * m, y0 + (ay - y0) * m, ax, ay, bx, by]
        else:  # a regiment's move or line of fire near the wall at y = 10
            x0, y0, d, th = u(6, 30), 10.0 + u(-8, 8), u(0.1, 12), u(0, 2 * math.pi)
            a = [x0, y0, x0 + d * math.cos(th), y0 + d * math.sin(th), 6.0, 10.0, 30.0, 10.0]
        yield (a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7])


def differ(got: float, want: float | str) -> bool:
    """Not the same float (a zero's sign counts)."""
    return not (
        isinstance(want, float) and want == got and math.copysign(1, want) == math.copysign(1, got)
    )


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_same_float_as_shapely(seed: int) -> None:
    """Seed 003 XVI 'Walls and fences': on 40,000 random and near-degenerate path/wall
    pairs each, every answer that is not ASK is shapely's (MISS exactly where shapely's
    ``intersects`` is False, else the same float), and most pairs get an answer."""
    asked = crossed = 0
    for c in cases(40_000, seed):
        got = C.crossing(*c)
        if got == C.ASK:
            asked += 1
            continue
        crossed += got >= 0.0
        assert not differ(got, shapely_answer(c)), c
    assert asked < 0.1 * 40_000
    assert crossed > 0.2 * 40_000


def test_the_plain_cases() -> None:
    """A crossing, a miss, the path ending on the wall (its length), starting on it (0),
    a wall's end on the path, and what it leaves to shapely (collinear, a point wall)."""
    assert C.crossing(0, 0, 10, 10, 0, 10, 10, 0) == math.sqrt(200) / 2
    assert C.crossing(0, 0, 1, 1, 0, 10, 10, 0) == C.MISS
    assert C.crossing(18.3, 9.6, 18.0, 10.0, 6, 10, 30, 10) == shapely_answer(
        (18.3, 9.6, 18.0, 10.0, 6, 10, 30, 10)
    )
    assert C.crossing(18.0, 10.0, 18.3, 9.6, 6, 10, 30, 10) == 0.0
    assert C.crossing(0, 5, 10, 5, 4, 5, 4, 0) == 4.0
    assert C.crossing(0, 10, 20, 10, 6, 10, 30, 10) == C.ASK
    assert C.crossing(0, 0, 10, 10, 5, 5, 5, 5) == C.ASK


def test_ints_are_floats() -> None:
    """Integer coordinates (a scenario's TOML) give the float shapely makes of them."""
    assert C.crossing(0, 0, 10, 10, 0, 10, 10, 0) == C.crossing(
        0.0, 0.0, 10.0, 10.0, 0.0, 10.0, 10.0, 0.0
    )
    assert isinstance(C.crossing(0, 0, 10, 10, 0, 10, 10, 0), float)
