"""The ``action-reaction`` module: seed 003 as the sequence, combat and status roles.

- sequence: XII (rally routed units, stop reactions, senior officers, fog, smoke,
  movement and charge announcements), the charges (XIII-XIV), ordered firing (XV);
- combat: infantry fire on the rifle stick, artillery rounds with ammunition per gun,
  charges with cheers and reactions, hand-to-hand in line and in column;
- status: reaction, disruption, rout and stall (the marks 003's combat keeps).

Its combat also runs under another sequence (seed 004's five steps or card draw), whose
status then marks the setbacks (reading ``sequence_xii``; docs/action_reaction.md).
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from umpire.battle import orders as od
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
from umpire.errors import IllegalActionError, UmpireError
from umpire.rules.action_reaction import ammo as A
from umpire.rules.action_reaction import charging as CH
from umpire.rules.action_reaction import firing as FI
from umpire.rules.action_reaction import marks as MK
from umpire.rules.action_reaction import menu as MN
from umpire.rules.action_reaction import movement as MV
from umpire.rules.action_reaction import moving as MOV
from umpire.rules.action_reaction import officers as O
from umpire.rules.action_reaction import steps as S
from umpire.rules.action_reaction.artillery import DATA, data
from umpire.rules.labels import Labelled, load_labels, load_steps

if TYPE_CHECKING:
    from umpire.battle.engine import Battle
    from umpire.battle.state import Unit


class ArSequence(FixedTurn):
    """XII-XV: the turn of seed 003 (reading ``sequence_xii``)."""

    id = "action-reaction"

    def __init__(self, spec: RulesSpec):
        a = spec.first or "confederate"
        super().__init__((a, "union" if a == "confederate" else "confederate"))
        self.fog = spec.option("fog", False)

    def bind(self, comp: Composition) -> None:
        """The turn's phases, made once from the roles."""
        a, other = self.order
        ph = [Phase(a, "muster", S.Muster())]
        ph += [Phase(a, name, step) for name, step in comp.hooks("turn_start")]
        ph += [
            Phase(a, "rally_routed", S.RallyRouted()),
            Phase(a, "stop_reactions", S.StopReactions()),
        ]
        ph += [Phase(a, "senior_officers", S.SeniorOfficers())]
        if self.fog:
            ph.append(Phase(a, "fog", S.Fog(self.fog)))
        ph.append(Phase(a, "smoke", S.Smoke()))
        move = comp.combat.step("move")
        fire = comp.combat.step("fire")
        assert move is not None and fire is not None  # needs(): 003's combat has both
        ph += [Phase(a, "move", move), Phase(other, "move", move)]
        melee = comp.combat.step("melee")
        if melee is not None:
            ph.append(Phase(a, "charges", melee))
        ph += [Phase(a, "fire", fire), Phase(other, "fire", fire)]
        ph += [Phase(a, name, step) for name, step in comp.hooks("turn_end")]
        end = comp.status.step("turn_end")
        if end is not None:
            ph.append(Phase(a, "status_turn_end", end))
        self.phases = ph


class ArCombat:
    """XI-XV: fire, artillery, charges, reactions and hand-to-hand."""

    id = "action-reaction"
    formations = MV.FORMATIONS

    def __init__(self) -> None:
        raw = data()
        self.data = raw
        self.geometry = {k: float(v) for k, v in raw["geometry"].items()}
        self.bases = {k: (float(v["width"]), float(v["depth"])) for k, v in raw["bases"].items()}

    def step(self, kind: str, **params: Any) -> Step | None:
        """``move``, ``fire`` (``units``, ``targets``, ``mark``, ``blocked_by``), ``melee`` (the
        charges); 003 has no command step (officers stand in for it)."""
        if kind == "move":
            return S.MoveStep()
        if kind == "fire":
            return S.FireStep(
                params.get("units", "all"),
                params.get("targets", "any"),
                fx_flag(params.get("mark", ""), "mark"),
                fx_flag(params.get("blocked_by", ""), "blocked_by"),
            )
        if kind == "melee":
            return S.Charges()
        if kind == "command":
            return None
        raise KeyError(f"action-reaction has no '{kind}' step")

    def leader_rating(self, side: str, leader_id: str) -> tuple[int, float]:
        """003 rates no leaders (its officers belong to the units): no bonus, 12" radius."""
        return 0, 12.0

    def lose_stands(self, b: Battle, u: Unit, n: int, cause: str) -> None:
        """XVII: pieces off, officers checked, the senior captain, the loss roll."""
        MK.lose_pieces(b, u, n, cause)

    def move_rate(self, b: Battle, u: Unit) -> float:
        """XII.F: the unit's movement as it stands (fog deducted)."""
        return MOV.allowance(b, u, u.formation, u.mounted, u.limbered)

    def reach(self, b: Battle, u: Unit) -> float:
        """The rifle stick (27"); artillery: the table (its rounds fly any distance)."""
        if not FI.may_fire(b, u):
            return 0.0
        if u.type == "artillery":
            return float(max(b.setup.board.width, b.setup.board.height))
        stick = self.data["stick"]
        return float(stick["rifle_section"]) * len(stick["rifle"])

    def displace(
        self, b: Battle, u: Unit, frm: Unit, inches: float, face_away: bool, why: str
    ) -> None:
        """Straight away from ``frm``, stopping before a base (a collision, XVII.D)."""
        FI.displace(b, u, frm, inches, face_away, why)

    def explain(self, b: Battle, req: Request, choice: Choice) -> list[str]:
        """Why a menu entry reads as it does: allowance and cuts, stick numbers."""
        return MN.explain(b, req, choice)

    def options(self, b: Battle, req: Request) -> list[Choice]:
        """The legal orders with their exact odds."""
        return MN.options(b, req)

    def offers(self, b: Battle, req: Request) -> list[Offer]:
        """The same menu before the moves' legality tests (the generic AI tests what it picks)."""
        return MN.offers(b, req)

    def check(self, b: Battle, req: Request, order: Order) -> None:
        """Refuse an illegal order with its reason, changing nothing."""
        u = b.state.units[req.actor]
        typed = od.as_order(order)
        kind = typed.kind
        if kind == "hold":
            return
        if req.kind == "move" and isinstance(typed, od.Move):
            change = str(typed.change)
            MOV.check_move(b, u, float(typed.x), float(typed.y), float(typed.theta), change)
            return
        if req.kind == "move" and isinstance(typed, od.Charge):
            t = int(typed.t)
            if not 0 <= t < len(b.state.units):
                raise IllegalActionError(f"no unit {t}")
            why = CH.may_charge(b, u, b.state.units[t])
            if why:
                raise IllegalActionError(why)
            return
        if req.kind == "fire" and typed.kind == "fire":
            fire_at = {c.order.t for c in MN.fire_offers(b, u) if c.order.kind == "fire"}
            if int(typed.t) not in fire_at:
                raise IllegalActionError(FI.why_not_fire(b, u, int(typed.t)))
            if u.type == "artillery" and typed.called is not None:
                tu = b.state.units[int(typed.t)]
                FI.called_range(b, u, tu, typed, A.kind_of(str(typed.ammo)))
            return
        raise IllegalActionError(f"'{kind}' is not an order for a {req.kind} step")


class ArStatus:
    """The marks of 003: in reaction, disrupted, routed, stalled (reading ``in_reaction``)."""

    id = "action-reaction"

    def on_hit(self, b: Battle, u: Unit, margin: int, stands: int, cause: str) -> None:
        """003's fire marks nothing by itself: its reactions and the loss roll do."""

    def on_setback(self, b: Battle, u: Unit, kind: str, frm: Unit | None) -> None:
        """The marks: ``rout`` (routed the inches the combat gives, rallied at XII.A);
        ``withdraw``, ``retreat``, ``stand_failed``, ``prone``, ``fire_reaction`` (in
        reaction, XII.B); ``disrupted``, ``melee_retreat``, ``charge_failed``, ``disorder``
        (a red disruption marker)."""
        bk = MK.book(b, u)
        if kind == "rout":
            bk["rout"] = float(bk.get("rout_inches", 9.0))
            bk["react"] = "retreat"
        elif kind in ("withdraw", "retreat", "stand_failed", "prone", "fire_reaction"):
            bk["react"] = {"stand_failed": "retreat", "fire_reaction": "fire"}.get(kind, kind)
            if kind == "prone":
                bk["prone"] = True
        else:
            bk["disr"] = True
        b.record(u)

    def recover(self, b: Battle, u: Unit, cause: str) -> bool:
        """Take one mark off: disruption, then the reaction (an event's recovery)."""
        bk = MK.book(b, u)
        for key in ("disr", "react"):
            if bk.get(key):
                bk.pop(key)
                b.record(u)
                return True
        return False

    def move_limit(self, b: Battle, u: Unit) -> str:
        """Routed or stalled: none; in reaction: no advance."""
        bk = u.extra.get(MK.KEY, {})
        if bk.get("rout") or bk.get("stall"):
            return "none"
        return "no_advance" if bk.get("react") else "free"

    def may_fire(self, b: Battle, u: Unit) -> bool:
        """Not routed, not stalled (XII.C.4)."""
        bk = u.extra.get(MK.KEY, {})
        return not (bk.get("rout") or bk.get("stall"))

    def fire_on_engaged(self, b: Battle, u: Unit) -> bool:
        """003's own marks do not bar fire at units in contact."""
        return True

    def step(self, kind: str, **params: Any) -> Step | None:
        """``turn_end``: this turn's movement stalls end (XII's own steps rally)."""
        if kind == "turn_end":
            return S.TurnEnd()
        return None

    def label(self, u: Unit) -> str:
        """The marks in words."""
        bk = u.extra.get(MK.KEY, {})
        words = []
        if bk.get("rout"):
            words.append("Routed")
        if bk.get("stall"):
            words.append("Stalled")
        if bk.get("react"):
            words.append("Prone" if bk["react"] == "prone" else "In reaction")
        if bk.get("disr"):
            words.append("Disrupted")
        return ", ".join(words)


class ArMorale:
    """003 has no morale test: its contest of officers and men (XII.A) stands in, each officer
    against the men until one wins (reading ``any_officer_rallies``). Seed 003's steps ask
    it through ``b.comp.morale``, so a scenario may name another module's test."""

    id = "action-reaction"

    def test(self, b: Battle, u: Unit, purpose: str) -> bool:
        """XII.A.1-3: the officers contest the men, in turn, for ``purpose``."""
        return MK.contest(b, u, purpose)

    def pass_odds(self, b: Battle, u: Unit, purpose: str) -> Fraction:
        """Exact P(one of ``u``'s officers wins), as the menus quote it."""
        return O.rally_odds(int(MK.book(b, u)["off"]))


class ActionReaction:
    """The role module ``action-reaction``."""

    id = "action-reaction"
    name = "Action/Reaction in Miniature Wargaming (parts 5-6)"
    seed = "003"
    provides = ("sequence", "combat", "status", "morale")
    options: Mapping[str, str] = {
        "fog": "XII.D fog: true (thickness rolled on 1d6 at the first turn) or a thickness 1-6",
    }

    def defaults(self) -> list[Labelled]:
        """Every labelled default and reading of ``data/labels.toml``."""
        return load_labels(DATA / "labels.toml")

    def steps(self) -> dict[str, str]:
        """Each step's name in words (``[steps]`` of data/labels.toml), for headings."""
        return load_steps(DATA / "labels.toml")

    def invariants(self, comp: Composition) -> Any:
        """What must hold after every step (``umpire.battle.invariants``) with 003's combat."""
        from umpire.rules.action_reaction import invariants

        return invariants.invariants(comp)

    def features(self, comp: Composition) -> Any:
        """Seed 003's rules and tables whose use a conformance run counts."""
        from umpire.rules.action_reaction import invariants

        return invariants.features(comp)

    def warm(self) -> None:
        """Compute the exact odds the menus use once (the 7d10 case burst takes ~80 ms), so a
        long-running server does not make its first players wait for them."""
        for kind in ("solid_shot", "shell", "case", "canister"):
            for consecutive in (False, True):
                for within in range(4):
                    FI.round_odds(kind, consecutive, within)

    def role(self, kind: str, spec: RulesSpec) -> Any:
        """The role object of ``kind``."""
        if kind == "sequence":
            fog = spec.option("fog", False)
            if not (isinstance(fog, bool) or (isinstance(fog, int) and 1 <= fog <= 6)):
                raise UmpireError(f"[rules.options] fog is true, false or 1-6, not {fog!r}")
            return ArSequence(spec)
        if kind == "combat":
            return ArCombat()
        if kind == "status":
            return ArStatus()
        if kind == "morale":
            return ArMorale()
        raise KeyError(kind)

    def needs(self, kind: str) -> Mapping[str, tuple[frozenset[str], str]]:
        """The XII sequence needs 003's combat (its steps rally 003's marks)."""
        if kind == "sequence":
            return {
                "combat": (
                    frozenset({self.id}),
                    "the XII sequence rallies and thins the marks of seed 003's combat",
                )
            }
        if kind == "status":
            return {
                "combat": (
                    frozenset({self.id}),
                    "003's marks (reaction, disruption, rout) are made by 003's combat",
                )
            }
        if kind == "morale":
            return {
                "combat": (
                    frozenset({self.id}),
                    "003's contest sets a unit's officers against its men: 003's combat "
                    "keeps the officers",
                )
            }
        return {}


MODULE = ActionReaction()
