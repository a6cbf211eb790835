"""Seed 003 in battle: the steps of the XII turn (muster, rally, reactions, officers, fog,
smoke, movement, charges, fire, the turn's end).

Everything 003 keeps on a unit lives in ``u.extra["ar"]`` (officers, hits carried, smoke
markers, reaction, disruption, rout, stall, ammunition per gun, the target fired at last);
the fog level in ``state.extra["ar"]``. The rulings are the pure functions of this
package (artillery, melee, officers, weather, movement, fire, ammo, terrain); the steps
roll their dice through the battle by ``marks`` (the unit's book, losses, reactions),
``ground`` (fog, walls, terrain dice), ``moving``, ``firing`` and ``charging`` (split from
this module in issue 25). Defaults and readings: ``data/labels.toml``
(docs/action_reaction.md).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from umpire.battle import orders as od
from umpire.battle.effects import CROSSED, FxKey, fx
from umpire.battle.roles import AutoStep
from umpire.errors import IllegalActionError
from umpire.rules.action_reaction import ammo as A
from umpire.rules.action_reaction import weather as W
from umpire.rules.action_reaction.charging import (
    may_charge,
    resolve_charge,
)
from umpire.rules.action_reaction.firing import (
    best_round,
    called_range,
    may_fire,
    rounds,
    targets,
    volley,
    why_not_fire,
)
from umpire.rules.action_reaction.ground import (
    hollows,
)
from umpire.rules.action_reaction.marks import (
    KEY,
    book,
    captain,
    d10,
    muster,
    say,
)
from umpire.rules.action_reaction.moving import (
    do_move,
)

if TYPE_CHECKING:
    from umpire.battle.engine import Battle
    from umpire.battle.state import Unit


# -- the steps of the XII sequence ------------------------------------------------------------


class Muster(AutoStep):
    """Every unit's 003 book at the start of the battle (officers, ammunition)."""

    def auto(self, b: Battle, side: str) -> None:
        muster(b)


class RallyRouted(AutoStep):
    """XII.A: each routed unit's officers against the men; the men: it routs again."""

    def auto(self, b: Battle, side: str) -> None:
        for u in b.state.units:
            bk = book(b, u) if u.alive else {}
            if not bk.get("rout"):
                continue
            if bk["off"] and b.comp.morale.test(b, u, "rallies"):
                bk.pop("rout")
                bk.pop("react", None)
                b.record(u)
                b.comp.status.recover(b, u, "rallied by an officer")
                continue
            inches = float(bk["rout"])
            en = b.nearest_enemy(u)
            say(
                b, f'{u.name} routs again {inches:g}"' + (" with its officers" if bk["off"] else "")
            )
            if en is not None:
                b.comp.combat.displace(b, u, en, inches, True, "rout")


class StopReactions(AutoStep):
    """XII.B: the officer-versus-men contest takes the reaction (and disruption) off."""

    def auto(self, b: Battle, side: str) -> None:
        for u in b.state.units:
            if not u.alive:
                continue
            bk = book(b, u)
            if bk.get("rout") or not (bk.get("react") or bk.get("disr")):
                continue
            if bk["off"] and b.comp.morale.test(b, u, "stops the reaction"):
                bk.pop("react", None)
                bk.pop("disr", None)
                b.record(u)
                b.comp.status.recover(b, u, "an officer stops the reaction")


class SeniorOfficers(AutoStep):
    """XII.C: a unit with no line officer left rolls for its senior captain."""

    def auto(self, b: Battle, side: str) -> None:
        for u in b.state.units:
            if u.alive and book(b, u)["off"] <= 0:
                captain(b, u)


class Fog(AutoStep):
    """XII.D: the fog's thickness (1d6) when it first comes, a card in each hollow; each
    hollow's fog thinned on its own even d10 (reading ``fog_per_hollow``)."""

    def __init__(self, start: int | bool):
        self.start = start

    def auto(self, b: Battle, side: str) -> None:
        st = b.state.extra.setdefault(KEY, {})
        n = hollows(b)[1]
        if "fog" not in st:
            if self.start is True:
                level = W.fog_thickness(b.roll(1, 6, "the fog's thickness (1d6)")[0])
            else:
                level = int(self.start)
            st["fog"] = level
            st["fog_hollows"] = [level] * n  # XII.D.1.c: a card in each hollow
            where = f" in each of the {n} hollows" if n > 1 else ""
            say(b, f"Fog: thickness {level}{where}")
            return
        levels = list(st.get("fog_hollows") or [st["fog"]] * n)
        if not any(levels):
            return
        words = []
        for h, level in enumerate(levels):
            if level > 0:
                which = f" in hollow {h + 1}" if n > 1 else ""
                face = d10(b, 1, f"does the fog{which} thin? (1d10, even)")[0]
                levels[h] = W.next_level(level, face)
                words.append(f"{which.strip()} ({face}): thickness {levels[h]}".strip())
        st["fog_hollows"] = levels
        st["fog"] = max(levels)
        say(b, "Fog " + ", ".join(words) if n > 1 else f"Fog {words[0]}")


class Smoke(AutoStep):
    """XII.E: each unit's smoke thins by one on an even d10."""

    def auto(self, b: Battle, side: str) -> None:
        for u in b.state.units:
            if u.alive and book(b, u)["smoke"] > 0:
                bk = book(b, u)
                face = d10(b, 1, f"{u.name}: does the smoke thin? (1d10, even)")[0]
                bk["smoke"] = W.next_level(bk["smoke"], face)
                if bk["smoke"] == 0:
                    bk.pop("canister_fired", None)  # reading canister_later_shot
                b.record(u)


class MoveStep:
    """XII.F: regular movement, formation changes, or a charge announced (a marker)."""

    kind = "move"

    def actors(self, b: Battle, side: str) -> list[int]:
        muster(b)  # under another sequence (no Muster step), before any player looks
        scope = b.scope
        out = []
        for u in b.state.units:
            if u.side == side and u.alive and (scope is None or u.i in scope):
                bk = book(b, u)
                if u.moved or u.charged or "charge" in bk:
                    u.moved = False
                    u.charged = False
                    bk.pop("charge", None)
                    b.record(u)
                if b.comp.sequence.id != "action-reaction" and book(b, u)["off"] <= 0:
                    captain(b, u)  # XII.C, where another sequence has no step for it
                out.append(u.i)
        return out

    def eligible(self, b: Battle, actor: int) -> bool:
        return b.state.units[actor].alive

    def apply(self, b: Battle, side: str, actor: int, order: od.Order) -> None:
        order = od.as_order(order)  # a plain tuple from a caller outside the engine
        u = b.state.units[actor]
        kind = order.kind
        if kind == "hold":
            return
        if isinstance(order, od.Move):
            change = str(order.change)
            do_move(b, u, float(order.x), float(order.y), float(order.theta), change)
            return
        if isinstance(order, od.Charge):
            t = int(order.t)
            if not 0 <= t < len(b.state.units):
                raise IllegalActionError(f"no unit {t}")
            why = may_charge(b, u, b.state.units[t])
            if why:
                raise IllegalActionError(why)
            book(b, u)["charge"] = t
            b.record(u)
            b.state.extra.setdefault(KEY, {}).setdefault("charges", []).append([u.i, t])
            say(b, f"{u.name} announces a charge on {b.state.units[t].name} (a charge marker)")
            return
        raise IllegalActionError(f"unknown move order '{kind}' (hold, move, charge)")

    def auto(self, b: Battle, side: str) -> None:  # pragma: no cover - asks each unit
        raise NotImplementedError


class Charges(AutoStep):
    """XIII-XIV: the announced charges, in the order they were announced."""

    def auto(self, b: Battle, side: str) -> None:
        st = b.state.extra.get(KEY, {})
        charges = st.pop("charges", [])
        if st.get("markers"):  # XIII.A.1's markers stand until the next turn's charges
            st["markers"] = [m for m in st["markers"] if m["turn"] == b.state.turn]
        us = b.state.units
        for a, t in charges:
            if book(b, us[a]).pop("charge", None) is not None:
                b.record(us[a])
                resolve_charge(b, us[a], us[t])


class FireStep:
    """XV: ordered firing; ``units`` and ``targets`` narrow it under other sequences."""

    kind = "fire"

    def __init__(
        self,
        units: str = "all",
        targets: str = "any",
        mark: FxKey | Literal[""] = "",
        blocked_by: FxKey | Literal[""] = "",
    ):
        self.units = units
        self.targets = targets
        self.mark = mark
        self.blocked_by = blocked_by

    def shots(self, b: Battle, u: Unit) -> list[tuple[Unit, float]]:
        """The targets this step allows ``u``."""
        if not may_fire(b, u):
            return []
        if self.blocked_by and u.extra and fx(u, self.blocked_by):
            return []
        if self.units == "artillery" and u.type != "artillery":
            return []
        found = targets(b, u)
        if self.targets == "chargers":
            found = [(t, d) for t, d in found if u.i in t.extra.get(CROSSED, ())]
        return found

    def actors(self, b: Battle, side: str) -> list[int]:
        muster(b)  # under another sequence (no Muster step), before any player looks
        return [u.i for u in b.state.units if u.alive and u.side == side]

    def eligible(self, b: Battle, actor: int) -> bool:
        return bool(self.shots(b, b.state.units[actor]))

    def apply(self, b: Battle, side: str, actor: int, order: od.Order) -> None:
        order = od.as_order(order)  # a plain tuple from a caller outside the engine
        u = b.state.units[actor]
        if isinstance(order, od.Hold):
            return
        if order.kind != "fire":
            raise IllegalActionError(f"a fire order is needed for {u.name}, not '{order.kind}'")
        t = int(order.t)
        if u.type == "artillery" and order.ammo:
            A.kind_of(str(order.ammo))  # an unknown round is one line, before anything else
        allowed = {v.i for v, _ in self.shots(b, u)}
        if t not in allowed:
            raise IllegalActionError(why_not_fire(b, u, t))
        target = b.state.units[t]
        if u.type == "artillery":
            kind = A.kind_of(str(order.ammo)) if order.ammo else best_round(b, u, target)
            if kind not in rounds(b, u, target):
                if kind == "canister":
                    raise IllegalActionError(
                        f"{u.name}: canister only on the rifle stick "
                        f'({b.dist(u.i, t):.1f}" is beyond it), or none is left'
                    )
                raise IllegalActionError(f"{u.name} has no {kind.replace('_', ' ')} left")
            volley(b, u, target, kind=kind, called=called_range(b, u, target, order, kind))
        else:
            volley(b, u, target)
        if self.mark:
            b.set_fx(u, self.mark, b.state.turn)

    def auto(self, b: Battle, side: str) -> None:  # pragma: no cover - asks each unit
        raise NotImplementedError


class TurnEnd(AutoStep):
    """XV.5 End Turn: this turn's marks end (movement stalls)."""

    def auto(self, b: Battle, side: str) -> None:
        for u in b.state.units:
            if u.alive and u.extra.get(KEY) and book(b, u).pop("still", None) is not None:
                b.record(u)
