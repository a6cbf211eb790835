"""``umpire table list | show | roll`` through typer's CliRunner on ``table_app``."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from umpire.cli.table_cmd import table_app
from umpire.errors import DataFileError, UnknownNameError

runner = CliRunner()

USER = """\
[[table]]
id = "user_outer"
name = "User outer"
formula = "1d6"
source = "test"

[[table.row]]
range = "1-6"
id = "always"
text = "Always roll the solo events"
ref = "solo_events"
"""


def test_list_json_and_human() -> None:
    result = runner.invoke(table_app, ["list", "--json"])
    assert result.exit_code == 0, result.output
    rows = {t["id"]: t for t in json.loads(result.output)}
    assert rows["solo_events"]["formula"] == "1d20" and rows["solo_events"]["rows"] == 20
    assert rows["solo_event_check"]["source"].startswith("001")
    human = runner.invoke(table_app, ["list"])
    assert human.exit_code == 0 and "solo_event_side" in human.output


def test_show_json_has_exact_probabilities_and_labels() -> None:
    result = runner.invoke(table_app, ["show", "solo_event_check", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert [(r["id"], r["range"], r["p"]) for r in data["rows"]] == [
        ("event_on_1", "1", "1/6"),
        ("no_event", "2-5", "2/3"),
        ("event_on_6", "6", "1/6"),
    ]
    events = json.loads(runner.invoke(table_app, ["show", "solo_events", "--json"]).output)
    heroic = next(r for r in events["rows"] if r["id"] == "heroic_rally")
    assert heroic["label"] == "reading" and "keep the better" in heroic["reason"]


def test_show_human_marks_labelled_rows_and_percent() -> None:
    result = runner.invoke(table_app, ["show", "solo_events"])
    assert result.exit_code == 0, result.output
    assert "[READING]" in result.output and "5.00%" in result.output and "1/20" in result.output


def test_show_with_mod_and_shift() -> None:
    result = runner.invoke(table_app, ["show", "solo_event_check", "--mod", "9", "--json"])
    data = json.loads(result.output)
    assert [r["p"] for r in data["rows"]] == ["0/1", "0/1", "1/1"]
    assert (data["mod"], data["shift"]) == (9, 0)


def test_roll_json_keys_and_trace() -> None:
    result = runner.invoke(
        table_app, ["roll", "solo_events", "--seed", "42", "--mod", "3", "--shift", "-1", "--json"]
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert {"table", "seed", "mod", "shift", "trace", "outcome", "exhausted", "rows"} <= set(data)
    assert (data["table"], data["seed"], data["mod"], data["shift"]) == ("solo_events", 42, 3, -1)
    (step,) = data["trace"]
    assert step["modified"] == min(step["raw"] + 3, 20)
    assert set(data["outcome"]) == {"id", "text", "effects", "label", "reason"}
    assert len(data["rows"]) == 20 and data["rows"][0] == {
        "id": "urgent_assistance",
        "range": "1",
        "p": "0/1",
    }
    again = runner.invoke(
        table_app, ["roll", "solo_events", "--seed", "42", "--mod", "3", "--shift", "-1", "--json"]
    )
    assert json.loads(again.output) == data


def test_roll_human_without_seed_prints_one() -> None:
    result = runner.invoke(table_app, ["roll", "solo_event_check"])
    assert result.exit_code == 0, result.output
    assert "repeat with --seed" in result.output
    assert "1. solo_event_check: d6" in result.output and "outcome:" in result.output


def test_roll_user_file_follows_ref_into_builtin(tmp_path: Path) -> None:
    path = tmp_path / "mine.toml"
    path.write_text(USER, encoding="utf-8")
    result = runner.invoke(
        table_app, ["roll", "user_outer", "--file", str(path), "--seed", "1", "--json"]
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert [s["table"] for s in data["trace"]] == ["user_outer", "solo_events"]
    assert data["outcome"]["id"] == data["trace"][1]["row"]
    listed = json.loads(runner.invoke(table_app, ["list", "--json", "-f", str(path)]).output)
    assert "user_outer" in {t["id"] for t in listed}


def test_unknown_table_is_an_umpire_error() -> None:
    result = runner.invoke(table_app, ["roll", "no_such_table"])
    assert isinstance(result.exception, UnknownNameError)
    assert "unknown table 'no_such_table' (known: " in str(result.exception)
    result = runner.invoke(table_app, ["show", "no_such_table"])
    assert isinstance(result.exception, UnknownNameError)


def test_bad_user_file_is_a_data_error(tmp_path: Path) -> None:
    path = tmp_path / "clash.toml"
    path.write_text(USER.replace("user_outer", "solo_events").replace("ref = ", "# "), "utf-8")
    result = runner.invoke(table_app, ["list", "--file", str(path)])
    assert isinstance(result.exception, DataFileError)
    assert str(result.exception).startswith(f"{path}:1: duplicate table id 'solo_events'")
