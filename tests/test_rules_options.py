"""The ``[rules.options]`` seam and terrain variants: every module declares the options it
reads; one no module in use reads is refused with its file and line."""

from __future__ import annotations

from pathlib import Path

import pytest

from umpire.battle.compose import spec_of
from umpire.battle.scenario import load_scenario, parse_scenario
from umpire.errors import DataFileError
from umpire.scenarios import resolve_path


def _with(text: str, marker: str, extra: str) -> str:
    assert marker in text, marker  # a scenario edited under the test fails here, not later
    return text.replace(marker, marker + extra, 1)


def test_an_option_no_module_reads_is_one_line_with_its_line() -> None:
    """quick-acw declares no options: `fog` under its rules is named and located."""
    text = resolve_path("mcpherson_cards").read_text(encoding="utf-8")
    bad = _with(text, 'cards = "brigade"\n', "\n[rules.options]\nfog = true\n")
    with pytest.raises(DataFileError) as err:
        parse_scenario(bad, "x.toml")
    msg = str(err.value)
    assert "unknown rules option 'fog'" in msg and "x.toml:" in msg and "\n" not in msg


def test_options_reach_the_spec_sorted() -> None:
    spec = spec_of({"sequence": "quick-acw", "options": {"b": 2, "a": True}})
    assert spec.options == (("a", True), ("b", 2))
    assert spec.option("a") is True and spec.option("zz", 5) == 5
    assert spec_of({"sequence": "quick-acw"}).key() != spec.key()


def test_a_wall_variant_loads_and_reaches_the_board(tmp_path: Path) -> None:
    """A wall's variant (a rail fence) is kept; modules that do not read it see a wall."""
    from umpire.battle.setup import setup_for

    text = resolve_path("mcpherson_cards").read_text(encoding="utf-8")
    extra = '\n[[terrain]]\nkind = "wall"\nvariant = "rail"\npoints = [[1, 1], [5, 1]]\n'
    path = tmp_path / "s.toml"
    path.write_text(_with(text, 'tie = "confederate"\n', extra), encoding="utf-8")
    s = load_scenario(str(path))
    walls = [f for f in setup_for(s).board.features if f.kind == "wall"]
    assert [f.variant for f in walls] == ["rail"]


def test_rules_list_shows_each_modules_options(capsys: pytest.CaptureFixture[str]) -> None:
    """`umpire rules list` names the options a module reads (003's fog), text and JSON."""
    import json

    from umpire.cli.main import main

    assert main(["rules", "list", "--json"]) == 0
    mods = {m["id"]: m for m in json.loads(capsys.readouterr().out)}
    assert "fog" in mods["action-reaction"]["options"]
    assert mods["quick-acw"]["options"] == {}
    assert main(["rules", "list"]) == 0
    assert "option [rules.options] fog: XII.D fog" in capsys.readouterr().out
