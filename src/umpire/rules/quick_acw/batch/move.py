"""Seed 002 Command and Move in the batch simulator as the scripted AI plays them: each
unit in turn, in every battle at once, charges (``melee``) or makes for its goal."""

from __future__ import annotations

import numpy as np

from umpire.rules.quick_acw.batch import kbases as KB
from umpire.rules.quick_acw.batch import kmove as KM
from umpire.rules.quick_acw.batch import tables as V
from umpire.rules.quick_acw.batch.melee import CHARGE_LOOK, Melee
from umpire.rules.quick_acw.batch.state import B, F, I, _g, _s, _sub


class Move(Melee):
    """The command and move steps."""

    def command_step(self, p: int) -> None:
        """Seed 002 Command: each leader joins his brigade's middle unit (``kmove.leaders``)."""
        st = self.S
        lds = np.flatnonzero(st.l_side == p)
        if len(lds) == 0:
            return
        us = [np.asarray(st.l_units[ld], dtype=np.int64) for ld in lds.tolist()]
        starts = np.r_[0, np.cumsum([len(a) for a in us])].astype(np.int64)
        lead = self.t.r.movement["leader"]
        looked = KM.leaders(
            self.bases(), self.leaders(), lds.astype(np.int64), starts, np.concatenate(us),
            float(lead.open), float(lead.rough), self.bd,
        )  # fmt: skip
        if looked:
            self._refresh_bonus()

    def move_step(self, p: int) -> None:
        """Seed 002 Move (with COMMAND): each unit in turn, as the scalar ``MoveStep``."""
        st = self.S
        side_units = st.by_side[p]
        self.moved[:, side_units] = self.charged[:, side_units] = self.cont_flank[:] = False
        self.cont[:], self.geo = -1, None
        for u in side_units.tolist():
            ld = int(st.uleader[u])
            if ld >= 0:
                dx, dy = self.x[:, u] - self.lx[:, ld], self.y[:, u] - self.ly[:, ld]
                near = KB.hypots(dx, dy) <= st.l_radius[ld] + 1e-9
                self.in_cmd[:, u] = ~self.lalive[:, ld] | near
            else:
                self.in_cmd[:, u] = True
        enemies = st.by_side[1 - p]
        for u in side_units.tolist():
            if self.n == 0:
                return
            self.unit_move(u, p, enemies)

    def unit_move(self, u: int, p: int, E: I) -> None:
        """``ScriptedAI.move`` for unit ``u`` in every battle: a charge, else the advance."""
        st = self.S
        r = np.flatnonzero(self.alive[:, u] & ~self.marker[:, u])  # a unit with a MM holds
        if len(r) == 0:
            return
        bs = self.bases()
        has, enx, eny, dist_en, face = KM.nearest(bs, r, u, E, KM.FORM_LINE_WITHIN, KM.MOUNT_BEYOND)
        if not has.all():
            r, enx, eny, dist_en, face = _sub(np.flatnonzero(has), r, enx, eny, dist_en, face)
            if len(r) == 0:
                return
        ux, uy = _g(self.x, r, u), _g(self.y, r, u)
        uu = np.full(len(r), u)
        if st.utype[u] == V.ART:  # unlimber facing the enemy, or turn to face him
            chg = np.where(_g(self.limbered, r, u), V.FORMATION, V.NO_CHANGE)
            lim = np.zeros(len(r), dtype=bool)
            form, mounted = _g(self.form, r, u), _g(self.mounted, r, u)
            ok = self.move_ok(r, uu, ux, uy, face, form, mounted, lim, chg, lim)
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
        self, r: I, u: I, x: F, y: F, th: F, form: I, mounted: B, limbered: B, chg: I, rough: B
    ) -> B:
        """``steps.move_ok`` (``kmove.holds``; one unit); ``rough``: rough ground on the way."""
        if len(r) == 0:
            return np.zeros(0, dtype=bool)
        uu = int(u[0])
        out: B = KM.holds(
            self.bases(), self.units(), r, uu, int(self.S.utype[uu]),
            np.asarray(x, dtype=float), np.asarray(y, dtype=float), np.asarray(th, dtype=float),
            np.asarray(form, dtype=np.int64), np.asarray(mounted, dtype=bool),
            np.asarray(limbered, dtype=bool), np.asarray(chg, dtype=np.int64),
            np.asarray(rough, dtype=bool), self.S.side, self.bd, self.mv,
        )  # fmt: skip
        return out

    def do_move(
        self, r: I, u: I, x: F, y: F, th: F, form: I, mounted: B, limbered: B, chg: I
    ) -> None:
        """``MoveStep.apply`` of a legal move: formation, base, position, moved."""
        if len(r) == 0:
            return
        _s(self.form, r, u, form)
        _s(self.mounted, r, u, mounted)
        _s(self.limbered, r, u, limbered)
        self.place(r, u, x, y, th, np.asarray(chg, dtype=np.int64))
        changed = np.flatnonzero(chg != V.NO_CHANGE)  # only a change of formation resizes
        if len(changed):
            self._resize(r[changed], u[changed])

    def advance(
        self, r: I, u: int, p: int, ux: F, uy: F, enx: F, eny: F, dist_en: F, face: F
    ) -> None:
        """``ScriptedAI.move`` without a charge: plan, search, else hold in place (with the
        formation change, then without)."""
        st = self.S
        m = len(r)
        bs, ut = self.bases(), int(st.utype[u])
        plan = KM.Advance(
            *KM.advance_plan(
                bs, self.units(), r, u, ut, enx, eny, dist_en, face, bool(st.defend[p]),
                np.ascontiguousarray(st.obj, dtype=float), self.mv,
            )
        )  # fmt: skip
        form, mounted, lim = _g(self.form, r, u), _g(self.mounted, r, u), _g(self.limbered, r, u)
        left = np.ones(m, dtype=bool)  # no legal destination found yet
        go = np.flatnonzero(plan.want > 1e-6)  # at the goal: only the places where it stands
        if len(go):
            lead = int(st.uleader[u])
            lrad = float(st.l_radius[lead]) if lead >= 0 else 0.0
            pick, xa, ya = KM.destinations(
                bs, self.leaders(), r, u, go, plan, lead, lrad, st.side, self.bd,
                self.mv.contact,
            )  # fmt: skip
            k = np.flatnonzero(pick >= 0)
            g = go[k]
            uu = np.full(len(k), u)
            fj, mj = plan.fj[g], plan.mj[g]
            self.do_move(r[g], uu, xa[k], ya[k], face[g], fj, mj, lim[g], plan.chg[g])
            left[g] = False
        # at its goal, facing as it faces, no change: holding is all it can do (no change)
        left &= ~((plan.want <= 1e-6) & (plan.chg == V.NO_CHANGE) & (face == _g(self.th, r, u)))
        uu, no = np.full(m, u), np.zeros(m, dtype=bool)
        for cj in (plan.chg, np.zeros(m, dtype=np.int64)):
            a = np.flatnonzero(left)
            if len(a) == 0:
                return
            c = cj[a]
            fa = np.where(c == V.FORMATION, plan.form2[a], form[a])
            ma = np.where(c == V.MOUNT, plan.mounted2[a], mounted[a])
            ok = self.move_ok(r[a], uu[a], ux[a], uy[a], face[a], fa, ma, lim[a], c, no[a])
            g = a[ok]
            self.do_move(r[g], uu[g], ux[g], uy[g], face[g], fa[ok], ma[ok], lim[g], c[ok])
            left[g] = False
