"""The human policy at the CLI: shows what a unit may do, with exact odds, and asks.

Orders are typed as ``hold``, ``move X Y [FACING_DEG] [CHANGE]``, ``charge UNIT``,
``rout``, ``turn``, ``fire UNIT`` or ``leader X Y [UNIT]``. An illegal order is refused
with its one-line reason and asked again at a terminal (``retry``); when the orders come
from a script or a pipe, the first illegal order ends the battle with that reason.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from umpire.battle.engine import Battle, Order, Request
from umpire.errors import IllegalActionError
from umpire.rules.quick_acw import steps as S
from umpire.rules.quick_acw.odds import fire_odds


class HumanPolicy:
    """Asks a person on standard input."""

    kind = "human"

    def __init__(
        self,
        ask: Callable[[str], str] = input,
        show: Callable[[str], None] = print,
        *,
        retry: bool = True,
    ):
        self.ask = ask
        self.show = show
        self.retry = retry

    def options(self, b: Battle, req: Request) -> list[str]:
        """What the actor may do now, with exact odds."""
        if req.kind == "leader":
            ld = b.state.leaders[req.actor]
            return [f"{ld.name} at ({ld.x:.1f}, {ld.y:.1f}): hold | leader X Y [UNIT_ID]"]
        u = b.state.units[req.actor]
        lines = [
            f"{u.label()} at ({u.x:.1f}, {u.y:.1f}) facing {math.degrees(u.theta) % 360:.0f}, "
            f"{u.stands}/{u.stands0} stands" + (", MM" if u.marker else "")
        ]
        if req.kind == "fire":
            for t, needed, mods, rng in S.targets(b, u):
                m = sum(x.value for x in mods)
                o = fire_odds(needed, m, b.r)
                lines.append(
                    f'  fire {b.state.units[t].id}: {rng:.1f}", {needed}+ with {m:+d} -> '
                    f"P(hit) {float(o.hit):.3f}, P(2 stands) {float(o.two):.3f}"
                )
            lines.append("  hold")
            return lines
        if u.marker:
            return [*lines, "  hold (rallies) | turn | rout"]
        from umpire.ai.scripted import charge_chance

        form, m_, lim, cost = S.after_change(u, "")
        lines.append(
            f"  move X Y [FACING] [CHANGE]: up to "
            f'{S.allowance(b, u, form, m_, lim, cost, False):.2f}" in open ground'
        )
        for v in b.state.units:
            if v.alive and v.side != u.side:
                try:
                    *_, flank, dist = S.charge_reach(b, u, v)
                except IllegalActionError:
                    continue
                p = charge_chance(b, u, v, flank)
                lines.append(f'  charge {v.id}: {dist:.1f}", P(drive it off) {p:.3f}')
        lines.append("  hold")
        return lines

    def decide(self, b: Battle, req: Request) -> Order:
        """Prompt until a legal order is typed."""
        for line in self.options(b, req):
            self.show(line)
        ids = {u.id: u.i for u in b.state.units}
        while True:
            text = self.ask(f"{req.side} {req.step}> ").strip().split()
            try:
                order = parse_order(text, ids)
                if order[0] == "move" and order[3] is None:
                    order = (*order[:3], b.state.units[req.actor].theta, order[4])
                check(b, req, order)
                return order
            except IllegalActionError as exc:
                if not self.retry:
                    raise
                self.show(f"umpire: error: {exc}")


def parse_order(words: list[str], ids: dict[str, int]) -> Order:
    """Turn typed words into an order tuple (unit ids to indexes)."""
    if not words:
        raise IllegalActionError("type an order, e.g. 'hold'")
    kind = words[0]
    try:
        if kind in ("hold", "rout", "turn"):
            return (kind,)
        if kind in ("fire", "charge"):
            if words[1] not in ids:
                raise IllegalActionError(f"no unit '{words[1]}'")
            return (kind, ids[words[1]])
        if kind == "move":
            x, y = float(words[1]), float(words[2])
            th = math.radians(float(words[3])) if len(words) > 3 else None
            return ("move", x, y, th, words[4] if len(words) > 4 else "")
        if kind == "leader":
            att = ids[words[3]] if len(words) > 3 else -1
            return ("leader", float(words[1]), float(words[2]), att)
    except (IndexError, ValueError, KeyError):
        raise IllegalActionError(f"cannot read order '{' '.join(words)}'") from None
    raise IllegalActionError(f"unknown order '{kind}'")


def check(b: Battle, req: Request, order: Order) -> None:
    """Refuse an order that would be illegal (the engine checks again when applying)."""
    if req.kind == "fire" and order[0] == "fire":
        u = b.state.units[req.actor]
        if order[1] not in [t for t, *_ in S.targets(b, u)]:
            raise IllegalActionError(S.why_not_fire(b, u, int(order[1])))
    if req.kind == "move" and order[0] == "move":
        u = b.state.units[req.actor]
        S.check_move(b, u, order[1], order[2], order[3], order[4])
    if req.kind == "move" and order[0] == "charge":
        u = b.state.units[req.actor]
        S.charge_reach(b, u, b.state.units[order[1]])
