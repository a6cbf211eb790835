"""The tactical engine: a cursor through a module-provided sequence of steps.

A rule module gives a :class:`Ruleset`: the side order, the per-player sequence of step
names, and a :class:`Step` object for each name. A step either runs by itself
(``kind == ""``: rally, melee, events) or asks one decision per actor (``"leader"``,
``"move"``, ``"fire"``). The engine only walks the cursor, asks, applies and checks
the end of the battle; what a step does is the module's business, so later modules
(seeds 003, 004, 001) replace or add steps without touching this file.

The same :class:`Battle` runs on two paths: the fast path mutates the compact state
and draws dice straight from the game's source (recording the faces), the saved-game
path runs each decision inside an engine action (see ``umpire.battle.game``).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple, Protocol

import numpy as np

from umpire.battle.setup import Setup
from umpire.battle.state import State, Unit
from umpire.board.geometry import (
    F,
    corners,
    distances,
    local,
    overlaps,
    segments_hit_boxes,
)
from umpire.errors import IllegalActionError
from umpire.rules.quick_acw.rules import Rules, rules

Order = tuple[Any, ...]
"""A decision: ``("hold",)``, ``("move", x, y, theta, change)``, ``("charge", t)``,
``("rout",)``, ``("turn",)``, ``("fire", t)``, ``("leader", x, y, attach)``."""


class Roller(Protocol):
    """Where a battle's dice come from: ``umpire.dice.DiceSource`` or a context adapter."""

    def dice(self, n: int, sides: int, purpose: str = "") -> list[int]:
        """``n`` faces of d``sides``."""
        ...


class Recorder:
    """Wraps a dice source for the fast path and keeps every face (a compact list)."""

    __slots__ = ("faces", "source")

    def __init__(self, source: Roller):
        self.source = source
        self.faces: list[int] = []

    def dice(self, n: int, sides: int, purpose: str = "") -> list[int]:
        """Draw from the source and record the faces."""
        out = self.source.dice(n, sides, purpose)
        self.faces.extend(out)
        return out


class Request(NamedTuple):
    """A decision the engine needs: which kind, for which side, which actor."""

    kind: str
    side: str
    actor: int
    step: str


class Step(Protocol):
    """One step of the sequence, provided by a rule module."""

    kind: str  # "" = runs by itself; else the decision kind
    actor: str  # "first" or "second": which player acts

    def actors(self, b: Battle, side: str) -> list[int]:
        """The actors to ask, fixed when the step begins."""
        ...

    def eligible(self, b: Battle, actor: int) -> bool:
        """May this actor still act now (alive, not removed meanwhile)?"""
        ...

    def apply(self, b: Battle, side: str, actor: int, order: Order) -> None:
        """Validate and carry out one decision; raise IllegalActionError to refuse."""
        ...

    def auto(self, b: Battle, side: str) -> None:
        """Run a step that needs no decision."""
        ...


@dataclass(slots=True)
class Ruleset:
    """What a module provides to the engine: side order, sequence and step hooks."""

    id: str
    order: tuple[str, ...]
    sequence: tuple[str, ...]
    steps: dict[str, Step]
    end_check: Callable[[Battle], None] | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    def flat(self) -> list[tuple[int, str]]:
        """The whole turn: (first player's index, step name) for each player in order."""
        return [(p, name) for p in range(len(self.order)) for name in self.sequence]


class Battle:
    """A battle in progress: setup, state, rules, dice and (optionally) a narrative."""

    __slots__ = (
        "_arr",
        "_flat",
        "lines",
        "narrate",
        "r",
        "roller",
        "ruleset",
        "setup",
        "state",
    )

    def __init__(
        self,
        setup: Setup,
        state: State,
        ruleset: Ruleset,
        roller: Roller,
        *,
        narrate: bool = False,
        r: Rules | None = None,
    ):
        self.setup = setup
        self.state = state
        self.ruleset = ruleset
        self.roller = roller
        self.narrate = narrate
        self.lines: list[str] = []
        self.r = r or rules()
        self._flat = ruleset.flat()
        self._arr: tuple[F, ...] | None = None

    # -- narrative ---------------------------------------------------------------
    def say(self, text: str) -> None:
        """Add a narrative line (kept only when narrating)."""
        if self.narrate:
            self.lines.append(text)

    def roll(self, n: int, sides: int, purpose: str) -> list[int]:
        """Draw dice from the game's source (recorded by the fast path's Recorder)."""
        return self.roller.dice(n, sides, purpose)

    # -- the cursor ----------------------------------------------------------------
    def current(self) -> tuple[str, str, Step]:
        """(side, step name, step) at the cursor."""
        first, name = self._flat[self.state.seq]
        order = self.ruleset.order
        step = self.ruleset.steps[name]
        side = order[first] if step.actor == "first" else order[(first + 1) % len(order)]
        return side, name, step

    def first_player(self) -> str:
        """The player whose sequence is running."""
        return self.ruleset.order[self._flat[self.state.seq][0]]

    def next_request(self) -> Request | None:
        """Run automatic steps until a decision is needed; None when the battle is over."""
        st = self.state
        while not st.over:
            side, name, step = self.current()
            if st.pos < 0:
                if not step.kind:
                    step.auto(self, side)
                    self._advance()
                    continue
                st.actors = step.actors(self, side)
                st.pos = 0
            while st.pos < len(st.actors) and not step.eligible(self, st.actors[st.pos]):
                st.pos += 1
            if st.pos < len(st.actors):
                return Request(step.kind, side, st.actors[st.pos], name)
            self._advance()
        return None

    def apply(self, req: Request, order: Order) -> None:
        """Carry out the decision for ``req`` (which must be the pending one)."""
        st = self.state
        side, _name, step = self.current()
        if st.pos < 0 or st.pos >= len(st.actors) or st.actors[st.pos] != req.actor:
            raise IllegalActionError("that decision is not the one pending")
        step.apply(self, side, req.actor, tuple(order))
        st.pos += 1

    def _advance(self) -> None:
        st = self.state
        st.pos = -1
        st.actors = []
        if self.ruleset.end_check is not None:
            self.ruleset.end_check(self)
        if st.over:
            return
        st.seq += 1
        if st.seq >= len(self._flat):
            st.seq = 0
            st.turn += 1
            if st.turn > self.setup.turns:
                st.turn = self.setup.turns
                self.ruleset.extra["final"](self)

    # -- geometry over the current state -------------------------------------------
    def dirty(self) -> None:
        """Forget cached arrays (call after any unit moves or changes size)."""
        self._arr = None

    def arrays(self) -> tuple[F, ...]:
        """x, y, theta, hw, hd, alive (as float) of every unit, cached."""
        if self._arr is None:
            us = self.state.units
            self._arr = (
                np.array([u.x for u in us]),
                np.array([u.y for u in us]),
                np.array([u.theta for u in us]),
                np.array([u.hw for u in us]),
                np.array([u.hd for u in us]),
                np.array([1.0 if u.alive else 0.0 for u in us]),
            )
        return self._arr

    def alive(self, side: str | None = None) -> list[Unit]:
        """Living units, of one side or all."""
        return [u for u in self.state.units if u.alive and (side is None or u.side == side)]

    def enemies(self, u: Unit) -> list[int]:
        """Indexes of living enemy units."""
        return [v.i for v in self.state.units if v.alive and v.side != u.side]

    def dist_to(self, u: Unit, idx: Sequence[int]) -> F:
        """Nearest-point distances from ``u``'s base to the bases ``idx``."""
        if not idx:
            return np.zeros(0)
        x, y, th, hw, hd, _ = self.arrays()
        ii = np.asarray(idx)
        return distances(*u.box(), x[ii], y[ii], th[ii], hw[ii], hd[ii])

    def touching(self, u: Unit) -> list[int]:
        """Enemy units whose bases touch ``u``'s (default contact tolerance)."""
        tol = self.r.geometry["contact"]
        reach = math.hypot(u.hw, u.hd) + tol
        cand = [
            v.i
            for v in self.state.units
            if v.alive
            and v.side != u.side
            and math.hypot(v.x - u.x, v.y - u.y) <= reach + math.hypot(v.hw, v.hd)
        ]
        if not cand:
            return []
        d = self.dist_to(u, cand)
        return [c for c, dd in zip(cand, d, strict=True) if dd <= tol]

    def in_arc(self, u: Unit, v: Unit) -> bool:
        """Is ``v``'s centre within the fire arc of ``u`` (default ``fire_arc``)?"""
        fwd, lat = local(u.x, u.y, u.theta, v.x, v.y)
        if fwd <= 0:
            return False
        return math.degrees(math.atan2(abs(lat), fwd)) <= self.r.geometry["fire_arc_degrees"]

    def sight(self, u: Unit, targets: Sequence[int]) -> list[bool]:
        """Line of sight from ``u`` to each target: terrain, then friendly bases."""
        if not targets:
            return []
        us = self.state.units
        tx = np.array([us[t].x for t in targets])
        ty = np.array([us[t].y for t in targets])
        x0 = np.full(len(targets), u.x)
        y0 = np.full(len(targets), u.y)
        ok = self.setup.board.terrain_los(x0, y0, tx, ty)
        friends = [v.i for v in us if v.alive and v.side == u.side and v.i != u.i]
        if friends and ok.any():
            x, y, th, hw, hd, _ = self.arrays()
            fi = np.asarray(friends)
            hit = segments_hit_boxes(x0, y0, tx, ty, x[fi], y[fi], th[fi], hw[fi], hd[fi])
            ok &= ~hit.any(axis=1)
        return [bool(v) for v in ok]

    def free_at(
        self,
        u: Unit,
        x: float,
        y: float,
        theta: float,
        hw: float,
        hd: float,
        ignore: Sequence[int] = (),
    ) -> bool:
        """Is a base at (x, y, theta) free of every other living base, and on the table?"""
        if not self.setup.board.on_table(corners(x, y, theta, hw, hd)):
            return False
        xs, ys, th, hws, hds, alive = self.arrays()
        mask = alive > 0
        mask[u.i] = False
        for k in ignore:
            mask[k] = False
        if not mask.any():
            return True
        return not overlaps(
            x, y, theta, hw, hd, xs[mask], ys[mask], th[mask], hws[mask], hds[mask]
        ).any()

    def crosses_enemy(self, u: Unit, x: float, y: float) -> bool:
        """Does the straight path of ``u``'s centre to (x, y) cross an enemy base?"""
        en = self.enemies(u)
        if not en:
            return False
        xs, ys, th, hws, hds, _ = self.arrays()
        ei = np.asarray(en)
        hit = segments_hit_boxes(
            np.array([u.x]),
            np.array([y * 0 + u.y]),
            np.array([x]),
            np.array([y]),
            xs[ei],
            ys[ei],
            th[ei],
            hws[ei],
            hds[ei],
        )
        return bool(hit.any())

    def place(self, u: Unit, x: float, y: float, theta: float | None = None) -> None:
        """Move a unit's base (and an attached leader with it)."""
        u.x, u.y = x, y
        if theta is not None:
            u.theta = theta
        for ld in self.state.leaders:
            if ld.alive and ld.attached == u.i:
                ld.x, ld.y = x, y
        self.dirty()

    def slide(self, u: Unit, dx: float, dy: float, dist: float, theta: float) -> bool:
        """Move ``u`` up to ``dist`` along (dx, dy) in half-inch steps, stopping before a base.

        Default ``blocked_retreat_stops``. Returns False if the unit left the table.
        """
        step = self.r.geometry["retreat_step"]
        n = max(1, math.ceil(dist / step))
        best = (u.x, u.y)
        board = self.setup.board
        for k in range(1, n + 1):
            d = min(dist, k * step)
            nx, ny = u.x + dx * d, u.y + dy * d
            if not (0 <= nx <= board.width and 0 <= ny <= board.height):
                return False
            if not self.free_at(u, nx, ny, theta, u.hw, u.hd):
                if not board.on_table(corners(nx, ny, theta, u.hw, u.hd)):
                    return False
                break
            best = (nx, ny)
        self.place(u, best[0], best[1], theta)
        return True
