"""Seed 001's solo random events as the events role: rolled at the start of each turn.

001 RANDOM EVENTS: "At the beginning of each turn, roll a D6. If the result is a '1' or
a '6', then a random event has occurred ... roll a D6. If the result is odd, then the
event will affect the attacker ... even ... the defender. Roll a D20". The three tables
ship in ``umpire/data/tables/solo_events.toml``; ``data/mapping.toml`` says what each
event does on the host. Events act only through the seams (unit effects, the status
role, the combat's moves and checks), so they work on whichever sequence, combat and
status are mounted. "Chosen randomly" is a logged die over the eligible units; "the
player chooses" is a decision put to the side the event affects.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import TYPE_CHECKING, Any

from umpire.battle import orders as od
from umpire.battle.effects import FxKey, fx, fx_why
from umpire.battle.roles import AutoStep, Choice, Composition, Request, RulesSpec, combat_offers
from umpire.dice.luck import Dist, by_faces
from umpire.errors import IllegalActionError, UmpireError
from umpire.rules.solo_events.mapping import (
    ADDITIVE,
    MAPPING,
    Event,
    HostMapping,
    load_mapping,
    shipped,
)
from umpire.sides import SIDES

if TYPE_CHECKING:
    from umpire.battle.engine import Battle
    from umpire.battle.state import Unit
    from umpire.scenarios import Scenario

KEY = "solo_events"
"""This module's part of ``state.extra``."""


FLANKS = ("left", "right")
"""The flanks a retrograde wheel may pivot on (reading ``retrograde_wheel``)."""

FX_WORDS = {
    "no_act": "may do nothing this turn (no move, fire, charge or rally)",
    "no_fire": "may not fire this turn",
    "no_move": "has made its move for the turn",
    "no_charge": "may not charge this turn",
    "fire_mod": "{v:+d} to its fire this turn",
    "melee_mod": "{v:+d} to its melee this turn",
    "charge_mod": "{v:+d} to its charge test this turn",
    "canister_mod": "{v:+d} to its canister fire this turn",
    "reaction_fire_mod": "{v:+d} to its defensive (reaction) fire this turn",
    "extra_die": "{v} more die (stand) in combat this turn",
    "ignore_disruption": "its markers do not cut its combat dice this turn",
    "must_charge": "must charge this turn while it has a legal charge",
    "no_rally": "makes no separate recovery attempt (rally) this turn",
}
"""Unit effects in words, for the narrative and the log."""


def other(side: str) -> str:
    """The other side."""
    return "union" if side == "confederate" else "confederate"


def _table(table_id: str) -> Any:
    from umpire.tables import builtin_tables

    return builtin_tables().get(table_id)


def _occurs(check: int) -> bool:
    """001 RANDOM EVENTS' check: does the 1d6 ``check`` bring an event?"""
    return bool(_table("solo_event_check").lookup(check).effects.get("event"))


def _occurs_dist() -> Dist:
    """The check's exact chance of an event (the table's own faces), for the luck report."""
    return by_faces(1, 6, lambda f: int(_occurs(f[0])))


def fx_words(key: str, value: Any) -> str:
    """One unit effect in words."""
    if key == "terrain":
        if value == "harder":
            return "treats open ground as rough and rough as impassable this turn"
        return "treats rough ground as open this turn"
    return FX_WORDS.get(key, key.replace("_", " ")).format(v=int(value))


class SoloEvents:
    """The events role of seed 001: the roll at the start of a turn, effects that expire."""

    id = "solo-events"

    def __init__(self, spec: RulesSpec, path: Path | None = None):
        self.spec = spec
        self.path = path or MAPPING
        self.m: HostMapping = shipped() if path is None else load_mapping(path)
        self._start = TurnStart(self)
        self._reaction = ReactionStep(self)
        self._end = TurnEnd(self)
        self.move: Any = None

    def bind(self, comp: Composition) -> None:
        """Check the mapping against the mounted combat's troop types (default ``types``);
        keep the combat's move step, whose charge a counter-charge is (001 event 20)."""
        self.m = load_mapping(self.path, set(comp.combat.bases))
        self.move = comp.combat.step("move")

    def validate(self, s: Scenario) -> None:
        """001: "odd ... the attacker ... even ... the defender": [rules] names the attacker."""
        if self.spec.attacker not in SIDES:
            raise UmpireError('solo-events needs [rules] attacker = "union" or "confederate"')

    def points(self) -> tuple[str, ...]:
        """The start of a turn (the rolls and any choice), a side's reaction phase (what
        001 says "occurs during the player's reaction phase") and its end (effects expire)."""
        return ("turn_start", "reaction", "turn_end")

    def step(self, point: str) -> Any:
        """The step at ``point`` (readings ``turn_start_one_step``, ``reaction_phase``)."""
        if point == "turn_start":
            return self._start
        if point == "reaction":
            return self._reaction
        if point == "turn_end":
            return self._end
        raise KeyError(f"solo-events acts at no point '{point}'")

    # -- what the lab counts (the core's ``tally`` and ``quits`` seams) ------------------
    def tally(self, b: Battle) -> dict[str, int]:
        """001 RANDOM EVENTS: how often each event fired (``event.ID``), and the checks."""
        book = b.state.extra.get(KEY)
        if not book:
            return {}
        out: dict[str, int] = {}
        for entry in book["log"]:
            key = f"event.{entry['event']}"
            out[key] = out.get(key, 0) + 1
        return out

    def quits(self, b: Battle) -> list[str]:
        """Default ``army_morale``: the sides whose army morale is spent."""
        book = b.state.extra.get(KEY)
        if not book:
            return []
        return [s for s in SIDES if book["morale"].get(s, 1) <= 0]

    # -- bookkeeping --------------------------------------------------------------------
    def book(self, b: Battle) -> dict[str, Any]:
        """This module's state: army morale, the log, this turn's marks, a pending choice."""
        book: dict[str, Any] | None = b.state.extra.get(KEY)
        if book is None:
            units = b.state.units
            book = b.state.extra[KEY] = {
                "morale": {s: sum(1 for u in units if u.alive and u.side == s) for s in SIDES},
                "counted": [],
                "log": [],
                "marks": [],
                "pending": None,
                "rolled": 0,
                "due": [],
                "impetuous": [],
            }
        return book

    def note(self, b: Battle, entry: dict[str, Any]) -> None:
        """Log one event's outcome in the state and the narrative."""
        self.book(b)["log"].append(entry)
        b.say(f"  -> {entry['result']}")

    def mark(self, b: Battle, u: Unit, fx: tuple[tuple[FxKey, Any], ...], why: str) -> str:
        """Put unit effects on ``u`` for this turn, remembering what it had (``this_turn_only``)."""
        marks = self.book(b)["marks"]
        words = []
        for key, value in fx:
            have = u.extra.get("fx", {})
            prev = have.get(key)
            prev_why = u.extra.get("fx_why", {}).get(key)
            if value is True:
                new: Any = b.state.turn
            elif key in ADDITIVE:
                new = int(prev or 0) + int(value)
            else:
                new = value
            b.set_fx(u, key, new, why)  # (the battle forgets its cached menus)
            marks.append([u.i, key, new, why, prev, prev_why])
            words.append(fx_words(key, value if key in ADDITIVE else new))
        return "; ".join(words)

    def unmark(self, b: Battle) -> None:
        """End this turn's effects; give back what the unit had before, unless changed since."""
        book = self.book(b)
        for i, key, new, why, prev, prev_why in reversed(book["marks"]):
            u = b.state.units[i]
            if u.extra.get("fx", {}).get(key) != new:
                continue
            if u.extra.get("fx_why", {}).get(key) != why:
                continue
            if prev is None:
                b.clear_fx(u, key)
            else:
                b.set_fx(u, key, prev, prev_why or "")
        book["marks"] = []

    def eligible(self, b: Battle, side: str, ev: Event) -> list[int]:
        """The living units of ``side`` the event may pick, in scenario order."""
        us = [u for u in b.state.units if u.alive and u.side == side]
        if ev.unit == "in_charge_range":
            return [u.i for u in us if has_charge(b, u)]
        if ev.unit:
            host = self.m.host_type(ev.unit)
            us = [u for u in us if u.type == host]
        return [u.i for u in us]

    # -- the roll -------------------------------------------------------------------------
    def roll_event(self, b: Battle) -> None:
        """001 RANDOM EVENTS: the check, the side, the event; random parts carried out."""
        book = self.book(b)
        check = b.roll(1, 6, "solo events: does an event occur? (1d6: 1 or 6)")[0]
        if b.luck is not None:  # 001 RANDOM EVENTS: an event this turn, for both sides
            b.note("both", "events rolled", int(_occurs(check)), _occurs_dist())
        if not _table("solo_event_check").lookup(check).effects.get("event"):
            b.say(f"Random event check (1d6 = {check}): no event this turn")
            return
        face = b.roll(1, 6, "solo events: which side? (1d6: odd the attacker, even the defender)")[
            0
        ]
        role = str(_table("solo_event_side").lookup(face).effects["side"])
        attacker = self.spec.attacker or "confederate"
        side = attacker if role == "attacker" else other(attacker)
        if b.luck is not None:  # which side the event falls to (1d6 odd/even)
            half = by_faces(1, 6, lambda f: int(f[0] % 2 == 1))
            b.note(attacker, "events falling to it", int(side == attacker), half)
            b.note(other(attacker), "events falling to it", int(side != attacker), half)
        number = b.roll(1, 20, "solo events: which event? (1d20)")[0]
        ev = self.m.events[_table("solo_events").lookup(number).id]
        b.say(
            f"Random event (1d6 = {check}): {side.title()} ({role}, 1d6 = {face}): "
            f"{number} {ev.name} — {ev.text}"
        )
        entry: dict[str, Any] = {
            "turn": b.state.turn,
            "side": side,
            "role": role,
            "number": number,
            "event": ev.id,
            "unit": None,
            "chosen": None,
        }
        if ev.chooser == "none":
            entry["result"] = self.carry_out(b, ev, side, None)
            self.note(b, entry)
            return
        pool = self.eligible(b, side, ev)
        if not pool:
            entry["result"] = f"no effect: the {side.title()} has no {wanted(ev)}"
            self.note(b, entry)
            return
        if len(pool) == 1:
            u = b.state.units[pool[0]]
            entry.update(unit=u.id, chosen="only")
        elif ev.chooser == "random":
            n = len(pool)
            names = [b.state.units[i].name for i in pool]
            k = 1 + b.pick(names, f"solo events: {ev.name}, a {side.title()} unit at random")
            u = b.state.units[pool[k - 1]]
            entry.update(unit=u.id, chosen="random", die=[k, n])
            b.say(f"  {ev.name}: {u.name}, number {k} of the {n} eligible units, picked at random")
        else:
            book["pending"] = {"event": ev.id, "side": side, "pool": pool, "entry": entry}
            b.say(f"  {ev.name}: the {side.title()} player chooses among {len(pool)} units")
            return
        if ev.act == "move_back" and self.wheels(b, u):
            # 001 event 4: "The player can perform a retrograde wheel, if they so wish"
            book["pending"] = {
                "event": ev.id,
                "side": side,
                "pool": [u.i],
                "entry": entry,
                "kind": "wheel",
            }
            b.say(
                f"  {ev.name}: the {side.title()} player may wheel {u.name} back instead of "
                "moving it straight back"
            )
            return
        entry["result"] = self.carry_out(b, ev, side, u)
        self.note(b, entry)

    # -- the events -----------------------------------------------------------------------
    def carry_out(self, b: Battle, ev: Event, side: str, u: Unit | None) -> str:
        """Event ``ev`` for ``side`` (on ``u`` where it names a unit): the outcome in words."""
        why = f"{ev.name} (001 event {ev.number})"
        out = []
        if ev.when == "reaction" and u is not None:
            # reading reaction_phase: "occurs during the player's reaction phase"
            book = self.book(b)
            book["due"].append(
                {
                    "event": ev.id,
                    "side": side,
                    "unit": u.i,
                    "log": len(book["log"]),
                    "turn": b.state.turn,
                }
            )
            out.append(f"{u.name}: {DUE_WORDS[ev.act]} in the {side.title()} reaction phase")
        elif ev.act:
            res = ACT[ev.act](self, b, ev, side, u, why)
            if res.startswith("no effect"):
                return res
            out.append(res)
        if ev.fx and u is not None:
            out.append(f"{u.name} {self.mark(b, u, ev.fx, why)}")
            if fx(u, "must_charge"):
                self.book(b).setdefault("impetuous", []).append([u.i, len(self.book(b)["log"])])
        return "; ".join(out)

    def carry_out_due(self, b: Battle, due: dict[str, Any], when: str) -> None:
        """Carry out an act the event put off to the player's reaction phase (reading
        ``reaction_phase``), narrate it and add it to the event's log entry."""
        ev = self.m.events[due["event"]]
        u = b.state.units[due["unit"]]
        why = f"{ev.name} (001 event {ev.number})"
        if not u.alive:
            res = f"no effect: {u.name} is no longer on the table"
        else:
            res = ACT[ev.act](self, b, ev, due["side"], u, why)
        b.say(f"{why}, {when}: {res}")
        self.later(b, due["log"], res)

    def later(self, b: Battle, index: int, result: str) -> None:
        """Add what an event did later in the turn to its log entry: ``done`` (in words) and
        ``at`` (the turn, step and side it was done in, for the invariants)."""
        log = self.book(b)["log"]
        if 0 <= index < len(log):
            ph = b.phase()
            log[index].setdefault("done", []).append(result)
            log[index].setdefault("at", []).append([b.state.turn, ph.name, ph.side])

    def commander_rides(self, b: Battle, ev: Event, side: str, u: Unit | None, why: str) -> str:
        """001 event 1: the commander rides to within 4 BW of the furthest friendly unit."""
        leaders = [ld for ld in b.state.leaders if ld.alive and ld.side == side]
        units = b.alive(side)
        if not leaders or not units:
            return f"no effect: the {side.title()} has no commander on the table"
        ld = max(leaders, key=lambda x: (x.bonus, -x.i))
        far = max(units, key=lambda v: (math.hypot(v.x - ld.x, v.y - ld.y), -v.i))
        near = self.m.urgent_bw * b.comp.combat.bases[far.type][0]
        d = math.hypot(far.x - ld.x, far.y - ld.y)
        if d <= near + 1e-9:
            return (
                f"no effect: {ld.name} is already within {self.m.urgent_bw:g} BW "
                f'({near:g}") of {far.name}, his furthest unit'
            )
        ride = min(d - near, self.m.leader_move)
        ld.x += (far.x - ld.x) / d * ride
        ld.y += (far.y - ld.y) / d * ride
        ld.attached = -1
        b.record_leader(ld)
        b.memo.clear()
        left = d - ride
        return f'{ld.name} rides {ride:.1f}" toward {far.name}, his furthest unit, to {left:.1f}"'

    def forward(self, b: Battle, ev: Event, side: str, u: Unit | None, why: str) -> str:
        """001 event 2: a full move straight ahead (reading ``forward_is_facing``)."""
        assert u is not None
        return self.forced_move(b, u, 1.0, why)

    def back(self, b: Battle, ev: Event, side: str, u: Unit | None, why: str) -> str:
        """001 event 4: a full move straight back, facing unchanged."""
        assert u is not None
        return self.forced_move(b, u, -1.0, why)

    def forced_move(self, b: Battle, u: Unit, sign: float, why: str) -> str:
        """A full move along the facing (``sign`` -1: back), as far as the host allows.

        Reading ``forced_moves_at_once``: the longest legal move of the host's full rate
        along the line (``combat.check``), stopping before another base (``b.slide``); a
        full move that would leave the table is not made.
        """
        word = "forward" if sign > 0 else "back"
        combat = b.comp.combat
        rate = combat.move_rate(b, u)
        if rate <= 1e-9:
            return f"no effect: {u.name} has no move now"
        dx, dy = sign * math.cos(u.theta), sign * math.sin(u.theta)
        board = b.setup.board
        ex, ey = u.x + dx * rate, u.y + dy * rate
        if not (0 <= ex <= board.width and 0 <= ey <= board.height):
            return f"no effect: a full move {word} would take {u.name} off the table; it stays"
        req = Request("move", u.side, u.i, "move")
        step = float(b.geo["retreat_step"])
        reason = ""
        legal = 0.0
        for d in [rate, *(k * step for k in range(math.ceil(rate / step) - 1, 0, -1))]:
            try:
                combat.check(b, req, od.Move("move", u.x + dx * d, u.y + dy * d, u.theta, ""))
            except IllegalActionError as exc:
                reason = reason or str(exc)
                continue
            legal = d
            break
        if legal <= 0:
            return f"no effect: {u.name} cannot move {word} ({reason})"
        x0, y0 = u.x, u.y
        if not b.slide(u, dx, dy, legal, u.theta):  # pragma: no cover - the end is on the table
            return f"no effect: {u.name} would leave the table; it stays"
        moved = math.hypot(u.x - x0, u.y - y0)
        if moved <= 1e-9:
            return f"no effect: {u.name} is blocked and cannot move {word}"
        short = f' (not the full {rate:g}": {reason})' if reason else ""
        done = self.mark(b, u, (("no_move", True),), why)
        return f'{u.name} moves {moved:.1f}" {word}{short} and {done}'

    def wheel(self, b: Battle, u: Unit, flank: str) -> tuple[float, float, float, float] | None:
        """A retrograde wheel on ``flank`` (reading ``retrograde_wheel``): (x, y, theta, the
        outer flank's arc in inches) of the longest legal one, None when none is legal.

        The unit turns about the front corner of ``flank`` while its other flank swings
        back a full move (the host's ``move_rate``), at most a quarter turn."""
        rate = b.comp.combat.move_rate(b, u)
        if rate <= 1e-9 or u.hw <= 1e-9:
            return None
        full = min(rate / (2 * u.hw), math.pi / 2)
        s = 1.0 if flank == "left" else -1.0
        c, sn = math.cos(u.theta), math.sin(u.theta)
        px, py = u.x + c * u.hd - s * sn * u.hw, u.y + sn * u.hd + s * c * u.hw
        rx, ry = u.x - px, u.y - py
        board = b.setup.board
        req = Request("move", u.side, u.i, "move")
        for k in range(8, 0, -1):  # the full wheel first, then shorter ones
            turn = -s * full * k / 8
            x = px + rx * math.cos(turn) - ry * math.sin(turn)
            y = py + rx * math.sin(turn) + ry * math.cos(turn)
            if not (0 <= x <= board.width and 0 <= y <= board.height):
                continue
            try:
                b.comp.combat.check(b, req, od.Move("move", x, y, u.theta + turn, ""))
            except IllegalActionError:
                continue
            return x, y, u.theta + turn, 2 * u.hw * abs(turn)
        return None

    def wheels(self, b: Battle, u: Unit) -> dict[str, tuple[float, float, float, float]]:
        """The legal retrograde wheels of ``u``, by the flank it pivots on."""
        out = {}
        for flank in FLANKS:
            found = self.wheel(b, u, flank)
            if found is not None:
                out[flank] = found
        return out

    def wheel_back(self, b: Battle, u: Unit, flank: str, why: str) -> str:
        """001 event 4: the player's retrograde wheel on ``flank``; then it has moved."""
        found = self.wheel(b, u, flank)
        if found is None:  # pragma: no cover - offered only when legal, nothing moved since
            return f"no effect: {u.name} cannot wheel back on its {flank} flank"
        x, y, theta, arc = found
        turned = abs(math.degrees(theta - u.theta))
        b.place(u, x, y, theta)
        done = self.mark(b, u, (("no_move", True),), why)
        return (
            f'{u.name} wheels back on its {flank} flank ({arc:.1f}" at the outer flank, '
            f"a {turned:.0f} degree turn) and {done}"
        )

    def disorder(self, b: Battle, ev: Event, side: str, u: Unit | None, why: str) -> str:
        """001 event 5: one DISR, "unless that would cause the unit to break"."""
        assert u is not None
        if would_break(b, u):
            return f"no effect: one more DISR would break {u.name} (001 event 5)"
        b.status.on_setback(b, u, "disorder", None)
        b.memo.clear()
        mark = b.status.label(u)
        return f"{u.name} takes one DISR" + (f" ({mark})" if mark else "")

    def recover(self, b: Battle, ev: Event, side: str, u: Unit | None, why: str) -> str:
        """001 event 11: one DISR off (the status's ``recover``)."""
        assert u is not None
        if b.status.recover(b, u, why):
            b.memo.clear()
            return f"{u.name} loses one DISR"
        return f"{u.name} has no DISR to lose"

    def heroic_rally(self, b: Battle, ev: Event, side: str, u: Unit | None, why: str) -> str:
        """001 event 12: a recovery attempt with two dice, the better kept (reading)."""
        assert u is not None
        faces = b.roll(2, 6, f"{ev.name}: recovery attempt of {u.name} (2d6, the better kept)")
        best = max(faces)
        needs = self.m.recovery_needs
        if b.luck is not None:  # 001 event 12: the recovery, for the unit's side
            kept = by_faces(2, 6, lambda f: int(max(f) >= needs))
            b.note(u.side, "tests passed", int(best >= needs), kept)
        roll = f"{faces[0]} and {faces[1]}, {best} kept, needs {needs}+"
        if best < needs:
            return f"{u.name}'s recovery attempt fails ({roll})"
        if b.status.recover(b, u, why):
            b.memo.clear()
            return f"{u.name}'s recovery attempt succeeds ({roll}): one DISR off"
        return f"{u.name}'s recovery attempt succeeds ({roll}), but it has no DISR to lose"

    def army_morale(self, b: Battle, ev: Event, side: str, u: Unit | None, why: str) -> str:
        """001 event 10: "odd, then add 1 to their army morale ... even, then add 2"."""
        face = b.roll(1, 6, f"{ev.name}: army morale (1d6: odd +1, even +2)")[0]
        gain = 1 if face % 2 else 2
        if b.luck is not None:  # 001 event 10: the larger gain is the side's luck
            b.note(side, "army morale gained", gain, by_faces(1, 6, lambda f: 1 if f[0] % 2 else 2))
        morale = self.book(b)["morale"]
        morale[side] += gain
        return f"{side.title()} army morale +{gain} (1d6 = {face}): {morale[side]}"

    # -- the player's choice ---------------------------------------------------------------
    def value(self, b: Battle, ev: Event, u: Unit) -> float:
        """Default ``ai_preference``: how much the AI likes giving ``ev`` to ``u``."""
        en = b.nearest_enemy(u)
        d = math.hypot(en.x - u.x, en.y - u.y) if en is not None else 100.0
        near = 12.0 / (1.0 + d / 6.0)
        marked = 1.0 if u.marker else 0.0
        keys = dict(ev.fx)
        if ev.act in ("recover", "recovery_two_dice"):
            return 20.0 * marked + u.stands + near / 4.0
        if "ignore_disruption" in keys:
            return 10.0 * marked + u.stands + near
        if keys.get("terrain") == "easier":
            board = b.setup.board
            rough = board.is_rough(u.x, u.y) or (
                en is not None and board.path_rough(u.x, u.y, en.x, en.y)
            )
            return 10.0 * bool(rough) + u.stands + near
        return u.stands + near


def wanted(ev: Event) -> str:
    """What an event needs, in words ("artillery unit", "unit able to charge")."""
    if ev.unit == "in_charge_range":
        return "unit with a legal charge"
    return f"{ev.unit} unit" if ev.unit else "unit"


def has_charge(b: Battle, u: Unit) -> bool:
    """Does the combat offer ``u`` a charge now (001 event 20: "in a legal charge range")?"""
    req = Request("move", u.side, u.i, "move")
    return any(o.kind == "charge" and o.legal() for o in combat_offers(b, req))


class _SetAside:
    """The dice of a trial that is undone: each die shows its top face, none is recorded."""

    def dice(self, n: int, sides: int, purpose: str = "") -> list[int]:
        return [sides] * n


def would_break(b: Battle, u: Unit) -> bool:
    """Would one more disorder break ``u``? Tried on the host and undone (reading
    ``disorganized_no_break``): broken = removed, or no longer allowed to fire (a rout)."""
    snapshot = b.state.to_json()
    narrate, roller, journal = b.narrate, b.roller, b.journal
    b.narrate, b.roller, b.journal = False, _SetAside(), None  # nothing said, drawn or logged
    try:
        b.status.on_setback(b, u, "disorder", None)
        broke = not u.alive or not b.status.may_fire(b, u)
    finally:
        b.restore(snapshot)  # the state and every cached answer as before the trial
        b.narrate, b.roller, b.journal = narrate, roller, journal
    return broke


DUE_WORDS = {
    "disorder": "takes one DISR",
    "recover": "loses one DISR",
    "recovery_two_dice": "makes its recovery attempt with two dice, the better kept,",
}
"""What an act put off to the reaction phase will do, in words (reading ``reaction_phase``)."""

ACT = {
    "commander_rides": SoloEvents.commander_rides,
    "move_forward": SoloEvents.forward,
    "move_back": SoloEvents.back,
    "disorder": SoloEvents.disorder,
    "recover": SoloEvents.recover,
    "recovery_two_dice": SoloEvents.heroic_rally,
    "army_morale": SoloEvents.army_morale,
}
"""The ``act`` of ``data/mapping.toml`` -> the method that carries it out."""


class TurnStart:
    """001 RANDOM EVENTS at the start of a turn: the rolls, then the player's choice if any.

    Reading ``turn_start_one_step``: ``actors`` makes the three rolls once per turn and
    carries out every random part at once; when the event says "the player chooses" it
    returns one actor (0), and the affected side (``who``) picks a unit among
    ``options``; ``apply`` carries the event out on it and refuses anything else.
    """

    kind = "pick"

    def __init__(self, role: SoloEvents):
        self.role = role

    def actors(self, b: Battle, side: str) -> list[int]:
        """Roll this turn's event (once); one decision when the player must choose."""
        book = self.role.book(b)
        if book["rolled"] != b.state.turn:
            book["rolled"] = b.state.turn
            book["pending"] = None
            self.role.roll_event(b)
        return [0] if book["pending"] else []

    def eligible(self, b: Battle, actor: int) -> bool:
        """Only while a choice is pending."""
        return bool(self.role.book(b)["pending"])

    def who(self, b: Battle, side: str) -> str:
        """The side the event affects chooses ("The player chooses")."""
        pending = self.role.book(b)["pending"]
        return str(pending["side"]) if pending else side

    def options(self, b: Battle, req: Request) -> list[Choice]:
        """One choice per eligible unit, in words, with the AI's preference as ``value``."""
        pending = self.role.book(b)["pending"]
        if not pending:
            return []
        ev = self.role.m.events[pending["event"]]
        if pending.get("kind") == "wheel":
            return self.wheel_options(b, ev, b.state.units[pending["pool"][0]])
        out = []
        for i in pending["pool"]:
            u = b.state.units[i]
            mark = b.status.label(u)
            en = b.nearest_enemy(u)
            far = f', {math.hypot(en.x - u.x, en.y - u.y):.0f}" from the enemy' if en else ""
            state = f"{u.type}, {u.stands} stands" + (f", {mark}" if mark else "") + far
            text = f"{ev.name}: {u.name} ({state})"
            out.append(
                Choice(od.Pick("pick", i), text, "pick", {"value": self.role.value(b, ev, u)})
            )
        return out

    def wheel_options(self, b: Battle, ev: Event, u: Unit) -> list[Choice]:
        """001 event 4: straight back, or a retrograde wheel on either flank (reading
        ``retrograde_wheel``); the AI's ``value``: its front kept toward the nearest enemy."""
        en = b.nearest_enemy(u)

        def facing(x: float, y: float, theta: float) -> float:
            if en is None:
                return 0.0
            return math.cos(math.atan2(en.y - y, en.x - x) - theta)

        rate = b.comp.combat.move_rate(b, u)
        out = [
            Choice(
                od.Retrograde("retrograde", "back"),
                f'{ev.name}: {u.name} moves straight back (up to {rate:g}"), facing unchanged',
                "pick",
                {"value": facing(u.x, u.y, u.theta) + 1e-6},
            )
        ]
        for flank, (x, y, theta, arc) in self.role.wheels(b, u).items():
            turned = abs(math.degrees(theta - u.theta))
            text = (
                f'{ev.name}: {u.name} wheels back on its {flank} flank ({arc:.1f}" at the '
                f"outer flank, a {turned:.0f} degree turn)"
            )
            out.append(
                Choice(
                    od.Retrograde("retrograde", flank), text, "pick", {"value": facing(x, y, theta)}
                )
            )
        return out

    def explain(self, b: Battle, req: Request, choice: Choice) -> list[str]:
        """Why this pick (issue 23 'every menu entry can say why'): the event and its text,
        who chooses and what the list holds (001 RANDOM EVENTS)."""
        lines = [f"{choice.text}:"]
        pending = self.role.book(b)["pending"]
        if not pending:
            return lines
        ev = self.role.m.events[pending["event"]]
        lines.append(f"  {ev.name} (001 event {ev.number}): {ev.text}")
        if pending.get("kind") == "wheel":
            lines.append(
                "  'The player can perform a retrograde wheel, if they so wish' (001 event 4, "
                "reading retrograde_wheel): straight back, or back on either flank"
            )
        else:
            lines.append(
                f"  the {str(pending['side']).title()} player chooses (001: 'the player "
                f"chooses'); listed: every {wanted(ev)} it may fall on"
            )
        return lines

    def apply(self, b: Battle, side: str, actor: int, order: od.Order) -> None:
        """Carry the event out on the chosen unit; refuse a unit not offered."""
        order = od.as_order(order)  # a plain tuple from a caller outside the engine
        book = self.role.book(b)
        pending = book["pending"]
        if not pending:
            raise IllegalActionError("no event choice is pending")
        ev = self.role.m.events[pending["event"]]
        if side != pending["side"]:
            raise IllegalActionError(
                f"{ev.name}: the {pending['side'].title()} chooses, not the {side.title()}"
            )
        if pending.get("kind") == "wheel":
            self.apply_wheel(b, side, ev, pending, order)
            return
        pool: list[int] = pending["pool"]
        try:
            i = int(order.i) if isinstance(order, od.Pick) else -1
        except (TypeError, ValueError):
            i = -1
        if i not in pool:
            names = ", ".join(b.state.units[k].id for k in pool)
            raise IllegalActionError(f"{ev.name}: choose one of {names}")
        u = b.state.units[i]
        entry = dict(pending["entry"])
        entry.update(unit=u.id, chosen="player")
        book["pending"] = None
        b.say(f"  {ev.name}: the {side.title()} chooses {u.name}")
        entry["result"] = self.role.carry_out(b, ev, pending["side"], u)
        self.role.note(b, entry)

    def apply_wheel(
        self, b: Battle, side: str, ev: Event, pending: dict[str, Any], order: od.Order
    ) -> None:
        """001 event 4: the player's answer, straight back or a wheel on a flank offered."""
        u = b.state.units[pending["pool"][0]]
        offered = [c.order for c in self.wheel_options(b, ev, u)]
        if order not in offered or not isinstance(order, od.Retrograde):
            words = ", ".join(" ".join(str(w) for w in o) for o in offered)
            raise IllegalActionError(f"{ev.name}: choose one of {words}")
        book = self.role.book(b)
        book["pending"] = None
        entry = dict(pending["entry"])
        how = str(order.how)
        entry["wheel"] = how
        if how == "back":
            b.say(f"  {ev.name}: the {side.title()} moves {u.name} straight back")
            entry["result"] = self.role.carry_out(b, ev, side, u)
        else:
            b.say(f"  {ev.name}: the {side.title()} wheels {u.name} back (a retrograde wheel)")
            entry["result"] = self.role.wheel_back(b, u, how, f"{ev.name} (001 event {ev.number})")
        self.role.note(b, entry)

    def auto(self, b: Battle, side: str) -> None:  # pragma: no cover - it asks a decision
        """Never called: the step's kind is ``pick``."""
        raise NotImplementedError


class ReactionStep:
    """A side's reaction phase begins (the sequence's ``reaction`` point, reading
    ``reaction_phase``): what the turn's event put off to it is carried out, and an
    Impetuous unit that has not charged yet counter-charges (001 event 20).

    ``actors`` carries out the acts due to this side once, as the step begins; the
    Impetuous unit, if it still must charge and has a legal charge, is the one actor:
    its player picks the target among the combat's charges, and the charge is made."""

    kind = "pick"

    def __init__(self, role: SoloEvents):
        self.role = role

    def actors(self, b: Battle, side: str) -> list[int]:
        """Carry out what is due to ``side``; the Impetuous unit that must counter-charge."""
        book = self.role.book(b)
        due = book.get("due")
        if due and any(d["side"] == side for d in due):
            book["due"] = [d for d in due if d["side"] != side]
            for d in due:
                if d["side"] == side:
                    self.role.carry_out_due(b, d, f"in the {side.title()} reaction phase")
        return [i for i, _ in book.get("impetuous", ()) if b.state.units[i].side == side]

    def eligible(self, b: Battle, actor: int) -> bool:
        """Only while it still must charge and the combat offers it a charge."""
        u = b.state.units[actor]
        return u.alive and bool(u.extra) and bool(fx(u, "must_charge")) and has_charge(b, u)

    def who(self, b: Battle, side: str) -> str:
        """The reacting side chooses its target."""
        return side

    def options(self, b: Battle, req: Request) -> list[Choice]:
        """The combat's legal charges of the Impetuous unit, with their odds."""
        u = b.state.units[req.actor]
        out = []
        for o in combat_offers(b, Request("move", u.side, u.i, "move")):
            if o.kind == "charge" and o.legal():
                c = o.choice()
                text = f"Impetuous: {u.name} counter-charges: {c.text}"
                out.append(Choice(c.order, text, "charge", c.odds))
        return out

    def explain(self, b: Battle, req: Request, choice: Choice) -> list[str]:
        """Why this counter-charge (issue 23): the Impetuous event that forces it (001 event
        20), then the combat's own why of the charge."""
        u = b.state.units[req.actor]
        lines = [
            f"{choice.text}:",
            f"  {fx_why(u, 'must_charge')}: it must charge, here in its side's reaction phase "
            "(reading reaction_phase); choose the enemy",
        ]
        combat = getattr(b.comp.combat, "explain", None)
        if combat is not None:
            lines += list(combat(b, Request("move", u.side, u.i, "move"), choice))[1:]
        return lines

    def apply(self, b: Battle, side: str, actor: int, order: od.Order) -> None:
        """001 event 20: "or a counter charge during its reaction phase": the charge is made."""
        order = od.as_order(order)  # a plain tuple from a caller outside the engine
        u = b.state.units[actor]
        req = Request("move", u.side, u.i, "move")
        if not isinstance(order, od.Charge) or order not in [c.order for c in self.options(b, req)]:
            raise IllegalActionError(f"{u.name} must counter-charge (001 event 20, Impetuous)")
        b.comp.combat.check(b, req, order)
        why = fx_why(u, "must_charge")
        b.clear_fx(u, "must_charge")  # the charge it had to make
        b.say(f"{u.name} counter-charges in the {side.title()} reaction phase ({why})")
        self.role.move.apply(b, side, u.i, order)
        t = b.state.units[int(order.t)]
        for i, index in self.role.book(b).get("impetuous", ()):
            if i == u.i:
                self.role.later(b, index, f"{u.name} counter-charges {t.name}")

    def auto(self, b: Battle, side: str) -> None:  # pragma: no cover - it asks a decision
        """Never called: the step's kind is ``pick``."""
        raise NotImplementedError


class TurnEnd(AutoStep):
    """The end of the turn: this turn's effects end; units removed cost army morale."""

    def __init__(self, role: SoloEvents):
        self.role = role

    def auto(self, b: Battle, side: str) -> None:
        """Reading ``this_turn_only``, then default ``army_morale``."""
        role = self.role
        book = role.book(b)
        due, book["due"] = book.get("due") or [], []
        for d in due:  # no reaction phase of that side came (reading reaction_phase)
            role.carry_out_due(
                b, d, f"at the end of the turn (no {d['side'].title()} reaction phase came)"
            )
        book["impetuous"] = []
        role.unmark(b)
        n, sides = role.m.loss_dice
        morale = book["morale"]
        for u in b.state.units:
            if u.alive or u.id in book["counted"]:
                continue
            book["counted"].append(u.id)
            faces = b.roll(n, sides, f"army morale: {u.name} removed ({n}d{sides})")
            lost = sum(faces)
            morale[u.side] -= lost
            if b.luck is not None:  # reading army_morale_luck: a loss is the other side's luck
                b.note(other(u.side), "enemy army morale lost", lost, by_faces(n, sides, sum))
            b.say(
                f"{u.side.title()} army morale -{lost} ({n}d{sides} = {lost}, {u.name} "
                f"removed): {morale[u.side]}"
            )
        if b.state.over:
            return
        quits = [s for s in SIDES if morale[s] <= 0]
        if not quits:
            return
        b.state.over = True
        b.state.winner = "draw" if len(quits) == 2 else other(quits[0])
        who = " and ".join(f"{s.title()} ({morale[s]})" for s in quits)
        result = "a draw" if len(quits) == 2 else f"the {b.state.winner.title()} wins"
        b.say(f"Army morale spent: the {who} army quits the field; {result}")
