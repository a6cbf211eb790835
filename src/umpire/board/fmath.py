"""``math.hypot`` for the scalar engine: the same floats, called natively in the mypyc build.

mypyc has no native form of ``math.hypot``: each call boxes both floats, calls the C
function generically and unboxes the answer (about 300 machine instructions; a battle
makes some 11,000 calls, 12% of a compiled five-step battle). The compiled build calls
:func:`umpire.board.numeric.hypot` instead, CPython 3.11's own algorithm written out in
plain double arithmetic (the one source the batch simulator's kernels compile with numba
too): the same float to the last bit (``tests/test_fmath.py`` checks millions of pairs).

Interpreted, the name is ``math.hypot`` itself (the C function is faster there), and on
any Python but 3.11 the compiled one calls ``math.hypot`` too (3.12 changed the
algorithm).
"""

from __future__ import annotations

import types
from typing import Final

from umpire.board.numeric import SAME as SAME
from umpire.board.numeric import hypot as hypot
from umpire.board.numeric import written_out as written_out

COMPILED: Final = not isinstance(written_out, types.FunctionType)
"""Is :mod:`umpire.board.numeric` the mypyc build's (its functions are not Python functions)?"""
