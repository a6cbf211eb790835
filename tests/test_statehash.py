"""The incremental state hash: exactly ``state_hash`` after any changes, and verify's work linear.

``StateHasher`` must give the very digest ``state_hash`` gives (every saved hash depends on
it) on random states under random change sequences, and ``umpire games verify`` must
serialise work in proportion to the log, not to the log's length times the state's size.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from umpire.engine.events import JSON, Path, apply_change, copy_state, state_hash
from umpire.engine.statehash import StateHasher
from umpire.errors import IllegalActionError

KEYS = st.text(alphabet="ab_Zé0 \u4e00", max_size=3)
SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.floats(allow_nan=False)
    | st.text(max_size=6)
)
VALUES = st.recursive(
    SCALARS,
    lambda kids: st.lists(kids, max_size=4) | st.dictionaries(KEYS, kids, max_size=4),
    max_leaves=12,
)


def _outcome(state: JSON) -> str:
    """``state_hash``, or the name of the error it raises (a dict with mixed key types)."""
    try:
        return state_hash(state)
    except TypeError as exc:
        return type(exc).__name__


def _digest(hasher: StateHasher) -> str:
    try:
        return hasher.hexdigest()
    except TypeError as exc:
        return type(exc).__name__


def _containers(state: JSON, path: Path) -> list[Path]:
    """Every path to a dict or list inside ``state`` (``path`` is where ``state`` sits)."""
    out: list[Path] = []
    if isinstance(state, dict):
        out.append(path)
        for k, v in state.items():
            out += _containers(v, [*path, k])
    elif isinstance(state, list):
        out.append(path)
        for i, v in enumerate(state):
            out += _containers(v, [*path, i])
    return out


def _at(state: JSON, path: Path) -> JSON:
    for k in path:
        state = state[k]
    return state


def _change(data: st.DataObject, state: JSON) -> tuple[str, Path, JSON]:
    """A random change, mostly one that applies: any op, at any depth, new keys, negative
    indexes, new parents, int keys on dicts, tuples; sometimes one that cannot apply."""
    where = data.draw(st.sampled_from(_containers(state, []) or [[]]))
    node = _at(state, where) if where or isinstance(state, dict | list) else None
    op = data.draw(st.sampled_from(["set", "set", "inc", "append", "append", "remove", "delete"]))
    key: str | int
    if isinstance(node, list) and node and data.draw(st.booleans()):
        i = data.draw(st.integers(0, len(node) - 1))
        key = i - len(node) if data.draw(st.booleans()) else i
    elif isinstance(node, dict) and node and data.draw(st.booleans()):
        key = data.draw(st.sampled_from(list(node)))
    elif data.draw(st.integers(0, 9)) == 0:
        key = data.draw(st.integers(-3, 5))  # an int key on a dict: JSON makes it a string
    else:
        key = data.draw(KEYS)
    path: Path = [*where, key]
    if op == "set" and data.draw(st.integers(0, 5)) == 0:
        path += data.draw(st.lists(KEYS, min_size=1, max_size=2))  # parents are made
    value: JSON = None
    if op == "inc":
        value = data.draw(st.integers(-5, 5) | st.floats(-2, 2))
    elif op == "remove":
        target = _at(state, path) if _exists(state, path) else None
        if isinstance(target, list) and target and data.draw(st.booleans()):
            value = copy_state(data.draw(st.sampled_from(target)))
        else:
            value = data.draw(VALUES)
    elif op != "delete":
        value = data.draw(VALUES | st.tuples(SCALARS, SCALARS))
    return op, path, value


def _exists(state: JSON, path: Path) -> bool:
    try:
        _at(state, path)
    except (KeyError, IndexError, TypeError):
        return False
    return True


@settings(max_examples=300, deadline=None)
@given(data=st.data(), start=st.dictionaries(KEYS, VALUES, max_size=5) | st.lists(VALUES))
def test_incremental_hash_is_state_hash(data: st.DataObject, start: JSON) -> None:
    """After any sequence of changes (hashed after each, or after a few as an action does),
    the hasher's digest is ``state_hash`` of a state changed by plain ``apply_change``."""
    mine = StateHasher(copy_state(start))
    plain = copy_state(start)
    assert mine.hexdigest() == state_hash(plain)
    for _ in range(data.draw(st.integers(1, 25))):
        op, path, value = _change(data, plain)
        failed: type[BaseException] | None = None
        try:
            apply_change(plain, op, path, copy_state(value) if op == "remove" else value)
        except IllegalActionError as exc:
            failed = type(exc)
        if failed is None:
            mine.apply(op, path, value)
        else:
            with pytest.raises(failed):
                mine.apply(op, path, value)
        assert mine.state == plain
        if data.draw(st.integers(0, 2)) > 0:
            assert _digest(mine) == _outcome(plain)
    assert _digest(mine) == _outcome(plain)
    if not mine.unsaved:
        assert copy_state(plain) == plain  # nothing a JSON round trip would change


def test_unsaved_flags_what_json_would_change() -> None:
    """An int key on a dict or a tuple value marks the state unsaved; the hash still agrees."""
    h = StateHasher({"a": {"b": [1]}, "c": {}})
    h.hexdigest()
    h.apply("append", ["a", "b"], 2)
    assert not h.unsaved
    h.apply("set", ["c", 3], "x")
    assert h.unsaved and h.hexdigest() == state_hash({"a": {"b": [1, 2]}, "c": {"3": "x"}})
    h = StateHasher({"a": []})
    h.apply("append", ["a"], (1, 2))
    assert h.unsaved and h.hexdigest() == state_hash({"a": [[1, 2]]})
