"""Invariants: what must hold after every step of a battle, stated by the rule modules.

OpenSpiel's ``RandomSimTest`` plays random games and calls a game's state checker at
every state; this is the same for rules. Each role module may state its invariants and
the features (rules and tables) it has, through two optional methods of its
:class:`~umpire.battle.roles.RoleModule`::

    def invariants(self, comp: Composition) -> Sequence[Invariant]: ...
    def features(self, comp: Composition) -> Sequence[Feature]: ...

``comp`` tells the module which roles it fills in this battle (a module that is only the
combat role states only its combat invariants). An :class:`Invariant` cites its seed and
section and has a ``check(seen)`` run after every step of the battle (a decision applied,
or a step that runs by itself); it returns the violations it finds as texts naming the
unit and what is wrong (an empty list when all holds). :class:`StepSeen` is what the
check sees: the battle after the step, the step's side, name, kind, actor and order, the
state's JSON before and after, the narrative lines the step said and the dice it rolled
(``prior()`` rebuilds the battle as it stood before the step, for checks that need the
module's own functions on the earlier position, such as a move's allowance).

A :class:`Feature` counts how often a step used a rule or a table (``count(seen)``), so
that a large run can report what thousands of battles never reach.

The :class:`Watch` is what a battle calls around each step (``Battle.watch``); it runs
every invariant of the composition and counts its features. The engine's own invariants
(bases never overlap, a decision's actor is inside the phase's scope) are here too, so
every composition is held to them. ``umpire.lab.conformance`` plays battles with it.

To give a module its invariants: write ``rules/<module>/invariants.py`` with
``invariants(comp)`` and ``features(comp)`` (``rules/quick_acw/invariants.py`` is the
model: one small check per sentence of the seed, its section in ``cites``), add the two
methods to the module's role-module object (they import that file), and take the module
out of ``NOT_YET`` in ``tests/test_conformance_suite.py``; a fixed wrong ruling leaves
``KNOWN_OPEN`` there. Checks read; they never change the battle or roll a die.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from umpire.battle import orders as od
from umpire.battle.state import UNIT_JSON_FIELDS

if TYPE_CHECKING:
    from umpire.battle.engine import Battle
    from umpire.battle.roles import Composition


@dataclass(frozen=True, slots=True)
class Violation:
    """One invariant broken at one step: which, where, and what the check found."""

    invariant: str
    cites: str
    turn: int
    seq: int
    step: str
    text: str

    def __str__(self) -> str:
        return f"turn {self.turn} step {self.seq} ({self.step}): [{self.cites}] {self.text}"


@dataclass(slots=True)
class StepSeen:
    """What one step did, for the invariants and the feature counts."""

    battle: Battle
    turn: int
    seq: int
    side: str
    name: str
    kind: str
    actor: int | None
    """The unit (or leader, for ``leader`` decisions) asked; None for a step that runs by
    itself."""
    order: od.Order | None
    """The order given, as a typed record (a plain tuple given here is read into one)."""
    before: dict[str, Any]
    after: dict[str, Any]
    said: list[str]
    rolls: list[tuple[int, int, str, list[int]]]
    """(dice, sides, purpose, faces) of every roll the step made."""
    scope: frozenset[int] | None
    _prior: Battle | None = field(default=None, repr=False)

    def __post_init__(self) -> None:
        if self.order is not None:
            self.order = od.as_order(self.order)

    def prior(self) -> Battle:
        """The battle as it stood before this step (rebuilt from ``before``; no dice)."""
        if self._prior is None:
            from umpire.battle.engine import Battle
            from umpire.battle.setup import new_state

            b = self.battle
            state = new_state(b.setup.scenario, b.setup.comp)
            state.load_json(self.before)
            self._prior = Battle(b.setup, state, _NoDice())
        return self._prior

    def was(self, i: int, name: str) -> Any:
        """Field ``name`` of unit ``i`` before the step (``x``, ``marker``, ``mounted`` ...)."""
        return self.before["units"][i][_FIELD[name]]

    def now(self, i: int, name: str) -> Any:
        """Field ``name`` of unit ``i`` after the step."""
        return self.after["units"][i][_FIELD[name]]

    def moved(self, i: int) -> float:
        """How far unit ``i``'s centre moved in this step (straight line, inches)."""
        return math.hypot(self.now(i, "x") - self.was(i, "x"), self.now(i, "y") - self.was(i, "y"))

    def changed_units(self) -> list[int]:
        """The units whose JSON changed in this step."""
        a, z = self.before["units"], self.after["units"]
        return [i for i in range(len(z)) if a[i] != z[i]]

    def text(self) -> str:
        """The step's narrative as one string (for checks that look for words)."""
        return "\n".join(self.said)


_FIELD = {name: k for k, name in enumerate(UNIT_JSON_FIELDS)}

Check = Callable[[StepSeen], list[str]]


@dataclass(frozen=True, slots=True)
class Invariant:
    """What must hold after every step: an id, the seed section it rests on, a check."""

    id: str
    cites: str
    """The seed and its section, as ``002 MOVEMENT`` or ``004 RM-3``."""
    text: str
    check: Check


@dataclass(frozen=True, slots=True)
class Feature:
    """A rule or table whose use a large run counts (``count(seen)``: uses in the step)."""

    id: str
    cites: str
    text: str
    count: Callable[[StepSeen], int]


class _NoDice:
    """The roller of a rebuilt earlier position: it must never be asked for a die."""

    def dice(self, n: int, sides: int, purpose: str = "") -> list[int]:
        raise AssertionError(f"an invariant check rolled dice ({n}d{sides} {purpose})")


# -- the engine's own invariants ------------------------------------------------------


def _no_overlap(seen: StepSeen) -> list[str]:
    """Bases of units on the table never overlap (a move, retreat or rout stops short)."""
    from umpire.board.geometry import box_overlap

    b = seen.battle
    alive = [u for u in b.state.units if u.alive]
    boxes = [b.fresh_box(u) for u in alive]  # from the state, not the engine's caches
    rad = [math.hypot(u.hw, u.hd) for u in alive]
    out: list[str] = []
    for k, u in enumerate(alive):
        for m in range(k + 1, len(alive)):
            v = alive[m]
            if math.hypot(v.x - u.x, v.y - u.y) > rad[k] + rad[m] + 1e-6:
                continue  # the bounding circles do not meet
            if box_overlap(boxes[k], boxes[m], 1e-3):
                out.append(f"{u.name} and {v.name} overlap")
    return out


def _caches_current(seen: StepSeen) -> list[str]:
    """The engine's cached geometry (bases' radii and boxes, contacts) matches the state: a
    rule that changes a base without telling the engine would rule on where it was."""
    return seen.battle.stale()


def _actor_in_scope(seen: StepSeen) -> list[str]:
    """A decision is asked only of an actor the phase lets act (its scope: a drawn card)."""
    if seen.actor is None or seen.scope is None or seen.kind == "leader":
        return []
    if seen.kind in ("move", "fire") and seen.actor not in seen.scope:
        name = seen.battle.state.units[seen.actor].name
        return [f"{name} was asked to {seen.kind} outside the phase's units"]
    return []


def _actor_side(seen: StepSeen) -> list[str]:
    """A unit moves or fires only when its own side is asked (the sequence's side, or the
    side a step names as deciding)."""
    if seen.actor is None or seen.kind not in ("move", "fire"):
        return []
    u = seen.battle.state.units[seen.actor]
    if u.side != seen.side:
        return [f"{u.name} ({u.side}) was given a {seen.kind} order by {seen.side}"]
    return []


def _status_allows(seen: StepSeen) -> list[str]:
    """A unit's status allows what it was ordered to do: the status role's own answer
    (``may_fire``, ``move_limit``) before the step, for every status module (002's Morale
    Marker, 004's ladder, 003's routed, stalled and in-reaction marks)."""
    o = seen.order
    if seen.actor is None or not o or seen.kind not in ("move", "fire"):
        return []
    p = seen.prior()
    u = p.state.units[seen.actor]
    st = p.status
    label = st.label(u) or "its status"
    if o.kind == "fire" and not st.may_fire(p, u):
        return [f"{u.name} fired though {label} forbids it"]
    if seen.kind == "move" and o.kind in ("move", "charge"):
        limit = st.move_limit(p, u)
        went = o.kind == "charge" or seen.moved(seen.actor) > 1e-3
        if limit in ("none", "rally") and went:
            return [f"{u.name} made a {o.kind} though {label} forbids it ({limit})"]
        if limit == "no_advance" and o.kind == "charge":
            return [f"{u.name} charged though {label} forbids an advance"]
    return []


def _stands_sane(seen: StepSeen) -> list[str]:
    """Stands are never negative and never more than the unit began with."""
    return [
        f"{u.name} has {u.stands} stands (began with {u.stands0})"
        for u in seen.battle.state.units
        if u.stands < 0 or u.stands > u.stands0
    ]


CORE: tuple[Invariant, ...] = (
    Invariant("caches-current", "engine", "the cached geometry matches the state", _caches_current),
    Invariant("no-overlap", "engine", "bases on the table never overlap", _no_overlap),
    Invariant("actor-in-scope", "engine", "only the phase's units are asked", _actor_in_scope),
    Invariant("actor-side", "engine", "a side orders only its own units", _actor_side),
    Invariant("status-allows", "status role", "a unit's status allows its order", _status_allows),
    Invariant("stands", "engine", "0 <= stands <= the stands a unit began with", _stands_sane),
)
"""Invariants of the engine itself, held by every composition."""


def module_invariants(comp: Composition) -> list[tuple[str, Invariant]]:
    """(module id, invariant) for every module of ``comp`` that states invariants."""
    out: list[tuple[str, Invariant]] = [("engine", inv) for inv in CORE]
    for mid, m in comp.modules.items():
        fn = getattr(m, "invariants", None)
        if fn is not None:
            out.extend((mid, inv) for inv in fn(comp))
    return out


def module_features(comp: Composition) -> list[tuple[str, Feature]]:
    """(module id, feature) for every module of ``comp`` that names its features."""
    out: list[tuple[str, Feature]] = []
    for mid, m in comp.modules.items():
        fn = getattr(m, "features", None)
        if fn is not None:
            out.extend((mid, f) for f in fn(comp))
    return out


class Watch:
    """Runs every invariant of a battle's composition after each step; counts features.

    Set it as ``battle.watch``; the battle calls :meth:`begin` before a step and
    :meth:`end` after it. The battle must narrate (the checks read what was said) and
    its roller should be a :class:`Tap` (the checks read the dice each step rolled).
    """

    def __init__(self, comp: Composition, *, stop_at_first: bool = False):
        self.invariants = module_invariants(comp)
        self.features = module_features(comp)
        self.violations: list[Violation] = []
        self.counts: Counter[str] = Counter()
        self.steps = 0
        self.stop_at_first = stop_at_first
        self._open: set[tuple[str, str]] = set()  # violations standing at the last step
        self._before: dict[str, Any] = {}
        self._lines = 0
        self._rolls = 0

    def begin(self, b: Battle) -> None:
        """Remember the state before the step."""
        self._before = b.state.to_json()
        self._lines = len(b.lines)
        tap = b.roller
        self._rolls = len(tap.log) if isinstance(tap, Tap) else 0

    def end(
        self, b: Battle, side: str, name: str, kind: str, actor: int | None, order: Any
    ) -> None:
        """Check every invariant after the step and count the features it used."""
        st = b.state
        tap = b.roller
        seen = StepSeen(
            battle=b,
            turn=st.turn,
            seq=st.seq,
            side=side,
            name=name,
            kind=kind,
            actor=actor,
            order=order,
            before=self._before,
            after=st.to_json(),
            said=b.lines[self._lines :],
            rolls=tap.log[self._rolls :] if isinstance(tap, Tap) else [],
            scope=b.scope,
        )
        self.steps += 1
        standing: set[tuple[str, str]] = set()
        for mid, inv in self.invariants:
            for text in inv.check(seen):
                key = (f"{mid}:{inv.id}", text)
                standing.add(key)
                if key in self._open:
                    continue  # a broken state that lasts is reported once, where it began
                v = Violation(key[0], inv.cites, seen.turn, seen.seq, name, text)
                self.violations.append(v)
                if self.stop_at_first:
                    raise AssertionError(str(v))
        self._open = standing
        for mid, f in self.features:
            n = f.count(seen)
            if n:
                self.counts[f"{mid}:{f.id}"] += n


class Tap:
    """A roller that keeps (dice, sides, purpose, faces) of every roll and every face."""

    def __init__(self, source: Any):
        self.source = source
        self.log: list[tuple[int, int, str, list[int]]] = []
        self.faces: list[int] = []

    def dice(self, n: int, sides: int, purpose: str = "") -> list[int]:
        """Draw from the source and keep the roll."""
        got = list(self.source.dice(n, sides, purpose))
        self.log.append((n, sides, purpose, got))
        self.faces.extend(got)
        return got


def roll_count(*words: str) -> Callable[[StepSeen], int]:
    """A feature counter: the step's rolls whose purpose contains one of ``words``."""

    def count(seen: StepSeen) -> int:
        return sum(1 for r in seen.rolls if any(w in r[2] for w in words))

    return count


def order_count(*kinds: str) -> Callable[[StepSeen], int]:
    """A feature counter: 1 when the step's order is of one of ``kinds`` (its first word)."""

    def count(seen: StepSeen) -> int:
        o = seen.order
        return 1 if o and o.kind in kinds else 0

    return count


def order_change(*changes: str) -> Callable[[StepSeen], int]:
    """A feature counter: 1 when the step's order is a ``move`` whose formation change (its
    fifth element) is one of ``changes``."""

    def count(seen: StepSeen) -> int:
        o = seen.order
        return 1 if isinstance(o, od.Move) and o.change in changes else 0

    return count


def said_count(*words: str) -> Callable[[StepSeen], int]:
    """A feature counter: the step's narrative lines that contain one of ``words``."""

    def count(seen: StepSeen) -> int:
        return sum(1 for line in seen.said if any(w in line for w in words))

    return count


__all__ = [
    "CORE",
    "Feature",
    "Invariant",
    "StepSeen",
    "Tap",
    "Violation",
    "Watch",
    "module_features",
    "module_invariants",
    "order_change",
    "order_count",
    "roll_count",
    "said_count",
]
