"""Seed 003 in battle: movement (XII.F-G): formation changes, the allowance, the
checks a move must pass and the move itself.

Split from ``steps`` (issue 25); the rulings are in ``movement``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from umpire.board.fmath import hypot as _hypot
from umpire.errors import IllegalActionError
from umpire.rules.action_reaction import movement as MV
from umpire.rules.action_reaction import weather as W
from umpire.rules.action_reaction.ground import (
    Crossing,
    downhill_most,
    fog_at,
    stop_short,
    terrain_cost,
    to_front,
)
from umpire.rules.action_reaction.marks import (
    book,
    fog,
    move_limit,
    say,
)

if TYPE_CHECKING:
    from umpire.battle.engine import Battle
    from umpire.battle.state import Unit


# -- movement (XII.F-G) ------------------------------------------------------------------------


CHANGES = (
    *("", "column", "line", "skirmish", "prone", "stand"),
    *("mount", "dismount", "limber", "unlimber"),
)


def after_change(u: Unit, change: str, prone: bool) -> tuple[str, bool, bool, float]:
    """(formation, mounted, limbered, movement cost) after ``change`` (XII.F costs)."""
    why = change_refused(u, change, prone)
    if why:
        raise IllegalActionError(why)
    form, mounted, limbered = u.formation, u.mounted, u.limbered
    if change == "":
        up = MV.change_cost("stand_up", u.type, form, mounted, limbered) if prone else 0.0
        return form, mounted, limbered, up
    if change in MV.FORMATIONS:
        return change, mounted, limbered, 0.0
    if change in ("prone", "stand"):
        action = "prone" if change == "prone" else "stand_up"
        return form, mounted, limbered, MV.change_cost(action, u.type, form, mounted, limbered)
    if change in ("mount", "dismount"):
        return form, change == "mount", limbered, MV.cost("mount")
    return form, mounted, change == "limber", MV.cost("limber")


def change_refused(u: Unit, change: str, prone: bool) -> str:
    """Why ``u`` may not make ``change`` now ("" if it may): :func:`after_change`'s test,
    without the exception (a menu tries every change for every unit)."""
    form, mounted, limbered = u.formation, u.mounted, u.limbered
    if change == "":
        return ""
    if change in MV.FORMATIONS:
        if u.type == "artillery" or change == form or (change == "skirmish" and u.type != "foot"):
            return f"{u.name} cannot form {change}"
        return ""
    if change in ("prone", "stand"):
        if u.type != "foot" or (change == "prone") == prone:
            return f"{u.name} cannot {'go prone' if change == 'prone' else 'stand up'}"
        return ""
    if change in ("mount", "dismount"):
        if u.type != "cavalry" or mounted == (change == "mount"):
            return f"{u.name} cannot {change}"
        return ""
    if change in ("limber", "unlimber"):
        if u.type != "artillery" or limbered == (change == "limber"):
            return f"{u.name} cannot {change}"
        return ""
    return f"unknown formation change '{change}'"


def allowance(b: Battle, u: Unit, form: str, mounted: bool, limbered: bool) -> float:
    """XII.F: the unit's movement less fog (the terrain dice are rolled as it moves)."""
    rate = MV.rate(u.type, form, mounted, limbered)
    thick = fog_at(b, u.x, u.y) if fog(b) else 0
    if thick and MV.deductions_apply(u.type, form, mounted, limbered):
        rate -= W.fog_deductions(thick)[1]
    return max(0.0, rate)


def check_move(b: Battle, u: Unit, x: float, y: float, th: float, change: str) -> float:
    """A legal move's length before terrain, or IllegalActionError with the reason."""
    limit = move_limit(b, u)
    if limit not in ("free", "no_advance"):
        why = b.comp.status.label(u) or "routed, stalled or held"
        raise IllegalActionError(f"{u.name} may not move now ({why})")
    bk = book(b, u)
    form, mounted, limbered, cost = after_change(u, change, bool(bk.get("prone")))
    if change == "" and bk.get("prone") and (x, y) != (u.x, u.y):
        raise IllegalActionError(f"{u.name} is prone: stand up first")
    dist = _hypot(x - u.x, y - u.y)
    allow = allowance(b, u, form, mounted, limbered) - cost
    if dist > allow + 1e-6:
        more = downhill_most(b, u, x, y, form, mounted, limbered) if allow > 0 else 0.0
        if dist > allow + more + 1e-6:
            also = f' ({allow + more:.1f}" downhill, as far as its die allows)' if more else ""
            raise IllegalActionError(
                f'{u.name} may move {max(allow, 0):.1f}" now{also}, not {dist:.1f}"'
            )
    if u.type == "artillery" and not limbered and dist > 1e-9 and not to_front(b, u, x, y):
        raise IllegalActionError(
            f"{u.name} is unlimbered: by hand it moves only to the front (003 XII.F.8, "
            "reading by_hand_to_the_front); limber to go elsewhere"
        )
    if limit == "no_advance" and dist > 0 and b.advances(u, x, y):
        why = "in reaction" if book(b, u).get("react") else b.comp.status.label(u) or "held"
        raise IllegalActionError(
            f"{u.name} is {why} and may not advance (no part of its move may come nearer "
            "its nearest enemy)"
        )
    from umpire.battle.state import base_size

    hw, hd = base_size(u.type, form, u.stands, b.comp.combat.bases)
    if not b.free_at(u, x, y, th, hw, hd):
        raise IllegalActionError(f"{u.name} cannot end there: off the table or on another unit")
    if dist > 0 and b.crosses_enemy(u, x, y):
        raise IllegalActionError(f"{u.name} cannot move through an enemy unit")
    if b.touching_at(u, x, y, th, hw, hd):
        raise IllegalActionError(f"{u.name} would touch an enemy: contact needs a charge")
    return dist


def do_move(b: Battle, u: Unit, x: float, y: float, th: float, change: str) -> None:
    """A legal move with its terrain dice; stalls when they exceed the movement left."""
    dist = check_move(b, u, x, y, th, change)
    bk = book(b, u)
    form, mounted, limbered, cost = after_change(u, change, bool(bk.get("prone")))
    allow = allowance(b, u, form, mounted, limbered) - cost
    if change in ("prone", "stand"):
        bk["prone"] = change == "prone"
        if not bk["prone"]:
            bk.pop("prone")
    elif change == "" and bk.get("prone"):
        bk.pop("prone")
    cross = Crossing(allow, None, [])
    if dist > 1e-9:
        cross = terrain_cost(b, u, x, y, allow)
        if cross.stop is not None or cross.left <= 0:
            bk["still"] = b.state.turn
            was = u.formation, u.mounted, u.limbered
            # its base's size changes even where it does not move
            b.reshape(u, formation=form, mounted=mounted, limbered=limbered)
            went = stop_short(b, u, x, y, cross.stop or 0.0)
            kept = ""
            if went <= 0 and change and not b.free_at(u, u.x, u.y, u.theta, u.hw, u.hd):
                # reading no_room_to_change: the new base would overlap another where the
                # unit stands, so the change is not made (the move was checked at its end)
                b.reshape(u, formation=was[0], mounted=was[1], limbered=was[2])
                kept, change = (
                    f"; no room to {change} where it stands, so it stays {u.formation}",
                    "",
                )
            u.moved = went > 0 or bool(change)
            b.record(u)
            where = f'moves {went:.1f}" and halts' if went > 0 else "cannot get over the ground"
            why = ", ".join([*cross.words, cross.why] if cross.why else cross.words)
            say(b, f"{u.name} {where} ({why}){kept}: it may not move for the rest of the turn")
            return
        left = cross.left
        if left < dist:
            f = left / dist
            x, y = u.x + (x - u.x) * f, u.y + (y - u.y) * f
            dist = left
    if (form, mounted, limbered) != (u.formation, u.mounted, u.limbered):
        b.reshape(u, formation=form, mounted=mounted, limbered=limbered)  # about its centre
    blocked = dist > 1e-9 and not b.free_at(u, x, y, th, u.hw, u.hd)
    if blocked:
        # the terrain cut the move short onto another base: it stops before it, keeping its
        # facing where turning there would overlap a base (``Battle.slide`` settles that)
        x0, y0 = u.x, u.y
        b.slide(u, (x - x0) / dist, (y - y0) / dist, dist, th)
        x, y, th, dist = u.x, u.y, u.theta, _hypot(u.x - x0, u.y - y0)
    b.place(u, x, y, th)
    u.moved = dist > 1e-9 or bool(change)
    b.record(u)
    if u.moved:
        notes = ([change] if change else []) + (cross.words if dist > 1e-9 else [])
        say(b, f'{u.name} moves {dist:.1f}"' + (f" ({', '.join(notes)})" if notes else ""))
    elif blocked:
        say(b, f"{u.name} does not move: another base is in its way")
