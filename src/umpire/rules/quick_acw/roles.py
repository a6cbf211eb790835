"""The ``quick-acw`` module: seed 002 as the sequence, combat and status roles.

- sequence: TURN ORDER (command, move, rally, defensive fire by the 2nd player,
  offensive fire, melee), the Confederate first, then the Union;
- combat: command, movement, charges, fire and melee with their exact odds;
- status: the Morale Marker (one per unit; rallied by not moving).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from umpire.battle.effects import fx_flag
from umpire.battle.roles import (
    Choice,
    Composition,
    FixedTurn,
    Offer,
    Order,
    Phase,
    Request,
    RulesSpec,
    Step,
)
from umpire.rules.labels import Labelled, load_labels, load_steps
from umpire.rules.quick_acw import losses as LO
from umpire.rules.quick_acw import menu as M
from umpire.rules.quick_acw import reach as RCH
from umpire.rules.quick_acw import steps as S
from umpire.rules.quick_acw.odds import morale_odds
from umpire.rules.quick_acw.rules import DATA, FORMATIONS, Rules, morale_total, rules

if TYPE_CHECKING:
    from umpire.battle.engine import Battle
    from umpire.battle.state import Unit

SECOND = {"defensive_fire"}
"""Seed 002 TURN ORDER: "Defensive Fire (2nd player)"; every other step is the 1st player's."""


class QuickSequence(FixedTurn):
    """Seed 002 TURN ORDER: each player in turn goes through the whole sequence."""

    id = "quick-acw"

    def __init__(self, r: Rules):
        super().__init__(tuple(r.order))
        self.r = r

    def bind(self, comp: Composition) -> None:
        """Make the turn's phases once: the steps come from the combat and status roles."""
        made: dict[str, Step | None] = {
            "command": comp.combat.step("command"),
            "move": comp.combat.step("move"),
            "rally": comp.status.step("rally"),
            "defensive_fire": comp.combat.step("fire", mode="defensive"),
            "offensive_fire": comp.combat.step("fire", mode="offensive"),
            "melee": comp.combat.step("melee"),
        }
        phases = [Phase(self.order[0], name, step) for name, step in comp.hooks("turn_start")]
        n = len(self.order)
        for p, side in enumerate(self.order):
            for name in self.r.sequence:
                who = self.order[(p + 1) % n] if name in SECOND else side
                if name in SECOND:  # the events' reaction point: the 2nd player reacts
                    phases += [Phase(who, hook, st) for hook, st in comp.hooks("reaction")]
                step = made[name]
                if step is not None:
                    phases.append(Phase(who, name, step))
        phases += [Phase(self.order[-1], name, step) for name, step in comp.hooks("turn_end")]
        end = comp.status.step("turn_end")
        if end is not None:
            phases.append(Phase(self.order[-1], "status_turn_end", end))
        self.phases = phases


class QuickCombat:
    """Seed 002 COMMAND, MOVE, FIRE, charges and MELEE."""

    id = "quick-acw"
    formations = FORMATIONS

    def __init__(self, r: Rules):
        self.data = r
        self.geometry = r.geometry
        self.bases = r.bases
        # The menu's functions themselves, not methods that call them: the generic AI asks
        # at every decision, and a method of this class is one more interpreted frame.
        self.options: Callable[[Battle, Request], list[Choice]] = M.options
        """The legal orders in words with their exact odds (menus and the generic AI)."""
        self.offers: Callable[[Battle, Request], list[Offer]] = M.offers
        """The same menu before its legality tests (the generic AI tests what it picks)."""
        self.check: Callable[[Battle, Request, Order], None] = M.check
        """Refuse an illegal order with its reason (the step checks again when applying)."""
        self.reach: Callable[[Battle, Unit], float] = RCH.fire_reach
        """Seed 002 FIRE: the longest range of its table row (0: cannot fire); seed 004's
        pass-through fire asks it for every enemy after every move step."""

    def step(self, kind: str, **params: Any) -> Step:
        """The seed 002 step of ``kind``; fire takes ``mode`` and an optional ``units`` filter."""
        if kind == "command":
            return S.CommandStep()
        if kind == "move":
            return S.MoveStep()
        if kind == "fire":
            return S.FireStep(
                params.get("units", "all"),
                params.get("targets", "any"),
                fx_flag(params.get("mark", ""), "mark"),
                fx_flag(params.get("blocked_by", ""), "blocked_by"),
                params.get("mode", "offensive"),
            )
        if kind == "melee":
            return S.MeleeStep()
        raise KeyError(f"quick-acw has no '{kind}' step")

    def leader_rating(self, side: str, leader_id: str) -> tuple[int, float]:
        """Seed 002 LEADERS: the named ratings, else the side's bonus and radius."""
        named = self.data.named_leaders.get(leader_id)
        if named:
            return named
        s = self.data.sides[side]
        return s.leader_bonus, s.leader_radius

    def lose_stands(self, b: Battle, u: Unit, n: int, cause: str) -> None:
        """Seed 002: stands lost, the attached leader's roll, removal below half."""
        LO.lose_stands(b, u, n, cause)

    def explain(self, b: Battle, req: Request, choice: Choice) -> list[str]:
        """Why a menu entry reads as it does: the allowance and its factors, a shot's
        number and modifiers (issue 23)."""
        return M.explain(b, req, choice)

    def move_rate(self, b: Battle, u: Unit) -> float:
        """Seed 002 MOVEMENT + COMMAND + LEADERS: a full move in the open as it stands now."""
        return RCH.allowance(b, u, u.formation, u.mounted, u.limbered, None, False)

    def displace(
        self, b: Battle, u: Unit, frm: Unit, inches: float, face_away: bool, why: str
    ) -> None:
        """Default ``blocked_retreat_stops``: straight away, stopping before a base."""
        LO.move_away(b, u, frm, inches, face_away, why)


class QuickStatus:
    """Seed 002 Morale Markers: "MM are not cumulative"; rallied by not moving."""

    id = "quick-acw"

    def on_hit(self, b: Battle, u: Unit, margin: int, stands: int, cause: str) -> None:
        """Seed 002 FIRE: "Any hit unit loses one stand & gets a MM" (two if beaten by 8)."""
        LO.lose_stands(b, u, stands, cause)
        LO.add_marker(b, u)

    def recover(self, b: Battle, u: Unit, cause: str) -> bool:
        """Take the Morale Marker off (an event's recovery); False if it had none."""
        if not (u.alive and u.marker):
            return False
        u.marker = False
        b.record(u)
        if b.narrate:
            b.say(f"  {u.name} rallies ({cause})")
        return True

    def on_setback(self, b: Battle, u: Unit, kind: str, frm: Unit | None) -> None:
        """Seed 002: a failed charge takes a MM; a failed stand or "#" retreats, then a MM.

        Kinds it does not know (an event's ``disorder``, another combat's) are its mildest
        setback: a Morale Marker without a retreat."""
        if kind in ("stand_failed", "melee_retreat") and frm is not None and u.alive:
            n, sides = LO.retreat_dice(u)
            inches = sum(b.roll(n, sides, f"{u.name} retreats ({n}d{sides} inches)"))
            if b.luck is not None:  # reading retreat_luck: the farther, the better for the enemy
                b.note(frm.side, "inches driven back", inches, LO.retreat_dist(n, sides))
            LO.move_away(b, u, frm, inches, False, "retreat")
        LO.add_marker(b, u)

    def move_limit(self, b: Battle, u: Unit) -> str:
        """Seed 002 MOVE: a unit with a MM may only hold, turn about or rout."""
        return "rally" if u.marker else "free"

    def may_fire(self, b: Battle, u: Unit) -> bool:
        """A MM does not stop fire (it is -1 to the roll)."""
        return True

    def fire_on_engaged(self, b: Battle, u: Unit) -> bool:
        """Default ``engaged_no_fire`` decides who may fire at a unit in contact."""
        return True

    def step(self, kind: str, **params: Any) -> Step | None:
        """``rally``: seed 002 Rally; nothing at the end of the turn."""
        if kind == "rally":
            return S.RallyStep()
        return None

    def label(self, u: Unit) -> str:
        """ "MM" for a Morale Marker."""
        return "MM" if u.marker else ""


class QuickMorale:
    """Seed 002 MORALE: 2d6 + leader bonus, -1 with a MM, against 8+ (USA) / 7+ (CSA).

    The charge and stand tests of seed 002's combat and the rally from rout of 004's ladder
    ask it through ``b.comp.morale``; it reads seed 002's numbers from its own data, so it
    can serve another module's combat too."""

    id = "quick-acw"

    def __init__(self, r: Rules):
        self.r = r

    def test(self, b: Battle, u: Unit, purpose: str) -> bool:
        """Roll ``u``'s 2d6 test for ``purpose`` (a charge test reads the charge effects)."""
        return S.morale_roll(b, u, purpose, self.r)

    def pass_odds(self, b: Battle, u: Unit, purpose: str) -> Fraction:
        """Exact P(the test passes), the numbers of ``steps.charge_mods``."""
        r = self.r
        mod = morale_total(LO.attached_bonus(b, u), u.marker, r)
        if u.extra:
            mod += LO.total(
                LO.effect_mods(u, "charge" if purpose == "charge test" else "morale", r)
            )
        return morale_odds(r.sides[u.side].morale, mod)


class QuickACW:
    """The role module ``quick-acw``."""

    id = "quick-acw"
    name = "Quick ACW miniatures rules (MWAN #101)"
    seed = "002"
    provides = ("sequence", "combat", "status", "morale")
    options: Mapping[str, str] = {}

    def defaults(self) -> list[Labelled]:
        """Every labelled default and reading of ``data/labels.toml``."""
        return load_labels(DATA / "labels.toml")

    def steps(self) -> dict[str, str]:
        """Each step's name in words (``[steps]`` of data/labels.toml), for headings."""
        return load_steps(DATA / "labels.toml")

    def role(self, kind: str, spec: RulesSpec) -> Any:
        """The role object of ``kind``."""
        r = rules()
        if kind == "sequence":
            return QuickSequence(r)
        if kind == "combat":
            return QuickCombat(r)
        if kind == "status":
            return QuickStatus()
        if kind == "morale":
            return QuickMorale(r)
        raise KeyError(kind)

    def needs(self, kind: str) -> Mapping[str, tuple[frozenset[str], str]]:
        """Seed 002's roles run with any module in the other roles."""
        return {}

    def policy(self, kind: str, comp: Composition, seed: int) -> Any:
        """The specialised policies for a pure seed 002 battle: the scripted AI, random."""
        pure = comp.sequence.id == comp.combat.id == comp.status.id == comp.morale.id == self.id
        pure = pure and not comp.events
        if not pure:
            return None
        if kind == "ai":
            from umpire.rules.quick_acw.ai import ScriptedAI

            return ScriptedAI()
        if kind == "random":
            from umpire.rules.quick_acw.ai import RandomQuickPolicy

            return RandomQuickPolicy(seed)
        return None

    def invariants(self, comp: Composition) -> Any:
        """What must hold after every step (``umpire.battle.invariants``), per role filled."""
        from umpire.rules.quick_acw import invariants

        return invariants.invariants(comp)

    def features(self, comp: Composition) -> Any:
        """Seed 002's rules and tables whose use a conformance run counts."""
        from umpire.rules.quick_acw import invariants

        return invariants.features(comp)

    def batch(self, comp: Composition) -> Any:
        """The batch simulator, for pure seed 002 battles (``umpire.lab``'s fast path)."""
        pure = comp.sequence.id == comp.combat.id == comp.status.id == comp.morale.id == self.id
        pure = pure and not comp.events
        if not pure:
            return None
        from umpire.rules.quick_acw import batch

        return batch


MODULE = QuickACW()
