"""The state hash kept up to date change by change: :func:`state_hash`'s digest, linearly.

``umpire games verify`` checks the state hash recorded after every action. Serialising
the whole state for each of them costs the state's size per action, and the state of a
long game grows (its history), so the check took time in the square of the game's
length. :class:`StateHasher` performs the changes itself and keeps the canonical JSON of
every dict and list it has walked into, entry by entry: a change re-encodes only the
entries on its path, and joining the kept pieces gives the same text, so the digest is
exactly ``state_hash``'s (tests/test_statehash.py proves it on random states and changes).

What stays proportional to the state's size per digest is SHA-256 reading the text (and
joining the changed containers' pieces), both in C: the stored hash is one SHA-256 of the
whole canonical JSON, and no shortcut can give it without reading every byte.
"""

from __future__ import annotations

import hashlib
from bisect import bisect_left
from typing import Any

from umpire.engine.events import JSON, Path, apply_change, canonical_json, get_path

_SCALARS = (str, int, float, bool, type(None))
"""The types a JSON round trip keeps as they are (a saved game's state holds nothing else)."""


def _enc(value: JSON) -> bytes:
    """The canonical JSON of a value as the bytes SHA-256 reads."""
    return canonical_json(value).encode()


def _expandable(value: JSON) -> bool:
    """A container whose encoding can be kept entry by entry (a dict only with str keys)."""
    if isinstance(value, list):
        return True
    return isinstance(value, dict) and all(isinstance(k, str) for k in value)


class _Node:
    """The canonical JSON of one dict or list of the state, kept entry by entry.

    ``parts`` holds each entry's encoding (``"key":value`` in sorted key order for a
    dict); ``dirty`` the entries to re-encode; ``kids`` the nodes of the entries walked
    into; ``blob`` the whole encoding, or None until it is asked for again. A list also
    keeps ``run``, its encoding without the closing bracket, which an append extends in
    place: a growing history is never joined again.
    """

    __slots__ = ("blob", "dirty", "is_dict", "keys", "kids", "parts", "run")

    def __init__(self, value: JSON) -> None:
        # Every entry starts dirty: encoding waits for a digest, which may raise as
        # ``state_hash`` does (a dict with mixed key types), while a change never does.
        self.is_dict = isinstance(value, dict)
        self.keys: list[str] = sorted(value) if self.is_dict else []
        self.parts: list[bytes] = [b""] * len(value)
        self.kids: dict[str | int, _Node] = {}
        self.dirty: set[str | int] = set(self.keys) if self.is_dict else set(range(len(value)))
        self.blob: bytes | None = None
        self.run: bytearray | None = None

    def _refresh(self, value: JSON, lists: bool = True) -> None:
        """Re-encode the changed entries (a dict's entries kept as lists: only if ``lists``)."""
        for k in self.dirty:
            kid = self.kids.get(k)
            if self.is_dict:
                assert isinstance(k, str)
                head = _enc(k) + b":"
                if kid is not None and not kid.is_dict and not lists:
                    body = b""  # :meth:`feed` gives the list's run itself
                else:
                    body = kid.encoded(value[k]) if kid is not None else _enc(value[k])
                self.parts[bisect_left(self.keys, k)] = head + body
            else:
                assert isinstance(k, int)
                self.parts[k] = kid.encoded(value[k]) if kid is not None else _enc(value[k])
                self.run = None
        self.dirty.clear()

    def encoded(self, value: JSON) -> bytes:
        """The canonical JSON of ``value`` (which this node mirrors), re-encoding only its
        changed entries."""
        if self.blob is None:
            if self.is_dict:
                self._refresh(value)
                self.blob = b"{" + b",".join(self.parts) + b"}"
            else:
                self.blob = b"".join((self.opened(value), b"]"))
        return self.blob

    def opened(self, value: JSON) -> bytearray:
        """A list's encoding without its closing bracket (``run``)."""
        self._refresh(value)
        if self.run is None:
            self.run = bytearray(b"[")
            self.run += b",".join(self.parts)
        return self.run

    def feed(self, value: JSON, sha: Any) -> None:
        """Give ``sha`` this node's encoding piece by piece (the root's way: a list entry's
        run is read where it is, not copied into the whole text first)."""
        if not self.is_dict:
            sha.update(self.opened(value))
            sha.update(b"]")
            return
        self._refresh(value, lists=False)
        sha.update(b"{")
        for i, k in enumerate(self.keys):
            if i:
                sha.update(b",")
            kid = self.kids.get(k)
            sha.update(self.parts[i])
            if kid is not None and not kid.is_dict:
                sha.update(kid.opened(value[k]))
                sha.update(b"]")
        sha.update(b"}")

    def touch(self, key: str | int) -> None:
        """Entry ``key`` changed (a dict's new key takes its place in the order)."""
        self.blob = None
        if self.is_dict:
            assert isinstance(key, str)
            i = bisect_left(self.keys, key)
            if i == len(self.keys) or self.keys[i] != key:
                self.keys.insert(i, key)
                self.parts.insert(i, b"")
        self.dirty.add(key)

    def drop(self, key: str | int) -> None:
        """Entry ``key`` is gone: a dict's key, or a list's item (the later ones move up)."""
        self.blob = None
        if self.is_dict:
            assert isinstance(key, str)
            i = bisect_left(self.keys, key)
            if i < len(self.keys) and self.keys[i] == key:
                del self.keys[i]
                del self.parts[i]
            self.kids.pop(key, None)
            self.dirty.discard(key)
            return
        assert isinstance(key, int)
        del self.parts[key]
        self.run = None
        self.kids = {_after(j, key): n for j, n in self.kids.items() if j != key}
        self.dirty = {_after(j, key) for j in self.dirty if j != key}

    def appended(self, item: JSON) -> None:
        """An item was appended to the list this node mirrors."""
        self.blob = None
        try:
            body = _enc(item)
        except (TypeError, ValueError):  # the digest will raise as state_hash does
            self.dirty.add(len(self.parts))
            body = b""
        if self.run is not None and not self.dirty:
            if self.parts:
                self.run += b","
            self.run += body
        else:
            self.run = None
        self.parts.append(body)


def _after(j: str | int, gone: str | int) -> str | int:
    """A list position once the item at ``gone`` is removed."""
    assert isinstance(j, int) and isinstance(gone, int)
    return j - 1 if j > gone else j


class StateHasher:
    """Holds a state, performs its changes (:meth:`apply`) and gives its state hash.

    Change the state only through :meth:`apply` while the hasher holds it: a change made
    around it is not seen. ``unsaved`` turns true when a change leaves something a JSON
    round trip would alter (a dict key that is not a string, a tuple): the state as a saved
    game would hold it is then ``copy_state(state)``.
    """

    def __init__(self, state: JSON) -> None:
        self.state = state
        self.unsaved = False
        self._root: _Node | None = None

    def hexdigest(self) -> str:
        """``state_hash(self.state)``, re-encoding only what changed since the last call."""
        if self._root is None:
            if not _expandable(self.state):
                return hashlib.sha256(_enc(self.state)).hexdigest()
            self._root = _Node(self.state)
        sha = hashlib.sha256()
        self._root.feed(self.state, sha)
        return sha.hexdigest()

    def apply(self, op: str, path: Path, value: JSON = None) -> None:
        """:func:`~umpire.engine.events.apply_change` on the held state, keeping the hash."""
        before = self._before(op, path, value)
        try:
            apply_change(self.state, op, path, value)
        except BaseException:
            self._root = None  # a failed change may have made parents: encode afresh
            self.unsaved = True
            raise
        if not isinstance(value, dict | list) and type(value) not in _SCALARS:
            self.unsaved = True  # a tuple, an IntEnum...: JSON gives back something else
        self._touch(op, path, before)

    def _before(self, op: str, path: Path, value: JSON) -> int | None:
        """The list position that ``remove`` or ``delete`` empties (None for a dict's key)."""
        if op not in ("remove", "delete") or not path:
            return None
        target = get_path(self.state, path if op == "remove" else path[:-1])
        if not isinstance(target, list):
            return None
        if op == "remove":
            try:
                return target.index(value)
            except ValueError:
                return None  # apply_change refuses it
        if not isinstance(path[-1], int):
            return None
        i = int(path[-1])
        return i + len(target) if i < 0 else i

    def _touch(self, op: str, path: Path, before: int | None) -> None:
        """Mark the entries on ``path`` changed and follow the change's own effect.

        Walks the state after the change; ``node`` is the kept node of ``value``, or None
        below the kept ones (the walk then only looks for keys JSON would change).
        """
        node = self._root
        value: JSON = self.state
        parent: _Node | None = None
        pkey: str | int = ""
        for step, key in enumerate(path):
            last = step == len(path) - 1
            k: str | int
            if isinstance(value, dict):
                if not isinstance(key, str):
                    self.unsaved = True
                    if node is not None:  # no pieces for a dict whose keys JSON would change
                        self._forget(parent, pkey)
                    return
                k = key
            elif last and op == "delete":
                assert before is not None
                k = before
            else:
                assert isinstance(key, int)  # the change went through: a list's index
                k = int(key) + len(value) if key < 0 else int(key)
            if node is None:
                if last:
                    return
                value = value[k]
                continue
            if last and op == "delete":
                node.drop(k)
                return
            node.touch(k)
            child = value[k]
            if last:
                _changed(node, k, op, child, before)
                return
            kid = node.kids.get(k)
            if kid is None and _expandable(child):
                node.kids[k] = _Node(child)  # kept from now on; made after the change, it has it
            parent, pkey, node, value = node, k, kid, child

    def _forget(self, parent: _Node | None, key: str | int) -> None:
        """Keep no pieces for the container at ``key`` of ``parent`` (the root if None)."""
        if parent is None:
            self._root = None
        else:
            parent.kids.pop(key, None)


def _changed(node: _Node, k: str | int, op: str, child: JSON, before: int | None) -> None:
    """Follow a change of entry ``k`` of ``node`` (now ``child``) into the entry's own node."""
    if op in ("set", "inc"):
        node.kids.pop(k, None)  # a new value: encoded whole once (it is in the log too)
        return
    kid = node.kids.get(k)
    if kid is None:
        if _expandable(child):
            node.kids[k] = _Node(child)  # a list appended to is kept from now on
    elif op == "append":
        kid.appended(child[-1])
    else:
        assert op == "remove" and before is not None
        kid.drop(before)
