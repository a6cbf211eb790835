"""Terrain walks for the kernels: numba's copy of the scalar ``Board``'s own source
(:mod:`umpire.board.numeric`) on the :class:`~umpire.board.kboard.Terrain` arrays."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from numpy.typing import NDArray

from umpire import jit
from umpire.board import numeric
from umpire.board.kboard import Board

B = NDArray[np.bool_]
I = NDArray[np.int64]  # noqa: E741


_N = jit.twin(numeric)
cell_of: Callable[[float, float, float, int, int], int] = _N.cell_of
"""The flat cell of a point, clamped to the table (``numeric.cell_of``, ``Board._k``)."""
_rough_near: Callable[..., bool] = _N.rough_near
_walk: Callable[..., bool] = _N.walk


@jit.inline
def path_rough(x0: float, y0: float, x1: float, y1: float, bd: Board) -> bool:
    """Does a straight move touch rough ground on ``bd`` (``Board.path_rough``)?"""
    cell, nx, ny, field = bd.cell, bd.nx, bd.ny, bd.field
    if not _rough_near(x0, y0, x1, y1, cell, nx, ny, bd.rough_boxes):
        return False
    return _walk(x0, y0, x1, y1, cell, nx, ny, field, field, field, 0, 0.0, True)
