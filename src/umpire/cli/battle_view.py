"""What a player at the terminal sees of a battle: a status table per phase, highlights.

Reads the battle through the seams only (the status role's marker labels, the unit
effects), so it shows every composition the same way.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from umpire.battle.words import briefing as briefing  # the terminal's briefing and result
from umpire.battle.words import forces_line as forces_line
from umpire.battle.words import result_words as result_words
from umpire.battle.words import side_order

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
    for k, side in enumerate(side_order(b)):
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
    for side in side_order(b):
        units = [u for u in b.state.units if u.side == side and u.alive]
        marked = sum(1 for u in units if b.status.label(u))
        stands = sum(u.stands for u in units)
        stands0 = sum(u.stands0 for u in b.state.units if u.side == side)
        out.append(
            f"{side.title()}: {len(units)} units, {stands}/{stands0} stands"
            + (f", {marked} marked" if marked else "")
        )
    return " | ".join(out) + "  ('status' shows every unit)"
