"""The seed 004 status ladder as the status role: what hits and failed tests do to a unit.

The unit's rung lives in ``u.extra["status"]`` with the turn and cursor position it was
set (``"set"``) and the turn of its last effect (``"hit"``); ``u.marker`` is kept true
while it is Shaken or worse, so the host combat's Morale Marker modifiers apply.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from umpire.battle.effects import fx
from umpire.battle.roles import AutoStep
from umpire.rules.sequence_cards.ladder import (
    Ladder,
    counts_as_marker,
    effect_for_margin,
    escalate,
    ladder,
)

if TYPE_CHECKING:
    from umpire.battle.engine import Battle
    from umpire.battle.state import Unit


def status_of(u: Unit) -> str:
    """The unit's rung ("" for none)."""
    return str(u.extra.get("status", ""))


class LadderStatus:
    """Seed 004 EFFECT: Stop < Shaken < Retreat < Lose < Route, escalating within a turn."""

    id = "five-step"

    def __init__(self, module_id: str, lad: Ladder | None = None):
        self.id = module_id
        self.lad = lad or ladder()

    # -- setting a rung ----------------------------------------------------------------
    def set_status(self, b: Battle, u: Unit, status: str, why: str) -> None:
        """Put ``u`` on a rung (or none), keep its marker in step, forget cached answers."""
        if status:
            u.extra["status"] = status
            u.extra["set"] = [b.state.turn, b.state.seq]
        else:
            for key in ("status", "set"):
                u.extra.pop(key, None)
        u.marker = counts_as_marker(status, self.lad)
        b.record(u)
        b.memo.clear()  # the combat caches legality answers that read the status
        if b.narrate:
            word = self.lad.words.get(status, "no marker") if status else "no marker"
            b.say(f"  {u.name}: {word} ({why})")

    def suffer(self, b: Battle, u: Unit, incoming: str, why: str) -> None:
        """Seed 004 EFFECT: apply an effect, escalated, and carry it out at once."""
        if not u.alive or not incoming:
            return
        prior = status_of(u)
        again = u.extra.get("hit") == b.state.turn
        new = escalate(prior, incoming, again, self.lad)
        u.extra["hit"] = b.state.turn
        self.set_status(b, u, new, why if new == incoming else f"{why}, escalated")
        combat = b.comp.combat
        if new in ("retreat", "lose", "route"):
            if new == "lose":
                combat.lose_stands(b, u, 1, why)
            if not u.alive:
                return
            en = b.nearest_enemy(u)
            if en is not None:
                rout = new == "route"
                combat.displace(
                    b, u, en, combat.move_rate(b, u), rout, "rout" if rout else "retreat"
                )

    # -- the status role ---------------------------------------------------------------
    def on_hit(self, b: Battle, u: Unit, margin: int, stands: int, cause: str) -> None:
        """Default ``fire_margin_effects``: the margin picks the rung (not the host's stands)."""
        self.suffer(b, u, effect_for_margin(margin, self.lad), f"{cause}, beaten by {margin}")

    def on_setback(self, b: Battle, u: Unit, kind: str, frm: Unit | None) -> None:
        """Reading ``setbacks_on_ladder``: a failed test's rung."""
        self.suffer(b, u, self.lad.setbacks.get(kind, "shaken"), kind.replace("_", " "))

    def recover(self, b: Battle, u: Unit, cause: str) -> bool:
        """Reading ``recover_one_rung``; False when the unit has no marker."""
        now = status_of(u)
        if not (u.alive and now):
            return False
        self.set_status(b, u, self.lad.recovery.get(now, ""), cause)
        return True

    def move_limit(self, b: Battle, u: Unit) -> str:
        """Stop, Retreated, Routed: no move; Shaken: no advance (default ``ladder_effects``)."""
        s = status_of(u)
        if not s:
            return "free"
        return "no_advance" if s == "shaken" else "none"

    def may_fire(self, b: Battle, u: Unit) -> bool:
        """Route: 'no fire until rallied'."""
        return status_of(u) != "route"

    def fire_on_engaged(self, b: Battle, u: Unit) -> bool:
        """Seed 004 EFFECT, reading ``engaged_not_fired_on``: '"Engaged" units cannot be
        fired upon', by anyone; a charge that reached contact in this movement is still
        charging until its melee (III step 4 fires 'at charging units' before step 5's
        melee), unless the data says Engaged from contact."""
        if self.lad.engaged_from != "melee":
            return False
        i = u.i  # b.state.contacts: [charger, target, flank] of this movement's charges
        return any(c[0] == i or c[1] == i for c in b.state.contacts)

    def step(self, kind: str, **params: Any) -> Any:
        """``rally``: markers expire after the unit's next movement (reading ``marker_expiry``)."""
        if kind == "rally":
            return LadderRally(self)
        return None

    def label(self, u: Unit) -> str:
        """Stop, Shaken, Retreated or Routed; else Moved once its units acted this turn
        (seed 004 EFFECT: markers for units 'Retreated' and 'Routed' instead of just 'Moved')."""
        s = status_of(u)
        if s:
            return self.lad.words.get(s, s)
        return "Moved" if u.extra.get("acted") else ""


class LadderRally(AutoStep):
    """Reading ``marker_expiry``: at the rally step after a movement, older markers lapse."""

    def __init__(self, status: LadderStatus):
        self.status = status

    def auto(self, b: Battle, side: str) -> None:
        """Markers set before the movement step just run lapse; Routed units try to rally."""
        st = b.state
        began = [st.turn, st.seq - 1]  # the movement step precedes this one
        scope = b.scope
        for u in st.units:
            if not u.alive or u.side != side or (scope is not None and u.i not in scope):
                continue
            if u.extra and (fx(u, "no_act") or fx(u, "no_rally")):
                continue  # an event forbids it this turn
            now = status_of(u)
            if not now or list(u.extra.get("set", began)) >= began:
                continue
            if now == "route":
                if b.comp.morale.test(b, u, "rally from rout"):
                    self.status.set_status(b, u, "shaken", "rallied")
                continue
            self.status.set_status(b, u, "", "marker lapses")
