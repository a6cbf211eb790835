"""Seed 002 MOVEMENT (with COMMAND and the charge paragraph) on the batch simulator's
compiled kernels (``umpire.rules.quick_acw.batch.kmove``): they play the very battles
of the numpy forms they stand in for.

Where numba is missing the kernels run as plain Python, so the comparison holds (and is
tested) either way; ``umpire.jit.ENABLED`` is the simulator's switch.
"""

from __future__ import annotations

import math
import random

import numpy as np
import pytest

from umpire import jit
from umpire.battle.scenario import load_scenario
from umpire.board import kgeom
from umpire.board import vgeom as G
from umpire.board.kterrain import paths_rough
from umpire.lab import run_batch
from umpire.rules.quick_acw.batch import kmove as K
from umpire.rules.quick_acw.batch.static import static_for

FIELDS = ("winner", "turns", "losses", "removed", "leaders_lost", "faces")


def both(monkeypatch: pytest.MonkeyPatch, name: str, n: int, seed: int) -> tuple[object, object]:
    """The same batch with the kernels and with the numpy forms."""
    scen = load_scenario(name)
    monkeypatch.setattr(jit, "ENABLED", True)
    on = run_batch(scen, n, seed)
    monkeypatch.setattr(jit, "ENABLED", False)
    off = run_batch(scen, n, seed)
    return on, off


@pytest.mark.parametrize(("name", "seed"), [("standard", 3), ("mcpherson_ridge", 11)])
def test_kernels_play_the_numpy_forms_battles(
    monkeypatch: pytest.MonkeyPatch, name: str, seed: int
) -> None:
    """Every outcome array, and every face drawn, the same with the kernels on and off."""
    on, off = both(monkeypatch, name, 300, seed)
    for field in FIELDS:
        assert np.array_equal(getattr(on, field), getattr(off, field)), field
    assert on.dice == off.dice  # type: ignore[attr-defined]


def test_kernels_agree_under_a_varied_movement_table(monkeypatch: pytest.MonkeyPatch) -> None:
    """Seed 002 MOVEMENT varied through the data seam (``--vary``): the kernels read the
    varied numbers as the numpy forms do, and the battles change with them."""
    from umpire.lab.arms import SHIPPED, parse_vary
    from umpire.lab.runner import plan, run, tasks

    scen = load_scenario("standard")
    text = "quick-acw.movement.foot_line.open=8.0,quick-acw.movement.foot_line.rough=0.75"
    arm = parse_vary(text, scen, "B")
    got = {}
    for on in (True, False):
        monkeypatch.setattr(jit, "ENABLED", on)
        p = plan(scen, [SHIPPED, arm], "batch")
        recs: list[list[dict[str, object]]] = [[{}] * 40 for _ in p.arms]

        def keep(a: int, start: int, rs: list[dict[str, object]], recs: list = recs) -> None:  # type: ignore[type-arg]
            recs[a][start : start + len(rs)] = rs

        run(tasks(p, 40, 4, 1), keep, workers=1)
        got[on] = recs
    assert got[True] == got[False]
    assert got[True][1] != got[True][0]


@pytest.mark.parametrize(
    "text",
    [
        "quick-acw.movement_costs.out_of_command=0.75,quick-acw.movement.leader.open=12.0",
        "quick-acw.movement_costs.formation_change=0.25,quick-acw.movement.leader.rough=0.25",
    ],
)
def test_advance_and_command_kernels_agree_under_varied_costs(
    monkeypatch: pytest.MonkeyPatch, text: str
) -> None:
    """Seed 002 MOVEMENT costs and COMMAND varied: ``kmove.advance_plan`` and
    ``kmove.leaders`` read the varied tables as ``Sim.advance`` and ``command_step`` do."""
    from umpire.lab.arms import SHIPPED, parse_vary
    from umpire.lab.runner import plan, run, tasks

    scen = load_scenario("mcpherson_ridge")
    arm = parse_vary(text, scen, "B")
    got = {}
    for on in (True, False):
        monkeypatch.setattr(jit, "ENABLED", on)
        p = plan(scen, [SHIPPED, arm], "batch")
        recs: list[list[dict[str, object]]] = [[{}] * 40 for _ in p.arms]

        def keep(a: int, start: int, rs: list[dict[str, object]], recs: list = recs) -> None:  # type: ignore[type-arg]
            recs[a][start : start + len(rs)] = rs

        run(tasks(p, 40, 4, 1), keep, workers=1)
        got[on] = recs
    assert got[True] == got[False]
    assert got[True][1] != got[True][0]


def test_kernel_constants_are_the_simulators() -> None:
    """The unit types, formations, changes and the AI's numbers ``kmove`` keeps as
    constants (numba freezes them) are ``vrules``'s and ``sim``'s."""
    from umpire.rules.quick_acw.batch import sim
    from umpire.rules.quick_acw.batch import vrules as V

    assert (K.FOOT, K.CAV, K.ART) == (V.FOOT, V.CAV, V.ART)
    assert (K.LINE, K.COLUMN) == (V.LINE, V.COLUMN)
    assert (K.NO_CHANGE, K.FORMATION, K.MOUNT) == (V.NO_CHANGE, V.FORMATION, V.MOUNT)
    assert (K.FORM_LINE_WITHIN, K.MOUNT_BEYOND) == (sim.FORM_LINE_WITHIN, sim.MOUNT_BEYOND)
    assert (K.STOP_FOOT, K.STOP_MOUNTED) == (sim.STOP_FOOT, sim.STOP_MOUNTED)
    assert tuple(sim.BEARINGS.tolist()) == K.BEARINGS


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


def test_kernel_geometry_matches_vgeom_on_random_bases() -> None:
    """The kernels' overlap, touching, distances (``umpire.board.kgeom``, shared by the
    move and fire kernels), path-crossing and wall-crossing tests answer as ``vgeom``'s."""
    rng = random.Random(2)
    a = [random_box(rng) for _ in range(3000)]
    b = [random_box(rng) for _ in range(3000)]
    # near misses and exact contacts: some bases put edge to edge
    for k in range(0, 3000, 7):
        x, y, c, s, _, hd = a[k]
        b[k] = (x + c * (hd + b[k][5]), y + s * (hd + b[k][5]), c, s, b[k][4], b[k][5])
    va = tuple(np.array(v) for v in zip(*a, strict=True))
    vb = tuple(np.array(v) for v in zip(*b, strict=True))
    want_ov = G.overlap(va, vb)  # type: ignore[arg-type]
    want_le = G.distance_le(va, vb, 0.1)  # type: ignore[arg-type]
    x0, y0 = np.array([rng.uniform(-2, 8) for _ in a]), np.array([rng.uniform(-2, 8) for _ in a])
    want_seg = G.segment_hits_box(x0, y0, va[0], va[1], vb)  # type: ignore[arg-type]
    want_qd = G.quick_distance(va, vb)  # type: ignore[arg-type]
    want_d = G.distance(va, vb)  # type: ignore[arg-type]
    for k in range(len(a)):
        assert kgeom.quick_distance(*a[k], *b[k]) == want_qd[k]
        assert kgeom.distance(*a[k], *b[k]) == want_d[k]
        assert kgeom.overlap(*a[k], *b[k], 1e-6) == want_ov[k]
        assert kgeom.distance_le(*a[k], *b[k], 0.1) == want_le[k]
        assert kgeom.segment_hits_box(x0[k], y0[k], a[k][0], a[k][1], *b[k]) == want_seg[k]
    assert want_ov.any() and not want_ov.all() and want_seg.any()
    segs = np.array([[rng.uniform(0, 8) for _ in range(4)] for _ in range(5)])
    x1, y1 = va[0] + 3 * va[2], va[1] + 3 * va[3]
    got = K.crossings(x0, y0, x1, y1, segs)
    assert got.tolist() == G.crosses_any(x0, y0, x1, y1, segs).tolist() and got.any()


def test_kernel_path_rough_matches_the_board() -> None:
    """``kterrain.path_rough`` walks as ``Board.path_rough`` and ``Terrain.path_rough``."""
    st = static_for(load_scenario("mcpherson_ridge"))
    T = st.terrain
    rng = np.random.default_rng(5)
    x0 = rng.uniform(-1, T.width + 1, 4000)
    y0 = rng.uniform(-1, T.height + 1, 4000)
    ang = rng.uniform(-math.pi, math.pi, 4000)
    ln = rng.uniform(0, 20, 4000)
    x1, y1 = x0 + np.cos(ang) * ln, y0 + np.sin(ang) * ln
    got = paths_rough(x0, y0, x1, y1, T.cell, T.nx, T.ny, T.fields[0], T.rough_boxes)
    assert got.tolist() == T.path_rough(x0, y0, x1, y1).tolist()
    board = T.board
    for k in range(0, 4000, 10):
        assert got[k] == board.path_rough(x0[k], y0[k], x1[k], y1[k])
    assert got.any() and not got.all()
