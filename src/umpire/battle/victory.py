"""How a battle ends, whatever rules fight it (core default ``victory``, battle/data/labels.toml).

A side with no units left, or that has lost its scenario break fraction of its units,
quits; at the turn limit the objectives held decide. An events module may end a battle
sooner (seed 001's army morale) by setting ``state.over`` and ``state.winner`` itself.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from umpire.sides import SIDES

if TYPE_CHECKING:
    from umpire.battle.engine import Battle


def is_broken(units0: int, removed: int, fraction: float) -> bool:
    """Default ``victory``: has a side with ``units0`` units, ``removed`` of them gone, broken?

    One function for every path that asks (the engine, the lab's batch records).
    """
    return removed >= units0 or removed >= fraction * units0


def broken_sides(b: Battle) -> list[str]:
    """The sides past their break point now (default ``victory``)."""
    first, second = SIDES  # one pass over the units, two counts (asked at every step)
    alive_first = alive_second = 0
    for u in b.state.units:
        if u.alive:
            side = u.side
            if side == first:
                alive_first += 1
            elif side == second:
                alive_second += 1
    out: list[str] = []
    for side in SIDES:
        alive = alive_first if side == first else alive_second
        n0 = b.setup.units0[side]
        if is_broken(n0, n0 - alive, b.setup.break_fraction[side]):
            out.append(side)
    return out


def end_check(b: Battle) -> None:
    """Default ``victory``: a side with no units, or past its break fraction, loses."""
    st = b.state
    broken = broken_sides(b)
    if broken:
        st.over = True
        if len(broken) == len(SIDES):
            st.winner = "draw"
        else:
            st.winner = next(s for s in SIDES if s not in broken)
        if b.narrate:
            b.say(
                f"{', '.join(broken)} army breaks: {st.winner} wins"
                if st.winner != "draw"
                else "both armies break: a draw"
            )


def objective_points(b: Battle) -> dict[str, int]:
    """Default ``victory``: each side's points for the objectives it alone holds now."""
    st = b.state
    points: dict[str, int] = dict.fromkeys(SIDES, 0)
    for ob in b.setup.objectives:
        near = {
            u.side for u in st.units if u.alive and math.hypot(u.x - ob.x, u.y - ob.y) <= ob.radius
        }
        if len(near) == 1:
            points[near.pop()] += ob.points
    return points


def points_words(b: Battle, points: dict[str, int]) -> str:
    """Objective points in words: "Union holds 2 of 3 objective points, Confederate 0"."""
    total = sum(ob.points for ob in b.setup.objectives)
    first, second = sorted(SIDES, key=lambda s: -points[s])
    return (
        f"{first.title()} holds {points[first]} of {total} objective points, "
        f"{second.title()} {points[second]}"
    )


def final(b: Battle) -> None:
    """Default ``victory``: at the turn limit the objectives held decide."""
    st = b.state
    points = objective_points(b)
    st.over = True
    best = max(points.values())
    leaders = [s for s, p in points.items() if p == best]
    st.winner = leaders[0] if len(leaders) == 1 else b.setup.tie
    if b.narrate:
        verdict = "a draw" if st.winner == "draw" else f"{st.winner.title()} victory"
        b.say(f"Turn limit: {points_words(b, points)}: {verdict}")
