"""The batch simulator's bulk dice (``umpire.dice.bulk``) are ``SeededSource``'s own faces.

The lab's batch path must play the scalar engine's very battles (``umpire battle SCENARIO
--seed S``), so the vectorised blake2b generation has to give, die for die, what the
source gives one call at a time: checked here for many seeds (small, huge, near the
256-bit limit), every start position within a block, and several die sizes.
"""

from __future__ import annotations

import numpy as np
import pytest

from umpire.dice import SeededSource
from umpire.dice.bulk import REFILL, Dice, seeded_faces
from umpire.errors import DiceSourceError

SEEDS = [*range(60), 2**63 + 5, 2**64 + 1, 12345678901234567890, 2**256 - 1]


@pytest.mark.parametrize("sides", [6, 2, 20, 1000])
def test_seeded_faces_are_the_sources(sides: int) -> None:
    """Faces start..start+count of each seed, against a fresh source drawing up to them."""
    for seed in SEEDS:
        ref = SeededSource(seed).dice(80, sides)
        for start in (0, 1, 7, 8, 13, 40):
            for count in (1, 3, 8, 9, 40 - start % 8):
                got = seeded_faces(seed, start, count, sides).tolist()
                assert got == ref[start : start + count], (seed, start, count)


def test_seeded_faces_far_along_the_stream() -> None:
    """Positions in the thousands (counters beyond the first bytes) agree too."""
    src = SeededSource(99, position=10_001)
    assert seeded_faces(99, 10_001, 50, 6).tolist() == src.dice(50, 6)


def test_per_battle_rolls_are_each_battles_stream() -> None:
    """Irregular rolls over shrinking sets of battles, past several refills: battle i's
    faces are exactly ``SeededSource(seeds[i])``'s, in order, and the counts match."""
    seeds = [3, 1, 4, 1_000_003, 2**70, 9]
    dice = Dice.per_battle(seeds)
    rng = np.random.default_rng(0)
    got: list[list[int]] = [[] for _ in seeds]
    for _ in range(400):
        rows = np.flatnonzero(rng.random(len(seeds)) < 0.6)
        n = int(rng.integers(1, 4))
        out = dice.roll(rows, n)
        assert out.shape == (len(rows), n) and out.dtype == np.int64
        for row, faces in zip(rows.tolist(), out.tolist(), strict=True):
            got[row] += faces
    assert max(len(g) for g in got) > 2 * REFILL  # refilled more than once
    for seed, faces in zip(seeds, got, strict=True):
        assert faces == SeededSource(seed).dice(len(faces), 6)
    counts = dice.counts()
    assert counts is not None and counts.tolist() == [len(g) for g in got]
    assert dice.faces().tolist() == [f for g in got for f in g]


def test_per_battle_dice_are_of_one_size() -> None:
    """A batch's per-battle faces are drawn ahead as one die size: another is refused."""
    dice = Dice.per_battle([1, 2])
    dice.roll(np.arange(2), 2)
    with pytest.raises(DiceSourceError):
        dice.roll(np.arange(2), 1, sides=8)


def test_one_stream_batch_is_the_sources() -> None:
    """``Dice.seeded``: rolls in row order draw the one stream's faces, as before."""
    dice = Dice.seeded(77)
    a = dice.roll(np.arange(5), 2)
    b = dice.roll(np.array([0, 3]), 3)
    ref = SeededSource(77).dice(16, 6)
    assert a.ravel().tolist() == ref[:10] and b.ravel().tolist() == ref[10:]
    assert dice.faces().tolist() == ref
