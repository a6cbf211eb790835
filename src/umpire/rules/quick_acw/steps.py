"""The seed 002 steps: command, move, rally, fire, melee.

Each class is one step of "TURN ORDER" in seed 002; ``roles.py`` offers them to the
engine through the combat and status roles, so another sequence (seed 004's) can run
them in its own order, and another status module can take over what a hit or a failed
test does (``b.status``). Rules numbers come from ``rules.py``/``data``; these classes
only apply them to the board, through ``reach`` (targets, moves, charges open to a unit)
and ``losses`` (stands lost, retreats, routs, effect modifiers), split from this module
in issue 25.
"""

from __future__ import annotations

import math
from typing import Any, Literal

from umpire.battle import orders as od
from umpire.battle.effects import CROSSED, FxKey, fx, fx_why
from umpire.battle.engine import Battle
from umpire.battle.roles import AutoStep
from umpire.battle.state import Unit
from umpire.board.fmath import hypot as _hypot
from umpire.errors import IllegalActionError
from umpire.rules.data import on_change
from umpire.rules.quick_acw import rules as R
from umpire.rules.quick_acw.losses import (
    TWO_D6,
    attached_bonus,
    blocker,
    effect_mods,
    fire_dist,
    lose_stands,
    passes_2d6,
    remove,
    rout_move,
    say_effects,
    total,
)
from umpire.rules.quick_acw.reach import (
    _targets,
    after_change,
    charge_option,
    charge_reach,
    check_move,
    fire_class,
    targets,
)


def morale_roll(b: Battle, u: Unit, purpose: str, r: R.Rules) -> bool:
    """Seed 002 MORALE: 2d6 + attached leader bonus - 1 with a MM >= 8 (USA) / 7 (CSA).

    The battle asks it through its morale role (``b.comp.morale``); ``r`` is seed 002's
    rules data, which the role holds (the combat may be another module's)."""
    number, mods = R.morale_test(u.side, attached_bonus(b, u), u.marker, r)
    if u.extra:
        extra = effect_mods(u, "charge" if purpose == "charge test" else "morale", r)
        mods = mods + extra
        say_effects(b, u, extra, purpose)
    mod = sum(m.value for m in mods)
    words = f"{u.name}: {purpose} (needs {number}+, modifiers {mod:+d})" if b.dice_words() else ""
    faces = b.roll(2, 6, words)
    total = sum(faces) + mod
    ok = total >= number
    if b.luck is not None:  # seed 002 MORALE: a pass is good for the unit's side
        b.note(u.side, "tests passed", int(ok), passes_2d6(number - mod))
    if b.narrate:
        b.say(
            f"  {u.name} {purpose}: rolled {faces[0]}+{faces[1]}"
            f"{''.join(f' {m.value:+d}' for m in mods)} = {total} vs {number}+: "
            f"{'pass' if ok else 'fail'}"
        )
    return ok


def do_charge(b: Battle, u: Unit, t: Unit) -> None:
    """Seed 002 charge paragraph: charge test, half move and MM on failure, stand test.

    The charger moves along its path (default ``charge_path_clear``); where a base or the
    table edge stops it short, the narrative says where and why."""
    x, y, th, flank, dist = charge_reach(b, u, t)
    if b.narrate:
        b.say(f"{u.name} charges {t.name}" + (" in flank/rear" if flank else ""))
    u.moved = True
    u.charged = True
    b.record(u)
    dx, dy = (x - u.x) / (dist or 1.0), (y - u.y) / (dist or 1.0)
    if not b.comp.morale.test(b, u, "charge test"):
        half = dist * b.r.failed_charge_fraction
        if not charge_move(b, u, t, dx, dy, half, th, "falls short"):
            return
        b.status.on_setback(b, u, "charge_failed", t)
        return
    if not b.comp.morale.test(b, t, "stand test"):
        b.status.on_setback(b, t, "stand_failed", u)
        moved = charge_move(b, u, t, dx, dy, dist, th, "advances")
        if moved and t.alive and t.i in b.touching(u):  # its way back was blocked: it goes in
            b.state.contacts.append([u.i, t.i, 1 if flank else 0])
            if b.narrate:
                b.say(f"  {u.name} reaches {t.name}, which could not get away")
        return
    if charge_move(b, u, t, dx, dy, dist, th, "") and t.i in b.touching(u):
        b.state.contacts.append([u.i, t.i, 1 if flank else 0])
        if b.narrate:
            b.say(f"  {u.name} makes contact with {t.name}")


def charge_move(
    b: Battle, u: Unit, t: Unit, dx: float, dy: float, dist: float, th: float, how: str
) -> bool:
    """Move a charger ``dist`` along (dx, dy) (``Battle.slide``); False when it left the table
    (it is removed). The narrative says how far it went (``how``: "falls short", ...) and,
    when something stopped it before ``dist``, what."""
    x0, y0 = u.x, u.y
    if not b.slide(u, dx, dy, dist, th):
        remove(b, u, "charged off the table")
        return False
    if b.narrate:
        moved = _hypot(u.x - x0, u.y - y0)
        if moved < dist - 1e-6:
            what = blocker(b, u, x0, y0, dx, dy, moved, dist)
            b.say(
                f'  {u.name} stops after {moved:.1f}" of {dist:.1f}", short of {t.name}: '
                f"{what} in the way"
            )
        elif how:
            b.say(f'  {u.name} {how} {dist:.1f}" toward {t.name}')
    return True


# -- steps -----------------------------------------------------------------------------


class CommandStep:
    """Seed 002 Command: leaders move (24", half in rough) and may attach to a unit."""

    kind = "leader"
    actor = "first"

    def actors(self, b: Battle, side: str) -> list[int]:
        return [ld.i for ld in b.state.leaders if ld.alive and ld.side == side]

    def eligible(self, b: Battle, actor: int) -> bool:
        return b.state.leaders[actor].alive

    def apply(self, b: Battle, side: str, actor: int, order: od.Order) -> None:
        order = od.as_order(order)  # a plain tuple from a caller outside the engine
        ld = b.state.leaders[actor]
        if isinstance(order, od.Hold):
            return
        if not isinstance(order, od.Leader):
            raise IllegalActionError(f"a leader order is needed for {ld.name}, not '{order.kind}'")
        x, y, att = float(order.x), float(order.y), int(order.attach)
        if att >= 0:
            if att >= len(b.state.units):
                raise IllegalActionError(f"no unit {att}")
            u = b.state.units[att]
            if not u.alive or u.side != ld.side:
                raise IllegalActionError(f"{ld.name} can only attach to a friendly unit in play")
            x, y = u.x, u.y
        board = b.setup.board
        if not (0 <= x <= board.width and 0 <= y <= board.height):
            raise IllegalActionError(f"{ld.name} cannot leave the table")
        dist = _hypot(x - ld.x, y - ld.y)
        rate = b.r.movement["leader"]
        allow = rate.open * (rate.rough if board.path_rough(ld.x, ld.y, x, y) else 1.0)
        if dist > allow + 1e-6:
            raise IllegalActionError(f'{ld.name} may move {allow:g}", not {dist:.2f}"')
        ld.x, ld.y, ld.attached = x, y, att
        b.record_leader(ld)

    def auto(self, b: Battle, side: str) -> None:  # pragma: no cover - not automatic
        raise NotImplementedError


class MoveStep:
    """Seed 002 Move: moves, formation changes, charges, routs of units with a MM."""

    kind = "move"
    actor = "first"

    def actors(self, b: Battle, side: str) -> list[int]:
        leaders = b.state.leaders
        scope = b.scope
        out = []
        for u in b.state.units:
            if u.side != side or (scope is not None and u.i not in scope):
                continue
            was = (u.moved, u.charged, u.in_command)
            u.moved = False
            u.charged = False
            if u.alive:
                out.append(u.i)
                if u.leader >= 0 and leaders[u.leader].alive:
                    ld = leaders[u.leader]
                    u.in_command = _hypot(u.x - ld.x, u.y - ld.y) <= ld.radius + 1e-9
                else:
                    u.in_command = True  # reading lost_leader_command
            if was != (False, False, u.in_command):
                b.record(u)
        b.state.contacts = []
        return out

    def eligible(self, b: Battle, actor: int) -> bool:
        return b.state.units[actor].alive

    def apply(self, b: Battle, side: str, actor: int, order: od.Order) -> None:
        order = od.as_order(order)  # a plain tuple from a caller outside the engine
        u = b.state.units[actor]
        kind = order.kind
        if u.extra and fx(u, "must_charge") and kind != "charge" and must_charge(b, u):
            raise IllegalActionError(f"{u.name} must charge this turn ({fx_why(u, 'must_charge')})")
        if kind == "hold":
            return
        if kind == "turn":
            if b.status.move_limit(b, u) != "rally":
                raise IllegalActionError(
                    f"{u.name}: 'turn' is the about-face of a unit with a MM; use a move"
                )
            b.place(u, u.x, u.y, u.theta + math.pi)
            if b.narrate:
                b.say(f"{u.name} turns about")
            return
        if kind == "rout":
            if b.status.move_limit(b, u) != "rally":
                raise IllegalActionError(f"{u.name} has no Morale Marker and cannot rout")
            if b.narrate:
                b.say(f"{u.name} routs")
            rout_move(b, u)
            return
        if isinstance(order, od.Move):
            x, y, th = float(order.x), float(order.y), float(order.theta)
            change = str(order.change)
            dist = check_move(b, u, x, y, th, change)
            if change:  # the new formation's base, about its centre, before it moves
                form, mounted, limbered, _ = after_change(u, change)
                b.reshape(u, formation=form, mounted=mounted, limbered=limbered)
            went = dist > 1e-9 or bool(change)
            if went:
                u.moved = True  # before ``place``, which logs the unit as it then is
            b.place(u, x, y, th)
            if went and b.narrate:
                b.say(f'{u.name} moves {dist:.1f}"' + (f" ({change})" if change else ""))
            return
        if isinstance(order, od.Charge):
            t = int(order.t)
            if not 0 <= t < len(b.state.units):
                raise IllegalActionError(f"no unit {t}")
            if u.extra and fx(u, "must_charge"):  # the charge it had to make: obligation met
                charge_reach(b, u, b.state.units[t])  # refused before anything changes
                if b.narrate:
                    b.say(f"{u.name} must charge ({fx_why(u, 'must_charge')})")
                b.clear_fx(u, "must_charge")
            do_charge(b, u, b.state.units[t])
            return
        raise IllegalActionError(f"unknown move order '{kind}'")

    def auto(self, b: Battle, side: str) -> None:  # pragma: no cover
        raise NotImplementedError


class RallyStep(AutoStep):
    """Seed 002 Rally: remove MMs of the 1st player's units that did not move."""

    def auto(self, b: Battle, side: str) -> None:
        scope = b.scope
        for u in b.state.units:
            if scope is not None and u.i not in scope:
                continue
            if u.extra and (fx(u, "no_act") or fx(u, "no_rally")):
                continue
            if u.alive and u.side == side and u.marker and not u.moved:
                u.marker = False
                b.record(u)
                if b.narrate:
                    b.say(f"{u.name} rallies")


class FireStep:
    """Seed 002 Defensive Fire (2nd player) / Offensive Fire (1st player).

    "Fire with all eligible units": a unit is asked only when it has a target at the
    moment its turn to fire comes (otherwise holding is its only order, so no one is
    asked and nothing is logged).

    Other sequences narrow it: ``units`` is ``all``, ``artillery`` (seed 004 step 1:
    artillery except canister) or ``other`` (step 2: the rest, and artillery firing
    canister); ``targets`` is ``any`` or ``chargers`` (step 4: units that charged the
    firer's side or crossed its field of fire this step). The sequence module marks
    what this step reads (``fx`` flags and ``crossed``).
    """

    kind = "fire"

    def __init__(
        self,
        units: str = "all",
        targets: str = "any",
        mark: FxKey | Literal[""] = "",
        blocked_by: FxKey | Literal[""] = "",
        mode: str = "offensive",
    ):
        self.units = units
        self.targets = targets
        self.mark = mark  # an fx flag set (to the turn) on each unit that fires here
        self.blocked_by = blocked_by  # an fx flag that bars a unit from firing here
        self.reaction = targets == "chargers" or mode == "defensive"  # unit effects' "reaction"
        self.plain = units == "all" and targets == "any" and not mark and not blocked_by

    def actors(self, b: Battle, side: str) -> list[int]:
        want = self.units
        return [
            u.i
            for u in b.state.units
            if u.alive
            and u.side == side
            and fire_class(u)
            and (want != "artillery" or u.type == "artillery")
        ]

    def eligible(self, b: Battle, actor: int) -> bool:
        u = b.state.units[actor]
        if self.plain:
            return u.alive and fire_class(u) is not None and bool(targets(b, u, exact=False))
        return u.alive and fire_class(u) is not None and bool(self.shots(b, u, exact=False))

    def shots(self, b: Battle, u: Unit, exact: bool) -> list[tuple[int, int, list[R.Mod], float]]:
        """The targets this step allows ``u`` (see the class docstring)."""
        if self.plain:
            return targets(b, u, exact=exact)
        if self.blocked_by and u.extra and fx(u, self.blocked_by):
            return []
        if self.targets == "chargers":  # only those who may be shot at here are looked at
            allowed = self._chargers(b, u)
            if not allowed:
                return []
            found = _targets(b, u, exact, allowed, tuple(sorted(allowed)))
        else:
            found = targets(b, u, exact=exact)
        if u.type != "artillery" or self.units == "all":
            return found
        us = b.state.units
        out = []
        for shot in found:
            canister = is_canister(b, u, us[shot[0]])
            if canister != (self.units == "artillery"):
                out.append(shot)
        return out

    def _chargers(self, b: Battle, u: Unit) -> set[int]:
        """The units ``u`` may shoot at in a ``chargers`` step: those that charged its side
        and those that crossed its field of fire."""
        us = b.state.units
        side = u.side
        allowed: set[int] = set()  # charged_at(b, side), those still charging, in one pass
        for c in b.state.contacts:
            if us[c[1]].side == side and us[c[0]].charged:
                allowed.add(c[0])
        me = u.i
        for t in us:  # (only an enemy can be shot at: a friend's marks are not read)
            if t.side != side:
                ex = t.extra
                if ex:
                    crossed = ex.get(CROSSED)
                    if crossed and me in crossed:
                        allowed.add(t.i)
        return allowed

    def apply(self, b: Battle, side: str, actor: int, order: od.Order) -> None:
        order = od.as_order(order)  # a plain tuple from a caller outside the engine
        u = b.state.units[actor]
        if isinstance(order, od.Hold):
            return
        if order.kind != "fire":
            raise IllegalActionError(f"a fire order is needed for {u.name}, not '{order.kind}'")
        t = int(order.t)
        for c, needed, mods, rng in self.shots(b, u, exact=b.narrate):
            if c == t:
                target = b.state.units[t]
                if u.extra:
                    extra = fire_effects(b, u, target, self.reaction)
                    mods = mods + extra
                    say_effects(b, u, extra, "fire")
                resolve_fire(b, u, target, needed, mods, rng)
                if self.mark:
                    b.set_fx(u, self.mark, b.state.turn)
                return
        if not self.plain and any(c == t for c, *_ in targets(b, u)):
            raise IllegalActionError(
                f"{u.name} cannot fire at {b.state.units[t].name} in this step"
            )
        raise IllegalActionError(why_not_fire(b, u, t))

    def auto(self, b: Battle, side: str) -> None:  # pragma: no cover
        raise NotImplementedError


def is_canister(b: Battle, u: Unit, t: Unit) -> bool:
    """Reading ``canister_band``: artillery fire in the closest range band is canister."""
    return u.type == "artillery" and b.dist(u.i, t.i) <= b.r.fire_bands[0] + 1e-9


def charged_at(b: Battle, side: str) -> set[int]:
    """Units that charged into contact with ``side`` this step (from the contact list)."""
    us = b.state.units
    return {c[0] for c in b.state.contacts if us[c[1]].side == side}


def why_not_fire(b: Battle, u: Unit, t: int) -> str:
    """The reason ``u`` cannot fire at unit ``t`` (for the one-line error)."""
    if not 0 <= t < len(b.state.units) or not b.state.units[t].alive:
        return f"{u.name} cannot fire: no such target on the table"
    v = b.state.units[t]
    fc = fire_class(u)
    if fc is None:
        return f"{u.name} cannot fire (mounted cavalry or limbered guns)"
    if v.side == u.side:
        return f"{u.name} cannot fire at a friendly unit"
    if b.touching(v) and not b.status.fire_on_engaged(b, v):
        return f"{u.name} cannot fire at {v.name}: Engaged units cannot be fired upon"
    d = float(b.dist_to(u, [t])[0])
    if R.fire_needed(fc, d, b.r) is None:
        return f'{u.name} cannot fire at {v.name}: out of range ({d:.1f}")'
    if not b.in_arc(u, v):
        return f"{u.name} cannot fire at {v.name}: outside its front arc"
    if not b.sight(u, [t])[0]:
        return f"{u.name} cannot fire at {v.name}: no line of sight"
    return f"{u.name} cannot fire at {v.name}: it is engaged in melee"


def resolve_fire(b: Battle, u: Unit, t: Unit, needed: int, mods: list[R.Mod], rng: float) -> int:
    """Seed 002 FIRE: 2d6 + modifiers vs the table; 1 stand and a MM, 2 if beaten by 8."""
    mod = sum(m.value for m in mods)
    # the number needed is in the purpose, so real dice are asked for with it (issue 21)
    words = ""
    if b.dice_words():
        words = f"{u.name} fires at {t.name} (needs {needed}+, modifiers {mod:+d})"
    faces = b.roll(2, 6, words)
    lost = R.fire_stands_lost(faces[0] + faces[1], needed, mod, b.r)
    if b.luck is not None:  # seed 002 FIRE: the stands the fire takes, for the firer
        b.note(u.side, "fire hits", lost, fire_dist(b, needed, mod))
    if b.narrate:
        # Seed 002's own status words the result in stands; another status (004's ladder)
        # words it as the hit's margin and then says what the hit does.
        score = sum(faces) + mod
        if not lost:
            result = "miss"
        elif b.status.id == "quick-acw":
            result = f"{lost} stand(s)"
        else:
            result = f"hit, beaten by {score - needed}"
        b.say(
            f'{u.name} fires at {t.name} ({rng:.1f}", needs {needed}+): rolled '
            f"{faces[0]}+{faces[1]}{''.join(f' {m.value:+d}' for m in mods)} = "
            f"{score}: " + result
        )
    if lost:
        b.status.on_hit(b, t, sum(faces) + mod - needed, lost, "fire")
    return lost


def melee_key(
    b: Battle, u: Unit, e: Unit, attacking: bool, flank: bool, bonus: int | None
) -> tuple[Any, ...]:
    """The MELEE modifier facts for ``u`` fighting ``e`` (``bonus``: the attached leader's),
    as a plain tuple in :class:`~umpire.rules.quick_acw.rules.MeleeFacts`' field order."""
    board = b.setup.board
    return (
        u.side,
        u.type,
        u.mounted,
        u.formation,
        u.stands,
        attacking,
        (not attacking) and board.crosses_obstacle(u.x, u.y, e.x, e.y),
        board.height_at(u.x, u.y) > board.height_at(e.x, e.y),
        u.marker,
        bonus,
        flank,
    )


def melee_facts(b: Battle, u: Unit, e: Unit, attacking: bool, flank: bool) -> R.MeleeFacts:
    """The MELEE modifier facts for ``u`` fighting ``e``."""
    return R.MeleeFacts(*melee_key(b, u, e, attacking, flank, attached_bonus(b, u)))


def resolve_melee(b: Battle, a: Unit, d: Unit, charged: bool, flank: bool) -> None:
    """Seed 002 MELEE: both roll 2d6 + stands + modifiers; the difference table decides."""
    ma = R.melee_modifiers(melee_facts(b, a, d, charged, flank), b.r)
    md = R.melee_modifiers(melee_facts(b, d, a, False, False), b.r)
    if a.extra:
        extra = effect_mods(a, "melee", b.r)
        ma = ma + extra
        say_effects(b, a, extra, "melee")
    if d.extra:
        extra = effect_mods(d, "melee", b.r)
        md = md + extra
        say_effects(b, d, extra, "melee")
    quiet = not b.dice_words()
    fa = b.roll(2, 6, "" if quiet else f"melee: {a.name} (attacker) against {d.name}")
    if b.luck is not None:  # seed 002 MELEE: each side's 2d6, higher is better for it
        b.note(a.side, "melee dice", sum(fa), TWO_D6)
    fd = b.roll(2, 6, "" if quiet else f"melee: {d.name} (defender) against {a.name}")
    if b.luck is not None:
        b.note(d.side, "melee dice", sum(fd), TWO_D6)
    sa = sum(fa) + sum(m.value for m in ma)
    sd = sum(fd) + sum(m.value for m in md)
    row = R.melee_row(sa - sd, b.r)
    if b.narrate:
        b.say(f"Melee {a.name} {sa} vs {d.name} {sd}")
    if sa >= sd:
        win, lose = a, d
    else:
        win, lose = d, a
    results: list[tuple[Unit, Unit, int, bool]] = [
        (win, lose, row.win_loss, row.win_retreat),
        (lose, win, row.lose_loss, row.lose_retreat),
    ]
    for u, _, n, _ in results:
        lose_stands(b, u, n, "melee")
    for u, other, _, ret in results:
        if ret and u.alive:
            b.status.on_setback(b, u, "melee_retreat", other)


class MeleeStep(AutoStep):
    """Seed 002 Melee: "any enemy units touching now fight" (default ``melee_pairs``)."""

    def auto(self, b: Battle, side: str) -> None:
        us = b.state.units
        pairs: list[tuple[int, int, bool, bool]] = [
            (c[0], c[1], True, bool(c[2])) for c in b.state.contacts
        ]
        seen = {(a, d) for a, d, _, _ in pairs} | {(d, a) for a, d, _, _ in pairs}
        for u in us:
            if u.alive and u.side == side:
                for e in b.touching(u):
                    if (u.i, e) not in seen:
                        pairs.append((u.i, e, False, False))
                        seen |= {(u.i, e), (e, u.i)}
        for a, d, charged, flank in pairs:
            ua, ud = us[a], us[d]
            if ua.alive and ud.alive and d in b.touching(ua):
                resolve_melee(b, ua, ud, charged, flank)
            elif charged and b.narrate:
                b.say(no_melee(ua, ud))
        b.state.contacts = []


def no_melee(a: Unit, d: Unit) -> str:
    """Why a charge that reached contact is not fought in the melee step, in words."""
    if not a.alive or not d.alive:
        gone = ", ".join(x.name for x in (a, d) if not x.alive)
        return f"No melee for {a.name}'s charge on {d.name}: {gone} left the table first"
    return f"No melee for {a.name}'s charge on {d.name}: they no longer touch"


def fire_effects(b: Battle, u: Unit, t: Unit, reaction: bool) -> list[R.Mod]:
    """Unit effects on one shot: the firer's fire, canister and reaction-fire modifiers."""
    out = effect_mods(u, "fire", b.r)
    why = u.extra.get("fx_why", {})
    if fx(u, "canister_mod") and is_canister(b, u, t):
        v = int(fx(u, "canister_mod"))
        out.append(R.Mod("canister_mod", v, why.get("canister_mod", "canister"), "unit effect"))
    if reaction and fx(u, "reaction_fire_mod"):
        v = int(fx(u, "reaction_fire_mod"))
        text = why.get("reaction_fire_mod", "reaction fire")
        out.append(R.Mod("reaction_fire_mod", v, text, "unit effect"))
    return out


def must_charge(b: Battle, u: Unit) -> bool:
    """Unit effect ``must_charge``: true while the unit has a legal charge to make."""
    return any(
        charge_option(b, u, v) is not None for v in b.state.units if v.alive and v.side != u.side
    )


def charge_mods(b: Battle, u: Unit, t: Unit, flank: bool) -> tuple[int, int, int, int, int, int]:
    """The numbers of a charge by ``u`` on ``t``, for its exact odds: (charge number, its
    modifier, stand number, its modifier, attacker's melee modifier, defender's), unit
    effects included (seed 002 charge paragraph, MORALE, MELEE)."""
    r = b.r
    bonus_u, bonus_t = attached_bonus(b, u), attached_bonus(b, t)
    # R.morale_test's number and the sum of its modifiers, without making the modifiers
    n_a, m_a = r.sides[u.side].morale, R.morale_total(bonus_u, u.marker, r)
    n_d, m_d = r.sides[t.side].morale, R.morale_total(bonus_t, t.marker, r)
    ma = melee_total(b, u, t, True, flank, bonus_u)
    md = melee_total(b, t, u, False, False, bonus_t)
    if u.extra:
        m_a += total(effect_mods(u, "charge", r))
        ma += total(effect_mods(u, "melee", r))
    if t.extra:
        m_d += total(effect_mods(t, "morale", r))
        md += total(effect_mods(t, "melee", r))
    return (n_a, m_a, n_d, m_d, ma, md)


def melee_total(
    b: Battle, u: Unit, e: Unit, attacking: bool, flank: bool, bonus: int | None
) -> int:
    """The sum of seed 002 MELEE modifiers of ``melee_facts(b, u, e, attacking, flank)``
    (``bonus``: the attached leader's), kept per facts (a handful recur: the AI weighs the
    same charges turn after turn) under a plain tuple: a compiled dataclass is made, hashed
    and compared by interpreted functions."""
    r = b.r
    facts = melee_key(b, u, e, attacking, flank, bonus)
    key = (facts, r)
    found = _MELEE_TOTALS.get(key)
    if found is None:
        f = R.MeleeFacts(*facts)
        found = _MELEE_TOTALS[key] = total(R.melee_modifiers(f, r))
    return found


_MELEE_TOTALS: dict[tuple[Any, ...], int] = {}
on_change(_MELEE_TOTALS.clear)
