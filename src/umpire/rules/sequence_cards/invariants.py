"""Seed 004's invariants and features, for the conformance suite (``umpire.battle.invariants``).

The sequence invariants hold where ``five-step`` or ``card-draw`` is the sequence: step 4
fires only at the units that just moved, and under card draws only at the drawn card's
(004-RM-3); rifles fire or move (004-III-11); a cavalry regiment has a card of its own
(004-RM-1). The ladder invariants hold where it is the status: Engaged units are not fired
upon (004-ST-5), and a unit's rung allows what it did (default ``ladder_effects``). Checks
read the battle; they never change it or roll a die.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from umpire.battle.effects import CROSSED
from umpire.battle.invariants import Feature, Invariant, StepSeen, said_count
from umpire.rules.sequence_cards.sequence import CardDraw

if TYPE_CHECKING:
    from umpire.battle.roles import Composition

SLACK = 1e-3
"""Inches a unit may shift without counting as moved (floats)."""


def _fire_order(seen: StepSeen) -> tuple[int, int] | None:
    """(firer, target) of a fire order at this step, else None."""
    o = seen.order
    if seen.kind != "fire" or o is None or o.kind != "fire" or seen.actor is None:
        return None
    return seen.actor, int(o.t)


def _step_four(seen: StepSeen) -> list[str]:
    """004 III step 4, RANDOM MOVEMENT (004-RM-3): step 4 fires at units that charged the
    firer's side or crossed its field of fire in the movement just made; under card draws
    they are units of the drawn card ('and only those units - may fire and move')."""
    shot = _fire_order(seen) if seen.name == "defensive_fire" else None
    if shot is None:
        return []
    p = seen.prior()
    us = p.state.units
    u, t = us[shot[0]], us[shot[1]]
    charged = any(c[0] == t.i and us[c[1]].side == u.side for c in seen.before["contacts"])
    crossed = u.i in (t.extra.get(CROSSED) or ())
    out = []
    if not (charged or crossed):
        out.append(f"{u.name} fired in step 4 at {t.name}, which neither charged nor crossed")
    seq = seen.battle.comp.sequence
    deck = p.state.extra.get("cards")
    if isinstance(seq, CardDraw) and deck:
        name, _, idx = seq.cards(p)[deck["card"]]
        if t.i not in idx:
            out.append(f"{u.name} fired in step 4 at {t.name}, not a unit of the card {name}")
    return out


class _Rifles:
    """004 III (004-III-11): a unit flagged rifles never both fires and moves in a turn."""

    def __init__(self) -> None:
        self.key: tuple[int, int] = (-1, -1)
        self.fired: set[int] = set()
        self.moved: set[int] = set()

    def check(self, seen: StepSeen) -> list[str]:
        b = seen.battle
        key = (id(b), seen.turn)
        if key != self.key:
            self.key, self.fired, self.moved = key, set(), set()
        i, o = seen.actor, seen.order
        if i is None or not o or seen.kind not in ("fire", "move"):
            return []
        if not b.setup.scenario.units[i].rifles:
            return []
        if seen.kind == "fire" and o.kind == "fire":
            self.fired.add(i)
        elif seen.kind == "move" and (
            o.kind == "charge" or seen.now(i, "moved") or seen.moved(i) > SLACK
        ):
            self.moved.add(i)
        else:
            return []
        if i in self.fired and i in self.moved:
            return [f"{b.state.units[i].name} (rifles) fired and moved in turn {seen.turn}"]
        return []


def _cavalry_cards(seen: StepSeen) -> list[str]:
    """004 RANDOM MOVEMENT (004-RM-1): 'regiments (all cavalry, ...)': under cards by
    regiment or brigade, a drawn card that holds a cavalry regiment holds it alone (unless
    the scenario names the card)."""
    seq = seen.battle.comp.sequence
    if seen.name != "draw" or not isinstance(seq, CardDraw) or seq.grouping == "division":
        return []
    b = seen.battle
    deck = b.state.extra.get("cards")
    if not deck or not deck.get("card"):
        return []
    name, _, idx = seq.cards(b)[deck["card"]]
    specs = b.setup.scenario.units
    cav = [i for i in idx if specs[i].type == "cavalry" and not specs[i].card]
    if cav and len(idx) > 1:
        return [f"the card {name} holds a cavalry regiment with other units"]
    return []


def _engaged(lad: Any) -> Any:
    """004 EFFECT (004-ST-5), reading ``engaged_not_fired_on``: no one fires at a unit in
    hand-to-hand contact, save at a charge of this movement before its melee."""

    def check(seen: StepSeen) -> list[str]:
        shot = _fire_order(seen)
        if shot is None:
            return []
        p = seen.prior()
        u, t = p.state.units[shot[0]], p.state.units[shot[1]]
        if not p.touching(t):
            return []
        if lad.engaged_from == "melee" and any(t.i in c[:2] for c in seen.before["contacts"]):
            return []
        return [f"{u.name} fired at {t.name}, Engaged in hand-to-hand contact"]

    return check


def _status_allows(seen: StepSeen) -> list[str]:
    """004 EFFECT, default ``ladder_effects``: Stop, Retreated and Routed units make no move
    or charge; a Shaken unit does not charge or advance (come nearer its nearest enemy);
    a Routed unit does not fire."""
    o, i = seen.order, seen.actor
    if i is None or not o or seen.kind not in ("fire", "move") or o.kind == "hold":
        return []
    p = seen.prior()
    u = p.state.units[i]
    rung = str(u.extra.get("status", ""))
    if not rung:
        return []
    if seen.kind == "fire":
        return [f"{u.name} fired while Routed"] if rung == "route" and o.kind == "fire" else []
    moved = seen.moved(i) > SLACK
    if rung != "shaken":
        return [f"{u.name} made a {o.kind} while {rung}"] if o.kind == "charge" or moved else []
    if o.kind == "charge":
        return [f"{u.name} charged while Shaken"]
    en = p.nearest_enemy(u)
    if moved and en is not None:
        x, y = seen.now(i, "x"), seen.now(i, "y")
        if math.hypot(en.x - x, en.y - y) < math.hypot(en.x - u.x, en.y - u.y) - SLACK:
            return [f"{u.name} advanced on {en.name} while Shaken"]
    return []


def invariants(comp: Composition, module_id: str) -> Sequence[Invariant]:
    """Seed 004's invariants for the roles ``module_id`` fills in ``comp``."""
    out: list[Invariant] = []
    if comp.sequence.id == module_id:
        out += [
            Invariant(
                "step4-targets",
                "004 III step 4; 004 RM-3",
                "step 4 fires only at the units that just charged or crossed (the drawn card's)",
                _step_four,
            ),
            Invariant(
                "rifles", "004 III-11", "rifles fire or move in a turn, not both", _Rifles().check
            ),
            Invariant(
                "cavalry-cards", "004 RM-1", "a cavalry regiment has its own card", _cavalry_cards
            ),
        ]
    if comp.status.id == module_id:
        lad: Any = getattr(comp.status, "lad", None)
        out += [
            Invariant(
                "engaged", "004 EFFECT (ST-5)", "Engaged units are not fired upon", _engaged(lad)
            ),
            Invariant(
                "status-allows",
                "004 EFFECT (ladder_effects)",
                "a unit's rung allows its move or fire",
                _status_allows,
            ),
        ]
    return out


def _step_four_shots(seen: StepSeen) -> int:
    return 1 if seen.name == "defensive_fire" and _fire_order(seen) else 0


def features(comp: Composition, module_id: str) -> Sequence[Feature]:
    """The rules of seed 004 whose use a run counts."""
    out: list[Feature] = []
    if comp.sequence.id == module_id:
        out += [
            Feature(
                "step4-fire", "004 III step 4", "defensive and pass-thru fire", _step_four_shots
            ),
            Feature(
                "rifles-held",
                "004 III-11",
                "rifles that fired kept from moving",
                said_count("(rifles) fired this turn"),
            ),
        ]
        if module_id == "card-draw":
            out.append(
                Feature("card-draw", "004 RANDOM MOVEMENT", "cards drawn", said_count(" draws: "))
            )
    if comp.status.id == module_id:
        out += [
            Feature("stop", "004 EFFECT", "Stop", said_count(": Stop (")),
            Feature("shaken", "004 EFFECT", "Shaken", said_count(": Shaken (")),
            Feature("retreat", "004 EFFECT", "Retreat or Lose", said_count(": Retreated (")),
            Feature("route", "004 EFFECT", "Route", said_count(": Routed (")),
            Feature(
                "escalated", "004 EFFECT", "a second effect escalated", said_count("escalated")
            ),
            Feature("lapse", "004 EFFECT", "markers lapsing", said_count("marker lapses")),
            Feature("rally", "004 EFFECT", "Routed units rallied", said_count("(rallied)")),
        ]
    return out
