"""Load table files (TOML) into checked ``RollTable`` values, and keep them in a ``TableSet``.

Every error names the file and the line: TOML syntax, schema (unknown or missing keys,
wrong types), malformed ranges, bad dice notation, coverage, duplicate ids, references
to unknown tables and reference cycles.
"""

from __future__ import annotations

import functools
import re
import tomllib
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from umpire.errors import DataFileError, NotationError, UnknownNameError
from umpire.tables.locate import Locator, locate
from umpire.tables.model import Label, Limit, RollTable, Row, formula_outcomes, parse_range
from umpire.tables.schema import TableFileModel

_TOML_AT = re.compile(r"\s*\(at line (\d+), column (\d+)\)\s*$")
_TOML_END = re.compile(r"\s*\(at end of document\)\s*$")


def _toml_error(error: tomllib.TOMLDecodeError, text: str, file: str) -> DataFileError:
    message = str(error)
    at = _TOML_AT.search(message)
    if at is not None:
        line = int(at.group(1))
        message = message[: at.start()] + f" (column {at.group(2)})"
    else:
        line = max(1, len(text.splitlines()))
        message = _TOML_END.sub(" (at end of file)", message)
    return DataFileError(f"TOML syntax error: {message}", file=file, line=line)


def _describe(data: Any, loc: Sequence[str | int]) -> str:
    """A readable place for a schema location: ``table 'x' row 3 ('y')``."""
    parts: list[str] = []
    node: Any = data
    index = 0
    while index < len(loc):
        key = loc[index]
        nxt = loc[index + 1] if index + 1 < len(loc) else None
        if isinstance(key, str) and key in ("table", "row") and isinstance(nxt, int):
            try:
                node = node[key][nxt]
            except (KeyError, IndexError, TypeError):
                node = None
            ident = node.get("id") if isinstance(node, dict) else None
            parts.append(f"{key} '{ident}'" if isinstance(ident, str) else f"{key} #{nxt + 1}")
            index += 2
            continue
        break
    return " ".join(parts)


def _schema_error(error: ValidationError, data: Any, text: str, file: str) -> DataFileError:
    # A typo gives an unknown key and a missing one: report the typo, the likelier cause.
    first = sorted(error.errors(), key=lambda e: e["type"] != "extra_forbidden")[0]
    loc: tuple[str | int, ...] = tuple(first["loc"])
    where = _describe(data, loc)
    keys = [k for k in loc if isinstance(k, str)]
    kind = first["type"]
    message = str(first["msg"]).removeprefix("Value error, ")
    if kind == "extra_forbidden":
        text_msg = f"unknown key '{keys[-1]}' (allowed keys are fixed; a typo?)"
    elif kind == "missing":
        text_msg = f"missing key '{keys[-1]}'"
    elif keys and keys[-1] not in ("table", "row"):
        text_msg = f"'{keys[-1]}': {message}"
    else:
        text_msg = message
    prefix = f"{where}: " if where else ""
    count = error.error_count()
    more = f" (and {count - 1} more error{'s' if count > 2 else ''})" if count > 1 else ""
    return DataFileError(prefix + text_msg + more, file=file, line=locate(text, loc))


def _not_json(value: Any) -> str | None:
    """A description of the first value that has no JSON form (TOML dates), else None."""
    if isinstance(value, dict):
        for item in value.values():
            found = _not_json(item)
            if found is not None:
                return found
        return None
    if isinstance(value, list):
        for item in value:
            found = _not_json(item)
            if found is not None:
                return found
        return None
    if isinstance(value, str | int | float | bool):
        return None
    return f"a {type(value).__name__} ({value})"


def parse_table_text(text: str, *, file: str = "<string>") -> list[RollTable]:
    """Parse the text of a table file; ``file`` names it in error messages."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise _toml_error(error, text, file) from None
    try:
        model = TableFileModel.model_validate(data)
    except ValidationError as error:
        raise _schema_error(error, data, text, file) from None

    tables: list[RollTable] = []
    first_line: dict[str, int] = {}
    where_is = Locator(text)  # scanned once: locating each row stays linear in rows
    for ti, spec in enumerate(model.table):

        def at(*keys: str | int, ti: int = ti) -> int:
            return where_is.line(("table", ti, *keys))

        header = at()
        if spec.id in first_line:
            raise DataFileError(
                f"duplicate table id '{spec.id}' (first at line {first_line[spec.id]})",
                file=file,
                line=at("id"),
            )
        first_line[spec.id] = header
        try:
            formula_outcomes(spec.formula)
        except NotationError as error:
            raise DataFileError(
                f"table '{spec.id}': formula {error.message}",
                file=file,
                line=at("formula"),
            ) from None
        except ValueError as error:
            raise DataFileError(
                f"table '{spec.id}': {error}", file=file, line=at("formula")
            ) from None

        rows: list[Row] = []
        row_line: dict[str, int] = {}
        for ri, raw in enumerate(spec.row):
            where = f"table '{spec.id}' row '{raw.id}'"
            try:
                lo, hi = parse_range(raw.range)
            except ValueError as error:
                raise DataFileError(
                    f"{where}: {error}", file=file, line=at("row", ri, "range")
                ) from None
            if raw.id in row_line:
                raise DataFileError(
                    f"{where}: duplicate row id (first at line {row_line[raw.id]})",
                    file=file,
                    line=at("row", ri, "id"),
                )
            row_line[raw.id] = at("row", ri)
            if raw.label is not None and raw.reason is None:
                raise DataFileError(
                    f"{where}: label '{raw.label}' needs a 'reason' (one line: why this reading)",
                    file=file,
                    line=at("row", ri, "label"),
                )
            if raw.reason is not None and raw.label is None:
                raise DataFileError(
                    f"{where}: 'reason' given without a label ('default' or 'reading')",
                    file=file,
                    line=at("row", ri, "reason"),
                )
            bad = _not_json(raw.effects)
            if bad is not None:
                raise DataFileError(
                    f"{where}: effects hold {bad}; use strings, numbers, booleans, "
                    "arrays and tables only",
                    file=file,
                    line=at("row", ri, "effects"),
                )
            limit = None
            if raw.limit is not None:
                limit = Limit(per_day=raw.limit.per_day, per_game=raw.limit.per_game)
            rows.append(
                Row(
                    lo=lo,
                    hi=hi,
                    range_text=raw.range.strip(),
                    id=raw.id,
                    text=raw.text,
                    effects=dict(raw.effects),
                    ref=raw.ref,
                    limit=limit,
                    label=Label(raw.label) if raw.label is not None else None,
                    reason=raw.reason,
                    line=row_line[raw.id],
                )
            )
        tables.append(
            RollTable(
                id=spec.id,
                name=spec.name,
                formula=spec.formula,
                rows=tuple(rows),
                source=spec.source,
                notes=spec.notes,
                file=file,
                line=header,
            )
        )
    return tables


def load_table_file(path: str | Path) -> list[RollTable]:
    """Load and check every table in one TOML file (references are checked by TableSet)."""
    name = str(path)
    try:
        raw = Path(path).read_bytes()
    except OSError as error:
        raise DataFileError(f"cannot read table file: {error.strerror}", file=name) from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        line = raw[: error.start].count(b"\n") + 1
        raise DataFileError("table file is not UTF-8 text", file=name, line=line) from None
    return parse_table_text(text, file=name)


def _at(table: RollTable) -> str:
    return f"{table.file}:{table.line}" if table.file is not None else "<code>"


class TableSet:
    """A registry of tables by id, checked as a whole: unique ids, known refs, no cycles."""

    def __init__(self, tables: Iterable[RollTable] = ()) -> None:
        self._tables: dict[str, RollTable] = {}
        for table in tables:
            other = self._tables.get(table.id)
            if other is not None:
                raise DataFileError(
                    f"duplicate table id '{table.id}' (also defined at {_at(other)})",
                    file=table.file,
                    line=table.line,
                )
            self._tables[table.id] = table
        self._check_refs()

    def _check_refs(self) -> None:
        for table in self._tables.values():
            for row in table.rows:
                if row.ref is not None and row.ref not in self._tables:
                    raise DataFileError(
                        f"table '{table.id}' row '{row.id}': ref to unknown table '{row.ref}' "
                        f"(known: {', '.join(sorted(self._tables))})",
                        file=table.file,
                        line=row.line,
                    )
        state: dict[str, int] = {}  # 1 = on the current path, 2 = done

        def visit(table_id: str, path: list[tuple[str, Row]]) -> None:
            state[table_id] = 1
            for row in self._tables[table_id].rows:
                if row.ref is None:
                    continue
                here = [*path, (table_id, row)]
                if state.get(row.ref) == 1:
                    start = next(i for i, (tid, _) in enumerate(here) if tid == row.ref)
                    cycle = here[start:]
                    chain = " -> ".join(f"{tid}.{r.id}" for tid, r in cycle) + f" -> {row.ref}"
                    first_table, first_row = cycle[0]
                    raise DataFileError(
                        f"table refs form a cycle: {chain}",
                        file=self._tables[first_table].file,
                        line=first_row.line,
                    )
                if row.ref not in state:
                    visit(row.ref, here)
            state[table_id] = 2

        for table_id in self._tables:
            if table_id not in state:
                visit(table_id, [])

    def get(self, table_id: str) -> RollTable:
        """The table with this id; ``UnknownNameError`` lists the known ids."""
        table = self._tables.get(table_id)
        if table is None:
            known = ", ".join(sorted(self._tables)) or "none"
            raise UnknownNameError(f"unknown table '{table_id}' (known: {known})")
        return table

    def ids(self) -> tuple[str, ...]:
        """Table ids in load order."""
        return tuple(self._tables)

    def with_tables(self, tables: Iterable[RollTable]) -> TableSet:
        """A new set holding these tables and more (duplicates are errors)."""
        return TableSet([*self._tables.values(), *tables])

    def __iter__(self) -> Iterator[RollTable]:
        return iter(self._tables.values())

    def __len__(self) -> int:
        return len(self._tables)

    def __contains__(self, table_id: object) -> bool:
        return table_id in self._tables

    def __repr__(self) -> str:
        return f"TableSet([{', '.join(self._tables)}])"


def load_tables(paths: Iterable[str | Path], *, base: TableSet | None = None) -> TableSet:
    """Load table files into one checked set, on top of ``base`` (for example the built-ins).

    A table id defined twice is an error naming both places: a user's file cannot
    silently replace a built-in table.
    """
    loaded: list[RollTable] = list(base) if base is not None else []
    for path in paths:
        loaded.extend(load_table_file(path))
    return TableSet(loaded)


def builtin_table_paths() -> list[Path]:
    """The table files shipped with the package.

    Every ``*.toml`` under ``umpire/data/tables/`` and every ``tables*.toml`` or
    ``*_tables.toml`` in a rules module's ``data/`` folder.
    """
    root = Path(__file__).resolve().parent.parent
    paths = sorted((root / "data" / "tables").glob("*.toml"))
    for folder in sorted((root / "rules").glob("*/data")):
        paths.extend(
            sorted(
                p
                for p in folder.glob("*.toml")
                if p.name.startswith("tables") or p.name.endswith("_tables.toml")
            )
        )
    return paths


@functools.cache
def builtin_tables() -> TableSet:
    """Every table shipped with the package, loaded once and checked."""
    return load_tables(builtin_table_paths())
