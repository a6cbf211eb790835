"""The bundles of arrays the batch simulator's kernels take (a NamedTuple is one argument
to numba, issue 25: no kernel over 8 parameters): the state of N battles (rows), the
fixed numbers it is read with (:class:`Scene`) and the batches of work a step hands on."""

from __future__ import annotations

import math
from functools import cache
from typing import NamedTuple

import numpy as np
from numpy.typing import NDArray

from umpire.board.kboard import Terrain
from umpire.rules.quick_acw.batch import tables as V
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
    """The table and the terrain the kernels look up (``kboard.Terrain``; sight's numbers
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


class Rules(NamedTuple):
    """Seed 002 FIRE, MELEE and MORALE as the kernels read them (``tables``): max ranges,
    bands, table, its runs, modifier sums, the arc's tan and degrees, expected stands,
    melee modifier sums, the charge odds, morale numbers and a marker's penalty."""

    max_range: F
    bands: F
    fire_table: I
    need_at: I
    run: I
    fire_mods: I
    tan_arc: float
    arc: float
    es: F
    melee: I
    charge: F
    morale: I
    marker: int


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


class Scene(NamedTuple):
    """What the kernels read that never changes in a batch: per unit its side, type, place
    in its side's list and leader (-1 none), per leader his radius; board, moves, rules."""

    side: I
    utype: I
    local: I
    uleader: I
    l_radius: F
    bd: Board
    mv: Moves
    ru: Rules


class Box(NamedTuple):
    """One base: centre, facing's cos and sin, half frontage and depth."""

    x: float
    y: float
    c: float
    s: float
    hw: float
    hd: float


class Poses(NamedTuple):
    """Bases to try or to place: unit ``u[q]`` of battle ``r[q]`` at (x, y) facing ``th``."""

    r: I
    u: I
    x: F
    y: F
    th: F


class Forms(NamedTuple):
    """What :class:`Poses` moves become: formation, mounted, limbered, the change made (as
    ``numeric.move_row``'s) and rough ground on the way."""

    form: I
    mounted: B
    limbered: B
    chg: I
    rough: B


@cache
def board_of(T: Terrain) -> Board:
    """The kernels' view of a board."""
    return Board(
        float(T.width), float(T.height), float(T.cell), int(T.nx), int(T.ny), T.rough,
        T.cover, T.fields[0], T.rough_boxes, T.level, T.obstacles.ravel(),
        np.ascontiguousarray(T.walls, dtype=np.float64).ravel(), T.fields, T.block,
        T.block_boxes, T.hill_boxes, T.max_level, T.see_woods + 1e-9,
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


@cache
def rules_of(t: Tables) -> Rules:
    """The kernels' view of FIRE, MELEE and MORALE."""
    need_at, run = V.fire_runs(t)
    arc = float(t.r.geometry["fire_arc_degrees"])
    return Rules(
        t.max_range, t.bands, t.fire_table, need_at, run, V.fire_modifier_table(t),
        math.tan(math.radians(arc)), arc, V.expected_stands_table(t.r), V.melee_modifier_table(t),
        V.charge_table(), t.morale, int(t.r.morale_marker),
    )  # fmt: skip
