"""``umpire.board.fmath.hypot``: the same float as ``math.hypot``, in either build."""

from __future__ import annotations

import math
import random
import sys

import pytest

from umpire.board import fmath


def pairs(n: int, seed: int) -> list[tuple[float, float]]:
    """Coordinates as battles make them (inches on a table, tiny and equal offsets) and
    across many powers of two."""
    rnd = random.Random(seed)
    out: list[tuple[float, float]] = []
    for i in range(n):
        k = i % 4
        if k == 0:
            out.append((rnd.uniform(-100, 100), rnd.uniform(-100, 100)))
        elif k == 1:
            out.append((rnd.uniform(-2, 2), rnd.uniform(-1e-3, 1e-3)))
        elif k == 2:
            x = rnd.uniform(0, 50)
            out.append((x, x * rnd.choice([0.0, 1.0, -1.0, 0.5, 2.0]) + rnd.uniform(-1e-9, 1e-9)))
        else:
            out.append(
                (
                    rnd.uniform(-1, 1) * 2 ** rnd.uniform(-35, 35),
                    rnd.uniform(-1, 1) * 2 ** rnd.uniform(-35, 35),
                )
            )
    return out


@pytest.mark.skipif(sys.version_info[:2] != (3, 11), reason="CPython 3.11's algorithm")
def test_written_out_is_math_hypot() -> None:
    """The written-out algorithm gives math.hypot's float on 300,000 pairs."""
    h = fmath.written_out
    for x, y in pairs(300_000, 11):
        assert h(x, y) == math.hypot(x, y), (x, y)


SPECIAL = [
    (0.0, 0.0),
    (-0.0, 0.0),
    (3.0, 4.0),
    (-3.0, -4.0),
    (1.0, 1.0),
    (math.inf, 1.0),
    (1.0, -math.inf),
    (1e-320, 1e-320),
    (5e-324, 0.0),
    (1e300, 1e300),
    (2.0**30, 1.0),
    (2.0**-30, 0.0),
    (2.0**-31, 2.0**-31),
]


@pytest.mark.parametrize(("x", "y"), SPECIAL)
def test_edges(x: float, y: float) -> None:
    """Zeros, infinities, subnormals, huge values and the ends of the native range."""
    assert repr(fmath.hypot(x, y)) == repr(math.hypot(x, y))
    assert repr(fmath.written_out(x, y)) == repr(math.hypot(x, y))


def test_nan() -> None:
    """A NaN coordinate gives NaN (an infinite one wins, as math.hypot says)."""
    assert math.isnan(fmath.hypot(math.nan, 1.0))
    assert fmath.hypot(math.nan, math.inf) == math.hypot(math.nan, math.inf)


def test_interpreted_is_math_hypot() -> None:
    """Interpreted, the name is math's C function itself (faster there)."""
    if not fmath.COMPILED:
        assert fmath.hypot is math.hypot
