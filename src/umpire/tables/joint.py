"""Joint outcomes of nested tables: every path "table -> sub-table -> result" with the
product of the rows' exact probabilities.

A row leads on to another table by its ``ref`` (data), or by a rule module's ``then``
(where the nesting is in the module's rules, as seed 000's Leader Table after "Consult
Leader Table"). The paths cover every roll exactly once, so they sum to 1.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

from umpire.errors import DataFileError
from umpire.tables.loader import TableSet, builtin_tables
from umpire.tables.model import RollTable, Row

Then = Callable[[RollTable, Row], str | None]
Path = tuple[tuple[RollTable, Row], ...]


def joint_rows(
    table: RollTable,
    *,
    then: Then | None = None,
    tables: TableSet | None = None,
    mod: int = 0,
    shift: int = 0,
) -> list[tuple[Path, Fraction]]:
    """Every path of rows from ``table`` down its nested tables, with its exact probability.

    ``mod`` and ``shift`` apply to the first table only (as :meth:`RollTable.roll`).
    """
    found = tables if tables is not None else builtin_tables()
    out: list[tuple[Path, Fraction]] = []

    def walk(t: RollTable, path: Path, p: Fraction, seen: frozenset[str], m: int, s: int) -> None:
        for row, q in t.row_probabilities(m, s):
            if not q:
                continue
            here = (*path, (t, row))
            nxt = row.ref or (then(t, row) if then is not None else None)
            if nxt is None:
                out.append((here, p * q))
                continue
            if nxt in seen:
                raise DataFileError(
                    f"table '{t.id}' row '{row.id}' leads back to '{nxt}' (a cycle)",
                    file=t.file,
                    line=row.line,
                )
            walk(found.get(nxt), here, p * q, seen | {nxt}, 0, 0)

    walk(table, (), Fraction(1), frozenset({table.id}), mod, shift)
    return out
