"""A top-down picture of a battle: hand-written SVG, and PNG from the same scene.

The PNG needs no new dependency: each shape is rasterised with ``shapely.contains_xy``
(already a dependency) on the pixel grid and the image is encoded with ``zlib``. Labels
are drawn in the SVG only; the PNG shows terrain, bases, facing ticks and markers.
"""

from __future__ import annotations

import math
import struct
import zlib
from dataclasses import dataclass
from html import escape
from pathlib import Path

import numpy as np
import shapely

from umpire.battle.engine import Battle
from umpire.board.geometry import corners

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
    for u in b.state.units:
        if not u.alive:
            continue
        mark = b.status.label(u)  # the status role's word: "MM", "Shaken", "Routed" ...
        out.append(
            Shape(
                "unit",
                corners(*u.box()),
                COLOURS[u.side],
                f"{u.id} {u.stands}" + (f" {mark}" if mark else ""),
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


def svg(b: Battle, scale: float = 12.0) -> str:
    """The battlefield as SVG text (y up on the table is up in the picture)."""
    w, h = b.setup.board.width, b.setup.board.height

    def pt(p: tuple[float, float]) -> str:
        return f"{p[0] * scale:.1f},{(h - p[1]) * scale:.1f}"

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{w * scale:.0f}" '
        f'height="{h * scale:.0f}" font-family="sans-serif" font-size="10">',
        f'<rect width="100%" height="100%" fill="rgb{COLOURS["field"]}"/>',
    ]
    for s in scene(b):
        pts = " ".join(pt(p) for p in s.points)
        col = f"rgb{s.colour}"
        if s.line:
            closed = s.kind == "objective"
            tag = "polygon" if closed else "polyline"
            width = 3 if s.kind in ("wall", "stream") else 1.5
            parts.append(
                f'<{tag} points="{pts}" fill="none" stroke="{col}" stroke-width="{width}"/>'
            )
        else:
            parts.append(
                f'<polygon points="{pts}" fill="{col}" stroke="black" '
                f'stroke-width="{0.5 if s.kind == "unit" else 0}"/>'
            )
        if s.label:
            cx = sum(p[0] for p in s.points) / len(s.points)
            cy = max(p[1] for p in s.points)
            parts.append(
                f'<text x="{cx * scale:.1f}" y="{(h - cy) * scale - 3:.1f}" '
                f'text-anchor="middle">{escape(s.label)}</text>'
            )
    st = b.state
    parts.append(
        f'<text x="4" y="12">Turn {st.turn}'
        + (f" - result: {escape(st.winner)}" if st.over else "")
        + "</text>"
    )
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def png(b: Battle, scale: float = 8.0) -> bytes:
    """The same scene rasterised (shapely) and encoded as PNG (zlib), no labels."""
    w, h = b.setup.board.width, b.setup.board.height
    pw, ph = int(w * scale), int(h * scale)
    xs = (np.arange(pw) + 0.5) / scale
    ys = h - (np.arange(ph) + 0.5) / scale
    gx, gy = np.meshgrid(xs, ys)
    img = np.empty((ph, pw, 3), dtype=np.uint8)
    img[:] = COLOURS["field"]
    for s in scene(b):
        if s.line:
            geom = shapely.buffer(shapely.LineString(s.points), 1.2 / scale)
        else:
            geom = shapely.Polygon(s.points)
        minx, miny, maxx, maxy = geom.bounds
        box = (gx >= minx) & (gx <= maxx) & (gy >= miny) & (gy <= maxy)
        if not box.any():
            continue
        inside = np.zeros_like(box)
        inside[box] = shapely.contains_xy(geom, gx[box], gy[box])
        img[inside] = s.colour
    raw = b"".join(b"\x00" + img[r].tobytes() for r in range(ph))

    def chunk(tag: bytes, data: bytes) -> bytes:
        return (
            struct.pack(">I", len(data))
            + tag
            + data
            + struct.pack(">I", zlib.crc32(tag + data) & 0xFFFFFFFF)
        )

    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", struct.pack(">IIBBBBB", pw, ph, 8, 2, 0, 0, 0))
        + chunk(b"IDAT", zlib.compress(raw, 6))
        + chunk(b"IEND", b"")
    )


def write(b: Battle, path: Path) -> None:
    """Write SVG or PNG by the file's suffix."""
    if path.suffix.lower() == ".png":
        path.write_bytes(png(b))
    else:
        path.write_text(svg(b), encoding="utf-8")
