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
    """Every unit (Union blue, Confederate red): troops and formation, strength, status
    marker, effects, place."""
    from rich.table import Table

    t = Table(title=title or None, title_justify="left", show_lines=False, pad_edge=False)
    for col in ("unit", "troops", "stands", "status", "effects", "at"):
        t.add_column(col, no_wrap=col in ("stands", "at"))
    for u in b.state.units:
        if not u.alive:
            continue
        colour = "blue" if u.side == "union" else "red"
        t.add_row(
            f"[{colour}]{u.name}[/]",
            u.label().removeprefix(u.name).strip(" ()"),
            f"{u.stands}/{u.stands0}",
            b.status.label(u),
            effects_text(b, u.i),
            f"{u.x:.0f},{u.y:.0f}",
        )
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
