"""Seed 001's invariants and features, for the conformance suite (``umpire.battle.invariants``).

Each invariant cites the event and sentence of seed 001 it holds the battle to, and is
checked after every step of every battle whose composition mounts ``solo-events``. The
acts this module carries out as a decision step begins (the turn's rolls, the reaction
phase's acts) are recorded in its log (``at``: the turn, step and side they were done
in), so the checks read the log as well as the step.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from umpire.battle.effects import fx, fx_why
from umpire.battle.invariants import Feature, Invariant, StepSeen, said_count
from umpire.battle.state import UNIT_JSON_FIELDS
from umpire.rules.solo_events.events import KEY, SoloEvents, has_charge

if TYPE_CHECKING:
    from umpire.battle.roles import Composition

MODULE = "solo-events"
REACTION = f"{MODULE}:reaction"
TURN_END = f"{MODULE}:turn_end"

NARRATED_BY = ("quick-acw",)
"""Combat modules that say each unit effect on a roll with its cause (docs/quick_acw.md)."""

_EXTRA = len(UNIT_JSON_FIELDS)


def _book(seen: StepSeen) -> dict[str, Any] | None:
    found: dict[str, Any] | None = seen.battle.state.extra.get(KEY)
    return found


def _role(seen: StepSeen) -> SoloEvents | None:
    for e in seen.battle.comp.events:
        if isinstance(e, SoloEvents):
            return e
    return None  # pragma: no cover - checked only where the module is mounted


def _reaction_phase(seen: StepSeen) -> list[str]:
    """001 event 5 "The disruption occurs during the player's reaction phase", event 11
    "The reduction occurs during the player's reaction phase" (and event 12's attempt,
    event 20's counter-charge): what the event put off is done at a reaction point of the
    affected side in the same turn (or, with no reaction phase, at the turn's end)."""
    book, role = _book(seen), _role(seen)
    if not book or role is None:
        return []
    out = []
    for e in book["log"]:
        if e["turn"] != seen.turn or "at" not in e:
            continue
        ev = role.m.events[e["event"]]
        for turn, step, side in e["at"]:
            ok = turn == e["turn"] and (
                (step == REACTION and side == e["side"])
                or (step == TURN_END and ev.when == "reaction")
            )
            if not ok:
                out.append(
                    f"{ev.name} ({e['unit']}, {e['side']}) was carried out in turn {turn}, "
                    f"step {step} of the {side}, not in its player's reaction phase"
                )
    for d in book.get("due", ()):
        if d.get("turn", seen.turn) != seen.turn:
            out.append(f"{d['event']} of turn {d['turn']} was never carried out")
    return out


def _status(v: list[Any]) -> tuple[bool, str]:
    """A unit's JSON: (its marker, its status rung)."""
    extra = v[_EXTRA] if len(v) > _EXTRA else {}
    return bool(v[UNIT_JSON_FIELDS.index("marker")]), str(extra.get("status", ""))


def _no_separate_recovery(seen: StepSeen) -> list[str]:
    """001 event 11: "The unit cannot try for a separate recovery attempt, during this
    turn" (and event 12's attempt is its one attempt): the host's rally step passes by a
    unit with ``no_rally``."""
    if seen.name != "rally" or seen.actor is not None:
        return []
    out = []
    for i, v in enumerate(seen.before["units"]):
        extra = v[_EXTRA] if len(v) > _EXTRA else {}
        if not extra.get("fx", {}).get("no_rally"):
            continue
        if _status(v) != _status(seen.after["units"][i]):
            u = seen.battle.state.units[i]
            why = extra.get("fx_why", {}).get("no_rally", "no_rally")
            out.append(f"{u.name} recovered in the host's rally step despite {why}")
    return out


def _impetuous(seen: StepSeen) -> list[str]:
    """001 event 20: "performs a charge, during its activity phase, or a counter charge
    during its reaction phase": while it must and can charge it is given no other move,
    and its reaction-phase decision is a charge."""
    o, i = seen.order, seen.actor
    if i is None or not o:
        return []
    if seen.kind == "move":
        p = seen.prior()
        u = p.state.units[i]
        if u.extra and fx(u, "must_charge") and o.kind != "charge" and has_charge(p, u):
            return [f"{u.name} must charge ({fx_why(u, 'must_charge')}) and was given '{o.kind}'"]
        return []
    if seen.name == REACTION:
        u = seen.battle.state.units[i]
        if o.kind != "charge":
            return [f"{u.name} had to counter-charge and was given '{o.kind}'"]
        if u.extra and fx(u, "must_charge"):
            return [f"{u.name} counter-charged and still must charge"]
    return []


def _effects_said(seen: StepSeen) -> list[str]:
    """001 events 8, 9, 19 (a modifier to a unit's fire, 'an extra die roll during combat'):
    a fire the event modifies says so, with the event, where it takes hold."""
    o, i = seen.order, seen.actor
    if seen.kind != "fire" or o is None or o.kind != "fire" or i is None:
        return []
    if seen.battle.comp.combat.id not in NARRATED_BY:
        return []
    p = seen.prior()
    u = p.state.units[i]
    if not u.extra:
        return []
    out = []
    for key in ("fire_mod", "extra_die"):
        if fx(u, key):
            why = fx_why(u, key)
            if "(001 event" in why and not any(why in line for line in seen.said):
                out.append(f"{u.name} fired with {why}, and the narrative does not say it")
    return out


def _this_turn_only(seen: StepSeen) -> list[str]:
    """Reading ``this_turn_only`` (001: "for this turn"): a unit carries an event's effect
    only while the module's marks of this turn hold it."""
    book = _book(seen)
    marked = {(m[0], m[1]) for m in book["marks"]} if book else set()
    out = []
    for u in seen.battle.state.units:
        if not u.extra:
            continue
        have = u.extra.get("fx", {})
        for key, why in u.extra.get("fx_why", {}).items():
            if key in have and "(001 event" in str(why) and (u.i, key) not in marked:
                out.append(f"{u.name} still has {key} from {why} after its turn")
    return out


def invariants(comp: Composition) -> Sequence[Invariant]:
    """Seed 001's invariants (it is always the events role)."""
    if not any(e.id == MODULE for e in comp.events):
        return []
    return [
        Invariant(
            "reaction-phase",
            "001 events 5, 11",
            "what occurs in the player's reaction phase is done there",
            _reaction_phase,
        ),
        Invariant(
            "no-separate-recovery",
            "001 event 11",
            "no separate recovery attempt this turn",
            _no_separate_recovery,
        ),
        Invariant("impetuous", "001 event 20", "the charge or counter-charge is made", _impetuous),
        Invariant(
            "effects-said",
            "001 events 8, 9, 19",
            "a fire an event modifies says so",
            _effects_said,
        ),
        Invariant(
            "this-turn-only",
            "001 'for this turn'",
            "event effects end with the turn",
            _this_turn_only,
        ),
    ]


def _at_turn_end(fn: Any) -> Any:
    """A feature counted once a turn, from the turn's log, at the module's turn end."""

    def count(seen: StepSeen) -> int:
        book = _book(seen)
        if seen.name != TURN_END or not book:
            return 0
        return sum(int(fn(e)) for e in book["log"] if e["turn"] == seen.turn)

    return count


def features(comp: Composition) -> Sequence[Feature]:
    """The parts of seed 001 whose use a run counts."""
    if not any(e.id == MODULE for e in comp.events):
        return []
    return [
        Feature("event", "001 RANDOM EVENTS", "events rolled", _at_turn_end(lambda e: True)),
        Feature(
            "reaction-act",
            "001 events 5, 11, 12",
            "acts done in a reaction phase",
            _at_turn_end(lambda e: sum(1 for a in e.get("at", ()) if a[1] == REACTION)),
        ),
        Feature(
            "counter-charge",
            "001 event 20",
            "counter-charges",
            _at_turn_end(lambda e: e["event"] == "impetuous" and bool(e.get("done"))),
        ),
        Feature(
            "retrograde-wheel",
            "001 event 4",
            "retrograde wheels",
            _at_turn_end(lambda e: e.get("wheel") in ("left", "right")),
        ),
        Feature(
            "hold-the-line-fire",
            "001 event 19",
            "fire with Hold the Line's extra die",
            said_count("to its fire (Hold the Line"),
        ),
    ]
