"""The layers of issue 25 (docs/design.md, "Layers (issue 25)"): what the import contract
cannot see by itself."""

from __future__ import annotations

import pytest

import umpire.scenarios
from umpire.battle.scenario import load_scenario, parse_scenario
from umpire.errors import DataFileError
from umpire.scenarios import SHIPPED, parse_scenario_unchecked

STANDARD = (SHIPPED / "standard.toml").read_text(encoding="utf-8")


def test_the_data_model_has_no_checked_load_so_no_caller_gets_an_unchecked_one_by_name() -> None:
    """umpire.scenarios sits below battle: it parses the data; the checked load is battle's."""
    assert not hasattr(umpire.scenarios, "load_scenario")
    assert not hasattr(umpire.scenarios, "parse_scenario")


def test_the_checked_parse_checks_what_the_unchecked_one_does_not() -> None:
    """A unit off the table parses as data but is refused when loaded for play."""
    text = STANDARD.replace("\nx = 8.0\n", "\nx = 9999.0\n", 1)
    assert text != STANDARD
    assert parse_scenario_unchecked(text, "t.toml").units[0].x == 9999.0
    with pytest.raises(DataFileError, match="off the table"):
        parse_scenario(text, "t.toml")


def test_load_scenario_reads_a_shipped_scenario_checked() -> None:
    """The shipped scenarios load through the checked path, as before the split."""
    assert load_scenario("standard") == parse_scenario_unchecked(STANDARD)


def test_sides_are_defined_once_in_the_engines_order_and_the_data_agrees() -> None:
    """Seed 002 'TURN ORDER (Confederate goes through sequence first, then the Union side)':
    umpire.sides.SIDES is that order, the quick ACW data's turn order is the same, and the
    other order is named (SIDES_UNION_FIRST), not a second SIDES."""
    import re
    from pathlib import Path

    from umpire.rules.quick_acw.rules import rules
    from umpire.sides import SIDES, SIDES_UNION_FIRST, other_side

    assert SIDES == ("confederate", "union")
    assert tuple(reversed(SIDES)) == SIDES_UNION_FIRST
    assert rules().order == SIDES
    assert [other_side(s) for s in SIDES] == list(reversed(SIDES))
    src = Path(umpire.scenarios.__file__).parents[1]
    again = [
        str(p.relative_to(src))
        for p in src.rglob("*.py")
        if p.name != "sides.py"
        and re.search(r"^SIDES\b[^=\n]*= *\(", p.read_text(encoding="utf-8"), re.M)
    ]
    assert again == [], f"define sides in umpire.sides, not again in {again}"
