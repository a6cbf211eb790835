"""``Board.sight_clear`` for the kernels, over numba's copy of its one source
(:mod:`umpire.board.numeric`), on the :class:`~umpire.board.kboard.Terrain` arrays."""

from __future__ import annotations

from collections.abc import Callable

from umpire import jit
from umpire.board import numeric
from umpire.board.kboard import Board

_N = jit.twin(numeric)
_sight_top: Callable[..., int] = _N.sight_top
_walk: Callable[..., bool] = _N.walk


@jit.inline
def sight_clear(x0: float, y0: float, x1: float, y1: float, bd: Board) -> bool:
    """Does terrain leave the line clear on ``bd`` (``Board.sight_clear``)? ``bd.fields[1 +
    key]``: ``Board.skip_field(key)``."""
    cell, nx, ny, level, top_level = bd.cell, bd.nx, bd.ny, bd.level, bd.max_level
    top = _sight_top(x0, y0, x1, y1, cell, nx, ny, level, bd.block_boxes, bd.hill_boxes, top_level)
    if top < 0:
        return True
    field = bd.fields[1 + min(top, top_level)]
    return not _walk(x0, y0, x1, y1, cell, nx, ny, field, level, bd.block, top, bd.see, False)
