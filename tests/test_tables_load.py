"""Loading table files: shipped tables cover their formulas, and every error names file:line."""

from __future__ import annotations

from pathlib import Path

import pytest

from umpire.errors import DataFileError, TableCoverageError, UnknownNameError
from umpire.tables import (
    TableSet,
    builtin_table_paths,
    builtin_tables,
    load_table_file,
    load_tables,
    parse_range,
)

GOOD = """\
# line 1: a comment
[[table]]
id = "events"
name = "Events"
formula = "2d6"
source = "test"

[[table.row]]
range = "2-6"
id = "low"
text = "Low"

[[table.row]]
range = "7"
id = "seven"
text = "Seven"
ref = "leaders"

[[table.row]]
range = "8-12"
id = "high"
text = "High"

[[table]]
id = "leaders"
name = "Leaders"
formula = "d66"
source = "test"

[[table.row]]
range = "11-36"
id = "first"
text = "First"

[[table.row]]
range = "41-66"
id = "second"
text = "Second"
limit = { per_day = 1 }
"""


def write(tmp_path: Path, text: str, name: str = "tables.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def error_of(tmp_path: Path, text: str) -> DataFileError:
    path = write(tmp_path, text)
    with pytest.raises(DataFileError) as caught:
        load_tables([path])
    return caught.value


# -- shipped tables --------------------------------------------------------------------


def test_builtin_tables_load_and_include_solo_events() -> None:
    tables = builtin_tables()
    assert {"solo_event_check", "solo_event_side", "solo_events"} <= set(tables.ids())
    assert builtin_tables() is tables  # cached
    assert any(p.name == "solo_events.toml" for p in builtin_table_paths())


@pytest.mark.parametrize("table", list(builtin_tables()), ids=lambda t: t.id)
def test_every_shipped_table_covers_its_formula_exactly_once(table: object) -> None:
    from umpire.tables import RollTable

    assert isinstance(table, RollTable)
    covering: dict[int, list[str]] = {}
    for row in table.rows:
        for value in table.results:
            if row.lo <= value <= row.hi:
                covering.setdefault(value, []).append(row.id)
    assert set(covering) == set(table.results)
    assert all(len(ids) == 1 for ids in covering.values()), covering
    assert all(row.lo in table.results and row.hi in table.results for row in table.rows)
    assert sum(p for _, p in table.row_probabilities()) == 1
    for row in table.rows:
        assert (row.label is None) == (row.reason is None)
        assert row.line is not None and table.line is not None
    assert table.source


def test_solo_events_follow_seed_001() -> None:
    tables = builtin_tables()
    check = tables.get("solo_event_check")
    assert [(r.range_text, r.effects["event"]) for r in check.rows] == [
        ("1", True),
        ("2-5", False),
        ("6", True),
    ]
    side = tables.get("solo_event_side")
    assert [r.effects["side"] for r in side.rows] == ["attacker", "defender"] * 3
    events = tables.get("solo_events")
    assert events.formula == "1d20" and len(events.rows) == 20
    choosers = {r.id: r.effects["chooser"] for r in events.rows}
    assert choosers["anxious"] == "random" and choosers["valiant_charge"] == "player"
    assert choosers["impetuous"] == "random" and choosers["hold_the_line"] == "player"
    assert all(t.source.startswith("001") for t in (check, side, events))


# -- a good file -----------------------------------------------------------------------


def test_good_file_loads_with_lines(tmp_path: Path) -> None:
    path = write(tmp_path, GOOD)
    tables = load_table_file(path)
    assert [t.id for t in tables] == ["events", "leaders"]
    events, leaders = tables
    assert events.line == 2 and leaders.line == 24
    assert [r.line for r in events.rows] == [8, 13, 19]
    assert events.file == str(path)
    assert leaders.is_d66 and not events.is_d66
    assert leaders.rows[1].limit is not None and leaders.rows[1].limit.per_day == 1
    tset = TableSet(tables)
    assert tset.ids() == ("events", "leaders")
    assert "events" in tset and len(tset) == 2


def test_parse_range_forms() -> None:
    assert parse_range("3") == (3, 3)
    assert parse_range(" 12 - 16 ") == (12, 16)
    assert parse_range("-3--1") == (-3, -1)
    for bad in ("", "a", "3-", "5-4", "1-2-3"):
        with pytest.raises(ValueError):
            parse_range(bad)


def test_integer_range_accepted(tmp_path: Path) -> None:
    tables = load_table_file(write(tmp_path, GOOD.replace('range = "7"', "range = 7")))
    assert tables[0].rows[1].range_text == "7"


# -- coverage --------------------------------------------------------------------------


def test_gap_names_file_line_table_and_results(tmp_path: Path) -> None:
    err = error_of(tmp_path, GOOD.replace('range = "2-6"', 'range = "3-6"'))
    assert isinstance(err, TableCoverageError)
    assert err.line == 2 and err.file is not None and err.file.endswith("tables.toml")
    assert str(err).endswith("tables.toml:2: table 'events' (2d6): result 2 uncovered")


def test_overlap_names_both_rows(tmp_path: Path) -> None:
    err = error_of(tmp_path, GOOD.replace('range = "8-12"', 'range = "7-12"'))
    assert isinstance(err, TableCoverageError)
    assert err.line == 2
    assert "table 'events' (2d6): result 7 covered twice (seven, high)" in str(err)


def test_gap_and_overlap_together_d66_runs(tmp_path: Path) -> None:
    text = GOOD.replace('range = "11-36"', 'range = "11-26"').replace(
        'range = "41-66"', 'range = "26"'
    )
    err = error_of(tmp_path, text)
    assert isinstance(err, TableCoverageError)
    assert err.line == 24
    assert str(err).endswith(
        "table 'leaders' (d66): results 31-66 uncovered; result 26 covered twice (first, second)"
    )


def test_impossible_result_is_an_error(tmp_path: Path) -> None:
    err = error_of(tmp_path, GOOD.replace('range = "8-12"', 'range = "8-13"'))
    assert isinstance(err, TableCoverageError)
    assert err.line == 2
    assert "row 'high' (8-13) names impossible result 13 (2d6 gives 2-12)" in str(err)


def test_impossible_d66_value_is_an_error(tmp_path: Path) -> None:
    err = error_of(tmp_path, GOOD.replace('range = "11-36"', 'range = "11-37"'))
    assert isinstance(err, TableCoverageError)
    assert "names impossible result 37" in str(err) and err.line == 24


def test_boolean_formula_refused_at_formula_line(tmp_path: Path) -> None:
    err = error_of(tmp_path, GOOD.replace('formula = "2d6"', 'formula = "2d6>=8"'))
    assert err.line == 5 and "integer results" in str(err)


def test_bad_notation_at_formula_line(tmp_path: Path) -> None:
    err = error_of(tmp_path, GOOD.replace('formula = "d66"', 'formula = "2x6"'))
    assert err.line == 27
    assert str(err).startswith(f"{tmp_path / 'tables.toml'}:27: table 'leaders': formula '2x6'")


# -- syntax and schema -----------------------------------------------------------------


def test_toml_syntax_error_has_line(tmp_path: Path) -> None:
    err = error_of(tmp_path, GOOD.replace('text = "Seven"', 'text = "Seven'))
    assert err.line == 16 and "TOML syntax error" in str(err)
    assert "\n" not in str(err)


def test_unknown_key_points_at_its_line(tmp_path: Path) -> None:
    err = error_of(tmp_path, GOOD.replace('range = "7"', 'rnage = "7"'))
    # the typo is reported (not the missing 'range' it causes), at its own line
    assert err.line == 14
    assert "row 'seven': unknown key 'rnage'" in str(err) and "(and 1 more error)" in str(err)
    err = error_of(tmp_path, GOOD.replace('text = "High"', 'text = "High"\ncolour = "red"'))
    assert err.line == 23
    assert "table 'events' row 'high': unknown key 'colour'" in str(err)


def test_missing_key_points_at_block_header(tmp_path: Path) -> None:
    err = error_of(tmp_path, GOOD.replace('name = "Leaders"\n', ""))
    assert err.line == 24 and "table 'leaders': missing key 'name'" in str(err)
    err = error_of(tmp_path, GOOD.replace('text = "Second"\n', ""))
    assert err.line == 35 and "row 'second': missing key 'text'" in str(err)


def test_wrong_type_points_at_key_line(tmp_path: Path) -> None:
    err = error_of(tmp_path, GOOD.replace("limit = { per_day = 1 }", 'limit = { per_day = "x" }'))
    assert err.line == 39 and "'per_day'" in str(err)
    err = error_of(tmp_path, GOOD.replace('range = "7"', "range = 7.5"))
    assert err.line == 14 and "range must be" in str(err)


def test_unknown_top_level_key(tmp_path: Path) -> None:
    err = error_of(tmp_path, "title = 'x'\n" + GOOD)
    assert err.line == 1 and "unknown key 'title'" in str(err)


def test_empty_file_needs_tables(tmp_path: Path) -> None:
    err = error_of(tmp_path, "# nothing\n")
    assert err.line == 1 and "missing key 'table'" in str(err)


def test_label_needs_reason_and_reason_needs_label(tmp_path: Path) -> None:
    err = error_of(tmp_path, GOOD.replace('text = "High"', 'text = "High"\nlabel = "default"'))
    assert err.line == 23 and "needs a 'reason'" in str(err)
    err = error_of(tmp_path, GOOD.replace('text = "High"', 'text = "High"\nreason = "why"'))
    assert err.line == 23 and "without a label" in str(err)
    err = error_of(
        tmp_path, GOOD.replace('text = "High"', 'text = "High"\nlabel = "guess"\nreason = "r"')
    )
    assert err.line == 23 and "'label'" in str(err)


def test_malformed_range_at_range_line(tmp_path: Path) -> None:
    err = error_of(tmp_path, GOOD.replace('range = "8-12"', 'range = "12-8"'))
    assert err.line == 20 and "malformed range '12-8'" in str(err)
    err = error_of(tmp_path, GOOD.replace('range = "8-12"', 'range = "8 to 12"'))
    assert err.line == 20


def test_duplicate_row_id(tmp_path: Path) -> None:
    err = error_of(tmp_path, GOOD.replace('id = "high"', 'id = "low"'))
    assert err.line == 21 and "duplicate row id (first at line 8)" in str(err)


def test_effects_must_be_json(tmp_path: Path) -> None:
    err = error_of(
        tmp_path, GOOD.replace('text = "High"', 'text = "High"\neffects = { d = 1979-05-27 }')
    )
    assert err.line == 23 and "effects hold a date" in str(err)


# -- references and ids ----------------------------------------------------------------


def test_unknown_ref(tmp_path: Path) -> None:
    err = error_of(tmp_path, GOOD.replace('ref = "leaders"', 'ref = "nobody"'))
    assert err.line == 13
    assert "ref to unknown table 'nobody' (known: events, leaders)" in str(err)


def test_ref_cycle(tmp_path: Path) -> None:
    err = error_of(tmp_path, GOOD.replace('text = "First"', 'text = "First"\nref = "events"'))
    assert "cycle: events.seven -> leaders.first -> events" in str(err)
    assert err.line == 13


def test_self_ref_cycle(tmp_path: Path) -> None:
    err = error_of(tmp_path, GOOD.replace('ref = "leaders"', 'ref = "events"'))
    assert "cycle: events.seven -> events" in str(err)


def test_duplicate_table_in_one_file(tmp_path: Path) -> None:
    err = error_of(
        tmp_path, GOOD.replace('id = "leaders"', 'id = "events"').replace('ref = "leaders"', "")
    )
    assert err.line == 25 and "duplicate table id 'events' (first at line 2)" in str(err)


def test_duplicate_table_across_files_names_both(tmp_path: Path) -> None:
    one = write(tmp_path, GOOD, "one.toml")
    two = write(tmp_path, GOOD.replace('ref = "leaders"', ""), "two.toml")
    with pytest.raises(DataFileError) as caught:
        load_tables([one, two])
    message = str(caught.value)
    assert message.startswith(f"{two}:2: duplicate table id 'events'")
    assert f"also defined at {one}:2" in message


def test_user_file_may_ref_builtin_but_not_redefine(tmp_path: Path) -> None:
    user = GOOD.replace('ref = "leaders"', 'ref = "solo_events"')
    tables = load_tables([write(tmp_path, user)], base=builtin_tables())
    assert "solo_events" in tables and "events" in tables
    clash = user.replace('id = "events"', 'id = "solo_events"').replace('ref = "solo_events"', "")
    with pytest.raises(DataFileError, match="duplicate table id 'solo_events'"):
        load_tables([write(tmp_path, clash, "clash.toml")], base=builtin_tables())


def test_unknown_table_lists_known() -> None:
    with pytest.raises(UnknownNameError, match=r"unknown table 'x' \(known: .*solo_events"):
        builtin_tables().get("x")


def test_missing_and_binary_files(tmp_path: Path) -> None:
    with pytest.raises(DataFileError, match="cannot read"):
        load_table_file(tmp_path / "absent.toml")
    bad = tmp_path / "bad.toml"
    bad.write_bytes(b"a = 1\n\xff\n")
    with pytest.raises(DataFileError) as caught:
        load_table_file(bad)
    assert caught.value.line == 2


def test_locator_handles_subtables_and_multiline_strings(tmp_path: Path) -> None:
    text = GOOD.replace(
        'text = "Second"\nlimit = { per_day = 1 }\n',
        'text = """Second\n[[table.row]]\nrange = "fake"\n"""\n\n[table.row.limit]\nper_day = 0\n',
    )
    err = error_of(tmp_path, text)
    assert err.line == 44 and "'per_day'" in str(err)
    err = error_of(tmp_path, text.replace("per_day = 0", "per_week = 1"))
    assert err.line == 44 and "unknown key 'per_week'" in str(err)
    err = error_of(tmp_path, text.replace("per_day = 0", ""))
    assert err.line == 43 and "limit" in str(err)
