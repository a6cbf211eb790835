"""Seed 002 in battle: what losses do to a unit: stands lost (with attached leaders and
contact kept), removal, retreats and routs, the dice they are rolled on, and the effect
modifiers (seed 004 EFFECT) a roll reads.

Split from ``steps`` (issue 25); the numbers come from ``rules.py`` and ``data``.
"""

from __future__ import annotations

import math
from typing import Final

from umpire.battle.effects import FxKey, fx
from umpire.battle.engine import Battle
from umpire.battle.state import Unit
from umpire.board.fmath import hypot as _hypot
from umpire.board.geometry import corners, local
from umpire.dice.luck import Dist, by_faces
from umpire.rules.quick_acw import rules as R

# -- shared rule helpers -----------------------------------------------------------------


def attached_bonus(b: Battle, u: Unit) -> int | None:
    """The bonus of a living leader attached to ``u`` (seed 002 MORALE/MELEE), or None."""
    for ld in b.state.leaders:
        if ld.alive and ld.attached == u.i:
            return ld.bonus
    return None


def add_marker(b: Battle, u: Unit) -> None:
    """Seed 002: "MM are not cumulative - you can only have one per unit"."""
    if u.alive and not u.marker:
        u.marker = True
        b.record(u)
        if b.narrate:
            b.say(f"  {u.name} takes a Morale Marker")


def lose_stands(b: Battle, u: Unit, n: int, cause: str) -> None:
    """Seed 002: lose stands; leader loss on 5-6; removal below half the original stands."""
    if n <= 0 or not u.alive:
        return
    n = min(n, u.stands)
    u.stands -= n
    b.state.losses[u.side] = b.state.losses.get(u.side, 0) + n
    touched = list(b.touching(u))
    hw, hd = u.hw, u.hd
    b.reshape(u)
    if b.narrate:
        b.say(f"  {u.name} loses {n} stand{'s' if n > 1 else ''} ({cause}), {u.stands} left")
    for ld in b.state.leaders:
        if ld.alive and ld.attached == u.i:
            on = (b.r or R.rules()).leader_loss_on  # said before the die is asked for
            face = b.roll(
                1, 6, f"is {ld.name} hit with {u.name}? (leader casualty, 1d6: {on}+ hits him)"
            )[0]
            if b.luck is not None:
                b.note(ld.side, "leaders spared", int(not R.leader_lost(face, b.r)), spared(b))
            if R.leader_lost(face, b.r):
                ld.alive = False
                ld.attached = -1
                b.record_leader(ld)
                for v in b.state.units:
                    if v.leader == ld.i:
                        v.leader_lost = True
                        b.record(v)
                if b.narrate:
                    b.say(f"  {ld.name} is killed or captured (rolled {face})")
    if R.is_removed(u.stands, u.stands0, b.r):
        remove(b, u, "below half strength")
    elif touched:
        keep_contact(b, u, touched, hw, hd)


def keep_contact(b: Battle, u: Unit, touched: list[int], hw: float, hd: float) -> None:
    """Default ``contact_kept_when_stands_lost``: a unit in contact that loses stands closes
    up on the enemy it touched. Its base shrinks about its centre (``hw``/``hd``: the half
    sizes before), which would part it from an enemy at one end; it moves by the shrink
    toward the first such enemy, so the edge that touched stays where it was (the new base
    lies inside the old one: it meets no other base and stays on the table)."""
    now = b.touching(u)
    us = b.state.units
    for e in touched:
        v = us[e]
        if not v.alive or e in now:
            continue
        fwd, lat = local(u.x, u.y, u.theta, v.x, v.y)
        c, s = math.cos(u.theta), math.sin(u.theta)
        if u.hd < hd:  # a column: shorter from front to rear
            k = (hd - u.hd) * (1.0 if fwd > 0 else -1.0)
            x, y = u.x + c * k, u.y + s * k
        else:  # a line or a battery: narrower
            k = (hw - u.hw) * (1.0 if lat > 0 else -1.0)
            x, y = u.x - s * k, u.y + c * k
        b.place(u, x, y)
        if b.narrate:
            b.say(f"  {u.name} closes up on {v.name}")
        return


def remove(b: Battle, u: Unit, why: str) -> None:
    """Take a unit off the table (default ``leader_detached_when_unit_removed``)."""
    u.marker = False
    b.take_off(u)
    if b.narrate:
        b.say(f"  {u.name} is removed ({why})")


def nearest_enemy(b: Battle, u: Unit) -> Unit | None:
    """The enemy whose centre is nearest ``u``'s centre."""
    return b.nearest_enemy(u)


def move_away(b: Battle, u: Unit, frm: Unit, dist: float, face_away: bool, why: str) -> None:
    """Move ``u`` directly away from ``frm`` (routs face away; retreats keep facing).

    Default ``blocked_retreat_stops``: a blocked move stops at the last free half inch,
    and the narrative gives the distance actually moved and what stopped it."""
    x0, y0 = u.x, u.y
    if not b.push_away(u, frm, dist, face_away):
        remove(b, u, f"{why} off the table")
        return
    if b.narrate:
        moved = _hypot(u.x - x0, u.y - y0)
        if moved < dist - 1e-6:
            n = _hypot(x0 - frm.x, y0 - frm.y) or 1.0
            dx, dy = (x0 - frm.x) / n, (y0 - frm.y) / n
            what = blocker(b, u, x0, y0, dx, dy, moved, dist)
            b.say(
                f'  {u.name} {why}s {moved:.1f}" away from {frm.name}, not {dist:g}": '
                f"{what} in the way"
            )
        else:
            b.say(f'  {u.name} {why}s {dist:g}" away from {frm.name}')


def blocker(
    b: Battle, u: Unit, x0: float, y0: float, dx: float, dy: float, moved: float, dist: float
) -> str:
    """What stopped ``u`` after ``moved`` of a slide from (x0, y0) along (dx, dy), in words:
    the base at its next half-inch step, or the table edge (for the narrative)."""
    step = b.geo["retreat_step"]
    d = min(dist, (math.floor(moved / step + 1e-6) + 1) * step)
    x, y = x0 + dx * d, y0 + dy * d
    board = b.setup.board
    if not (0 <= x <= board.width and 0 <= y <= board.height) or not board.on_table(
        corners(x, y, u.theta, u.hw, u.hd)
    ):
        return "the table edge"
    who = b.bases_at(u, x, y, u.theta)
    return who[0].name if who else "another base"


def retreat_dice(u: Unit) -> tuple[int, int]:
    """Seed 002: retreat 2D6", 3D6" for mounted cavalry (reading ``cav_retreat_mounted``)."""
    return (3, 6) if u.type == "cavalry" and u.mounted else (2, 6)


def rout_move(b: Battle, u: Unit) -> None:
    """Seed 002 MOVEMENT ROUT: up to 12"/24" directly away from the nearest enemy, facing away.

    Dismounted cavalry routs 12" as foot (reading ``dismounted_cavalry_routs_as_foot``);
    unlimbered artillery limbers in place instead, and routs as limbered artillery at a
    later move (reading ``unlimbered_artillery_rout``)."""
    u.moved = True
    if u.type == "artillery" and not u.limbered:
        b.reshape(u, limbered=True)  # the base is the same; its caches are forgotten
        if b.narrate:
            b.say(
                f"  {u.name} limbers in place: unlimbered guns that rout limber first, "
                "and rout as limbered artillery at a later move"
            )
        return
    b.record(u)
    en = nearest_enemy(b, u)
    if en is None:
        return
    dist = R.rout_distance(u.type, b.r, mounted=u.mounted, limbered=u.limbered)
    move_away(b, u, en, dist, True, "rout")


TWO_D6: Final = by_faces(2, 6, sum)
"""The exact distribution of a 2d6 total (melee's dice, for the luck report)."""


def passes_2d6(number: int) -> Dist:
    """P(2d6 >= ``number``) as a pass (1) or a fail (0): the luck of a test (issue 24)."""
    return by_faces(2, 6, lambda f: int(f[0] + f[1] >= number))


def fire_dist(b: Battle, needed: int, mod: int) -> Dist:
    """Seed 002 FIRE's exact stands lost for one 2d6 with ``mod`` against ``needed``."""
    return by_faces(2, 6, lambda f: R.fire_stands_lost(f[0] + f[1], needed, mod, b.r))


def retreat_dist(n: int, sides: int) -> Dist:
    """Seed 002's retreat "2D6" (3D6" for mtd cav)": the exact inches, for the luck report."""
    return by_faces(n, sides, sum)


def spared(b: Battle) -> Dist:
    """Seed 002's leader casualty 1d6: P(the leader is spared)."""
    return by_faces(1, 6, lambda f: int(not R.leader_lost(f[0], b.r)))


# -- unit effects (umpire.battle.effects) -------------------------------------------------


EFFECT_MOD_KEYS: Final[dict[str, FxKey]] = {
    "fire": "fire_mod",
    "melee": "melee_mod",
    "charge": "charge_mod",
}
"""The unit effect that adds to each kind of roll."""


def effect_mods(u: Unit, what: str, r: R.Rules) -> list[R.Mod]:
    """Modifiers that unit effects add to a ``fire``, ``melee``, ``charge`` or ``morale`` roll.

    ``ignore_disruption`` cancels the Morale Marker's modifier (its own line in the trace);
    ``extra_die`` is one more stand fighting in a melee and +1 to a fire roll (reading
    ``extra_die_one_stand``; seed 001 event 19 "an extra die roll during combat").
    """
    out: list[R.Mod] = []
    why = u.extra.get("fx_why", {})
    key = EFFECT_MOD_KEYS.get(what)
    if key and fx(u, key):
        out.append(R.Mod(key, int(fx(u, key)), why.get(key, key), "unit effect"))
    if what in ("melee", "fire") and fx(u, "extra_die"):
        n = int(fx(u, "extra_die"))
        out.append(R.Mod("extra_die", n, why.get("extra_die", "extra die"), "unit effect"))
    if u.marker and fx(u, "ignore_disruption"):
        cancel = {
            "fire": -r.fire_mods["firer_marker"],
            "melee": -r.melee_mods["marker"],
            "charge": -r.morale_marker,
            "morale": -r.morale_marker,
        }[what]
        text = why.get("ignore_disruption", "ignores its marker")
        out.append(R.Mod("ignore_disruption", cancel, text, "unit effect"))
    return out


def say_effects(b: Battle, u: Unit, mods: list[R.Mod], roll: str) -> None:
    """Narrate the unit effects on one roll, each with its cause (an event, a sequence's
    mark), so a player sees where an effect takes hold (reading ``event_modifiers_in_trace``)."""
    if b.narrate:
        for m in mods:
            b.say(f"  {u.name}: {m.value:+d} to its {roll} ({m.text})")


def total(mods: list[R.Mod]) -> int:
    """The sum of some modifiers' values."""
    out = 0
    for m in mods:
        out += m.value
    return out
