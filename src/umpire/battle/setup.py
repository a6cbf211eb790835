"""Build the board and the initial state from a validated scenario and its composition."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from umpire.battle.compose import compose_for
from umpire.battle.roles import Composition
from umpire.battle.state import Bases, Leader, Objective, State, Unit
from umpire.board import Board, Feature
from umpire.rules.data import on_change
from umpire.scenarios import Scenario, UnitSpec
from umpire.sides import SIDES


def unit_from_spec(i: int, u: UnitSpec, leader: int, bases: Bases) -> Unit:
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
        bases=bases,
    )


@dataclass(slots=True)
class Setup:
    """What never changes during a battle: the board, objectives, sides, limits, the rules."""

    scenario: Scenario
    board: Board
    objectives: list[Objective]
    posture: dict[str, str]
    break_fraction: dict[str, float]
    units0: dict[str, int]
    turns: int
    tie: str
    comp: Composition
    kept: dict[Any, Any] = field(default_factory=dict)
    """Rule modules' answers that read only the scenario and its rules (exact odds of a
    roll, the board's walls prepared for a test): worked out once and kept for every
    battle on this setup."""


def new_state(s: Scenario, comp: Composition | None = None) -> State:
    """A fresh battle state for a scenario (cheap: no board, no terrain raster)."""
    comp = comp or compose_for(s)
    combat = comp.combat
    lidx = {ld.id: i for i, ld in enumerate(s.leaders)}
    units = [
        unit_from_spec(i, u, lidx.get(u.leader, -1), combat.bases) for i, u in enumerate(s.units)
    ]
    uidx = {u.id: u.i for u in units}
    leaders = []
    for i, ld in enumerate(s.leaders):
        bonus, radius = combat.leader_rating(ld.side, ld.id)
        bonus = ld.bonus if ld.bonus is not None else bonus
        radius = ld.radius if ld.radius is not None else radius
        att = uidx.get(ld.attached, -1)
        x, y = (units[att].x, units[att].y) if att >= 0 else (ld.x, ld.y)
        leaders.append(Leader(i, ld.id, ld.name or ld.id, ld.side, bonus, radius, x, y, att))
    state = State(units, leaders)
    state.losses = dict.fromkeys(SIDES, 0)
    return state


def new_setup(s: Scenario, comp: Composition | None = None) -> Setup:
    """The fixed part of a battle: the board (terrain rasterised once), objectives, sides."""
    comp = comp or compose_for(s)
    board = Board(
        s.table.width,
        s.table.height,
        [Feature(t.kind, tuple(t.points), t.name, t.level, t.variant) for t in s.terrain],
        see_woods=comp.combat.geometry["woods_see_through"],
    )
    return Setup(
        s,
        board,
        [Objective(o.name, o.x, o.y, o.radius, o.points) for o in s.objectives],
        {k: s.sides[k].posture if k in s.sides else "attack" for k in SIDES},
        {k: s.sides[k].break_fraction if k in s.sides else 0.5 for k in SIDES},
        {k: sum(1 for u in s.units if u.side == k) for k in SIDES},
        s.table.turns,
        s.victory.tie,
        comp,
    )


T = TypeVar("T")
_SETUPS: dict[object, tuple[Scenario, Setup]] = {}
on_change(_SETUPS.clear)  # a setup holds its composition (the rules data)


def setup_for(s: Scenario) -> Setup:
    """The setup of a scenario object, built once and kept (a few scenarios at most).

    Rasterising the terrain costs milliseconds, more than a whole fast battle, so the
    board is shared by every battle on the same scenario; it never changes in play.
    """
    return per_scenario(_SETUPS, s, new_setup)


def per_scenario(
    kept: dict[object, tuple[Scenario, T]], s: Scenario, make: Callable[[Scenario], T]
) -> T:
    """``make(s)``, built once per scenario and kept in ``kept`` (32 entries at most, the
    oldest dropped first): the scalar setup, the batch simulator's arrays.

    Looked up by the object first, then by its content: a scenario loaded again, or
    unpickled in a lab worker for each chunk of battles, shares the board built for an
    equal one (rasterising it costs more than a fast battle). A setup never changes in
    play, so equal scenarios may share it; the rules data it holds is dropped with
    ``kept`` when that data changes (``on_change``)."""
    hit = kept.get(id(s))
    if hit is not None and hit[0] is s:
        return hit[1]
    content = "json:" + s.model_dump_json()
    same = kept.get(content)
    out = make(s) if same is None else same[1]
    while len(kept) >= 30:
        kept.pop(next(iter(kept)))
    kept[id(s)] = (s, out)  # keeps ``s`` alive, so its id is not reused
    if same is None:
        kept[content] = (s, out)
    return out


def build(s: Scenario) -> tuple[Setup, State]:
    """The setup (shared per scenario object) and a fresh state for a scenario."""
    setup = setup_for(s)
    return setup, new_state(s, setup.comp)
