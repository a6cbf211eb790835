"""Seed 002 charges, morale and melee in the batch simulator: the scripted AI's charges
(exact odds over 1/2), ``steps.do_charge`` and the melee step (``steps.resolve_melee``)."""

from __future__ import annotations

import numpy as np

from umpire.rules.quick_acw.ai import CHARGE_THRESHOLD
from umpire.rules.quick_acw.batch import kbases as KB
from umpire.rules.quick_acw.batch import kcharge as KC
from umpire.rules.quick_acw.batch import kmove as KM
from umpire.rules.quick_acw.batch import tables as V
from umpire.rules.quick_acw.batch.arrays import Poses
from umpire.rules.quick_acw.batch.state import B, F, I, State, _g, _nz, _s, _sub

CHARGE_LOOK = 20.0  # the scripted AI looks at charges within 20"


class Melee(State):
    """Charges, morale and melee."""

    def charges(self, r: I, u: int, E: I) -> B:
        """``ScriptedAI.move``'s charges: the best legal charge with odds over 1/2, carried
        out; True where unit ``u`` charged."""
        out = np.zeros(len(r), dtype=bool)
        bs = self.bases()
        open0, rough = KM.allowances(self.units(), r, u, int(self.S.utype[u]), self.ru)
        pq, pe, cx, cy, cth, flank = KC.charge_reach(bs, r, u, E, open0, CHARGE_LOOK)
        if len(pq) == 0:
            return out
        rr, tu = r[pq], E[pe]
        prob = self.charge_chance(rr, u, tu, flank)
        k = np.flatnonzero(prob > CHARGE_THRESHOLD)
        if len(k) == 0:
            return out
        pq, rr, tu, cx, cy, cth, flank, prob = _sub(k, pq, rr, tu, cx, cy, cth, flank, prob)
        sx, sy = _g(self.x, rr, u), _g(self.y, rr, u)
        cdist, legal = KC.charge_paths(sx, sy, cx, cy, open0[pq], rough[pq], self.sc)
        j = np.flatnonzero(legal)
        if len(j):  # room at the contact point, the target ignored
            at = Poses(rr[j], np.full(len(j), u), cx[j], cy[j], cth[j])
            legal[j] = KB.frees(bs, at, tu[j], self.sc)
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
        f = order[np.r_[True, pi[order][1:] != pi[order][:-1]]]
        out[pi[f]] = True
        self.do_charge(rr[f], u, tu[f], cx[f], cy[f], cth[f], flank[f], cdist[f])
        return out

    def _charge_path_clear(self, r: I, u: int, cx: F, cy: F, cdist: F, cth: F) -> B:
        """``steps.charge_path`` (default ``charge_path_clear``): is the way clear, walked as
        :meth:`do_charge` slides it?"""
        dd = np.where(cdist == 0, 1.0, cdist)
        dx, dy = (cx - _g(self.x, r, u)) / dd, (cy - _g(self.y, r, u)) / dd
        uu = np.full(len(r), u)
        out: B = KB.slides(self.bases(), r, uu, dx, dy, cdist, cth, self.sc)[4]
        return out

    def charge_chance(self, r: I, u: int, t: I, flank: B) -> F:
        """``scripted.charge_chance``: exact P(the charge drives the enemy off)."""
        out: F = KC.charge_odds(self.bases(), self.units(), self.sc, r, u, t, flank)
        return out

    def morale_pass(self, r: I, u: I) -> B:
        """Seed 002 MORALE: 2d6 + attached leader bonus - 1 with a MM >= the side's number."""
        number = self.t.morale[self.S.side[u]]
        mod = _g(self.bonus, r, u) + np.where(_g(self.marker, r, u), self.t.r.morale_marker, 0)
        out: B = self.dice.roll(self.ids[r], 2).sum(1) + mod >= number
        return out

    def do_charge(self, r: I, u: int, tg: I, cx: F, cy: F, cth: F, flank: B, cdist: F) -> None:
        """Seed 002 charge paragraph (``steps.do_charge``), battles in parallel."""
        uu = np.full(len(r), u)
        _s(self.moved, r, u, True)
        _s(self.charged, r, u, True)
        dd = np.where(cdist == 0, 1.0, cdist)
        dx, dy = (cx - _g(self.x, r, u)) / dd, (cy - _g(self.y, r, u)) / dd
        passed = self.morale_pass(r, uu)
        f = np.flatnonzero(~passed)  # failed: half the distance and a MM
        if len(f):
            far = cdist[f] * self.t.r.failed_charge_fraction
            ok = self.slide(r[f], uu[f], dx[f], dy[f], far, cth[f])
            self.remove(r[f[~ok]], uu[f[~ok]])
            self.add_marker(r[f[ok]], uu[f[ok]])
        g = np.flatnonzero(passed)
        if len(g) == 0:
            return
        stands = self.morale_pass(r[g], tg[g])
        run = g[~stands]  # the target retreats 2D6" (3D6" mounted cavalry) and takes a MM
        if len(run):
            inches = self.retreat_inches(r[run], tg[run])
            self.move_away(r[run], tg[run], uu[run], inches)
            self.add_marker(r[run], tg[run])
        for h in (run, g[stands]):  # a target whose way back was blocked: the charge goes in
            if len(h):
                ok = self.slide(r[h], uu[h], dx[h], dy[h], cdist[h], cth[h])
                if h is run:
                    self.remove(r[h[~ok]], uu[h[~ok]])
                h = h[ok]
                c = h[self.touching(r[h], uu[h], tg[h])]
                self.cont[r[c], u] = tg[c]
                self.cont_flank[r[c], u] = flank[c]

    def melee_step(self, p: int) -> None:
        """Seed 002 Melee: "any enemy units touching now fight" (default ``melee_pairs``): the
        charges, then other pairs in the scalar order; round k fights each battle's k-th."""
        st = self.S
        SU, EU = st.by_side[p], st.by_side[1 - p]
        n, ns, ne = self.n, len(SU), len(EU)
        adj = self.touch if self.touch is not None else self.contacts(np.arange(n), SU, EU)[1]
        self.touch = None
        self.geo = None  # melee retreats move bases
        cont = self.cont[:, SU]
        charged = cont >= 0
        if adj.any():  # contacts found at the offensive fire: bases only shrank or left since
            pi, pa, pb = _nz(adj)
            adj = adj.copy()
            adj[pi, pa, pb] = self.touching(pi, SU[pa], EU[pb])
            # a charge's own pair is not fought twice
            ci, cu = _nz(charged)
            adj[ci, cu, np.searchsorted(EU, cont[ci, cu])] = False
        self.cont[:] = -1
        ci, cu = _nz(charged)
        ti, tu, te = _nz(adj)
        if len(ci) + len(ti) == 0:
            self.cont_flank[:] = False
            return
        row = np.concatenate([ci, ti])
        a = np.concatenate([SU[cu], SU[tu]])
        d = np.concatenate([cont[ci, cu], EU[te]])
        chg = np.concatenate([np.ones(len(ci), dtype=bool), np.zeros(len(ti), dtype=bool)])
        fl = np.concatenate([self.cont_flank[ci, SU[cu]], np.zeros(len(ti), dtype=bool)])
        self.cont_flank[:] = False
        order = np.lexsort((np.concatenate([cu, ns + tu * ne + te]), row))
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
        args = (self.bases(), self.units(), self.sc)
        sa = self.dice.roll(self.ids[r], 2).sum(1) + KC.melee_mods(*args, r, a, d, charged, flank)
        sd = self.dice.roll(self.ids[r], 2).sum(1) + KC.melee_mods(*args, r, d, a, no, no)
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
