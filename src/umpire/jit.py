"""Just-in-time compiled kernels (numba) for the batch simulator's hot loops.

The batch simulator answers every battle at once with numpy; where a step is a loop
with early exits (a unit trying its destinations, a firer looking for a target he can
see), numpy pays for every element of every mask, and a compiled loop pays only for
the work done. :func:`kernel` compiles such a loop with numba when it can be imported
(``ENABLED``); otherwise, or with ``UMPIRE_JIT=0`` in the environment, the caller keeps
its numpy form, which plays the same battles (``tests/test_lab_agreement.py`` runs
both). numba's own ``math.hypot`` may differ from Python's in the last bit, so kernels
use :func:`hypot`, a transcription of CPython 3.11's ``math.hypot`` for two numbers (as
``umpire.board.fmath.hypot`` is for the mypyc build: one algorithm, written once for each
compiler, since neither can compile the other's function; both tested bit for bit).
"""

from __future__ import annotations

import math
import os
import sys
from collections.abc import Callable
from typing import Any, TypeVar

Fn = TypeVar("Fn", bound=Callable[..., Any])


def _numba() -> Any:
    """The numba module, or None when it is missing or switched off (``UMPIRE_JIT=0``), or
    on a Python whose ``math.hypot`` is not 3.11's (:func:`hypot` is that algorithm)."""
    if os.environ.get("UMPIRE_JIT", "1") == "0" or sys.version_info[:2] != (3, 11):
        return None
    try:
        import numba
    except ImportError:  # an optional speed-up: the numpy forms play the same battles
        return None
    return numba


_NB = _numba()
ENABLED: bool = _NB is not None
"""Are kernels compiled (numba importable and not switched off)?"""


def kernel(fn: Fn) -> Fn:
    """Compile ``fn`` in nopython mode, cached beside its source, when ``ENABLED``;
    else return it as it is (callers use their numpy form instead of calling it)."""
    if _NB is None:
        return fn
    out: Fn = _NB.njit(cache=True, nogil=True)(fn)
    return out


def inline(fn: Fn) -> Fn:
    """:func:`kernel` for small helpers that are inlined into the kernels calling them."""
    if _NB is None:
        return fn
    out: Fn = _NB.njit(cache=True, inline="always")(fn)
    return out


SPLIT = 134217729.0  # 2**27 + 1: Veltkamp's splitting constant for doubles


@inline
def two_prod(a: float, b: float) -> tuple[float, float]:
    """The product of ``a`` and ``b`` and its rounding error, exactly (Dekker)."""
    z = a * b
    c = SPLIT * a
    ah = c - (c - a)
    al = a - ah
    c = SPLIT * b
    bh = c - (c - b)
    bl = b - bh
    return z, ((ah * bh - z) + ah * bl + al * bh) + al * bl


@inline
def hypot(x: float, y: float) -> float:
    """``math.hypot(x, y)`` bit for bit (CPython 3.11's ``vector_norm`` for two numbers:
    scaled, error-free squares and sums, one differential correction); for the table's
    coordinates (numbers too small to be normal are not scaled as CPython does)."""
    x, y = abs(x), abs(y)
    mx = max(x, y)
    if math.isinf(mx):
        return mx
    if math.isnan(x) or math.isnan(y):
        return math.nan
    if mx == 0.0:
        return mx
    scale = math.ldexp(1.0, -math.frexp(mx)[1])
    csum, frac1, frac2 = 1.0, 0.0, 0.0
    for v in (x * scale, y * scale):
        hi, lo = two_prod(v, v)
        s = csum + hi
        frac2 += (csum - s) + hi
        csum = s
        frac1 += lo
    h = math.sqrt(csum - 1.0 + (frac1 + frac2))
    hi, lo = two_prod(-h, h)
    s = csum + hi
    frac2 += (csum - s) + hi
    csum = s
    frac1 += lo
    h += (csum - 1.0 + (frac1 + frac2)) / (2.0 * h)
    return h / scale
