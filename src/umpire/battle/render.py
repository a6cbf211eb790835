"""A top-down picture of a battle: hand-written SVG, and PNG (matplotlib) of the same scene.

Both draw the same things (issue 23): terrain with its names, objectives, units labelled
with a short form of their name (``short_names``), their strength and status mark, a
legend (the colours and the order of battle, short form to full name) and a scale.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from html import escape
from pathlib import Path

from umpire.battle.engine import Battle
from umpire.board.geometry import corners
from umpire.sides import SIDES

COLOURS = {
    "woods": (90, 140, 80),
    "rough": (190, 170, 120),
    "hill": (215, 200, 160),
    "cover": (170, 150, 110),
    "town": (150, 120, 110),
    "wall": (90, 90, 90),
    "stream": (80, 130, 210),
    "union": (40, 70, 160),
    "confederate": (150, 150, 150),
    "marker": (220, 40, 40),
    "objective": (230, 180, 0),
    "field": (236, 232, 214),
}


LEGEND = (
    ("union", "Union unit"),
    ("confederate", "Confederate unit"),
    ("objective", "objective"),
    ("woods", "woods"),
    ("hill", "hill"),
    ("rough", "rough ground"),
    ("cover", "cover"),
    ("town", "town"),
    ("wall", "wall / fence"),
    ("stream", "stream"),
)
"""The legend's colour keys, in order: sides first, then the terrain kinds."""


SCALE_INCHES = 6
"""The scale bar's length in table inches (a common move allowance)."""


def short_name(name: str) -> str:
    """A label a few letters long for the map: "15th Alabama" -> "15Ala", "2nd WI" -> "2WI",
    "Hazlett's Battery D, 5th US" -> "Hazlett" (the legend gives the whole name)."""
    head = re.split(r"[,/(]", name, maxsplit=1)[0].split() or [name or "?"]
    num = re.fullmatch(r"(\d+)(?:st|nd|rd|th)?", head[0])
    if num and len(head) > 1:
        word = head[1]
        return num.group(1) + (word if word.isupper() and len(word) <= 3 else word[:3])
    word = re.sub(r"['’]s$", "", head[0])
    return word[:7]


def short_names(b: Battle) -> list[str]:
    """Each unit's map label, made unique among the battle's units (a clash gets a number)."""
    out = [short_name(u.name) for u in b.state.units]
    seen: dict[str, int] = {}
    for n in out:
        seen[n] = seen.get(n, 0) + 1
    count: dict[str, int] = {}
    for i, n in enumerate(out):
        if seen[n] > 1:
            count[n] = count.get(n, 0) + 1
            out[i] = f"{n}{count[n]}"
    return out


def legend_rows(b: Battle) -> list[tuple[str, str, tuple[int, int, int]]]:
    """The legend: (key, words, colour) for each colour on the table, then each living
    unit's short form and full name in its side's colour."""
    kinds = {f.kind for f in b.setup.board.features}
    if b.setup.objectives:
        kinds.add("objective")
    rows = [("swatch", words, COLOURS[k]) for k, words in LEGEND if k in kinds or k in SIDES]
    short = short_names(b)
    for u in b.state.units:
        if u.alive:
            rows.append((short[u.i], u.name, COLOURS[u.side]))
    return rows


@dataclass(slots=True)
class Shape:
    """A filled polygon or a stroked line in table inches."""

    kind: str
    points: list[tuple[float, float]]
    colour: tuple[int, int, int]
    label: str = ""
    line: bool = False


def scene(b: Battle) -> list[Shape]:
    """Everything to draw, bottom to top."""
    out: list[Shape] = []
    for f in sorted(b.setup.board.features, key=lambda f: f.kind != "hill"):
        out.append(
            Shape(f.kind, list(f.points), COLOURS[f.kind], f.name, f.kind in ("wall", "stream"))
        )
    for ob in b.setup.objectives:
        pts = [
            (
                ob.x + ob.radius * math.cos(a / 12 * math.pi),
                ob.y + ob.radius * math.sin(a / 12 * math.pi),
            )
            for a in range(24)
        ]
        out.append(Shape("objective", pts, COLOURS["objective"], ob.name, True))
    short = short_names(b)
    for u in b.state.units:
        if not u.alive:
            continue
        mark = b.status.label(u)  # the status role's word: "MM", "Shaken", "Routed" ...
        out.append(
            Shape(
                "unit",
                corners(*u.box()),
                COLOURS[u.side],
                f"{short[u.i]} {u.stands}" + (f" {mark}" if mark else ""),
            )
        )
        fx, fy = math.cos(u.theta), math.sin(u.theta)
        tip = (u.x + fx * (u.hd + 0.8), u.y + fy * (u.hd + 0.8))
        out.append(Shape("facing", [(u.x, u.y), tip], (0, 0, 0), "", True))
        if (u.type == "foot" and u.formation == "column") or (u.type == "cavalry" and u.mounted):
            out.append(
                Shape(
                    "formation",
                    [(u.x - fy * u.hw, u.y + fx * u.hw), (u.x + fy * u.hw, u.y - fx * u.hw)],
                    (255, 255, 255),
                    "",
                    True,
                )
            )
        if u.marker:
            out.append(
                Shape(
                    "marker",
                    [
                        (u.x + a, u.y + c)
                        for a, c in ((-0.3, -0.3), (0.3, -0.3), (0.3, 0.3), (-0.3, 0.3))
                    ],
                    COLOURS["marker"],
                )
            )
    return out


def svg(b: Battle, scale: float = 16.0) -> str:
    """The battlefield as SVG text (y up on the table is up in the picture), with the
    legend to the right and a scale bar below the table."""
    w, h = b.setup.board.width, b.setup.board.height
    rows = legend_rows(b)
    panel = 230
    width = w * scale + panel
    height = max(h * scale + 40, 30 + 16 * len(rows))

    def pt(p: tuple[float, float]) -> str:
        return f"{p[0] * scale:.1f},{(h - p[1]) * scale:.1f}"

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" '
        f'height="{height:.0f}" font-family="sans-serif" font-size="11">',
        '<rect width="100%" height="100%" fill="white"/>',
        f'<rect width="{w * scale:.0f}" height="{h * scale:.0f}" fill="rgb{COLOURS["field"]}"/>',
    ]
    labels: list[str] = []
    for s in scene(b):
        pts = " ".join(pt(p) for p in s.points)
        col = f"rgb{s.colour}"
        if s.line:
            closed = s.kind == "objective"
            tag = "polygon" if closed else "polyline"
            sw = 3 if s.kind in ("wall", "stream") else 1.5
            parts.append(f'<{tag} points="{pts}" fill="none" stroke="{col}" stroke-width="{sw}"/>')
        else:
            parts.append(
                f'<polygon points="{pts}" fill="{col}" stroke="black" '
                f'stroke-width="{0.5 if s.kind == "unit" else 0}"/>'
            )
        if s.label:
            x, y = label_at(s)
            style = ' font-weight="bold"' if s.kind == "unit" else ' font-style="italic"'
            labels.append(
                f'<text x="{x * scale:.1f}" y="{(h - y) * scale - 3:.1f}" '
                f'text-anchor="middle"{style}>{escape(s.label)}</text>'
            )
    parts += labels  # on top of every shape
    st = b.state
    parts.append(
        f'<text x="4" y="12">Turn {st.turn}'
        + (f" - result: {escape(st.winner)}" if st.over else "")
        + "</text>"
    )
    y0 = h * scale + 20
    parts.append(
        f'<line x1="8" y1="{y0:.0f}" x2="{8 + SCALE_INCHES * scale:.0f}" y2="{y0:.0f}" '
        'stroke="black" stroke-width="3"/>'
    )
    parts.append(
        f'<text x="{12 + SCALE_INCHES * scale:.0f}" y="{y0 + 4:.0f}">{SCALE_INCHES} inches '
        f"(table {w:g} by {h:g} inches)</text>"
    )
    x0 = w * scale + 12
    parts.append(f'<text x="{x0:.0f}" y="16" font-weight="bold">Legend</text>')
    for k, (key, words, colour) in enumerate(rows):
        y = 34 + 16 * k
        if key == "swatch":
            parts.append(
                f'<rect x="{x0:.0f}" y="{y - 10}" width="14" height="11" fill="rgb{colour}"/>'
            )
            parts.append(f'<text x="{x0 + 20:.0f}" y="{y}">{escape(words)}</text>')
        else:
            parts.append(
                f'<text x="{x0:.0f}" y="{y}"><tspan font-weight="bold" fill="rgb{colour}">'
                f"{escape(key)}</tspan> {escape(words)}</text>"
            )
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def label_at(s: Shape) -> tuple[float, float]:
    """Where a shape's name goes, in table inches: above a unit, at a terrain's middle."""
    cx = sum(p[0] for p in s.points) / len(s.points)
    if s.kind == "unit" or s.line:
        return cx, max(p[1] for p in s.points)
    return cx, sum(p[1] for p in s.points) / len(s.points)


def png(b: Battle, size: tuple[int, int] = (1200, 900)) -> bytes:
    """The same scene, names, legend and scale drawn with matplotlib, ``size`` pixels."""
    import io

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.patches import Patch, Polygon

    w, h = b.setup.board.width, b.setup.board.height
    dpi = 100
    fig = plt.figure(figsize=(size[0] / dpi, size[1] / dpi), dpi=dpi)
    try:
        ax = fig.add_axes((0.02, 0.08, 0.7, 0.88))
        ax.set_xlim(0, w)
        ax.set_ylim(0, h)
        ax.set_aspect("equal")
        ax.set_facecolor(_frac(COLOURS["field"]))
        ax.set_xticks([])
        ax.set_yticks([])
        font = max(7.0, min(11.0, size[0] / 130))
        for s in scene(b):
            col = _frac(s.colour)
            if s.line:
                xs = [p[0] for p in s.points] + ([s.points[0][0]] if s.kind == "objective" else [])
                ys = [p[1] for p in s.points] + ([s.points[0][1]] if s.kind == "objective" else [])
                lw = 3.0 if s.kind in ("wall", "stream") else 1.5
                ax.plot(xs, ys, color=col, linewidth=lw)
            else:
                lw = 0.6 if s.kind == "unit" else 0.0
                ax.add_patch(Polygon(s.points, closed=True, fc=col, ec="black", lw=lw))
            if s.label:
                x, y = label_at(s)
                ax.text(
                    x,
                    y + (0.3 if s.kind == "unit" else 0),
                    s.label,
                    ha="center",
                    va="bottom" if s.kind == "unit" else "center",
                    fontsize=font,
                    fontweight="bold" if s.kind == "unit" else "normal",
                    fontstyle="normal" if s.kind == "unit" else "italic",
                    zorder=10,
                )
        st = b.state
        ax.set_title(
            f"Turn {st.turn}" + (f" - result: {st.winner}" if st.over else ""),
            loc="left",
            fontsize=font + 1,
        )
        ax.plot([0.5, 0.5 + SCALE_INCHES], [-0.8, -0.8], color="black", lw=3, clip_on=False)
        ax.text(
            1 + SCALE_INCHES,
            -0.8,
            f'{SCALE_INCHES} inches (table {w:g}" by {h:g}")',
            va="center",
            fontsize=font,
            clip_on=False,
        )
        rows = legend_rows(b)
        handles = [
            Patch(facecolor=_frac(c), label=words) for key, words, c in rows if key == "swatch"
        ]
        handles += [
            Patch(facecolor=_frac(c), label=f"{key}: {words}")
            for key, words, c in rows
            if key != "swatch"
        ]
        fig.legend(
            handles=handles,
            loc="upper left",
            bbox_to_anchor=(0.73, 0.96),
            fontsize=font * 0.85,
            title="Legend",
            frameon=False,
        )
        buf = io.BytesIO()
        fig.savefig(buf, format="png", dpi=dpi)
    finally:
        plt.close(fig)
    return buf.getvalue()


def _frac(c: tuple[int, int, int]) -> tuple[float, float, float]:
    """An RGB colour in 0-255 as matplotlib's 0-1."""
    return (c[0] / 255, c[1] / 255, c[2] / 255)


def write(b: Battle, path: Path, size: tuple[int, int] = (1200, 900)) -> None:
    """Write SVG or PNG (``size`` pixels) by the file's suffix."""
    if path.suffix.lower() == ".png":
        path.write_bytes(png(b, size))
    else:
        path.write_text(svg(b), encoding="utf-8")
