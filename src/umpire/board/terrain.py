"""The tabletop: size and terrain features, rasterised once for fast look-ups.

Terrain is shapely polygons (woods, rough, hills, cover, towns) and lines (walls,
streams). At load the areas are rasterised on a fine grid (0.25" by default) with
``shapely.contains_xy``, so the battle's inner loop asks numpy arrays, never shapely:
is this point rough, in cover, how high; how much woods does a line of sight cross.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import numpy as np
import shapely
from numpy.typing import NDArray

from umpire.board.fmath import hypot as _hypot
from umpire.board.geometry import Box4, F, crosses_any

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
        self._rough_l: list[bool] = self.rough.ravel().tolist()
        self._cover_l: list[bool] = self.cover.ravel().tolist()
        self._block_l: list[bool] = self.block.ravel().tolist()
        self._level_l: list[int] = self.level.ravel().tolist()
        self.max_level = max(self._level_l, default=0)
        self._fields: dict[int, list[int]] = {}
        self._walls_l: list[Box4] = [(a, b, c, d) for a, b, c, d in walls]
        self._streams_l: list[Box4] = [(a, b, c, d) for a, b, c, d in streams]

    # -- point look-ups ----------------------------------------------------------
    def _ij(self, x: float, y: float) -> tuple[int, int]:
        i = min(max(int(x / self.cell), 0), self.nx - 1)
        j = min(max(int(y / self.cell), 0), self.ny - 1)
        return i, j

    def _k(self, x: float, y: float) -> int:
        """The flat index of the cell holding a point (clamped to the table)."""
        i = int(x / self.cell)
        j = int(y / self.cell)
        nx1, ny1 = self.nx - 1, self.ny - 1
        i = 0 if i < 0 else (nx1 if i > nx1 else i)
        j = 0 if j < 0 else (ny1 if j > ny1 else j)
        return i * self.ny + j

    def is_rough(self, x: float, y: float) -> bool:
        """Is the point rough ground (default ``rough_terrain``)?"""
        return self._rough_l[self._k(x, y)]

    def in_cover(self, x: float, y: float) -> bool:
        """Is the point in cover terrain (woods, cover, town)?"""
        return self._cover_l[self._k(x, y)]

    def height_at(self, x: float, y: float) -> int:
        """The hill level at a point (0 on the plain)."""
        return self._level_l[self._k(x, y)]

    def on_table(self, pts: Sequence[tuple[float, float]]) -> bool:
        """Are all the points on the table?"""
        return all(0 <= px <= self.width and 0 <= py <= self.height for px, py in pts)

    # -- lines -------------------------------------------------------------------
    # A line is sampled every half cell, both ends included: k = len / (cell / 2) + 2
    # points at t = n / (k - 1) (the exact floats of numpy's linspace), each read in
    # its cell. The scalar functions below walk those points in plain Python and stop
    # at the first one that decides. Two exact short cuts keep the walk short: a line
    # whose cells miss every feature's cell box needs no walk at all, and a "clear
    # distance" field (the Chebyshev distance in cells to the nearest cell that
    # matters, computed once per board) lets the walk jump over samples that cannot
    # reach such a cell.

    def _cells_near(self, x0: float, y0: float, x1: float, y1: float) -> tuple[int, int, int, int]:
        """A cell box holding every sample of the line (one cell of slack each way).

        Clamped to the table like the samples' cells (a line may run off the table).
        """
        c = self.cell
        nx1, ny1 = self.nx - 1, self.ny - 1
        lo, hi = (x0, x1) if x0 < x1 else (x1, x0)
        a0, a1 = int(lo / c) - 1, int(hi / c) + 1
        lo, hi = (y0, y1) if y0 < y1 else (y1, y0)
        b0, b1 = int(lo / c) - 1, int(hi / c) + 1
        return (
            0 if a0 < 0 else (nx1 if a0 > nx1 else a0),
            0 if a1 < 0 else (nx1 if a1 > nx1 else a1),
            0 if b0 < 0 else (ny1 if b0 > ny1 else b0),
            0 if b1 < 0 else (ny1 if b1 > ny1 else b1),
        )

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

    def _walk(
        self, x0: float, y0: float, x1: float, y1: float, field: list[int]
    ) -> Iterator[tuple[int, float]]:
        """The flat cell of every sample of a line that may matter, and the step length.

        Samples whose cells are nearer than ``field`` says to their neighbours' are
        skipped: a sample ``q`` steps on lies at most ``q * span + 1`` cells away.
        """
        dx, dy = x1 - x0, y1 - y0
        length = _hypot(dx, dy)
        cell = self.cell
        k = max(2, int(length / (cell / 2)) + 2)
        step = 1.0 / (k - 1)
        seg = length / (k - 1)
        span = max(abs(dx), abs(dy)) * step / cell  # cells per sample, at most
        nx1, ny1, ny = self.nx - 1, self.ny - 1, self.ny
        last = k - 1
        n = 0
        while n < k:
            t = n * step if n < last else 1.0
            i = int((x0 + dx * t) / cell)
            j = int((y0 + dy * t) / cell)
            i = 0 if i < 0 else (nx1 if i > nx1 else i)
            j = 0 if j < 0 else (ny1 if j > ny1 else j)
            c = i * ny + j
            d = field[c]
            if d == 0:
                yield c, seg
                n += 1
            elif d > 3 and span > 0:
                m = int((d - 3) / span)  # one cell of slack for rounding
                n += m if m > 1 else 1
            else:
                n += 1

    def path_rough(self, x0: float, y0: float, x1: float, y1: float) -> bool:
        """Does a straight move touch rough ground anywhere (default ``rough_terrain``)?"""
        a0, a1, b0, b1 = self._cells_near(x0, y0, x1, y1)
        for i0, i1, j0, j1 in self._rough_boxes:
            if a0 <= i1 and i0 <= a1 and b0 <= j1 and j0 <= b1:
                break
        else:
            return False
        for _ in self._walk(x0, y0, x1, y1, self._field(-1)):
            return True  # only rough cells are given out
        return False

    def sight_clear(self, x0: float, y0: float, x1: float, y1: float) -> bool:
        """Does terrain leave one sight line clear (default ``los_centre_to_centre``)?

        Blocked by more than ``see_woods`` inches of woods or town, or by a hill higher
        than both ends.
        """
        a0, a1, b0, b1 = self._cells_near(x0, y0, x1, y1)
        woods = any(
            a0 <= i1 and i0 <= a1 and b0 <= j1 and j0 <= b1 for i0, i1, j0, j1 in self._block_boxes
        )
        lev = self._level_l
        top = max(lev[self._k(x0, y0)], lev[self._k(x0 + (x1 - x0), y0 + (y1 - y0))])
        hills = top < self.max_level and any(
            level > top and a0 <= i1 and i0 <= a1 and b0 <= j1 and j0 <= b1
            for level, i0, i1, j0, j1 in self._hill_boxes
        )
        if not (woods or hills):
            return True
        block = self._block_l
        limit = self.see_woods + 1e-9
        count = 0
        for c, step in self._walk(x0, y0, x1, y1, self._field(min(top, self.max_level))):
            if lev[c] > top:
                return False
            if block[c]:
                count += 1
                if count * step > limit:
                    return False
        return True

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
        return crosses_any(x0, y0, x1, y1, self._walls_l)

    def crosses_obstacle(self, x0: float, y0: float, x1: float, y1: float) -> bool:
        """Does the segment cross a wall or a stream (melee default ``wall_or_stream_defence``)?"""
        return crosses_any(x0, y0, x1, y1, self._walls_l) or crosses_any(
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
