"""The fire step's compiled kernels (``kfire``, ``ksight``): their short cuts answer as the
long way on random states, their sight lines as the scalar board (seed 002 FIRE).

Skipped where numba is missing or switched off (``UMPIRE_JIT=0``): the batch simulator
is not played then (the lab plays the scalar engine).
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from umpire import jit
from umpire.battle.scenario import load_scenario
from umpire.board import ksight
from umpire.board.kboard import board_of
from umpire.dice.bulk import Dice
from umpire.rules.quick_acw.batch import kfire as KF
from umpire.rules.quick_acw.batch import tables as V
from umpire.rules.quick_acw.batch.sim import Sim
from umpire.rules.quick_acw.batch.static import static_for

pytestmark = pytest.mark.skipif(not jit.ENABLED, reason="numba missing or UMPIRE_JIT=0")


def scatter(sim: Sim, rng: np.random.Generator, spread: float) -> None:
    """Random bases: units within ``spread`` inches of a point per battle (so many are in
    range, in contact or across each other's fire), random facings, formations, stands,
    markers, mounts and losses."""
    n, u = sim.n, sim.U
    T = sim.T
    cx = rng.uniform(0, T.width, (n, 1))
    cy = rng.uniform(0, T.height, (n, 1))
    sim.x[:] = cx + rng.uniform(-spread, spread, (n, u))
    sim.y[:] = cy + rng.uniform(-spread, spread, (n, u))
    sim.th[:] = rng.uniform(-math.pi, math.pi, (n, u))
    sim.c[:], sim.s[:] = np.cos(sim.th), np.sin(sim.th)
    sim.x32[:], sim.y32[:] = sim.x, sim.y
    sim.form[:] = rng.integers(0, 2, (n, u))
    sim.mounted[:] = rng.random((n, u)) < 0.5
    sim.limbered[:] = rng.random((n, u)) < 0.3
    sim.marker[:] = rng.random((n, u)) < 0.3
    sim.stands[:] = rng.integers(1, sim.S.stands0 + 1, (n, u))
    sim.alive[:] = rng.random((n, u)) < 0.9
    sim._resize(np.repeat(np.arange(n), u), np.tile(np.arange(u), n))
    sim.geo = None


@pytest.mark.parametrize("name", ["standard", "mcpherson_ridge"])
def test_candidate_targets_measured_again_as_afresh_002_fire(name: str) -> None:
    """002 FIRE: every firer's candidate targets (arc, range band, cover, walls, modifiers)
    are the same from the kept pair geometry as made afresh, and the shots measured again
    at a target whose base shrank (``kfire.reband``) are those made afresh, on random
    states (the fire step's two short cuts)."""
    st = static_for(load_scenario(name))
    rng = np.random.default_rng(11)
    for spread in (3.0, 8.0, 20.0):
        sim = Sim(st, 400, Dice.seeded(1))
        scatter(sim, rng, spread)
        rows = np.arange(sim.n)
        for f in (0, 1):
            fs = st.span[f]
            fc = V.fire_rows(st.utype[st.by_side[f]], sim.mounted[:, fs], sim.limbered[:, fs])
            actor = sim.alive[:, fs] & (fc >= 0)
            sim.geo = None
            d2, adj = sim._pair_geometry()
            if f == 1:
                d2, adj = d2.transpose(0, 2, 1), adj.transpose(0, 2, 1)
            known = sim.fire_matrix(rows, f, fc, actor, (d2, adj))
            fresh = sim.fire_matrix(rows, f, fc, actor)
            for a, b in zip(known, fresh, strict=True):
                assert a.dtype == b.dtype and np.array_equal(a, b)
            need, mod = known[0].copy(), known[1].copy()
            assert (need > 0).any()
            # a target per battle that loses a stand, and the firers measured again
            tcol = rng.integers(0, len(st.by_side[1 - f]), sim.n)
            after = int(rng.integers(0, len(st.by_side[f])))
            tu = st.by_side[1 - f][tcol]
            sim.stands[rows, tu] -= 1
            sim._resize(rows, tu)
            v = KF.Volley(st.by_side[f], st.by_side[1 - f], fc, actor)
            sh = KF.Shots(need, mod, known[2].copy())
            KF.reband(sim.bases(), sim.units(), rows, tcol, after, v, sh, sim.sc)
            again = sim.fire_matrix(rows, f, fc, actor)
            free = ~known[3][rows, :, tcol].any(1)  # a target in contact: all made afresh
            want_n, want_m = again[0][rows, after:, tcol], again[1][rows, after:, tcol]
            assert np.array_equal(need[rows, after:, tcol][free], want_n[free])
            assert np.array_equal(mod[rows, after:, tcol][free], want_m[free])


def test_sight_lines_as_the_board_002_fire() -> None:
    """002 FIRE line of sight (``los_centre_to_centre``): the compiled walk answers as the
    scalar board, on random lines and on lines along cell edges."""
    for name in ("standard", "mcpherson_ridge"):
        T = static_for(load_scenario(name)).terrain
        rng = np.random.default_rng(5)
        m = 20000
        x0, x1 = rng.uniform(-1, T.width + 1, m), rng.uniform(-1, T.width + 1, m)
        y0, y1 = rng.uniform(-1, T.height + 1, m), rng.uniform(-1, T.height + 1, m)
        # lines whose length is a whole number of half cells, or runs along a cell edge
        q = rng.integers(0, 6, m) == 0
        x0[q] = np.round(x0[q] / T.cell) * T.cell
        y1[q] = y0[q] + np.round(rng.uniform(1, 60, q.sum())) * T.cell / 2
        x1[q] = x0[q]
        bd = board_of(T)
        got = np.array([ksight.sight_clear(*p, bd) for p in zip(x0, y0, x1, y1, strict=True)])
        assert 0.2 < got.mean() < 1.0  # both answers occur
        for k in range(0, m, 5):
            assert got[k] == T.board.sight_clear(
                float(x0[k]), float(y0[k]), float(x1[k]), float(y1[k])
            )
