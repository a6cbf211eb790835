"""Seed 002 orders as menus: every legal order of a pending request, in words, with odds.

The combat role's ``options`` seam: a player at the terminal or on the web picks from
these, and the generic AI scores them by their odds (``inflict``, ``suffer``,
``goes_in``). Moves are offered as a handful of destinations that make sense on the
table (toward the nearest enemy, to an objective, back, a change of formation in
place); any other legal move can still be typed as coordinates.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from umpire.battle.effects import fx
from umpire.battle.roles import Choice, Order, Request
from umpire.errors import IllegalActionError
from umpire.rules.quick_acw import rules as R
from umpire.rules.quick_acw import steps as S
from umpire.rules.quick_acw.odds import charge_odds, fire_odds

if TYPE_CHECKING:
    from umpire.battle.engine import Battle
    from umpire.battle.state import Unit

CHANGE_WORDS = {
    "line": "form line",
    "column": "form column",
    "mount": "mount",
    "dismount": "dismount",
    "limber": "limber",
    "unlimber": "unlimber",
}


def pct(p: float) -> str:
    """A probability as a whole percentage ("<1%" and ">99%" at the ends)."""
    if 0 < p < 0.005:
        return "<1%"
    if 0.995 < p < 1:
        return ">99%"
    return f"{100 * p:.0f}%"


def shots(b: Battle, u: Unit) -> list[tuple[int, int, list[R.Mod], float]]:
    """The targets the current fire step allows ``u``, with exact ranges."""
    step = b.phase().step
    if isinstance(step, S.FireStep):
        return step.shots(b, u, exact=True)
    return S.targets(b, u)


def fire_choices(b: Battle, u: Unit) -> list[Choice]:
    """Seed 002 FIRE: one choice per target, with P(hit), P(two stands) and E[stands]."""
    out = []
    us = b.state.units
    step = b.phase().step
    reaction = bool(getattr(step, "reaction", False))
    for t, needed, mods, rng in shots(b, u):
        v = us[t]
        if u.extra:
            mods = mods + S.fire_effects(b, u, v, reaction)
        m = sum(x.value for x in mods)
        o = fire_odds(needed, m, b.r)
        text = (
            f'fire at {v.name}, {rng:.1f}", needs {needed}+'
            + (f" ({m:+d})" if m else "")
            + f": {pct(float(o.hit))} hit"
            + (f", {pct(float(o.two))} two stands" if o.two else "")
        )
        value = float(o.expected_stands)
        finish = R.is_removed(v.stands - 1, v.stands0, b.r)
        out.append(
            Choice(
                ("fire", t),
                text,
                "fire",
                {"p": float(o.hit), "inflict": value, "finish": 1.0 if finish else 0.0},
            )
        )
    out.sort(key=lambda c: -c.odds["inflict"])
    out.append(Choice(("hold",), "hold fire", "hold"))
    return out


def charge_choice(b: Battle, u: Unit, v: Unit) -> Choice | None:
    """Seed 002 charge paragraph: the chance the charge goes in and drives the enemy off."""
    opt = S.charge_option(b, u, v)
    if opt is None:
        return None
    *_, flank, dist = opt
    o = charge_odds(*S.charge_mods(b, u, v, flank))
    melee = o.melee
    a_lost = sum(k * p for k, p in enumerate(melee.a_lost))
    b_lost = sum(k * p for k, p in enumerate(melee.b_lost))
    fought = o.charge_passes * o.target_stands
    good = float(o.favourable)
    text = (
        f'charge {v.name}{" in the flank" if flank else ""}: {dist:.1f}", '
        f"goes in {pct(float(o.charge_passes))}, drives it off {pct(good)}"
    )
    return Choice(
        ("charge", v.i),
        text,
        "charge",
        {
            "p": good,
            "goes_in": float(o.charge_passes),
            "inflict": float(fought * b_lost),
            "suffer": float(fought * a_lost),
        },
    )


def _toward(b: Battle, u: Unit, x: float, y: float, stop: float, frac: float) -> Order:
    """A move of ``frac`` of the unit's allowance toward (x, y), stopping ``stop``" short."""
    form, mounted, limbered, cost = S.after_change(u, "")
    allow = S.allowance(b, u, form, mounted, limbered, cost, False)
    d = math.hypot(x - u.x, y - u.y)
    step = max(0.0, min(allow * frac, d - stop))
    if d < 1e-9 or step < 1e-6:
        return ("hold",)
    th = math.atan2(y - u.y, x - u.x)
    return ("move", u.x + (x - u.x) / d * step, u.y + (y - u.y) / d * step, th, "")


def move_choices(b: Battle, u: Unit) -> list[Choice]:
    """Seed 002 MOVE: charges with their odds, a few sensible moves, formation changes."""
    limit = b.status.move_limit(b, u)
    if limit == "rally":
        return [
            Choice(("hold",), "hold still (rallies at the end of the move)", "hold"),
            Choice(("turn",), "turn about", "turn"),
            Choice(("rout",), "rout away from the enemy", "rout"),
        ]
    hold = Choice(("hold",), "hold", "hold")
    if limit == "none":
        return [hold]
    out: list[Choice] = []
    enemies = [v for v in b.state.units if v.alive and v.side != u.side]
    enemies.sort(key=lambda v: (v.x - u.x) ** 2 + (v.y - u.y) ** 2)
    if u.type != "artillery":
        for v in enemies[:8]:
            c = charge_choice(b, u, v)
            if c is not None:
                out.append(c)
    if out and u.extra and fx(u, "must_charge"):
        return out  # unit effect must_charge: a charge it must make, when it can
    moves: list[tuple[Order, str]] = []
    if enemies:
        en = enemies[0]
        for frac, word in ((1.0, "advance"), (0.5, "advance half a move")):
            order = _toward(b, u, en.x, en.y, 4.0, frac)
            if order[0] == "move":
                d = math.hypot(order[1] - u.x, order[2] - u.y)
                moves.append((order, f'{word} {d:.1f}" toward {en.name}'))
        back = _toward(b, u, 2 * u.x - en.x, 2 * u.y - en.y, 0.0, 1.0)
        if back[0] == "move":
            back = (*back[:3], u.theta, "")
            d = math.hypot(back[1] - u.x, back[2] - u.y)
            moves.append((back, f'fall back {d:.1f}" facing the enemy'))
    for ob in b.setup.objectives:
        order = _toward(b, u, ob.x, ob.y, 0.0, 1.0)
        if order[0] == "move":
            d = math.hypot(order[1] - u.x, order[2] - u.y)
            moves.append((order, f'move {d:.1f}" toward {ob.name}'))
    for change in S.CHANGES[1:]:
        try:
            S.after_change(u, change)
        except IllegalActionError:
            continue
        th = math.atan2(enemies[0].y - u.y, enemies[0].x - u.x) if enemies else u.theta
        moves.append((("move", u.x, u.y, th, change), f"{CHANGE_WORDS[change]} in place"))
    if enemies:
        en = enemies[0]
        th = math.atan2(en.y - u.y, en.x - u.x)
        if abs(math.remainder(th - u.theta, 2 * math.pi)) > 0.05:
            moves.append((("move", u.x, u.y, th, ""), f"wheel to face {en.name}"))
    for order, text in moves:
        try:
            ok = S.move_ok(b, u, order[1], order[2], order[3], order[4])
        except IllegalActionError:
            continue
        if ok:
            out.append(Choice(order, text, "move"))
    out.append(hold)
    return out


def leader_choices(b: Battle, li: int) -> list[Choice]:
    """Seed 002 COMMAND: join a unit of his command within a leader's move, or stay."""
    ld = b.state.leaders[li]
    rate = b.r.movement["leader"]
    board = b.setup.board
    out = [Choice(("hold",), f"{ld.name} stays where he is", "hold")]
    mine = [u for u in b.state.units if u.alive and u.side == ld.side]
    mine.sort(key=lambda u: (u.leader != li, math.hypot(u.x - ld.x, u.y - ld.y)))
    for u in mine[:8]:
        d = math.hypot(u.x - ld.x, u.y - ld.y)
        allow = rate.open * (rate.rough if board.path_rough(ld.x, ld.y, u.x, u.y) else 1.0)
        if d <= allow + 1e-6:
            where = "stays with" if ld.attached == u.i else f'rides {d:.1f}" to join'
            out.append(Choice(("leader", u.x, u.y, u.i), f"{ld.name} {where} {u.name}", "leader"))
    return out


def options(b: Battle, req: Request) -> list[Choice]:
    """Every legal order offered for ``req``, best first where the odds say so."""
    if req.kind == "leader":
        return leader_choices(b, req.actor)
    u = b.state.units[req.actor]
    if req.kind == "fire":
        return fire_choices(b, u)
    if req.kind == "move":
        return move_choices(b, u)
    return [Choice(("hold",), "hold", "hold")]


def check(b: Battle, req: Request, order: Order) -> None:
    """Refuse an illegal order with its one-line reason (nothing changes)."""
    if not order:
        raise IllegalActionError("an empty order")
    kind = order[0]
    if kind == "hold":
        return
    if req.kind == "leader":
        if kind != "leader":
            raise IllegalActionError(f"a leader order is needed, not '{kind}'")
        return
    u = b.state.units[req.actor]
    if req.kind == "fire":
        if kind != "fire":
            raise IllegalActionError(f"a fire order is needed for {u.name}, not '{kind}'")
        if int(order[1]) not in [t for t, *_ in shots(b, u)]:
            raise IllegalActionError(S.why_not_fire(b, u, int(order[1])))
        return
    if req.kind == "move":
        if kind == "move":
            S.check_move(b, u, order[1], order[2], order[3], order[4] if len(order) > 4 else "")
        elif kind == "charge":
            t = int(order[1])
            if not 0 <= t < len(b.state.units):
                raise IllegalActionError(f"no unit {t}")
            S.charge_reach(b, u, b.state.units[t])
        elif kind in ("turn", "rout"):
            if b.status.move_limit(b, u) != "rally":
                raise IllegalActionError(f"{u.name} may {kind} only with a Morale Marker")
        else:
            raise IllegalActionError(f"unknown move order '{kind}'")
