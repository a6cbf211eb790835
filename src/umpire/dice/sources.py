"""Where dice faces come from: seeded, scripted (tests), physical (typed in), committed and joint.

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
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, ClassVar

from umpire.dice.stream import Stream, block, check_request
from umpire.errors import DiceSourceError

__all__ = [
    "MAX_SEED_BITS",
    "CommittedSource",
    "DiceSource",
    "JointSource",
    "PhysicalSource",
    "ScriptedSource",
    "SeededSource",
    "check_entropy",
    "commitment_of",
    "cup_prompt",
    "joint_key",
    "joint_public_view",
    "verify_commitment",
]

MAX_SEED_BITS = 256
"""Seeds are integers in ``0 <= seed < 2**256`` (the seed is the 32-byte blake2b key)."""


def _for(sides: int, purpose: str) -> str:
    """``'a d6 for "purpose"'`` or ``'a d6'``: the tail of an error message."""
    return f"a d{sides} for {purpose!r}" if purpose else f"a d{sides}"


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


class SeededSource(DiceSource):
    """Reproducible dice: die ``i`` is ``1 + word_i % sides`` where ``word_i`` is 64 bits of
    ``blake2b(key=seed, person="umpire-dice-v1", msg=i // 8)`` (word ``i % 8`` of the digest).

    The modulo bias is at most ``sides / 2**64`` (below 1e-16 for a d1000): negligible.
    ``SeededSource(seed, position=k)`` continues exactly where a fresh source is after ``k`` dice.
    """

    kind: ClassVar[str] = "seeded"

    __slots__ = ("_seed", "stream")

    def __init__(self, seed: int, position: int = 0) -> None:
        if position < 0:
            raise DiceSourceError(f"a dice position must be 0 or more, not {position}")
        self._seed = seed
        self.stream = Stream(_seed_key(seed), position)
        """The faces themselves (``umpire.dice.stream``, compiled in the mypyc build: the
        fast path's ``Recorder`` draws from it directly, see :func:`stream_of`)."""

    @property
    def position(self) -> int:
        """The dice given so far (the stream's position)."""
        return self.stream.position

    @position.setter
    def position(self, value: int) -> None:
        self.stream.position = value

    @property
    def seed(self) -> int:
        """The seed (public for a seeded source; see CommittedSource for a secret one)."""
        return self._seed

    def __repr__(self) -> str:
        return f"{type(self).__name__}(seed={self._seed}, position={self.position})"

    @staticmethod
    def face_at(seed: int, index: int, sides: int) -> int:
        """The face of die ``index`` (0-based) of the stream seeded ``seed``, as a d``sides``."""
        check_request(1, sides)
        if index < 0:
            raise ValueError(f"a die index must be 0 or more, not {index}")
        return 1 + block(_seed_key(seed), index >> 3)[index & 7] % sides

    def fork(self) -> SeededSource:
        """An independent copy at the same position (drawing from it leaves this one alone)."""
        return SeededSource(self._seed, self.position)

    def dice(self, n: int, sides: int, purpose: str = "") -> list[int]:
        """The next ``n`` faces of d``sides`` from the seed's stream."""
        return self.stream.dice(n, sides)


def stream_of(source: object) -> Stream | None:
    """The stream a plain seeded source draws every die from (its own ``dice`` not
    overridden), else None: the fast path's ``Recorder`` then draws from it directly."""
    if isinstance(source, SeededSource) and type(source).dice is SeededSource.dice:
        return source.stream
    return None


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


JOINT_DERIVATION = "umpire-joint-v1"
"""The name of the joint-dice recipe: the first line of every action key's input."""

ENTROPY_MIN_HEX = 32
ENTROPY_MAX_HEX = 64
"""An action's entropy is 32 to 64 lowercase hex digits (16 to 32 fresh random bytes)."""

_SIDE_NAME = re.compile(r"[a-z0-9][a-z0-9_-]{0,39}")
_HEX = re.compile(r"[0-9a-f]+")
_DIGEST = re.compile(r"[0-9a-fA-F]{64}")


def _shown(value: object) -> str:
    """A bad input for a one-line message: its repr, cut at 40 characters."""
    text = repr(value)
    return text if len(text) <= 40 else text[:39] + "…"


def check_entropy(entropy: object) -> str:
    """``entropy`` if it is 32 to 64 lowercase hex digits, else a one-line DiceSourceError."""
    if (
        not isinstance(entropy, str)
        or not ENTROPY_MIN_HEX <= len(entropy) <= ENTROPY_MAX_HEX
        or not _HEX.fullmatch(entropy)
    ):
        raise DiceSourceError(
            f"an action's entropy must be {ENTROPY_MIN_HEX} to {ENTROPY_MAX_HEX} lowercase hex "
            f"digits of fresh random bytes from the browser, not {_shown(entropy)}"
        )
    return entropy


def joint_key(seed: int, contributions: Mapping[str, str], entropy: str) -> bytes:
    """The 32-byte key of one action's joint dice (docs/dice-protocol.md):

    ``sha256("umpire-joint-v1\\n" + str(seed) + "\\n" + "".join(f"{side}:{value}\\n" for each
    side in ASCII order) + entropy)``, the text encoded as ASCII.
    """
    lines = [JOINT_DERIVATION, str(seed)]
    lines += [f"{side}:{contributions[side]}" for side in sorted(contributions)]
    text = "\n".join(lines) + "\n" + entropy
    return hashlib.sha256(text.encode("ascii")).digest()


def joint_public_view(
    commitment: str | None,
    sides: Sequence[str],
    commitments: Mapping[str, str | None],
    contributions: Mapping[str, str | None],
) -> dict[str, object]:
    """The public record of joint dice: the host's commitment, the sides, each side's
    commitment (``None`` until it commits), the values revealed so far (none at all until every
    side has committed), the phase, the sides it waits for and whether the dice can roll."""
    committed = all(commitments.get(s) for s in sides)
    revealed = {s: v for s in sides if committed and (v := contributions.get(s))}
    phase = "commit" if not committed else "reveal" if len(revealed) < len(sides) else "ready"
    done = revealed if committed else {s: "" for s in sides if commitments.get(s)}
    return {
        "commitment": commitment,
        "sides": list(sides),
        "commitments": {s: commitments.get(s) or None for s in sides},
        "contributions": revealed,
        "phase": phase,
        "waiting": [s for s in sides if s not in done],
        "ready": phase == "ready",
    }


def _value_digest(value_hex: str) -> str:
    """A side's commitment to its value: sha256 hex of the value's hex text."""
    return hashlib.sha256(value_hex.encode("ascii")).hexdigest()


class JointSource(DiceSource):
    """Dice that no single party, the host included, can choose or foresee.

    Three inputs make each action's dice: the host's secret seed (committed first, like
    CommittedSource), one value from each side (committed, then revealed once every side has
    committed) and fresh entropy that the browser sends with the action (``begin``). Die ``p``
    (the game's 0-based dice position) is the die ``p`` of a seeded stream whose 32-byte key is
    :func:`joint_key`: ``SeededSource.face_at(int.from_bytes(key, "little"), p, sides)``.
    """

    kind: ClassVar[str] = "joint"

    __slots__ = (
        "_commitments",
        "_contributions",
        "_entropy",
        "_seed",
        "_sides",
        "_stream",
        "position",
    )

    def __init__(
        self,
        sides: Iterable[str],
        seed: int | None = None,
        position: int = 0,
        *,
        commitments: Mapping[str, str] | None = None,
        contributions: Mapping[str, str] | None = None,
    ) -> None:
        names = tuple(sides)
        if not names:
            raise DiceSourceError("joint dice need at least one side")
        for name in names:
            if not isinstance(name, str) or not _SIDE_NAME.fullmatch(name):
                raise DiceSourceError(
                    f"a side's name must be 1-40 of a-z, 0-9, '_' and '-' (starting with a "
                    f"letter or digit), not {_shown(name)}"
                )
        if len(set(names)) != len(names):
            raise DiceSourceError(f"the sides of joint dice must differ: {', '.join(names)}")
        if position < 0:
            raise DiceSourceError(f"a dice position must be 0 or more, not {position}")
        self._seed = secrets.randbits(128) if seed is None else seed
        _seed_key(self._seed)  # refuses a seed out of range
        self._sides = names
        self._commitments: dict[str, str] = {}
        self._contributions: dict[str, str] = {}
        self._entropy: str | None = None
        self._stream: SeededSource | None = None
        self.position = position
        for side, digest in (commitments or {}).items():
            self.commit(side, digest)
        for side, value in (contributions or {}).items():
            self.contribute(side, value)

    def __repr__(self) -> str:
        return (
            f"JointSource(sides={self._sides!r}, commitment={self.commitment[:16]}…, "
            f"phase={self.phase!r}, position={self.position})"
        )

    # -- what anyone may know ------------------------------------------------
    @property
    def sides(self) -> tuple[str, ...]:
        """The sides' names, in the order given."""
        return self._sides

    @property
    def commitment(self) -> str:
        """The host's commitment: sha256 hex of ``str(seed).encode()`` (as CommittedSource)."""
        return commitment_of(self._seed)

    @property
    def commitments(self) -> dict[str, str]:
        """Each committed side's commitment (sha256 hex of its value's hex text)."""
        return dict(self._commitments)

    @property
    def contributions(self) -> dict[str, str]:
        """Each revealed side's value (only ever given once every side has committed)."""
        return dict(self._contributions)

    @property
    def phase(self) -> str:
        """``"commit"`` until every side has committed, ``"reveal"`` until every side has
        revealed, then ``"ready"`` (the dice can roll)."""
        if len(self._commitments) < len(self._sides):
            return "commit"
        if len(self._contributions) < len(self._sides):
            return "reveal"
        return "ready"

    @property
    def ready(self) -> bool:
        """Every side has revealed its value: the dice can roll (given an action's entropy)."""
        return self.phase == "ready"

    def waiting(self) -> list[str]:
        """The sides the current phase still waits for."""
        done = self._commitments if self.phase == "commit" else self._contributions
        return [s for s in self._sides if s not in done]

    @property
    def entropy(self) -> str | None:
        """The current action's entropy (``None``: this action may not roll)."""
        return self._entropy

    def public(self) -> dict[str, object]:
        """What anyone may see now: never the seed, never a value before every side committed."""
        return joint_public_view(
            self.commitment, self._sides, self._commitments, self._contributions
        )

    # -- the protocol ----------------------------------------------------------
    def _side(self, side: object) -> str:
        if not isinstance(side, str) or side not in self._sides:
            raise DiceSourceError(
                f"unknown side {_shown(side)} for these joint dice (sides: "
                f"{', '.join(self._sides)})"
            )
        return side

    def commit(self, side: str, digest_hex: str) -> None:
        """Phase one: ``side`` commits to its secret value with ``sha256(value_hex)`` (hex)."""
        name = self._side(side)
        if name in self._commitments:
            raise DiceSourceError(f"side '{name}' has already committed to its value")
        if not isinstance(digest_hex, str) or not _DIGEST.fullmatch(digest_hex):
            raise DiceSourceError(
                f"side '{name}': a commitment is a sha256 hex digest (64 hex digits), "
                f"not {_shown(digest_hex)}"
            )
        self._commitments[name] = digest_hex.lower()

    def contribute(self, side: str, value_hex: str) -> None:
        """Phase two, once every side has committed: ``side`` reveals its value (64 lowercase
        hex digits), which must match its commitment."""
        name = self._side(side)
        if self.phase == "commit":
            raise DiceSourceError(
                f"side '{name}' cannot reveal its value yet: waiting for "
                f"{', '.join(self.waiting())} to commit"
            )
        if name in self._contributions:
            raise DiceSourceError(f"side '{name}' has already revealed its value")
        if not isinstance(value_hex, str) or len(value_hex) != 64 or not _HEX.fullmatch(value_hex):
            raise DiceSourceError(
                f"side '{name}': a value is 64 lowercase hex digits (32 random bytes), "
                f"not {_shown(value_hex)}"
            )
        if not hmac.compare_digest(_value_digest(value_hex), self._commitments[name]):
            raise DiceSourceError(f"side '{name}': the value does not match its commitment")
        self._contributions[name] = value_hex

    def begin(self, entropy: str | None) -> None:
        """Start an action: its dice come from ``entropy`` (``None``: the action may not roll)."""
        self._entropy = None if entropy is None else check_entropy(entropy)
        self._stream = None

    def dice(self, n: int, sides: int, purpose: str = "") -> list[int]:
        """The next ``n`` faces of d``sides`` from this action's stream; refused (nothing
        drawn) until every side has revealed its value, and in an action without entropy."""
        check_request(n, sides)
        if not self.ready:
            todo = "commit" if self.phase == "commit" else "reveal its value"
            raise DiceSourceError(
                f"joint dice cannot roll {_for(sides, purpose)} yet: waiting for "
                f"{', '.join(self.waiting())} to {todo}"
            )
        if self._entropy is None:
            raise DiceSourceError(
                f"joint dice cannot roll {_for(sides, purpose)}: the action came without the "
                f"browser's entropy (send {ENTROPY_MIN_HEX}-{ENTROPY_MAX_HEX} fresh random hex "
                f"digits with every action)"
            )
        if self._stream is None:
            key = joint_key(self._seed, self._contributions, self._entropy)
            self._stream = SeededSource(int.from_bytes(key, "little"), self.position)
        self._stream.position = self.position
        out = self._stream.dice(n, sides, purpose)
        self.position = self._stream.position
        return out

    def reveal(self) -> int:
        """The host's secret seed (give it out only when the game is over)."""
        return self._seed

    def at(self, position: int) -> JointSource:
        """A copy at ``position`` with the same seed, sides, commitments and values, and no
        action begun (undo, fork and a failed action continue the stream from the log)."""
        return JointSource(
            self._sides,
            self._seed,
            position,
            commitments=self._commitments,
            contributions=self._contributions,
        )

    @staticmethod
    def face_at(
        seed: int, contributions: Mapping[str, str], entropy: str, index: int, sides: int
    ) -> int:
        """The face of die ``index`` (the game's dice position) of an action with ``entropy``."""
        key = joint_key(seed, contributions, entropy)
        return SeededSource.face_at(int.from_bytes(key, "little"), index, sides)


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
        check_request(n, sides)
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
    A pick among many (seed 000: "place all potentially affected leaders in a cup and pull one
    out") is :meth:`draw`: ``draw(labels, purpose)`` returns the number or name drawn; without
    it the draw is put to ``ask`` as one face of ``1..len(labels)`` with the list in the purpose.
    """

    kind: ClassVar[str] = "physical"

    __slots__ = ("_ask", "_draw", "position")

    def __init__(
        self,
        ask: Callable[[int, int, str], str],
        draw: Callable[[list[str], str], str] | None = None,
    ) -> None:
        self._ask = ask
        self._draw = draw
        self.position = 0

    def __repr__(self) -> str:
        return f"PhysicalSource(position={self.position})"

    def dice(self, n: int, sides: int, purpose: str = "") -> list[int]:
        """Ask for ``n`` faces of d``sides`` and check the answer."""
        check_request(n, sides)
        if n == 0:
            return []
        text = self._ask(n, sides, purpose)
        faces = self.parse_faces(text, n, sides, purpose)
        self.position += n
        return faces

    def draw(self, labels: Sequence[str], purpose: str = "") -> int:
        """One of ``labels`` drawn from a cup at the table: its index (counts as one die)."""
        if not labels:
            raise DiceSourceError(f"nothing to draw from for {purpose!r}")
        if self._draw is not None:
            text = self._draw(list(labels), purpose)
        else:
            text = self._ask(1, len(labels), cup_prompt(labels, purpose))
        index = self.parse_draw(text, labels, purpose)
        self.position += 1
        return index

    @staticmethod
    def parse_draw(text: str, labels: Sequence[str], purpose: str = "") -> int:
        """The index of the slip drawn: its number (1..n) or its name (whole, or a unique part)."""
        typed = text.strip()
        n = len(labels)
        want = f"a number 1..{n} or a name from the cup" + (f" for {purpose!r}" if purpose else "")
        if not typed:
            raise DiceSourceError(f"nothing typed (expected {want})")
        if typed.isascii() and typed.isdigit():
            value = int(typed) if len(typed) <= 6 else n + 1
            if not 1 <= value <= n:
                raise DiceSourceError(f"{typed} is outside 1..{n} (expected {want})")
            return value - 1
        low = typed.lower()
        exact = [i for i, lab in enumerate(labels) if lab.lower() == low]
        if len(exact) == 1:
            return exact[0]
        found = [i for i, lab in enumerate(labels) if low in lab.lower()]
        if len(found) == 1:
            return found[0]
        if not found:
            raise DiceSourceError(f"{typed!r} is not in the cup (expected {want})")
        names = ", ".join(f"{i + 1} {labels[i]}" for i in found[:4])
        more = ", ..." if len(found) > 4 else ""
        raise DiceSourceError(
            f"{typed!r} matches {len(found)} slips ({names}{more}): type its number"
        )

    @staticmethod
    def parse_faces(text: str, n: int, sides: int, purpose: str = "") -> list[int]:
        """Read ``n`` faces of d``sides`` from typed text, or raise DiceSourceError saying why.

        The same reading as every typed roll (:func:`read_faces`): spaces or commas between
        faces; a d10's 0 is typed as 0 or 10 (the face the dice source calls 10).
        """
        return read_faces(text, n, sides, purpose)


def read_faces(
    text: str, n: int | None, sides: int, purpose: str = "", *, zero_low: bool = False
) -> list[int]:
    """Faces typed at the table: ``"3 5"``, ``"3,5"`` or ``"3, 5"`` alike; one-line refusals.

    ``n`` faces (any number from 1 when None) of a d``sides`` numbered 1..``sides``. A d10
    is printed 0-9 on most tables: its 0 may be typed 0 or 10 and is read as 10 here, or
    as 0 with ``zero_low`` (a rule that reads the die 0 to 9, seed 003's reading d10_zero).
    """
    lo, hi = (0, sides - 1) if zero_low else (1, sides)
    alias = sides == 10
    shown = f"{lo}..{hi}" + (
        " (0 or 10 for the 0)" if alias and zero_low else " (0 or 10 for the 10)" if alias else ""
    )
    count = "some faces" if n is None else f"{n} {'face' if n == 1 else 'faces'}"
    want = f"{count} of {_for(sides, purpose)}, each {shown}"
    tokens = [t for t in _SEPARATORS.split(text.strip()) if t]
    faces: list[int] = []
    for token in tokens:
        if not token.isascii() or not token.isdigit():
            raise DiceSourceError(f"{token[:20]!r} is not a number (expected {want})")
        value = int(token) if len(token) <= 6 else sides + 1
        if alias and value in (0, 10):
            value = 0 if zero_low else 10
        if not lo <= value <= hi:
            shown_value = value if len(token) <= 6 else token[:20]
            raise DiceSourceError(f"{shown_value} is outside {shown} (expected {want})")
        faces.append(value)
    if len(faces) != n if n is not None else not faces:
        got = f"{len(faces)} {'face' if len(faces) == 1 else 'faces'}"
        raise DiceSourceError(f"got {got} in {text.strip()[:40]!r} (expected {want})")
    return faces


def cup_prompt(labels: Sequence[str], purpose: str = "") -> str:
    """``'purpose: draw one from a cup holding 1 A, 2 B, ...'``: what a cup draw asks for."""
    slips = ", ".join(f"{i} {lab}" for i, lab in enumerate(labels, 1))
    head = f"{purpose}: " if purpose else ""
    return f"{head}draw one from a cup holding {slips}"


class NeedFaces(DiceSourceError):
    """Real dice are being typed and the faces for this roll have not been given yet."""

    def __init__(self, n: int, sides: int, purpose: str, labels: Sequence[str] = ()):
        what = f"a draw among {len(labels)}" if labels else f"{n}d{sides}"
        super().__init__(f"roll {what} at the table for '{purpose}' and give the faces")
        self.n = n
        self.sides = sides
        self.purpose = purpose
        self.labels = list(labels)


class TypedDice(DiceSource):
    """A game's own dice with real dice typed in for one action (a player at the table
    switched to real dice): the typed faces are used, checked, in order; the game's stream
    skips as many, so the log's positions stay those of the stream; when the faces run
    out the action stops with :class:`NeedFaces` (it is all or nothing, and runs again
    with more faces). Draws made so are marked ``typed`` in the log (not checked by verify).

    ``own(purpose)``, when given, says whether a roll is the typer's: one that is not (the
    web table: a roll naming the other side's unit) comes from the game's own dice, unmarked
    and checked by verify, so a player with real dice never types the other side's rolls.
    ``typing`` is True before the first draw (the action is played the table's way) and
    then says whether the latest draw was typed (the log marks each draw by it).
    """

    __slots__ = ("inner", "own", "typed", "typing")

    def __init__(
        self,
        inner: DiceSource,
        typed: Sequence[int],
        own: Callable[[str], bool] | None = None,
    ):
        self.inner = inner
        self.typed = list(typed)
        self.own = own
        self.typing = True

    def __getattr__(self, name: str) -> Any:
        # Joint dice: the game begins the inner source with the action's entropy, for the
        # rolls that are not the typer's (only when the inner source takes entropy at all).
        if name == "begin":
            return getattr(self.inner, name)
        raise AttributeError(name)

    @property
    def kind(self) -> str:  # type: ignore[override]
        """The game's own kind of dice (the typed faces are marked draw by draw)."""
        return self.inner.kind

    @property
    def position(self) -> int:
        """The game's stream position (typed faces advance it too)."""
        return int(getattr(self.inner, "position", 0))

    @position.setter
    def position(self, value: int) -> None:
        self.inner.position = value

    def _mine(self, purpose: str) -> bool:
        self.typing = self.own is None or self.own(purpose)
        return self.typing

    def dice(self, n: int, sides: int, purpose: str = "") -> list[int]:
        """The next ``n`` typed faces, checked to fit a d``sides`` (or the game's own dice
        for a roll that is not the typer's)."""
        check_request(n, sides)
        if not self._mine(purpose):
            return list(self.inner.dice(n, sides, purpose))
        if len(self.typed) < n:
            raise NeedFaces(n, sides, purpose)
        faces = self.typed[:n]
        bad = [f for f in faces if not 1 <= f <= sides]
        if bad:
            raise DiceSourceError(f"a d{sides} shows 1 to {sides}, not {bad[0]} ({purpose})")
        del self.typed[:n]
        self.position = self.position + n
        return faces

    def draw(self, labels: list[str], purpose: str) -> int:
        """A slip drawn from a cup at the table: the typed number is its place in the list."""
        if not self._mine(purpose):
            return self.inner.dice(1, len(labels), purpose)[0] - 1
        if not self.typed:
            raise NeedFaces(1, len(labels), purpose, labels)
        return self.dice(1, len(labels), purpose)[0] - 1
