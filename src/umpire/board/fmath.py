"""``math.hypot`` for the mypyc build: the same floats, called natively.

mypyc has no native form of ``math.hypot``: each call boxes both floats, calls the C
function generically and unboxes the answer (about 300 machine instructions; a battle
makes some 11,000 calls, 12% of a compiled five-step battle). :func:`hypot` is CPython
3.11's own algorithm for two coordinates (``vector_norm`` in ``Modules/mathmodule.c``:
lossless scaling by a power of two, Dekker's split, compensated sums and a correction of
the square root), written out so that mypyc compiles it to plain double arithmetic: the
same float to the last bit (``tests/test_fmath.py`` checks millions of pairs).

Interpreted, the module gives ``math.hypot`` itself under the same name (the C function
is faster there), and on any Python but 3.11 the compiled one calls ``math.hypot`` too
(3.12 changed the algorithm).
"""

from __future__ import annotations

import math
import sys
import types
from typing import Final

_math_hypot: Final = math.hypot
SAME: Final = sys.version_info[:2] == (3, 11)
"""Is :func:`hypot`'s algorithm the one this Python's ``math.hypot`` uses?"""

_T27: Final = 134217729.0  # 2 ** 27 + 1, Veltkamp's constant for Dekker's split
_LOW: Final = 1.0 / 1024.0 / 1024.0 / 1024.0  # 2 ** -30: below it, math.hypot itself
_HIGH: Final = 1024.0 * 1024.0 * 1024.0  # 2 ** 30: above it, math.hypot itself


def hypot(x: float, y: float) -> float:
    """The length of (x, y): ``math.hypot(x, y)``, the same float."""
    ax = -x if x < 0.0 else x
    ay = -y if y < 0.0 else y
    mx = ax if ax > ay else ay
    if not SAME or not (_LOW <= mx <= _HIGH):  # zero, tiny, huge, inf, nan: math's own
        return _math_hypot(x, y)
    # frexp: mx = m * 2 ** e with 0.5 <= m < 1; scale = 2 ** -e (exact: powers of two)
    m = mx
    scale = 1.0
    while m >= 1.0:
        m *= 0.5
        scale *= 0.5
    while m < 0.5:
        m *= 2.0
        scale *= 2.0
    csum = 1.0
    frac1 = 0.0
    frac2 = 0.0
    frac3 = 0.0
    # the first coordinate
    v = ax * scale
    t = v * _T27
    hi = t - (t - v)
    lo = v - hi
    v = hi * hi
    old = csum
    csum += v
    frac1 += (old - csum) + v
    v = 2.0 * hi * lo
    old = csum
    csum += v
    frac2 += (old - csum) + v
    frac3 += lo * lo
    # the second
    v = ay * scale
    t = v * _T27
    hi = t - (t - v)
    lo = v - hi
    v = hi * hi
    old = csum
    csum += v
    frac1 += (old - csum) + v
    v = 2.0 * hi * lo
    old = csum
    csum += v
    frac2 += (old - csum) + v
    frac3 += lo * lo
    h = math.sqrt(csum - 1.0 + (frac1 + frac2 + frac3))
    # the correction
    v = h
    t = v * _T27
    hi = t - (t - v)
    lo = v - hi
    v = -hi * hi
    old = csum
    csum += v
    frac1 += (old - csum) + v
    v = -2.0 * hi * lo
    old = csum
    csum += v
    frac2 += (old - csum) + v
    v = -lo * lo
    old = csum
    csum += v
    frac3 += (old - csum) + v
    v = csum - 1.0 + (frac1 + frac2 + frac3)
    return (h + v / (2.0 * h)) / scale


written_out: Final = hypot
"""The algorithm itself, whichever build (the tests compare it with ``math.hypot``)."""

COMPILED: Final = not isinstance(hypot, types.FunctionType)
"""Is this module the mypyc build's (its functions are not Python functions)?"""

if not COMPILED:  # interpreted: math's C function is the fast one (the same floats)
    globals()["hypot"] = _math_hypot
