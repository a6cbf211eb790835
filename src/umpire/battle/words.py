"""The battle in words for a player (issue 23): the briefing before the first order and the
result, shared by the terminal (``cli.battle_view``) and the web table.

Built from the scenario's data and the state only (the description, postures, break
shares, units, objectives, turn limit), so every composition reads the same way.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from umpire.battle.engine import Battle


def side_order(b: Battle) -> list[str]:
    """The sides, the one that goes first first."""
    sides = ["confederate", "union"]
    first = getattr(b.setup.scenario.rules, "first", None)
    return sorted(sides, key=lambda s: s != first) if first in sides else sides


def forces_line(b: Battle, side: str) -> str:
    """A side's forces in short: "Union, defending (breaks at 50% of 3 units lost): 20th
    Maine (foot, 6 stands), ..."."""
    units = [u for u in b.state.units if u.side == side and u.alive]
    leaders = [ld.name for ld in b.state.leaders if ld.side == side and ld.alive]
    posture = {"attack": "attacking", "defend": "defending"}.get(b.setup.posture.get(side, ""), "")
    head = side.title() + (f", {posture}" if posture else "")
    frac = b.setup.break_fraction[side]
    head += f" (breaks when {frac:.0%} of its {b.setup.units0[side]} units are lost)"
    body = ", ".join(f"{u.name} ({u.type}, {u.stands} stands)" for u in units)
    if leaders:
        body += "; led by " + ", ".join(leaders)
    return f"{head}: {body}"


def briefing(b: Battle, picture: str | None = None) -> list[str]:
    """What a player reads before the first order (issue 23): the situation (the
    scenario's description), each side's forces, the objectives and how the battle is won,
    the turn limit, and where the picture of the field was saved."""
    scen = b.setup.scenario
    out = [f"Briefing: {scen.name}"]
    if scen.description:
        out.append(f"  Situation: {scen.description}")
    else:  # a fallback built from the data
        out.append(
            f"  Situation: a {b.setup.board.width:g} by {b.setup.board.height:g} inch table; "
            + " and ".join(
                f"{s.title()} {'attacks' if b.setup.posture.get(s) == 'attack' else 'defends'}"
                for s in side_order(b)
            )
            + "."
        )
    out.append("  Forces:")
    out += [f"    {forces_line(b, s)}" for s in side_order(b)]
    if b.setup.objectives:
        total = sum(ob.points for ob in b.setup.objectives)
        out.append(f"  Objectives ({total} points in all):")
        for ob in b.setup.objectives:
            out.append(
                f"    {ob.name} at ({ob.x:g}, {ob.y:g}), held by the only side within "
                f'{ob.radius:g}": {ob.points} point{"s" if ob.points != 1 else ""}'
            )
    tie = "a draw" if b.setup.tie == "draw" else f"the {b.setup.tie.title()} side's"
    out.append(
        f"  Victory: a side that loses its break share of units loses at once; otherwise at "
        f"the end of turn {b.setup.turns} (the turn limit) the side holding more objective "
        f"points wins; a tie is {tie}."
    )
    if picture:
        out.append(f"  The field: {picture}")
    return out


def result_words(b: Battle) -> str:
    """The result in words (issue 23): "Union holds 3 of 3 objective points, Confederate 0:
    Union victory after 12 turns; losses: Union 1 stand, Confederate 7 stands (1 unit
    removed)"."""
    from umpire.battle.victory import broken_sides, objective_points, points_words

    st = b.state
    verdict = "a draw" if st.winner == "draw" else f"{str(st.winner).title()} victory"
    broken = broken_sides(b)
    if broken:
        why = " and ".join(s.title() for s in broken) + (
            " army breaks" if len(broken) == 1 else " armies break"
        )
    elif b.setup.objectives:
        why = points_words(b, objective_points(b))
    else:
        why = "the battle ends"
    losses = []
    for side in side_order(b):
        n = int(st.losses.get(side, 0))
        gone = sum(1 for u in st.units if u.side == side and not u.alive)
        losses.append(
            f"{side.title()} {n} stand{'s' if n != 1 else ''}"
            + (f" ({gone} unit{'s' if gone != 1 else ''} removed)" if gone else "")
        )
    return f"{why}: {verdict} after {st.turn} turns; losses: {', '.join(losses)}"
