"""Seed 002's invariants and features, for the conformance suite (``umpire.battle.invariants``).

Each invariant cites the seed's section and is checked after every step of every battle
whose composition uses this module in the role it belongs to (combat or status). The
features are the rules and tables of seed 002 whose use a large run counts, so a rule that
thousands of battles never reach is reported.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from umpire.battle import orders as od
from umpire.battle.effects import fx
from umpire.battle.invariants import (
    Feature,
    Invariant,
    StepSeen,
    order_change,
    order_count,
    roll_count,
    said_count,
)
from umpire.board.geometry import segment_hits_box
from umpire.rules.quick_acw import reach as RCH
from umpire.rules.quick_acw import rules as R

if TYPE_CHECKING:
    from umpire.battle.roles import Composition

MODULE = "quick-acw"
SLACK = 1e-3
"""Inches a measured distance may exceed its allowance by (floats, bases' corners)."""


def _removed_below_half(seen: StepSeen) -> list[str]:
    """002 MORALE: "Any unit reduced to less than 1/2 of its original stands is removed"."""
    b = seen.battle
    return [
        f"{u.name} has {u.stands} of {u.stands0} stands and is still on the table"
        for u in b.state.units
        if u.alive and R.is_removed(u.stands, u.stands0, b.r)
    ]


def _move_allowance(seen: StepSeen) -> list[str]:
    """002 MOVEMENT: a move covers at most its allowance (formation change, rough ground,
    command radius and a lost leader included)."""
    if seen.kind != "move" or not isinstance(seen.order, od.Move) or seen.actor is None:
        return []
    i = seen.actor
    dist = seen.moved(i)
    if dist <= SLACK:
        return []
    p = seen.prior()
    u = p.state.units[i]
    change = str(seen.order.change)
    form, mounted, limbered, cost = RCH.after_change(u, change)
    x, y = seen.now(i, "x"), seen.now(i, "y")
    board = p.setup.board
    rough = board.path_rough(u.x, u.y, x, y) or board.is_rough(x, y)
    allow = RCH.allowance(p, u, form, mounted, limbered, cost, rough)
    if u.extra and fx(u, "terrain"):  # seed 001's Find the Way / Rough Going
        allow = max(allow, RCH.allowance(p, u, form, mounted, limbered, cost, False))
    if dist > allow + SLACK:
        return [f'{u.name} moved {dist:.2f}" with an allowance of {allow:.2f}"']
    return []


_TEST = re.compile(r"^  (.+) (charge test|stand test): .*: (pass|fail)$")


_CHARGES = re.compile(r"^(?:.*: )?(.+?) charges (.+?)(?: in flank/rear)?$")


def _charge_reaches(seen: StepSeen) -> list[str]:
    """002 charge paragraph: a charge that passes its test against a target that stands
    reaches contact (and is fought in the melee), or the narrative says why it stopped.
    Every charge the step narrates is checked: a move order's, and a counter-charge an
    event forces in the reaction phase (001 event 20)."""
    if not seen.said:
        return []
    b = seen.battle
    by_name = {u.name: u for u in b.state.units}
    tests = {}
    for line in seen.said:
        m = _TEST.match(line)
        if m:
            tests[(m.group(1), m.group(2))] = m.group(3) == "pass"
    out = []
    for line in seen.said:
        m = _CHARGES.match(line.strip())
        if not m or m.group(1) not in by_name or m.group(2) not in by_name:
            continue
        u, t = by_name[m.group(1)], by_name[m.group(2)]
        if not (tests.get((u.name, "charge test")) and tests.get((t.name, "stand test"))):
            continue
        if not (u.alive and t.alive):
            continue
        if any(c[0] == u.i and c[1] == t.i for c in b.state.contacts):
            continue
        words = ("stops", "blocked", "halts", "cannot reach")
        if any(u.name in x and any(w in x for w in words) for x in seen.said):
            continue
        out.append(
            f"{u.name} passed its charge, {t.name} stood, and no contact was made nor explained"
        )
    return out


_PARTED = ("retreat", "rout", "falls back", "withdraw", "away from")
"""Words of a narrative line that tell why a unit left a contact (a setback's move)."""


def _contact_kept(seen: StepSeen) -> list[str]:
    """002 TURN ORDER "Melee—any enemy units touching now fight": units a charge brought
    into contact stay touching until the melee step (default
    ``contact_kept_when_stands_lost``), or the step that parts them says why (a unit
    removed, or a setback's retreat or rout: seed 004's ladder may fire at a charger in
    contact, reading ``engaged_not_fired_on``)."""
    contacts = seen.before["contacts"]
    if not contacts:
        return []
    b = seen.battle
    us = b.state.units
    out = []
    prior = None
    for a, d, *_ in contacts:
        if not (us[a].alive and us[d].alive) or d in b.touching(us[a]):
            continue
        prior = prior or seen.prior()
        pa = prior.state.units[a]
        if not (pa.alive and prior.state.units[d].alive) or d not in prior.touching(pa):
            continue  # parted before this step: reported there
        names = (us[a].name, us[d].name)
        told = any(
            any(n in line for n in names) and any(w in line for w in _PARTED) for line in seen.said
        )
        if not told:
            out.append(f"{us[a].name} charged into {us[d].name}; they parted without a word")
    return out


_ROUT = re.compile(r'^  (.+) routs ([0-9.]+)" away from ')


def _rout_distance(seen: StepSeen) -> list[str]:
    """002 MOVEMENT ROUT: up to 12" foot and artillery ("Foot" includes dismounted cavalry)
    or 24" mounted cavalry, and the narrative says how far the rout went. The distance
    said is compared where the rout is the unit's only move of the step (as in
    ``retreat-distance``): a unit that also closed up on its enemy (a melee's losses) or
    routed twice moved its centre by more than one distance."""
    b = seen.battle
    routs: dict[str, int] = {}
    other: set[str] = set()
    for line in seen.said:
        m = _ROUT.match(line)
        if m:
            routs[m.group(1)] = routs.get(m.group(1), 0) + 1
        elif "closes up on" in line or " charges " in line:
            other.add(line.strip().split(" closes up on ")[0].split(" charges ")[0])
    out = []
    for line in seen.said:
        m = _ROUT.match(line)
        if not m:
            continue
        u = next((v for v in b.state.units if v.name == m.group(1)), None)
        if u is None:
            continue
        said = float(m.group(2))
        went = seen.moved(u.i)
        once = routs[u.name] == 1 and u.name not in other
        if u.alive and once and abs(went - said) > 0.05:
            out.append(f'{u.name}: the narrative says it routed {said:g}", it moved {went:.2f}"')
        mounted = u.type == "cavalry" and bool(seen.was(u.i, "mounted"))
        limit = 24.0 if mounted else 12.0
        if went > limit + SLACK:
            out.append(f'{u.name} routed {went:.2f}", more than {limit:g}"')
    return out


_AWAY = re.compile(r'^  (.+) (?:retreats|routs) ([0-9.]+)" away from ')


def _retreat_distance(seen: StepSeen) -> list[str]:
    """002 charge paragraph and MELEE "#": a retreat of 2D6" (3D6") "directly away from the
    enemy", or a rout; one that is blocked says the distance it actually moved (default
    ``blocked_retreat_stops``). Checked where the step moved the unit once."""
    b = seen.battle
    lines: dict[str, list[float]] = {}
    other: set[str] = set()
    for line in seen.said:
        m = _AWAY.match(line)
        if m:
            lines.setdefault(m.group(1), []).append(float(m.group(2)))
        elif "closes up on" in line or " charges " in line:
            other.add(line.strip().split(" closes up on ")[0].split(" charges ")[0])
    out = []
    for name, said in lines.items():
        u = next((v for v in b.state.units if v.name == name), None)
        if u is None or not u.alive or len(said) != 1 or name in other:
            continue
        went = seen.moved(u.i)
        if abs(went - said[0]) > 0.05:
            out.append(
                f'{u.name}: the narrative says it moved {said[0]:g}" away, it moved {went:.2f}"'
            )
    return out


def _unlimbered_rout(seen: StepSeen) -> list[str]:
    """002 MOVEMENT ROUT, "Artillery—unlimbered ... limbers" (reading
    ``unlimbered_artillery_rout``): an unlimbered gun ordered to rout limbers in place."""
    o = seen.order
    if seen.kind != "move" or not o or o.kind != "rout" or seen.actor is None:
        return []
    u = seen.battle.state.units[seen.actor]
    if u.type != "artillery" or seen.was(u.i, "limbered"):
        return []
    out = []
    if seen.moved(u.i) > SLACK:
        out.append(f'{u.name} routed {seen.moved(u.i):.2f}" though unlimbered: it limbers first')
    if u.alive and not u.limbered:
        out.append(f"{u.name} was ordered to rout and is still unlimbered")
    return out


def _fire_rules(seen: StepSeen) -> list[str]:
    """002 FIRE: "Mounted cavalry can't fire. You can't shoot through friendly troops." """
    o = seen.order
    if seen.kind != "fire" or o is None or o.kind != "fire" or seen.actor is None:
        return []
    p = seen.prior()
    u, t = p.state.units[seen.actor], p.state.units[int(o.t)]
    out = []
    if u.type == "cavalry" and u.mounted:
        out.append(f"{u.name} fired while mounted")
    for v in p.state.units:
        if v.alive and v.side == u.side and v.i != u.i:
            inner = (v.x, v.y, math.cos(v.theta), math.sin(v.theta), v.hw - 1e-3, v.hd - 1e-3)
            if segment_hits_box(u.x, u.y, t.x, t.y, inner):
                out.append(f"{u.name} fired at {t.name} through {v.name}")
    return out


def _marker_limits(seen: StepSeen) -> list[str]:
    """002 MOVEMENT: "units with Morale Markers (MM) may either 1) not move except to turn
    around 180 degrees, or 2) make a Rout move"."""
    o = seen.order
    if seen.kind != "move" or not o or seen.actor is None:
        return []
    if not seen.was(seen.actor, "marker") or o.kind in ("hold", "turn", "rout"):
        return []
    name = seen.battle.state.units[seen.actor].name
    if o.kind == "charge" or seen.moved(seen.actor) > SLACK:
        return [f"{name} has a Morale Marker and made a {o.kind}"]
    return []


def _rally(seen: StepSeen) -> list[str]:
    """002 Rally: "remove Morale Markers from 1st player's units that did not move except
    to change facing"."""
    if seen.name != "rally":
        return []
    return [
        f"{u.name} lost its Morale Marker in the rally though it moved"
        for u in seen.battle.state.units
        if seen.was(u.i, "marker") and not u.marker and u.alive and seen.was(u.i, "moved")
    ]


def invariants(comp: Composition) -> Sequence[Invariant]:
    """Seed 002's invariants for the roles it fills in ``comp``."""
    out: list[Invariant] = []
    if comp.combat.id == MODULE:
        out += [
            Invariant(
                "removal", "002 MORALE", "units below half strength leave", _removed_below_half
            ),
            Invariant("move-allowance", "002 MOVEMENT", "moves within allowance", _move_allowance),
            Invariant(
                "charge-reaches", "002 charge", "a passed charge makes contact", _charge_reaches
            ),
            Invariant("rout-distance", "002 MOVEMENT ROUT", "routs as far as said", _rout_distance),
            Invariant(
                "retreat-distance",
                "002 charge paragraph, MELEE #",
                "retreats and routs move as far as the narrative says",
                _retreat_distance,
            ),
            Invariant(
                "unlimbered-rout",
                "002 MOVEMENT ROUT",
                "an unlimbered gun limbers in place to rout",
                _unlimbered_rout,
            ),
            Invariant("fire", "002 FIRE", "no mounted fire, none through friends", _fire_rules),
            Invariant("contact-kept", "002 TURN ORDER Melee", "contacts last", _contact_kept),
        ]
    if comp.status.id == MODULE:
        out += [
            Invariant("marker-moves", "002 MOVEMENT", "a MM holds, turns or routs", _marker_limits),
            Invariant("rally", "002 Rally", "only units that did not move rally", _rally),
        ]
    return out


def features(comp: Composition) -> Sequence[Feature]:
    """The rules and tables of seed 002 whose use a run counts."""
    out: list[Feature] = []
    if comp.combat.id == MODULE:
        out += [
            Feature("fire", "002 FIRE", "fire table", roll_count(" fires at ")),
            Feature("charge-test", "002 charge", "charge tests", roll_count("charge test")),
            Feature("stand-test", "002 charge", "stand tests", roll_count("stand test")),
            Feature("melee", "002 MELEE", "melee table", said_count("Melee ")),
            Feature("retreat", "002 MELEE #", "retreats 2D6/3D6", said_count("retreats")),
            Feature(
                "leader-loss", "002 LEADERS", "leader casualty rolls", roll_count("leader casualty")
            ),
            Feature("removal", "002 MORALE", "units removed", said_count("is removed")),
            Feature("move", "002 MOVEMENT", "moves", order_count("move")),
            Feature(
                "formation-change",
                "002 MOVEMENT",
                "formation changes",
                order_change("line", "column"),
            ),
            Feature(
                "mount", "002 MOVEMENT", "mount or dismount", order_change("mount", "dismount")
            ),
            Feature(
                "limber", "002 MOVEMENT", "limber or unlimber", order_change("limber", "unlimber")
            ),
            Feature("rout-move", "002 MOVEMENT ROUT", "rout moves", order_count("rout")),
            Feature(
                "contact",
                "002 charge",
                "charges that reach contact",
                said_count("makes contact with", "which could not get away"),
            ),
            Feature(
                "close-up",
                "002 TURN ORDER Melee",
                "units in contact closing up as they lose stands",
                said_count(" closes up on "),
            ),
            Feature(
                "blocked-move",
                "002 MOVEMENT",
                "retreats, routs and charges stopped short",
                said_count(" in the way"),
            ),
            Feature(
                "limber-to-rout",
                "002 MOVEMENT ROUT",
                "unlimbered guns limbering to rout",
                said_count("limbers in place"),
            ),
            Feature("about-face", "002 MOVEMENT", "turn about 180", order_count("turn")),
        ]
    if comp.status.id == MODULE:
        out += [
            Feature("rally", "002 Rally", "Morale Markers removed", said_count(" rallies")),
            Feature(
                "morale-marker",
                "002 FIRE",
                "Morale Markers taken",
                said_count("takes a Morale Marker"),
            ),
        ]
    return out
