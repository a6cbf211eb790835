"""Hex ids of the map style ``A43.01`` and hex distance across joined map sheets.

Seed 000 names hexes as ``<map letter><column>.<row>`` (Longstreet enters at A43.01).
Geometry (a labelled default, see defaults.toml ``hex_geometry``): flat-topped hexes in
vertical columns; a column with an even *global* number sits half a hex lower than its
odd neighbours ("even-q"). Sheets are placed by column/row offsets read from maps.toml.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from umpire.errors import DataFileError, UnknownNameError

DATA = Path(__file__).resolve().parent / "data"
HEX_RE = re.compile(r"^([A-Za-z])(\d{2,3})\.(\d{2,3})$")


@dataclass(frozen=True, slots=True)
class Sheet:
    """One map sheet: its size and where it sits in the joined map."""

    letter: str
    columns: int
    rows: int
    col_offset: int
    row_offset: int


@dataclass(frozen=True, slots=True)
class Hex:
    """A hex on one sheet, with its global column and row in the joined map."""

    sheet: str
    col: int
    row: int
    gcol: int
    grow: int

    def __str__(self) -> str:
        return f"{self.sheet}{self.col:02d}.{self.row:02d}"

    def cube(self) -> tuple[int, int, int]:
        """Cube coordinates (x, y, z) of the even-q offset position."""
        x = self.gcol
        z = self.grow - (self.gcol + (self.gcol & 1)) // 2
        return x, -x - z, z


class MapLayout:
    """The sheets of a game and how they join; parses hex ids and measures distances."""

    def __init__(self, sheets: Mapping[str, Sheet]):
        self.sheets = dict(sheets)

    @staticmethod
    def from_data(data: Mapping[str, Any], file: str = "maps.toml") -> MapLayout:
        """Build from the parsed maps.toml (``[sheet.X]`` tables); errors name the file and line."""
        raw = data.get("sheet")
        if not isinstance(raw, dict) or not raw:
            raise DataFileError("no [sheet.X] tables", file=file, line=1)
        sheets: dict[str, Sheet] = {}
        for letter, spec in raw.items():
            line = _line_of(file, f"[sheet.{letter}]")
            if not (isinstance(letter, str) and len(letter) == 1 and letter.isalpha()):
                raise DataFileError(
                    f"sheet name '{letter}' must be one letter", file=file, line=line
                )
            try:
                sheet = Sheet(
                    letter.upper(),
                    int(spec["columns"]),
                    int(spec["rows"]),
                    int(spec.get("col_offset", 0)),
                    int(spec.get("row_offset", 0)),
                )
            except (KeyError, TypeError, ValueError) as exc:
                raise DataFileError(
                    f"sheet {letter}: needs integer columns, rows, col_offset, row_offset ({exc})",
                    file=file,
                    line=line,
                ) from None
            if sheet.col_offset % 2:
                raise DataFileError(
                    f"sheet {letter}: col_offset {sheet.col_offset} must be even (column parity)",
                    file=file,
                    line=line,
                )
            if sheet.columns < 1 or sheet.rows < 1:
                raise DataFileError(f"sheet {letter}: empty sheet", file=file, line=line)
            sheets[sheet.letter] = sheet
        return MapLayout(sheets)

    @staticmethod
    def load(path: Path | None = None) -> MapLayout:
        """Load a maps.toml (the built-in layout when ``path`` is None)."""
        p = path or DATA / "maps.toml"
        try:
            data = tomllib.loads(p.read_text(encoding="utf-8"))
        except tomllib.TOMLDecodeError as exc:
            raise DataFileError(f"bad TOML: {exc}", file=str(p)) from None
        except OSError as exc:
            raise DataFileError(f"cannot read: {exc.strerror}", file=str(p)) from None
        return MapLayout.from_data(data, str(p))

    def to_json(self) -> dict[str, Any]:
        """The layout as the JSON of maps.toml (kept in a game's scenario)."""
        return {
            "sheet": {
                s.letter: {
                    "columns": s.columns,
                    "rows": s.rows,
                    "col_offset": s.col_offset,
                    "row_offset": s.row_offset,
                }
                for s in self.sheets.values()
            }
        }

    def parse(self, text: str) -> Hex:
        """Parse ``A43.01``; UnknownNameError for a malformed id or a hex off the sheets."""
        m = HEX_RE.match(text.strip())
        if m is None:
            raise UnknownNameError(
                f"unknown hex '{text}' (expected <map letter><column>.<row>, e.g. A43.01)"
            )
        letter, col, row = m.group(1).upper(), int(m.group(2)), int(m.group(3))
        sheet = self.sheets.get(letter)
        if sheet is None:
            known = ", ".join(sorted(self.sheets))
            raise UnknownNameError(f"unknown hex '{text}': no map sheet {letter} (sheets: {known})")
        if not (1 <= col <= sheet.columns and 1 <= row <= sheet.rows):
            raise UnknownNameError(
                f"unknown hex '{text}': sheet {letter} has columns 01-{sheet.columns:02d} "
                f"and rows 01-{sheet.rows:02d}"
            )
        return Hex(letter, col, row, sheet.col_offset + col, sheet.row_offset + row)

    def normal(self, text: str) -> str:
        """The canonical text of a hex id (``a43.1`` is refused; ``a43.01`` -> ``A43.01``)."""
        return str(self.parse(text))

    def distance(self, a: str | Hex, b: str | Hex) -> int:
        """Hexes between two hexes, across sheets (0 for the same hex)."""
        ha = a if isinstance(a, Hex) else self.parse(a)
        hb = b if isinstance(b, Hex) else self.parse(b)
        xa, ya, za = ha.cube()
        xb, yb, zb = hb.cube()
        return max(abs(xa - xb), abs(ya - yb), abs(za - zb))


def _line_of(file: str, header: str) -> int | None:
    try:
        lines = Path(file).read_text(encoding="utf-8").splitlines()
    except OSError:
        return None
    for no, line in enumerate(lines, 1):
        if line.strip() == header:
            return no
    return None
