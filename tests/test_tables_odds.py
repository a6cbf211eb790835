"""Exact row odds against brute-force enumeration of the dice faces, with mod and shift."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from umpire.dice import SeededSource
from umpire.tables import RollTable, builtin_tables, parse_table_text

TEXT = """\
[[table]]
id = "events"
name = "2d6 events"
formula = "2d6"
source = "test: shaped like seed 000's Random Event Table"

[[table.row]]
range = "2"
id = "two"
text = "2"

[[table.row]]
range = "3-4"
id = "three_four"
text = "3-4"

[[table.row]]
range = "5"
id = "five"
text = "5"

[[table.row]]
range = "6-8"
id = "middle"
text = "6-8"

[[table.row]]
range = "9-11"
id = "nine_eleven"
text = "9-11"

[[table.row]]
range = "12"
id = "twelve"
text = "12"

[[table]]
id = "leaders"
name = "d66 leaders"
formula = "d66"
source = "test: shaped like seed 000's Leader Table"

[[table.row]]
range = "11"
id = "army"
text = "army"

[[table.row]]
range = "12-16"
id = "corps"
text = "corps"

[[table.row]]
range = "21-25"
id = "division"
text = "division"

[[table.row]]
range = "26-41"
id = "brigade"
text = "brigade"

[[table.row]]
range = "42-44"
id = "arrest"
text = "arrest"

[[table.row]]
range = "45-53"
id = "fire"
text = "fire"

[[table.row]]
range = "54-63"
id = "own"
text = "own"

[[table.row]]
range = "64-66"
id = "enemy"
text = "enemy"

[[table]]
id = "gappy"
name = "d66+1 (results with gaps)"
formula = "d66+1"
source = "test"

[[table.row]]
range = "12-27"
id = "low"
text = "low"

[[table.row]]
range = "32-47"
id = "mid"
text = "mid"

[[table.row]]
range = "52-67"
id = "high"
text = "high"
"""

TABLES = {t.id: t for t in parse_table_text(TEXT, file="odds.toml")}


def _clamp(value: int, lo: int, hi: int) -> int:
    return min(max(value, lo), hi)


def _row_at(table: RollTable, value: int) -> int:
    matches = [i for i, row in enumerate(table.rows) if row.lo <= value <= row.hi]
    assert len(matches) == 1
    return matches[0]


def brute(
    table: RollTable,
    faces: list[tuple[int, ...]],
    read: Callable[[tuple[int, ...], int], int],
    mod: int,
    shift: int,
) -> list[Fraction]:
    """Count face combinations landing on each row; ``read`` gives the modified value."""
    counts = [0] * len(table.rows)
    for combo in faces:
        index = _clamp(_row_at(table, read(combo, mod)) + shift, 0, len(table.rows) - 1)
        counts[index] += 1
    return [Fraction(c, len(faces)) for c in counts]


def read_2d6(combo: tuple[int, ...], mod: int) -> int:
    return _clamp(sum(combo) + mod, 2, 12)


def read_d66(combo: tuple[int, ...], mod: int) -> int:
    tens, units = combo
    index = _clamp((tens - 1) * 6 + units + mod, 1, 36)  # 11 -> 1 ... 66 -> 36
    return 10 * ((index - 1) // 6 + 1) + (index - 1) % 6 + 1


TWO_D6 = list(itertools.product(range(1, 7), repeat=2))


@pytest.mark.parametrize("mod", [-12, -3, -1, 0, 1, 2, 5, 11])
@pytest.mark.parametrize("shift", [-7, -1, 0, 1, 3, 9])
def test_2d6_rows_match_brute_force(mod: int, shift: int) -> None:
    table = TABLES["events"]
    expected = brute(table, TWO_D6, read_2d6, mod, shift)
    got = [p for _, p in table.row_probabilities(mod, shift)]
    assert got == expected
    assert sum(got) == 1


@pytest.mark.parametrize("mod", [-40, -6, -1, 0, 1, 3, 6, 35, 50])
@pytest.mark.parametrize("shift", [-9, -1, 0, 1, 2, 8])
def test_d66_rows_match_brute_force_in_index_space(mod: int, shift: int) -> None:
    table = TABLES["leaders"]
    assert table.is_d66
    expected = brute(table, TWO_D6, read_d66, mod, shift)
    got = [p for _, p in table.row_probabilities(mod, shift)]
    assert got == expected
    assert sum(got) == 1


def test_d66_unmodified_odds_are_the_seed_ranges() -> None:
    odds = {row.id: p for row, p in TABLES["leaders"].row_probabilities()}
    assert odds == {
        "army": Fraction(1, 36),
        "corps": Fraction(5, 36),
        "division": Fraction(5, 36),
        "brigade": Fraction(8, 36),
        "arrest": Fraction(3, 36),
        "fire": Fraction(5, 36),
        "own": Fraction(6, 36),
        "enemy": Fraction(3, 36),
    }


def test_d66_mod_counts_in_index_space() -> None:
    table = TABLES["leaders"]
    assert table.modified_value(16, 1) == 21
    assert table.modified_value(21, -1) == 16
    assert table.modified_value(11, -5) == 11
    assert table.modified_value(63, 9) == 66
    assert table.modified_value(36, 6) == 46


def test_2d6_mod_clamps_at_table_ends() -> None:
    table = TABLES["events"]
    assert table.lookup(12, 4).id == "twelve"
    assert table.lookup(2, -4).id == "two"
    assert table.lookup(7, 0, 10).id == "twelve"
    assert table.lookup(7, 0, -10).id == "two"
    assert table.lookup(5, 0, 1).id == "middle"


def test_gappy_formula_reads_next_possible_result_below() -> None:
    table = TABLES["gappy"]
    assert not table.is_d66
    assert table.modified_value(17, 1) == 17  # 18 is impossible for d66+1
    assert table.modified_value(17, 5) == 22
    assert table.lookup(27, 1).id == "low"
    assert sum(p for _, p in table.row_probabilities(3, 0)) == 1


def test_shipped_tables_odds_sum_to_one_under_mods() -> None:
    for table in builtin_tables():
        for mod, shift in [(0, 0), (2, 0), (-3, 1), (5, -2)]:
            assert sum(p for _, p in table.row_probabilities(mod, shift)) == 1


ALL = [*TABLES.values(), *builtin_tables()]


@settings(max_examples=150, deadline=None)
@given(
    table_index=st.integers(0, len(ALL) - 1),
    mod=st.integers(-50, 50),
    shift=st.integers(-25, 25),
    seed=st.integers(0, 2**64),
)
def test_sampled_row_always_has_positive_probability(
    table_index: int, mod: int, shift: int, seed: int
) -> None:
    table = ALL[table_index]
    odds = table.row_probabilities(mod, shift)
    assert sum(p for _, p in odds) == 1
    assert all(p >= 0 for _, p in odds)
    result = table.roll(SeededSource(seed), mod=mod, shift=shift, tables=builtin_tables())
    first = result.steps[0]
    p_by_id = {row.id: p for row, p in odds}
    assert first.row_id in p_by_id and p_by_id[first.row_id] > 0
    assert first.p_row == p_by_id[first.row_id]
    assert first.modified == table.modified_value(first.raw, mod)
