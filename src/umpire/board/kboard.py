"""A board as arrays for the compiled kernels: the scalar engine's ``Board`` rasterised
once per scenario, so every kernel's answer is read from the same cells."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import NamedTuple

import numpy as np
from numpy.typing import NDArray

from umpire.board import terrain

F = NDArray[np.float64]
B = NDArray[np.bool_]
I = NDArray[np.int64]  # noqa: E741


@dataclass(frozen=True, slots=True, eq=False)
class Terrain:
    """A board's rasters, cell boxes and walk fields as arrays, as the kernels read them."""

    board: terrain.Board
    cell: float
    nx: int
    ny: int
    width: float
    height: float
    rough: B
    cover: B
    block: B
    level: NDArray[np.int64]
    max_level: int
    fields: NDArray[np.int64]  # row 0: rough; row 1 + k: woods/town and hills above k
    rough_boxes: NDArray[np.int64]  # (k, 4): imin, imax, jmin, jmax
    block_boxes: NDArray[np.int64]
    hill_boxes: NDArray[np.int64]  # (k, 5): level, imin, imax, jmin, jmax
    walls: F
    obstacles: F  # walls and streams
    see_woods: float

    @staticmethod
    def of(board: terrain.Board) -> Terrain:
        """The arrays of ``board`` (its rasters, cell boxes and skip fields)."""
        keys = [-1, *range(board.max_level + 1)]
        fields = np.array([board.skip_field(k) for k in keys], dtype=np.int64)
        boxes = board.cell_boxes()
        return Terrain(
            board, board.cell, board.nx, board.ny, board.width, board.height,
            board.rough.ravel().copy(), board.cover.ravel().copy(), board.block.ravel().copy(),
            board.level.ravel().astype(np.int64), int(board.max_level), fields,
            np.array(boxes["rough"], dtype=np.int64).reshape(-1, 4),
            np.array(boxes["block"], dtype=np.int64).reshape(-1, 4),
            np.array(boxes["hill"], dtype=np.int64).reshape(-1, 5),
            board.walls.reshape(-1, 4).astype(float),
            np.concatenate([board.walls, board.streams]).reshape(-1, 4).astype(float),
            float(board.see_woods),
        )  # fmt: skip


class Board(NamedTuple):
    """The table and the terrain the kernels look up (:class:`Terrain`; sight's numbers
    as ``ksight.sight_clear`` reads them: ``fields``, ``block`` to ``see``)."""

    width: float
    height: float
    cell: float
    nx: int
    ny: int
    rough: B
    cover: B
    field: I  # the rough ground's skip field (``kterrain.path_rough``)
    rough_boxes: I
    level: I
    obstacles: F  # walls and streams, end to end (``numeric.crosses``)
    walls: F
    fields: I
    block: B
    block_boxes: I
    hill_boxes: I
    max_level: int
    see: float  # ``see_woods + 1e-9``


@cache
def board_of(T: Terrain) -> Board:
    """The kernels' view of a board."""
    return Board(
        float(T.width), float(T.height), float(T.cell), int(T.nx), int(T.ny), T.rough,
        T.cover, T.fields[0], T.rough_boxes, T.level, T.obstacles.ravel(),
        np.ascontiguousarray(T.walls, dtype=np.float64).ravel(), T.fields, T.block,
        T.block_boxes, T.hill_boxes, T.max_level, T.see_woods + 1e-9,
    )  # fmt: skip
