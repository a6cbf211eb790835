"""The seams of the tactical engine: the five roles a rule module can fill.

A battle is run by a :class:`Composition` of five roles, each filled by a rule module
that the scenario names in its ``[rules]`` table (docs/engine-api.md):

- **sequence**: the steps of a turn, who acts in each and in what order;
- **combat**: command, movement, fire, charges and melee, each with exact odds;
- **status**: morale markers or a status ladder: what a hit or a failed test does;
- **morale**: the morale test every other role asks for (a charge test, a stand, a rally);
- **events**: things that happen at named points of the turn.

The core (this package, ``umpire.ai``, ``umpire.lab``, ``umpire.cli``) talks to these
protocols only; a module's internals stay behind them (held by import-linter).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol

from umpire.battle import orders as od
from umpire.battle.menus import Choice as Choice
from umpire.battle.menus import ChoiceKind as ChoiceKind
from umpire.battle.menus import Offer as Offer
from umpire.battle.menus import Order as Order
from umpire.battle.menus import choices as choices
from umpire.battle.menus import combat_offers as combat_offers
from umpire.battle.menus import offered as offered
from umpire.battle.menus import offers as offers

if TYPE_CHECKING:
    from umpire.battle.engine import Battle
    from umpire.battle.state import Unit
    from umpire.rules.labels import Labelled

ROLES = ("sequence", "combat", "status", "morale", "events")
"""The roles a composition fills, in the order a scenario's ``[rules]`` names them."""


class Request(NamedTuple):
    """A decision the engine needs: which kind, for which side, which actor, in which step."""

    kind: str
    side: str
    actor: int
    step: str


class Step(Protocol):
    """One step of a turn, made by the role that owns it.

    ``kind`` is ``""`` for a step that runs by itself (melee, rally, events, a card
    draw), else the kind of decision it asks of each actor (``leader``, ``move``,
    ``fire``).
    """

    kind: str

    def actors(self, b: Battle, side: str) -> list[int]:
        """The actors to ask, fixed when the step begins."""
        ...

    def eligible(self, b: Battle, actor: int) -> bool:
        """May this actor still act now (alive, not removed meanwhile, has a target)?"""
        ...

    def apply(self, b: Battle, side: str, actor: int, order: od.Order) -> None:
        """Validate and carry out one decision (a typed record, made by the engine);
        raise IllegalActionError to refuse."""
        ...

    def auto(self, b: Battle, side: str) -> None:
        """Run a step that needs no decision."""
        ...


class AutoStep:
    """A step the rules carry out alone: it asks nobody, so it has no actors or orders.

    Subclasses give ``auto(b, side)``.
    """

    kind = ""

    def actors(self, b: Battle, side: str) -> list[int]:
        """Nobody is asked."""
        return []

    def eligible(self, b: Battle, actor: int) -> bool:
        """Nobody is asked."""
        return False

    def apply(self, b: Battle, side: str, actor: int, order: Order) -> None:  # pragma: no cover
        """Never called: the step asks nothing."""
        raise NotImplementedError

    def auto(self, b: Battle, side: str) -> None:  # pragma: no cover
        """What the step does."""
        raise NotImplementedError


class ChoosingStep(Step, Protocol):
    """A step that asks its own kind of decision (an event's "the player chooses").

    Policies take its ``options`` instead of the combat role's; ``who`` names the side
    that decides when it is not the phase's side (the event's player).
    """

    def options(self, b: Battle, req: Request) -> list[Choice]:
        """The choices offered, in words."""
        ...

    def who(self, b: Battle, side: str) -> str:
        """The side that decides now."""
        ...


class Phase(NamedTuple):
    """Where the cursor stands: the acting side, the step's name and object, its scope.

    ``units`` limits the step to those units (a drawn card's), None for every unit.
    """

    side: str
    name: str
    step: Step
    units: frozenset[int] | None = None


class SequenceRole(Protocol):
    """The steps of a turn and who acts in each (a fixed side order, or card draws)."""

    id: str

    def sides(self, b: Battle) -> tuple[str, ...]:
        """The sides in the order they act this turn (side A first)."""
        ...

    def at(self, b: Battle, seq: int) -> Phase | None:
        """The phase at position ``seq`` of the current turn; None once the turn is over."""
        ...


class FixedTurn:
    """A sequence whose turn is one list of phases, made once when it binds.

    Subclasses set ``order`` (the sides, side A first) and fill ``phases`` in ``bind``;
    the sides and the phase at a position follow (seed 002's, 004's five steps, 003's XII).
    """

    id: str

    def __init__(self, order: tuple[str, ...]):
        self.order = order
        self.phases: list[Phase] = []

    def sides(self, b: Battle) -> tuple[str, ...]:
        """The sides in the order they act (side A first)."""
        return self.order

    def at(self, b: Battle, seq: int) -> Phase | None:
        """The phase at ``seq``; None past the end of the turn."""
        return self.phases[seq] if seq < len(self.phases) else None


class CombatRole(Protocol):
    """Command, movement, fire, charge and melee: rules and their exact odds."""

    id: str
    data: Any
    """The module's rules data (``Battle.r``), passed back to its own steps."""
    geometry: Mapping[str, float]
    """``contact``, ``fire_arc_degrees``, ``retreat_step``, ``woods_see_through`` (inches)."""
    bases: Mapping[str, tuple[float, float]]
    """Stand width and depth per troop type (inches)."""
    formations: tuple[str, ...]
    """The formations a scenario may give a unit; a base is a line's unless in column."""

    def step(self, kind: str, **params: Any) -> Step | None:
        """The step of ``kind`` (``command``, ``move``, ``fire``, ``melee``) with options;
        None when the module has no such step (seed 003 has no command step)."""
        ...

    def leader_rating(self, side: str, leader_id: str) -> tuple[int, float]:
        """(bonus, command radius) of a leader the scenario does not rate."""
        ...

    def options(self, b: Battle, req: Request) -> list[Choice]:
        """The legal orders for a pending request, in words, with exact odds."""
        ...

    # Services other roles use (a status ladder moves and thins units by the combat's rules).
    def lose_stands(self, b: Battle, u: Unit, n: int, cause: str) -> None:
        """Take ``n`` stands off ``u`` with the combat's consequences (leaders, removal)."""
        ...

    def move_rate(self, b: Battle, u: Unit) -> float:
        """A full move of ``u`` in open ground as it stands now (inches)."""
        ...

    def reach(self, b: Battle, u: Unit) -> float:
        """The longest range at which ``u`` can fire now (0 when it cannot fire)."""
        ...

    def displace(
        self, b: Battle, u: Unit, frm: Unit, inches: float, face_away: bool, why: str
    ) -> None:
        """Move ``u`` straight away from ``frm`` (a retreat or rout); off the table removes it."""
        ...

    def check(self, b: Battle, req: Request, order: Order) -> None:
        """Refuse an illegal order with IllegalActionError and its reason, changing nothing."""
        ...


class StatusRole(Protocol):
    """What hits and failed tests do to a unit, what its markers allow, and rallying."""

    id: str

    def on_hit(self, b: Battle, u: Unit, margin: int, stands: int, cause: str) -> None:
        """A hit by fire: beaten by ``margin``, worth ``stands`` under the combat's table."""
        ...

    def on_setback(self, b: Battle, u: Unit, kind: str, frm: Unit | None) -> None:
        """A setback: ``charge_failed``, ``stand_failed``, ``melee_retreat`` (``frm`` is the
        enemy), or ``disorder`` (an event's disruption: the mildest mark there is). A
        combat module may name its own (seed 003: ``withdraw``, ``retreat``, ``prone``,
        ``rout``, ``disrupted``, ``fire_reaction``); a status that does not know a kind
        marks its mildest setback."""
        ...

    def recover(self, b: Battle, u: Unit, cause: str) -> bool:
        """Take one step of disorder off ``u`` (an event's recovery); False if it had none."""
        ...

    def move_limit(self, b: Battle, u: Unit) -> str:
        """What ``u`` may do in a movement step: ``free``, ``no_advance``, ``rally`` or ``none``.

        ``rally`` is 002's Morale Marker: hold, turn about or rout.
        """
        ...

    def may_fire(self, b: Battle, u: Unit) -> bool:
        """May ``u`` fire now?"""
        ...

    def fire_on_engaged(self, b: Battle, u: Unit) -> bool:
        """May ``u``, in hand-to-hand contact with an enemy, be fired upon now? True: as the
        combat's own rules say (seed 002: by the units touching it); False: by no one (seed
        004 EFFECT: '"Engaged" units cannot be fired upon'). Asked only of such units."""
        ...

    def step(self, kind: str, **params: Any) -> Step | None:
        """The status steps a sequence asks for (``rally``, ``turn_end``); None: nothing to do."""
        ...

    def label(self, u: Unit) -> str:
        """The marker on ``u`` in a word or two ("" for none)."""
        ...


class MoraleRole(Protocol):
    """The morale test: a seam of its own, so that a scenario can name another module's test
    (``[rules] morale = "..."``) without forking the combat module that asks for it.

    The combat and status roles call ``b.comp.morale.test`` wherever their rules say "test
    morale" (seed 002's charge and stand tests, 004's rally from rout, 003's contests of
    officers and men); menus quote ``pass_odds``.
    """

    id: str

    def test(self, b: Battle, u: Unit, purpose: str) -> bool:
        """Roll ``u``'s morale test for ``purpose`` through the battle's dice, narrated;
        True when it passes."""
        ...

    def pass_odds(self, b: Battle, u: Unit, purpose: str) -> Fraction:
        """The exact chance that :meth:`test` passes now (for menus; rolls nothing)."""
        ...


class EventsRole(Protocol):
    """Things that happen at named points of the turn.

    The points a sequence offers: ``turn_start``, ``reaction`` (a side's reaction phase
    begins: the phase's side is the side that reacts, just before its defensive fire;
    a card draw has one per card) and ``turn_end``. A sequence without a reaction phase
    offers no ``reaction`` point; an events module then does at ``turn_end`` what is
    still due.
    """

    id: str

    def points(self) -> tuple[str, ...]:
        """The points of the turn this module acts at."""
        ...

    def step(self, point: str) -> Step:
        """The automatic step run at ``point``."""
        ...


class RoleModule(Protocol):
    """A rule module that fills roles of the tactical engine."""

    id: str
    name: str
    seed: str
    provides: tuple[str, ...]
    options: Mapping[str, str]
    """The scenario options this module reads from ``[rules.options]``: name -> help."""

    def defaults(self) -> list[Labelled]:
        """Every labelled default and reading the module uses."""
        ...

    def role(self, kind: str, spec: RulesSpec) -> Any:
        """The role object of ``kind`` for a scenario's rules."""
        ...

    def needs(self, kind: str) -> Mapping[str, tuple[frozenset[str], str]]:
        """For the role ``kind``: other role -> (the module ids that can fill it, why)."""
        ...

    # Optional (looked up with getattr): ``policy(kind, comp, seed)``, ``batch(comp)``,
    # ``warm()``, and for the conformance suite ``invariants(comp)`` and ``features(comp)``
    # (``umpire.battle.invariants``: what must hold after every step, each citing its seed).


@dataclass(frozen=True, slots=True)
class RulesSpec:
    """A scenario's ``[rules]`` table: which module fills each role, and its options."""

    sequence: str = "quick-acw"
    combat: str = "quick-acw"
    status: str = ""
    events: tuple[str, ...] = ()
    first: str = ""
    attacker: str = ""
    cards: str = "brigade"
    options: tuple[tuple[str, Any], ...] = ()
    """``[rules.options]``: module options (003's ``fog``), sorted (name, value) pairs."""
    morale: str = ""
    """The module whose morale test is used; "" for the combat module's own."""

    def key(self) -> tuple[Any, ...]:
        """A hashable key (for caches)."""
        return (
            self.sequence,
            self.combat,
            self.status,
            self.events,
            self.first,
            self.attacker,
            self.cards,
            self.options,
            self.morale,
        )

    def option(self, name: str, default: Any = None) -> Any:
        """The value of one ``[rules.options]`` entry, or ``default``."""
        return dict(self.options).get(name, default)


@dataclass(slots=True, eq=False)
class Composition:
    """The roles that run one scenario's battles, with their steps made once."""

    spec: RulesSpec
    sequence: SequenceRole
    combat: CombatRole
    status: StatusRole
    events: list[EventsRole]
    modules: dict[str, RoleModule]
    morale: MoraleRole

    def hooks(self, point: str) -> list[tuple[str, Step]]:
        """The events steps at a named point of the turn, as (name, step)."""
        return [(f"{e.id}:{point}", e.step(point)) for e in self.events if point in e.points()]

    def step_title(self, name: str) -> str:
        """A step's name in words for a person (``move`` -> "Movement"): from the optional
        ``steps()`` of the module that made it (an events hook, ``module:point``, names its
        module), else of the sequence's, combat's and status's modules; else the name."""
        mid, _, point = name.rpartition(":")
        order = [mid] if mid else [self.spec.sequence, self.spec.combat, self.spec.status]
        for m in order:
            words = getattr(self.modules.get(m), "steps", None)
            found = words().get(point) if callable(words) else None
            if found:
                return str(found)
        return point.replace("_", " ")

    def defaults(self) -> list[Labelled]:
        """Every labelled default of the modules in use, each once."""
        seen: set[tuple[str, str]] = set()
        out: list[Labelled] = []
        for m in self.modules.values():
            for d in m.defaults():
                if (m.id, d.id) not in seen:
                    seen.add((m.id, d.id))
                    out.append(d)
        return out

    def describe(self) -> str:
        """The composition in one line."""
        ev = ", ".join(e.id for e in self.events) or "none"
        return (
            f"sequence {self.sequence.id}, combat {self.combat.id}, "
            f"status {self.status.id}, morale {self.morale.id}, events {ev}"
        )


KNOWN_LATER = (
    "the dice themselves",
    "anything the target does in reply (its fire, a reaction, a rout)",
)
"""What no menu's odds can hold: what is decided after the order is given (said once
under the explanations)."""


def explain(b: Battle, req: Request, choice: Choice) -> list[str]:
    """Why a menu entry reads as it does (issue 23 "every menu entry can say why").

    A step that makes its own menu (an event's pick) answers through its own optional
    ``explain(b, req, choice)`` when it has one; else the combat role's
    ``explain(b, req, choice)`` answers when it has one (its rules, its words: what cut an
    allowance, what a stick number means); otherwise the answer is built from what every
    role offers: the kind of order, the unit's move rate, the odds the role worked out.
    The CLI shows the lines and re-implements no rule.
    """
    step_own = getattr(b.phase().step, "explain", None) if not b.state.over else None
    own = getattr(b.comp.combat, "explain", None)
    lines: list[str]
    if step_own is not None:
        lines = list(step_own(b, req, choice))
        own = step_own
    elif own is not None:
        lines = list(own(b, req, choice))
    else:
        lines = [f"{choice.text}: a {choice.kind} order offered by the {b.comp.combat.id} rules"]
    if req.kind == "move" and 0 <= req.actor < len(b.state.units) and own is None:
        u = b.state.units[req.actor]
        rate = b.comp.combat.move_rate(b, u)
        lines.append(f'{u.name} may move {rate:g}" in the open as it stands now')
    if choice.odds:
        words = {
            "p": "the chance the entry names",
            "inflict": "expected enemy stands lost",
            "suffer": "expected own stands lost",
            "goes_in": "the chance a charge makes contact",
        }
        shown = [
            f"{words.get(k, k)} {v:.0%}" if k in ("p", "goes_in") else f"{words.get(k, k)} {v:.2f}"
            for k, v in choice.odds.items()
            if k in words and isinstance(v, int | float) and (k != "p" or _named(choice.text, v))
        ]
        if shown:
            lines.append("odds worked out with every modifier known now: " + "; ".join(shown))
    return lines


def _named(text: str, p: float) -> bool:
    """Does the entry's text name the chance ``p`` (a module's ``p`` is its headline figure
    only where its words give it: "42% hit", "drives it off 39%"; elsewhere it is the
    module's own ranking figure and is not called a chance)."""
    if 0 < p < 0.005:
        return "<1%" in text
    if 0.995 < p < 1:
        return ">99%" in text
    return f"{100 * p:.0f}%" in text
