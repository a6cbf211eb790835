"""What a player at the terminal sees of a battle: a status table per phase, highlights.

Reads the battle through the seams only (the status role's marker labels, the unit
effects), so it shows every composition the same way.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rich.console import Console
    from rich.table import Table

    from umpire.battle.engine import Battle

HIGHLIGHT = ("draws", "Random event", "random event", "army breaks", "Turn limit", "quits")
"""Narrative lines shown in bold: card draws, events and the end of the battle."""


def effects_text(b: Battle, i: int) -> str:
    """The unit effects on unit ``i`` in a few words ("no fire, fire +1")."""
    u = b.state.units[i]
    table = u.extra.get("fx") or {}
    why = u.extra.get("fx_why") or {}
    out = []
    for key, value in sorted(table.items()):
        if key.endswith("_mod") or key == "extra_die":
            out.append(f"{key.removesuffix('_mod').replace('_', ' ')} {int(value):+d}")
        elif key == "terrain":
            out.append(f"terrain {value}")
        elif key in why or not key.startswith("fired"):
            out.append(key.replace("_", " "))
    return ", ".join(out)


def status_table(b: Battle, title: str = "") -> Table:
    """Every unit, each side apart (a section each, the side that goes first first; Union
    blue, Confederate red): troops and formation, strength, status marker, effects, place."""
    from rich.table import Table

    t = Table(title=title or None, title_justify="left", show_lines=False, pad_edge=False)
    for col in ("side", "unit", "troops", "stands", "status", "effects", "at"):
        t.add_column(col, no_wrap=col in ("side", "stands", "at"))
    for k, side in enumerate(_side_order(b)):
        if k:
            t.add_section()
        colour = "blue" if side == "union" else "red"
        first = True
        for u in b.state.units:
            if not u.alive or u.side != side:
                continue
            t.add_row(
                f"[{colour}]{side.title()}[/]" if first else "",
                f"[{colour}]{u.name}[/]",
                u.label().removeprefix(u.name).strip(" ()"),
                f"{u.stands}/{u.stands0}",
                b.status.label(u),
                effects_text(b, u.i),
                f"{u.x:.0f},{u.y:.0f}",
            )
            first = False
    gone = [u.name for u in b.state.units if not u.alive]
    if gone:
        t.caption = "removed: " + ", ".join(gone)
    return t


def show_line(c: Console, text: str) -> None:
    """One narrative line; card draws, events and the end in bold."""
    from rich.markup import escape

    if any(h in text for h in HIGHLIGHT):
        c.print(f"[bold]{escape(text)}[/]")
    else:
        c.print(escape(text))


def _side_order(b: Battle) -> list[str]:
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
                for s in _side_order(b)
            )
            + "."
        )
    out.append("  Forces:")
    out += [f"    {forces_line(b, s)}" for s in _side_order(b)]
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
    for side in _side_order(b):
        n = int(st.losses.get(side, 0))
        gone = sum(1 for u in st.units if u.side == side and not u.alive)
        losses.append(
            f"{side.title()} {n} stand{'s' if n != 1 else ''}"
            + (f" ({gone} unit{'s' if gone != 1 else ''} removed)" if gone else "")
        )
    return f"{why}: {verdict} after {st.turn} turns; losses: {', '.join(losses)}"


def recap(b: Battle, side: str, lines: list[str], keep: int = 6) -> list[str]:
    """What the enemy did since the player's last order, in a few lines: the narrative's
    top-level lines that begin with an enemy unit's or leader's name (their moves, fire,
    charges), the last ``keep`` of them; the rest is counted (all was said as it happened)."""
    names = tuple(
        [u.name for u in b.state.units if u.side != side]
        + [ld.name for ld in b.state.leaders if ld.side != side]
    )
    theirs = [ln for ln in lines if ln and not ln[0].isspace() and ln.startswith(names)]
    if not theirs:
        return []
    head = ["What the enemy did since your last order:"]
    if len(theirs) > keep:
        head.append(f"  ... and {len(theirs) - keep} more before")
    return head + [f"  {ln}" for ln in theirs[-keep:]]


def sides_line(b: Battle) -> str:
    """Each side apart in a line: units and stands left, and how many carry a status mark
    ("Union: 3 units, 15/16 stands, 1 marked | Confederate: ...")."""
    out = []
    for side in _side_order(b):
        units = [u for u in b.state.units if u.side == side and u.alive]
        marked = sum(1 for u in units if b.status.label(u))
        stands = sum(u.stands for u in units)
        stands0 = sum(u.stands0 for u in b.state.units if u.side == side)
        out.append(
            f"{side.title()}: {len(units)} units, {stands}/{stands0} stands"
            + (f", {marked} marked" if marked else "")
        )
    return " | ".join(out) + "  ('status' shows every unit)"
