"""Issue 21, "Hard edges for files and expressions": random table files give a table or a
one-line error naming the file and the line, never a traceback; loading is linear in rows.

The issue's text: "Roll tables: loading is quadratic in rows (1,000 rows 9.6 s, 2,000 rows
41 s). Make it linear." (benchmarks/bench_tables.py times it; here the work is counted.)
"""

from __future__ import annotations

import re
import tempfile
from datetime import timedelta
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from umpire.errors import DataFileError
from umpire.tables import load_tables
from umpire.tables import locate as locate_module
from umpire.tables.loader import parse_table_text

BASE = [
    "[[table]]",
    'id = "events"',
    'name = "Events"',
    'formula = "2d6"',
    'source = "test"',
    "",
    "[[table.row]]",
    'range = "2-6"',
    'id = "low"',
    'text = "Low"',
    "",
    "[[table.row]]",
    'range = "7"',
    'id = "seven"',
    'text = "Seven"',
    'ref = "leaders"',
    "",
    "[[table.row]]",
    'range = "8-12"',
    'id = "high"',
    'text = "High"',
    'effects = { kind = "x", n = 2 }',
    "",
    "[[table]]",
    'id = "leaders"',
    'name = "Leaders"',
    'formula = "d66"',
    'source = "test"',
    "",
    "[[table.row]]",
    'range = "11-36"',
    'id = "first"',
    'text = "First"',
    "",
    "[[table.row]]",
    'range = "41-66"',
    'id = "second"',
    'text = "Second"',
    "limit = { per_day = 1 }",
]

_VALUES = st.one_of(
    st.sampled_from(
        [
            '"2d6"',
            '"6d666"',
            '"10d1000kh3"',
            '"' + "(" * 40 + 'd6"',
            '"2d6>=8"',
            '"1-99"',
            '"12-2"',
            '"x"',
            "7",
            "1e400",
            "nan",
            "true",
            "[1, 2]",
            "{ a = 1 }",
            "1979-05-27",
            '"low"',
            '"leaders"',
            '"events"',
            '"default"',
        ]
    ),
    st.text(alphabet="abc12-,\"'=[]{}#. ", max_size=12),
)
_LINES = st.one_of(
    st.sampled_from(["[[table]]", "[[table.row]]", "[table]", 'label = "reading"', "rnage = 1"]),
    st.builds(
        lambda a, b, c: f"{a},{b},{c}",
        st.integers(-3, 70),
        st.text("abc", max_size=4),
        st.text("xyz ", max_size=6),
    ),
    st.text(alphabet="abcdr=\"'[]{}0123456789-, \t#", max_size=30),
)


@st.composite
def _table_files(draw: st.DrawFn) -> str:
    lines = list(BASE)
    for _ in range(draw(st.integers(1, 6))):
        kind = draw(st.sampled_from(["drop", "dup", "value", "insert", "swap"]))
        i = draw(st.integers(0, len(lines) - 1))
        if kind == "drop":
            del lines[i]
        elif kind == "dup":
            lines.insert(i, lines[i])
        elif kind == "value" and "=" in lines[i]:
            lines[i] = lines[i].split("=", 1)[0] + "= " + draw(_VALUES)
        elif kind == "insert":
            lines.insert(i, draw(_LINES))
        elif kind == "swap":
            j = draw(st.integers(0, len(lines) - 1))
            lines[i], lines[j] = lines[j], lines[i]
        if not lines:
            lines = [""]
    return "\n".join(lines) + "\n"


@settings(
    max_examples=150,
    deadline=timedelta(seconds=5),
    suppress_health_check=[HealthCheck.too_slow],
)
@given(_table_files())
def test_issue21_random_table_files_load_or_refuse_naming_file_and_line(text: str) -> None:
    """A mangled table file (values, lines, CSV-ish rows) loads, or is refused with one line
    ``file:line: message``; nothing else escapes."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "fuzz.toml"
        path.write_text(text, encoding="utf-8")
        try:
            tables = load_tables([path])
        except DataFileError as exc:
            message = str(exc)
            assert "\n" not in message
            assert re.match(rf"{re.escape(str(path))}:\d+: \S", message), message
            line = int(message[len(str(path)) + 1 :].split(":", 1)[0])
            assert 1 <= line <= max(1, text.count("\n"))
            return
    assert len(tables) >= 1


def _rows_file(rows: int) -> str:
    out = ["[[table]]", 'id = "big"', 'name = "Big"', 'formula = "d1000"', 'source = "t"']
    for i in range(rows):
        out += ["[[table.row]]", f'range = "{i + 1}"', f'id = "r{i}"', f'text = "t{i}"']
    if rows < 1000:
        out += ["[[table.row]]", f'range = "{rows + 1}-1000"', 'id = "rest"', 'text = "rest"']
    return "\n".join(out) + "\n"


def test_issue21_table_loading_scans_the_file_once(monkeypatch: object) -> None:
    """'loading is quadratic in rows': each row's line was found by scanning the whole file
    again. Now one scan per file, whatever the number of rows."""
    import pytest

    assert isinstance(monkeypatch, pytest.MonkeyPatch)
    scans: list[int] = []
    real = locate_module.scan

    def counting(text: str) -> list[object]:
        scans.append(len(text))
        return real(text)  # type: ignore[return-value]

    monkeypatch.setattr(locate_module, "scan", counting)
    for rows in (10, 400):
        scans.clear()
        (table,) = parse_table_text(_rows_file(rows), file="big.toml")
        assert len(table.rows) == rows + 1
        assert len(scans) == 1
        assert table.rows[-1].line is not None and table.rows[5].line == 5 * 4 + 6
