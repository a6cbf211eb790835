"""Compiled sight lines (numba, through :mod:`umpire.jit`): ``Board.sight_clear`` for one line.

The numpy form, :meth:`umpire.board.vgeom.Terrain.sight_clear`, walks every line of a
batch at once in windows of samples; a compiled loop walks one line as the scalar
``Board._walk`` does (the same skip field, samples and ``math.hypot`` length, bit for
bit through :func:`umpire.jit.hypot`) and stops at the first blocking sample, so both
answer the same. Callers pass the :class:`~umpire.board.vgeom.Terrain` arrays (see
:func:`sight_args`).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from umpire import jit
from umpire.board.kboard import Terrain

I = NDArray[np.int64]  # noqa: E741


def sight_args(T: Terrain) -> tuple[Any, ...]:
    """The terrain numbers :func:`sight_clear` reads, in its order (after the line)."""
    return (
        T.cell,
        T.nx,
        T.ny,
        T.level,
        T.block,
        T.fields,
        T.block_boxes,
        T.hill_boxes,
        T.max_level,
        T.see_woods + 1e-9,
    )


@jit.inline
def _clamp(v: int, hi: int) -> int:
    """``v`` within 0..hi."""
    return 0 if v < 0 else (hi if v > hi else v)


@jit.inline
def sight_clear(
    x0: float,
    y0: float,
    x1: float,
    y1: float,
    cell: float,
    nx: int,
    ny: int,
    level: I,
    block: NDArray[np.bool_],
    fields: I,
    block_boxes: I,
    hill_boxes: I,
    max_level: int,
    limit: float,
) -> bool:
    """Does terrain leave the line clear (``Board.sight_clear``: more than ``see_woods``
    inches of woods or town, or a hill above both ends, block it)? ``limit`` is
    ``see_woods + 1e-9``."""
    # the cell box around the line (``Board._cells_near``)
    lo, hi = min(x0, x1), max(x0, x1)
    a0 = _clamp(int(lo / cell) - 1, nx - 1)
    a1 = _clamp(int(hi / cell) + 1, nx - 1)
    lo, hi = min(y0, y1), max(y0, y1)
    b0 = _clamp(int(lo / cell) - 1, ny - 1)
    b1 = _clamp(int(hi / cell) + 1, ny - 1)
    look = False
    for q in range(block_boxes.shape[0]):
        if (
            a0 <= block_boxes[q, 1]
            and block_boxes[q, 0] <= a1
            and b0 <= block_boxes[q, 3]
            and block_boxes[q, 2] <= b1
        ):
            look = True
            break
    k0 = _clamp(int(x0 / cell), nx - 1) * ny + _clamp(int(y0 / cell), ny - 1)
    ex, ey = x0 + (x1 - x0), y0 + (y1 - y0)
    k1 = _clamp(int(ex / cell), nx - 1) * ny + _clamp(int(ey / cell), ny - 1)
    top = max(level[k0], level[k1])
    if not look and top < max_level:
        for q in range(hill_boxes.shape[0]):
            if (
                hill_boxes[q, 0] > top
                and a0 <= hill_boxes[q, 2]
                and hill_boxes[q, 1] <= a1
                and b0 <= hill_boxes[q, 4]
                and hill_boxes[q, 3] <= b1
            ):
                look = True
                break
    if not look:
        return True
    # the walk (``Board._walk`` with the field of woods/town and hills above ``top``)
    dx, dy = x1 - x0, y1 - y0
    length = jit.hypot(dx, dy)
    k = max(2, int(length / (cell / 2)) + 2)
    step = 1.0 / (k - 1)
    seg = length / (k - 1)
    span = max(abs(dx), abs(dy)) * step / cell
    f = 1 + min(top, max_level)
    last = k - 1
    count = 0
    n = 0
    while n < k:
        t = n * step if n < last else 1.0
        i = _clamp(int((x0 + dx * t) / cell), nx - 1)
        j = _clamp(int((y0 + dy * t) / cell), ny - 1)
        c = i * ny + j
        d = fields[f, c]
        if d == 0:
            if level[c] > top:
                return False
            if block[c]:
                count += 1
                if count * seg > limit:
                    return False
            n += 1
        elif d > 3 and span > 0:
            m = int((d - 3) / span)
            n += m if m > 1 else 1
        else:
            n += 1
    return True


@jit.kernel
def sight_clear_many(
    x0: NDArray[np.float64],
    y0: NDArray[np.float64],
    x1: NDArray[np.float64],
    y1: NDArray[np.float64],
    cell: float,
    nx: int,
    ny: int,
    level: I,
    block: NDArray[np.bool_],
    fields: I,
    block_boxes: I,
    hill_boxes: I,
    max_level: int,
    limit: float,
) -> NDArray[np.bool_]:
    """:func:`sight_clear` of many lines (for tests against the numpy form)."""
    out = np.ones(len(x0), dtype=np.bool_)
    for q in range(len(x0)):
        out[q] = sight_clear(
            x0[q],
            y0[q],
            x1[q],
            y1[q],
            cell,
            nx,
            ny,
            level,
            block,
            fields,
            block_boxes,
            hill_boxes,
            max_level,
            limit,
        )
    return out
