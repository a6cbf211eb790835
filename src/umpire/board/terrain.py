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

from umpire.board import numeric as N
from umpire.board.geometry import F

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
    variant: str = ""  # a finer kind a rule module may read (a wall's "rail" fence)

    def geometry(self) -> shapely.Geometry:
        """The shapely geometry (a Polygon or LineString)."""
        if self.kind in LINE_KINDS:
            return shapely.LineString(self.points)
        return shapely.Polygon(self.points)


class Board:
    """A table ``width`` x ``height`` inches with its terrain and the precomputed rasters."""

    __slots__ = (
        "_block_boxes",
        "_block_l",
        "_cover_l",
        "_fields",
        "_hill_boxes",
        "_level_l",
        "_rough_boxes",
        "_rough_l",
        "_streams_l",
        "_walls_l",
        "block",
        "cell",
        "cover",
        "features",
        "height",
        "level",
        "max_level",
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
        # Cell boxes (imin, imax, jmin, jmax) of each feature's cells: a line whose cells
        # miss every box needs no sampling (the hot path's exact pre-filter).
        self._rough_boxes: list[tuple[int, int, int, int]] = []
        self._block_boxes: list[tuple[int, int, int, int]] = []
        self._hill_boxes: list[tuple[int, int, int, int, int]] = []
        for f in self.features:
            geom = f.geometry()
            if f.kind in LINE_KINDS:
                segs = [[*a, *b] for a, b in zip(f.points, f.points[1:], strict=False)]
                (walls if f.kind == "wall" else streams).extend(segs)
                if f.kind == "stream":
                    band = shapely.contains_xy(shapely.buffer(geom, STREAM_BAND), xx, yy)
                    self.rough |= band
                    self._rough_boxes += _cell_box(band)
                continue
            inside = shapely.contains_xy(geom, xx, yy)
            if f.kind in ROUGH_KINDS:
                self.rough |= inside
                self._rough_boxes += _cell_box(inside)
            if f.kind in COVER_KINDS:
                self.cover |= inside
            if f.kind in BLOCK_KINDS:
                self.block |= inside
                self._block_boxes += _cell_box(inside)
            if f.kind == "hill":
                self.level = np.where(inside, np.maximum(self.level, f.level), self.level)
                self._hill_boxes += [(f.level, *b) for b in _cell_box(inside)]
        self.walls: F = np.array(walls, dtype=float).reshape(-1, 4)
        self.streams: F = np.array(streams, dtype=float).reshape(-1, 4)
        # Plain Python copies for the scalar hot path (cell (i, j) is item i * ny + j).
        # (rough and cover as one byte a cell: a look-up at a random point reads 55 kB,
        # not a 440 kB list of pointers that falls out of the cache; the AI asks thousands)
        self._rough_l: bytes = self.rough.ravel().astype(np.uint8).tobytes()
        self._cover_l: bytes = self.cover.ravel().astype(np.uint8).tobytes()
        self._block_l: list[int] = self.block.ravel().astype(np.int64).tolist()
        self._level_l: list[int] = self.level.ravel().tolist()
        self.max_level = max(self._level_l, default=0)
        self._fields: dict[int, list[int]] = {}
        # lines end to end in one flat list (``numeric.crosses``)
        self._walls_l: list[float] = [float(v) for seg in walls for v in seg]
        self._streams_l: list[float] = [float(v) for seg in streams for v in seg]

    # -- point look-ups ----------------------------------------------------------
    def _ij(self, x: float, y: float) -> tuple[int, int]:
        i = min(max(int(x / self.cell), 0), self.nx - 1)
        j = min(max(int(y / self.cell), 0), self.ny - 1)
        return i, j

    def _k(self, x: float, y: float) -> int:
        """The flat index of the cell holding a point (clamped to the table)."""
        return N.cell_of(x, y, self.cell, self.nx, self.ny)

    def is_rough(self, x: float, y: float) -> bool:
        """Is the point rough ground (default ``rough_terrain``)?"""
        return self._rough_l[self._k(x, y)] != 0

    def in_cover(self, x: float, y: float) -> bool:
        """Is the point in cover terrain (woods, cover, town)?"""
        return self._cover_l[self._k(x, y)] != 0

    def height_at(self, x: float, y: float) -> int:
        """The hill level at a point (0 on the plain)."""
        return self._level_l[self._k(x, y)]

    def on_table(self, pts: Sequence[tuple[float, float]]) -> bool:
        """Are all the points on the table?"""
        return all(0 <= px <= self.width and 0 <= py <= self.height for px, py in pts)

    # -- lines -------------------------------------------------------------------
    # A line is sampled every half cell, both ends included, and walked over a "clear
    # distance" field that lets the walk skip samples far from any cell that matters:
    # :func:`umpire.board.numeric.walk`, the one source the batch simulator's kernels
    # compile too (``umpire.board.kterrain``, ``ksight``).

    def _field(self, key: int) -> list[int]:
        """Clear distances to rough cells (key -1) or to woods and hills above ``key``."""
        field = self._fields.get(key)
        if field is None:
            mask = self.rough if key < 0 else self.block | (self.level > key)
            field = self._fields[key] = clear_distance(mask).ravel().tolist()
        return field

    def skip_field(self, key: int) -> list[int]:
        """The walk's clear-distance field: to rough cells (-1), or to woods/town and hills
        above level ``key`` (for batch walks that must read the same field)."""
        return self._field(key)

    def cell_boxes(self) -> dict[str, list[tuple[int, ...]]]:
        """The cell boxes of the rough, woods/town and (level-first) hill features."""
        return {
            "rough": list(self._rough_boxes),
            "block": list(self._block_boxes),
            "hill": list(self._hill_boxes),
        }

    def path_rough(self, x0: float, y0: float, x1: float, y1: float) -> bool:
        """Does a straight move touch rough ground anywhere (default ``rough_terrain``)?"""
        cell, nx, ny = self.cell, self.nx, self.ny
        if not N.rough_near(x0, y0, x1, y1, cell, nx, ny, self._rough_boxes):
            return False
        field = self._field(-1)
        return N.walk(x0, y0, x1, y1, cell, nx, ny, field, field, field, 0, 0.0, True)

    def sight_clear(self, x0: float, y0: float, x1: float, y1: float) -> bool:
        """Does terrain leave one sight line clear (default ``los_centre_to_centre``)?

        Blocked by more than ``see_woods`` inches of woods or town, or by a hill higher
        than both ends.
        """
        cell, nx, ny, lev, top_level = self.cell, self.nx, self.ny, self._level_l, self.max_level
        top = N.sight_top(
            x0, y0, x1, y1, cell, nx, ny, lev, self._block_boxes, self._hill_boxes, top_level
        )
        if top < 0:
            return True
        field = self._field(min(top, top_level))
        limit = self.see_woods + 1e-9
        return not N.walk(
            x0, y0, x1, y1, cell, nx, ny, field, lev, self._block_l, top, limit, False
        )

    def terrain_los(self, x0: F, y0: F, x1: F, y1: F) -> NDArray[np.bool_]:
        """:meth:`sight_clear` for many lines, each sampled on its own."""
        return np.array(
            [
                self.sight_clear(float(a), float(b), float(c), float(d))
                for a, b, c, d in zip(x0, y0, x1, y1, strict=True)
            ],
            dtype=bool,
        )

    def crosses_wall(self, x0: float, y0: float, x1: float, y1: float) -> bool:
        """Does the segment cross a wall?"""
        return N.crosses(x0, y0, x1, y1, self._walls_l)

    def wall_across(self, tx: float, ty: float, fx: float, fy: float, reach: float) -> bool:
        """Does a wall cross the line ``reach`` long from (tx, ty) toward (fx, fy)?"""
        return N.wall_across(tx, ty, fx, fy, reach, self._walls_l)

    def crosses_obstacle(self, x0: float, y0: float, x1: float, y1: float) -> bool:
        """Does the segment cross a wall or a stream (melee default ``wall_or_stream_defence``)?"""
        return N.crosses(x0, y0, x1, y1, self._walls_l) or N.crosses(
            x0, y0, x1, y1, self._streams_l
        )


def clear_distance(mask: NDArray[np.bool_], cap: int = 32) -> NDArray[np.int32]:
    """Chebyshev distance in cells from each cell to the nearest cell of ``mask``.

    Capped at ``cap`` (a cell that far away or more may be further still): a lower
    bound, which is all the skipping walk needs.
    """
    out = np.full(mask.shape, cap, dtype=np.int32)
    cur = mask.copy()
    out[cur] = 0
    for d in range(1, cap):
        grow = cur.copy()
        grow[1:, :] |= cur[:-1, :]
        grow[:-1, :] |= cur[1:, :]
        wide = grow.copy()
        wide[:, 1:] |= grow[:, :-1]
        wide[:, :-1] |= grow[:, 1:]
        new = wide & ~cur
        if not new.any():
            break
        out[new] = d
        cur = wide
    return out


def _cell_box(mask: NDArray[np.bool_]) -> list[tuple[int, int, int, int]]:
    """The cell box (imin, imax, jmin, jmax) of a mask's cells ([] if it has none)."""
    ii, jj = np.nonzero(mask)
    if len(ii) == 0:
        return []
    return [(int(ii.min()), int(ii.max()), int(jj.min()), int(jj.max()))]
