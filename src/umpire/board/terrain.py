"""The tabletop: size and terrain features, rasterised once for fast look-ups.

Terrain is shapely polygons (woods, rough, hills, cover, towns) and lines (walls,
streams). At load the areas are rasterised on a fine grid (0.25" by default) with
``shapely.contains_xy``, so the battle's inner loop asks numpy arrays, never shapely:
is this point rough, in cover, how high; how much woods does a line of sight cross.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import shapely
from numpy.typing import NDArray

from umpire.board.geometry import F, segment_crosses_segments

AREA_KINDS = ("woods", "rough", "hill", "cover", "town")
LINE_KINDS = ("wall", "stream")
KINDS = AREA_KINDS + LINE_KINDS
ROUGH_KINDS = ("woods", "rough", "town")  # default rough_terrain
COVER_KINDS = ("woods", "cover", "town")  # default cover_terrain
BLOCK_KINDS = ("woods", "town")  # default los_centre_to_centre
STREAM_BAND = 0.5  # default rough_terrain: a 0.5" band along streams is rough


@dataclass(frozen=True, slots=True)
class Feature:
    """One terrain feature: a polygon (areas) or a polyline (walls, streams)."""

    kind: str
    points: tuple[tuple[float, float], ...]
    name: str = ""
    level: int = 1  # hills: height in steps above the plain

    def geometry(self) -> shapely.Geometry:
        """The shapely geometry (a Polygon or LineString)."""
        if self.kind in LINE_KINDS:
            return shapely.LineString(self.points)
        return shapely.Polygon(self.points)


class Board:
    """A table ``width`` x ``height`` inches with its terrain and the precomputed rasters."""

    __slots__ = (
        "block",
        "cell",
        "cover",
        "features",
        "height",
        "level",
        "nx",
        "ny",
        "rough",
        "see_woods",
        "streams",
        "walls",
        "width",
    )

    def __init__(
        self,
        width: float,
        height: float,
        features: Sequence[Feature] = (),
        *,
        cell: float = 0.25,
        see_woods: float = 2.0,
    ):
        self.width = float(width)
        self.height = float(height)
        self.features = tuple(features)
        self.cell = cell
        self.see_woods = see_woods
        self.nx = max(1, math.ceil(self.width / cell))
        self.ny = max(1, math.ceil(self.height / cell))
        gx = (np.arange(self.nx) + 0.5) * cell
        gy = (np.arange(self.ny) + 0.5) * cell
        xx, yy = np.meshgrid(gx, gy, indexing="ij")
        self.rough = np.zeros((self.nx, self.ny), dtype=bool)
        self.cover = np.zeros((self.nx, self.ny), dtype=bool)
        self.block = np.zeros((self.nx, self.ny), dtype=bool)
        self.level = np.zeros((self.nx, self.ny), dtype=np.int16)
        walls: list[list[float]] = []
        streams: list[list[float]] = []
        for f in self.features:
            geom = f.geometry()
            if f.kind in LINE_KINDS:
                segs = [[*a, *b] for a, b in zip(f.points, f.points[1:], strict=False)]
                (walls if f.kind == "wall" else streams).extend(segs)
                if f.kind == "stream":
                    band = shapely.buffer(geom, STREAM_BAND)
                    self.rough |= shapely.contains_xy(band, xx, yy)
                continue
            inside = shapely.contains_xy(geom, xx, yy)
            if f.kind in ROUGH_KINDS:
                self.rough |= inside
            if f.kind in COVER_KINDS:
                self.cover |= inside
            if f.kind in BLOCK_KINDS:
                self.block |= inside
            if f.kind == "hill":
                self.level = np.where(inside, np.maximum(self.level, f.level), self.level)
        self.walls: F = np.array(walls, dtype=float).reshape(-1, 4)
        self.streams: F = np.array(streams, dtype=float).reshape(-1, 4)

    # -- point look-ups ----------------------------------------------------------
    def _ij(self, x: float, y: float) -> tuple[int, int]:
        i = min(max(int(x / self.cell), 0), self.nx - 1)
        j = min(max(int(y / self.cell), 0), self.ny - 1)
        return i, j

    def is_rough(self, x: float, y: float) -> bool:
        """Is the point rough ground (default ``rough_terrain``)?"""
        return bool(self.rough[self._ij(x, y)])

    def in_cover(self, x: float, y: float) -> bool:
        """Is the point in cover terrain (woods, cover, town)?"""
        return bool(self.cover[self._ij(x, y)])

    def height_at(self, x: float, y: float) -> int:
        """The hill level at a point (0 on the plain)."""
        return int(self.level[self._ij(x, y)])

    def on_table(self, pts: Sequence[tuple[float, float]]) -> bool:
        """Are all the points on the table?"""
        return all(0 <= px <= self.width and 0 <= py <= self.height for px, py in pts)

    # -- lines -------------------------------------------------------------------
    def _samples(self, x0: F, y0: F, x1: F, y1: F) -> tuple[NDArray[np.intp], NDArray[np.intp], F]:
        """Raster cells sampled every half cell along many segments: (i, j, step length)."""
        length = np.hypot(x1 - x0, y1 - y0)
        k = max(2, int(np.max(length, initial=0.0) / (self.cell / 2)) + 2)
        t = np.linspace(0.0, 1.0, k)[None, :]
        px = x0[:, None] + (x1 - x0)[:, None] * t
        py = y0[:, None] + (y1 - y0)[:, None] * t
        i = np.clip((px / self.cell).astype(np.intp), 0, self.nx - 1)
        j = np.clip((py / self.cell).astype(np.intp), 0, self.ny - 1)
        return i, j, length / (k - 1)

    def path_rough(self, x0: float, y0: float, x1: float, y1: float) -> bool:
        """Does a straight move touch rough ground anywhere (default ``rough_terrain``)?"""
        i, j, _ = self._samples(np.array([x0]), np.array([y0]), np.array([x1]), np.array([y1]))
        return bool(self.rough[i, j].any())

    def terrain_los(self, x0: F, y0: F, x1: F, y1: F) -> NDArray[np.bool_]:
        """Which sight lines terrain leaves clear (default ``los_centre_to_centre``).

        Blocked by more than ``see_woods`` inches of woods or town, or by a hill higher
        than both ends.
        """
        clear = np.zeros(len(x0), dtype=bool)
        for n in range(len(x0)):  # each line sampled on its own, whatever else is asked
            i, j, step = self._samples(x0[n : n + 1], y0[n : n + 1], x1[n : n + 1], y1[n : n + 1])
            woods = self.block[i, j].sum(axis=1) * step
            lev = self.level[i, j]
            top = np.maximum(lev[:, 0], lev[:, -1])
            hill_blocks = (lev > top[:, None]).any(axis=1)
            clear[n] = bool(((woods <= self.see_woods + 1e-9) & ~hill_blocks)[0])
        return clear

    def crosses_wall(self, x0: float, y0: float, x1: float, y1: float) -> bool:
        """Does the segment cross a wall?"""
        return segment_crosses_segments(x0, y0, x1, y1, self.walls)

    def crosses_obstacle(self, x0: float, y0: float, x1: float, y1: float) -> bool:
        """Does the segment cross a wall or a stream (melee default ``wall_or_stream_defence``)?"""
        return segment_crosses_segments(x0, y0, x1, y1, self.walls) or segment_crosses_segments(
            x0, y0, x1, y1, self.streams
        )
