"""The bundles of arrays the batch simulator's kernels take (a NamedTuple is one argument
to numba): the state of N battles (rows) and the fixed numbers it is read with."""

from __future__ import annotations

from functools import cache
from typing import NamedTuple

import numpy as np
from numpy.typing import NDArray

from umpire.board.kboard import Terrain
from umpire.rules.quick_acw.batch.tables import MOVE_KEYS, TYPES, Tables

F = NDArray[np.float64]
F32 = NDArray[np.float32]
B = NDArray[np.bool_]
I = NDArray[np.int64]  # noqa: E741
I8 = NDArray[np.int8]
I16 = NDArray[np.int16]
I32 = NDArray[np.int32]


class Bases(NamedTuple):
    """Every unit's base: centre, facing, half sizes, radius, float32 copies for prefilters,
    on the table, a version bumped when it moves (the sight cache's key)."""

    x: F
    y: F
    th: F
    c: F
    s: F
    hw: F
    hd: F
    rad: F
    x32: F32
    y32: F32
    r32: F32
    alive: B
    ver: I32


class Units(NamedTuple):
    """Every unit's state but its base (formation 0 line, 1 column)."""

    form: I8
    mounted: B
    limbered: B
    stands: I16
    marker: B
    moved: B
    in_cmd: B
    lost_ldr: B
    bonus: I8


class Leaders(NamedTuple):
    """Every leader's position, attached unit (-1 none) and whether he is still alive."""

    x: F
    y: F
    att: I16
    alive: B


class Board(NamedTuple):
    """The table and the terrain the kernels look up (``kboard.Terrain``)."""

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


class Moves(NamedTuple):
    """Seed 002 MOVEMENT as the kernels read it: rates per row, costs, bases per type, the
    contact distance and a slide's step."""

    move_open: F
    move_rough: F
    costs: F
    base_w: F
    base_d: F
    contact: float
    step: float


@cache
def board_of(T: Terrain) -> Board:
    """The kernels' view of a board."""
    return Board(
        float(T.width), float(T.height), float(T.cell), int(T.nx), int(T.ny), T.rough,
        T.cover, T.fields[0], T.rough_boxes, T.level, T.obstacles.ravel(),
        np.ascontiguousarray(T.walls, dtype=np.float64).ravel(),
    )  # fmt: skip


@cache
def moves_of(t: Tables) -> Moves:
    """The kernels' view of the MOVEMENT numbers."""
    r = t.r
    c, g = r.costs, r.geometry
    costs = [c["out_of_command"], c["leader_lost"], c["formation_change"], c["mount_dismount"]]
    return Moves(
        np.array([r.movement[k].open for k in MOVE_KEYS], dtype=float),
        np.array([r.movement[k].rough for k in MOVE_KEYS], dtype=float),
        np.array(costs, dtype=float), np.array([r.bases[u][0] for u in TYPES], dtype=float),
        np.array([r.bases[u][1] for u in TYPES], dtype=float), float(g["contact"]),
        float(g["retreat_step"]),
    )  # fmt: skip
