"""Build the board and the initial state from a validated scenario."""

from __future__ import annotations

import math
from dataclasses import dataclass

from umpire.battle.state import Leader, Objective, State, Unit
from umpire.board import Board, Feature
from umpire.rules.quick_acw.rules import Rules, rules
from umpire.scenarios import Scenario, UnitSpec


def unit_from_spec(i: int, u: UnitSpec, leader: int) -> Unit:
    """A Unit from its scenario entry (facing in degrees, 0 = +x, counter-clockwise)."""
    return Unit(
        i,
        u.id,
        u.name or u.id,
        u.side,
        u.type,
        u.formation,
        u.stands,
        u.x,
        u.y,
        math.radians(u.facing),
        mounted=u.type == "cavalry" and u.mounted,
        limbered=u.type == "artillery" and u.limbered,
        leader=leader,
    )


@dataclass(slots=True)
class Setup:
    """What never changes during a battle: the board, objectives, sides, limits."""

    scenario: Scenario
    board: Board
    objectives: list[Objective]
    posture: dict[str, str]
    break_fraction: dict[str, float]
    units0: dict[str, int]
    turns: int
    tie: str


def new_state(s: Scenario, r: Rules | None = None) -> State:
    """A fresh battle state for a scenario (cheap: no board, no terrain raster)."""
    r = r or rules()
    lidx = {ld.id: i for i, ld in enumerate(s.leaders)}
    units = [unit_from_spec(i, u, lidx.get(u.leader, -1)) for i, u in enumerate(s.units)]
    uidx = {u.id: u.i for u in units}
    leaders = []
    for i, ld in enumerate(s.leaders):
        side = r.sides[ld.side]
        named = r.named_leaders.get(ld.id)
        bonus = ld.bonus if ld.bonus is not None else (named[0] if named else side.leader_bonus)
        radius = ld.radius if ld.radius is not None else (named[1] if named else side.leader_radius)
        att = uidx.get(ld.attached, -1)
        x, y = (units[att].x, units[att].y) if att >= 0 else (ld.x, ld.y)
        leaders.append(Leader(i, ld.id, ld.name or ld.id, ld.side, bonus, radius, x, y, att))
    state = State(units, leaders)
    state.losses = {"confederate": 0, "union": 0}
    return state


def new_setup(s: Scenario, r: Rules | None = None) -> Setup:
    """The fixed part of a battle: the board (terrain rasterised once), objectives, sides."""
    r = r or rules()
    board = Board(
        s.table.width,
        s.table.height,
        [Feature(t.kind, tuple(t.points), t.name, t.level) for t in s.terrain],
        see_woods=r.geometry["woods_see_through"],
    )
    return Setup(
        s,
        board,
        [Objective(o.name, o.x, o.y, o.radius, o.points) for o in s.objectives],
        {k: s.sides[k].posture if k in s.sides else "attack" for k in r.order},
        {k: s.sides[k].break_fraction if k in s.sides else 0.5 for k in r.order},
        {k: sum(1 for u in s.units if u.side == k) for k in r.order},
        s.table.turns,
        s.victory.tie,
    )


_SETUPS: dict[int, tuple[Scenario, Setup]] = {}


def setup_for(s: Scenario) -> Setup:
    """The setup of a scenario object, built once and kept (a few scenarios at most).

    Rasterising the terrain costs milliseconds, more than a whole fast battle, so the
    board is shared by every battle on the same scenario; it never changes in play.
    """
    hit = _SETUPS.get(id(s))
    if hit is not None and hit[0] is s:
        return hit[1]
    if len(_SETUPS) >= 16:
        _SETUPS.pop(next(iter(_SETUPS)))
    setup = new_setup(s)
    _SETUPS[id(s)] = (s, setup)  # keeps ``s`` alive, so its id is not reused
    return setup


def build(s: Scenario, r: Rules | None = None) -> tuple[Setup, State]:
    """The setup (shared per scenario object) and a fresh state for a scenario."""
    if r is None or r is rules():
        return setup_for(s), new_state(s, r)
    return new_setup(s, r), new_state(s, r)
