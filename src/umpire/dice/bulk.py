"""Dice for a batch of battles: drawn in bulk from a DiceSource, every face kept.

Two ways to draw, both through ``umpire.dice`` sources (nothing is added there):

- one stream per batch (the lab's default): ``SeededSource(seed)``; each roll point draws
  the faces of every battle that rolls there in one ``.dice(n, 6)`` call, battle by battle
  in row order. The faces are kept as one ``uint8`` array, and ``Dice.replay(faces)``
  gives them back in the same order, so a batch re-runs exactly from its faces.
- one stream per battle: battle ``i`` draws from its own source, exactly the dice the
  scalar engine's ``play(scenario, seed_i)`` draws. The lab then plays the scalar
  engine's own battles (used to test that the two implementations are one rule set).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray

from umpire.dice import DiceSource, SeededSource
from umpire.errors import DiceSourceError

I = NDArray[np.int64]  # noqa: E741


class Dice:
    """Rolls for a batch; ``roll(rows, n)`` gives an (len(rows), n) array of d6 faces."""

    def __init__(
        self,
        source: DiceSource | None = None,
        *,
        faces: NDArray[np.uint8] | None = None,
        per_battle: Sequence[DiceSource] | None = None,
    ):
        self.source = source
        self._replay = None if faces is None else np.asarray(faces, dtype=np.int64)
        self._pos = 0
        self._kept: list[NDArray[np.uint8]] = []
        self.drawn = 0
        self._per = list(per_battle) if per_battle is not None else None
        if self._per is not None:
            self._mat = np.zeros((len(self._per), 0), dtype=np.int64)
            self._ptr = np.zeros(len(self._per), dtype=np.int64)

    @staticmethod
    def seeded(seed: int) -> Dice:
        """One ``SeededSource(seed)`` stream for the whole batch."""
        return Dice(SeededSource(seed))

    @staticmethod
    def replay(faces: NDArray[np.uint8]) -> Dice:
        """Give back a batch's kept faces, in order (the batch re-runs exactly)."""
        return Dice(faces=faces)

    @staticmethod
    def per_battle(seeds: Sequence[int]) -> Dice:
        """Battle ``i`` draws from ``SeededSource(seeds[i])``, as the scalar engine does."""
        return Dice(per_battle=[SeededSource(s) for s in seeds])

    def roll(self, rows: I, n: int, sides: int = 6) -> I:
        """``n`` faces of d``sides`` for each battle in ``rows`` (original battle numbers)."""
        m = len(rows)
        if m == 0 or n == 0:
            return np.zeros((m, n), dtype=np.int64)
        self.drawn += m * n
        if self._per is not None:
            return self._roll_per(rows, n, sides)
        if self._replay is not None:
            end = self._pos + m * n
            if end > len(self._replay):
                raise DiceSourceError(f"the kept faces ran out at die {len(self._replay) + 1}")
            out = self._replay[self._pos : end]
            self._pos = end
            if out.size and (out.min() < 1 or out.max() > sides):
                raise DiceSourceError(f"a kept face is outside 1..{sides}")
        else:
            assert self.source is not None
            out = np.array(self.source.dice(m * n, sides, "lab"), dtype=np.int64)
            self._kept.append(out.astype(np.uint8))
        return out.reshape(m, n)

    def _roll_per(self, rows: I, n: int, sides: int) -> I:
        assert self._per is not None
        need = int((self._ptr[rows] + n).max())
        if need > self._mat.shape[1]:
            more = max(need - self._mat.shape[1], 256)
            extra = np.array([s.dice(more, sides, "lab") for s in self._per], dtype=np.int64)
            self._mat = np.concatenate([self._mat, extra], axis=1)
        cols = self._ptr[rows][:, None] + np.arange(n)[None, :]
        self._ptr[rows] += n
        out: I = self._mat[rows[:, None], cols]
        return out

    def faces(self) -> NDArray[np.uint8]:
        """Every face drawn so far, in order (one stream: the whole batch's record)."""
        if self._per is not None:
            return np.concatenate(
                [self._mat[i, : self._ptr[i]] for i in range(len(self._per))]
            ).astype(np.uint8)
        if self._replay is not None:
            return self._replay[: self._pos].astype(np.uint8)
        if not self._kept:
            return np.zeros(0, dtype=np.uint8)
        return np.concatenate(self._kept)

    def counts(self) -> I | None:
        """Dice drawn per battle (one stream per battle only)."""
        return None if self._per is None else self._ptr.copy()
