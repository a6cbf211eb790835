"""One source for both engines (issue 25): the board's hot rules are written once, in
``umpire.board.numeric``; the scalar engine runs that module and the batch simulator's
kernels run numba's copy of it (``umpire.jit.twin``), so both decide alike."""

from __future__ import annotations

import math
import random
import types
from pathlib import Path

import numpy as np
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
        got = kgeom.segment_hits_box(a[0], a[1], b[0] + 3.0, b[1] - 1.0, *b, 1e-6)
        assert got == geometry.segment_hits_box(a[0], a[1], b[0] + 3.0, b[1] - 1.0, b)
        hits += got
    assert 0 < hits < len(pairs)
    assert any(geometry.box_distance(a, b) == 0.0 for a, b in pairs)


@pytest.mark.skipif(not jit.ENABLED, reason="numba is off")
def test_seed002_rules_written_once_for_both_engines() -> None:
    """Seed 002 MOVEMENT (the table's rows, rough, "1/2 move" out of command, LEADERS'
    half rate, the formation and mount costs), FIRE (the row, "Mounted cavalry can't
    fire", the two-stand margin, the range band) and the removal at "less than 1/2":
    ``rules/quick_acw/numeric.py`` is the one source; the scalar rules call it and the
    kernels call numba's copy, which gives the same numbers."""
    from umpire.rules.quick_acw import numeric as QN
    from umpire.rules.quick_acw import rules as R

    twin = jit.twin(QN)
    assert twin is not QN
    source = str(Path(str(QN.__file__)).with_name("numeric.py"))
    assert twin.move_inches.py_func.__code__.co_filename == source
    r = R.rules()
    two = (False, True)
    for ut, typ in enumerate(R.TYPES):
        for col, mt, lim, chg in ((c, m, li, g) for c in two for m in two for li in two
                                  for g in range(3)):  # fmt: skip
            row = QN.move_row(ut, col, mt, lim, chg)
            assert twin.move_row(ut, col, mt, lim, chg) == row
            form = "column" if col else "line"
            change = (None, "formation", "mount")[chg]
            assert R.move_key(typ, form, mt, lim, change) == QN.MOVE_ROWS[row]
            rate = r.movement[QN.MOVE_ROWS[row]]
            for rough, cmd, lost in ((a, b, c) for a in two for b in two for c in two):
                args = (rate.open, rate.rough, rough, cmd, lost, chg, r.move_costs)
                want = R.move_inches(QN.MOVE_ROWS[row], rough, cmd, lost, change)
                assert QN.move_inches(*args) == twin.move_inches(*args) == want
        for mt, lim in ((m, li) for m in two for li in two):
            fc = R.fire_class(typ, mt, lim)
            assert twin.fire_row(ut, mt, lim) == (-1 if fc is None else QN.FIRE_ROWS.index(fc))
    for roll in range(2, 13):
        for mod in range(-3, 4):
            for need in range(2, 12):
                lost = R.fire_stands_lost(roll, need, mod)
                assert twin.stands_lost(roll, need, mod, r.two_stand_margin) == lost
    for stands0 in range(1, 9):
        for stands in range(stands0 + 1):
            assert twin.is_removed(stands, stands0, r.removal_fraction) == R.is_removed(
                stands, stands0
            )
    rng = random.Random(25)
    tops = tuple(r.fire_bands)
    near = [t + e for t in tops for e in (-1e-9, 0.0, 1e-9, 2e-9)]
    for d in [rng.uniform(0, 35) for _ in range(500)] + near:
        band = R.range_band(d)
        assert kgeom.band(tops, d) == numeric.band(tops, d) == (-1 if band is None else band)


@pytest.mark.skipif(not jit.ENABLED, reason="numba is off")
def test_walls_tables_and_bases_written_once() -> None:
    """Seed 002 MELEE "defending a wall or stream" and FIRE cover behind a wall (a line
    crossing a wall; ``wall_across``, default ``cover_terrain``), the table edge and the
    size of a base (default ``stand_sizes``): ``numeric.crosses``, ``on_table`` and
    ``base_half`` serve both engines."""
    from umpire.battle.state import base_size

    rng = random.Random(7)
    segs = [tuple(rng.uniform(0, 10) for _ in range(4)) for _ in range(6)]
    flat = [v for s in segs for v in s]
    seen = 0
    for _ in range(500):
        p = tuple(rng.uniform(0, 10) for _ in range(4))
        got = kgeom.crosses(*p, np.array(flat))
        assert got == numeric.crosses(*p, flat) == geometry.crosses_any(*p, segs)
        seen += got
        across = numeric.wall_across(*p, 2.0, flat)
        assert kgeom.wall_across(*p, 2.0, np.array(flat)) == across
        th = rng.uniform(-math.pi, math.pi)
        box = (rng.uniform(-1, 11), rng.uniform(-1, 11), math.cos(th), math.sin(th), 1.0, 0.5)
        assert kgeom.on_table(*box, 10.0, 10.0) == numeric.on_table(*box, 10.0, 10.0)
    assert 0 < seen < 500
    bases = {"foot": (1.0, 0.5), "cavalry": (1.0, 1.0), "artillery": (1.0, 1.0)}
    twin = jit.twin(numeric)
    for ut, (w, d) in bases.items():
        for form in ("line", "column"):
            for stands in range(0, 9):
                deep = ut != "artillery" and form == "column"
                want = base_size(ut, form, stands, bases)
                assert twin.base_half(w, d, stands, deep) == want
