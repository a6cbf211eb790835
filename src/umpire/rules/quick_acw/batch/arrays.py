"""The bundles the batch simulator's kernels take (a NamedTuple is one argument to numba):
the state of N battles (rows), what never changes (:class:`Scene`), batches of moves."""

from __future__ import annotations

import math
from functools import cache
from typing import NamedTuple

import numpy as np
from numpy.typing import NDArray

from umpire.board.kboard import Board
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


class Rules(NamedTuple):
    """Seed 002 as the kernels read it: MOVEMENT (rates, costs, bases, contact, a slide's step),
    FIRE (ranges, bands, table, its runs, modifiers, arc, expected stands), MELEE, MORALE."""

    move_open: F
    move_rough: F
    costs: F
    base_w: F
    base_d: F
    contact: float
    step: float

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


Moves = Rules  # the name in numba's cache indexes from before issue 25 (a stale one must load)


class Scene(NamedTuple):
    """What never changes in a batch: units' sides, types, places, leaders; radii; board; rules."""

    side: I
    utype: I
    local: I
    uleader: I
    l_radius: F
    bd: Board
    ru: Rules


class Poses(NamedTuple):
    """Bases to try or to place: unit ``u[q]`` of battle ``r[q]`` at (x, y) facing ``th``."""

    r: I
    u: I
    x: F
    y: F
    th: F


class Forms(NamedTuple):
    """What :class:`Poses` moves become: formation, mounted, limbered, change, rough way."""

    form: I
    mounted: B
    limbered: B
    chg: I
    rough: B


@cache
def rules_of(t: Tables) -> Rules:
    """The kernels' view of seed 002's numbers."""
    r, need_at, run = t.r, *V.fire_runs(t)
    c, g = r.costs, r.geometry
    costs = [c["out_of_command"], c["leader_lost"], c["formation_change"], c["mount_dismount"]]
    arc = float(g["fire_arc_degrees"])
    return Rules(
        np.array([r.movement[k].open for k in MOVE_KEYS], dtype=float),
        np.array([r.movement[k].rough for k in MOVE_KEYS], dtype=float),
        np.array(costs, dtype=float), np.array([r.bases[u][0] for u in TYPES], dtype=float),
        np.array([r.bases[u][1] for u in TYPES], dtype=float), float(g["contact"]),
        float(g["retreat_step"]), t.max_range, t.bands, t.fire_table, need_at, run,
        V.fire_modifier_table(t), math.tan(math.radians(arc)), arc, V.expected_stands_table(r),
        V.melee_modifier_table(t), V.charge_table(), t.morale, int(r.morale_marker),
    )  # fmt: skip
