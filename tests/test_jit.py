"""The kernels' exact hypot (``umpire.jit.hypot``) against Python's ``math.hypot``.

The batch simulator's kernels place units with it, so it must give the scalar engine's
floats bit for bit (seed 002 MOVEMENT distances are measured with ``math.hypot``).
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from umpire import jit


@jit.kernel
def _many(x: np.ndarray, y: np.ndarray, out: np.ndarray) -> None:
    for i in range(x.shape[0]):
        out[i] = jit.hypot(x[i], y[i])


@pytest.mark.parametrize("scale", [1e-3, 1.0, 48.0, 1e4])
def test_hypot_matches_math_on_random_pairs(scale: float) -> None:
    rng = np.random.default_rng(11)
    n = 200_000 if jit.ENABLED else 2_000
    x, y = rng.normal(size=n) * scale, rng.normal(size=n) * scale
    x[:50], y[50:100] = 0.0, 0.0  # one side zero
    y[100:150] = x[100:150]  # equal sides
    out = np.empty(n)
    _many(x, y, out)
    ref = np.fromiter(map(math.hypot, x.tolist(), y.tolist()), float, n)
    assert np.array_equal(out, ref)


@given(
    st.floats(-1e6, 1e6, allow_nan=False, allow_subnormal=False),
    st.floats(-1e6, 1e6, allow_nan=False, allow_subnormal=False),
)
def test_hypot_matches_math(x: float, y: float) -> None:
    out = np.empty(1)
    _many(np.array([x]), np.array([y]), out)
    assert out[0] == math.hypot(x, y)


def test_switched_off_by_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("UMPIRE_JIT", "0")
    assert jit._numba() is None
