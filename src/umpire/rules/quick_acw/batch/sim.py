"""The batch simulator's turn (seed 002 TURN ORDER, the scalar engine's sequence), each
step answering every battle at once; the same battles as the scalar engine's dice give."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from umpire.rules.quick_acw.batch import kbases as KB
from umpire.rules.quick_acw.batch.fire import Fire
from umpire.rules.quick_acw.batch.move import Move
from umpire.rules.quick_acw.batch.state import B, I, Outcome

__all__ = ["Outcome", "Sim"]


class Sim(Move, Fire):
    """N battles of one scenario and the turns that play them."""

    # -- the turn -------------------------------------------------------------------------
    def run(self) -> None:
        """Play every battle to its end."""
        order = (0, 1)
        for turn in range(1, self.S.turns + 1):
            self.turn = turn
            for p in order:
                self._first = p
                # defensive fire is the second player's, offensive fire the first's
                steps: tuple[tuple[Callable[[int], None], int], ...] = (
                    (self.command_step, p), (self.move_step, p), (self.rally_step, p),
                    (self.fire_step, 1 - p), (self.fire_step, p), (self.melee_step, p),
                )  # fmt: skip
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
            brk = lost >= self.S.break_fraction[side] * self.S.units0[side]
            broken[:, side] = (left == 0) | brk
        over: B = np.any(broken, axis=1)
        if over.any():
            winner = np.where(broken.all(1), 2, np.where(broken[:, 0], 1, 0))
            self._finish(over, winner)

    def final(self) -> None:
        """Default ``victory``: at the turn limit the objectives held decide."""
        pts = np.zeros((self.n, 2), dtype=np.int64)
        for (ox, oy, orad), p in zip(self.S.obj.tolist(), self.S.obj_points.tolist(), strict=True):
            d = KB.hypots((self.x - ox).ravel(), (self.y - oy).ravel()).reshape(self.x.shape)
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

    def rally_step(self, p: int) -> None:
        """Seed 002 Rally: remove the MM of the player's units that did not move."""
        units = self.S.by_side[p]
        self.marker[:, units] &= self.moved[:, units] | ~self.alive[:, units]
