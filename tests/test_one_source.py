"""One source for both engines (issue 25): the board's hot rules are written once, in
``umpire.board.numeric``; the scalar engine runs that module and the batch simulator's
kernels run numba's copy of it (``umpire.jit.twin``), so both decide alike."""

from __future__ import annotations

import math
import random
import types
from pathlib import Path

import pytest

from umpire import jit
from umpire.board import fmath, geometry, kgeom, numeric

SOURCE = str(Path(str(numeric.__file__)).with_name("numeric.py"))
"""The one source (beside the mypyc build's ``.so`` in the compiled build)."""


def test_twin_is_numbas_copy_of_the_same_file() -> None:
    """The kernels' functions are compiled from ``numeric.py`` itself, once per process."""
    twin = jit.twin(numeric)
    assert jit.twin(numeric) is twin
    if not jit.ENABLED:
        assert twin is numeric
        return
    assert twin is not numeric
    assert twin.distance.py_func.__code__.co_filename == SOURCE
    assert kgeom.distance is twin.distance and kgeom.overlap is twin.overlap
    assert jit.hypot is twin.hypot


@pytest.mark.skipif(not jit.ENABLED, reason="numba is off")
def test_twin_reads_the_source_beside_a_compiled_module(monkeypatch: pytest.MonkeyPatch) -> None:
    """In the mypyc build ``import`` finds ``numeric.cpython-311-...so``: the copy is made
    from the ``numeric.py`` beside it (build_mypyc.py compiles in place)."""
    monkeypatch.setattr(jit, "_TWINS", {})
    fake = types.ModuleType("umpire.board.numeric")
    fake.__file__ = str(Path(SOURCE).with_name("numeric.cpython-311-x86_64-linux-gnu.so"))
    twin = jit.twin(fake)
    assert twin.walk.py_func.__code__.co_filename == SOURCE


SPECIAL = [
    (0.0, 0.0),
    (-0.0, 0.0),
    (3.0, 4.0),
    (-3.0, -4.0),
    (math.inf, 1.0),
    (1.0, -math.inf),
    (math.nan, math.inf),
    (1e-320, 1e-320),
    (1e-300, 3e-300),
    (1e300, 1e300),
    (2.0**30, 1.0),
    (2.0**-30, 0.0),
    (2.0**-31, 2.0**-31),
]


@pytest.mark.skipif(not fmath.SAME, reason="CPython 3.11's algorithm")
@pytest.mark.parametrize(("x", "y"), SPECIAL)
def test_one_hypot_for_both_engines(x: float, y: float) -> None:
    """seed 002 MOVEMENT distances (``math.hypot``): the kernels' hypot and the compiled
    scalar engine's are one function, math.hypot's float at the edges too."""
    want = repr(math.hypot(x, y))
    assert repr(jit.hypot(x, y)) == want
    assert repr(numeric.written_out(x, y)) == want


def _bases(n: int) -> list[tuple[geometry.Box, geometry.Box]]:
    """Random pairs of bases within 20", some touching along an edge."""
    rnd = random.Random(25)
    out = []
    for _ in range(n):
        t, u = rnd.uniform(-math.pi, math.pi), rnd.uniform(-math.pi, math.pi)
        if rnd.random() < 0.2:
            u = t + rnd.choice([0.0, math.pi / 2, math.pi])
        a = geometry.box_of(rnd.uniform(0, 48), rnd.uniform(0, 48), t, 1.5, 0.5)
        r, w = rnd.uniform(0, 20), rnd.uniform(-math.pi, math.pi)
        b = geometry.box_of(a[0] + r * math.cos(w), a[1] + r * math.sin(w), u, 2.0, 0.75)
        out.append((a, b))
    return out


def test_kernels_measure_as_the_scalar_engine() -> None:
    """Reading ``range_nearest_points`` (seed 002 FIRE ranges: between the nearest points)
    and seed 002 MOVEMENT's interpenetration: the kernels' distance, overlap, corners and
    line-crosses-base tests give the scalar engine's floats and answers."""
    pairs = _bases(2000)
    hits = 0
    for a, b in pairs:
        assert kgeom.distance(*a, *b) == geometry.box_distance(a, b)
        assert kgeom.overlap(*a, *b, 1e-6) == geometry.box_overlap(a, b)
        assert kgeom.corners(*a) == geometry.box_corners(a)
        got = kgeom.segment_hits_box(a[0], a[1], b[0] + 3.0, b[1] - 1.0, *b)
        assert got == geometry.segment_hits_box(a[0], a[1], b[0] + 3.0, b[1] - 1.0, b)
        hits += got
    assert 0 < hits < len(pairs)
    assert any(geometry.box_distance(a, b) == 0.0 for a, b in pairs)
