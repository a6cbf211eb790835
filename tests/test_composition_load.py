"""A scenario's [rules] table: roles named per module, refused in one line when wrong.

Issue "One tactical engine ...": an unknown module, an impossible combination and a
malformed [rules] table each get a clear one-line error naming file and line, exit 2,
and nothing is written.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from test_acw_cli import one_line_error, run, saved
from umpire.battle.compose import CompositionError, compose, spec_of
from umpire.battle.roles import RulesSpec
from umpire.battle.scenario import parse_scenario
from umpire.scenarios import SHIPPED

BASE = (SHIPPED / "mcpherson_ridge.toml").read_text(encoding="utf-8")


def with_rules(table: str) -> str:
    """McPherson's Ridge with its ``rules = ...`` line (line 3) replaced."""
    assert 'rules = "quick_acw"\n' in BASE
    return BASE.replace('rules = "quick_acw"\n', table + "\n")


@pytest.mark.parametrize(
    ("table", "line", "needle"),
    [
        ('rules = "pickett"', 3, "unknown rules module 'pickett' (known: "),
        ('[rules]\ncombat = "napoleon"', 3, "unknown rules module 'napoleon' for combat"),
        ('[rules]\nevents = "solo-events"', 4, "rules.events: Input should be a valid list"),
        ('[rules]\nsequnce = "quick-acw"', 4, "rules.sequnce: Extra inputs are not permitted"),
        ('[rules]\nfirst = "prussia"', 4, "rules.first: Input should be 'union' or 'confederate'"),
        ('[rules]\nevents = ["quick-acw"]', 3, "quick-acw provides no events role"),
        (
            '[rules]\nsequence = "card-draw"\nstatus = "quick-acw"',
            3,
            "sequence 'card-draw' cannot run with status 'quick-acw': card draws need",
        ),
        ('[rules]\ncombat = "five-step"', 3, "five-step provides no combat role"),
    ],
)
def test_bad_rules_table_is_one_line_with_file_and_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, table: str, line: int, needle: str
) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(with_rules(table), encoding="utf-8")
    code, out, err = run(capsys, "battle", str(path), "--seed", "1")
    one_line_error(code, out, err, f"{path}:{line}:", needle)
    assert saved(capsys) == {}  # nothing written


def test_plain_string_and_table_name_the_same_rules() -> None:
    """Today's ``rules = "quick_acw"`` still loads, as the table naming quick-acw everywhere."""
    old = parse_scenario(BASE)
    new = parse_scenario(
        with_rules('[rules]\nsequence = "quick-acw"\ncombat = "quick-acw"\nstatus = "quick-acw"')
    )
    assert spec_of(old.rules) == spec_of(new.rules)
    comp = compose(spec_of(old.rules))
    assert (comp.sequence.id, comp.combat.id, comp.status.id) == ("quick-acw",) * 3
    assert comp.events == []


def test_status_defaults_to_the_sequence_module_else_the_combat_module() -> None:
    """compose: status unnamed -> the sequence module's own status if it has one."""
    comp = compose(RulesSpec(sequence="quick-acw", combat="quick-acw"))
    assert comp.status.id == "quick-acw"


def test_events_named_twice_is_refused() -> None:
    with pytest.raises(CompositionError, match=r"named twice|provides no events"):
        compose(RulesSpec(events=("quick-acw", "quick-acw")))
