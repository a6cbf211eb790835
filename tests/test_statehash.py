"""The incremental state hash: exactly ``state_hash`` after any changes, and verify's work linear.

``StateHasher`` must give the very digest ``state_hash`` gives (every saved hash depends on
it) on random states under random change sequences, and ``umpire games verify`` must
serialise work in proportion to the log, not to the log's length times the state's size.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from umpire.dice import SeededSource
from umpire.engine import Game, RandomPolicy
from umpire.engine.events import JSON, Path, apply_change, copy_state, state_hash
from umpire.engine.statehash import StateHasher
from umpire.errors import IllegalActionError
from umpire.store import Store, verify_export

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


# -- verify of real games: the same hashes, and work linear in the log ----------------


def _cwb_game(actions: int, seed: int = 5) -> Game:
    """A Gettysburg book game: each player turn its random events, moves on the map, next."""
    from umpire.rules.cwb_events import MODULE, default_scenario

    rng = random.Random(seed)
    pols = {"union": RandomPolicy(), "confederate": RandomPolicy()}
    game = Game.new(MODULE, default_scenario("July 1 05:00"), SeededSource(seed), pols)
    while len(game.actions) < actions and not game.state["game_over"]:
        st_ = game.state
        side = st_["clock"]["side"]
        units = [
            u for u, d in st_["units"].items() if d["status"] == "in_play" and d["side"] == side
        ]
        game.act("phase", {"side": side})
        for _ in range(3):
            if units and len(game.actions) < actions:
                hex_ = f"A{rng.randint(1, 26):02d}.{rng.randint(1, 20):02d}"
                game.act("place", {"unit": rng.choice(units), "hex": hex_})
        if len(game.actions) < actions:
            game.act("next")
    return game


def test_every_prefix_of_a_real_game_hashes_as_recorded() -> None:
    """Replaying a Gettysburg game change by change, the incremental digest after every
    action is ``state_hash`` of the state and the hash the game recorded."""
    game = _cwb_game(160)
    hasher = StateHasher(copy_state(game.module.initial_state(copy_state(game.scenario))))
    for record in Game.replay_steps(hasher.state, game.actions, hasher.apply):
        assert hasher.hexdigest() == state_hash(hasher.state) == record.state_hash
    game.reexecute()


def _session_export(tmp: Any, rolls: int) -> dict[str, Any]:
    store = Store(tmp / f"s{rolls}.db")
    game = Game.new("session", {"title": "long"}, SeededSource(7))
    for i in range(rolls):
        game.act("roll", {"expr": ("2d6", "d66", "3d6+1")[i % 3], "purpose": f"roll {i}"})
    store.create("long", game)
    return store.export("long")


def _verify_work(export: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> tuple[int, int]:
    """(bytes serialised by ``json.dumps``, state digests) while verifying ``export``."""
    encoded = [0]
    digests = [0]
    dumps = json.dumps
    hexdigest = StateHasher.hexdigest

    def counting_dumps(*args: Any, **kwargs: Any) -> str:
        out = dumps(*args, **kwargs)
        encoded[0] += len(out)
        return out

    def counting_hexdigest(self: StateHasher) -> str:
        digests[0] += 1
        return hexdigest(self)

    with monkeypatch.context() as m:
        m.setattr(json, "dumps", counting_dumps)
        m.setattr(StateHasher, "hexdigest", counting_hexdigest)
        verify_export(export)
    return encoded[0], digests[0]


def test_verify_serialises_in_proportion_to_the_log(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Doubling a game's length about doubles the JSON verify writes out (re-serialising the
    growing state after every action, as verify once did, quadruples it), and verify
    hashes each action's state once."""
    short, long_ = _session_export(tmp_path, 150), _session_export(tmp_path, 300)
    short_bytes, short_digests = _verify_work(short, monkeypatch)
    long_bytes, long_digests = _verify_work(long_, monkeypatch)
    assert (short_digests, long_digests) == (150, 300)
    assert long_bytes / short_bytes < 2.5, (short_bytes, long_bytes)
    # and in absolute terms: a few times the export's own size, not the states' sum
    assert long_bytes < 6 * len(json.dumps(long_)), (long_bytes, len(json.dumps(long_)))
