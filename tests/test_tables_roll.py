"""Rolling tables: scripted dice, nested refs with a full trace, limits, JSON form."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from umpire.dice import ScriptedSource, SeededSource
from umpire.errors import DiceSourceError
from umpire.tables import LIMIT_NOTE, Label, TableSet, builtin_tables, parse_table_text

TEXT = """\
[[table]]
id = "events"
name = "Events"
formula = "2d6"
source = "test"

[[table.row]]
range = "2-6"
id = "low"
text = "Low"
label = "default"
reason = "a filled gap, for the test"

[[table.row]]
range = "7"
id = "leader"
text = "Consult the leader table"
ref = "leaders"

[[table.row]]
range = "8-11"
id = "high"
text = "High"
effects = { kind = "high", amount = 2, tags = ["a", "b"] }

[[table.row]]
range = "12"
id = "ambush"
text = "Ambush"
limit = { per_day = 1, per_game = 3 }

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
id = "arrest"
text = "Arrest"
limit = { per_game = 2 }
"""


@pytest.fixture
def tables() -> TableSet:
    return TableSet(parse_table_text(TEXT, file="roll.toml"))


def test_plain_roll_with_scripted_dice(tables: TableSet) -> None:
    result = tables.get("events").roll(ScriptedSource([4, 5]), tables=tables)
    assert result.outcome.id == "high"
    assert result.outcome.effects == {"kind": "high", "amount": 2, "tags": ["a", "b"]}
    assert not result.exhausted and result.note == ""
    (step,) = result.steps
    assert (step.raw, step.modified, step.row_id, step.range_text) == (9, 9, "high", "8-11")
    assert step.roll.faces == (4, 5)
    assert step.p_row == Fraction(5 + 4 + 3 + 2, 36)


def test_nested_ref_traces_both_steps(tables: TableSet) -> None:
    result = tables.get("events").roll(ScriptedSource([3, 4, 1, 6]), mod=0, tables=tables)
    assert result.table_id == "events"
    assert result.outcome.id == "first"
    assert [s.table_id for s in result.steps] == ["events", "leaders"]
    assert [s.row_id for s in result.steps] == ["leader", "first"]
    assert result.steps[1].raw == 16 and result.steps[1].formula == "d66"
    assert result.steps[0].p_row == Fraction(6, 36)
    assert result.steps[1].p_row == Fraction(18, 36)


def test_mod_and_shift_apply_to_the_first_table_only(tables: TableSet) -> None:
    result = tables.get("events").roll(ScriptedSource([2, 3, 6, 6]), mod=2, tables=tables)
    first, second = result.steps
    assert (first.raw, first.modified, first.row_id, first.mod) == (5, 7, "leader", 2)
    assert (second.raw, second.modified, second.mod, second.shift) == (66, 66, 0, 0)
    result = tables.get("events").roll(ScriptedSource([1, 1]), shift=2, tables=tables)
    assert result.outcome.id == "high" and result.steps[0].shift == 2


def test_limit_reached_gives_exhausted(tables: TableSet) -> None:
    events = tables.get("events")
    fresh = events.roll(ScriptedSource([6, 6]), tables=tables, used_today={"events.ambush": 0})
    assert fresh.outcome.id == "ambush" and not fresh.exhausted
    spent = events.roll(ScriptedSource([6, 6]), tables=tables, used_today={"events.ambush": 1})
    assert spent.exhausted and spent.outcome.id == "ambush"
    assert "1 per day" in spent.note and LIMIT_NOTE in spent.note
    game = events.roll(ScriptedSource([6, 6]), tables=tables, used_game={"events.ambush": 3})
    assert game.exhausted and "3 per game" in game.note
    other = events.roll(ScriptedSource([6, 6]), tables=tables, used_today={"events.low": 9})
    assert not other.exhausted


def test_limit_on_nested_row_uses_nested_table_key(tables: TableSet) -> None:
    result = tables.get("events").roll(
        ScriptedSource([3, 4, 5, 1]), tables=tables, used_game={"leaders.arrest": 2}
    )
    assert result.exhausted and result.outcome.id == "arrest"
    assert len(result.steps) == 2


def test_label_and_reason_carried(tables: TableSet) -> None:
    result = tables.get("events").roll(ScriptedSource([1, 2]), tables=tables)
    assert result.outcome.label is Label.DEFAULT
    assert result.outcome.reason == "a filled gap, for the test"


def test_json_is_plain(tables: TableSet) -> None:
    result = tables.get("events").roll(ScriptedSource([3, 4, 1, 6]), tables=tables)
    data = json.loads(json.dumps(result.to_json()))
    assert data["table"] == "events" and data["outcome"]["id"] == "first"
    assert [s["table"] for s in data["trace"]] == ["events", "leaders"]
    assert data["trace"][0]["p"] == "1/6"
    assert data["trace"][1]["roll"]["total"] == 16
    assert set(data["trace"][0]) == {
        "table",
        "formula",
        "roll",
        "raw",
        "modified",
        "mod",
        "shift",
        "row",
        "range",
        "p",
    }


def test_scripted_faces_running_out_is_a_dice_error(tables: TableSet) -> None:
    with pytest.raises(DiceSourceError):
        tables.get("events").roll(ScriptedSource([3, 4]), tables=tables)


def test_seeded_rolls_repeat() -> None:
    table = builtin_tables().get("solo_events")
    one = [table.roll(SeededSource(7)).outcome.id for _ in range(3)]
    source = SeededSource(7)
    two = [table.roll(source).outcome.id for _ in range(3)]
    assert len(set(one)) == 1 and one[0] == two[0]


def test_shipped_solo_events_scripted() -> None:
    tables = builtin_tables()
    assert tables.get("solo_event_check").roll(ScriptedSource([6])).outcome.effects == {
        "event": True
    }
    assert tables.get("solo_event_side").roll(ScriptedSource([3])).outcome.effects == {
        "side": "attacker"
    }
    outcome = tables.get("solo_events").roll(ScriptedSource([12])).outcome
    assert outcome.id == "heroic_rally" and outcome.label is Label.READING
