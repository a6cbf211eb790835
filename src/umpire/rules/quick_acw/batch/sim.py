"""The batch simulator: N battles of one scenario in lock step, AI against AI.

The state is numpy arrays of shape (battles, units) (positions, facings, stands,
markers, formations, ...) and (battles, leaders). The sequence is the scalar engine's
(seed 002 TURN ORDER: the Confederate player goes through command, move, rally,
defensive fire, offensive fire and melee, then the Union player), and within a step
the actors act one after another in the scalar engine's order, each step of the loop
answering every battle at once. The AI is the scalar ``ScriptedAI`` heuristic and the
rules are the scalar rules, both repeated by numba kernels (``kmove``, ``kfire``) battle
by battle; with the scalar engine's own dice a battle here ends exactly as it does there
(``tests/test_lab_agreement.py``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from umpire.dice.bulk import Dice
from umpire.rules.quick_acw.ai import CHARGE_THRESHOLD
from umpire.rules.quick_acw.batch import kfire as KF
from umpire.rules.quick_acw.batch import kmove as K
from umpire.rules.quick_acw.batch import tables as V
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
        self.r32 = np.zeros((n, u), dtype=np.float32)
        self._resize(np.repeat(np.arange(n), u), np.tile(np.arange(u), n))
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
        # terrain sight per firing side (``kfire.pick``): by battle number, firer, target
        # (kept by battle number, so dropping finished battles does not copy it)
        ns = self.los_n = max(len(st.by_side[0]), len(st.by_side[1]))
        self.n0 = n
        self.los = (np.full(n * ns * ns, -1, np.int64), np.full(n * ns * ns, -1, np.int64))
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
        t = self.t
        K.resize(
            r, u, self.S.utype, self.form, self.stands, t.base_w, t.base_d,
            self.hw, self.hd, self.rad, self.r32,
        )  # fmt: skip

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

    def place(self, r: I, u: I, x: F, y: F, th: F) -> None:
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
        att = self.latt[r] == u[:, None]
        if att.any():
            ri, li = np.nonzero(att)
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
        att = self.lalive[r] & (self.latt[r] == u[:, None])
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
        dx = self.x[r] - _g(self.x, r, u)[:, None]
        dy = self.y[r] - _g(self.y, r, u)[:, None]
        lim = self.rad[r] + (self.t.geometry["contact"] + SLACK) + _g(self.rad, r, u)[:, None]
        near = opp & self.alive[r] & (dx * dx + dy * dy <= lim * lim)
        pi, pv = np.nonzero(near)
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
        dx, dy = _g(self.x, rr, v) - ux, _g(self.y, rr, v) - uy
        fwd, lat = dx * c + dy * s, -dx * s + dy * c
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
            ri, li = np.nonzero(order == k)
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
    def touching(self, r: I, a: I, b: I) -> B:
        """Do the bases of units ``a`` and ``b`` touch (the scalar contact lists)?"""
        tol = float(self.t.geometry["contact"])
        out: B = KF.touching(r, a, b, self._kgeo(), self.alive, tol)
        return out

    def slide(self, r: I, u: I, dx: F, dy: F, dist: F, th: F) -> B:
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
        self.place(r[g], u[g], bx[g], by[g], bth[g])
        return ok

    def path_clear(self, r: I, u: I, dx: F, dy: F, dist: F, th: F) -> B:
        """``steps.charge_path`` (default ``charge_path_clear``): is every step of
        :meth:`slide`'s walk on the table and clear of every other base? Nothing moves."""
        m = len(r)
        if m == 0:
            return np.ones(0, dtype=bool)
        T = self.T
        out: B = K.clear_paths(
            r, u, dx, dy, dist, np.cos(th), np.sin(th),
            float(self.t.geometry["retreat_step"]),
            self.x, self.y, self.c, self.s, self.hw, self.hd,
            self.x32, self.y32, self.r32, self.alive, float(T.width), float(T.height),
        )  # fmt: skip
        return out

    def move_away(self, r: I, u: I, frm: I, dist: F) -> None:
        """Retreat ``dist`` directly away from ``frm``, keeping facing; off the table: removed."""
        dx = _g(self.x, r, u) - _g(self.x, r, frm)
        dy = _g(self.y, r, u) - _g(self.y, r, frm)
        n = K.hypots(dx, dy)
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
        over: B = np.any(broken, axis=1)
        if over.any():
            winner = np.where(broken.all(1), 2, np.where(broken[:, 0], 1, 0))
            self._finish(over, winner)

    def final(self) -> None:
        """Default ``victory``: at the turn limit the objectives held decide."""
        pts = np.zeros((self.n, 2), dtype=np.int64)
        for (ox, oy, orad), p in zip(self.S.obj.tolist(), self.S.obj_points.tolist(), strict=True):
            d = K.hypots((self.x - ox).ravel(), (self.y - oy).ravel()).reshape(self.x.shape)
            near = self.alive & (d <= orad)
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
                near = K.hypots(dx, dy) <= st.l_radius[ld] + 1e-9
                self.in_cmd[:, u] = ~self.lalive[:, ld] | near
            else:
                self.in_cmd[:, u] = True
        enemies = st.by_side[1 - p]
        for u in side_units.tolist():
            if self.n == 0:
                return
            self.unit_move(u, p, enemies)

    def unit_move(self, u: int, p: int, E: I) -> None:
        """:meth:`unit_move` on the compiled kernels: the nearest enemy (``kmove.nearest``)
        and the charges (:meth:`charges`); the same orders, carried out the same way."""
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
            self.do_move(r[g], uu[g], ux[g], uy[g], face[g], form[g], mounted[g], lim[g], chg[g])
            return
        # no enemy within the charge look, none to charge (the nearest is within a hair)
        look = np.flatnonzero(dist_en <= CHARGE_LOOK + 1e-6)
        charged = np.zeros(len(r), dtype=bool)
        if len(look):
            charged[look] = self.charges(r[look], u, E)
        if charged.any():
            keep = np.flatnonzero(~charged)
            r, ux, uy, enx, eny, dist_en, face = _sub(keep, r, ux, uy, enx, eny, dist_en, face)
            if len(r) == 0:
                return
        self.advance(r, u, p, ux, uy, enx, eny, dist_en, face)

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

    def do_move(
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
            self.do_move(
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
            self.do_move(r[g], uu[g], ux[g], uy[g], face[g], fa[ok], ma[ok], lim[g], c[ok])
            left[g] = False

    # -- charges ----------------------------------------------------------------------------
    def charges(self, r: I, u: int, E: I) -> B:
        """``ScriptedAI.move``'s charges: the best legal charge with exact odds over 1/2
        (``kmove.charge_reach``, ``charge_odds``, ``charge_paths``, ``frees``). Returns the
        battles where unit ``u`` charged (the charge is carried out)."""
        t = self.t
        T = self.T
        out = np.zeros(len(r), dtype=bool)
        open0, rough_allow = K.allowances(
            r, u, int(self.S.utype[u]), self.form, self.mounted, self.limbered, self.in_cmd,
            self.lost_ldr, t.move_open, t.move_rough, self._costs(),
        )  # fmt: skip
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
        prob = self.charge_chance(rr, u, tu, flank)
        k = np.flatnonzero(prob > CHARGE_THRESHOLD)
        if len(k) == 0:
            return out
        pq, rr, tu, cx, cy, nx, ny, flank, prob = _sub(k, pq, rr, tu, cx, cy, nx, ny, flank, prob)
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

    def _costs(self) -> F:
        """The movement costs as the kernels read them: command, leader, formation, mount."""
        t = self.t
        return np.array([t.cost_command, t.cost_leader, t.cost_formation, t.cost_mount])

    def _melee_args(self) -> tuple[Any, ...]:
        """What ``kmove.melee_mod`` reads after the pair: positions, the units' state, the
        sides, types, modifiers and the board's hills and walls and streams."""
        st, tb, T = self.S, self.t, self.T
        m = tb.melee_mods
        names = (
            "mounted_cavalry_attacking", "defending_wall_or_stream", "infantry_column",
            "uphill", "confederates_attacking", "marker",
        )  # fmt: skip
        return (
            self.x, self.y, (self.bonus, self.marker, self.mounted, self.form, self.stands),
            st.side, st.utype, np.array([m[k] for k in names], dtype=np.int64),
            tb.sides.index("confederate"),
            (T.level, float(T.cell), int(T.nx), int(T.ny), T.obstacles),
        )  # fmt: skip

    def charge_chance(self, r: I, u: int, t: I, flank: B) -> F:
        """``scripted.charge_chance``: exact P(the charge drives the enemy off)
        (``kmove.charge_odds``)."""
        tb = self.t
        x, y, units, side, utype, mods, conf, board = self._melee_args()
        out: F = K.charge_odds(
            r, u, t, flank, x, y, units, side, utype, tb.morale, int(tb.morale_marker), mods,
            conf, board, V.charge_table(), V.CH_LO, V.CH_HI, V.CH_DIFF,
        )  # fmt: skip
        return out

    def morale_pass(self, r: I, u: I) -> B:
        """Seed 002 MORALE: 2d6 + attached leader bonus - 1 with a MM >= the side's number."""
        number = self.t.morale[self.S.side[u]]
        mod = _g(self.bonus, r, u) + np.where(_g(self.marker, r, u), self.t.morale_marker, 0)
        faces = self.dice.roll(self.ids[r], 2)
        out: B = faces.sum(1) + mod >= number
        return out

    def do_charge(self, r: I, u: int, tg: I, cx: F, cy: F, cth: F, flank: B, cdist: F) -> None:
        """Seed 002 charge paragraph (``steps.do_charge``), battles in parallel."""
        m = len(r)
        uu = np.full(m, u)
        slide, move_away = self.slide, self.move_away
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
        contact: B = np.any(adj, axis=1)
        stands0 = st.stands0[TU][None, :]
        # the AI's value of each shot: exact expected stands (made per firer from the
        # need and modifier kept current), times 1.5 if one more stand lost removes the
        # target (kept current as targets lose stands or leave)
        alive_t = self.alive[:, ts].copy()
        bonus = np.where(V.is_removed(self.t, self.stands[:, ts] - 1, stands0), FINISH_BONUS, 1.0)
        es = KF.es_table(self.t.r)
        geo = self._kgeo()
        sight = KF.terrain_args(self.T)[2:]
        for kk in range(len(FU)):  # the target each firer picks (kfire.pick)
            r, pick = KF.pick(
                kk, FU, TU, actor, need, mod, los, alive_t, bonus, es, V.ES_LO, self.ids,
                st.local, self.los_n, self.n0, geo, self.x32, self.y32, self.r32, self.alive,
                self.ver, self.los[f], sight,
            )  # fmt: skip
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
                contact[d] = adj[d].any(1)
                alive_t[d] = self.alive[d][:, ts]
            again = np.flatnonzero(~dirty & alive_t[r, pick])
            if len(again):
                ra, pa = r[again], pick[again]
                self._reband(ra, pa, f, fc, need, mod, kk + 1)

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
        if self.geo is None:
            self.geo = self.contacts(np.arange(self.n), s0, s1)
        else:
            adj = self.geo[1]
            if adj.any():
                pi, pa, pb = np.nonzero(adj)
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
        if geo is None:
            geo = self.contacts(r, FU, TU)
        need, mod, los = KF.fire_matrix(
            r, FU, TU, fc, actor, geo[0], geo[1], self._kgeo(), self.r32, self.alive,
            *self._kshot(),
        )  # fmt: skip
        return need, mod, los, geo[1]

    def contacts(self, r: I, A: I, Bu: I) -> tuple[NDArray[np.float32], B]:
        """(squared centre distances in single precision, contacts) of units ``A`` by
        ``Bu`` in battles ``r`` (``kfire.contacts``)."""
        out: tuple[NDArray[np.float32], B] = KF.contacts(
            r, A, Bu, self.x32, self.y32, self.r32, self.alive,
            float(self.t.geometry["contact"]), self._kgeo(),
        )  # fmt: skip
        return out

    def _reband(self, r: I, tcol: I, f: int, fc: I, need: I8, mod: I8, after: int) -> None:
        """Measure again the shots of the firers still to come at targets whose bases shrank."""
        FU = self.S.by_side[f]
        TU = self.S.by_side[1 - f]
        KF.reband(r, tcol, after, FU, TU, fc, need, mod, self._kgeo(), *self._kshot())

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
        adj = self.touch if self.touch is not None else self.contacts(np.arange(n), SU, EU)[1]
        self.touch = None
        self.geo = None  # melee retreats move bases
        cont = self.cont[:, SU]
        charged = cont >= 0
        if adj.any():  # contacts found at the offensive fire: bases only shrank or left since
            pi, pa, pb = np.nonzero(adj)
            adj = adj.copy()
            adj[pi, pa, pb] = self.touching(pi, SU[pa], EU[pb])
            # a charge's own pair is not fought twice
            ci, cu = np.nonzero(charged)
            ce = np.searchsorted(EU, cont[ci, cu])
            adj[ci, cu, ce] = False
        self.cont[:] = -1
        ci, cu = np.nonzero(charged)
        ti, tu, te = np.nonzero(adj)
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
        ma = K.melee_mods(r, a, d, charged, flank, *self._melee_args())
        md = K.melee_mods(r, d, a, no, no, *self._melee_args())
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
