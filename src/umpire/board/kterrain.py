"""Compiled terrain walks (numba, through :mod:`umpire.jit`) for the batch simulator.

Kernels and their inlined helpers take a board's rasters as plain arrays (those of
:class:`umpire.board.vgeom.Terrain`) and repeat the scalar ``Board`` walks line by line
(``Board.path_rough``: the cell boxes first, then the skip-field walk), so a compiled
loop gives the scalar engine's answers: the same samples, the same cells, the same
early exits.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from umpire import jit

B = NDArray[np.bool_]
I = NDArray[np.int64]  # noqa: E741


@jit.inline
def cell_of(x: float, y: float, cell: float, nx: int, ny: int) -> int:
    """The flat cell of a point, clamped to the table (``Board._k``)."""
    i = int(x / cell)
    j = int(y / cell)
    i = 0 if i < 0 else (nx - 1 if i > nx - 1 else i)
    j = 0 if j < 0 else (ny - 1 if j > ny - 1 else j)
    return i * ny + j


@jit.inline
def path_rough(
    x0: float,
    y0: float,
    x1: float,
    y1: float,
    cell: float,
    nx: int,
    ny: int,
    field: I,
    boxes: I,
) -> bool:
    """Does a straight move touch rough ground (``Board.path_rough``)? ``field``: the
    rough skip field (``Terrain.fields[0]``), ``boxes``: the rough cell boxes."""
    nx1, ny1 = nx - 1, ny - 1
    lo, hi = (x0, x1) if x0 < x1 else (x1, x0)
    a0, a1 = int(lo / cell) - 1, int(hi / cell) + 1
    lo, hi = (y0, y1) if y0 < y1 else (y1, y0)
    b0, b1 = int(lo / cell) - 1, int(hi / cell) + 1
    a0 = 0 if a0 < 0 else (nx1 if a0 > nx1 else a0)
    a1 = 0 if a1 < 0 else (nx1 if a1 > nx1 else a1)
    b0 = 0 if b0 < 0 else (ny1 if b0 > ny1 else b0)
    b1 = 0 if b1 < 0 else (ny1 if b1 > ny1 else b1)
    meets = False
    for q in range(boxes.shape[0]):
        if a0 <= boxes[q, 1] and boxes[q, 0] <= a1 and b0 <= boxes[q, 3] and boxes[q, 2] <= b1:
            meets = True
            break
    if not meets:
        return False
    # ``Board._walk`` with the rough field: the first sample in a rough cell decides
    dx, dy = x1 - x0, y1 - y0
    length = jit.hypot(dx, dy)
    k = max(2, int(length / (cell / 2)) + 2)
    step = 1.0 / (k - 1)
    span = max(abs(dx), abs(dy)) * step / cell
    last = k - 1
    n = 0
    while n < k:
        t = n * step if n < last else 1.0
        i = int((x0 + dx * t) / cell)
        j = int((y0 + dy * t) / cell)
        i = 0 if i < 0 else (nx1 if i > nx1 else i)
        j = 0 if j < 0 else (ny1 if j > ny1 else j)
        d = field[i * ny + j]
        if d == 0:
            return True
        if d > 3 and span > 0:
            m = int((d - 3) / span)  # one cell of slack for rounding
            n += m if m > 1 else 1
        else:
            n += 1
    return False


@jit.kernel
def paths_rough(
    x0: NDArray[np.float64],
    y0: NDArray[np.float64],
    x1: NDArray[np.float64],
    y1: NDArray[np.float64],
    cell: float,
    nx: int,
    ny: int,
    field: I,
    boxes: I,
) -> B:
    """:func:`path_rough` of each line (``Terrain.path_rough``)."""
    out = np.zeros(x0.shape[0], dtype=np.bool_)
    for q in range(x0.shape[0]):
        out[q] = path_rough(x0[q], y0[q], x1[q], y1[q], cell, nx, ny, field, boxes)
    return out
