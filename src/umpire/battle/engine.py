"""The tactical engine: a cursor through the steps a composition of rule modules gives.

A :class:`~umpire.battle.roles.Composition` names the roles (sequence, combat, status,
events; see ``umpire.battle.roles``). The sequence says which phase stands at each
position of a turn; a step either runs by itself (``kind == ""``: rally, melee, events,
a card draw) or asks one decision per actor (``"leader"``, ``"move"``, ``"fire"``). The
engine only walks the cursor, asks, applies and checks the end of the battle; what a
step does is its module's business, so a new module adds or replaces steps without
touching this file.

The same :class:`Battle` runs on two paths: the fast path mutates the compact state
and draws dice straight from the game's source (recording the faces), the saved-game
path runs each decision inside an engine action (see ``umpire.battle.game``). A base
changes through the change operations (``place``, ``reshape``, ``take_off``, ``restore``;
``record`` for a unit's other fields): each keeps the cached geometry current and, on the
saved path, logs the unit through the ``journal`` as it changes.
"""

from __future__ import annotations

import math
from bisect import insort
from collections.abc import Callable, Iterator, Sequence
from typing import Any, Final, Protocol

from umpire.battle.effects import MARKS, FxKey, put_fx, take_fx
from umpire.battle.orders import as_order
from umpire.battle.roles import Order, Phase, Request, Step
from umpire.battle.setup import Setup
from umpire.battle.state import Leader, State, Unit
from umpire.battle.victory import end_check, final
from umpire.board.fmath import hypot as _hypot
from umpire.board.geometry import (
    SURELY,
    Box,
    box_distance,
    box_overlap,
    corners,
    local,
    overlap_at,
    segment_hits_box,
)
from umpire.board.numeric import on_table
from umpire.dice.luck import Dist, Tally
from umpire.dice.sources import stream_of
from umpire.dice.stream import Stream
from umpire.errors import IllegalActionError
from umpire.sides import SIDES

# math's functions that mypyc has no native form of, held in C statics (``Final``): a
# call then skips looking the name up in ``math`` (the same functions, the same floats).
_atan2: Final = math.atan2

__all__ = ["Battle", "Order", "Recorder", "Request", "Roller", "Step"]


class Roller(Protocol):
    """Where a battle's dice come from: ``umpire.dice.DiceSource`` or a context adapter."""

    def dice(self, n: int, sides: int, purpose: str = "") -> list[int]:
        """``n`` faces of d``sides``."""
        ...


class Recorder:
    """Wraps a dice source for the fast path and keeps every face (a compact list)."""

    __slots__ = ("faces", "source", "stream")

    def __init__(self, source: Roller):
        self.source = source
        self.faces: list[int] = []
        # a plain seeded source's own stream, drawn from directly (the same faces): in the
        # mypyc build both are compiled, the source's ``dice`` is not
        self.stream: Stream | None = stream_of(source)

    def dice(self, n: int, sides: int, purpose: str = "") -> list[int]:
        """Draw from the source and record the faces."""
        st = self.stream
        out = st.dice(n, sides) if st is not None else self.source.dice(n, sides, purpose)
        self.faces.extend(out)
        return out


class Journal(Protocol):
    """Where the saved path logs the battle's changes as they are made (see
    ``umpire.battle.game``): the whole JSON entry of a unit or a leader, after a change."""

    def unit(self, u: Unit) -> None:
        """Log unit ``u`` as it is now."""
        ...

    def leader(self, ld: Leader) -> None:
        """Log leader ``ld`` as he is now."""
        ...


_RAD_TO_DEG: Final = 180.0 / math.pi
"""``math.degrees(a)`` is ``a * (180 / pi)`` in double arithmetic (CPython's ``radToDeg``):
the same float, multiplied natively."""
NEAR_TIE: Final = 1.000000000001  # 1 + 1e-12 (a literal: the mypyc build inlines it)
"""How far above the best ``dx * dx + dy * dy`` a squared distance may still tie it when
summed as ``dx ** 2 + dy ** 2`` (the two differ by a few ulps): see ``nearest_enemy``."""


class Battle:
    """A battle in progress: setup, state, composition, dice and (optionally) a narrative."""

    __slots__ = (
        "_adj",
        "_arc_in",
        "_arc_out",
        "_at",
        "_boxes",
        "_dist",
        "_gone",
        "_gone_seen",
        "_held",
        "_last_roll",
        "_los_at",
        "_los_ok",
        "_next",
        "_seam_last",
        "_seams",
        "_seen_ok",
        "_seen_s",
        "_seen_t",
        "_side_ix",
        "_sver",
        "_ver",
        "comp",
        "geo",
        "journal",
        "kept",
        "lines",
        "luck",
        "memo",
        "narrate",
        "r",
        "rad",
        "roller",
        "scope",
        "setup",
        "state",
        "status",
        "watch",
    )

    def __init__(
        self,
        setup: Setup,
        state: State,
        roller: Roller,
        *,
        narrate: bool = False,
    ):
        self.setup = setup
        self.state = state
        comp = self.comp = setup.comp
        # the sequence's ``at``, looked up once: the cursor is read several times a decision
        self._at: Callable[[Battle, int], Phase | None] = comp.sequence.at
        # the phase ``_advance`` just found at the new cursor, taken by ``next_request``'s
        # loop at once (nothing runs between): one call of ``at`` per phase, not two
        self._next: Phase | None = None
        # the phase of the decision ``next_request`` last returned, until it is applied (the
        # menus and ``apply`` read the cursor again; nothing changes it in between)
        self._held: Phase | None = None
        self.roller = roller
        self.narrate = narrate
        self.lines: list[str] = []
        self.r: Any = comp.combat.data  # the combat module's rules data, for its own steps
        self.geo = comp.combat.geometry
        # in_arc's sure bounds on |lateral| / forward: tan of the arc less and more a
        # margin far above rounding (-1.0: no short cut, an arc of 89 degrees or more)
        arc = float(self.geo.get("fire_arc_degrees", 90.0))
        t = math.tan(math.radians(arc)) if 0.0 < arc < 89.0 else -1.0
        self._arc_in = t * (1.0 - 1e-9)
        self._arc_out = t * (1.0 + 1e-9)
        self.status = comp.status
        self.scope: frozenset[int] | None = None  # the units the current phase is limited to
        self._boxes: list[Box | None] = []
        self.rad: list[float] = []  # radius of each unit's base circle, kept current
        self._ver: list[int] = []  # per unit: bumped by changed()
        self._sver: list[int] = []  # per side: bumped when any of its units changes
        self._side_ix: list[int] = []  # per unit: its side's place in ``_sver``
        self._dist: dict[tuple[int, int], tuple[int, int, float]] = {}
        self._adj: list[list[int]] | None = None  # who touches whom, kept exact
        # sight lines per (firer, target) pair, flat (firer * units + target): the stamp
        # (target's version, firer's side's version) it was worked out at, and the answer
        self._seen_t: list[int] = []
        self._seen_s: list[int] = []
        self._seen_ok: list[bool] = []
        # the terrain's part of a pair's sight line (flat as above): the line's ends it was
        # worked out for, and the answer (a friendly base that moves leaves it standing)
        self._los_at: list[tuple[float, float, float, float] | None] = []
        self._los_ok: list[bool] = []
        self._seams: dict[int, tuple[Any, Any, Any, Any]] = {}  # see seams()
        self._seam_last: tuple[Any, Any, Any, Any] | None = None  # the last step's
        self._gone = 0  # bumped by changed() for a unit off the table (see _advance)
        self._gone_seen = -1  # _gone when the end of the battle was last checked
        self.memo: dict[Any, Any] = {}  # rule modules: answers valid until any change
        self.kept: dict[Any, Any] = {}  # rule modules: answers stamped with unit versions
        # the conformance suite's observer (umpire.battle.invariants.Watch): called around
        # every step; None in play, so the hot path pays one test per step
        self.watch: Any = None
        # the luck tallies (umpire.dice.luck): None in play, so a ruling pays one test per
        # roll; a list when an after-action report replays the battle (see note)
        self.luck: list[Tally] | None = None
        # the saved path's recorder (umpire.battle.changes.Journal): each change operation
        # below logs what it changed through it; None on the fast path (one test per change)
        self.journal: Journal | None = None
        self._last_roll: tuple[str, tuple[int, ...]] = ("", ())
        self.dirty()

    # -- narrative ---------------------------------------------------------------
    def say(self, text: str) -> None:
        """Add a narrative line (kept only when narrating)."""
        if self.narrate:
            self.lines.append(text)

    def roll(self, n: int, sides: int, purpose: str) -> list[int]:
        """Draw dice from the game's source (recorded by the fast path's Recorder)."""
        out = self.roller.dice(n, sides, purpose)
        if self.luck is not None:
            self._last_roll = (purpose, tuple(out))
        return out

    def dice_words(self) -> bool:
        """Are the words of a roll's purpose read? Not on the fast path drawing from a
        seeded stream with no luck report kept (its ``Recorder`` keeps only the faces): a
        ruling may then pass "" and skip making them (the same faces are drawn). Real
        dice, scripted faces, a saved game and the luck report read them."""
        roller = self.roller
        return self.luck is not None or type(roller) is not Recorder or roller.stream is None

    def note(self, side: str, kind: str, score: int, dist: Dist) -> None:
        """What the last roll meant, for the luck report (issue 24): ``score`` of ``kind``
        for ``side`` (higher is better for it), with its exact distribution ``dist``.

        Kept only while ``luck`` is a list; a ruling tests ``b.luck is not None`` before
        working out ``dist``, so play pays nothing. The dice are untouched."""
        if self.luck is not None:
            purpose, faces = self._last_roll
            self.luck.append(Tally(side, kind, score, dist, purpose, faces, self.state.turn))

    def pick(self, labels: Sequence[str], purpose: str, *, cup: bool = False) -> int:
        """A uniform random pick among ``labels``: its index (a card, a unit "at random").

        Digital dice roll one d``n``; a game at a table with real dice picks the table's way
        (one d6 up to six, else a cup; ``cup``: always drawn, as cards from a box).
        """
        roller = self.roller
        if type(roller) is Recorder:  # the fast path's dice have no table's way: no look-up
            return roller.dice(1, len(labels), purpose)[0] - 1
        table_pick = getattr(roller, "pick", None)
        if table_pick is not None:
            return int(table_pick(labels, purpose, cup))
        return roller.dice(1, len(labels), purpose)[0] - 1

    # -- the cursor ----------------------------------------------------------------
    def sides(self) -> tuple[str, ...]:
        """The sides in the order they act this turn (side A first)."""
        return self.comp.sequence.sides(self)

    def phase(self) -> Phase:
        """The phase at the cursor (the sequence always has one inside a turn)."""
        ph = self._held
        if ph is not None:
            self.scope = ph[3]
            return ph
        ph = self._at(self, self.state.seq)
        if ph is None:  # pragma: no cover - _advance never leaves the cursor past a turn
            raise IllegalActionError("the turn is over")
        self.scope = ph[3]  # ph.units, by index: a NamedTuple's field is a generic look-up
        return ph

    def current(self) -> tuple[str, str, Step]:
        """(side, step name, step) at the cursor."""
        ph = self.phase()
        return ph.side, ph.name, ph.step

    def next_request(self) -> Request | None:
        """Run automatic steps until a decision is needed; None when the battle is over."""
        st = self.state
        while not st.over:
            ph = self._next
            if ph is None:
                ph = self.phase()
            else:
                self._next = None
                self.scope = ph[3]  # as phase() does
            side, name, step, units = ph
            if st.pos < 0:
                if not step.kind:
                    w = self.watch
                    if w is not None:
                        w.begin(self)
                        step.auto(self, side)
                        w.end(self, side, name, "", None, None)
                    else:
                        step.auto(self, side)
                    self._advance()
                    continue
                w = self.watch
                if w is not None:  # what a step does as it begins is a step of its own
                    w.begin(self)
                    actors = step.actors(self, side)
                    w.end(self, side, name, "", None, None)
                else:
                    actors = step.actors(self, side)
                if units is not None:
                    actors = self.in_scope(step.kind, actors, units)
                st.actors = actors
                st.pos = 0
            actors = st.actors
            pos = st.pos
            if pos < len(actors):
                eligible = step.eligible  # looked up once for the actors passed over
                while pos < len(actors) and not eligible(self, actors[pos]):
                    pos += 1
                    st.pos = pos
            if pos < len(actors):
                who = self.seams(step)[1]
                # tuple.__new__: a NamedTuple's own __new__ is an interpreted function
                req = (step.kind, who(self, side) if who else side, st.actors[st.pos], name)
                self._held = ph
                return tuple.__new__(Request, req)
            self._advance()
        return None

    def seams(self, step: Step) -> tuple[Any, Any, Any, Any]:
        """(step, its ``who``, ``options``, ``offers``): the optional seams a step may give
        (``umpire.battle.roles.ChoosingStep``), each None when it has none. Looked up once
        per step and battle: asking an object for a missing attribute raises and catches
        an error, at every decision. The last step's are kept at hand: a decision asks
        three times (the request, the menu, the order)."""
        last = self._seam_last
        if last is not None and last[0] is step:
            return last
        hit = self._seams.get(id(step))
        if hit is None or hit[0] is not step:
            hit = self._seams[id(step)] = (
                step,
                getattr(step, "who", None),
                getattr(step, "options", None),
                getattr(step, "offers", None),
            )
        self._seam_last = hit
        return hit

    def in_scope(self, kind: str, actors: list[int], units: frozenset[int]) -> list[int]:
        """The actors a scoped phase keeps: its units, or the leaders of its units."""
        if kind == "leader":
            us = self.state.units
            lead = {us[i].leader for i in units}
            return [a for a in actors if a in lead]
        return [a for a in actors if a in units]

    def apply(self, req: Request, order: Sequence[Any]) -> None:
        """Carry out the decision for ``req`` (which must be the pending one); the step is
        handed ``order`` as a typed record (``umpire.battle.orders.as_order``)."""
        typed = as_order(order)
        st = self.state
        side, _name, step = self.current()
        self._held = None  # the step may change what the sequence reads
        if st.pos < 0 or st.pos >= len(st.actors) or st.actors[st.pos] != req.actor:
            raise IllegalActionError("that decision is not the one pending")
        who = self.seams(step)[1]
        if who is not None:
            side = who(self, side)
        w = self.watch
        if w is not None:
            w.begin(self)
            step.apply(self, side, req.actor, typed)
            w.end(self, side, _name, step.kind, req.actor, typed)
        else:
            step.apply(self, side, req.actor, typed)
        st.pos += 1

    def _advance(self) -> None:
        st = self.state
        self._held = None
        st.pos = -1
        st.actors = []
        if self._gone != self._gone_seen:  # the break points read only who is left
            self._gone_seen = self._gone
            end_check(self)
        if st.over:
            return
        st.seq += 1
        ph = self._at(self, st.seq)
        if ph is not None:
            self._next = ph
        else:
            st.seq = 0
            st.turn += 1
            if st.turn > self.setup.turns:
                st.turn = self.setup.turns
                final(self)

    # -- geometry over the current state -------------------------------------------
    # The hot path asks the same questions many times between two changes of the
    # board (every fire decision asks who touches whom, how far, who sees whom), so the
    # answers are kept: ``changed(u)`` forgets those that involve unit ``u`` (it moved,
    # changed size or left), ``dirty()`` forgets everything. Everything is plain
    # floats one pair at a time (numpy's per-call overhead is far larger than the
    # arithmetic for a few dozen bases), with cheap bounding-circle pre-filters.
    def dirty(self) -> None:
        """Forget all cached geometry (after changes made behind the battle's back)."""
        n = len(self.state.units)
        self._boxes = [None] * n
        self.rad = [_hypot(u.hw, u.hd) for u in self.state.units]
        self._ver = [0] * n
        place: dict[str, int] = {s: k for k, s in enumerate(SIDES)}
        self._side_ix = [place.setdefault(u.side, len(place)) for u in self.state.units]
        self._sver = [0] * len(place)
        self._dist = {}
        self._seen_t = [-1] * (n * n)
        self._seen_s = [-1] * (n * n)
        self._seen_ok = [False] * (n * n)
        self._los_at = [None] * (n * n)
        self._los_ok = [False] * (n * n)
        self._adj = None
        self._gone_seen = -1  # units may have left behind the battle's back
        self._held = None  # the cursor may have moved too
        self.memo.clear()
        self.kept.clear()  # the versions start again from 0

    def stale(self) -> list[str]:
        """The cached geometry that no longer matches the state (a base's radius, its box,
        the contact lists): each a unit that changed without :meth:`changed` being told.
        Empty when the caches are current; the engine's ``caches-current`` invariant."""
        out: list[str] = []
        adj = self._adj
        for u in self.state.units:
            i = u.i
            r = _hypot(u.hw, u.hd)
            if self.rad[i] != r:
                out.append(f"{u.name}'s base radius is kept as {self.rad[i]:.2f}, not {r:.2f}")
            b = self._boxes[i]
            if b is not None and b != (u.x, u.y, math.cos(u.theta), math.sin(u.theta), u.hw, u.hd):
                out.append(f"{u.name}'s base is kept where it no longer is")
            if adj is not None and u.alive:
                tol = self.geo["contact"]
                fresh = [
                    v.i
                    for v in self.state.units
                    if v.alive
                    and v.side != u.side
                    and _hypot(v.x - u.x, v.y - u.y) <= r + _hypot(v.hw, v.hd) + tol + 1e-6
                    and box_distance(self.fresh_box(u), self.fresh_box(v)) <= tol
                ]
                if sorted(adj[i]) != fresh:
                    out.append(f"{u.name}'s contacts are kept as {sorted(adj[i])}, not {fresh}")
        return out

    @staticmethod
    def fresh_box(u: Unit) -> Box:
        """``u``'s base as the state gives it now (no cache)."""
        return (u.x, u.y, math.cos(u.theta), math.sin(u.theta), u.hw, u.hd)

    def versions(self) -> list[int]:
        """Each unit's version, bumped by :meth:`changed` (read only): a rule module stamps
        an answer about a few units with theirs and keeps it in ``kept`` across changes of
        the others (``memo`` forgets everything at any change)."""
        return self._ver

    def changed(self, u: Unit) -> None:
        """Forget what involves ``u``: the change operations below call it after ``u`` moves,
        changes size or leaves (a module that changes a base itself calls it too).

        Distances and sight lines carry the versions of the units they depend on, so
        this is cheap; the contact lists are kept exact at once (``u``'s pairs only). On the
        saved path the unit is logged as it now is.
        """
        i = u.i
        log = self.journal
        if log is not None:
            log.unit(u)
        if not u.alive:
            self._gone += 1
        self._boxes[i] = None
        self.rad[i] = _hypot(u.hw, u.hd)
        self._ver[i] += 1
        self._sver[self._side_ix[i]] += 1
        self.memo.clear()
        adj = self._adj
        if adj is None:
            return
        for j in adj[i]:
            adj[j].remove(i)
        adj[i] = []
        if not u.alive:
            return
        tol = self.geo["contact"]
        rad = self.rad
        ru = rad[i]
        for v in self.state.units:
            if not v.alive or v.side == u.side:
                continue
            rv = rad[v.i]
            dx, dy = v.x - u.x, v.y - u.y
            lim_u = ru + tol + rv  # the tests of touching_box, from each side
            lim_v = rv + tol + ru
            lim = lim_u if lim_u >= lim_v else lim_v
            if dx * dx + dy * dy > lim * lim * SURELY + 1e-12:  # geometry.surely_beyond
                continue  # neither test below can pass
            d = _hypot(dx, dy)
            near_u = d <= lim_u
            near_v = d <= lim_v
            if (near_u or near_v) and self.dist(i, v.i) <= tol:
                if near_u:
                    adj[i].append(v.i)
                if near_v:
                    insort(adj[v.i], i)

    def box(self, u: Unit) -> Box:
        """``u``'s base as (x, y, cos, sin, hw, hd), cached until it changes."""
        b = self._boxes[u.i]
        if b is None:
            b = self._boxes[u.i] = (u.x, u.y, math.cos(u.theta), math.sin(u.theta), u.hw, u.hd)
        return b

    def radius(self, u: Unit) -> float:
        """The radius of the circle around ``u``'s base."""
        return self.rad[u.i]

    def dist(self, i: int, j: int) -> float:
        """Nearest-point distance between the bases of units ``i`` and ``j`` (cached)."""
        if i > j:
            i, j = j, i
        ver = self._ver
        hit = self._dist.get((i, j))
        if hit is not None and hit[0] == ver[i] and hit[1] == ver[j]:
            return hit[2]
        us = self.state.units
        d = box_distance(self.box(us[i]), self.box(us[j]))
        self._dist[i, j] = (ver[i], ver[j], d)
        return d

    def nearest_enemy(self, u: Unit) -> Unit | None:
        """The living enemy whose centre is nearest ``u``'s centre (the first on a tie).

        Nearest by ``dx ** 2 + dy ** 2`` (the rules' own sum): worked out only for a unit
        whose ``dx * dx + dy * dy`` (cheaper, a few ulps away) comes within a margin of the
        best so far; one further off cannot be nearer, nor tie, and one nearer by more than
        the margin is nearer for sure."""
        best: Unit | None = None
        bd, bq = -1.0, math.inf  # (bd: the best's own sum, worked out when a tie needs it)
        ux, uy, side = u.x, u.y, u.side
        for v in self.state.units:
            if v.alive and v.side != side:
                dx, dy = v.x - ux, v.y - uy
                q = dx * dx + dy * dy
                if q * NEAR_TIE < bq:
                    best, bd, bq = v, -1.0, q
                elif q <= bq * NEAR_TIE and best is not None:
                    if bd < 0.0:
                        bd = math.pow(best.x - ux, 2.0) + math.pow(best.y - uy, 2.0)
                    d = math.pow(dx, 2.0) + math.pow(dy, 2.0)  # = dx ** 2 (native)
                    if d < bd:
                        best, bd, bq = v, d, q
        return best

    def advances(self, u: Unit, x: float, y: float) -> bool:
        """Whether a straight move of ``u`` to ``(x, y)`` comes nearer its nearest enemy at
        any point of the path (the ``no_advance`` test of the status modules).

        The distance to a point along a straight path is convex, so some point of the path
        is nearer than the start exactly when the move heads towards the enemy: a move that
        is stopped short (a wall's die, the table's edge) then cannot end nearer either."""
        en = self.nearest_enemy(u)
        if en is None:
            return False
        dx, dy = x - u.x, y - u.y
        ex, ey = en.x - u.x, en.y - u.y
        return dx * ex + dy * ey > 1e-9 * (math.hypot(dx, dy) * math.hypot(ex, ey) + 1.0)

    def alive(self, side: str | None = None) -> list[Unit]:
        """Living units, of one side or all."""
        return [u for u in self.state.units if u.alive and (side is None or u.side == side)]

    def enemies(self, u: Unit) -> list[int]:
        """Indexes of living enemy units."""
        return [v.i for v in self.state.units if v.alive and v.side != u.side]

    def dist_to(self, u: Unit, idx: Sequence[int]) -> list[float]:
        """Nearest-point distances from ``u``'s base to the bases ``idx``."""
        return [self.dist(u.i, j) for j in idx]

    def touching(self, u: Unit) -> list[int]:
        """Enemy units whose bases touch ``u``'s (default contact tolerance), in order."""
        adj = self._adj
        if adj is None:
            adj = self._adj = [
                self.touching_box(v, self.box(v), cached=True) if v.alive else []
                for v in self.state.units
            ]
        return adj[u.i]

    def touching_box(self, u: Unit, b: Box, *, cached: bool = False) -> list[int]:
        """Enemy units that would touch ``u`` if its base were ``b``."""
        tol = self.geo["contact"]
        x, y, _, _, hw, hd = b
        reach = _hypot(hw, hd) + tol
        rad = self.rad
        out = []
        for v in self.state.units:
            if not v.alive or v.side == u.side:
                continue
            dx, dy = v.x - x, v.y - y
            lim = reach + rad[v.i]
            if dx * dx + dy * dy > lim * lim * SURELY + 1e-12:  # geometry.surely_beyond
                continue
            if (
                _hypot(dx, dy) <= lim
                and (self.dist(u.i, v.i) if cached else box_distance(b, self.box(v))) <= tol
            ):
                out.append(v.i)
        return out

    def touching_at(self, u: Unit, x: float, y: float, theta: float, hw: float, hd: float) -> bool:
        """Would ``u`` touch an enemy with its base at (x, y, theta)? :meth:`touching_box`'s
        answer as a yes/no, its base made only when an enemy is near (every move tested)."""
        tol = self.geo["contact"]
        rad = self.rad
        reach = (rad[u.i] if hw == u.hw and hd == u.hd else _hypot(hw, hd)) + tol
        side = u.side
        for v in self.state.units:
            if not v.alive or v.side == side:
                continue
            dx, dy = v.x - x, v.y - y
            lim = reach + rad[v.i]
            if dx * dx + dy * dy > lim * lim * SURELY + 1e-12:  # geometry.surely_beyond
                continue
            if _hypot(dx, dy) <= lim:
                b = (x, y, math.cos(theta), math.sin(theta), hw, hd)
                if box_distance(b, self.box(v)) <= tol:
                    return True
        return False

    def in_arc(self, u: Unit, v: Unit) -> bool:
        """Is ``v``'s centre within the fire arc of ``u`` (default ``fire_arc``)?"""
        fwd, lat = local(u.x, u.y, u.theta, v.x, v.y)
        if fwd <= 0:
            return False
        side = abs(lat)
        if self._arc_in > 0.0:  # settled by the tangent, for sure, but near the arc's edge
            if side <= fwd * self._arc_in:
                return True
            if side >= fwd * self._arc_out:
                return False
        return _atan2(side, fwd) * _RAD_TO_DEG <= self.geo["fire_arc_degrees"]

    def sees(self, u: Unit, t: Unit) -> bool:
        """Line of sight from ``u`` to ``t``: terrain, then friendly bases; cached."""
        k = u.i * len(self._ver) + t.i
        vt = self._ver[t.i]
        vs = self._sver[self._side_ix[u.i]]
        if self._seen_t[k] == vt and self._seen_s[k] == vs:
            return self._seen_ok[k]
        # Friendly bases first: they block most lines that are blocked, and their test is
        # far cheaper than the terrain walk (the answer is the same: both must be clear).
        x0, y0, x1, y1 = u.x, u.y, t.x, t.y
        lo_x, hi_x = (x0, x1) if x0 < x1 else (x1, x0)
        lo_y, hi_y = (y0, y1) if y0 < y1 else (y1, y0)
        rad = self.rad
        ok = True
        for v in self.state.units:
            if not v.alive or v.side != u.side or v.i == u.i:
                continue
            r = rad[v.i]
            if v.x + r < lo_x or v.x - r > hi_x or v.y + r < lo_y or v.y - r > hi_y:
                continue
            if segment_hits_box(x0, y0, x1, y1, self.box(v)):
                ok = False
                break
        if ok:  # the terrain's answer for this pair, kept while neither end moves
            at = self._los_at[k]
            if at is not None and at[0] == x0 and at[1] == y0 and at[2] == x1 and at[3] == y1:
                ok = self._los_ok[k]
            else:
                ok = self.setup.board.sight_clear(x0, y0, x1, y1)
                self._los_at[k] = (x0, y0, x1, y1)
                self._los_ok[k] = ok
        self._seen_t[k] = vt
        self._seen_s[k] = vs
        self._seen_ok[k] = ok
        return ok

    def sight(self, u: Unit, targets: Sequence[int]) -> list[bool]:
        """Line of sight from ``u`` to each target (see :meth:`sees`)."""
        us = self.state.units
        return [self.sees(u, us[t]) for t in targets]

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
        c, s = math.cos(theta), math.sin(theta)
        board = self.setup.board
        if not on_table(x, y, c, s, hw, hd, board.width, board.height):
            return False
        # _overlapping's loop written out (the hot path of every move tested)
        rad = self.rad
        # (the base's own radius: kept in rad when it is the unit's base, as most are)
        reach = (rad[u.i] if hw == u.hw and hd == u.hd else _hypot(hw, hd)) + 1e-6
        ui = u.i
        boxes = self._boxes
        for v in self.state.units:
            vi = v.i
            if not v.alive or vi == ui:
                continue
            dx, dy = v.x - x, v.y - y
            lim = reach + rad[vi]
            if dx * dx + dy * dy >= lim * lim or vi in ignore:
                continue
            bv = boxes[vi]
            if bv is None:
                bv = self.box(v)
            if overlap_at(x, y, c, s, hw, hd, bv):
                return False
        return True

    def bases_at(self, u: Unit, x: float, y: float, theta: float) -> list[Unit]:
        """The living units whose bases ``u``'s base would overlap at (x, y, theta): who a
        move or a retreat runs into (a collision, for the modules that rule on one)."""
        return list(self._overlapping(u, (x, y, math.cos(theta), math.sin(theta), u.hw, u.hd)))

    def _overlapping(self, u: Unit, b: Box, ignore: Sequence[int] = ()) -> Iterator[Unit]:
        """Every other living unit whose base overlaps box ``b`` (bounding circles first)."""
        reach = _hypot(b[4], b[5]) + 1e-6
        rad = self.rad
        x, y = b[0], b[1]
        for v in self.state.units:
            if not v.alive or v.i == u.i:
                continue
            r = rad[v.i]
            dx, dy = v.x - x, v.y - y
            lim = reach + r
            if dx * dx + dy * dy >= lim * lim or v.i in ignore:
                continue  # the bounding circles do not meet
            if box_overlap(b, self.box(v)):
                yield v

    def crosses_enemy(self, u: Unit, x: float, y: float) -> bool:
        """Does the straight path of ``u``'s centre to (x, y) cross an enemy base?"""
        x0, y0 = u.x, u.y
        lo_x, hi_x = (x0, x) if x0 < x else (x, x0)
        lo_y, hi_y = (y0, y) if y0 < y else (y, y0)
        rad = self.rad
        for v in self.state.units:
            if not v.alive or v.side == u.side:
                continue
            r = rad[v.i]
            if v.x + r < lo_x or v.x - r > hi_x or v.y + r < lo_y or v.y - r > hi_y:
                continue
            if segment_hits_box(x0, y0, x, y, self.box(v)):
                return True
        return False

    # -- change operations ------------------------------------------------------------
    # What changes a base goes through these: each makes the change, forgets the cached
    # answers it spoils (``changed``) and, on the saved path, logs the unit and the
    # leaders it touched through ``journal`` as engine changes, as they happen. The fast
    # path pays one test of ``journal`` per change.
    def place(self, u: Unit, x: float, y: float, theta: float | None = None) -> None:
        """Move a unit's base (and an attached leader with it)."""
        u.x, u.y = x, y
        if theta is not None:
            u.theta = theta
        log = self.journal
        for ld in self.state.leaders:
            if ld.alive and ld.attached == u.i:
                ld.x, ld.y = x, y
                if log is not None:
                    log.leader(ld)
        self.changed(u)

    def reshape(
        self,
        u: Unit,
        *,
        stands: int = -1,
        formation: str = "",
        mounted: bool | None = None,
        limbered: bool | None = None,
    ) -> None:
        """Give ``u`` another number of stands (``stands`` >= 0), formation, mount or limber
        (those given), and the base they make, about its centre."""
        if stands >= 0:
            u.stands = stands
        if formation:
            u.formation = formation
        if mounted is not None:
            u.mounted = mounted
        if limbered is not None:
            u.limbered = limbered
        u.resize()
        self.changed(u)

    def take_off(self, u: Unit) -> None:
        """Take ``u`` off the table; a leader attached to it is detached where he stands."""
        u.alive = False
        log = self.journal
        for ld in self.state.leaders:
            if ld.attached == u.i:
                ld.attached = -1
                if log is not None:
                    log.leader(ld)
        self.changed(u)

    def record(self, u: Unit) -> None:
        """After a change to ``u`` that spoils no cached answer (its marker, its flags, its
        ``extra``): on the saved path, log it as it now is (the fast path does nothing)."""
        log = self.journal
        if log is not None:
            log.unit(u)

    def record_leader(self, ld: Leader) -> None:
        """After a change to leader ``ld``: on the saved path, log him as he now is."""
        log = self.journal
        if log is not None:
            log.leader(ld)

    def set_fx(self, u: Unit, key: FxKey, value: Any, why: str = "") -> None:
        """Put unit effect ``key`` on ``u`` (``umpire.battle.effects``; ``why`` "" keeps the
        earlier reason): logged on the saved path; ``memo`` forgets (menus read effects;
        not the ``effects.MARKS``, a sequence's bookkeeping that no cached answer reads)."""
        put_fx(u, key, value, why)
        if key not in MARKS:
            self.memo.clear()
        log = self.journal
        if log is not None:
            log.unit(u)

    def clear_fx(self, u: Unit, *keys: FxKey) -> bool:
        """Take effects off ``u`` (all of them when no key is given); True if it had any
        of them, and then, as :meth:`set_fx`, logged with ``memo`` forgotten."""
        if not take_fx(u, keys):
            return False
        if not keys or any(k not in MARKS for k in keys):
            self.memo.clear()
        log = self.journal
        if log is not None:
            log.unit(u)
        return True

    def restore(self, snapshot: dict[str, Any]) -> None:
        """Put the state back as ``snapshot`` (``State.to_json``) has it and forget every
        cached answer: a trial that is undone. On the saved path the units and leaders
        the undo changes are logged."""
        st = self.state
        log = self.journal
        was = st.to_json() if log is not None else None
        st.load_json(snapshot)
        self.dirty()
        if log is not None and was is not None:
            for u, old in zip(st.units, was["units"], strict=True):
                if u.to_json() != old:
                    log.unit(u)
            for ld, old in zip(st.leaders, was["leaders"], strict=True):
                if ld.to_json() != old:
                    log.leader(ld)

    def push_away(
        self, u: Unit, frm: Unit, dist: float, face_away: bool, ignore: Sequence[int] = ()
    ) -> bool:
        """Slide ``u`` straight away from ``frm`` (a retreat, a rout, a withdrawal), facing
        away or keeping its facing. False when it left the table (the caller removes it).
        ``ignore``: bases that do not stop it (003 leaves the base it fought behind)."""
        dx, dy = u.x - frm.x, u.y - frm.y
        n = _hypot(dx, dy) or 1.0
        dx, dy = dx / n, dy / n
        theta = _atan2(dy, dx) if face_away else u.theta
        return self.slide(u, dx, dy, dist, theta, ignore)

    def slide(
        self, u: Unit, dx: float, dy: float, dist: float, theta: float, ignore: Sequence[int] = ()
    ) -> bool:
        """Move ``u`` up to ``dist`` along (dx, dy) in half-inch steps, stopping before a base
        (not one in ``ignore``). Default ``blocked_retreat_stops``. False if it left the table.
        """
        step = self.geo["retreat_step"]
        n = max(1, math.ceil(dist / step))
        best = (u.x, u.y)
        board = self.setup.board
        for k in range(1, n + 1):
            d = min(dist, k * step)
            nx, ny = u.x + dx * d, u.y + dy * d
            if not (0 <= nx <= board.width and 0 <= ny <= board.height):
                return False
            if not self.free_at(u, nx, ny, theta, u.hw, u.hd, ignore):
                if not board.on_table(corners(nx, ny, theta, u.hw, u.hd)):
                    return False
                break
            best = (nx, ny)
        if (
            best == (u.x, u.y)
            and theta != u.theta
            and not self.free_at(u, u.x, u.y, theta, u.hw, u.hd, ignore)
        ):
            theta = u.theta  # blocked at once, and turning where it stands would overlap a base
        self.place(u, best[0], best[1], theta)
        return True
