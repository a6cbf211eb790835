"""The state of N battles of one scenario in lock step (arrays (battles, units), a row
dropped when its battle ends) and what every step does to it: moves, losses, contacts."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from umpire.board.kboard import board_of
from umpire.dice.bulk import Dice
from umpire.rules.quick_acw.batch import arrays as A
from umpire.rules.quick_acw.batch import kbases as KB
from umpire.rules.quick_acw.batch import kfire as KF
from umpire.rules.quick_acw.batch import tables as V
from umpire.rules.quick_acw.batch.static import Static

I = NDArray[np.int64]  # noqa: E741
F = NDArray[np.float64]
B = NDArray[np.bool_]

SLACK = KB.SLACK
NO_CHANGE = np.zeros(0, dtype=np.int64)  # ``place``: not a move (no formation changes)


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


class State:
    """The state of N battles and what the steps do to it."""

    def __init__(
        self, st: Static, n: int, dice: Dice, on_finish: Callable[[int], None] | None = None
    ):
        self.S, self.t, self.T, self.dice, self.on_finish = st, st.t, st.terrain, dice, on_finish
        self.bd, self.ru = board_of(st.terrain), A.rules_of(st.t)
        self.sc = A.Scene(st.side, st.utype, st.local, st.uleader, st.l_radius, self.bd, self.ru)
        u = self.U = st.n_units
        self.ids = np.arange(n)

        units, leaders = st.start.units, st.start.leaders

        def tile(a: Any) -> NDArray[Any]:  # per unit or leader -> per battle too
            return np.tile(np.array(a), (n, 1))

        self.x: F = tile([v.x for v in units]).astype(float)
        self.y: F = tile([v.y for v in units]).astype(float)
        self.th: F = tile([v.theta for v in units]).astype(float)
        self.c: F
        self.s: F
        self.c, self.s = np.cos(self.th), np.sin(self.th)
        self.form: NDArray[Any] = tile([V.FORMS.index(v.formation) for v in units]).astype(np.int8)
        self.mounted: B = tile([v.mounted for v in units]).astype(bool)
        self.limbered: B = tile([v.limbered for v in units]).astype(bool)
        self.stands: NDArray[Any] = tile(st.stands0).astype(np.int16)
        self.alive: B = np.ones((n, u), dtype=bool)
        self.in_cmd: B = np.ones((n, u), dtype=bool)
        self.marker, self.moved, self.charged, self.lost_ldr = np.zeros((4, n, u), dtype=bool)
        self.hw, self.hd, self.rad = np.zeros((3, n, u))
        self.r32 = np.zeros((n, u), dtype=np.float32)
        self.ver: NDArray[Any] = np.zeros((n, u), dtype=np.int32)  # bumped when a unit moves
        self.bonus: NDArray[Any] = np.zeros((n, u), dtype=np.int8)
        self.lx: F = tile([ld.x for ld in leaders]).astype(float)
        self.ly: F = tile([ld.y for ld in leaders]).astype(float)
        self.latt: NDArray[Any] = tile([ld.attached for ld in leaders]).astype(np.int16)
        self.lalive: B = np.ones((n, st.n_leaders), dtype=bool)
        self._refresh_bonus()
        self.losses: I = np.zeros((n, 2), dtype=np.int64)
        self.cont: NDArray[Any] = np.full((n, u), -1, dtype=np.int16)
        self.cont_flank: B = np.zeros((n, u), dtype=bool)
        self.x32, self.y32 = self.x.astype(np.float32), self.y.astype(np.float32)
        self._resize(np.repeat(np.arange(n), u), np.tile(np.arange(u), n))
        # terrain sight per firing side (``kfire.pick``), by battle number (never dropped)
        ns = self.los_n = max(len(st.by_side[0]), len(st.by_side[1]))
        self.n0 = n
        self.los = (np.full(n * ns * ns, -1, np.int64), np.full(n * ns * ns, -1, np.int64))
        self.turn = 1
        self._first = 0  # the player whose sequence is running
        self.touch: B | None = None  # contacts found at his offensive fire
        # centre distances and contacts between the sides, kept until the next movement
        self.geo: tuple[NDArray[np.float32], B] | None = None
        self.res_winner = np.full(n, -1, dtype=np.int64)
        self.res_turns = np.zeros(n, dtype=np.int64)
        self.res_losses, self.res_removed, self.res_leaders = np.zeros((3, n, 2), dtype=np.int64)

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

    def bases(self) -> A.Bases:
        """The bases as the kernels take them."""
        return A.Bases(
            self.x, self.y, self.th, self.c, self.s, self.hw, self.hd, self.rad, self.x32,
            self.y32, self.r32, self.alive, self.ver,
        )  # fmt: skip

    def units(self) -> A.Units:
        """The units' state but their bases, as the kernels take it."""
        return A.Units(
            self.form, self.mounted, self.limbered, self.stands, self.marker, self.moved,
            self.in_cmd, self.lost_ldr, self.bonus,
        )  # fmt: skip

    def leaders(self) -> A.Leaders:
        """The leaders as the kernels take them."""
        return A.Leaders(self.lx, self.ly, self.latt, self.lalive)

    def _resize(self, r: I, u: I) -> None:
        """Bases from type, formation and stands (default ``stand_sizes``)."""
        KB.resize(self.bases(), self.units(), r, u, self.S.utype, self.ru)

    def _refresh_bonus(self, r: I | None = None) -> None:
        """Each unit's attached-leader bonus (the first living leader attached; 0 none)."""
        if r is None:
            r = np.arange(self.n)
        r = np.unique(r)
        self.bonus[r] = 0
        for ld in range(self.S.n_leaders - 1, -1, -1):
            rows = r[self.lalive[r, ld] & (self.latt[r, ld] >= 0)]
            _s(self.bonus, rows, _g(self.latt, rows, ld), self.S.l_bonus[ld])

    def place(self, r: I, u: I, x: F, y: F, th: F, chg: I = NO_CHANGE) -> None:
        """Move bases and their attached leaders; ``chg``: a move's formation changes."""
        KB.places(self.bases(), self.leaders(), self.units(), A.Poses(r, u, x, y, th), chg)

    def remove(self, r: I, u: I) -> None:
        """Take units off the table (default ``leader_detached_when_unit_removed``)."""
        if len(r) == 0:
            return
        _s(self.alive, r, u, False)
        _s(self.marker, r, u, False)
        att = self.latt[r] == u[:, None]
        if att.any():
            ri, li = _nz(att)
            self.latt[r[ri], li] = -1
            self._refresh_bonus(r[ri])

    def add_marker(self, r: I, u: I) -> None:
        """Seed 002: MM are not cumulative, one per unit (living units only)."""
        _s(self.marker, r, u, _g(self.marker, r, u) | _g(self.alive, r, u))

    def lose_stands(self, r: I, u: I, n: I, near: B | None = None) -> None:
        """Seed 002: lose stands, leaders lost on 5-6, removal below half, contact kept; each
        battle once a call. ``near``: where a unit may touch an enemy (None: anywhere)."""
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
        gone = V.N.is_removed(_g(self.stands, r, u), self.S.stands0[u], self.t.r.removal_fraction)
        self.remove(r[gone], u[gone])
        if len(ti):
            self._keep_contact(r, u, ti, tv, hw, hd)

    def _touching_any(self, r: I, u: I) -> tuple[I, I]:
        """The enemies each unit ``u`` touches: pairs (row, enemy) in the scalar's order."""
        st = self.S
        opp = st.side[None, :] != st.side[u][:, None]
        dx = self.x[r] - _g(self.x, r, u)[:, None]
        dy = self.y[r] - _g(self.y, r, u)[:, None]
        lim = self.rad[r] + (self.ru.contact + SLACK) + _g(self.rad, r, u)[:, None]
        near = opp & self.alive[r] & (dx * dx + dy * dy <= lim * lim)
        pi, pv = _nz(near)
        if len(pi):
            keep = self.touching(r[pi], u[pi], pv)
            pi, pv = pi[keep], pv[keep]
        return pi, pv

    def _keep_contact(self, r: I, u: I, ti: I, tv: I, hw: F, hd: F) -> None:
        """``steps.keep_contact``: a unit parted by its loss moves toward the first enemy it
        touched by the shrink (default ``contact_kept_when_stands_lost``)."""
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
        sgn = np.where(np.where(col, fwd, lat) > 0, 1.0, -1.0)
        kk = np.where(col, hd[q] - nhd, hw[q] - nhw) * sgn
        x = np.where(col, ux + c * kk, ux - s * kk)
        y = np.where(col, uy + s * kk, uy + c * kk)
        self.place(rr, uu, x, y, _g(self.th, rr, uu))
        self.geo = None  # a base moved: the pair geometry is made afresh

    def _leader_rolls(self, r: I, att: B) -> None:
        """Seed 002 LEADERS: one 1d6 per attached leader, in leader order per battle."""
        order = np.cumsum(att, axis=1) * att  # 1 = the first leader attached, ...
        lost_rows: list[I] = []
        for k in range(1, int(order.max()) + 1):
            ri, li = _nz(order == k)
            face = self.dice.roll(self.ids[r[ri]], 1)[:, 0]
            lost = V.N.leader_lost(face, self.t.r.leader_loss_on)
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

    # -- contacts, slides, retreats ------------------------------------------------------
    def touching(self, r: I, a: I, b: I) -> B:
        """Do the bases of units ``a`` and ``b`` touch (the scalar contact lists)?"""
        out: B = KB.touching(self.bases(), r, a, b, self.ru.contact)
        return out

    def contacts(self, r: I, A: I, Bu: I) -> tuple[NDArray[np.float32], B]:
        """``kfire.contacts`` of units ``A`` by ``Bu`` in battles ``r``."""
        out: tuple[NDArray[np.float32], B] = KF.contacts(self.bases(), r, A, Bu, self.ru.contact)
        return out

    def slide(self, r: I, u: I, dx: F, dy: F, dist: F, th: F) -> B:
        """``Battle.slide`` (default ``blocked_retreat_stops``); False: off the table."""
        if len(r) == 0:
            return np.ones(0, dtype=bool)
        ok, bx, by, bth, _ = KB.slides(self.bases(), r, u, dx, dy, dist, th, self.sc)
        g = np.flatnonzero(ok)
        self.place(r[g], u[g], bx[g], by[g], bth[g])
        return ok

    def move_away(self, r: I, u: I, frm: I, dist: F) -> None:
        """Retreat ``dist`` directly away from ``frm``, keeping facing; off the table: removed."""
        dx = _g(self.x, r, u) - _g(self.x, r, frm)
        dy = _g(self.y, r, u) - _g(self.y, r, frm)
        n = KB.hypots(dx, dy)
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

    def outcome(self) -> Outcome:
        """Every battle's result (call after :meth:`run`)."""
        return Outcome(
            self.res_winner, self.res_turns, self.res_losses, self.res_removed, self.dice.drawn,
            self.dice.faces(), self.res_leaders, self.dice.counts(),
        )  # fmt: skip


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


def _nz(mask: B) -> tuple[I, ...]:
    """``np.nonzero`` through ``flatnonzero`` (faster on the mostly empty contact masks)."""
    if not mask.any():
        return tuple(np.zeros(0, dtype=np.int64) for _ in mask.shape)
    out: tuple[I, ...] = np.unravel_index(np.flatnonzero(mask), mask.shape)
    return out
