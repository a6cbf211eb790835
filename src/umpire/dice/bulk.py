"""Dice for a batch of battles: drawn in bulk from a DiceSource, every face kept.

Two ways to draw, both through ``umpire.dice`` sources (nothing is added there):

- one stream per batch (the lab's default): ``SeededSource(seed)``; each roll point draws
  the faces of every battle that rolls there in one ``.dice(n, 6)`` call, battle by battle
  in row order. The faces are kept as one ``uint8`` array, and ``Dice.replay(faces)``
  gives them back in the same order, so a batch re-runs exactly from its faces.
- one stream per battle: battle ``i`` draws from its own source, exactly the dice the
  scalar engine's ``play(scenario, seed_i)`` draws. The lab then plays the scalar
  engine's own battles (used to test that the two implementations are one rule set).

A ``SeededSource``'s faces are a pure function of (seed, die number): die ``i`` is
``1 + word_i % sides`` with ``word_i`` word ``i % 8`` of the keyed blake2b of block
``i // 8``. :func:`seeded_faces` computes many of them at once (hashlib in a tight loop
into one buffer, then numpy for the words and faces), bit for bit the faces the source
gives one call at a time (``tests/test_dice_bulk.py``), about ten times faster.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray

from umpire.dice import DiceSource, SeededSource
from umpire.dice.sources import _seed_key
from umpire.dice.stream import PERSON
from umpire.errors import DiceSourceError

I = NDArray[np.int64]  # noqa: E741

REFILL = 256
"""Dice drawn ahead for a battle whose kept faces run out (a standard battle uses ~210)."""

_COUNTERS: list[bytes] = []


def _counter(block: int) -> bytes:
    """Block ``block``'s counter message (8 bytes, little-endian), kept once made."""
    while len(_COUNTERS) <= block:
        _COUNTERS.extend(i.to_bytes(8, "little") for i in range(len(_COUNTERS), 2 * block + 64))
    return _COUNTERS[block]


def seeded_words(seed: int, first_block: int, blocks: int) -> NDArray[np.uint64]:
    """The 64-bit words of blocks ``first_block ..`` of ``SeededSource(seed)``'s stream.

    The seed's keyed hash state is made once and copied per block (the key's compression
    is not done again for each block).
    """
    base = hashlib.blake2b(digest_size=64, key=_seed_key(seed), person=PERSON)
    copy = base.copy
    parts = []
    for b in range(first_block, first_block + blocks):
        h = copy()
        h.update(_counter(b))
        parts.append(h.digest())
    return np.frombuffer(b"".join(parts), dtype="<u8").astype(np.uint64)


def seeded_faces(seed: int, start: int, count: int, sides: int) -> NDArray[np.int64]:
    """Faces ``start .. start + count - 1`` of d``sides`` from ``SeededSource(seed)``."""
    if count <= 0:
        return np.zeros(0, dtype=np.int64)
    b0 = start >> 3
    words = seeded_words(seed, b0, ((start + count - 1) >> 3) - b0 + 1)
    lo = start - (b0 << 3)
    out: NDArray[np.int64] = (words[lo : lo + count] % np.uint64(sides)).astype(np.int64) + 1
    return out


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
            # battle i's faces from its source's position at the start: _fill[i] of them
            # drawn ahead into row i, _ptr[i] of them given out
            self._mat = np.zeros((len(self._per), 0), dtype=np.uint8)
            self._ptr = np.zeros(len(self._per), dtype=np.int64)
            self._fill = np.zeros(len(self._per), dtype=np.int64)
            self._sides = 0

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
            out = self._draw(self.source, m * n, sides)
            self._kept.append(out.astype(np.uint8))
        return out.reshape(m, n)

    @staticmethod
    def _draw(source: DiceSource, count: int, sides: int) -> I:
        """``count`` faces from ``source`` as an array (a plain ``SeededSource`` in bulk)."""
        if type(source) is SeededSource:
            out = seeded_faces(source.seed, source.position, count, sides)
            source.position += count
            return out
        return np.array(source.dice(count, sides, "lab"), dtype=np.int64)

    def _roll_per(self, rows: I, n: int, sides: int) -> I:
        assert self._per is not None
        if sides != self._sides:
            if self._sides:
                raise DiceSourceError("one batch's per-battle dice are all of one size")
            self._sides = sides
            if sides > 255:  # the faces are kept as bytes where they fit
                self._mat = self._mat.astype(np.int64)
        ptr = self._ptr[rows]
        short = np.flatnonzero(ptr + n > self._fill[rows])
        if len(short):
            self._refill(rows[short], n)
        cols = ptr[:, None] + np.arange(n)[None, :]
        self._ptr[rows] = ptr + n
        out: I = self._mat[rows[:, None], cols].astype(np.int64)
        return out

    def _refill(self, rows: I, n: int) -> None:
        """Draw ``REFILL`` more faces (at least ``n``) for each battle in ``rows``."""
        assert self._per is not None
        more = max(n, REFILL)
        top = int(self._fill[rows].max()) + more
        if top > self._mat.shape[1]:
            wide = max(top, 2 * self._mat.shape[1])
            grown = np.zeros((len(self._per), wide), dtype=self._mat.dtype)
            grown[:, : self._mat.shape[1]] = self._mat
            self._mat = grown
        for i in rows.tolist():
            at = int(self._fill[i])
            self._mat[i, at : at + more] = self._draw(self._per[i], more, self._sides)
            self._fill[i] = at + more

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
