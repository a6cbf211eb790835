"""Where dice faces come from: seeded, scripted (tests), physical (typed in) and committed.

Every source implements one method, ``dice(n, sides, purpose)``, and counts the dice it has
given in ``position``. A seeded source is counter-based: die number ``i`` of a game is a pure
function of ``(seed, i, sides)``, so a game can be resumed, undone, forked or verified at any
position without replaying the dice before it.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
import struct
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable
from typing import ClassVar

from umpire.errors import DiceSourceError

__all__ = [
    "MAX_SEED_BITS",
    "CommittedSource",
    "DiceSource",
    "PhysicalSource",
    "ScriptedSource",
    "SeededSource",
    "commitment_of",
    "verify_commitment",
]

MAX_SEED_BITS = 256
"""Seeds are integers in ``0 <= seed < 2**256`` (the seed is the 32-byte blake2b key)."""

_PERSON = b"umpire-dice-v1"
_UNPACK8 = struct.Struct("<8Q").unpack


def _for(sides: int, purpose: str) -> str:
    """``'a d6 for "purpose"'`` or ``'a d6'``: the tail of an error message."""
    return f"a d{sides} for {purpose!r}" if purpose else f"a d{sides}"


def _check_request(n: int, sides: int) -> None:
    if n < 0:
        raise ValueError(f"cannot draw {n} dice")
    if sides < 1:
        raise ValueError(f"a die needs at least 1 side, not {sides}")


class DiceSource(ABC):
    """Gives dice faces on request; ``position`` counts the dice given so far."""

    kind: ClassVar[str] = ""
    position: int

    @abstractmethod
    def dice(self, n: int, sides: int, purpose: str = "") -> list[int]:
        """Return ``n`` faces, each in ``1..sides``; ``purpose`` names the roll (for messages)."""


def _seed_key(seed: int) -> bytes:
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise DiceSourceError(f"a seed must be an integer, not {seed!r}")
    if seed < 0 or seed.bit_length() > MAX_SEED_BITS:
        raise DiceSourceError(f"a seed must be in 0..2**{MAX_SEED_BITS}-1, not {seed}")
    return seed.to_bytes(MAX_SEED_BITS // 8, "little")


def _block(key: bytes, block: int) -> tuple[int, ...]:
    """The eight 64-bit words of block ``block``: blake2b-512 keyed by the seed over the counter."""
    digest = hashlib.blake2b(
        block.to_bytes(8, "little"), digest_size=64, key=key, person=_PERSON
    ).digest()
    return _UNPACK8(digest)


class SeededSource(DiceSource):
    """Reproducible dice: die ``i`` is ``1 + word_i % sides`` where ``word_i`` is 64 bits of
    ``blake2b(key=seed, person="umpire-dice-v1", msg=i // 8)`` (word ``i % 8`` of the digest).

    The modulo bias is at most ``sides / 2**64`` (below 1e-16 for a d1000): negligible.
    ``SeededSource(seed, position=k)`` continues exactly where a fresh source is after ``k`` dice.
    """

    kind: ClassVar[str] = "seeded"

    __slots__ = ("_block_index", "_key", "_seed", "_words", "position")

    def __init__(self, seed: int, position: int = 0) -> None:
        if position < 0:
            raise DiceSourceError(f"a dice position must be 0 or more, not {position}")
        self._key = _seed_key(seed)
        self._seed = seed
        self.position = position
        self._block_index = -1
        self._words: tuple[int, ...] = ()

    @property
    def seed(self) -> int:
        """The seed (public for a seeded source; see CommittedSource for a secret one)."""
        return self._seed

    def __repr__(self) -> str:
        return f"{type(self).__name__}(seed={self._seed}, position={self.position})"

    @staticmethod
    def face_at(seed: int, index: int, sides: int) -> int:
        """The face of die ``index`` (0-based) of the stream seeded ``seed``, as a d``sides``."""
        _check_request(1, sides)
        if index < 0:
            raise ValueError(f"a die index must be 0 or more, not {index}")
        return 1 + _block(_seed_key(seed), index >> 3)[index & 7] % sides

    def fork(self) -> SeededSource:
        """An independent copy at the same position (drawing from it leaves this one alone)."""
        return SeededSource(self._seed, self.position)

    def dice(self, n: int, sides: int, purpose: str = "") -> list[int]:
        """The next ``n`` faces of d``sides`` from the seed's stream."""
        if n < 0 or sides < 1:
            _check_request(n, sides)
        pos = self.position
        end = pos + n
        self.position = end
        block = pos >> 3
        if block == self._block_index and end <= (block + 1) << 3:  # the common case
            lo = pos & 7
            return [1 + w % sides for w in self._words[lo : lo + n]]
        out: list[int] = []
        while pos < end:
            block = pos >> 3
            if block != self._block_index:
                self._words = _block(self._key, block)
                self._block_index = block
            lo = pos & 7
            take = min(end - pos, 8 - lo)
            out += [1 + w % sides for w in self._words[lo : lo + take]]
            pos += take
        return out


def commitment_of(seed: int) -> str:
    """The public commitment to a seed: sha256 hex of its decimal text."""
    return hashlib.sha256(str(seed).encode()).hexdigest()


def verify_commitment(seed: int, commitment: str) -> bool:
    """True when ``seed`` is the seed that ``commitment`` was published for."""
    return hmac.compare_digest(commitment_of(seed), commitment.strip().lower())


class CommittedSource(SeededSource):
    """A seeded source whose seed stays secret until the game ends.

    Publish ``commitment`` (sha256 of the seed's decimal text) before play and ``reveal()`` the
    seed afterwards, so every player can check that the dice were fixed in advance.
    """

    kind: ClassVar[str] = "committed"

    __slots__ = ()

    def __init__(self, seed: int | None = None, position: int = 0) -> None:
        super().__init__(secrets.randbits(128) if seed is None else seed, position)

    def __repr__(self) -> str:
        return f"CommittedSource(commitment={self.commitment[:16]}…, position={self.position})"

    @property
    def commitment(self) -> str:
        """sha256 hex digest of ``str(seed).encode()``."""
        return commitment_of(self._seed)

    def reveal(self) -> int:
        """The secret seed (give it out only when the game is over)."""
        return self._seed

    def fork(self) -> CommittedSource:
        """An independent copy at the same position, with the same secret seed."""
        return CommittedSource(self._seed, self.position)


class ScriptedSource(DiceSource):
    """Gives a fixed list of faces in order: for tests and for replaying a recorded game."""

    kind: ClassVar[str] = "scripted"

    __slots__ = ("_faces", "position")

    def __init__(self, faces: Iterable[int]) -> None:
        self._faces = tuple(faces)
        self.position = 0

    def __repr__(self) -> str:
        return f"ScriptedSource({list(self._faces)!r}, position={self.position})"

    def remaining(self) -> tuple[int, ...]:
        """The scripted faces not given out yet (empty when all were used)."""
        return self._faces[self.position :]

    def dice(self, n: int, sides: int, purpose: str = "") -> list[int]:
        """The next ``n`` scripted faces; refuses if they run out or do not fit a d``sides``."""
        _check_request(n, sides)
        pos = self.position
        if pos + n > len(self._faces):
            raise DiceSourceError(
                f"scripted dice ran out at die {len(self._faces) + 1} "
                f"(needed {_for(sides, purpose)})"
            )
        out = list(self._faces[pos : pos + n])
        for i, face in enumerate(out):
            if not 1 <= face <= sides:
                raise DiceSourceError(
                    f"scripted face {face} at die {pos + i + 1} is outside 1..{sides} "
                    f"(needed {_for(sides, purpose)})"
                )
        self.position = pos + n
        return out


_SEPARATORS = re.compile(r"[\s,;]+")


class PhysicalSource(DiceSource):
    """Faces a person rolled on the table and typed in: ``ask(n, sides, purpose)`` returns the text.

    Faces are separated by spaces or commas (``"3 5"``, ``"3,5"``); for d66 type the two d6 faces.
    Wrong counts, non-numbers and out-of-range faces are refused with a one-line DiceSourceError.
    """

    kind: ClassVar[str] = "physical"

    __slots__ = ("_ask", "position")

    def __init__(self, ask: Callable[[int, int, str], str]) -> None:
        self._ask = ask
        self.position = 0

    def __repr__(self) -> str:
        return f"PhysicalSource(position={self.position})"

    def dice(self, n: int, sides: int, purpose: str = "") -> list[int]:
        """Ask for ``n`` faces of d``sides`` and check the answer."""
        _check_request(n, sides)
        if n == 0:
            return []
        text = self._ask(n, sides, purpose)
        faces = self.parse_faces(text, n, sides, purpose)
        self.position += n
        return faces

    @staticmethod
    def parse_faces(text: str, n: int, sides: int, purpose: str = "") -> list[int]:
        """Read ``n`` faces of d``sides`` from typed text, or raise DiceSourceError saying why."""
        want = f"{n} {'face' if n == 1 else 'faces'} of {_for(sides, purpose)}, each 1..{sides}"
        tokens = [t for t in _SEPARATORS.split(text.strip()) if t]
        faces: list[int] = []
        for token in tokens:
            if not token.isascii() or not token.isdigit():
                raise DiceSourceError(f"{token!r} is not a number (expected {want})")
            value = int(token) if len(token) <= 6 else sides + 1
            if not 1 <= value <= sides:
                raise DiceSourceError(f"{token} is outside 1..{sides} (expected {want})")
            faces.append(value)
        if len(faces) != n:
            raise DiceSourceError(f"got {len(faces)} faces in {text.strip()!r} (expected {want})")
        return faces
