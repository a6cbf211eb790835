"""Dice sources: seeded (counter-based), committed, scripted and physical."""

from __future__ import annotations

import hashlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from umpire.dice import (
    CommittedSource,
    DiceSource,
    PhysicalSource,
    ScriptedSource,
    SeededSource,
    parse,
    verify_commitment,
)
from umpire.errors import DiceSourceError, UmpireError


def test_every_source_is_a_dice_source() -> None:
    sources: list[DiceSource] = [
        SeededSource(1),
        CommittedSource(),
        ScriptedSource([1]),
        PhysicalSource(lambda n, s, p: "1"),
    ]
    assert [s.kind for s in sources] == ["seeded", "committed", "scripted", "physical"]
    assert all(s.position == 0 for s in sources)


# --------------------------------------------------------------------------- seeded


def test_seeded_is_deterministic_and_in_range() -> None:
    a, b = SeededSource(1234), SeededSource(1234)
    faces = a.dice(500, 6)
    assert faces == b.dice(500, 6)
    assert set(faces) == {1, 2, 3, 4, 5, 6}
    assert a.position == 500
    assert SeededSource(1235).dice(50, 6) != SeededSource(1234).dice(50, 6)
    assert all(1 <= f <= 1000 for f in SeededSource(7).dice(100, 1000))
    assert SeededSource(7).dice(10, 1) == [1] * 10
    assert SeededSource(7).dice(0, 6) == []


def test_known_stream() -> None:
    # pins the algorithm: changing it would break every saved game
    assert SeededSource(0).dice(8, 6) == [SeededSource.face_at(0, i, 6) for i in range(8)]
    assert SeededSource(1).dice(2, 6) == [1, 6]
    assert SeededSource(1234).dice(2, 6) == [4, 6]


@given(
    seed=st.integers(0, 2**128),
    sizes=st.lists(st.tuples(st.integers(0, 20), st.sampled_from([2, 6, 10, 20])), max_size=8),
    k=st.integers(0, 40),
)
@settings(max_examples=100, deadline=None)
def test_position_resume_and_face_at(seed: int, sizes: list[tuple[int, int]], k: int) -> None:
    fresh = SeededSource(seed)
    fresh.dice(k, 6)
    resumed = SeededSource(seed, position=k)
    for n, sides in sizes:
        start = fresh.position
        faces = fresh.dice(n, sides)
        assert faces == resumed.dice(n, sides)
        assert faces == [SeededSource.face_at(seed, start + i, sides) for i in range(n)]
    assert fresh.position == resumed.position


def test_groups_draw_the_same_stream_as_single_dice() -> None:
    one_by_one = SeededSource(99)
    singles = [one_by_one.dice(1, 6)[0] for _ in range(30)]
    assert SeededSource(99).dice(30, 6) == singles


def test_fork_is_independent() -> None:
    a = SeededSource(5)
    a.dice(3, 6)
    b = a.fork()
    assert b.dice(4, 6) == a.dice(4, 6)
    assert repr(a) == "SeededSource(seed=5, position=7)"


@pytest.mark.parametrize("seed", [-1, 2**256])
def test_bad_seeds(seed: int) -> None:
    with pytest.raises(DiceSourceError, match="seed must be in"):
        SeededSource(seed)


def test_bad_position() -> None:
    with pytest.raises(DiceSourceError):
        SeededSource(1, position=-1)


def test_roll_resumes_mid_game() -> None:
    e = parse("4d6kh3+d66")
    game = SeededSource(42)
    results = [e.roll(game) for _ in range(5)]
    again = SeededSource(42, position=3 * e.dice_count)
    assert [e.roll(again) for _ in range(2)] == results[3:]


# --------------------------------------------------------------------------- committed


def test_commitment() -> None:
    source = CommittedSource(123456789)
    assert source.commitment == hashlib.sha256(b"123456789").hexdigest()
    assert verify_commitment(123456789, source.commitment)
    assert verify_commitment(123456789, source.commitment.upper())
    assert not verify_commitment(123456788, source.commitment)
    assert source.reveal() == 123456789
    assert "123456789" not in repr(source)
    assert source.dice(10, 6) == SeededSource(123456789).dice(10, 6)
    assert source.kind == "committed"


def test_committed_draws_a_secret_seed() -> None:
    a, b = CommittedSource(), CommittedSource()
    assert a.reveal() != b.reveal()
    assert 0 <= a.reveal() < 2**128
    assert verify_commitment(a.reveal(), a.commitment)
    resumed = CommittedSource(a.reveal(), position=4)
    a.dice(4, 6)
    assert resumed.dice(5, 6) == a.dice(5, 6)


# --------------------------------------------------------------------------- scripted


def test_scripted_known_totals() -> None:
    r = parse("4d6kh3").roll(ScriptedSource([1, 6, 3, 5]))
    assert r.total == 14
    assert r.dice[0].faces == (1, 6, 3, 5)
    assert r.dice[0].kept == (6, 5, 3)
    assert parse("4d6kl2").roll(ScriptedSource([1, 6, 3, 5])).dice[0].kept == (1, 3)
    assert parse("2d6+1>=8").roll(ScriptedSource([3, 4])).total is True
    assert parse("2d6+1>=8").roll(ScriptedSource([3, 3])).total is False
    assert parse("d6/2").roll(ScriptedSource([5])).total == 3
    assert parse("d6//2").roll(ScriptedSource([5])).total == 2
    d66 = parse("d66").roll(ScriptedSource([3, 5]))
    assert d66.total == 35
    assert d66.dice[0].sides == 6 and d66.dice[0].faces == (3, 5)
    count = parse("9d10<=6").roll(ScriptedSource([1, 7, 6, 10, 2, 9, 8, 3, 6]))
    assert count.total == 5 and count.dice[0].kept == (1, 6, 2, 3, 6)
    r = parse("(3d6=6)+d4-1").roll(ScriptedSource([6, 6, 2, 4]))
    assert r.total == 5
    assert r.to_json() == {
        "expr": "(3d6=6)+d4-1",
        "dice": [
            {"term": "3d6=6", "sides": 6, "faces": [6, 6, 2], "kept": [6, 6]},
            {"term": "d4", "sides": 4, "faces": [4], "kept": [4]},
        ],
        "total": 5,
    }


def test_scripted_remaining_and_exhaustion() -> None:
    source = ScriptedSource([1, 2, 3, 4])
    parse("3d6").roll(source)
    assert source.remaining() == (4,)
    assert source.position == 3
    with pytest.raises(DiceSourceError) as info:
        source.dice(2, 6, "2d6")
    assert str(info.value) == "scripted dice ran out at die 5 (needed a d6 for '2d6')"
    assert source.remaining() == (4,)  # nothing consumed by the failed request


def test_scripted_out_of_range() -> None:
    with pytest.raises(DiceSourceError) as info:
        parse("2d6").roll(ScriptedSource([3, 7]))
    assert str(info.value) == "scripted face 7 at die 2 is outside 1..6 (needed a d6 for '2d6')"
    with pytest.raises(DiceSourceError, match=r"outside 1\.\.6"):
        ScriptedSource([0]).dice(1, 6)


# --------------------------------------------------------------------------- physical


def test_physical_reads_typed_faces() -> None:
    asked: list[tuple[int, int, str]] = []
    answers = iter(["3 5", " 4,6 ", "2;1", "6"])

    def ask(n: int, sides: int, purpose: str) -> str:
        asked.append((n, sides, purpose))
        return next(answers)

    source = PhysicalSource(ask)
    assert parse("2d6").roll(source).total == 8
    assert parse("d66").roll(source).total == 46
    assert source.dice(2, 6) == [2, 1]
    assert parse("d6/2").roll(source).total == 3
    assert asked == [(2, 6, "2d6"), (2, 6, "d66"), (2, 6, ""), (1, 6, "d6")]
    assert source.position == 7


@pytest.mark.parametrize(
    ("typed", "fragment"),
    [
        ("3 7", "7 is outside 1..6"),
        ("0 2", "0 is outside 1..6"),
        ("3", "got 1 face in '3' (expected 2 faces of a d6 for 'attack', each 1..6)"),
        ("3 4 5", "got 3 faces"),
        ("", "got 0 faces"),
        ("3 x", "'x' is not a number"),
        ("3 -2", "'-2' is not a number"),
        ("3 4.5", "'4.5' is not a number"),
        ("3 99999999999", "99999999999 is outside 1..6"),
    ],
)
def test_physical_refuses(typed: str, fragment: str) -> None:
    source = PhysicalSource(lambda n, s, p: typed)
    with pytest.raises(DiceSourceError) as info:
        source.dice(2, 6, "attack")
    assert fragment in str(info.value)
    assert "\n" not in str(info.value)
    assert isinstance(info.value, UmpireError)
    assert source.position == 0
