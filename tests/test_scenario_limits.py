"""Issue 21, "Hard edges for files and expressions": scenario files with non-finite numbers
or too many pieces are refused in one line with file:line, before anything is built."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from umpire.battle.scenario import parse_scenario
from umpire.cli.main import main
from umpire.errors import DataFileError
from umpire.scenarios import (
    MAX_LEADERS,
    MAX_OBJECTIVES,
    MAX_POINTS,
    MAX_TERRAIN,
    MAX_TEXT,
    MAX_UNITS,
    SHIPPED,
)

STANDARD = (SHIPPED / "standard.toml").read_text(encoding="utf-8")
LINES = STANDARD.splitlines()
FACING = next(i for i, ln in enumerate(LINES) if ln.startswith("facing ="))
"""The line (0-based) of the first unit's facing."""


def _with_line(i: int, text: str) -> str:
    return "\n".join([*LINES[:i], text, *LINES[i + 1 :]]) + "\n"


def _refusal(text: str) -> str:
    with pytest.raises(DataFileError) as exc:
        parse_scenario(text, "x.toml")
    msg = str(exc.value)
    assert "\n" not in msg and msg.startswith("x.toml")
    return msg


@pytest.mark.parametrize("value", ["1e400", "inf", "-inf", "nan", "+inf"])
def test_a_non_finite_facing_is_refused_with_file_and_line(value: str) -> None:
    """Issue 21: "`facing = 1e400` (or inf, nan) crashes the check with 'math domain error'.
    Refuse non-finite numbers with file:line"."""
    msg = _refusal(_with_line(FACING, f"facing = {value}"))
    assert msg.startswith(f"x.toml:{FACING + 1}: units.0.facing: must be a finite number")


@pytest.mark.parametrize(
    ("old", "new", "field"),
    [
        ("width = 72", "width = nan", "table.width"),
        ("break_fraction = 0.5", "break_fraction = inf", "sides.union.break_fraction"),
    ],
)
def test_other_non_finite_numbers_are_refused(old: str, new: str, field: str) -> None:
    msg = _refusal(STANDARD.replace(old, new, 1))
    assert f"{field}: must be a finite number" in msg


def test_a_non_finite_facing_at_the_terminal_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`umpire battle FILE` with `facing = 1e400`: one line, exit 2, no traceback."""
    file = tmp_path / "bad.toml"
    file.write_text(_with_line(FACING, "facing = 1e400"))
    code = main(["battle", str(file), "--no-save"])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1
    assert err.startswith(f"umpire: error: {file}:{FACING + 1}: units.0.facing: must be a finite")


def _units(n: int) -> str:
    """``n`` one-stand units in rows 3" apart (none overlap, all on a 400" table)."""
    out = []
    for i in range(n):
        x, y = 2 + (i % 40) * 9.5, 4 + (i // 40) * 6
        side = "union" if i % 2 else "confederate"
        out.append(
            f'[[units]]\nid = "u{i}"\nside = "{side}"\ntype = "foot"\nstands = 1\n'
            f"x = {x}\ny = {y}\n"
        )
    return "\n".join(out)


HEAD = 'name = "many"\n[table]\nwidth = 400\nheight = 400\nturns = 5\n\n'


def test_ten_thousand_units_are_refused_before_anything_is_built(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Issue 21: "10,000 units take 34 s and 2.5 GB before the battle starts": set sane limits
    on units ... checked before anything is built (no unit is made from the file)."""
    import umpire.battle.setup as setup

    def never(*args: object, **kw: object) -> None:
        raise AssertionError("a unit was built from a file past the limits")

    monkeypatch.setattr(setup, "unit_from_spec", never)
    text = HEAD + _units(10_000)
    msg = _refusal(text)
    line = [i for i, ln in enumerate(text.splitlines()) if ln == "[[units]]"][MAX_UNITS] + 1
    assert msg == (
        f"x.toml:{line}: units: at most {MAX_UNITS} units in a scenario "
        f"(docs/scenarios.md, 'Limits')"
    )


def test_exactly_the_unit_limit_is_accepted() -> None:
    """The limit is inclusive: 400 units load (and are checked) as any scenario."""
    assert len(parse_scenario(HEAD + _units(MAX_UNITS), "x.toml").units) == MAX_UNITS


@pytest.mark.parametrize(
    ("key", "entry", "limit"),
    [
        ("terrain", 'kind = "woods"\npoints = [[1, 1], [2, 1], [2, 2]]', MAX_TERRAIN),
        ("leaders", 'id = "L{i}"\nside = "union"\nx = 1\ny = 1', MAX_LEADERS),
        ("objectives", 'name = "o{i}"\nx = 1\ny = 1', MAX_OBJECTIVES),
    ],
)
def test_terrain_leaders_and_objectives_have_limits(key: str, entry: str, limit: int) -> None:
    """Issue 21: "set and document sane limits on units and terrain"."""
    extra = "\n".join(f"[[{key}]]\n{entry.format(i=i)}\n" for i in range(limit + 1))
    msg = _refusal(HEAD + _units(2) + "\n" + extra)
    assert f"{key}: at most {limit} {key} in a scenario" in msg


def test_a_terrain_outline_has_a_limit_on_its_points() -> None:
    points = ", ".join(f"[{1 + i % 50}, {1 + i // 50}]" for i in range(MAX_POINTS + 1))
    msg = _refusal(HEAD + _units(2) + f'\n[[terrain]]\nkind = "woods"\npoints = [{points}]\n')
    assert f"terrain.0.points: List should have at most {MAX_POINTS} items" in msg


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ("x" * (MAX_TEXT + 1), "a scenario has at most 1,000,000"),
        ("a = " + "[" * 5000 + "]" * 5000, "bad TOML: arrays or tables nested too deeply"),
        ("a = " + "9" * 5000, "bad TOML: Exceeds the limit (4300 digits)"),
    ],
)
def test_files_that_are_no_scenario_are_refused_in_one_line(text: str, needle: str) -> None:
    assert needle in _refusal(text)


# -- property-based: random and mutated scenario files ----------------------------------

VALUES = st.one_of(
    st.sampled_from(["inf", "-inf", "nan", "1e400", "-1e400", "0", "-1", "1e300", "true"]),
    st.integers(-(10**6), 10**6).map(str),
    st.floats(allow_nan=False, allow_infinity=False).map(repr),
    st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=6).map(
        lambda s: '"' + s.replace("\\", "").replace('"', "").replace("\n", "") + '"'
    ),
    st.sampled_from(["[]", "[1, 2]", "{}", "[[1, 2], [3, 4]]", '"column"', '"cavalry"']),
)


@st.composite
def scenario_text(draw: st.DrawFn) -> str:
    """The standard scenario with some lines' values replaced, lines dropped or duplicated,
    or (sometimes) random text."""
    if draw(st.integers(0, 9)) == 0:
        return draw(st.text(max_size=80))
    lines = list(LINES)
    for _ in range(draw(st.integers(1, 4))):
        i = draw(st.integers(0, len(lines) - 1))
        how = draw(st.sampled_from(["value", "value", "value", "drop", "copy"]))
        if how == "value" and "=" in lines[i]:
            key = lines[i].split("=", 1)[0]
            lines[i] = f"{key}= {draw(VALUES)}"
        elif how == "drop":
            del lines[i]
        else:
            lines.insert(i, lines[i])
    return "\n".join(lines) + "\n"


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=scenario_text())
def test_random_scenario_files_load_or_are_refused_in_one_line(text: str) -> None:
    """Issue 21: random scenario TOML to the loader: a scenario or a one-line refusal naming
    the file (and the line where there is one), never a traceback."""
    try:
        parse_scenario(text, "x.toml")
    except DataFileError as exc:
        msg = str(exc)
        assert "\n" not in msg and msg.startswith("x.toml")


def test_units_written_inline_are_held_to_the_same_limit() -> None:
    """The text's `[[units]]` count is a fast first check; units written as an inline array
    meet the model's limit all the same."""
    one = '{{ id = "u{i}", side = "union", type = "foot", stands = 1, x = 1, y = 1 }}'
    units = ", ".join(one.format(i=i) for i in range(MAX_UNITS + 1))
    msg = _refusal(HEAD.replace("[table]", f"units = [{units}]\n[table]"))
    assert f"units: at most {MAX_UNITS} units in a scenario" in msg
