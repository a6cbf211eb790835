"""Seed 003's invariants and features, for the conformance suite (``umpire.battle.invariants``).

Each invariant cites its seed section and is checked after every step of every battle whose
composition uses this module as its combat: the rulings issue 20 fixed (a charge fought or
its stop told, a broken charge fights no melee, moves within XII.F and XVI, the
accumulating smoke of later canister fire, no reaction to a battery that all misfired, fog
per hollow, the charge's markers) and the module's ranges. The features are seed 003's
rules and tables whose use a large run counts. Checks read; they never roll or change.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from umpire.battle import orders as od
from umpire.battle.invariants import (
    Feature,
    Invariant,
    StepSeen,
    order_change,
    order_count,
    roll_count,
    said_count,
)
from umpire.rules.action_reaction import firing as FI
from umpire.rules.action_reaction import ground as GD
from umpire.rules.action_reaction import marks as MK
from umpire.rules.action_reaction import moving as MOV

if TYPE_CHECKING:
    from umpire.battle.roles import Composition

MODULE = "action-reaction"
SLACK = 1e-3
"""Inches a measured distance may exceed its allowance by (floats)."""

_CHARGE = re.compile(r"^(\S.*) charges (.+) \([\d.]+\" away\)")
_ENDS = (
    "hand-to-hand ",
    "the charge falls short",
    "halts short of",
    "is broken by the fire",
    "halts at its farthest point of advance",
    "is removed",
)
"""Words that end a charge's account: it was fought, or the narrative says why not."""


def _blocks(seen: StepSeen) -> list[tuple[str, str, list[str]]]:
    """(charger, target, lines) for each charge the step resolved, up to the next one."""
    out: list[tuple[str, str, list[str]]] = []
    for line in seen.said:
        m = _CHARGE.match(line)
        if m:
            out.append((m.group(1), m.group(2), []))
        elif out:
            out[-1][2].append(line)
    return out


def _charge_told(seen: StepSeen) -> list[str]:
    """003 XIII-XIV: a charge that goes in is fought hand-to-hand, or the narrative says why
    it stopped (fell short, an obstacle, broken by the fire, the defender gone beyond its
    farthest advance, a unit removed)."""
    return [
        f"the charge of {a} on {t} ends without hand-to-hand or a word why"
        for a, t, lines in _blocks(seen)
        if not any(w in line for line in lines for w in _ENDS)
    ]


def _broken_no_melee(seen: StepSeen) -> list[str]:
    """003 XIII.B.1.(1)(d) with XVII.B-C (reading ``charge_broken_by_fire``): a charger the
    reaction fire broke (routed, stalled, in reaction, gone) fights no hand-to-hand."""
    out = []
    for a, t, lines in _blocks(seen):
        for k, line in enumerate(lines):
            if "is broken by the fire" in line and any(
                "hand-to-hand " in later for later in lines[k + 1 :]
            ):
                out.append(f"{a}'s charge on {t} was broken by the fire and fought on")
    return out


def _move_allowance(seen: StepSeen) -> list[str]:
    """003 XII.F (F.3.2-3: skirmishers stand up and go prone free) and XVI.C (downhill adds
    at most its 1D6 halved): a move covers at most its allowance."""
    o = seen.order
    if seen.kind != "move" or not isinstance(o, od.Move) or seen.actor is None:
        return []
    i = seen.actor
    dist = seen.moved(i)
    if dist <= SLACK:
        return []
    p = seen.prior()
    u = p.state.units[i]
    change = str(o.change)
    form, mounted, limbered, cost = MOV.after_change(u, change, bool(MK.book(p, u).get("prone")))
    allow = MOV.allowance(p, u, form, mounted, limbered) - cost
    allow += GD.downhill_most(p, u, seen.now(i, "x"), seen.now(i, "y"), form, mounted, limbered)
    if dist > allow + SLACK:
        return [f'{u.name} moved {dist:.2f}" with an allowance of {allow:.2f}"']
    return []


def _later_canister(seen: StepSeen) -> list[str]:
    """003 XI.A.4.b 'Consecutive Fire: Account for accumulating smoke roll 1 D6 halved'
    (reading ``canister_later_shot``): a battery whose canister smoke stood before the step
    rolls the accumulating smoke for each gun's canister; one whose smoke had cleared does
    not for its first gun."""
    if not any("canister" in r[2] for r in seen.rolls):
        return []
    p = seen.prior()
    out = []
    for u in p.state.units:
        if u.type != "artillery" or not u.alive:
            continue
        later = FI.later_canister(MK.book(p, u))
        prev = ""
        first = True
        for _, _, purpose, _ in seen.rolls:
            if purpose.startswith(f"{u.name} gun ") and purpose.endswith(": canister"):
                smoked = prev.endswith("accumulating smoke (1D6 halved)")
                if later and not smoked:
                    out.append(f"{u.name}: a later canister shot rolled no accumulating smoke")
                if first and not later and smoked:
                    out.append(f"{u.name}: a first canister shot rolled accumulating smoke")
                first = False
            prev = purpose
    return out


def _misfire_no_reaction(seen: StepSeen) -> list[str]:
    """003 XI.B.1.b.(1)(a) and XV.3 (reading ``misfire_no_reaction``): when every gun of the
    battery ordered to fire misfired, its target rolls no reaction."""
    if seen.kind != "fire" or seen.actor is None:
        return []
    name = seen.battle.state.units[seen.actor].name
    out = []
    for line in seen.said:
        if line.startswith(f"{name}: every gun misfires at "):
            t = line[len(f"{name}: every gun misfires at ") :].split(" (no smoke")[0]
            if any(r[2].startswith(f"{t} under fire: its reaction") for r in seen.rolls):
                out.append(f"{t} reacted to {name}'s fire, which all misfired")
    return out


def _fog_per_hollow(seen: StepSeen) -> list[str]:
    """003 XII.D.1 (reading ``fog_per_hollow``): each hollow's fog is 0 to 6 and the field's
    thickness is the thickest hollow's."""
    st = seen.battle.state.extra.get(MK.KEY, {})
    if "fog_hollows" not in st:
        return []
    levels = st["fog_hollows"]
    out = [f"a hollow's fog is {lv}" for lv in levels if not 0 <= lv <= 6]
    if levels and st.get("fog") != max(levels):
        out.append(f"the fog is {st.get('fog')} but its thickest hollow {max(levels)}")
    return out


def _charge_markers(seen: StepSeen) -> list[str]:
    """003 XIII.A.1 (reading ``charge_markers``): a charge places its farthest-advance and
    end-of-charge markers, kept in the state for the turn."""
    blocks = _blocks(seen)
    if not blocks:
        return []
    b = seen.battle
    marks = b.state.extra.get(MK.KEY, {}).get("markers", [])
    ids = {u.name: u.id for u in b.state.units}
    out = []
    for a, _, _ in blocks:
        kinds = {m["kind"] for m in marks if m["unit"] == ids.get(a) and m["turn"] == b.state.turn}
        if kinds != {"farthest", "charge_end"}:
            out.append(f"{a} charged without its XIII.A.1 markers on the table")
    return out


def invariants(comp: Composition) -> Sequence[Invariant]:
    """Seed 003's invariants for the roles it fills in ``comp``."""
    if comp.combat.id != MODULE:
        return []
    return [
        Invariant("charge-told", "003 XIII-XIV", "a charge is fought or says why", _charge_told),
        Invariant(
            "broken-charge", "003 XIII.B.1", "a broken charge fights no melee", _broken_no_melee
        ),
        Invariant("move-allowance", "003 XII.F, XVI", "moves within allowance", _move_allowance),
        Invariant(
            "later-canister", "003 XI.A.4.b", "later canister rolls its smoke", _later_canister
        ),
        Invariant(
            "misfire-no-reaction", "003 XI.B.1.b", "no reaction to misfires", _misfire_no_reaction
        ),
        Invariant("fog-hollows", "003 XII.D.1", "fog per hollow in range", _fog_per_hollow),
        Invariant("charge-markers", "003 XIII.A.1", "a charge's two markers", _charge_markers),
    ]


def features(comp: Composition) -> Sequence[Feature]:
    """The rules and tables of seed 003 whose use a run counts."""
    if comp.combat.id != MODULE:
        return []
    return [
        Feature("infantry-fire", "003 XV.2", "infantry volleys", roll_count("d10 per piece")),
        Feature("first-fire", "003 XI.B", "first fire hands", roll_count(": first fire (5d10)")),
        Feature(
            "consecutive-fire",
            "003 XI.C",
            "consecutive fire hands",
            roll_count(": consecutive fire (5d10)"),
        ),
        Feature("called-range", "003 XI.C.1", "ranges called", said_count("range called")),
        Feature("canister", "003 XI.A.4", "canister guns", roll_count(": canister")),
        Feature(
            "later-canister", "003 XI.A.4.b", "accumulating smoke", roll_count("accumulating smoke")
        ),
        Feature("burst", "003 XI.A.2-3", "shell and case bursts", roll_count("burst (")),
        Feature("misfire", "003 XI.B.1.b", "batteries all misfired", said_count("every gun misf")),
        Feature("charge", "003 XII.H", "charges", said_count(" away): dice ")),
        Feature("reaction", "003 XIII.B.1", "reactions to a charge", roll_count("to the charge")),
        Feature("broken-charge", "003 XIII.B.1", "charges broken", said_count("broken by the")),
        Feature("hand-to-hand", "003 XIV.A", "strikes", said_count("hand-to-hand ")),
        Feature("pierce", "003 XIV.B", "columns piercing", said_count("through the hole")),
        Feature("collision", "003 XVII.D", "collisions", said_count(" collides with ")),
        Feature("rout", "003 XII.A", "routs", said_count(" routs ")),
        Feature("rally", "003 XII.A", "officer contests", roll_count("against the men")),
        Feature("captain", "003 XII.C", "senior captains", roll_count("senior captain")),
        Feature("fog", "003 XII.D", "fog thinning rolls", roll_count("does the fog")),
        Feature("wall", "003 XVI.F", "stone wall dice", roll_count("stone wall")),
        Feature("fence", "003 XVI.D-E", "fence dice", roll_count("fence (movement)")),
        Feature("downhill", "003 XVI.C", "downhill gains", said_count("downhill gains")),
        Feature("stall", "003 XVI.E-F", "moves halted by terrain", said_count("more than the")),
        Feature("move", "003 XII.F", "moves", order_count("move")),
        Feature("prone", "003 XII.F.1.3", "going prone", order_change("prone")),
        Feature("stand-up", "003 XII.F.1.4", "standing up", order_change("stand")),
        Feature("limber", "003 XII.F.5", "limber or unlimber", order_change("limber", "unlimber")),
        Feature("skirmish", "003 XV.1", "skirmish fire facings", said_count("turns to face")),
    ]
