"""Seed 002 Command and Move in the batch simulator as the scripted AI plays them: each
unit in turn, in every battle at once, charges (``melee``) or makes for its goal."""

from __future__ import annotations

import numpy as np

from umpire.rules.quick_acw.batch import kbases as KB
from umpire.rules.quick_acw.batch import kmove as KM
from umpire.rules.quick_acw.batch import tables as V
from umpire.rules.quick_acw.batch.arrays import Forms, Poses
from umpire.rules.quick_acw.batch.melee import CHARGE_LOOK, Melee
from umpire.rules.quick_acw.batch.state import B, I, _g, _s, _sub


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
            float(lead.open), float(lead.rough), self.sc,
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
        en = KM.nearest(bs, r, u, E)
        if not en.has.all():
            k = np.flatnonzero(en.has)
            r, en = r[k], KM.Near(*_sub(k, *en))
            if len(r) == 0:
                return
        ux, uy, face = _g(self.x, r, u), _g(self.y, r, u), en.face
        stay = Poses(r, np.full(len(r), u), ux, uy, face)  # where it stands, facing the enemy
        if st.utype[u] == V.ART:  # unlimber facing the enemy, or turn to face him
            chg = np.where(_g(self.limbered, r, u), V.FORMATION, V.NO_CHANGE)
            lim = np.zeros(len(r), dtype=bool)
            fm = Forms(_g(self.form, r, u), _g(self.mounted, r, u), lim, chg, lim)
            g = np.flatnonzero(self.move_ok(stay, fm))
            self.do_move(Poses(*_sub(g, *stay)), Forms(*_sub(g, *fm)))
            return
        # no enemy within the charge look, none to charge (the nearest is within a hair)
        look = np.flatnonzero(en.dist <= CHARGE_LOOK + 1e-6)
        charged = np.zeros(len(r), dtype=bool)
        if len(look):
            charged[look] = self.charges(r[look], u, E)
        if charged.any():
            k = np.flatnonzero(~charged)
            stay, en = Poses(*_sub(k, *stay)), KM.Near(*_sub(k, *en))
            if len(k) == 0:
                return
        self.advance(stay, p, en)

    def move_ok(self, p: Poses, fm: Forms) -> B:
        """``steps.move_ok`` (``kmove.holds``) of moves ``p`` as ``fm``."""
        if len(p.r) == 0:
            return np.zeros(0, dtype=bool)
        out: B = KM.holds(self.bases(), self.units(), p, fm, self.sc)
        return out

    def do_move(self, p: Poses, fm: Forms) -> None:
        """``MoveStep.apply`` of legal moves ``p`` as ``fm``: formation, base, position, moved."""
        r, u = p.r, p.u
        if len(r) == 0:
            return
        _s(self.form, r, u, fm.form)
        _s(self.mounted, r, u, fm.mounted)
        _s(self.limbered, r, u, fm.limbered)
        self.place(r, u, p.x, p.y, p.th, np.asarray(fm.chg, dtype=np.int64))
        changed = np.flatnonzero(fm.chg != V.NO_CHANGE)  # only a change of formation resizes
        if len(changed):
            self._resize(r[changed], u[changed])

    def advance(self, stay: Poses, p: int, en: KM.Near) -> None:
        """``ScriptedAI.move`` without a charge for units standing at ``stay`` (facing the
        nearest enemy ``en``): plan, search, else hold in place (with the formation change,
        then without)."""
        st, r, u = self.S, stay.r, int(stay.u[0])
        m, face = len(r), stay.th
        bs, none = self.bases(), np.zeros((0, 3))
        obj = np.ascontiguousarray(st.obj, dtype=float) if st.defend[p] else none
        plan = KM.advance_plan(bs, self.units(), r, u, en, obj, self.sc)
        form, mounted, lim = _g(self.form, r, u), _g(self.mounted, r, u), _g(self.limbered, r, u)
        left = np.ones(m, dtype=bool)  # no legal destination found yet
        go = np.flatnonzero(plan.want > 1e-6)  # at the goal: only the places where it stands
        if len(go):
            pick, xa, ya = KM.destinations(bs, self.leaders(), r, u, go, plan, self.sc)
            k = np.flatnonzero(pick >= 0)
            g = go[k]
            to = Poses(r[g], stay.u[g], xa[k], ya[k], face[g])
            self.do_move(to, Forms(plan.form2[g], plan.mounted2[g], lim[g], plan.chg[g], lim[g]))
            left[g] = False
        # at its goal, facing as it faces, no change: holding is all it can do (no change)
        left &= ~((plan.want <= 1e-6) & (plan.chg == V.NO_CHANGE) & (face == _g(self.th, r, u)))
        no = np.zeros(m, dtype=bool)
        for cj in (plan.chg, np.zeros(m, dtype=np.int64)):
            a = np.flatnonzero(left)
            if len(a) == 0:
                return
            c = cj[a]
            fa = np.where(c == V.FORMATION, plan.form2[a], form[a])
            ma = np.where(c == V.MOUNT, plan.mounted2[a], mounted[a])
            at, fm = Poses(*_sub(a, *stay)), Forms(fa, ma, lim[a], c, no[a])
            ok = self.move_ok(at, fm)
            g = a[ok]
            self.do_move(Poses(*_sub(g, *stay)), Forms(*_sub(np.flatnonzero(ok), *fm)))
            left[g] = False
