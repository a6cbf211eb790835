"""The battlefield as an SVG for the page: terrain, units by side with facing and formation,
status marks, leaders with their command radius, objectives; the pending actor outlined.

Coordinates are table inches with y up; the SVG's viewBox flips y so that north is up, and
each unit carries ``data-unit`` (and its centre, ``data-x``/``data-y``) so a tap on it or
near it (or on the table) becomes an order. Units are labelled with a short form of their
name (``short_names``, shared with ``umpire render``; the order of battle on the page is the
legend); the acting unit's fire arc is drawn here, its move allowance by the page from
``battle_table.allowance``.
"""

from __future__ import annotations

import math
from html import escape

from umpire.battle.engine import Battle, Request
from umpire.battle.render import COLOURS, scene
from umpire.battle.render import short_name as short_name  # the map's labels, shared
from umpire.battle.render import short_names as short_names
from umpire.battle.state import Unit
from umpire.board.geometry import corners

FILL = {"union": "#2f4fa3", "confederate": "#8f8f8f"}


def _rgb(c: tuple[int, int, int]) -> str:
    return f"rgb({c[0]},{c[1]},{c[2]})"


def _arc(b: Battle, u: Unit, h: float) -> str:
    """The acting unit's fire arc: its front arc (the combat's ``fire_arc_degrees``) out to
    the longest range it can fire at now (``reach``); nothing when it cannot fire."""
    reach = b.comp.combat.reach(b, u)
    if reach <= 0:
        return ""
    half = math.radians(b.comp.combat.geometry["fire_arc_degrees"])
    steps = 16
    pts = [(u.x, u.y)]
    for k in range(steps + 1):
        a = u.theta - half + 2 * half * k / steps
        pts.append((u.x + math.cos(a) * reach, u.y + math.sin(a) * reach))
    text = " ".join(f"{x:.2f},{h - y:.2f}" for x, y in pts)
    return (
        f'<polygon class="arc" points="{text}"><title>{escape(u.name)}: fire arc, '
        f'{reach:g}" range</title></polygon>'
    )


def battle_svg(b: Battle, req: Request | None, side: str | None) -> str:
    """The table for one seat (nothing on it is secret: the whole table is in view)."""
    w, h = b.setup.board.width, b.setup.board.height

    def pt(p: tuple[float, float]) -> str:
        return f"{p[0]:.2f},{h - p[1]:.2f}"

    acting = req.actor if req is not None and req.kind in ("move", "fire") else -1
    labels = short_names(b)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {w:g} {h:g}" '
        f'class="table" data-width="{w:g}" data-height="{h:g}" role="img" '
        f'aria-label="the battlefield, {w:g} by {h:g} inches">',
        f'<rect class="field" width="{w:g}" height="{h:g}" fill="{_rgb(COLOURS["field"])}"/>',
    ]
    for s in scene(b):
        if s.kind in ("unit", "facing", "formation", "marker"):
            continue
        pts = " ".join(pt(p) for p in s.points)
        col = _rgb(s.colour)
        if s.line:
            tag = "polygon" if s.kind == "objective" else "polyline"
            width = 0.35 if s.kind in ("wall", "stream") else 0.15
            dash = ' stroke-dasharray="0.6 0.4"' if s.kind == "objective" else ""
            parts.append(
                f'<{tag} points="{pts}" fill="none" stroke="{col}" stroke-width="{width}"{dash}>'
                f"<title>{escape(s.label or s.kind)}</title></{tag}>"
            )
        else:
            parts.append(
                f'<polygon points="{pts}" fill="{col}" opacity="0.85">'
                f"<title>{escape(s.label or s.kind)}</title></polygon>"
            )
    parts.append('<g class="reach-layer"></g>')  # the page draws the move allowance here
    if acting >= 0 and b.state.units[acting].alive:
        parts.append(_arc(b, b.state.units[acting], h))
    for ld in b.state.leaders:
        if not ld.alive:
            continue
        col = FILL.get(ld.side, "#444")
        parts.append(
            f'<circle cx="{ld.x:.2f}" cy="{h - ld.y:.2f}" r="{ld.radius:.2f}" fill="none" '
            f'stroke="{col}" stroke-width="0.08" stroke-dasharray="0.5 0.5" opacity="0.6"/>'
        )
        parts.append(
            f'<circle class="leader" cx="{ld.x:.2f}" cy="{h - ld.y:.2f}" r="0.45" fill="gold" '
            f'stroke="{col}" stroke-width="0.15"><title>{escape(ld.name)} (leader, '
            f'radius {ld.radius:g}")</title></circle>'
        )
    for u in b.state.units:
        if not u.alive:
            continue
        pts = " ".join(pt(p) for p in corners(*u.box()))
        mark = b.status.label(u)
        cls = "unit" + (" acting" if u.i == acting else "") + (" own" if u.side == side else "")
        title = f"{u.name}: {u.type}, {u.formation}, {u.stands}/{u.stands0} stands" + (
            f", {mark}" if mark else ""
        )
        parts.append(
            f'<g class="{cls}" data-unit="{u.i}" data-side="{u.side}" '
            f'data-x="{u.x:.2f}" data-y="{u.y:.2f}" data-name="{escape(u.name)}">'
            f'<polygon points="{pts}" fill="{FILL.get(u.side, "#555")}" stroke="black" '
            f'stroke-width="{0.25 if u.i == acting else 0.06}"/>'
        )
        fx, fy = math.cos(u.theta), math.sin(u.theta)
        tip = (u.x + fx * (u.hd + 0.8), u.y + fy * (u.hd + 0.8))
        parts.append(
            f'<line x1="{u.x:.2f}" y1="{h - u.y:.2f}" x2="{tip[0]:.2f}" y2="{h - tip[1]:.2f}" '
            f'stroke="black" stroke-width="0.12"/>'
        )
        if u.formation == "column" or (u.type == "cavalry" and u.mounted):
            a = (u.x - fy * u.hw, u.y + fx * u.hw)
            c = (u.x + fy * u.hw, u.y - fx * u.hw)
            parts.append(
                f'<line x1="{a[0]:.2f}" y1="{h - a[1]:.2f}" x2="{c[0]:.2f}" y2="{h - c[1]:.2f}" '
                f'stroke="white" stroke-width="0.12"/>'
            )
        parts.append(
            f'<text class="label" x="{u.x:.2f}" y="{h - u.y - u.hd - 0.4:.2f}" font-size="0.9" '
            f'text-anchor="middle">{escape(labels[u.i])}</text>'
        )
        if mark:
            parts.append(
                f'<circle cx="{u.x:.2f}" cy="{h - u.y:.2f}" r="0.3" '
                f'fill="{_rgb(COLOURS["marker"])}"/>'
            )
        parts.append(f"<title>{escape(title)}</title></g>")
    parts.append("</svg>")
    return "".join(parts)
