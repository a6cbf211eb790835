"""Geometry for the batch simulator: the scalar hot-path formulas over numpy arrays.

Every function repeats the formula of its scalar twin in ``umpire.board.geometry`` /
``umpire.board.terrain`` in the same order of operations, on arrays of any (equal or
broadcastable) shape, so both give the same answers (``tests/test_lab_rules.py``
compares them on random inputs). A base is the tuple ``(x, y, cos, sin, hw, hd)`` of
arrays, as the scalar ``Box`` is a tuple of floats.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from umpire.board.geometry import EPS
from umpire.board.terrain import Board

F = NDArray[np.float64]
B = NDArray[np.bool_]
I = NDArray[np.int64]  # noqa: E741
VBox = tuple[F, F, F, F, F, F]
"""Bases as arrays: (x, y, cos theta, sin theta, hw, hd)."""


def corners(b: VBox) -> tuple[F, F, F, F, F, F, F, F]:
    """x0, y0 .. x3, y3 of each base, in the order of ``geometry.box_corners``."""
    x, y, c, s, hw, hd = b
    fx, fy = c * hd, s * hd
    lx, ly = -s * hw, c * hw
    return (
        x + fx + lx,
        y + fy + ly,
        x + fx - lx,
        y + fy - ly,
        x - fx - lx,
        y - fy - ly,
        x - fx + lx,
        y - fy + ly,
    )


def overlap(a: VBox, b: VBox, tol: float = 1e-6) -> B:
    """Separating-axis test, as ``geometry.box_overlap`` (True where interiors overlap)."""
    x, y, c, s, hw, hd = a
    ox, oy, oc, os_, ohw, ohd = b
    dx, dy = ox - x, oy - y
    sep = (
        np.abs(dx * c + dy * s)
        >= hd + (ohd * np.abs(oc * c + os_ * s) + ohw * np.abs(-os_ * c + oc * s)) - tol
    )
    ax, ay = -s, c
    sep |= (
        np.abs(dx * ax + dy * ay)
        >= hw + (ohd * np.abs(oc * ax + os_ * ay) + ohw * np.abs(-os_ * ax + oc * ay)) - tol
    )
    sep |= (
        np.abs(dx * oc + dy * os_)
        >= ohd + (hd * np.abs(c * oc + s * os_) + hw * np.abs(-s * oc + c * os_)) - tol
    )
    ax, ay = -os_, oc
    sep |= (
        np.abs(dx * ax + dy * ay)
        >= ohw + (hd * np.abs(c * ax + s * ay) + hw * np.abs(-s * ax + c * ay)) - tol
    )
    return ~sep


def _edges_sq(px: F, py: F, q: tuple[F, ...]) -> F:
    """The least squared distance from points to the four edges of bases ``q``.

    ``px``/``py`` have a trailing axis of 4 corners; as ``geometry._point_to_edges``.
    """
    best: F | None = None
    for k in range(0, 8, 2):
        ax, ay = q[k][..., None], q[k + 1][..., None]
        m = (k + 2) & 7
        vx, vy = q[m][..., None] - ax, q[m + 1][..., None] - ay
        ll = vx * vx + vy * vy
        t = ((px - ax) * vx + (py - ay) * vy) / np.where(ll > EPS, ll, 1.0)
        t = np.minimum(np.maximum(t, 0.0), 1.0)
        qx, qy = ax + t * vx - px, ay + t * vy - py
        d = (qx * qx + qy * qy).min(axis=-1)
        best = d if best is None else np.minimum(best, d)
    assert best is not None
    return best


def distance(a: VBox, b: VBox) -> F:
    """Nearest-point distance of bases, 0 where they overlap (``geometry.box_distance``).

    The least corner-to-edge distance both ways (the scalar version prunes corners that
    cannot hold the minimum; the least is the same float).
    """
    pa, pb = corners(a), corners(b)
    ax = np.stack(pa[0::2], axis=-1)
    ay = np.stack(pa[1::2], axis=-1)
    bx = np.stack(pb[0::2], axis=-1)
    by = np.stack(pb[1::2], axis=-1)
    best = np.minimum(_edges_sq(ax, ay, pb), _edges_sq(bx, by, pa))
    return np.where(overlap(a, b, 0.0), 0.0, np.sqrt(best))


def quick_distance(a: VBox, b: VBox) -> F:
    """The nearest-point distance of bases by the corner-to-box form (0 where they overlap).

    The same number as :func:`distance` up to rounding (the least distance between two
    disjoint convex bases is from a corner of one to the other), at a quarter of the
    work; callers use :func:`distance_le`/:func:`band_of` to be exact near a threshold.
    """
    pa, pb = corners(a), corners(b)
    best: F | None = None
    for k in range(0, 8, 2):
        for px, py, box in ((pa[k], pa[k + 1], b), (pb[k], pb[k + 1], a)):
            x, y, c, s, hw, hd = box
            dx, dy = px - x, py - y
            f = np.maximum(np.abs(dx * c + dy * s) - hd, 0.0)
            lat = np.maximum(np.abs(-dx * s + dy * c) - hw, 0.0)
            d = f * f + lat * lat
            best = d if best is None else np.minimum(best, d)
    assert best is not None
    return np.where(overlap(a, b, 0.0), 0.0, np.sqrt(best))


def distance_le(a: VBox, b: VBox, limit: float) -> B:
    """``geometry.box_distance(a, b) <= limit``, exact (the scalar form near the limit)."""
    d = quick_distance(a, b)
    out: B = d <= limit
    close = np.flatnonzero(np.abs(d - limit) < HAIR)
    if len(close):
        sub = tuple(v[close] for v in a), tuple(v[close] for v in b)
        out[close] = distance(*sub) <= limit  # type: ignore[arg-type]
    return out


def segment_hits_box(x0: F, y0: F, x1: F, y1: F, b: VBox, shrink: float = 1e-6) -> B:
    """Does each segment cross its base (slab test, as ``geometry.segment_hits_box``)?"""
    bx, by, c, s, hw, hd = b
    ax0, ay0 = x0 - bx, y0 - by
    ax1, ay1 = x1 - bx, y1 - by
    tmin = np.zeros(np.broadcast(x0, bx).shape)
    tmax = np.ones_like(tmin)
    ok = np.ones(tmin.shape, dtype=bool)
    for p0, p1, half in (
        (ax0 * c + ay0 * s, ax1 * c + ay1 * s, hd - shrink),
        (-ax0 * s + ay0 * c, -ax1 * s + ay1 * c, hw - shrink),
    ):
        d = p1 - p0
        small = np.abs(d) < EPS
        ok &= ~(small & (np.abs(p0) > half))
        dd = np.where(small, 1.0, d)
        ta = (-half - p0) / dd
        tb = (half - p0) / dd
        lo = np.minimum(ta, tb)
        hi = np.maximum(ta, tb)
        tmin = np.where(small | (lo <= tmin), tmin, lo)
        tmax = np.where(small | (hi >= tmax), tmax, hi)
    return ok & (tmin <= tmax)


def crosses_any(x0: F, y0: F, x1: F, y1: F, segs: F) -> B:
    """Does each segment properly cross any of ``segs`` (k, 4) (``geometry.crosses_any``)?"""
    out = np.zeros(np.shape(x0), dtype=bool)
    for ax, ay, bx, by in segs.tolist():
        d1 = (bx - ax) * (y0 - ay) - (by - ay) * (x0 - ax)
        d2 = (bx - ax) * (y1 - ay) - (by - ay) * (x1 - ax)
        d3 = (x1 - x0) * (ay - y0) - (y1 - y0) * (ax - x0)
        d4 = (x1 - x0) * (by - y0) - (y1 - y0) * (bx - x0)
        out |= (d1 * d2 < 0) & (d3 * d4 < 0)
    return out


def point_box(px: F, py: F, b: VBox) -> F:
    """Distance from points to bases, 0 inside (``steps._point_box``)."""
    x, y, c, s, hw, hd = b
    dx, dy = px - x, py - y
    f = np.maximum(np.abs(dx * c + dy * s) - hd, 0.0)
    lat = np.maximum(np.abs(-dx * s + dy * c) - hw, 0.0)
    out: F = np.sqrt(f * f + lat * lat)
    return out


def range_bounds(a: VBox, b: VBox, ra: F, rb: F) -> tuple[F, F]:
    """Bounds on the nearest-point distance, as ``steps.range_bounds``."""
    d1 = point_box(b[0], b[1], a)
    d2 = point_box(a[0], a[1], b)
    return np.maximum(d1 - rb, d2 - ra), np.minimum(d1, d2)


def local(x: F, y: F, c: F, s: F, px: F, py: F) -> tuple[F, F]:
    """Points in a base's frame: (forward, lateral-left), as ``geometry.local``."""
    dx, dy = px - x, py - y
    return dx * c + dy * s, -dx * s + dy * c


@dataclass(frozen=True, slots=True, eq=False)
class Terrain:
    """A board's rasters and walk fields as numpy arrays, for look-ups over many points.

    Built from the same :class:`~umpire.board.terrain.Board` the scalar engine uses
    (rasterised once per scenario), so every answer is read from the same cells.
    """

    board: Board
    cell: float
    nx: int
    ny: int
    width: float
    height: float
    rough: B
    cover: B
    block: B
    level: NDArray[np.int64]
    max_level: int
    fields: NDArray[np.int64]  # row 0: rough; row 1 + k: woods/town and hills above k
    rough_boxes: NDArray[np.int64]  # (k, 4): imin, imax, jmin, jmax
    block_boxes: NDArray[np.int64]
    hill_boxes: NDArray[np.int64]  # (k, 5): level, imin, imax, jmin, jmax
    walls: F
    obstacles: F  # walls and streams
    see_woods: float

    @staticmethod
    def of(board: Board) -> Terrain:
        """The numpy view of ``board`` (its rasters, cell boxes and skip fields)."""
        keys = [-1, *range(board.max_level + 1)]
        fields = np.array([board.skip_field(k) for k in keys], dtype=np.int64)
        boxes = board.cell_boxes()
        return Terrain(
            board,
            board.cell,
            board.nx,
            board.ny,
            board.width,
            board.height,
            board.rough.ravel().copy(),
            board.cover.ravel().copy(),
            board.block.ravel().copy(),
            board.level.ravel().astype(np.int64),
            int(board.max_level),
            fields,
            np.array(boxes["rough"], dtype=np.int64).reshape(-1, 4),
            np.array(boxes["block"], dtype=np.int64).reshape(-1, 4),
            np.array(boxes["hill"], dtype=np.int64).reshape(-1, 5),
            board.walls.reshape(-1, 4).astype(float),
            np.concatenate([board.walls, board.streams]).reshape(-1, 4).astype(float),
            float(board.see_woods),
        )

    # -- points ----------------------------------------------------------------
    def k(self, x: F, y: F) -> I:
        """The flat cell of each point, clamped to the table (``Board._k``)."""
        i = np.minimum(np.maximum((x / self.cell).astype(np.int64), 0), self.nx - 1)
        j = np.minimum(np.maximum((y / self.cell).astype(np.int64), 0), self.ny - 1)
        return i * self.ny + j

    def is_rough(self, x: F, y: F) -> B:
        """Rough ground at each point (default ``rough_terrain``)."""
        return self.rough[self.k(x, y)]

    def in_cover(self, x: F, y: F) -> B:
        """Cover terrain at each point (default ``cover_terrain``)."""
        return self.cover[self.k(x, y)]

    def height_at(self, x: F, y: F) -> NDArray[np.int64]:
        """The hill level at each point."""
        return self.level[self.k(x, y)]

    # -- lines -----------------------------------------------------------------
    def _near(self, x0: F, y0: F, x1: F, y1: F) -> tuple[I, I, I, I]:
        """The clamped cell box around each line (``Board._cells_near``)."""
        c = self.cell
        lo, hi = np.minimum(x0, x1), np.maximum(x0, x1)
        a0 = np.minimum(np.maximum((lo / c).astype(np.int64) - 1, 0), self.nx - 1)
        a1 = np.minimum(np.maximum((hi / c).astype(np.int64) + 1, 0), self.nx - 1)
        lo, hi = np.minimum(y0, y1), np.maximum(y0, y1)
        b0 = np.minimum(np.maximum((lo / c).astype(np.int64) - 1, 0), self.ny - 1)
        b1 = np.minimum(np.maximum((hi / c).astype(np.int64) + 1, 0), self.ny - 1)
        return a0, a1, b0, b1

    @staticmethod
    def _meets(near: tuple[I, I, I, I], boxes: NDArray[np.int64]) -> NDArray[np.bool_]:
        """(lines, boxes): does each line's cell box meet each feature's cell box?"""
        a0, a1, b0, b1 = (v[:, None] for v in near)
        i0, i1, j0, j1 = (boxes[None, :, k] for k in range(4))
        out: NDArray[np.bool_] = (a0 <= i1) & (i0 <= a1) & (b0 <= j1) & (j0 <= b1)
        return out

    def near_wall(self, x: F, y: F, reach: F) -> B:
        """Might a wall lie within ``reach`` of each point (a bounding-box superset)?"""
        out = np.zeros(np.shape(x), dtype=bool)
        for ax, ay, bx, by in self.walls.tolist():
            lo_x, hi_x = min(ax, bx), max(ax, bx)
            lo_y, hi_y = min(ay, by), max(ay, by)
            xs = (x + reach >= lo_x) & (x - reach <= hi_x)
            out |= xs & (y + reach >= lo_y) & (y - reach <= hi_y)
        return out

    def path_rough(self, x0: F, y0: F, x1: F, y1: F) -> B:
        """Does each straight move touch rough ground (``Board.path_rough``)?"""
        x0, y0, x1, y1 = (np.asarray(v, dtype=float).ravel() for v in (x0, y0, x1, y1))
        out = np.zeros(x0.shape, dtype=bool)
        if len(self.rough_boxes) == 0 or len(x0) == 0:
            return out
        need = np.flatnonzero(any_last(self._meets(self._near(x0, y0, x1, y1), self.rough_boxes)))
        if len(need):
            hit, _ = self._walk(x0[need], y0[need], x1[need], y1[need], None)
            out[need] = hit
        return out

    def sight_clear(self, x0: F, y0: F, x1: F, y1: F) -> B:
        """Does terrain leave each sight line clear (``Board.sight_clear``)?"""
        x0, y0, x1, y1 = (np.asarray(v, dtype=float).ravel() for v in (x0, y0, x1, y1))
        out = np.ones(x0.shape, dtype=bool)
        if len(x0) == 0 or (len(self.block_boxes) == 0 and len(self.hill_boxes) == 0):
            return out
        near = self._near(x0, y0, x1, y1)
        top = np.maximum(
            self.level[self.k(x0, y0)], self.level[self.k(x0 + (x1 - x0), y0 + (y1 - y0))]
        )
        look = np.zeros(x0.shape, dtype=bool)
        if len(self.block_boxes):
            look |= any_last(self._meets(near, self.block_boxes))
        if len(self.hill_boxes):
            lv = self.hill_boxes[None, :, 0]
            hills = any_last(self._meets(near, self.hill_boxes[:, 1:]) & (lv > top[:, None]))
            look |= hills & (top < self.max_level)
        need = np.flatnonzero(look)
        if len(need):
            _, blocked = self._walk(x0[need], y0[need], x1[need], y1[need], top[need])
            out[need] = ~blocked
        return out

    def _walk(self, x0: F, y0: F, x1: F, y1: F, top: I | None) -> tuple[B, B]:
        """Walk every line's samples with the skip field (``Board._walk``), all at once.

        ``top`` None: does any sample lie in a rough cell. Else the sight walk: is the
        line blocked by a hill above ``top`` or by more than ``see_woods`` inches of
        woods. Each round advances every unfinished line by its safe skip, or, at a
        sample in a feature, reads the next WINDOW samples in one go: the answer only
        depends on whether any sample is higher and on how many are in woods, so it is
        the scalar walk's.
        """
        m = len(x0)
        dx, dy = x1 - x0, y1 - y0
        length = norm(dx, dy)
        cell = self.cell
        # math.hypot to the last bit where the number of samples, or a count of woods
        # samples against the limit, could turn on it
        q = length / (cell / 2)
        edge = np.abs(q - np.round(q)) < 1e-6
        if top is not None:
            kk = np.maximum(2, q.astype(np.int64) + 2)
            per = (self.see_woods + 1e-9) / (length / (kk - 1))  # woods samples allowed
            edge |= np.abs(per - np.round(per)) < 1e-6
        fix = np.flatnonzero(edge)
        if len(fix):
            length[fix] = mhypot(dx[fix], dy[fix])
        k = np.maximum(2, (length / (cell / 2)).astype(np.int64) + 2)
        step = 1.0 / (k - 1)
        seg = length / (k - 1)
        span = np.maximum(np.abs(dx), np.abs(dy)) * step / cell
        last = k - 1
        fidx = np.zeros(m, dtype=np.int64) if top is None else 1 + np.minimum(top, self.max_level)
        flat = self.fields.ravel()
        base = fidx * (self.nx * self.ny)
        limit = self.see_woods + 1e-9
        hit = np.zeros(m, dtype=bool)
        count = np.zeros(m, dtype=np.int64)
        n = np.zeros(m, dtype=np.int64)
        live = np.arange(m)
        width = WINDOW if top is not None else ROUGH_WINDOW
        win = np.arange(width)
        while len(live):
            nn = n[live]
            c = self._cells(x0[live], y0[live], dx[live], dy[live], nn, step[live], last[live])
            d = flat[base[live] + c]
            near = d <= 3
            done = np.zeros(len(live), dtype=bool)
            adv = np.ones(len(live), dtype=np.int64)
            if near.any():  # read the next WINDOW samples at once
                z = live[near]
                ww = n[z][:, None] + win[None, :]
                inside = ww < k[z][:, None]
                cw = self._cells(
                    x0[z][:, None],
                    y0[z][:, None],
                    dx[z][:, None],
                    dy[z][:, None],
                    ww,
                    step[z][:, None],
                    last[z][:, None],
                )
                if top is None:
                    over = any_last(self.rough[cw] & inside)
                else:
                    high = (self.level[cw] > top[z][:, None]) & inside
                    count[z] += count_last(self.block[cw] & inside)
                    over = any_last(high) | (count[z] * seg[z] > limit)
                hit[z[over]] = True
                done[near] = over
                adv[near] = width
            sp = span[live]
            jump = ~near & (sp > 0)
            if jump.any():
                mj = ((d[jump] - 3) / sp[jump]).astype(np.int64)
                adv[jump] = np.maximum(mj, 1)
            n[live] = nn + adv
            live = live[~done & (n[live] < k[live])]
        return hit, hit

    def _cells(self, x0: F, y0: F, dx: F, dy: F, n: I, step: F, last: I) -> I:
        """The flat cell of sample ``n`` of each line (``t = n / (k - 1)``, the end at 1)."""
        t = np.where(n < last, n * step, 1.0)
        i = ((x0 + dx * t) / self.cell).astype(np.int64)
        j = ((y0 + dy * t) / self.cell).astype(np.int64)
        i = np.minimum(np.maximum(i, 0), self.nx - 1)
        j = np.minimum(np.maximum(j, 0), self.ny - 1)
        out: I = i * self.ny + j
        return out


WINDOW = 32
"""Samples read at once when a sight line meets woods or a hill (4" of line)."""
ROUGH_WINDOW = 8
"""Samples read at once when a path comes near rough ground (1" of path)."""


# -- the scalar engine's own transcendental functions ------------------------------------
# numpy's hypot and arctan2 may differ from Python's math.hypot/math.atan2 in the last
# bit (numpy has its own implementations; cos, sin, sqrt and degrees agree). Where the
# scalar engine's result feeds a position or a facing, or decides a comparison that can
# be an exact tie, the batch uses the math module's values: on a few values at a time
# (one per battle), or only where numpy's answer lies within a hair of the decision.

HAIR = 1e-9


def norm(dx: F, dy: F) -> F:
    """sqrt(dx^2 + dy^2): within an ulp or two of ``math.hypot``, and far cheaper than
    numpy's hypot; for prefilters, or with a hair's check where it decides."""
    out: F = np.sqrt(dx * dx + dy * dy)
    return out


def exact_near(dx: F, dy: F, limits: tuple[float, ...]) -> F:
    """Distances, with ``math.hypot``'s last bit where one lies within a hair of a limit."""
    d = norm(dx, dy)
    close = np.zeros(d.shape, dtype=bool)
    for lim in limits:
        close |= np.abs(d - lim) < HAIR
    idx = np.flatnonzero(close)
    if len(idx):
        d[idx] = mhypot(dx[idx], dy[idx])
    return d


def mhypot(dx: F, dy: F) -> F:
    """``math.hypot`` of each pair (bit for bit the scalar engine's)."""
    n = np.size(dx)
    out = np.fromiter(map(math.hypot, np.ravel(dx).tolist(), np.ravel(dy).tolist()), float, n)
    return out.reshape(np.shape(dx))


def matan2(y: F, x: F) -> F:
    """``math.atan2`` of each pair (bit for bit the scalar engine's)."""
    n = np.size(y)
    out = np.fromiter(map(math.atan2, np.ravel(y).tolist(), np.ravel(x).tolist()), float, n)
    return out.reshape(np.shape(y))


def hypot_le(dx: F, dy: F, limit: F | float) -> B:
    """``math.hypot(dx, dy) <= limit``, numpy's hypot except within a hair of the limit."""
    d = norm(dx, dy)
    lim = np.broadcast_to(limit, d.shape)
    out: B = d <= lim
    close = np.abs(d - lim) < HAIR
    if close.any():
        out[close] = mhypot(dx[close], dy[close]) <= lim[close]
    return out


# -- fast forms of numpy calls that are slow on short rows -------------------------------
# numpy's N-d nonzero, and reductions along a short last axis, cost many times a plain
# elementwise pass; these give the same answers by flat indexing and byte views.

_ONES = np.ones(64, dtype=np.uint8)


def nz(mask: NDArray[np.bool_]) -> tuple[I, ...]:
    """``np.nonzero`` of a 1-, 2- or 3-d mask (row-major order), via ``flatnonzero``."""
    shape = mask.shape
    if not mask.any():  # the usual answer for a prefilter, found without a scan of indexes
        return tuple(np.zeros(0, dtype=np.int64) for _ in shape)
    f = np.flatnonzero(mask)
    if len(shape) == 1:
        return (f,)
    if len(shape) == 2:
        q = f // shape[1]
        return q, f - q * shape[1]
    inner = shape[1] * shape[2]
    a = f // inner
    rest = f - a * inner
    b = rest // shape[2]
    return a, b, rest - b * shape[2]


def any_last(mask: NDArray[np.bool_]) -> NDArray[np.bool_]:
    """``mask.any(axis=-1)``, by summing the bytes of each row."""
    k = mask.shape[-1]
    flat = np.ascontiguousarray(mask).reshape(-1, k).view(np.uint8)
    out = np.asarray((flat @ _ONES[:k]) > 0 if k < 256 else flat.any(1), dtype=bool)
    return out.reshape(mask.shape[:-1])


def count_last(mask: NDArray[np.bool_]) -> I:
    """``mask.sum(axis=-1)`` of a mask with fewer than 256 columns."""
    k = mask.shape[-1]
    flat = np.ascontiguousarray(mask).reshape(-1, k).view(np.uint8)
    out: I = (flat @ _ONES[:k]).astype(np.int64)
    return out.reshape(mask.shape[:-1])
