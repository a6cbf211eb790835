"""``Board.sight_clear`` for the kernels, over numba's copy of its one source
(:mod:`umpire.board.numeric`), on the :class:`~umpire.board.kboard.Terrain` arrays."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from numpy.typing import NDArray

from umpire import jit
from umpire.board import numeric
from umpire.board.kboard import Terrain

I = NDArray[np.int64]  # noqa: E741

_N = jit.twin(numeric)
_sight_top: Callable[..., int] = _N.sight_top
_walk: Callable[..., bool] = _N.walk


def sight_args(T: Terrain) -> tuple[Any, ...]:
    """The terrain numbers :func:`sight_clear` reads, in its order (after the line)."""
    b = T.block_boxes, T.hill_boxes, T.max_level, T.see_woods + 1e-9
    return (T.cell, T.nx, T.ny, T.level, T.block, T.fields, *b)


@jit.inline
def sight_clear(
    x0: float, y0: float, x1: float, y1: float, cell: float, nx: int, ny: int, level: I,
    block: NDArray[np.bool_], fields: I, block_boxes: I, hill_boxes: I, max_level: int,
    limit: float,
) -> bool:  # fmt: skip
    """Does terrain leave the line clear (``Board.sight_clear``)? ``limit``:
    ``see_woods + 1e-9``; ``fields[1 + key]``: ``Board.skip_field(key)``."""
    top = _sight_top(x0, y0, x1, y1, cell, nx, ny, level, block_boxes, hill_boxes, max_level)
    if top < 0:
        return True
    field = fields[1 + min(top, max_level)]
    return not _walk(x0, y0, x1, y1, cell, nx, ny, field, level, block, top, limit, False)
