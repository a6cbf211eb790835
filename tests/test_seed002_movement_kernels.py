"""Seed 002 MOVEMENT (with COMMAND and the charge paragraph) on the batch simulator's
compiled kernels (``umpire.rules.quick_acw.batch.kmove``): under varied rules they play
the scalar engine's battles, and their geometry and terrain walks are the scalar engine's.
"""

from __future__ import annotations

import math
import random

import numpy as np
import pytest

from umpire.battle.scenario import load_scenario
from umpire.board import geometry, kgeom
from umpire.board.kboard import board_of
from umpire.board.kterrain import path_rough
from umpire.rules.quick_acw.batch import kbases as KB
from umpire.rules.quick_acw.batch import kmove as K
from umpire.rules.quick_acw.batch.static import static_for


def paths_agree(name: str, text: str) -> None:
    """A variant (``--vary``) of ``name`` played 30 battles on the batch path and on the
    scalar engine: the same records, and the variant changes them."""
    from tests.test_lab_agreement import numpy_trig_is_libm
    from tests.test_lab_simulate import simulate

    from umpire.lab.arms import parse_vary

    scen = load_scenario(name)
    arm = parse_vary(text, scen, "B")
    batch = simulate(scen, 30, 4, path="batch", arms=(arm,))
    assert batch[1] != batch[0]
    if numpy_trig_is_libm():
        scalar = simulate(scen, 30, 4, path="scalar", arms=(arm,))
        for a, b in zip(batch[1], scalar[1], strict=True):
            assert {**a, "path": ""} == {**b, "path": ""}


def test_kernels_agree_under_a_varied_movement_table() -> None:
    """Seed 002 MOVEMENT varied through the data seam (``--vary``): the kernels read the
    varied numbers as the scalar engine does."""
    text = "quick-acw.movement.foot_line.open=8.0,quick-acw.movement.foot_line.rough=0.75"
    paths_agree("standard", text)


@pytest.mark.parametrize(
    "text",
    [
        "quick-acw.movement_costs.out_of_command=0.75,quick-acw.movement.leader.open=12.0",
        "quick-acw.movement_costs.formation_change=0.25,quick-acw.movement_costs.leader_lost=0.75",
    ],
)
def test_advance_and_command_kernels_agree_under_varied_costs(text: str) -> None:
    """Seed 002 MOVEMENT costs and COMMAND varied: ``kmove.advance_plan`` and
    ``kmove.leaders`` read the varied tables as the scalar engine does."""
    paths_agree("mcpherson_ridge", text)


def test_kernel_constants_are_the_simulators() -> None:
    """The unit types, formations and changes the kernels keep as constants (numba
    freezes them) are ``tables``'s."""
    from umpire.rules.quick_acw.batch import tables as V

    assert (K.FOOT, K.CAV, K.ART) == (V.FOOT, V.CAV, V.ART)
    assert (K.LINE, K.COLUMN) == (V.LINE, V.COLUMN)
    assert (KB.ART, KB.COLUMN) == (V.ART, V.COLUMN)
    assert (K.NO_CHANGE, K.FORMATION, K.MOUNT) == (V.NO_CHANGE, V.FORMATION, V.MOUNT)


def random_box(rng: random.Random) -> tuple[float, ...]:
    th = rng.uniform(-math.pi, math.pi)
    return (
        rng.uniform(0, 6),
        rng.uniform(0, 6),
        math.cos(th),
        math.sin(th),
        rng.uniform(0.2, 2.5),
        rng.uniform(0.2, 1.0),
    )


def test_kernel_geometry_matches_the_scalar_geometry_on_random_bases() -> None:
    """The kernels' overlap, touching, distances (``umpire.board.kgeom``, shared by the
    move and fire kernels), path-crossing and wall-crossing tests answer as the scalar
    engine's (``umpire.board.geometry``)."""
    rng = random.Random(2)
    a = [random_box(rng) for _ in range(3000)]
    b = [random_box(rng) for _ in range(3000)]
    # near misses and exact contacts: some bases put edge to edge
    for k in range(0, 3000, 7):
        x, y, c, s, _, hd = a[k]
        b[k] = (x + c * (hd + b[k][5]), y + s * (hd + b[k][5]), c, s, b[k][4], b[k][5])
    x0, y0 = [rng.uniform(-2, 8) for _ in a], [rng.uniform(-2, 8) for _ in a]
    hits = 0
    for k in range(len(a)):
        d = geometry.box_distance(a[k], b[k])
        assert kgeom.distance(*a[k], *b[k]) == d
        assert abs(kgeom.quick_distance(kgeom.Box(*a[k]), kgeom.Box(*b[k])) - d) < 1e-12
        ov = geometry.box_overlap(a[k], b[k])
        assert kgeom.overlap(*a[k], *b[k], 1e-6) == ov
        assert kgeom.distance_le(kgeom.Box(*a[k]), kgeom.Box(*b[k]), 0.1) == (d <= 0.1)
        seg = geometry.segment_hits_box(x0[k], y0[k], a[k][0], a[k][1], b[k])
        assert kgeom.segment_hits_box(x0[k], y0[k], a[k][0], a[k][1], *b[k], 1e-6) == seg
        hits += ov + 2 * seg
    assert 0 < hits < 3 * len(a)
    segs = [tuple(rng.uniform(0, 8) for _ in range(4)) for _ in range(5)]
    x1 = [box[0] + 3 * box[2] for box in a]
    y1 = [box[1] + 3 * box[3] for box in a]
    pts = list(zip(x0, y0, x1, y1, strict=True))
    got = [kgeom.crosses(*p, np.array(segs).ravel()) for p in pts]
    assert got == [geometry.crosses_any(*p, segs) for p in pts] and any(got)


def test_kernel_path_rough_matches_the_board() -> None:
    """``kterrain.path_rough`` walks as ``Board.path_rough``."""
    st = static_for(load_scenario("mcpherson_ridge"))
    T = st.terrain
    rng = np.random.default_rng(5)
    x0 = rng.uniform(-1, T.width + 1, 4000)
    y0 = rng.uniform(-1, T.height + 1, 4000)
    ang = rng.uniform(-math.pi, math.pi, 4000)
    ln = rng.uniform(0, 20, 4000)
    x1, y1 = x0 + np.cos(ang) * ln, y0 + np.sin(ang) * ln
    bd = board_of(T)
    got = np.array([path_rough(*p, bd) for p in zip(x0, y0, x1, y1, strict=True)])
    board = T.board
    for k in range(0, 4000, 4):
        assert got[k] == board.path_rough(x0[k], y0[k], x1[k], y1[k])
    assert got.any() and not got.all()
