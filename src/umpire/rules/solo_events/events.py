"""Seed 001's solo random events as the events role: rolled at the start of each turn.

"At the beginning of each turn, roll a D6. If the result is a '1' or a '6', then a random
event has occurred ... If the result is odd, then the event will affect the attacker ...
Roll a D20". The three tables ship in ``umpire/data/tables/solo_events.toml``. Events
act through the seams (unit effects, the status role, the combat's moves), so they work
on whichever combat and sequence are mounted. "Chosen randomly" is a logged die over
the eligible units; "the player chooses" is a decision put to that side.
"""

from __future__ import annotations

import math
import tomllib
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from umpire.battle.effects import clear_fx, set_fx
from umpire.battle.roles import AutoStep, Choice, Composition, Request, RulesSpec
from umpire.errors import DataFileError, IllegalActionError, UmpireError

if TYPE_CHECKING:
    from umpire.battle.engine import Battle, Order
    from umpire.battle.state import Unit
    from umpire.scenarios import Scenario

DATA = Path(__file__).parent / "data"
KEY = "solo_events"

EFFECTS: dict[str, list[tuple[str, Any]]] = {
    # event id -> the unit effects it puts on the unit "for this turn"
    "hesitant": [("no_act", 1)],
    "limited_ammo": [("no_fire", 1)],
    "rough_going": [("terrain", "harder")],
    "bad_aim": [("fire_mod", -1)],
    "valiant_charge": [("fire_mod", 1), ("melee_mod", 1)],
    "stirrups_in": [("charge_mod", 1), ("melee_mod", 1)],
    "whiff_of_grape": [("canister_mod", 1)],
    "rally_to_the_colours": [("ignore_disruption", 1)],
    "deadly_fire": [("reaction_fire_mod", 1)],
    "thick_smoke": [("reaction_fire_mod", -1)],
    "find_the_way": [("terrain", "easier")],
    "hold_the_line": [("extra_die", 1)],
    "impetuous": [("must_charge", 1)],
    "well_disciplined": [("no_rally", 1)],
}
"""Seed 001 events 3-20 that mark a unit for the turn (the rest act at once)."""


@dataclass(frozen=True, slots=True)
class Mapping001:
    """Seed 001's terms on the host rules (``data/mapping.toml``)."""

    types: dict[str, str]
    recovery_needs: int
    urgent_bw: float
    leader_move: float
    broken_unit_cost: str


def load_mapping(path: Path, known_types: Any = None) -> Mapping001:
    """Read the mapping; a troop type the combat lacks is an error naming file and line."""
    text = path.read_text(encoding="utf-8")
    try:
        raw: dict[str, Any] = tomllib.loads(text)
        nums = raw["numbers"]
        out = Mapping001(
            {str(k): str(v) for k, v in raw["types"].items()},
            int(nums["recovery_needs"]),
            float(nums["urgent_bw"]),
            float(nums["leader_move"]),
            str(nums["broken_unit_cost"]),
        )
    except tomllib.TOMLDecodeError as exc:
        raise DataFileError(f"bad TOML: {exc}", file=str(path)) from None
    except (KeyError, TypeError, ValueError) as exc:
        raise DataFileError(f"missing or malformed entry {exc}", file=str(path)) from None
    if known_types is not None:
        for name, host in out.types.items():
            if host not in known_types:
                line = next(
                    (n for n, ln in enumerate(text.splitlines(), 1) if ln.startswith(name)), None
                )
                raise DataFileError(
                    f"seed 001's '{name}' maps to troop type '{host}', which the combat "
                    f"module lacks (it has: {', '.join(sorted(known_types))})",
                    file=str(path),
                    line=line,
                )
    return out


@cache
def mapping() -> Mapping001:
    """The shipped mapping."""
    return load_mapping(DATA / "mapping.toml")


def other(side: str) -> str:
    """The other side."""
    return "union" if side == "confederate" else "confederate"


def _table(table_id: str) -> Any:
    from umpire.tables import builtin_tables

    return builtin_tables().get(table_id)


class SoloEvents:
    """The events role of seed 001: a roll at the start of each turn, effects that expire."""

    id = "solo-events"

    def __init__(self, spec: RulesSpec, m: Mapping001 | None = None):
        self.spec = spec
        self.m = m or mapping()

    def bind(self, comp: Composition) -> None:
        """Check that the mapping's troop types are the combat module's."""
        load_mapping(DATA / "mapping.toml", set(comp.combat.bases))

    def validate(self, s: Scenario) -> None:
        """Seed 001: "the event will affect the attacker ... the defender": name the attacker."""
        if not self.spec.attacker:
            raise UmpireError('solo-events needs [rules] attacker = "union" or "confederate"')

    def points(self) -> tuple[str, ...]:
        """The start of a turn (the roll) and its end (effects expire, army morale)."""
        return ("turn_start", "turn_end")

    def step(self, point: str) -> Any:
        """The step at ``point``."""
        return TurnStart(self) if point == "turn_start" else TurnEnd(self)

    # -- bookkeeping --------------------------------------------------------------------
    def book(self, b: Battle) -> dict[str, Any]:
        """This module's part of the state: army morale, the log, this turn's marks."""
        book: dict[str, Any] | None = b.state.extra.get(KEY)
        if book is None:
            units = b.state.units
            book = b.state.extra[KEY] = {
                "morale": {
                    s: sum(1 for u in units if u.side == s) for s in ("confederate", "union")
                },
                "counted": [],
                "log": [],
                "marks": [],
                "pending": None,
                "turn": 0,
            }
        return book

    def note(self, b: Battle, entry: dict[str, Any], text: str) -> None:
        """Log an event's outcome in the state and the narrative."""
        self.book(b)["log"].append(entry)
        if b.narrate:
            b.say(text)

    def eligible(self, b: Battle, side: str, unit: str) -> list[int]:
        """Living units of ``side`` of 001's type ``unit`` ("" any; in_charge_range)."""
        us = [u for u in b.state.units if u.alive and u.side == side]
        if unit == "in_charge_range":
            return [u.i for u in us if has_charge(b, u)]
        if unit:
            host = self.m.types.get(unit, unit)
            us = [u for u in us if u.type == host]
        return [u.i for u in us]

    def mark(self, b: Battle, u: Unit, event: str, why: str) -> None:
        """Put an event's effects on ``u`` for this turn (reading ``this_turn_only``)."""
        for key, value in EFFECTS.get(event, []):
            set_fx(u, key, value, why)
            self.book(b)["marks"].append([u.i, key])
        b.memo.clear()

    # -- the events -----------------------------------------------------------------------
    def apply(self, b: Battle, event: str, name: str, side: str, u: Unit | None) -> str:
        """Carry out event ``event`` for ``side`` (on unit ``u`` where it names one)."""
        why = f"{name} (001 event)"
        if event in EFFECTS and u is not None:
            self.mark(b, u, event, why)
            if event == "well_disciplined":
                b.status.recover(b, u, why)
            return f"{u.name}: {why}"
        if event == "disorganized" and u is not None:
            if b.status.move_limit(b, u) == "none" and b.status.label(u) in ("Routed",):
                return f"{u.name} is already at the worst of its status: no effect"
            b.status.on_setback(b, u, "disorder", None)
            return f"{u.name} is disorganized"
        if event == "heroic_rally" and u is not None:
            faces = b.roll(2, 6, f"{name}: recovery attempt of {u.name}, two dice")
            if max(faces) >= self.m.recovery_needs:
                ok = b.status.recover(b, u, why)
                return f"{u.name} recovery {faces}: " + ("rallies" if ok else "nothing to rally")
            return f"{u.name} recovery {faces}: fails"
        if event in ("anxious", "retrograde") and u is not None:
            dist = b.comp.combat.move_rate(b, u)
            sign = 1.0 if event == "anxious" else -1.0
            dx, dy = math.cos(u.theta) * sign, math.sin(u.theta) * sign
            x0, y0 = u.x, u.y
            if not b.slide(u, dx, dy, dist, u.theta):
                return f"{u.name} would leave the table: stays"
            moved = math.hypot(u.x - x0, u.y - y0)
            word = "forward" if sign > 0 else "back"
            return f'{u.name} moves {moved:.1f}" {word} ({name})'
        if event == "urgent_assistance":
            return self.urgent(b, side, name)
        if event == "rally_to_the_flag":
            face = b.roll(1, 6, f"{name}: army morale")[0]
            gain = 1 if face % 2 else 2
            self.book(b)["morale"][side] += gain
            return f"{side.title()} army morale +{gain} (1d6 = {face})"
        return "no effect"

    def urgent(self, b: Battle, side: str, name: str) -> str:
        """Event 1: the commander rides to within 4 BW of the furthest friendly unit."""
        leaders = [ld for ld in b.state.leaders if ld.alive and ld.side == side]
        units = [u for u in b.state.units if u.alive and u.side == side]
        if not leaders or not units:
            return "no commander: no effect"
        ld = max(leaders, key=lambda x: (x.bonus, -x.i))
        far = max(units, key=lambda u: (math.hypot(u.x - ld.x, u.y - ld.y), -u.i))
        bw = b.comp.combat.bases[far.type][0]
        d = math.hypot(far.x - ld.x, far.y - ld.y)
        want = max(0.0, d - self.m.urgent_bw * bw)
        step = min(want, self.m.leader_move)
        if d > 0 and step > 0:
            ld.x += (far.x - ld.x) / d * step
            ld.y += (far.y - ld.y) / d * step
            ld.attached = -1
        left = d - step
        return f'{ld.name} rides {step:.1f}" toward {far.name} ({left:.1f}" from it)'


def has_charge(b: Battle, u: Unit) -> bool:
    """Does the combat offer ``u`` a charge now?"""
    req = Request("move", u.side, u.i, "move")
    return any(c.kind == "charge" for c in b.comp.combat.options(b, req))


class TurnStart:
    """Seed 001: the three rolls at the start of the turn; a decision when the player chooses.

    Its ``actors`` make the rolls (once per turn) and apply every random event at once;
    when the event says "the player chooses", one decision (kind ``pick``) is put to the
    affected side, whose answer ``apply`` carries out.
    """

    kind = "pick"

    def __init__(self, role: SoloEvents):
        self.role = role

    def actors(self, b: Battle, side: str) -> list[int]:
        book = self.role.book(b)
        if book["turn"] == b.state.turn:
            return [0] if book["pending"] else []
        book["turn"] = b.state.turn
        book["pending"] = None
        check = b.roll(1, 6, "solo events: does an event occur? (1d6, 1 or 6)")[0]
        row = _table("solo_event_check").lookup(check)
        if not row.effects.get("event"):
            if b.narrate:
                b.say(f"Random event check (1d6 = {check}): no event this turn")
            return []
        who = b.roll(1, 6, "solo events: which side? (1d6, odd attacker, even defender)")[0]
        attacker = self.role.spec.attacker or "confederate"
        side_of = attacker if who % 2 else other(attacker)
        roll = b.roll(1, 20, "solo events: which event? (1d20)")[0]
        ev = _table("solo_events").lookup(roll)
        role = "attacker" if who % 2 else "defender"
        head = (
            f"Random event (1d6 = {check}) for the {side_of.title()} ({role}, 1d6 = {who}): "
            f"{roll}: {ev.text}"
        )
        if b.narrate:
            b.say(head)
        chooser = ev.effects.get("chooser", "none")
        unit = ev.effects.get("unit", "")
        entry: dict[str, Any] = {"turn": b.state.turn, "side": side_of, "event": ev.id}
        name = ev.id.replace("_", " ").title()
        if chooser == "none":
            out = self.role.apply(b, ev.id, name, side_of, None)
            entry["result"] = out
            self.role.note(b, entry, f"  {out}")
            return []
        pool = sorted(self.role.eligible(b, side_of, unit))
        if not pool:
            what = "unit able to charge" if unit == "in_charge_range" else (unit or "unit")
            entry["result"] = f"no effect: no {what}"
            self.role.note(b, entry, f"  no effect: the {side_of.title()} has no {what}")
            return []
        if chooser == "random":
            k = b.roll(1, len(pool), f"solo events: {name}, a unit chosen at random")[0] - 1
            u = b.state.units[pool[k]]
            out = self.role.apply(b, ev.id, name, side_of, u)
            entry.update(unit=u.id, chosen="random", result=out)
            self.role.note(b, entry, f"  {out} (chosen at random, d{len(pool)} = {k + 1})")
            return []
        book["pending"] = {"event": ev.id, "name": name, "side": side_of, "pool": pool}
        return [0]

    def eligible(self, b: Battle, actor: int) -> bool:
        return bool(self.role.book(b)["pending"])

    def who(self, b: Battle, side: str) -> str:
        """The side the event affects chooses."""
        pending = self.role.book(b)["pending"]
        return str(pending["side"]) if pending else side

    def options(self, b: Battle, req: Request) -> list[Choice]:
        """One choice per eligible unit, in words."""
        pending = self.role.book(b)["pending"] or {}
        out = []
        for i in pending.get("pool", []):
            u = b.state.units[i]
            mark = b.status.label(u)
            value = float(u.stands) + (2.0 if mark else 0.0)
            state = f"{u.type}, {u.stands} stands" + (f", {mark}" if mark else "")
            text = f"{pending['name']}: {u.name} ({state})"
            out.append(Choice(("pick", i), text, "pick", {"value": value}))
        return out

    def apply(self, b: Battle, side: str, actor: int, order: Order) -> None:
        book = self.role.book(b)
        pending = book["pending"]
        if not pending:
            raise IllegalActionError("no event choice is pending")
        if order[0] != "pick" or len(order) < 2 or int(order[1]) not in pending["pool"]:
            names = ", ".join(b.state.units[i].id for i in pending["pool"])
            raise IllegalActionError(f"{pending['name']}: choose one of {names}")
        u = b.state.units[int(order[1])]
        out = self.role.apply(b, pending["event"], pending["name"], pending["side"], u)
        entry = {
            "turn": b.state.turn,
            "side": pending["side"],
            "event": pending["event"],
            "unit": u.id,
            "chosen": "player",
            "result": out,
        }
        book["pending"] = None
        self.role.note(b, entry, f"  {out} (the player's choice)")

    def auto(self, b: Battle, side: str) -> None:  # pragma: no cover - asks a decision
        raise NotImplementedError


class TurnEnd(AutoStep):
    """The end of the turn: this turn's event effects end; broken units cost army morale."""

    def __init__(self, role: SoloEvents):
        self.role = role

    def auto(self, b: Battle, side: str) -> None:
        book = self.role.book(b)
        for i, key in book["marks"]:
            clear_fx(b.state.units[i], key)
        book["marks"] = []
        b.memo.clear()
        cost = self.role.m.broken_unit_cost
        sides_of = int(cost.split("d")[1]) if "d" in cost else 3
        for u in b.state.units:
            if not u.alive and u.id not in book["counted"]:
                book["counted"].append(u.id)
                lost = b.roll(1, sides_of, f"army morale: {u.name} broken ({cost})")[0]
                book["morale"][u.side] -= lost
                if b.narrate:
                    b.say(
                        f"{u.side.title()} army morale -{lost} for {u.name}: "
                        f"{book['morale'][u.side]}"
                    )
        if b.state.over:
            return
        quits = [s for s in ("confederate", "union") if book["morale"][s] <= 0]
        if quits:
            b.state.over = True
            b.state.winner = "draw" if len(quits) == 2 else other(quits[0])
            if b.narrate:
                b.say(f"{', '.join(quits)} army morale is spent: the army quits")
