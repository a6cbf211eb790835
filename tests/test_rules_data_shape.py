"""An edited copy of a module's rules data (``--rules-data``) is read against the shipped
file's vocabulary: unknown and missing keys, values of another kind, NaN and infinities are
refused in one line naming the file, the line and the key, before any battle is played
(they used to play on, or fail with a Python message naming the shipped file)."""

from __future__ import annotations

import math
import re
import tomllib
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from umpire.cli.main import main
from umpire.errors import DataFileError, UmpireError
from umpire.rules.data import ShapeError, check_shape, data_dir, dir_overlay

MODULES = ["quick-acw", "action-reaction", "five-step", "solo-events"]


def copy_of(tmp_path: Path, module: str = "quick-acw") -> Path:
    """``umpire rules copy MODULE`` into a fresh folder."""
    where = tmp_path / "copy"
    assert main(["rules", "copy", module, str(where)]) == 0
    return where


def edit(where: Path, old: str, new: str) -> None:
    path = where / "rules.toml"
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


@pytest.mark.parametrize("module", MODULES)
def test_an_unedited_copy_of_every_module_is_accepted(module: str, tmp_path: Path) -> None:
    assert dir_overlay(str(copy_of(tmp_path, module)))


@pytest.mark.parametrize(
    ("old", "new", "line", "words"),
    [
        # seed 002 MOVEMENT "Foot-line formation | 6\"": inches, a finite number
        ("open = 6.0", "open = nan", 33, "'movement.foot_line.open' = nan is not a finite number"),
        ("open = 10.0", "open = inf", 37, "'movement.foot_column.open' = inf is not a finite"),
        # seed 002 MORALE "USA/CSA 8+/7+": a whole number on 2d6
        ("morale = 7", "morale = 7.5", 18, "'sides.confederate.morale' = 7.5 must be a whole"),
        ("morale = 7", 'morale = "seven"', 18, "must be a whole number, like 7"),
        ("morale = 7", "moral = 7", 18, "unknown key 'sides.confederate.moral' (nearest: morale)"),
        ("\nfraction = 0.5\n", "\n", None, "missing key 'removal.fraction' (shipped: 0.5)"),
        ("loss_on = 5", "loss_on = true", 120, "'leaders.loss_on' = True must be a whole"),
        # seed 002 FIRE's bands: a row of four, read beside each troop type's four numbers
        ("bands = [2.0, 6.0, 15.0, 30.0]", "bands = [2.0, 6.0, 15.0]", 71, "a list of the same"),
        ("bands = [2.0, 6.0, 15.0, 30.0]", "bands = [2.0, 6.0, nan, 30.0]", 71, "holds nan"),
    ],
)
def test_an_edit_outside_the_vocabulary_is_one_line_naming_file_line_and_key(
    old: str, new: str, line: int | None, words: str, tmp_path: Path
) -> None:
    where = copy_of(tmp_path)
    edit(where, old, new)
    with pytest.raises(DataFileError) as caught:
        dir_overlay(str(where))
    msg = str(caught.value)
    assert words in msg and "\n" not in msg, msg
    at = f"rules.toml:{line}:" if line else "rules.toml: "
    assert at in msg, msg


def test_the_cli_refuses_it_before_any_battle(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    where = copy_of(tmp_path)
    edit(where, "open = 6.0", "open = nan")
    capsys.readouterr()
    assert main(["simulate", "standard", "-n", "2", "--rules-data", str(where)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "not a finite number" in err and "Traceback" not in err
    assert str(where / "rules.toml") in err  # the user's file, not the shipped one


def test_named_leaders_are_an_open_table(tmp_path: Path) -> None:
    """Seed 002 LEADERS: "You may want to give specific ratings to historical figures": a
    copy may add a named leader (module.toml ``open_tables``), shaped like the shipped ones."""
    where = copy_of(tmp_path)
    with (where / "rules.toml").open("a", encoding="utf-8") as f:
        f.write("\n[leaders.named.hancock]\nbonus = 2\nradius = 6.0\n")
    assert dir_overlay(str(where))
    with (where / "rules.toml").open("a", encoding="utf-8") as f:
        f.write("\n[leaders.named.meade]\nbonus = 1\nradius = 5.0\nrank = 3\n")
    with pytest.raises(DataFileError, match=re.escape("unknown key 'leaders.named.meade.rank'")):
        dir_overlay(str(where))


def test_vary_refuses_nan(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    capsys.readouterr()
    argv = ["simulate", "standard", "-n", "2", "--vary", "quick-acw.sides.union.morale=nan"]
    assert main(argv) == 2
    assert "nan is not a finite number" in capsys.readouterr().err


# -- the check itself, fuzzed ----------------------------------------------------------------

SHIPPED = tomllib.loads((data_dir("quick-acw") / "rules.toml").read_text(encoding="utf-8"))
TOML_VALUES: st.SearchStrategy[Any] = st.recursive(
    st.none().map(lambda _: 0)
    | st.booleans()
    | st.integers(-(10**6), 10**6)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner),
    max_leaves=8,
)


def _leaf_paths(node: Any, at: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    if isinstance(node, dict):
        return [p for k, v in node.items() for p in _leaf_paths(v, (*at, k))]
    return [at]


LEAVES = _leaf_paths(SHIPPED)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(LEAVES), TOML_VALUES)
def test_any_one_value_changed_is_accepted_or_refused_by_name(
    path: tuple[str, ...], value: Any
) -> None:
    """Whatever a designer writes for one value, the check answers: accepted when it is like
    the shipped value (a finite number for a number, ...), else a ShapeError naming it."""
    import copy

    new = copy.deepcopy(SHIPPED)
    node = new
    for k in path[:-1]:
        node = node[k]
    old = node[path[-1]]
    node[path[-1]] = value
    try:
        check_shape(SHIPPED, new, ("leaders.named",))
    except ShapeError as exc:
        assert ".".join(path) in str(exc) or ".".join(path) in exc.path, str(exc)
        return
    except UmpireError as exc:  # pragma: no cover - would be a wrong kind of refusal
        raise AssertionError(f"not a ShapeError: {exc}") from None
    if isinstance(old, bool) or isinstance(value, bool):
        assert isinstance(old, bool) and isinstance(value, bool)
    elif isinstance(old, int | float):
        assert isinstance(value, int | float) and math.isfinite(value)
        assert isinstance(old, float) or isinstance(value, int)
    else:
        assert type(value) is type(old) or isinstance(old, list)


def test_a_copy_missing_a_whole_file_keeps_the_shipped_one(tmp_path: Path) -> None:
    """Only the files a copy holds replace the shipped ones (labels.toml may be left out)."""
    where = copy_of(tmp_path)
    (where / "labels.toml").unlink()
    assert dir_overlay(str(where))
