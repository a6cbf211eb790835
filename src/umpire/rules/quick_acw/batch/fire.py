"""Seed 002 Defensive and Offensive Fire in the batch simulator, as ``FireStep`` plays it
with the scripted AI's target: candidates once, sight only for the pick (``kfire``)."""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from umpire.rules.quick_acw.batch import kfire as KF
from umpire.rules.quick_acw.batch import tables as V
from umpire.rules.quick_acw.batch.state import B, I, State, _g, _nz

I8 = NDArray[np.int8]
FINISH_BONUS = 1.5  # the AI's value of a shot that may finish a unit off


class Fire(State):
    """The fire steps."""

    def fire_step(self, f: int) -> None:
        """Seed 002 Defensive/Offensive Fire of side ``f``: each unit in turn fires at the
        target of highest value it sees (expected stands, times 1.5 if it may finish it)."""
        st = self.S
        FU, TU = st.by_side[f], st.by_side[1 - f]
        fs, ts = st.span[f], st.span[1 - f]
        fc = V.fire_rows(st.utype[FU], self.mounted[:, fs], self.limbered[:, fs])
        actor = self.alive[:, fs] & (fc >= 0)
        d2, adj = self._pair_geometry()
        if f == 1:
            d2, adj = d2.transpose(0, 2, 1), adj.transpose(0, 2, 1)
        need, mod, los, adj = self.fire_matrix(np.arange(self.n), f, fc, actor, (d2, adj))
        if f == self._first:
            self.touch = adj  # for this player's melee step
        contact: B = np.any(adj, axis=1)
        alive_t = self.alive[:, ts].copy()
        stands0 = st.stands0[TU][None, :]
        gone = V.N.is_removed(self.stands[:, ts] - 1, stands0, self.t.r.removal_fraction)
        bonus = np.where(gone, FINISH_BONUS, 1.0)
        bs, fv, sh = self.bases(), KF.Volley(FU, TU, fc, actor), KF.Shots(need, mod, los)
        seen = KF.Seen(self.ids, self.los_n, self.n0, self.los[f])
        for kk in range(len(FU)):
            r, pick = KF.pick(bs, kk, fv, sh, alive_t, bonus, seen, self.sc)
            if len(r) == 0:
                continue
            tg = TU[pick]
            roll = self.dice.roll(self.ids[r], 2).sum(1)
            margin = self.t.r.two_stand_margin
            lost = V.stands_lost(roll, need[r, kk, pick], mod[r, kk, pick], margin)
            hit = lost > 0
            r, tg, pick, lost = r[hit], tg[hit], pick[hit], lost[hit]
            if len(r) == 0:
                continue
            self.lose_stands(r, tg, lost, contact[r, pick])
            self.add_marker(r, tg)
            alive_t[r, pick] = _g(self.alive, r, tg)
            left = _g(self.stands, r, tg) - 1
            gone = V.N.is_removed(left, st.stands0[tg], self.t.r.removal_fraction)
            bonus[r, pick] = np.where(gone, FINISH_BONUS, 1.0)
            dirty = contact[r, pick]
            if dirty.any():
                d = r[dirty]
                need[d], mod[d], los[d], adj[d] = self.fire_matrix(d, f, fc[d], actor[d])
                contact[d] = adj[d].any(1)
                alive_t[d] = self.alive[d][:, ts]
            again = np.flatnonzero(~dirty & alive_t[r, pick])
            if len(again):
                KF.reband(bs, self.units(), r[again], pick[again], kk + 1, fv, sh, self.sc)

    def _pair_geometry(self) -> tuple[NDArray[np.float32], B]:
        """(squared centre distances, contacts) between the sides, kept from a move step to
        the melee (bases only shrink or leave: only known contacts are looked at again)."""
        s0, s1 = self.S.by_side
        if self.geo is None:
            self.geo = self.contacts(np.arange(self.n), s0, s1)
        else:
            adj = self.geo[1]
            if adj.any():
                pi, pa, pb = _nz(adj)
                adj[pi, pa, pb] = self.touching(pi, s0[pa], s1[pb])
        return self.geo

    def fire_matrix(
        self, r: I, f: int, fc: I, actor: B, geo: tuple[NDArray[np.float32], B] | None = None
    ) -> tuple[I8, I8, I8, B]:
        """``kfire.fire_matrix`` in battles ``r`` and who touches whom; ``geo``: the
        battles' (squared distances, contacts), if known."""
        st = self.S
        FU, TU = st.by_side[f], st.by_side[1 - f]
        if geo is None:
            geo = self.contacts(r, FU, TU)
        v = KF.Volley(FU, TU, fc, actor)
        need, mod, los = KF.fire_matrix(self.bases(), self.units(), r, v, geo[0], geo[1], self.sc)
        return need, mod, los, geo[1]
