"""What never changes in a batch: a scenario's units, leaders, objectives and board as arrays."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from umpire.battle.setup import new_state, per_scenario, setup_for
from umpire.battle.state import State as BattleState
from umpire.board.kboard import Terrain
from umpire.rules.data import on_change
from umpire.rules.quick_acw.batch.tables import TYPES, Tables, tables
from umpire.rules.quick_acw.rules import rules
from umpire.scenarios import Scenario

I = NDArray[np.int64]  # noqa: E741
F = NDArray[np.float64]
B = NDArray[np.bool_]


@dataclass(frozen=True, slots=True, eq=False)
class Static:
    """The fixed arrays of one scenario, built once (as the scalar ``Setup``)."""

    scenario: Scenario
    t: Tables
    terrain: Terrain
    n_units: int
    n_leaders: int
    side: I  # per unit: index in TURN ORDER
    utype: I
    stands0: I
    uleader: I  # the unit's leader, -1 none
    by_side: tuple[I, I]  # unit indices of each side, in order
    local: I  # per unit: its place in its side's list
    span: tuple[slice | I, slice | I]  # each side's units as a slice when they are in a row
    l_side: I
    l_bonus: I
    l_radius: F
    l_units: tuple[I, ...]  # per leader: his units (his brigade), in order
    obj: F  # (k, 3): x, y, radius
    obj_points: I
    defend: tuple[bool, bool]  # per side: the AI's posture is "defend" (with objectives)
    break_fraction: F
    units0: I
    turns: int
    tie: int  # 0/1 a side, 2 draw
    start: BattleState  # the scalar starting state (positions, formations, leaders)


_STATICS: dict[object, tuple[Scenario, Static]] = {}
on_change(_STATICS.clear)  # a static holds the rules' arrays


def static_for(scen: Scenario) -> Static:
    """The arrays of a scenario, built once per scenario (``per_scenario``)."""
    return per_scenario(_STATICS, scen, _build)


def _build(scen: Scenario) -> Static:
    r, setup, st = rules(), setup_for(scen), new_state(scen)
    t, order = tables(r), r.order
    units, leaders = st.units, st.leaders
    side = np.array([order.index(u.side) for u in units], dtype=np.int64)
    l_units = tuple(
        np.array([u.i for u in units if u.leader == ld.i], dtype=np.int64) for ld in leaders
    )
    obj = np.array([(o.x, o.y, o.radius) for o in setup.objectives], dtype=float).reshape(-1, 3)
    defend = [setup.posture[s] == "defend" and len(setup.objectives) > 0 for s in order]
    tie = {"confederate": order.index("confederate"), "union": order.index("union"), "draw": 2}
    return Static(
        scen, t, Terrain.of(setup.board), len(units), len(leaders), side,
        np.array([TYPES.index(u.type) for u in units], dtype=np.int64),
        np.array([u.stands0 for u in units], dtype=np.int64),
        np.array([u.leader for u in units], dtype=np.int64),
        (np.flatnonzero(side == 0), np.flatnonzero(side == 1)),
        np.array([int((side[:i] == side[i]).sum()) for i in range(len(units))], dtype=np.int64),
        (_span(np.flatnonzero(side == 0)), _span(np.flatnonzero(side == 1))),
        np.array([order.index(ld.side) for ld in leaders], dtype=np.int64),
        np.array([ld.bonus for ld in leaders], dtype=np.int64),
        np.array([ld.radius for ld in leaders], dtype=float),
        l_units, obj, np.array([o.points for o in setup.objectives], dtype=np.int64),
        (defend[0], defend[1]), np.array([setup.break_fraction[s] for s in order]),
        np.array([setup.units0[s] for s in order], dtype=np.int64), setup.turns, tie[setup.tie],
        st,
    )  # fmt: skip


def _span(idx: I) -> slice | I:
    """A run of consecutive unit numbers as a slice (a view, cheaper than a gather)."""
    if len(idx) and (np.diff(idx) == 1).all():
        return slice(int(idx[0]), int(idx[-1]) + 1)
    return idx
