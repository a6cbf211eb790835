"""The batch simulator: N battles of one scenario in lock step, AI against AI.

The state is numpy arrays of shape (battles, units) (positions, facings, stands,
markers, formations, ...) and (battles, leaders). The sequence is the scalar engine's
(seed 002 TURN ORDER: the Confederate player goes through command, move, rally,
defensive fire, offensive fire and melee, then the Union player), and within a step
the actors act one after another in the scalar engine's order, each step of the loop
answering every battle at once. The AI is the scalar ``ScriptedAI`` heuristic and the
rules are the scalar rules, repeated with vectorised functions (``vrules``, ``vgeom``)
that read the same data; with the scalar engine's own dice a battle here ends exactly
as it does there (``tests/test_lab_agreement.py``).

Where the scalar engine keeps geometry in caches, the batch recomputes it per step
(contacts, fire targets) with cheap prefilters (bounding circles, cell boxes) and the
exact tests only on the pairs that survive them.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from umpire import jit
from umpire.board import vgeom as G
from umpire.dice.bulk import Dice
from umpire.rules.quick_acw.ai import CHARGE_THRESHOLD
from umpire.rules.quick_acw.batch import kfire as KF
from umpire.rules.quick_acw.batch import kmove as K
from umpire.rules.quick_acw.batch import vrules as V
from umpire.rules.quick_acw.batch.static import Static

I = NDArray[np.int64]  # noqa: E741
F = NDArray[np.float64]
B = NDArray[np.bool_]
I8 = NDArray[np.int8]

# The scripted AI's numbers (``umpire.rules.quick_acw.ai``): charges looked at within 20",
# a leader goes to his brigade's middle unit if it is within half his move, foot in
# column forms line within 14", dismounted cavalry mounts beyond 16", attackers stop 4"
# (8" mounted) short of the enemy, defenders make for the objective's inner half.
CHARGE_LOOK = 20.0
FORM_LINE_WITHIN = 14.0
MOUNT_BEYOND = 16.0
STOP_FOOT, STOP_MOUNTED = 4.0, 8.0
OFFSETS = np.array([0.0, 0.0, 0.5, 0.5, -0.5, -0.5, 1.0, 1.0, -1.0, -1.0])
FRACS = np.array([1.0, 0.5, 1.0, 0.5, 1.0, 0.5, 1.0, 0.5, 1.0, 0.5])
BEARINGS = OFFSETS[0::2]  # the five bearings, each at full and half the move
COVER_BONUS, ROUGH_PENALTY, OUT_OF_RADIUS = 3.0, 1.0, 4.0
KEEP = 4  # destinations tried before holding in place
FINISH_BONUS = 1.5  # fire: finishing a unit off is worth more
UNSEEN, SEEN, BLOCKED = 0, 1, 2  # line of sight of a candidate shot
SLACK = 1e-3  # inches added to single-precision prefilters (their rounding is ~1e-5)


@dataclass(slots=True)
class Outcome:
    """Per battle: winner (0/1 a side in TURN ORDER, 2 draw), turns, stands lost, removed."""

    winner: I
    turns: I
    losses: I  # (battles, 2)
    removed: I  # (battles, 2)
    dice: int
    faces: NDArray[np.uint8]
    leaders_lost: I | None = None  # (battles, 2)
    dice_each: I | None = None  # dice drawn per battle (one stream per battle only)


@dataclass(slots=True)
class Neighbours:
    """The pairs (row, other unit) a moving unit's destinations are tested against,
    by row: each pair's unit, its single-precision centre and radius, enemy or not."""

    row: I
    col: I
    x: NDArray[np.float32]
    y: NDArray[np.float32]
    r: NDArray[np.float32]
    enemy: B
    start: I  # per row: its first pair
    count: I  # per row: its pairs


class Sim:
    """The state of N battles and the steps that play them."""

    def __init__(
        self, st: Static, n: int, dice: Dice, on_finish: Callable[[int], None] | None = None
    ):
        self.S = st
        self.t = st.t
        self.T = st.terrain
        self.dice = dice
        self.on_finish = on_finish
        u = st.n_units
        self.U = u
        self.ids = np.arange(n)

        def tile(a: NDArray[np.generic]) -> NDArray[np.generic]:
            return np.tile(a, (n, 1))

        self.x: F = tile(st.x0).astype(float)
        self.y: F = tile(st.y0).astype(float)
        self.th: F = tile(st.th0).astype(float)
        self.c: F = np.cos(self.th)
        self.s: F = np.sin(self.th)
        self.form: NDArray[Any] = tile(st.form0).astype(np.int8)
        self.mounted: B = tile(st.mounted0).astype(bool)
        self.limbered: B = tile(st.limbered0).astype(bool)
        self.stands: NDArray[Any] = tile(st.stands0).astype(np.int16)
        self.alive: B = np.ones((n, u), dtype=bool)
        self.marker: B = np.zeros((n, u), dtype=bool)
        self.moved: B = np.zeros((n, u), dtype=bool)
        self.charged: B = np.zeros((n, u), dtype=bool)
        self.in_cmd: B = np.ones((n, u), dtype=bool)
        self.lost_ldr: B = np.zeros((n, u), dtype=bool)
        self.hw: F = np.zeros((n, u))
        self.hd: F = np.zeros((n, u))
        self.rad: F = np.zeros((n, u))
        rows = np.repeat(np.arange(n), u)
        cols = np.tile(np.arange(u), n)
        self._resize(rows, cols)
        self.lx: F = tile(st.lx0).astype(float)
        self.ly: F = tile(st.ly0).astype(float)
        self.latt: NDArray[Any] = tile(st.latt0).astype(np.int16)
        self.lalive: B = np.ones((n, st.n_leaders), dtype=bool)
        self.bonus: NDArray[Any] = np.zeros((n, u), dtype=np.int8)
        self._refresh_bonus()
        self.losses: I = np.zeros((n, 2), dtype=np.int64)
        self.cont: NDArray[Any] = np.full((n, u), -1, dtype=np.int16)
        self.cont_flank: B = np.zeros((n, u), dtype=bool)
        self.ver: NDArray[Any] = np.zeros((n, u), dtype=np.int32)  # bumped when a unit moves
        # single-precision copies for the prefilters (bounding circles and boxes, with a
        # margin of SLACK inches far above their rounding, so they only ever let through
        # more pairs than needed; every decision is then taken in double precision)
        self.x32 = self.x.astype(np.float32)
        self.y32 = self.y.astype(np.float32)
        self.r32 = self.rad.astype(np.float32)
        # terrain sight per firing side: (battle, firer, target) -> versions seen, answer
        # (kept by battle number, so dropping finished battles does not copy it)
        ns = self.los_n = max(len(st.by_side[0]), len(st.by_side[1]))
        self.los = [
            (
                np.full(n * ns * ns, -1, dtype=np.int32),
                np.full(n * ns * ns, -1, dtype=np.int32),
                np.zeros(n * ns * ns, dtype=bool),
            )
            for _ in (0, 1)
        ]
        self._tan_arc = math.tan(math.radians(self.t.geometry["fire_arc_degrees"]))
        self.turn = 1
        self._first = 0  # the player whose sequence is running
        self.touch: B | None = None  # contacts found at his offensive fire
        # centre distances and contacts between the sides, kept from the end of a move
        # step to the next movement (the fire steps only shrink or remove bases)
        self.geo: tuple[NDArray[np.float32], B] | None = None
        self.res_winner = np.full(n, -1, dtype=np.int64)
        self.res_turns = np.zeros(n, dtype=np.int64)
        self.res_losses = np.zeros((n, 2), dtype=np.int64)
        self.res_removed = np.zeros((n, 2), dtype=np.int64)
        self.res_leaders = np.zeros((n, 2), dtype=np.int64)

    # -- bookkeeping ----------------------------------------------------------------
    _PER_BATTLE: tuple[str, ...] = (
        "x", "y", "th", "c", "s", "form", "mounted", "limbered", "stands", "alive", "marker",
        "moved", "charged", "in_cmd", "lost_ldr", "hw", "hd", "rad", "lx", "ly", "latt",
        "lalive", "bonus", "losses", "cont", "cont_flank", "ids", "ver", "x32", "y32", "r32",
    )  # fmt: skip

    def _keep(self, keep: B) -> None:
        """Drop the battles that are over (every array keeps the rows still playing)."""
        for name in self._PER_BATTLE:
            setattr(self, name, getattr(self, name)[keep])
        if self.touch is not None:
            self.touch = self.touch[keep]
        if self.geo is not None:
            self.geo = (self.geo[0][keep], self.geo[1][keep])

    @property
    def n(self) -> int:
        """Battles still playing."""
        return len(self.ids)

    def _resize(self, r: I, u: I) -> None:
        """Bases from type, formation and stands (default ``stand_sizes``)."""
        hw, hd = V.base_size(self.t, self.S.utype[u], _g(self.form, r, u), _g(self.stands, r, u))
        _s(self.hw, r, u, hw)
        _s(self.hd, r, u, hd)
        rad = G.mhypot(hw, hd)
        _s(self.rad, r, u, rad)
        if hasattr(self, "r32"):
            _s(self.r32, r, u, rad)

    def _refresh_bonus(self, r: I | None = None) -> None:
        """Each unit's attached-leader bonus (the first living leader attached; 0 none),
        in battles ``r`` (all by default)."""
        if r is None:
            r = np.arange(self.n)
        r = np.unique(r)
        self.bonus[r] = 0
        for ld in range(self.S.n_leaders - 1, -1, -1):
            rows = r[self.lalive[r, ld] & (self.latt[r, ld] >= 0)]
            _s(self.bonus, rows, _g(self.latt, rows, ld), self.S.l_bonus[ld])

    def box(self, r: I, u: I) -> G.VBox:
        """Bases of units ``u`` in battles ``r`` as arrays."""
        fi = r * self.U + u
        return (
            np.take(self.x, fi),
            np.take(self.y, fi),
            np.take(self.c, fi),
            np.take(self.s, fi),
            np.take(self.hw, fi),
            np.take(self.hd, fi),
        )

    def place(self, r: I, u: I, x: F, y: F, th: F) -> None:
        """Move bases (and any living leader attached to them)."""
        fi = r * self.U + u
        moved = (np.take(self.x, fi) != x) | (np.take(self.y, fi) != y)
        np.put(self.ver, fi, np.take(self.ver, fi) + moved)  # the sight cache's key
        _s(self.x, r, u, x)
        _s(self.y, r, u, y)
        np.put(self.x32, fi, x)
        np.put(self.y32, fi, y)
        _s(self.th, r, u, th)
        _s(self.c, r, u, np.cos(th))
        _s(self.s, r, u, np.sin(th))
        att = _rows(self.lalive, r) & (_rows(self.latt, r) == u[:, None])
        if att.any():
            ri, li = G.nz(att)
            self.lx[r[ri], li] = x[ri]
            self.ly[r[ri], li] = y[ri]

    def place_k(self, r: I, u: I, x: F, y: F, th: F) -> None:
        """:meth:`place` on the compiled kernel (``kmove.places``)."""
        K.places(
            r,
            u,
            x,
            y,
            th,
            np.cos(th),
            np.sin(th),
            self.x,
            self.y,
            self.x32,
            self.y32,
            self.th,
            self.c,
            self.s,
            self.ver,
            self.lalive,
            self.latt,
            self.lx,
            self.ly,
        )

    def remove(self, r: I, u: I) -> None:
        """Take units off the table (default ``leader_detached_when_unit_removed``)."""
        if len(r) == 0:
            return
        _s(self.alive, r, u, False)
        _s(self.marker, r, u, False)
        att = _rows(self.latt, r) == u[:, None]
        if att.any():
            ri, li = G.nz(att)
            self.latt[r[ri], li] = -1
            self._refresh_bonus(r[ri])

    def add_marker(self, r: I, u: I) -> None:
        """Seed 002: MM are not cumulative, one per unit (living units only)."""
        _s(self.marker, r, u, _g(self.marker, r, u) | _g(self.alive, r, u))

    def lose_stands(self, r: I, u: I, n: I, near: B | None = None) -> None:
        """Seed 002: lose stands; attached leaders lost on 5-6; removal below half; a unit
        in contact closes up (default ``contact_kept_when_stands_lost``).

        One call takes each battle at most once. ``near``: where a unit may touch an
        enemy (a superset; None: anywhere).
        """
        keep = (n > 0) & _g(self.alive, r, u)
        r, u, n = r[keep], u[keep], n[keep]
        if len(r) == 0:
            return
        n = np.minimum(n, _g(self.stands, r, u))
        _s(self.stands, r, u, _g(self.stands, r, u) - n)
        np.add.at(self.losses, (r, self.S.side[u]), n)
        if near is None:
            ti, tv = self._touching_any(r, u)  # before the bases shrink
        else:
            q = np.flatnonzero(near[keep])
            ti, tv = self._touching_any(r[q], u[q]) if len(q) else (q, q)
            ti = q[ti]
        hw, hd = _g(self.hw, r, u), _g(self.hd, r, u)
        self._resize(r, u)
        att = _rows(self.lalive, r) & (_rows(self.latt, r) == u[:, None])
        if att.any():
            self._leader_rolls(r, att)
        gone = V.is_removed(self.t, _g(self.stands, r, u), self.S.stands0[u])
        self.remove(r[gone], u[gone])
        if len(ti):
            self._keep_contact(r, u, ti, tv, hw, hd)

    def _touching_any(self, r: I, u: I) -> tuple[I, I]:
        """The enemies each unit ``u`` touches in battles ``r``: pairs (row, enemy), rows in
        order and each row's enemies in unit order (the scalar contact lists)."""
        st = self.S
        opp = st.side[None, :] != st.side[u][:, None]
        dx = _rows(self.x, r) - _g(self.x, r, u)[:, None]
        dy = _rows(self.y, r) - _g(self.y, r, u)[:, None]
        lim = (
            _rows(self.rad, r) + (self.t.geometry["contact"] + SLACK) + _g(self.rad, r, u)[:, None]
        )
        near = opp & _rows(self.alive, r) & (dx * dx + dy * dy <= lim * lim)
        pi, pv = G.nz(near)
        if len(pi):
            keep = self.touching(r[pi], u[pi], pv)
            pi, pv = pi[keep], pv[keep]
        return pi, pv

    def _keep_contact(self, r: I, u: I, ti: I, tv: I, hw: F, hd: F) -> None:
        """``steps.keep_contact`` (default ``contact_kept_when_stands_lost``): a unit still on
        the table that no longer touches an enemy it touched before losing stands moves by
        the shrink toward the first such enemy (the touching edge stays where it was)."""
        alive_u = _g(self.alive, r[ti], u[ti])
        lost = alive_u & _g(self.alive, r[ti], tv)
        k = np.flatnonzero(lost)
        if len(k) == 0:
            return
        k = k[~self.touching(r[ti[k]], u[ti[k]], tv[k])]
        if len(k) == 0:
            return
        first = k[np.r_[True, ti[k][1:] != ti[k][:-1]]]  # per unit its first parted enemy
        q, v = ti[first], tv[first]
        rr, uu = r[q], u[q]
        ux, uy = _g(self.x, rr, uu), _g(self.y, rr, uu)
        c, s = _g(self.c, rr, uu), _g(self.s, rr, uu)
        fwd, lat = G.local(ux, uy, c, s, _g(self.x, rr, v), _g(self.y, rr, v))
        nhw, nhd = _g(self.hw, rr, uu), _g(self.hd, rr, uu)
        col = nhd < hd[q]
        kk = np.where(
            col,
            (hd[q] - nhd) * np.where(fwd > 0, 1.0, -1.0),
            (hw[q] - nhw) * np.where(lat > 0, 1.0, -1.0),
        )
        x = np.where(col, ux + c * kk, ux - s * kk)
        y = np.where(col, uy + s * kk, uy + c * kk)
        self.place(rr, uu, x, y, _g(self.th, rr, uu))
        self.geo = None  # a base moved: the pair geometry is made afresh

    def _leader_rolls(self, r: I, att: B) -> None:
        """Seed 002 LEADERS: one 1d6 per attached leader, in leader order per battle."""
        order = np.cumsum(att, axis=1) * att  # 1 = the first leader attached, ...
        lost_rows: list[I] = []
        for k in range(1, int(order.max()) + 1):
            ri, li = G.nz(order == k)
            face = self.dice.roll(self.ids[r[ri]], 1)[:, 0]
            lost = V.leader_lost(self.t, face)
            if not lost.any():
                continue
            rr, ll = r[ri[lost]], li[lost]
            lost_rows.append(rr)
            self.lalive[rr, ll] = False
            self.latt[rr, ll] = -1
            for row, ld in zip(rr.tolist(), ll.tolist(), strict=True):
                self.lost_ldr[row, self.S.l_units[ld]] = True
        if lost_rows:
            self._refresh_bonus(np.concatenate(lost_rows))

    # -- geometry over the current state -------------------------------------------------
    def on_table(self, b: G.VBox) -> B:
        """Are all four corners of each base on the table?"""
        w, h = self.T.width, self.T.height
        cs = G.corners(b)
        ok = np.ones(np.shape(b[0]), dtype=bool)
        for k in range(0, 8, 2):
            ok &= (cs[k] >= 0) & (cs[k] <= w) & (cs[k + 1] >= 0) & (cs[k + 1] <= h)
        return ok

    def overlaps_any(self, r: I, u: I, b: G.VBox, ignore: I | None = None) -> B:
        """Does each base ``b`` (for unit ``u`` in battle ``r``) overlap another living base?

        As the unit loop of ``Battle.free_at``: bounding circles first, then the
        separating-axis test on the pairs whose circles meet.
        """
        m = len(r)
        out = np.zeros(m, dtype=bool)
        if m == 0:
            return out
        x, y = b[0].astype(np.float32), b[1].astype(np.float32)
        reach = (G.norm(b[4], b[5]) + (1e-6 + SLACK)).astype(np.float32)
        dx = _rows(self.x32, r) - x[:, None]
        dy = _rows(self.y32, r) - y[:, None]
        lim = reach[:, None] + _rows(self.r32, r)
        near = (dx * dx + dy * dy < lim * lim) & _rows(self.alive, r)
        ar = np.arange(m)
        near[ar, u] = False
        if ignore is not None:
            near[ar, ignore] = False
        pi, pj = G.nz(near)
        if len(pi):
            ov = G.overlap(tuple(v[pi] for v in b), self.box(r[pi], pj))  # type: ignore[arg-type]
            out[pi[ov]] = True
        return out

    def free_at(self, r: I, u: I, b: G.VBox, ignore: I | None = None) -> B:
        """``Battle.free_at``: on the table and clear of every other living base."""
        ok = self.on_table(b)
        idx = np.flatnonzero(ok)
        if len(idx):
            sub = tuple(v[idx] for v in b)
            ign = None if ignore is None else ignore[idx]
            ok[idx] = ~self.overlaps_any(r[idx], u[idx], sub, ign)  # type: ignore[arg-type]
        return ok

    def touching(self, r: I, a: I, b: I) -> B:
        """Do the bases of units ``a`` and ``b`` touch (the scalar contact lists)?"""
        tol = self.t.geometry["contact"]
        dx, dy = _g(self.x, r, b) - _g(self.x, r, a), _g(self.y, r, b) - _g(self.y, r, a)
        lim = _g(self.rad, r, a) + tol + _g(self.rad, r, b)
        near = dx * dx + dy * dy <= lim * lim * (1 + 1e-9)
        out: B = near & _g(self.alive, r, a) & _g(self.alive, r, b)
        idx = np.flatnonzero(out)
        if len(idx):
            out[idx] = G.distance_le(self.box(r[idx], a[idx]), self.box(r[idx], b[idx]), tol)
        return out

    def adjacency(self, r: I, A: I, Bu: I, d2: F | None = None) -> B:
        """(battles, units A, units Bu): whose bases touch (the scalar contact lists).

        ``d2``: the squared centre distances, if already known. Bounding circles first
        (a pair that touches has its centres within both radii and the tolerance), then
        the exact nearest-point distance.
        """
        tol = self.t.geometry["contact"]
        X, Y, R, AL = (_rows(a, r) for a in (self.x32, self.y32, self.r32, self.alive))
        if d2 is None:
            dx = X[:, None, Bu] - X[:, A, None]
            dy = Y[:, None, Bu] - Y[:, A, None]
            d2 = dx * dx + dy * dy
        lim = R[:, A, None] + np.float32(tol + SLACK) + R[:, None, Bu]
        near: B = (d2 <= lim * lim) & AL[:, A, None] & AL[:, None, Bu]
        pi, pa, pb = G.nz(near)
        if len(pi):
            near[pi, pa, pb] = G.distance_le(self.box(r[pi], A[pa]), self.box(r[pi], Bu[pb]), tol)
        return near

    def slide(self, r: I, u: I, dx: F, dy: F, dist: F, th: F) -> B:
        """``Battle.slide``: move up to ``dist`` along (dx, dy) in half-inch steps.

        Stops before another base (default ``blocked_retreat_stops``); False where the
        unit would leave the table (the caller removes it). One unit per battle. Nothing
        else moves meanwhile, so every step is tested at once and the first that fails
        decides, as in the scalar loop.
        """
        m = len(r)
        ok = np.ones(m, dtype=bool)
        if m == 0:
            return ok
        step = self.t.geometry["retreat_step"]
        nst = np.maximum(1, np.ceil(dist / step)).astype(np.int64)
        k = np.arange(1, int(nst.max()) + 1)
        fi = r * self.U + u
        x0, y0 = np.take(self.x, fi), np.take(self.y, fi)
        d = np.minimum(dist[:, None], k[None, :] * step)
        nx, ny = x0[:, None] + dx[:, None] * d, y0[:, None] + dy[:, None] * d
        w, h = self.T.width, self.T.height
        real = k[None, :] <= nst[:, None]
        off = ~((nx >= 0) & (nx <= w) & (ny >= 0) & (ny <= h))
        shape = nx.shape
        c = np.broadcast_to(np.cos(th)[:, None], shape)
        sn = np.broadcast_to(np.sin(th)[:, None], shape)
        hw = np.broadcast_to(np.take(self.hw, fi)[:, None], shape)
        hd = np.broadcast_to(np.take(self.hd, fi)[:, None], shape)
        b = (nx, ny, c, sn, hw, hd)
        lost = off | ~self.on_table(b)  # off the table: the unit is removed
        blocked = np.zeros(shape, dtype=bool)
        look = G.nz(real & ~lost)
        if len(look[0]):
            sub = tuple(v[look] for v in b)
            blocked[look] = self.overlaps_any(r[look[0]], u[look[0]], sub)  # type: ignore[arg-type]
        fail = real & (lost | blocked)
        first = np.where(G.any_last(fail), np.argmax(fail, axis=1), nst)  # the first failing step
        ar = np.arange(m)
        ok = np.asarray(~(lost[ar, np.minimum(first, len(k) - 1)] & (first < nst)), dtype=bool)
        last = first - 1  # the last free step (-1: none, stays)
        bx = np.where(last >= 0, nx[ar, np.maximum(last, 0)], x0)
        by = np.where(last >= 0, ny[ar, np.maximum(last, 0)], y0)
        # Blocked at once: the unit stays, and keeps its facing where turning would overlap.
        th0 = np.take(self.th, fi)
        turn = ok & (last < 0) & (th != th0)
        if turn.any():
            t = np.flatnonzero(turn)
            rot = (x0[t], y0[t], np.cos(th[t]), np.sin(th[t]), hw[t, 0], hd[t, 0])
            stuck = self.overlaps_any(r[t], u[t], rot) | ~self.on_table(rot)
            th = th.copy()
            th[t[stuck]] = th0[t[stuck]]
        g = np.flatnonzero(ok)
        self.place(r[g], u[g], bx[g], by[g], th[g])
        return ok

    def slide_k(self, r: I, u: I, dx: F, dy: F, dist: F, th: F) -> B:
        """:meth:`slide` on the compiled kernel (``kmove.slides``): step by step, stopping
        at the first step off the table or against a base; the same places."""
        if len(r) == 0:
            return np.ones(0, dtype=bool)
        T = self.T
        ok, bx, by, bth = K.slides(
            r,
            u,
            dx,
            dy,
            dist,
            th,
            np.cos(th),
            np.sin(th),
            float(self.t.geometry["retreat_step"]),
            self.x,
            self.y,
            self.th,
            self.c,
            self.s,
            self.hw,
            self.hd,
            self.x32,
            self.y32,
            self.r32,
            self.alive,
            float(T.width),
            float(T.height),
        )
        g = np.flatnonzero(ok)
        self.place_k(r[g], u[g], bx[g], by[g], bth[g])
        return ok

    def path_clear(self, r: I, u: I, dx: F, dy: F, dist: F, th: F) -> B:
        """``steps.charge_path`` (default ``charge_path_clear``): is every step of
        :meth:`slide`'s walk on the table and clear of every other base? Nothing moves."""
        m = len(r)
        if m == 0:
            return np.ones(0, dtype=bool)
        if jit.ENABLED:
            T = self.T
            return K.clear_paths(
                r, u, dx, dy, dist, np.cos(th), np.sin(th),
                float(self.t.geometry["retreat_step"]),
                self.x, self.y, self.c, self.s, self.hw, self.hd,
                self.x32, self.y32, self.r32, self.alive, float(T.width), float(T.height),
            )  # fmt: skip
        step = self.t.geometry["retreat_step"]
        nst = np.maximum(1, np.ceil(dist / step)).astype(np.int64)
        k = np.arange(1, int(nst.max()) + 1)
        fi = r * self.U + u
        x0, y0 = np.take(self.x, fi), np.take(self.y, fi)
        d = np.minimum(dist[:, None], k[None, :] * step)
        nx, ny = x0[:, None] + dx[:, None] * d, y0[:, None] + dy[:, None] * d
        w, h = self.T.width, self.T.height
        real = k[None, :] <= nst[:, None]
        off = ~((nx >= 0) & (nx <= w) & (ny >= 0) & (ny <= h))
        shape = nx.shape
        c = np.broadcast_to(np.cos(th)[:, None], shape)
        sn = np.broadcast_to(np.sin(th)[:, None], shape)
        hw = np.broadcast_to(np.take(self.hw, fi)[:, None], shape)
        hd = np.broadcast_to(np.take(self.hd, fi)[:, None], shape)
        b = (nx, ny, c, sn, hw, hd)
        fail = real & (off | ~self.on_table(b))
        look = G.nz(real & ~fail)
        if len(look[0]):
            sub = tuple(v[look] for v in b)
            fail[look] = self.overlaps_any(r[look[0]], u[look[0]], sub)  # type: ignore[arg-type]
        out: B = ~G.any_last(fail)
        return out

    def move_away_k(self, r: I, u: I, frm: I, dist: F) -> None:
        """:meth:`move_away` with :meth:`slide_k`."""
        dx = _g(self.x, r, u) - _g(self.x, r, frm)
        dy = _g(self.y, r, u) - _g(self.y, r, frm)
        n = G.mhypot(dx, dy)
        n = np.where(n == 0, 1.0, n)
        ok = self.slide_k(r, u, dx / n, dy / n, dist, _g(self.th, r, u))
        self.remove(r[~ok], u[~ok])

    def move_away(self, r: I, u: I, frm: I, dist: F) -> None:
        """Retreat ``dist`` directly away from ``frm``, keeping facing; off the table: removed."""
        dx = _g(self.x, r, u) - _g(self.x, r, frm)
        dy = _g(self.y, r, u) - _g(self.y, r, frm)
        n = G.mhypot(dx, dy)
        n = np.where(n == 0, 1.0, n)
        ok = self.slide(r, u, dx / n, dy / n, dist, _g(self.th, r, u))
        self.remove(r[~ok], u[~ok])

    def retreat_inches(self, r: I, u: I) -> F:
        """Seed 002: retreat 2D6", 3D6" for mounted cavalry (reading ``cav_retreat_mounted``)."""
        out = np.zeros(len(r))
        cav = (self.S.utype[u] == V.CAV) & _g(self.mounted, r, u)
        for mask, n in ((cav, 3), (~cav, 2)):
            idx = np.flatnonzero(mask)
            if len(idx):
                out[idx] = self.dice.roll(self.ids[r[idx]], n).sum(1)
        return out

    # -- the turn -------------------------------------------------------------------------
    def run(self) -> None:
        """Play every battle to its end."""
        order = (0, 1)
        for turn in range(1, self.S.turns + 1):
            self.turn = turn
            for p in order:
                self._first = p
                steps: tuple[tuple[Callable[[int], None], int], ...] = (
                    (self.command_step, p),
                    (self.move_step, p),
                    (self.rally_step, p),
                    (self.fire_step, 1 - p),  # defensive fire: the second player's
                    (self.fire_step, p),  # offensive fire: the first player's
                    (self.melee_step, p),
                )
                for step, side in steps:
                    if self.n == 0:
                        return
                    step(side)
                    self.end_check()
        if self.n:
            self.final()

    def end_check(self) -> None:
        """Default ``victory``: a side with no units, or past its break fraction, loses."""
        broken = np.zeros((self.n, 2), dtype=bool)
        for side in (0, 1):
            left = self.alive[:, self.S.by_side[side]].sum(1)
            lost = self.S.units0[side] - left
            broken[:, side] = (left == 0) | (
                lost >= self.S.break_fraction[side] * self.S.units0[side]
            )
        over = _rows_any(broken)
        if over.any():
            winner = np.where(broken.all(1), 2, np.where(broken[:, 0], 1, 0))
            self._finish(over, winner)

    def final(self) -> None:
        """Default ``victory``: at the turn limit the objectives held decide."""
        pts = np.zeros((self.n, 2), dtype=np.int64)
        for (ox, oy, orad), p in zip(self.S.obj.tolist(), self.S.obj_points.tolist(), strict=True):
            near = self.alive & G.hypot_le(self.x - ox, self.y - oy, orad)
            held = np.stack([near[:, s].any(1) for s in self.S.by_side], axis=1)
            only = held.sum(1) == 1
            pts[only, np.argmax(held[only], axis=1)] += p
        tie = pts[:, 0] == pts[:, 1]
        winner = np.where(tie, self.S.tie, np.where(pts[:, 0] > pts[:, 1], 0, 1))
        self._finish(np.ones(self.n, dtype=bool), winner)

    def _finish(self, over: B, winner: I) -> None:
        ids = self.ids[over]
        if self.on_finish is not None:
            self.on_finish(len(ids))
        self.res_winner[ids] = winner[over]
        self.res_turns[ids] = self.turn
        self.res_losses[ids] = self.losses[over]
        for side in (0, 1):
            self.res_removed[ids, side] = (~self.alive[over][:, self.S.by_side[side]]).sum(1)
            mine = np.flatnonzero(self.S.l_side == side)
            self.res_leaders[ids, side] = (~self.lalive[over][:, mine]).sum(1)
        self._keep(~over)

    # -- command ----------------------------------------------------------------------------
    def command_step(self, p: int) -> None:
        """Seed 002 Command, with the AI: each leader joins his brigade's middle unit.

        As ``ScriptedAI.leader``: the unit nearest the brigade's centroid, if within half
        the leader's move; the order is always legal (half the move even in rough).
        """
        st = self.S
        if jit.ENABLED:
            self.command_k(p)
            return
        moved = False
        for ld in np.flatnonzero(st.l_side == p).tolist():
            units = st.l_units[ld]
            if len(units) == 0:
                continue
            al = self.alive[:, units]
            cnt = al.sum(1)
            rows = np.flatnonzero(self.lalive[:, ld] & (cnt > 0))
            if len(rows) == 0:
                continue
            al = al[rows]
            ux, uy = self.x[rows][:, units], self.y[rows][:, units]
            sx = np.zeros(len(rows))
            sy = np.zeros(len(rows))
            for j in range(len(units)):  # sums in unit order, as the scalar sum()
                sx = sx + np.where(al[:, j], ux[:, j], 0.0)
                sy = sy + np.where(al[:, j], uy[:, j], 0.0)
            cx, cy = sx / cnt[rows], sy / cnt[rows]
            d2 = np.where(al, (ux - cx[:, None]) ** 2 + (uy - cy[:, None]) ** 2, np.inf)
            best = np.argmin(d2, axis=1)
            ar = np.arange(len(rows))
            bx, by = ux[ar, best], uy[ar, best]
            ddx, ddy = bx - _g(self.lx, rows, ld), by - _g(self.ly, rows, ld)
            dist = G.norm(ddx, ddy)
            go = G.hypot_le(ddx, ddy, self.t.leader_open * 0.5)
            allow = np.full(len(rows), self.t.leader_open)
            slow = go & (dist > self.t.leader_open * self.t.leader_rough + 1e-6)
            if slow.any():  # a path through rough ground halves the leader's move
                sl = np.flatnonzero(slow)
                rough = self.T.path_rough(
                    _g(self.lx, rows[sl], ld), _g(self.ly, rows[sl], ld), bx[sl], by[sl]
                )
                allow[sl] = np.where(rough, self.t.leader_open * self.t.leader_rough, allow[sl])
            go &= dist <= allow + 1e-6
            g = np.flatnonzero(go)
            self.lx[rows[g], ld] = bx[g]
            self.ly[rows[g], ld] = by[g]
            self.latt[rows[g], ld] = units[best[g]]
            moved = True
        if moved:
            self._refresh_bonus()

    def command_k(self, p: int) -> None:
        """:meth:`command_step` on the compiled kernel (``kmove.leaders``), battle by battle."""
        st = self.S
        lds = np.flatnonzero(st.l_side == p)
        if len(lds) == 0:
            return
        us = [np.asarray(st.l_units[ld], dtype=np.int64) for ld in lds.tolist()]
        starts = np.zeros(len(us) + 1, dtype=np.int64)
        starts[1:] = np.cumsum([len(a) for a in us])
        T = self.T
        looked = K.leaders(
            lds.astype(np.int64),
            starts,
            np.concatenate(us),
            self.alive,
            self.lalive,
            self.x,
            self.y,
            self.lx,
            self.ly,
            self.latt,
            float(self.t.leader_open),
            float(self.t.leader_rough),
            float(T.cell),
            int(T.nx),
            int(T.ny),
            T.fields[0],
            T.rough_boxes,
        )
        if looked:
            self._refresh_bonus()

    # -- move -----------------------------------------------------------------------------
    def move_step(self, p: int) -> None:
        """Seed 002 Move (with COMMAND): each unit in turn, as the scalar ``MoveStep``."""
        st = self.S
        side_units = st.by_side[p]
        self.moved[:, side_units] = False
        self.charged[:, side_units] = False
        self.cont[:] = -1
        self.cont_flank[:] = False
        self.geo = None
        for u in side_units.tolist():
            ld = int(st.uleader[u])
            if ld >= 0:
                dx, dy = self.x[:, u] - self.lx[:, ld], self.y[:, u] - self.ly[:, ld]
                near = G.hypot_le(dx, dy, st.l_radius[ld] + 1e-9)
                self.in_cmd[:, u] = ~self.lalive[:, ld] | near
            else:
                self.in_cmd[:, u] = True
        enemies = st.by_side[1 - p]
        move = self.unit_move_k if jit.ENABLED else self.unit_move
        for u in side_units.tolist():
            if self.n == 0:
                return
            move(u, p, enemies)

    def unit_move(self, u: int, p: int, E: I) -> None:
        """``ScriptedAI.move`` for unit ``u`` in every battle, then the order carried out."""
        st = self.S
        r = np.flatnonzero(self.alive[:, u] & ~self.marker[:, u])  # a unit with a MM holds
        if len(r) == 0:
            return
        ux, uy = _g(self.x, r, u), _g(self.y, r, u)
        es = st.span[1 - st.side[u]]
        ex, ey, ealive = _cols(self.x, r, es), _cols(self.y, r, es), _cols(self.alive, r, es)
        d2 = np.where(ealive, (ex - ux[:, None]) ** 2 + (ey - uy[:, None]) ** 2, np.inf)
        near = np.argmin(d2, axis=1)
        has = G.any_last(ealive)
        if not has.all():
            keep = np.flatnonzero(has)
            r, ux, uy, ex, ey, ealive, near, d2 = (
                r[keep],
                ux[keep],
                uy[keep],
                ex[keep],
                ey[keep],
                ealive[keep],
                near[keep],
                d2[keep],
            )
            if len(r) == 0:
                return
        ar = np.arange(len(r))
        enx, eny = ex[ar, near], ey[ar, near]
        dist_en = G.exact_near(enx - ux, eny - uy, (FORM_LINE_WITHIN, MOUNT_BEYOND))
        face = G.matan2(eny - uy, enx - ux)
        uu = np.full(len(r), u)
        if st.utype[u] == V.ART:  # unlimber facing the enemy, or turn to face him
            chg = np.where(_g(self.limbered, r, u), V.FORMATION, V.NO_CHANGE)
            lim = np.zeros(len(r), dtype=bool)
            ok = self.move_ok(
                r,
                uu,
                ux,
                uy,
                face,
                _g(self.form, r, u),
                _g(self.mounted, r, u),
                lim,
                chg,
                np.zeros(len(r), dtype=bool),
            )
            g = np.flatnonzero(ok)
            self.do_move(
                r[g],
                uu[g],
                ux[g],
                uy[g],
                face[g],
                _g(self.form, r[g], u),
                _g(self.mounted, r[g], u),
                lim[g],
                chg[g],
            )
            return
        charged = self.charges(r, u, E, ex, ey, d2)
        if charged.any():
            keep = np.flatnonzero(~charged)
            r, ux, uy, enx, eny, dist_en, face, uu = (
                r[keep],
                ux[keep],
                uy[keep],
                enx[keep],
                eny[keep],
                dist_en[keep],
                face[keep],
                uu[keep],
            )
            if len(r) == 0:
                return
        self.advance(r, u, p, ux, uy, enx, eny, dist_en, face)

    def unit_move_k(self, u: int, p: int, E: I) -> None:
        """:meth:`unit_move` on the compiled kernels: the nearest enemy (``kmove.nearest``)
        and the charges (:meth:`charges_k`); the same orders, carried out the same way."""
        st = self.S
        r = np.flatnonzero(self.alive[:, u] & ~self.marker[:, u])  # a unit with a MM holds
        if len(r) == 0:
            return
        has, _, enx, eny, dist_en, face = K.nearest(
            r, u, self.x, self.y, self.alive, E, FORM_LINE_WITHIN, MOUNT_BEYOND
        )
        if not has.all():
            keep = np.flatnonzero(has)
            r, enx, eny, dist_en, face = r[keep], enx[keep], eny[keep], dist_en[keep], face[keep]
            if len(r) == 0:
                return
        ux, uy = _g(self.x, r, u), _g(self.y, r, u)
        uu = np.full(len(r), u)
        if st.utype[u] == V.ART:  # unlimber facing the enemy, or turn to face him
            chg = np.where(_g(self.limbered, r, u), V.FORMATION, V.NO_CHANGE)
            lim = np.zeros(len(r), dtype=bool)
            form, mounted = _g(self.form, r, u), _g(self.mounted, r, u)
            no = np.zeros(len(r), dtype=bool)
            ok = self.move_ok(r, uu, ux, uy, face, form, mounted, lim, chg, no)
            g = np.flatnonzero(ok)
            self.do_move_k(r[g], uu[g], ux[g], uy[g], face[g], form[g], mounted[g], lim[g], chg[g])
            return
        # no enemy within the charge look, none to charge (the nearest is within a hair)
        look = np.flatnonzero(dist_en <= CHARGE_LOOK + 1e-6)
        charged = np.zeros(len(r), dtype=bool)
        if len(look):
            charged[look] = self.charges_k(r[look], u, E)
        if charged.any():
            keep = np.flatnonzero(~charged)
            r, ux, uy, enx, eny, dist_en, face = _sub(keep, r, ux, uy, enx, eny, dist_en, face)
            if len(r) == 0:
                return
        self.advance_k(r, u, p, ux, uy, enx, eny, dist_en, face)

    def move_ok(
        self,
        r: I,
        u: I,
        x: F,
        y: F,
        th: F,
        form: I,
        mounted: B,
        limbered: B,
        chg: I,
        rough: B,
    ) -> B:
        """``steps.move_ok`` for a move to (x, y, th) ending in the given formation.

        ``rough``: the path or the end is rough ground (counted only for a real move).
        """
        if jit.ENABLED:
            return self.move_ok_k(r, u, x, y, th, form, mounted, limbered, chg, rough)
        st = self.S
        ut = st.utype[u]
        fi = r * self.U + u
        dist = G.norm(x - np.take(self.x, fi), y - np.take(self.y, fi))
        rough = rough & (dist > 0)
        key = V.move_key(ut, form, mounted, limbered)
        key = np.where((ut == V.ART) & (chg == V.FORMATION), 4, key)  # limber/unlimber
        allow = V.move_inches(
            self.t, key, rough, np.take(self.in_cmd, fi), np.take(self.lost_ldr, fi), chg
        )
        ok = dist <= allow + 1e-6
        idx = np.flatnonzero(ok)
        if len(idx) == 0:
            return ok
        hw, hd = V.base_size(self.t, ut[idx], form[idx], np.take(self.stands, fi[idx]))
        tt = th[idx]
        b = (x[idx], y[idx], np.cos(tt), np.sin(tt), hw, hd)
        ok[idx] = self.room(r[idx], u[idx], b, dist[idx] > 0)
        return ok

    def room(self, r: I, u: I, b: G.VBox, moving: B) -> B:
        """The rest of ``steps.move_ok`` once the distance is allowed: base ``b`` on the
        table and clear of every other base (``Battle.free_at``), the path (where
        ``moving``) across no enemy base (``Battle.crosses_enemy``), and the base touching
        no enemy (``Battle.touching_box``). The battles' bases are gathered once for the
        three tests, which the centre distances' prefilter shares (the exact tests
        decide)."""
        good = self.on_table(b)
        idx = np.flatnonzero(good)
        if len(idx) == 0:
            return good
        ri, ui = r[idx], u[idx]
        bx, by, bhw, bhd = b[0][idx], b[1][idx], b[4][idx], b[5][idx]
        X, Y, R, AL = (_rows(a, ri) for a in (self.x32, self.y32, self.r32, self.alive))
        dx = X - bx.astype(np.float32)[:, None]
        dy = Y - by.astype(np.float32)[:, None]
        d2 = dx * dx + dy * dy
        # clear of every other living base: bounding circles, then separating axes
        half = G.norm(bhw, bhd)
        lim = (half + (1e-6 + SLACK)).astype(np.float32)[:, None] + R
        near = (d2 < lim * lim) & AL
        near[np.arange(len(ri)), ui] = False
        pi, pj = G.nz(near)
        clear = np.ones(len(ri), dtype=bool)
        if len(pi):
            bs = (bx, by, b[2][idx], b[3][idx], bhw, bhd)
            ov = G.overlap(tuple(v[pi] for v in bs), self.box(ri[pi], pj))  # type: ignore[arg-type]
            clear[pi[ov]] = False
        es = 1 - self.S.side[u[0]]  # one unit moves at a time
        span, E = self.S.span[es], self.S.by_side[es]
        f32 = np.float32
        # the centre's path across no enemy base: boxes first, then the slab test
        k = np.flatnonzero(clear & moving[idx])
        if len(k):
            rk, fk = ri[k], idx[k]
            x0, y0 = _g(self.x, rk, ui[k]), _g(self.y, rk, ui[k])
            x1, y1 = b[0][fk], b[1][fk]
            lo_x, hi_x = np.minimum(x0, x1).astype(f32), np.maximum(x0, x1).astype(f32)
            lo_y, hi_y = np.minimum(y0, y1).astype(f32), np.maximum(y0, y1).astype(f32)
            EX, EY = X[k][:, span], Y[k][:, span]
            ER = R[k][:, span] + f32(SLACK)
            cross = (
                AL[k][:, span]
                & (lo_x[:, None] <= EX + ER)
                & (hi_x[:, None] >= EX - ER)
                & (lo_y[:, None] <= EY + ER)
                & (hi_y[:, None] >= EY - ER)
            )
            qi, qj = G.nz(cross)
            if len(qi):
                box = self.box(rk[qi], E[qj])
                hit = G.segment_hits_box(x0[qi], y0[qi], x1[qi], y1[qi], box)
                clear[k[qi[hit]]] = False
        # touching no enemy base: bounding circles, then the nearest-point distance
        k = np.flatnonzero(clear)
        if len(k):
            tol = self.t.geometry["contact"]
            lim = (half[k] + (tol + SLACK)).astype(f32)[:, None] + R[k][:, span]
            touch = AL[k][:, span] & (d2[k][:, span] <= lim * lim)
            qi, qj = G.nz(touch)
            if len(qi):
                fq = idx[k[qi]]
                bq = tuple(v[fq] for v in b)
                hit = G.distance_le(bq, self.box(ri[k[qi]], E[qj]), tol)  # type: ignore[arg-type]
                clear[k[qi[hit]]] = False
        good[idx] = clear
        return good

    def move_ok_k(
        self,
        r: I,
        u: I,
        x: F,
        y: F,
        th: F,
        form: I,
        mounted: B,
        limbered: B,
        chg: I,
        rough: B,
    ) -> B:
        """:meth:`move_ok` on one compiled kernel (``kmove.holds``): the allowance, the
        base and the room, battle by battle (one unit moves at a time)."""
        if len(r) == 0:
            return np.zeros(0, dtype=bool)
        st = self.S
        t = self.t
        T = self.T
        uu = int(u[0])
        costs = np.array([t.cost_command, t.cost_leader, t.cost_formation, t.cost_mount])
        return K.holds(
            r,
            uu,
            int(st.utype[uu]),
            np.asarray(x, dtype=float),
            np.asarray(y, dtype=float),
            np.asarray(th, dtype=float),
            np.asarray(form, dtype=np.int64),
            np.asarray(mounted, dtype=bool),
            np.asarray(limbered, dtype=bool),
            np.asarray(chg, dtype=np.int64),
            np.asarray(rough, dtype=bool),
            self.in_cmd,
            self.lost_ldr,
            self.stands,
            np.asarray(t.move_open, dtype=float),
            np.asarray(t.move_rough, dtype=float),
            costs,
            np.asarray(t.base_w, dtype=float),
            np.asarray(t.base_d, dtype=float),
            self.x,
            self.y,
            self.c,
            self.s,
            self.hw,
            self.hd,
            self.x32,
            self.y32,
            self.r32,
            self.alive,
            st.side,
            float(t.geometry["contact"]),
            float(T.width),
            float(T.height),
        )

    def neighbours(self, r: I, u: int, ux: F, uy: F, want: F, half: F) -> Neighbours:
        """The other living bases that unit ``u`` could meet anywhere within ``want`` of
        where it stands (battles ``r``), with a base of half-diagonal ``half``: every
        pair ``room`` could look at for a destination, the path there included.

        Nothing else moves while the unit picks its destination, so the list is made
        once for all the places it tries. A base meets a place or a path only if its
        centre lies within sqrt(2) (the path's box) times the move and its radius, plus
        the base and the contact distance, of the start: a wide margin for a prefilter.
        """
        m = len(r)
        X, Y, R, AL = (_rows(a, r) for a in (self.x32, self.y32, self.r32, self.alive))
        dx = X - ux.astype(np.float32)[:, None]
        dy = Y - uy.astype(np.float32)[:, None]
        tol = self.t.geometry["contact"]
        reach = (1.5 * want + half + (tol + 0.05)).astype(np.float32)
        lim = reach[:, None] + np.float32(1.5) * R
        near = AL & (dx * dx + dy * dy <= lim * lim)
        near[np.arange(m), u] = False
        flat = np.flatnonzero(near)
        pr = flat // self.U
        pc = flat - pr * self.U
        count = np.bincount(pr, minlength=m)
        return Neighbours(
            pr,
            pc,
            np.take(X, flat),
            np.take(Y, flat),
            np.take(R, flat),
            self.S.side[pc] != self.S.side[u],
            np.cumsum(count) - count,
            count,
        )

    def room_near(self, r: I, a: I, u: int, b: G.VBox, moving: B, nb: Neighbours) -> B:
        """:meth:`room` for unit ``u`` in battles ``r[a]`` (``a``: rows of ``nb``), its
        bases ``b``: the same prefilters and exact tests, on the listed pairs only."""
        good = self.on_table(b)
        idx = np.flatnonzero(good)
        if len(idx) == 0:
            return good
        rows = a[idx]
        lens = nb.count[rows]
        total = int(lens.sum())
        clear = np.ones(len(idx), dtype=bool)
        if total == 0:
            good[idx] = clear
            return good
        own = np.repeat(np.arange(len(idx)), lens)  # each pair's place in ``idx``
        pos = np.repeat(nb.start[rows] - (np.cumsum(lens) - lens), lens) + np.arange(total)
        X, Y, R, col, enemy = nb.x[pos], nb.y[pos], nb.r[pos], nb.col[pos], nb.enemy[pos]
        pb = r[rows[own]]  # each pair's battle
        bx, by, bhw, bhd = b[0][idx], b[1][idx], b[4][idx], b[5][idx]
        f32 = np.float32
        dx = X - bx.astype(f32)[own]
        dy = Y - by.astype(f32)[own]
        d2 = dx * dx + dy * dy
        # clear of every other living base: bounding circles, then separating axes
        half = G.norm(bhw, bhd)
        lim = (half + (1e-6 + SLACK)).astype(f32)[own] + R
        q = np.flatnonzero(d2 < lim * lim)
        if len(q):
            bs = (bx, by, b[2][idx], b[3][idx], bhw, bhd)
            oq = own[q]
            ov = G.overlap(tuple(v[oq] for v in bs), self.box(pb[q], col[q]))  # type: ignore[arg-type]
            clear[oq[ov]] = False
        # the centre's path across no enemy base: boxes first, then the slab test
        mv = np.flatnonzero(moving[idx])
        if len(mv):
            x0 = np.zeros(len(idx))
            y0 = np.zeros(len(idx))
            x0[mv], y0[mv] = _g(self.x, r[rows[mv]], u), _g(self.y, r[rows[mv]], u)
            x1, y1 = bx, by
            lo_x, hi_x = np.minimum(x0, x1).astype(f32), np.maximum(x0, x1).astype(f32)
            lo_y, hi_y = np.minimum(y0, y1).astype(f32), np.maximum(y0, y1).astype(f32)
            ER = R + f32(SLACK)
            q = np.flatnonzero(
                enemy
                & clear[own]
                & moving[idx][own]
                & (lo_x[own] <= X + ER)
                & (hi_x[own] >= X - ER)
                & (lo_y[own] <= Y + ER)
                & (hi_y[own] >= Y - ER)
            )
            if len(q):
                oq = own[q]
                box = self.box(pb[q], col[q])
                hit = G.segment_hits_box(x0[oq], y0[oq], x1[oq], y1[oq], box)
                clear[oq[hit]] = False
        # touching no enemy base: bounding circles, then the nearest-point distance
        tol = self.t.geometry["contact"]
        lim = (half + (tol + SLACK)).astype(f32)[own] + R
        q = np.flatnonzero(enemy & clear[own] & (d2 <= lim * lim))
        if len(q):
            oq = own[q]
            bq = tuple(v[idx[oq]] for v in b)
            hit = G.distance_le(bq, self.box(pb[q], col[q]), tol)  # type: ignore[arg-type]
            clear[oq[hit]] = False
        good[idx] = clear
        return good

    def do_move(
        self, r: I, u: I, x: F, y: F, th: F, form: I, mounted: B, limbered: B, chg: I
    ) -> None:
        """``MoveStep.apply`` of a legal move: formation, base, position, moved."""
        if len(r) == 0:
            return
        dist = G.norm(x - _g(self.x, r, u), y - _g(self.y, r, u))
        _s(self.form, r, u, form)
        _s(self.mounted, r, u, mounted)
        _s(self.limbered, r, u, limbered)
        changed = np.flatnonzero(chg != V.NO_CHANGE)  # only a change of formation resizes
        if len(changed):
            self._resize(r[changed], u[changed])
        self.place(r, u, x, y, th)
        _s(self.moved, r, u, _g(self.moved, r, u) | (dist > 1e-9) | (chg != V.NO_CHANGE))

    def do_move_k(
        self, r: I, u: I, x: F, y: F, th: F, form: I, mounted: B, limbered: B, chg: I
    ) -> None:
        """:meth:`do_move` on the compiled kernel (``kmove.moves``); the bases resized as
        there, where the formation changes."""
        if len(r) == 0:
            return
        K.moves(
            r,
            u,
            x,
            y,
            th,
            np.cos(th),
            np.sin(th),
            form,
            mounted,
            limbered,
            chg,
            self.x,
            self.y,
            self.x32,
            self.y32,
            self.th,
            self.c,
            self.s,
            self.ver,
            self.form,
            self.mounted,
            self.limbered,
            self.moved,
            self.lalive,
            self.latt,
            self.lx,
            self.ly,
        )
        changed = np.flatnonzero(chg != V.NO_CHANGE)  # only a change of formation resizes
        if len(changed):
            self._resize(r[changed], u[changed])

    def advance(
        self, r: I, u: int, p: int, ux: F, uy: F, enx: F, eny: F, dist_en: F, face: F
    ) -> None:
        """``ScriptedAI.move`` without a charge: change formation, pick a destination, go."""
        st = self.S
        t = self.t
        m = len(r)
        ut = st.utype[u]
        uu = np.full(m, u)
        form, mounted, lim = _g(self.form, r, u), _g(self.mounted, r, u), _g(self.limbered, r, u)
        if ut == V.FOOT:
            chg = np.where((form == V.COLUMN) & (dist_en < FORM_LINE_WITHIN), V.FORMATION, 0)
        elif ut == V.CAV:
            chg = np.where(~mounted & (dist_en > MOUNT_BEYOND), V.MOUNT, 0)
        else:
            chg = np.zeros(m, dtype=np.int64)
        form2 = np.where((chg == V.FORMATION) & (ut != V.ART), V.LINE, form)
        mounted2 = np.where(chg == V.MOUNT, ~mounted, mounted)
        # the goal
        if st.defend[p]:
            d2 = (st.obj[None, :, 0] - ux[:, None]) ** 2 + (st.obj[None, :, 1] - uy[:, None]) ** 2
            ob = np.argmin(d2, axis=1)
            ox, oy, orad = st.obj[ob, 0], st.obj[ob, 1], st.obj[ob, 2]
            out = ~G.hypot_le(ox - ux, oy - uy, orad)
            gx, gy = np.where(out, ox, ux), np.where(out, oy, uy)
            stop = np.where(out, orad * 0.5, 0.0)
        else:
            gx, gy = enx, eny
            stop = np.where((ut == V.FOOT) | ~mounted, STOP_FOOT, STOP_MOUNTED)
        key = V.move_key(np.full(m, ut), form2, mounted2, lim)
        no = np.zeros(m, dtype=bool)
        allow = V.move_inches(t, key, no, _g(self.in_cmd, r, u), _g(self.lost_ldr, r, u), chg)
        # want = min(allow, d - stop): the distance to the goal matters (to the last
        # bit, as it places the unit) only where it is not the full allowance
        gdx, gdy = gx - ux, gy - uy
        d = G.norm(gdx, gdy)
        short = np.flatnonzero(d - stop <= allow + G.HAIR)
        if len(short):
            d[short] = G.mhypot(gdx[short], gdy[short])
        want = np.maximum(0.0, np.minimum(allow, d - stop))
        left = np.ones(m, dtype=bool)  # no legal destination found yet
        go = np.flatnonzero(want > 1e-6)  # at the goal: only the places where it stands
        if len(go):
            left[go] = ~self._destinations(
                r[go],
                u,
                ux[go],
                uy[go],
                gx[go],
                gy[go],
                want[go],
                face[go],
                form[go],
                form2[go],
                mounted[go],
                mounted2[go],
                lim[go],
                chg[go],
            )
        # A unit at its goal, facing as it faces, without a change: holding in place is
        # all it can do, legal or not (nothing changes either way).
        same = (want <= 1e-6) & (chg == V.NO_CHANGE) & (face == _g(self.th, r, u))
        left &= ~same
        # then where it stands, with the formation change and without
        for cj in (chg, np.zeros(m, dtype=np.int64)):
            a = np.flatnonzero(left)
            if len(a) == 0:
                return
            c = cj[a]
            fj = np.where(c == V.FORMATION, form2[a], form[a])
            mj = np.where(c == V.MOUNT, mounted2[a], mounted[a])
            ok = self.move_ok(r[a], uu[a], ux[a], uy[a], face[a], fj, mj, lim[a], c, no[a])
            g = a[ok]
            self.do_move(r[g], uu[g], ux[g], uy[g], face[g], fj[ok], mj[ok], lim[g], c[ok])
            left[g] = False

    def advance_k(
        self, r: I, u: int, p: int, ux: F, uy: F, enx: F, eny: F, dist_en: F, face: F
    ) -> None:
        """:meth:`advance` on the compiled kernels: the orders and the search's inputs in
        one (``kmove.advance_plan``), the search (``kmove.destinations``), then holding in
        place as there."""
        st = self.S
        t = self.t
        T = self.T
        m = len(r)
        ut = int(st.utype[u])
        costs = np.array([t.cost_command, t.cost_leader, t.cost_formation, t.cost_mount])
        plan = K.advance_plan(
            r,
            u,
            ut,
            ux,
            uy,
            enx,
            eny,
            dist_en,
            face,
            self.form,
            self.mounted,
            self.limbered,
            self.in_cmd,
            self.lost_ldr,
            self.stands,
            bool(st.defend[p]),
            np.ascontiguousarray(st.obj, dtype=float),
            np.asarray(t.move_open, dtype=float),
            np.asarray(t.move_rough, dtype=float),
            costs,
            np.asarray(t.base_w, dtype=float),
            np.asarray(t.base_d, dtype=float),
        )
        chg, form2, mounted2, gx, gy, want, ca, sa, cf, sf, allow0, allow1, hw, hd, fj, mj = plan
        form, mounted, lim = _g(self.form, r, u), _g(self.mounted, r, u), _g(self.limbered, r, u)
        left = np.ones(m, dtype=bool)  # no legal destination found yet
        go = np.flatnonzero(want > 1e-6)  # at the goal: only the places where it stands
        if len(go):
            if len(go) < m:
                rg, uxg, uyg, gxg, gyg, wg, cag, sag = _sub(go, r, ux, uy, gx, gy, want, ca, sa)
                cfg, sfg, a0, a1, hwg, hdg = _sub(go, cf, sf, allow0, allow1, hw, hd)
            else:
                rg, uxg, uyg, gxg, gyg, wg, cag, sag = r, ux, uy, gx, gy, want, ca, sa
                cfg, sfg, a0, a1, hwg, hdg = cf, sf, allow0, allow1, hw, hd
            ld = int(st.uleader[u])
            if ld >= 0:
                far_on = _g(self.lalive, rg, ld)
                lx, ly, lrad = _g(self.lx, rg, ld), _g(self.ly, rg, ld), float(st.l_radius[ld])
            else:
                far_on, lx, ly, lrad = np.zeros(len(go), dtype=bool), uxg, uyg, 0.0
            pick, xa, ya = K.destinations(
                rg,
                u,
                uxg,
                uyg,
                gxg,
                gyg,
                wg,
                cag,
                sag,
                cfg,
                sfg,
                hwg,
                hdg,
                a0,
                a1,
                far_on,
                lx,
                ly,
                lrad,
                self.x,
                self.y,
                self.c,
                self.s,
                self.hw,
                self.hd,
                self.x32,
                self.y32,
                self.r32,
                self.alive,
                st.side,
                float(t.geometry["contact"]),
                float(T.width),
                float(T.height),
                float(T.cell),
                int(T.nx),
                int(T.ny),
                T.rough,
                T.cover,
                T.fields[0],
                T.rough_boxes,
            )
            k = np.flatnonzero(pick >= 0)
            gk = go[k]
            self.do_move_k(
                r[gk], np.full(len(k), u), xa[k], ya[k], face[gk], fj[gk], mj[gk], lim[gk], chg[gk]
            )
            left[gk] = False
        # A unit at its goal, facing as it faces, without a change: holding in place is
        # all it can do, legal or not (nothing changes either way).
        same = (want <= 1e-6) & (chg == V.NO_CHANGE) & (face == _g(self.th, r, u))
        left &= ~same
        # then where it stands, with the formation change and without
        uu = np.full(m, u)
        no = np.zeros(m, dtype=bool)
        for cj in (chg, np.zeros(m, dtype=np.int64)):
            a = np.flatnonzero(left)
            if len(a) == 0:
                return
            c = cj[a]
            fa = np.where(c == V.FORMATION, form2[a], form[a])
            ma = np.where(c == V.MOUNT, mounted2[a], mounted[a])
            ok = self.move_ok(r[a], uu[a], ux[a], uy[a], face[a], fa, ma, lim[a], c, no[a])
            g = a[ok]
            self.do_move_k(r[g], uu[g], ux[g], uy[g], face[g], fa[ok], ma[ok], lim[g], c[ok])
            left[g] = False

    def _destinations(
        self,
        r: I,
        u: int,
        ux: F,
        uy: F,
        gx: F,
        gy: F,
        want: F,
        face: F,
        form: I,
        form2: I,
        mounted: B,
        mounted2: B,
        lim: B,
        chg: I,
    ) -> B:
        """``ScriptedAI._candidates`` + ``_try`` for the destinations: True where one is taken.

        Ten places toward the goal (five bearings, full and half the move) scored
        -(distance to the goal) + 3 in cover - 1 on rough ground - 4 out of the
        leader's radius; the best four are tried in order. As the scalar AI's best-first
        heap, rough ground (a walk along the path) is looked at only when a candidate
        whose score is still an upper bound comes out on top; scores within a hair of
        each other are recomputed with math.hypot so ties break as the scalar's do.
        """
        st = self.S
        m = len(r)
        uu = np.full(m, u)
        base = G.matan2(gy - uy, gx - ux)
        step = want[:, None] * FRACS[None, :]
        valid = ~((step <= 1e-6) & ((OFFSETS != 0.0) | (FRACS < 1.0))[None, :])
        ang = base[:, None] + BEARINGS[None, :]  # each bearing serves two places
        px = ux[:, None] + np.repeat(np.cos(ang), 2, axis=1) * step
        py = uy[:, None] + np.repeat(np.sin(ang), 2, axis=1) * step
        cell = self.T.k(px, py)
        cover = self.T.cover[cell] * np.float32(COVER_BONUS)  # 3.0 or 0.0, exactly
        ld = int(st.uleader[u])
        far = np.zeros(px.shape, dtype=bool)
        if ld >= 0:
            far = _g(self.lalive, r, ld)[:, None] & ~G.hypot_le(
                _g(self.lx, r, ld)[:, None] - px, _g(self.ly, r, ld)[:, None] - py, st.l_radius[ld]
            )
        score, worse = _scores(G.norm(gx[:, None] - px, gy[:, None] - py), cover, far)
        exact = np.zeros(px.shape, dtype=bool)
        # the end is rough, or the start (the walk's first sample): the path is rough
        rough = self.T.rough[cell] | self.T.is_rough(ux, uy)[:, None]
        known = rough.copy()
        key = np.where(valid, np.where(rough, worse, score), -np.inf)
        tried = np.zeros(m, dtype=np.int64)
        taken = np.zeros(m, dtype=bool)
        # what ``move_ok`` takes from the row and not the place: the allowance in the
        # open and on rough ground, the base in its new formation, the facing
        fj = np.where(chg == V.FORMATION, form2, form)
        mj = np.where(chg == V.MOUNT, mounted2, mounted)
        ut = np.full(m, st.utype[u])
        mkey = V.move_key(ut, fj, mj, lim)
        mkey = np.where((ut == V.ART) & (chg == V.FORMATION), 4, mkey)
        fi = r * self.U + u
        cmd, lost = np.take(self.in_cmd, fi), np.take(self.lost_ldr, fi)
        allow0 = V.move_inches(self.t, mkey, np.zeros(m, dtype=bool), cmd, lost, chg)
        allow1 = V.move_inches(self.t, mkey, np.ones(m, dtype=bool), cmd, lost, chg)
        hw, hd = V.base_size(self.t, ut, fj, np.take(self.stands, fi))
        cth, sth = np.cos(face), np.sin(face)
        nb = self.neighbours(r, u, ux, uy, want, G.norm(hw, hd))
        rows = np.arange(m)
        first = True
        while len(rows):
            kr = key if first else key[rows]  # (every battle at first: no copy)
            first = False
            best = np.argmax(kr, axis=1)
            top = kr[np.arange(len(rows)), best]
            live = np.isfinite(top)
            if not live.all():
                rows, kr, best, top = rows[live], kr[live], best[live], top[live]
                if len(rows) == 0:
                    break
            near = np.abs(kr - top[:, None]) < G.HAIR
            tie = G.count_last(near) > 1
            if tie.any():  # near ties: recompute with the scalar AI's own floats, look again
                t = np.flatnonzero(tie)
                fix = near[t] & ~exact[rows[t]]
                tie[t] = G.any_last(fix)
                ci, cj = G.nz(fix)
                cr = rows[t][ci]
                dxx, dyy = gx[cr] - px[cr, cj], gy[cr] - py[cr, cj]
                s2, w2 = _scores(G.mhypot(dxx, dyy), cover[cr, cj], far[cr, cj])
                score[cr, cj], worse[cr, cj] = s2, w2
                exact[cr, cj] = True
                key[cr, cj] = np.where(rough[cr, cj], w2, s2)
            again = [rows[tie]]
            rows, best = rows[~tie], best[~tie]
            unk = ~known[rows, best]
            if unk.any():  # the best is still an upper bound: walk its path, look again
                ur, ub = rows[unk], best[unk]
                hit = self.T.path_rough(ux[ur], uy[ur], px[ur, ub], py[ur, ub])
                known[ur, ub] = True
                rough[ur, ub] = hit
                key[ur, ub] = np.where(hit, worse[ur, ub], score[ur, ub])
                again.append(ur)
            a, j = rows[~unk], best[~unk]
            if len(a):  # try the best: is it legal? (``move_ok`` with the row's constants)
                xa, ya = px[a, j], py[a, j]
                dist = G.norm(xa - ux[a], ya - uy[a])
                moving = dist > 0
                allow = np.where(rough[a, j] & moving, allow1[a], allow0[a])
                ok = dist <= allow + 1e-6
                idx = np.flatnonzero(ok)
                if len(idx):
                    ai = a[idx]
                    b = (xa[idx], ya[idx], cth[ai], sth[ai], hw[ai], hd[ai])
                    ok[idx] = self.room_near(r, ai, u, b, moving[idx], nb)
                g = np.flatnonzero(ok)
                ga = a[g]
                self.do_move(
                    r[ga],
                    uu[ga],
                    xa[g],
                    ya[g],
                    face[ga],
                    fj[ga],
                    mj[ga],
                    lim[ga],
                    chg[ga],
                )
                taken[ga] = True
                bad = np.flatnonzero(~ok)
                ab = a[bad]
                key[ab, j[bad]] = -np.inf
                tried[ab] += 1
                again.append(ab[tried[ab] < KEEP])
            rows = np.sort(np.concatenate(again))
        return taken

    def _destinations_k(
        self,
        r: I,
        u: int,
        ux: F,
        uy: F,
        gx: F,
        gy: F,
        want: F,
        face: F,
        form: I,
        form2: I,
        mounted: B,
        mounted2: B,
        lim: B,
        chg: I,
    ) -> B:
        """:meth:`_destinations` on the compiled kernel (``kmove.destinations``): the same
        places, scores, order and tests, battle by battle; the move then carried out."""
        st = self.S
        m = len(r)
        base = K.atan2s(gy - uy, gx - ux)
        ang = base[:, None] + BEARINGS[None, :]
        ca, sa = np.cos(ang), np.sin(ang)
        fj = np.where(chg == V.FORMATION, form2, form)
        mj = np.where(chg == V.MOUNT, mounted2, mounted)
        ut = np.full(m, st.utype[u])
        mkey = V.move_key(ut, fj, mj, lim)
        mkey = np.where((ut == V.ART) & (chg == V.FORMATION), 4, mkey)
        fi = r * self.U + u
        cmd, lost = np.take(self.in_cmd, fi), np.take(self.lost_ldr, fi)
        allow0 = V.move_inches(self.t, mkey, np.zeros(m, dtype=bool), cmd, lost, chg)
        allow1 = V.move_inches(self.t, mkey, np.ones(m, dtype=bool), cmd, lost, chg)
        hw, hd = V.base_size(self.t, ut, fj, np.take(self.stands, fi))
        ld = int(st.uleader[u])
        if ld >= 0:
            far_on = _g(self.lalive, r, ld)
            lx, ly, lrad = _g(self.lx, r, ld), _g(self.ly, r, ld), float(st.l_radius[ld])
        else:
            far_on, lx, ly, lrad = np.zeros(m, dtype=bool), ux, uy, 0.0
        T = self.T
        pick, xa, ya = K.destinations(
            r,
            u,
            ux,
            uy,
            gx,
            gy,
            want,
            ca,
            sa,
            np.cos(face),
            np.sin(face),
            hw.astype(float),
            hd.astype(float),
            allow0,
            allow1,
            far_on,
            lx,
            ly,
            lrad,
            self.x,
            self.y,
            self.c,
            self.s,
            self.hw,
            self.hd,
            self.x32,
            self.y32,
            self.r32,
            self.alive,
            st.side,
            float(self.t.geometry["contact"]),
            float(T.width),
            float(T.height),
            float(T.cell),
            int(T.nx),
            int(T.ny),
            T.rough,
            T.cover,
            T.fields[0],
            T.rough_boxes,
        )
        g = np.flatnonzero(pick >= 0)
        uu = np.full(len(g), u)
        rg = r[g]
        self.do_move_k(rg, uu, xa[g], ya[g], face[g], fj[g], mj[g], lim[g], chg[g])
        taken: B = pick >= 0
        return taken

    # -- charges ----------------------------------------------------------------------------
    def charges(self, r: I, u: int, E: I, ex: F, ey: F, d2: F) -> B:
        """``ScriptedAI.move``'s charges: the best legal charge with exact odds over 1/2.

        ``d2``: squared centre distances to the enemies (inf for the dead). Returns the
        battles where unit ``u`` charged (the charge is carried out). An enemy whose
        centre is further than the open move plus his radius and the charger's half
        depth cannot be reached (the contact point lies within those of his centre).
        """
        st = self.S
        t = self.t
        m = len(r)
        out = np.zeros(m, dtype=bool)
        ux, uy = _g(self.x, r, u), _g(self.y, r, u)
        ut = np.full(m, st.utype[u])
        key0 = V.move_key(ut, _g(self.form, r, u), _g(self.mounted, r, u), _g(self.limbered, r, u))
        no, chg0 = np.zeros(m, dtype=bool), np.zeros(m, dtype=np.int64)
        open0 = V.move_inches(t, key0, no, _g(self.in_cmd, r, u), _g(self.lost_ldr, r, u), chg0)
        lim = np.minimum(
            open0[:, None]
            + _g(self.hd, r, u)[:, None]
            + _cols(self.rad, r, st.span[1 - st.side[u]])
            + 1e-6,
            CHARGE_LOOK,
        )
        maybe = d2 <= lim * lim * (1 + 1e-9)
        pi, pe = G.nz(maybe)
        if len(pi) == 0:
            return out
        look = G.hypot_le(ex[pi, pe] - ux[pi], ey[pi, pe] - uy[pi], CHARGE_LOOK)
        pi, pe = pi[look], pe[look]
        if len(pi) == 0:
            return out
        rr, tu = r[pi], E[pe]
        uu = np.full(len(pi), u)
        cx, cy, nx, ny, flank = self.contact_point(rr, uu, tu)
        cdist = G.norm(cx - ux[pi], cy - uy[pi])
        ut = np.full(len(pi), st.utype[u])
        key = V.move_key(
            ut, _g(self.form, rr, u), _g(self.mounted, rr, u), _g(self.limbered, rr, u)
        )
        no = np.zeros(len(pi), dtype=bool)
        chg0 = np.zeros(len(pi), dtype=np.int64)
        open_allow = V.move_inches(
            t, key, no, _g(self.in_cmd, rr, u), _g(self.lost_ldr, rr, u), chg0
        )
        reach = cdist <= open_allow + 1e-6  # too far even in the open: no charge
        if not reach.any():
            return out
        k = np.flatnonzero(reach)
        pi, rr, uu, tu, cx, cy, nx, ny, flank, key = _sub(
            k, pi, rr, uu, tu, cx, cy, nx, ny, flank, key
        )
        prob = self.charge_chance(rr, uu, tu, flank)
        good = prob > CHARGE_THRESHOLD
        if not good.any():
            return out
        k = np.flatnonzero(good)
        pi, rr, uu, tu, cx, cy, nx, ny, flank, key, prob = _sub(
            k, pi, rr, uu, tu, cx, cy, nx, ny, flank, key, prob
        )
        cdist = G.mhypot(cx - _g(self.x, rr, u), cy - _g(self.y, rr, u))
        cth = G.matan2(-ny, -nx)
        # legal? rough ground on the way, room at the contact point (the target ignored)
        rough = self.T.path_rough(_g(self.x, rr, u), _g(self.y, rr, u), cx, cy)
        chg0 = np.zeros(len(pi), dtype=np.int64)
        allow = V.move_inches(t, key, rough, _g(self.in_cmd, rr, u), _g(self.lost_ldr, rr, u), chg0)
        legal = cdist <= allow + 1e-6
        j = np.flatnonzero(legal)
        if len(j):
            b = (
                cx[j],
                cy[j],
                np.cos(cth[j]),
                np.sin(cth[j]),
                _g(self.hw, rr[j], u),
                _g(self.hd, rr[j], u),
            )
            legal[j] = self.free_at(rr[j], uu[j], b, ignore=tu[j])
        j = np.flatnonzero(legal)  # and the way there clear (default charge_path_clear)
        if len(j):
            legal[j] = self._charge_path_clear(rr[j], u, cx[j], cy[j], cdist[j], cth[j])
        if not legal.any():
            return out
        k = np.flatnonzero(legal)
        pi, rr, uu, tu, cx, cy, cth, flank, cdist, prob = _sub(
            k, pi, rr, uu, tu, cx, cy, cth, flank, cdist, prob
        )
        # per battle the best chance, the first enemy on a tie (the scalar's strict ">")
        order = np.lexsort((tu, -prob, pi))
        first = order[np.r_[True, pi[order][1:] != pi[order][:-1]]]
        out[pi[first]] = True
        self.do_charge(
            rr[first], u, tu[first], cx[first], cy[first], cth[first], flank[first], cdist[first]
        )
        return out

    def charges_k(self, r: I, u: int, E: I) -> B:
        """:meth:`charges` on the compiled kernels (``kmove.charge_reach``, ``charge_paths``,
        ``frees``), the odds as there: the same charges, the best carried out."""
        st = self.S
        t = self.t
        T = self.T
        m = len(r)
        out = np.zeros(m, dtype=bool)
        ut = np.full(m, st.utype[u])
        key = V.move_key(ut, _g(self.form, r, u), _g(self.mounted, r, u), _g(self.limbered, r, u))
        cmd, lost = _g(self.in_cmd, r, u), _g(self.lost_ldr, r, u)
        chg0 = np.zeros(m, dtype=np.int64)
        open0 = V.move_inches(t, key, np.zeros(m, dtype=bool), cmd, lost, chg0)
        pq, pe, cx, cy, nx, ny, flank = K.charge_reach(
            r,
            u,
            E,
            open0,
            CHARGE_LOOK,
            self.x,
            self.y,
            self.c,
            self.s,
            self.hw,
            self.hd,
            self.rad,
            self.alive,
        )
        if len(pq) == 0:
            return out
        rr, tu = r[pq], E[pe]
        prob = self.charge_chance_k(rr, u, tu, flank)
        k = np.flatnonzero(prob > CHARGE_THRESHOLD)
        if len(k) == 0:
            return out
        pq, rr, tu, cx, cy, nx, ny, flank, prob = _sub(k, pq, rr, tu, cx, cy, nx, ny, flank, prob)
        rough_allow = V.move_inches(t, key, np.ones(m, dtype=bool), cmd, lost, chg0)
        cdist, cth, legal = K.charge_paths(
            _g(self.x, rr, u),
            _g(self.y, rr, u),
            cx,
            cy,
            nx,
            ny,
            open0[pq],
            rough_allow[pq],
            float(T.cell),
            int(T.nx),
            int(T.ny),
            T.fields[0],
            T.rough_boxes,
        )
        j = np.flatnonzero(legal)
        if len(j):
            rj = rr[j]
            legal[j] = K.frees(
                rj,
                np.full(len(j), u),
                cx[j],
                cy[j],
                np.cos(cth[j]),
                np.sin(cth[j]),
                _g(self.hw, rj, u),
                _g(self.hd, rj, u),
                tu[j],
                self.x,
                self.y,
                self.c,
                self.s,
                self.hw,
                self.hd,
                self.x32,
                self.y32,
                self.r32,
                self.alive,
                float(T.width),
                float(T.height),
            )
        j = np.flatnonzero(legal)  # and the way there clear (default charge_path_clear)
        if len(j):
            legal[j] = self._charge_path_clear(rr[j], u, cx[j], cy[j], cdist[j], cth[j])
        if not legal.any():
            return out
        k = np.flatnonzero(legal)
        pi, rr, tu, cx, cy, cth, flank, cdist, prob = _sub(
            k, pq, rr, tu, cx, cy, cth, flank, cdist, prob
        )
        # per battle the best chance, the first enemy on a tie (the scalar's strict ">")
        order = np.lexsort((tu, -prob, pi))
        first = order[np.r_[True, pi[order][1:] != pi[order][:-1]]]
        out[pi[first]] = True
        self.do_charge(
            rr[first], u, tu[first], cx[first], cy[first], cth[first], flank[first], cdist[first]
        )
        return out

    def _charge_path_clear(self, r: I, u: int, cx: F, cy: F, cdist: F, cth: F) -> B:
        """Is the way of unit ``u``'s charge to (cx, cy) clear, walked as :meth:`do_charge`
        slides it (the same direction floats)?"""
        dd = np.where(cdist == 0, 1.0, cdist)
        dx, dy = (cx - _g(self.x, r, u)) / dd, (cy - _g(self.y, r, u)) / dd
        return self.path_clear(r, np.full(len(r), u), dx, dy, cdist, cth)

    def contact_point(self, r: I, u: I, t: I) -> tuple[F, F, F, F, B]:
        """``steps.contact_point``: where the charger ends (x, y), the outward normal of
        the edge it meets (its facing is the opposite), and whether flank or rear."""
        tx, ty, c, s = _g(self.x, r, t), _g(self.y, r, t), _g(self.c, r, t), _g(self.s, r, t)
        thw, thd = _g(self.hw, r, t), _g(self.hd, r, t)
        fwd, lat = G.local(tx, ty, c, s, _g(self.x, r, u), _g(self.y, r, u))
        front = fwd > thd
        rear = fwd < -thd
        side = ~front & ~rear & (np.abs(lat) > thw)
        sign = np.where(lat > 0, 1.0, -1.0)
        nx = np.where(rear, -c, np.where(side, -s * sign, c))
        ny = np.where(rear, -s, np.where(side, c * sign, s))
        off = np.where(side, thw, thd)
        flank = rear | side
        x = tx + nx * (off + _g(self.hd, r, u))
        y = ty + ny * (off + _g(self.hd, r, u))
        return x, y, nx, ny, flank

    def melee_mod(self, r: I, u: I, e: I, attacking: B, flank: B) -> I:
        """``steps.melee_facts`` + ``rules.melee_modifiers``: ``u``'s modifier against ``e``."""
        st = self.S
        ux, uy, ex, ey = _g(self.x, r, u), _g(self.y, r, u), _g(self.x, r, e), _g(self.y, r, e)
        obstacle = ~attacking & G.crosses_any(ux, uy, ex, ey, self.T.obstacles)
        uphill = self.T.height_at(ux, uy) > self.T.height_at(ex, ey)
        return V.melee_modifier(
            self.t,
            st.side[u],
            st.utype[u],
            _g(self.mounted, r, u),
            _g(self.form, r, u),
            _g(self.stands, r, u),
            attacking,
            obstacle,
            uphill,
            _g(self.marker, r, u),
            _g(self.bonus, r, u),
            flank,
        )

    def charge_chance(self, r: I, u: I, t: I, flank: B) -> F:
        """``scripted.charge_chance``: exact P(the charge drives the enemy off)."""
        st = self.S
        n_a, mod_a = V.morale(self.t, st.side[u], _g(self.bonus, r, u), _g(self.marker, r, u))
        n_d, mod_d = V.morale(self.t, st.side[t], _g(self.bonus, r, t), _g(self.marker, r, t))
        yes = np.ones(len(r), dtype=bool)
        ma = self.melee_mod(r, u, t, yes, flank)
        md = self.melee_mod(r, t, u, ~yes, ~yes)
        return V.charge_favourable(n_a - mod_a, n_d - mod_d, ma - md)

    def charge_chance_k(self, r: I, u: int, t: I, flank: B) -> F:
        """:meth:`charge_chance` on the compiled kernel (``kmove.charge_odds``): the morale
        needs, the melee modifiers with the defender's wall or stream, the same table."""
        st = self.S
        tb = self.t
        T = self.T
        m = tb.melee_mods
        mods = np.array(
            [
                m["mounted_cavalry_attacking"],
                m["defending_wall_or_stream"],
                m["infantry_column"],
                m["uphill"],
                m["confederates_attacking"],
                m["marker"],
            ],
            dtype=np.int64,
        )
        return K.charge_odds(
            r,
            u,
            t,
            flank,
            self.x,
            self.y,
            self.bonus,
            self.marker,
            self.mounted,
            self.form,
            self.stands,
            np.asarray(st.side, dtype=np.int64),
            np.asarray(st.utype, dtype=np.int64),
            np.asarray(tb.morale, dtype=np.int64),
            int(tb.morale_marker),
            mods,
            tb.sides.index("confederate"),
            T.level,
            float(T.cell),
            int(T.nx),
            int(T.ny),
            T.obstacles,
            V.charge_table(),
            V.CH_LO,
            V.CH_HI,
            V.CH_DIFF,
        )

    def morale_pass(self, r: I, u: I) -> B:
        """Seed 002 MORALE: 2d6 + attached leader bonus - 1 with a MM >= the side's number."""
        number, mod = V.morale(self.t, self.S.side[u], _g(self.bonus, r, u), _g(self.marker, r, u))
        faces = self.dice.roll(self.ids[r], 2)
        out: B = faces.sum(1) + mod >= number
        return out

    def do_charge(self, r: I, u: int, tg: I, cx: F, cy: F, cth: F, flank: B, cdist: F) -> None:
        """Seed 002 charge paragraph (``steps.do_charge``), battles in parallel."""
        m = len(r)
        uu = np.full(m, u)
        slide = self.slide_k if jit.ENABLED else self.slide
        move_away = self.move_away_k if jit.ENABLED else self.move_away
        _s(self.moved, r, u, True)
        _s(self.charged, r, u, True)
        dd = np.where(cdist == 0, 1.0, cdist)
        dx, dy = (cx - _g(self.x, r, u)) / dd, (cy - _g(self.y, r, u)) / dd
        passed = self.morale_pass(r, uu)
        f = np.flatnonzero(~passed)  # failed: half the distance and a MM
        if len(f):
            ok = slide(r[f], uu[f], dx[f], dy[f], cdist[f] * self.t.failed_charge_fraction, cth[f])
            self.remove(r[f[~ok]], uu[f[~ok]])
            self.add_marker(r[f[ok]], uu[f[ok]])
        g = np.flatnonzero(passed)
        if len(g) == 0:
            return
        stands = self.morale_pass(r[g], tg[g])
        run = g[~stands]  # the target retreats 2D6" (3D6" mounted cavalry) and takes a MM
        if len(run):
            inches = self.retreat_inches(r[run], tg[run])
            move_away(r[run], tg[run], uu[run], inches)
            self.add_marker(r[run], tg[run])
            ok = slide(r[run], uu[run], dx[run], dy[run], cdist[run], cth[run])
            self.remove(r[run[~ok]], uu[run[~ok]])
            h = run[ok]  # a target whose way back was blocked: the charge goes in
            c = h[self.touching(r[h], uu[h], tg[h])]
            self.cont[r[c], u] = tg[c]
            self.cont_flank[r[c], u] = flank[c]
        hold = g[stands]
        if len(hold):
            ok = slide(r[hold], uu[hold], dx[hold], dy[hold], cdist[hold], cth[hold])
            h = hold[ok]
            touch = self.touching(r[h], uu[h], tg[h])
            c = h[touch]
            self.cont[r[c], u] = tg[c]
            self.cont_flank[r[c], u] = flank[c]

    # -- rally ------------------------------------------------------------------------------
    def rally_step(self, p: int) -> None:
        """Seed 002 Rally: remove the MM of the player's units that did not move."""
        units = self.S.by_side[p]
        self.marker[:, units] &= self.moved[:, units] | ~self.alive[:, units]

    # -- fire --------------------------------------------------------------------------------
    _klos: tuple[NDArray[np.int64], NDArray[np.int64]] | None = None
    """Per firing side, the compiled pick's sight cache (``kfire.pick``), made at first use."""

    def fire_step(self, f: int) -> None:
        """Seed 002 Defensive/Offensive Fire: every eligible unit in turn fires (``FireStep``).

        Every firer's candidate targets (range band, arc, modifiers) are found at the
        start of the step; the line of sight, the dearest test, is looked at only for
        the target the AI would pick, in the order of its value, until one is seen (so
        the pick is the best target it can see, as the scalar AI's). A target that
        loses stands is measured again (its base shrinks), and a battle where a unit in
        contact changed is looked at afresh (who touches whom may have changed).
        """
        st = self.S
        FU, TU = st.by_side[f], st.by_side[1 - f]
        fs, ts = st.span[f], st.span[1 - f]
        fc = V.fire_class(st.utype[FU][None, :], self.mounted[:, fs], self.limbered[:, fs])
        actor = self.alive[:, fs] & (fc >= 0)
        rows = np.arange(self.n)
        d2, adj = self._pair_geometry()
        if f == 1:
            d2, adj = d2.transpose(0, 2, 1), adj.transpose(0, 2, 1)
        need, mod, los, adj = self.fire_matrix(rows, f, fc, actor, (d2, adj))
        if f == self._first:
            self.touch = adj  # for this player's melee step
        contact = _rows_any(adj, 1)
        stands0 = st.stands0[TU][None, :]
        # the AI's value of each shot: exact expected stands (made per firer from the
        # need and modifier kept current), times 1.5 if one more stand lost removes the
        # target (kept current as targets lose stands or leave)
        alive_t = self.alive[:, ts].copy()
        bonus = np.where(V.is_removed(self.t, self.stands[:, ts] - 1, stands0), FINISH_BONUS, 1.0)
        if jit.ENABLED:
            es = KF.es_table(self.t.r)
            geo = self._kgeo()
            sight = KF.terrain_args(self.T)[2:]
            if self._klos is None:  # the kernel's sight cache (kfire.pick), made once
                size = len(self.los[0][0])
                self._klos = (np.full(size, -1, np.int64), np.full(size, -1, np.int64))
            kcache, nb = self._klos[f], len(self.los[0][0]) // (self.los_n * self.los_n)
        for kk in range(len(FU)):
            if jit.ENABLED:  # the same pick, compiled (kfire.pick)
                r, pick = KF.pick(
                    kk, FU, TU, actor, need, mod, los, alive_t, bonus, es, V.ES_LO, self.ids,
                    st.local, self.los_n, nb, geo, self.x32, self.y32, self.r32, self.alive,
                    self.ver, kcache, sight,
                )  # fmt: skip
                if len(r) == 0:
                    continue
            else:
                r, pick = self._pick(kk, FU, TU, actor, need, mod, los, alive_t, bonus)
                if len(r) == 0:
                    continue
            tg = TU[pick]
            needed, m = need[r, kk, pick], mod[r, kk, pick]
            faces = self.dice.roll(self.ids[r], 2)
            lost = V.fire_stands_lost(self.t, faces.sum(1), needed, m)
            hit = lost > 0
            r, tg, pick, lost = r[hit], tg[hit], pick[hit], lost[hit]
            if len(r) == 0:
                continue
            self.lose_stands(r, tg, lost, contact[r, pick])
            self.add_marker(r, tg)
            # keep the targets current for the firers still to come
            alive_t[r, pick] = _g(self.alive, r, tg)
            left = _g(self.stands, r, tg) - 1
            bonus[r, pick] = np.where(V.is_removed(self.t, left, st.stands0[tg]), FINISH_BONUS, 1.0)
            dirty = contact[r, pick]
            if dirty.any():
                d = r[dirty]
                need[d], mod[d], los[d], adj[d] = self.fire_matrix(d, f, fc[d], actor[d])
                contact[d] = _rows_any(adj[d], 1)
                alive_t[d] = _cols(self.alive, d, ts)
            again = np.flatnonzero(~dirty & alive_t[r, pick])
            if len(again):
                ra, pa = r[again], pick[again]
                self._reband(ra, pa, f, fc, need, mod, kk + 1)

    def _pick(
        self, kk: int, FU: I, TU: I, actor: B, need: I8, mod: I8, los: I8, alive_t: B, bonus: F
    ) -> tuple[I, I]:
        """The target firer ``kk`` of every battle shoots at: the candidate of highest value
        he sees, the line of sight looked at in order of value; (battles in order, target
        columns), battles with no shot left out. Sight answers go into ``los``."""
        r = np.flatnonzero(actor[:, kk] & G.any_last(need[:, kk] > 0))
        if len(r) == 0:
            return r, r
        shots: list[tuple[I, I]] = []
        # the value of each candidate shot of this firer; nothing else changes while
        # he looks for a target he can see, so a target found hidden just drops out
        valid = (need[r, kk] > 0) & _rows(alive_t, r) & (los[r, kk] != BLOCKED)
        es = V.expected_stands(need[r, kk], mod[r, kk], self.t.r)
        value = np.where(valid, es * bonus[r], -np.inf)
        at = np.arange(len(r))  # the battles (rows of value) still looking
        while len(at):
            vals = value[at]
            pick = np.argmax(vals, axis=1)
            has = vals[np.arange(len(at)), pick] > -np.inf  # any valid target left
            at, pick = at[has], pick[has]
            rr = r[at]
            unknown = los[rr, kk, pick] == UNSEEN
            if unknown.any():
                ru, pu = rr[unknown], pick[unknown]
                tx, ty = _g(self.x, ru, TU[pu]), _g(self.y, ru, TU[pu])
                seen = self.sees(ru, np.full(len(ru), FU[kk]), TU[pu], tx, ty)
                los[ru, kk, pu] = np.where(seen, SEEN, BLOCKED)
            ok = los[rr, kk, pick] == SEEN
            shots.append((rr[ok], pick[ok]))
            at, pick = at[~ok], pick[~ok]
            value[at, pick] = -np.inf
        r = np.concatenate([x for x, _ in shots])
        pick = np.concatenate([y for _, y in shots])
        order = np.argsort(r, kind="stable")
        return r[order], pick[order]

    def _kgeo(self) -> tuple[F, F, F, F, F, F, F]:
        """The bases as the fire kernels read them: x, y, cos, sin, hw, hd, radius."""
        return (self.x, self.y, self.c, self.s, self.hw, self.hd, self.rad)

    def _kshot(self) -> tuple[Any, ...]:
        """What the fire kernels read for a shot after the bases (``kfire.shots``)."""
        st = self.S
        ta = KF.terrain_args(self.T)
        return (
            self.form, self.marker, self.mounted, st.utype, st.side, KF.rule_args(self.t),
            ta[0], ta[1], ta[2], ta[3], ta[4],
        )  # fmt: skip

    def _pair_geometry(self) -> tuple[NDArray[np.float32], B]:
        """(squared centre distances, contacts) between the two sides' units, per battle.

        Made after a move step and kept for its fire steps: no base moves until the
        melee, and one that shrinks or leaves can only stop touching, so the contacts
        found before are looked at again and no other pair.
        """
        s0, s1 = self.S.by_side
        if self.geo is None and jit.ENABLED:  # the same contacts, compiled (kfire.contacts)
            self.geo = KF.contacts(
                np.arange(self.n), s0, s1, self.x32, self.y32, self.r32, self.alive,
                self.t.geometry["contact"], self._kgeo(),
            )  # fmt: skip
        elif self.geo is None:
            r = np.arange(self.n)
            X, Y = self.x32, self.y32
            dx = X[:, None, s1] - X[:, s0, None]
            dy = Y[:, None, s1] - Y[:, s0, None]
            d2 = dx * dx + dy * dy
            self.geo = (d2, self.adjacency(r, s0, s1, d2))
        else:
            d2, adj = self.geo
            if adj.any():
                pi, pa, pb = G.nz(adj)
                adj[pi, pa, pb] = self.touching(pi, s0[pa], s1[pb])
        return self.geo

    def fire_matrix(
        self,
        r: I,
        f: int,
        fc: I,
        actor: B,
        geo: tuple[NDArray[np.float32], B] | None = None,
    ) -> tuple[I8, I8, I8, B]:
        """Every firer's candidate targets: (needed, modifier) with 0 = none, line of
        sight (UNSEEN until looked at, SEEN where not needed), and who touches whom.

        ``geo``: the squared centre distances and contacts of these battles (firers by
        targets), if known."""
        st = self.S
        FU, TU = st.by_side[f], st.by_side[1 - f]
        if jit.ENABLED:  # the same candidates, compiled (kfire.contacts, kfire.fire_matrix)
            if geo is None:
                geo = KF.contacts(
                    r, FU, TU, self.x32, self.y32, self.r32, self.alive,
                    self.t.geometry["contact"], self._kgeo(),
                )  # fmt: skip
            need, mod, los = KF.fire_matrix(
                r, FU, TU, fc, actor, geo[0], geo[1], self._kgeo(), self.r32, self.alive,
                *self._kshot(),
            )  # fmt: skip
            return need, mod, los, geo[1]
        m, nf, nt = len(r), len(FU), len(TU)
        need = np.zeros((m, nf, nt), dtype=np.int8)  # small numbers: 2..12 and -4..+6
        mod = np.zeros((m, nf, nt), dtype=np.int8)
        los = np.full((m, nf, nt), UNSEEN, dtype=np.int8)
        R = _rows(self.r32, r)
        if geo is None:
            X, Y = _rows(self.x32, r), _rows(self.y32, r)
            dx = X[:, None, TU] - X[:, FU, None]
            dy = Y[:, None, TU] - Y[:, FU, None]
            d2 = dx * dx + dy * dy
            adj = self.adjacency(r, FU, TU, d2)
        else:
            d2, adj = geo
        engaged = _rows_any(adj, 2)  # firers in contact fire only at what they touch
        los[engaged] = SEEN  # ... and need no line of sight
        touched = _rows_any(adj, 1)
        free = _cols(self.alive, r, st.span[1 - f]) & ~touched
        cand = np.where(engaged[:, :, None], adj, free[:, None, :]) & actor[:, :, None]
        # beyond the longest range even from the nearest corners: no shot
        top = (self.t.max_range[np.maximum(fc, 0)] + (1e-6 + SLACK)).astype(np.float32)
        reach = top[:, :, None] + R[:, FU, None] + R[:, None, TU]
        cand &= d2 <= reach * reach
        pi, pf, pt = G.nz(cand)
        if len(pi):
            nd, md = self.fire_pairs(r[pi], FU[pf], TU[pt], fc[pi, pf], engaged[pi, pf], False)
            flat = (pi * nf + pf) * nt + pt
            np.put(need, flat, nd)
            np.put(mod, flat, md)
        return need, mod, los, adj

    def fire_pairs(self, r: I, fu: I, tu: I, fc: I, engaged: B, known: bool) -> tuple[I, I]:
        """``steps.targets`` for explicit pairs, but the line of sight: arc, range band,
        modifiers (``known``: the pair is in arc, only its range and cover moved)."""
        st = self.S
        t = self.t
        n = len(r)
        need = np.zeros(n, dtype=np.int64)
        mod = np.zeros(n, dtype=np.int64)
        ff, ft = r * self.U + fu, r * self.U + tu  # flat indexes of firers and targets
        ux, uy = np.take(self.x, ff), np.take(self.y, ff)
        tx, ty = np.take(self.x, ft), np.take(self.y, ft)
        uc, us = np.take(self.c, ff), np.take(self.s, ff)
        if known:
            k = np.arange(n)
        else:
            fwd, lat = G.local(ux, uy, uc, us, tx, ty)
            half = t.geometry["fire_arc_degrees"]
            front = np.flatnonzero(fwd > 0)
            # degrees(atan2(|lat|, fwd)) <= half, as |lat| <= fwd tan(half), and with
            # math.atan2 where the two are within a hair of each other
            ratio = np.abs(lat[front]) / fwd[front]
            inarc = ratio <= self._tan_arc
            close = np.flatnonzero(np.abs(ratio - self._tan_arc) < 1e-6)
            if len(close):
                fc_ = front[close]
                inarc[close] = np.degrees(G.matan2(np.abs(lat[fc_]), fwd[fc_])) <= half
            k = front[inarc]
            if len(k) == 0:
                return need, mod
            ff, ft, fu, tu, ux, uy, tx, ty, uc, us = _sub(k, ff, ft, fu, tu, ux, uy, tx, ty, uc, us)
        # from here on every array is of the pairs ``k``
        ub = (ux, uy, uc, us, np.take(self.hw, ff), np.take(self.hd, ff))
        thd = np.take(self.hd, ft)
        tb = (tx, ty, np.take(self.c, ft), np.take(self.s, ft), np.take(self.hw, ft), thd)
        if known:
            fck = fc[k]
            band = self._band(ub, tb)
            nd = np.where(band >= 0, t.fire_table[fck, np.maximum(band, 0)], 0)
        else:
            # the exact range lies within the bounds: where every FIRE column the bounds
            # span gives the same score needed (or none), that is the answer; else the
            # exact range (the scalar form near a band top) decides
            lo, hi = G.range_bounds(ub, tb, np.take(self.rad, ff), np.take(self.rad, ft))
            fck = fc[k]
            plo = V.band_place(t, V.range_band(t, lo - 1e-7))
            phi = V.band_place(t, V.range_band(t, hi + 1e-7))
            need_at, run = V.fire_runs(t)
            nd = need_at[fck, plo]
            loose = np.flatnonzero(run[fck, plo] != run[fck, phi])
            if len(loose):
                sub = tuple(v[loose] for v in ub), tuple(v[loose] for v in tb)
                band = self._band(*sub)  # type: ignore[arg-type]
                fl = fck[loose]
                nd[loose] = np.where(band >= 0, t.fire_table[fl, np.maximum(band, 0)], 0)
        j = np.flatnonzero(nd > 0)
        if len(j) == 0:
            return need, mod
        k, ff, ft, fu, tu, ux, uy, tx, ty, thd, fck = _sub(
            j, k, ff, ft, fu, tu, ux, uy, tx, ty, thd, fck
        )
        cover = self.T.in_cover(tx, ty)
        rch = thd + 1.0
        wall = np.flatnonzero(self.T.near_wall(tx, ty, rch))
        if len(wall):  # a wall within reach of the target: does it lie across the fire?
            wx, wy = tx[wall], ty[wall]
            ddx, ddy = ux[wall] - wx, uy[wall] - wy
            nn = G.mhypot(ddx, ddy)
            nn = np.where(nn == 0, 1.0, nn)
            ww = rch[wall]
            ends = wx + ddx / nn * ww, wy + ddy / nn * ww
            cover[wall] |= G.crosses_any(wx, wy, ends[0], ends[1], self.T.walls)
        need[k] = nd[j]
        mod[k] = V.fire_modifier_of(
            t,
            st.side[fu],
            fck,
            np.take(self.form, ff),
            np.take(self.marker, ff),
            st.utype[tu],
            np.take(self.mounted, ft),
            np.take(self.form, ft),
            cover,
        )
        return need, mod

    def _band(self, a: G.VBox, b: G.VBox) -> I:
        """The FIRE column of the exact range between bases (the scalar form near a band top)."""
        d = G.quick_distance(a, b)
        band = V.range_band(self.t, d)
        near = np.abs(d[:, None] - (self.t.bands[None, :] + 1e-9)) < G.HAIR
        close = np.flatnonzero(G.any_last(near))
        if len(close):
            sub = tuple(v[close] for v in a), tuple(v[close] for v in b)
            band[close] = V.range_band(self.t, G.distance(*sub))  # type: ignore[arg-type]
        return band

    def sees(self, r: I, u: I, t: I, tx: F, ty: F) -> B:
        """``Battle.sees``: terrain, then the firer's friends' bases across the line.

        The terrain's answer depends on the two centres only; it is kept per battle and
        pair with the position versions of both units (as the scalar engine's memo by
        end points), and looked up again only when one of them has moved.
        """
        x0, y0 = _g(self.x, r, u), _g(self.y, r, u)
        cache = self.los[self.S.side[u[0]]]
        ns = self.los_n
        slot = (self.ids[r] * ns + self.S.local[u]) * ns + self.S.local[t]
        vu, vt = _g(self.ver, r, u), _g(self.ver, r, t)
        hit = (np.take(cache[0], slot) == vu) & (np.take(cache[1], slot) == vt)
        ok = np.take(cache[2], slot)
        miss = np.flatnonzero(~hit)
        if len(miss):
            clear = self.T.sight_clear(x0[miss], y0[miss], tx[miss], ty[miss])
            ok[miss] = clear
            sm = slot[miss]
            np.put(cache[0], sm, vu[miss])
            np.put(cache[1], sm, vt[miss])
            np.put(cache[2], sm, clear)
        k = np.flatnonzero(ok)
        if len(k) == 0:
            return ok
        rk, uk = r[k], u[k]
        x0, y0, x1, y1 = x0[k], y0[k], tx[k], ty[k]
        lo_x, hi_x = np.minimum(x0, x1), np.maximum(x0, x1)
        lo_y, hi_y = np.minimum(y0, y1), np.maximum(y0, y1)
        side = self.S.side[uk[0]]  # one side fires in a step
        FU = self.S.by_side[side]
        span = self.S.span[side]
        X, Y = _cols(self.x32, rk, span), _cols(self.y32, rk, span)
        R = _cols(self.r32, rk, span) + np.float32(SLACK)
        f32 = np.float32
        near = (
            _cols(self.alive, rk, span)
            & (FU[None, :] != uk[:, None])
            & (lo_x.astype(f32)[:, None] <= X + R)
            & (hi_x.astype(f32)[:, None] >= X - R)
            & (lo_y.astype(f32)[:, None] <= Y + R)
            & (hi_y.astype(f32)[:, None] >= Y - R)
        )
        pi, pj = G.nz(near)
        if len(pi):
            hit = G.segment_hits_box(x0[pi], y0[pi], x1[pi], y1[pi], self.box(rk[pi], FU[pj]))
            blocked = np.zeros(len(k), dtype=bool)
            blocked[pi[hit]] = True
            ok[k[blocked]] = False
        return ok

    def _reband(self, r: I, tcol: I, f: int, fc: I, need: I8, mod: I8, after: int) -> None:
        """Measure again the shots of the firers still to come at targets whose bases shrank."""
        FU = self.S.by_side[f]
        if jit.ENABLED:  # the same shots measured again, compiled (kfire.reband)
            TU = self.S.by_side[1 - f]
            KF.reband(r, tcol, after, FU, TU, fc, need, mod, self._kgeo(), *self._kshot())
            return
        pi, pf = G.nz(need[r, after:, tcol] > 0)
        pf = pf + after
        if len(pi) == 0:
            return
        rr, tt = r[pi], tcol[pi]
        tu = self.S.by_side[1 - f][tt]
        no = np.zeros(len(pi), dtype=bool)
        nd, md = self.fire_pairs(rr, FU[pf], tu, fc[rr, pf], no, True)
        need[rr, pf, tt] = nd
        mod[rr, pf, tt] = np.where(nd > 0, md, 0)

    # -- melee --------------------------------------------------------------------------------
    def melee_step(self, p: int) -> None:
        """Seed 002 Melee: "any enemy units touching now fight" (default ``melee_pairs``).

        Each battle's pairs in the scalar order: the charges of this move step in
        charge order, then every other touching pair by the player's units in order
        (their enemies in order). Round k fights the k-th pair of every battle that has
        one, if both are still on the table and touching.
        """
        st = self.S
        SU, EU = st.by_side[p], st.by_side[1 - p]
        n, ns, ne = self.n, len(SU), len(EU)
        adj = self.touch if self.touch is not None else self.adjacency(np.arange(n), SU, EU)
        self.touch = None
        self.geo = None  # melee retreats move bases
        cont = self.cont[:, SU]
        charged = cont >= 0
        if adj.any():  # contacts found at the offensive fire: bases only shrank or left since
            pi, pa, pb = G.nz(adj)
            adj = adj.copy()
            adj[pi, pa, pb] = self.touching(pi, SU[pa], EU[pb])
            # a charge's own pair is not fought twice
            ci, cu = G.nz(charged)
            ce = np.searchsorted(EU, cont[ci, cu])
            adj[ci, cu, ce] = False
        self.cont[:] = -1
        ci, cu = G.nz(charged)
        ti, tu, te = G.nz(adj)
        if len(ci) + len(ti) == 0:
            self.cont_flank[:] = False
            return
        row = np.concatenate([ci, ti])
        a = np.concatenate([SU[cu], SU[tu]])
        d = np.concatenate([cont[ci, cu], EU[te]])
        chg = np.concatenate([np.ones(len(ci), dtype=bool), np.zeros(len(ti), dtype=bool)])
        fl = np.concatenate([self.cont_flank[ci, SU[cu]], np.zeros(len(ti), dtype=bool)])
        self.cont_flank[:] = False
        key = np.concatenate([cu, ns + tu * ne + te])
        order = np.lexsort((key, row))
        row, a, d, chg, fl = row[order], a[order], d[order], chg[order], fl[order]
        start = np.r_[0, np.flatnonzero(row[1:] != row[:-1]) + 1]
        rank = np.arange(len(row)) - np.repeat(start, np.diff(np.r_[start, len(row)]))
        for k in range(int(rank.max()) + 1):
            j = np.flatnonzero(rank == k)
            j = j[self.touching(row[j], a[j], d[j])]
            if len(j):
                self.resolve_melee(row[j], a[j], d[j], chg[j], fl[j])

    def resolve_melee(self, r: I, a: I, d: I, charged: B, flank: B) -> None:
        """Seed 002 MELEE (``steps.resolve_melee``): 2d6 + stands + modifiers each side."""
        no = np.zeros(len(r), dtype=bool)
        ma = self.melee_mod(r, a, d, charged, flank)
        md = self.melee_mod(r, d, a, no, no)
        sa = self.dice.roll(self.ids[r], 2).sum(1) + ma
        sd = self.dice.roll(self.ids[r], 2).sum(1) + md
        win_loss, win_ret, lose_loss, lose_ret = V.melee_row(self.t, sa - sd)
        a_wins = sa >= sd
        win, lose = np.where(a_wins, a, d), np.where(a_wins, d, a)
        self.lose_stands(r, win, win_loss)
        self.lose_stands(r, lose, lose_loss)
        for u, other, ret in ((win, lose, win_ret), (lose, win, lose_ret)):
            k = np.flatnonzero(ret & _g(self.alive, r, u))
            if len(k):
                inches = self.retreat_inches(r[k], u[k])
                self.move_away(r[k], u[k], other[k], inches)
                self.add_marker(r[k], u[k])

    def outcome(self) -> Outcome:
        """Every battle's result (call after :meth:`run`)."""
        return Outcome(
            self.res_winner,
            self.res_turns,
            self.res_losses,
            self.res_removed,
            self.dice.drawn,
            self.dice.faces(),
            self.res_leaders,
            self.dice.counts(),
        )


def _rows(a: NDArray[Any], r: I) -> NDArray[Any]:
    """``a[r]``: the rows ``r`` of a per-battle array.

    ``np.take`` along the rows copies each row in one go, 3-10 times faster than numpy's
    fancy indexing for rows of up to 128 bytes (booleans, small integers, 32 float32);
    for wider rows fancy indexing is as fast or faster.
    """
    if a.ndim == 2 and a.shape[1] * a.itemsize <= 128:
        out: NDArray[Any] = np.take(a, r, axis=0)
        return out
    return a[r]


def _cols(a: NDArray[Any], r: I, cols: slice | I) -> NDArray[Any]:
    """``a[r][:, cols]``: battles ``r``, one side's units (a slice where they are in a row)."""
    if a.ndim == 2 and a.shape[1] * a.itemsize <= 128:
        return np.take(a, r, axis=0)[:, cols]
    if isinstance(cols, slice):
        return a[r, cols]
    return a[r][:, cols]


def _rows_any(a: B, axis: int = 1) -> B:
    """``a.any(axis)``, fast along the last axis."""
    if axis == a.ndim - 1:
        return G.any_last(a)
    return np.asarray(np.logical_or.reduce(a, axis=axis), dtype=bool)


def _sub(k: I, *arrays: NDArray[Any]) -> tuple[NDArray[Any], ...]:
    """The entries ``k`` of each array."""
    return tuple(a[k] for a in arrays)


def _g(a: NDArray[Any], r: I, u: I | int) -> NDArray[Any]:
    """``a[r, u]`` as a flat take (two index arrays cost numpy several times more)."""
    out: NDArray[Any] = np.take(a, r * a.shape[1] + u)
    return out


def _s(a: NDArray[Any], r: I, u: I | int, v: Any) -> None:
    """``a[r, u] = v`` as a flat put."""
    np.put(a, r * a.shape[1] + u, v)


def _scores(dist: F, cover: NDArray[np.floating[Any]], far: B) -> tuple[F, F]:
    """The scripted AI's destination score and its rough-ground version (``_candidates``).

    Score = -(distance to the goal) + 3 in cover - 4 out of the leader's radius; rough
    ground costs 1 more. The operations are the scalar's, in its order.
    """
    score = -dist + cover
    worse = score - ROUGH_PENALTY
    score = score - np.where(far, OUT_OF_RADIUS, 0.0)
    worse = worse - np.where(far, OUT_OF_RADIUS, 0.0)
    return score, worse
