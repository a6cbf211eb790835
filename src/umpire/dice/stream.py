"""The seeded dice stream itself: die ``i`` of a seed is ``1 + word_i % sides``, ``word_i``
64 bits of ``blake2b(key=seed, person="umpire-dice-v1", msg=i // 8)`` (``SeededSource``).

Its own module so that the mypyc build compiles it (every die of a battle passes here);
``umpire.dice.sources`` cannot be compiled while the engine's context subclasses its
``DiceSource``. The stream counts its dice in ``position``.
"""

from __future__ import annotations

import hashlib
import struct
from typing import Final

PERSON: Final = b"umpire-dice-v1"
_UNPACK8: Final = struct.Struct("<8Q").unpack


def check_request(n: int, sides: int) -> None:
    """Refuse a negative number of dice or a die of no sides."""
    if n < 0:
        raise ValueError(f"cannot draw {n} dice")
    if sides < 1:
        raise ValueError(f"a die needs at least 1 side, not {sides}")


def block(key: bytes, index: int) -> tuple[int, ...]:
    """The eight 64-bit words of block ``index``: blake2b-512 keyed by the seed over the
    counter."""
    digest = hashlib.blake2b(
        index.to_bytes(8, "little"), digest_size=64, key=key, person=PERSON
    ).digest()
    words: tuple[int, ...] = _UNPACK8(digest)
    return words


class Stream:
    """The faces of one seed's stream from ``position`` on (the last block's words kept)."""

    __slots__ = ("_block_index", "_key", "_words", "position")

    def __init__(self, key: bytes, position: int) -> None:
        self._key = key
        self.position = position
        self._block_index = -1
        self._words: tuple[int, ...] = ()

    def dice(self, n: int, sides: int) -> list[int]:
        """The next ``n`` faces of d``sides``."""
        if n < 0 or sides < 1:
            check_request(n, sides)
        pos = self.position
        end = pos + n
        self.position = end
        blk = pos >> 3
        if blk == self._block_index and end <= (blk + 1) << 3:  # the common case
            lo = pos & 7
            return [1 + w % sides for w in self._words[lo : lo + n]]
        out: list[int] = []
        while pos < end:
            blk = pos >> 3
            if blk != self._block_index:
                self._words = block(self._key, blk)
                self._block_index = blk
            lo = pos & 7
            take = min(end - pos, 8 - lo)
            out += [1 + w % sides for w in self._words[lo : lo + take]]
            pos += take
        return out
