"""Roll tables as immutable values: rows, exact row odds, rolling with a trace.

A ``RollTable`` checks its own coverage when it is built: every result its formula can
give is covered by exactly one row, and no row names an impossible result. So a table
that exists is a table that can be rolled, and its odds can always be stated exactly.
"""

from __future__ import annotations

import bisect
import functools
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from umpire.dice import DiceExpr, DiceSource, RollResult, parse
from umpire.errors import DataFileError, TableCoverageError

if TYPE_CHECKING:
    from umpire.tables.loader import TableSet

D66_VALUES: tuple[int, ...] = tuple(
    10 * tens + units for tens in range(1, 7) for units in range(1, 7)
)
"""The 36 results of a d66 roll in index order: 11 -> index 1 ... 66 -> index 36."""

LIMIT_NOTE = (
    "default: an event past its limit has no effect and is not re-rolled "
    "(the seeds give limits but not what happens when one is reached)"
)
"""The labelled default reading for a row whose limit is reached (see docs/tables.md)."""

_RANGE = re.compile(r"^\s*(-?\d+)\s*(?:[-\u2013]\s*(-?\d+)\s*)?$")


def parse_range(text: str) -> tuple[int, int]:
    """Parse a row range such as ``"3"``, ``"12-16"`` or ``"-2--1"`` into ``(lo, hi)``."""
    match = _RANGE.match(text)
    if match is None:
        raise ValueError(f"malformed range {text!r}: expected 'N' or 'LO-HI'")
    lo = int(match.group(1))
    hi = int(match.group(2)) if match.group(2) is not None else lo
    if hi < lo:
        raise ValueError(f"malformed range {text!r}: the low end is above the high end")
    return lo, hi


class Label(StrEnum):
    """Why a row is not plain seed text: a filled gap or a chosen reading."""

    DEFAULT = "default"
    READING = "reading"


@dataclass(frozen=True)
class Limit:
    """How often an outcome may happen: per game day and/or per game."""

    per_day: int | None = None
    per_game: int | None = None

    def reached(
        self, key: str, used_today: Mapping[str, int] | None, used_game: Mapping[str, int] | None
    ) -> str | None:
        """Which limit the counts under ``key`` have reached, described; None if neither."""
        if self.per_day is not None and (used_today or {}).get(key, 0) >= self.per_day:
            return f"{self.per_day} per day"
        if self.per_game is not None and (used_game or {}).get(key, 0) >= self.per_game:
            return f"{self.per_game} per game"
        return None

    def to_json(self) -> dict[str, int]:
        """The limit as a JSON object with only the keys that are set."""
        out: dict[str, int] = {}
        if self.per_day is not None:
            out["per_day"] = self.per_day
        if self.per_game is not None:
            out["per_game"] = self.per_game
        return out


@dataclass(frozen=True)
class Row:
    """One row of a table: the results it covers (``lo``..``hi``) and its outcome."""

    lo: int
    hi: int
    range_text: str
    id: str
    text: str
    effects: Mapping[str, Any] = field(default_factory=dict, hash=False)
    ref: str | None = None
    limit: Limit | None = None
    label: Label | None = None
    reason: str | None = None
    line: int | None = field(default=None, compare=False)

    def to_json(self) -> dict[str, Any]:
        """The row as plain JSON values."""
        return {
            "id": self.id,
            "range": self.range_text,
            "text": self.text,
            "effects": dict(self.effects),
            "ref": self.ref,
            "limit": self.limit.to_json() if self.limit is not None else None,
            "label": self.label.value if self.label is not None else None,
            "reason": self.reason,
        }


@dataclass(frozen=True)
class TraceStep:
    """One roll on one table: the dice, the raw and modified values, the row found."""

    table_id: str
    formula: str
    roll: RollResult
    raw: int
    modified: int
    mod: int
    shift: int
    row_id: str
    range_text: str
    p_row: Fraction

    def to_json(self) -> dict[str, Any]:
        """The step as plain JSON values; the probability as ``"a/b"``."""
        return {
            "table": self.table_id,
            "formula": self.formula,
            "roll": self.roll.to_json(),
            "raw": self.raw,
            "modified": self.modified,
            "mod": self.mod,
            "shift": self.shift,
            "row": self.row_id,
            "range": self.range_text,
            "p": _frac(self.p_row),
        }


@dataclass(frozen=True)
class TableResult:
    """The outcome of rolling a table, with every step of nested rolls.

    ``exhausted`` means the outcome is past its limit: the caller treats the roll as no
    result and does not count it (see ``LIMIT_NOTE``).
    """

    table_id: str
    outcome: Row
    steps: tuple[TraceStep, ...]
    exhausted: bool = False
    note: str = ""

    def to_json(self) -> dict[str, Any]:
        """The result as plain JSON values."""
        return {
            "table": self.table_id,
            "outcome": self.outcome.to_json(),
            "trace": [step.to_json() for step in self.steps],
            "exhausted": self.exhausted,
            "note": self.note,
        }


def _frac(p: Fraction) -> str:
    return f"{p.numerator}/{p.denominator}"


@functools.lru_cache(maxsize=512)
def formula_outcomes(formula: str) -> tuple[DiceExpr, tuple[tuple[int, Fraction], ...]]:
    """Parse a table formula and return its exact integer distribution.

    Raises ``NotationError`` for bad notation and ``ValueError`` for results that are not
    integers (boolean tests such as ``2d6>=8`` cannot index a table).
    """
    expr = parse(formula)
    outcomes: list[tuple[int, Fraction]] = []
    for value, p in expr.distribution().outcomes:
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValueError(f"formula '{formula}' gives {value!r}: a table needs integer results")
        if p > 0:
            outcomes.append((value, Fraction(p)))
    outcomes.sort()
    return expr, tuple(outcomes)


def _runs(values: list[int], support: list[int]) -> str:
    """Compress values into runs of consecutive possible results: ``2, 5-7``."""
    position = {v: i for i, v in enumerate(support)}
    parts: list[str] = []
    run: list[int] = []
    for v in values:
        if run and position.get(v, -2) == position.get(run[-1], -9) + 1:
            run.append(v)
            continue
        if run:
            parts.append(str(run[0]) if len(run) == 1 else f"{run[0]}-{run[-1]}")
        run = [v]
    if run:
        parts.append(str(run[0]) if len(run) == 1 else f"{run[0]}-{run[-1]}")
    return ", ".join(parts)


def _plural(values: list[int], support: list[int]) -> str:
    word = "result" if len(values) == 1 else "results"
    return f"{word} {_runs(values, support)}"


@dataclass(frozen=True)
class RollTable:
    """A table rolled on a dice formula; rows in file order cover each result once.

    ``mod`` adds to the rolled total and the modified value is clamped to the table's
    lowest and highest results. On a d66 table the mod counts in index space (11 -> 1,
    12 -> 2 ... 66 -> 36, tens first), so 16 + 1 reads 21. ``shift`` then moves the
    row found by that many rows in file order, clamped at the first and last row.
    """

    id: str
    name: str
    formula: str
    rows: tuple[Row, ...]
    source: str = ""
    notes: str | None = None
    file: str | None = field(default=None, compare=False)
    line: int | None = field(default=None, compare=False)
    expr: DiceExpr = field(init=False, repr=False, compare=False)
    outcomes: tuple[tuple[int, Fraction], ...] = field(init=False, repr=False, compare=False)
    _support: tuple[int, ...] = field(init=False, repr=False, compare=False)
    _row_of: Mapping[int, int] = field(init=False, repr=False, compare=False)
    _cache: dict[tuple[int, int], tuple[tuple[Row, Fraction], ...]] = field(
        init=False, repr=False, compare=False
    )

    def __post_init__(self) -> None:
        try:
            expr, outcomes = formula_outcomes(self.formula)
        except ValueError as error:
            raise DataFileError(
                f"table '{self.id}': {error}", file=self.file, line=self.line
            ) from None
        support = tuple(v for v, _ in outcomes)
        object.__setattr__(self, "expr", expr)
        object.__setattr__(self, "outcomes", outcomes)
        object.__setattr__(self, "_support", support)
        object.__setattr__(self, "_cache", {})
        object.__setattr__(self, "_row_of", self._check_coverage())

    # -- coverage ---------------------------------------------------------------------

    def _check_coverage(self) -> dict[int, int]:
        support = list(self._support)
        possible = set(support)
        covered: dict[int, list[int]] = {v: [] for v in support}
        impossible: list[str] = []
        for index, row in enumerate(self.rows):
            bad = [v for v in (row.lo, row.hi) if v not in possible]
            if bad:
                ends = sorted(set(bad))
                word = "result" if len(ends) == 1 else "results"
                impossible.append(
                    f"row '{row.id}' ({row.range_text}) names impossible {word} "
                    f"{', '.join(map(str, ends))} ({self.formula} gives {support[0]}-{support[-1]})"
                )
            lo_at = bisect.bisect_left(support, row.lo)
            hi_at = bisect.bisect_right(support, row.hi)
            for v in support[lo_at:hi_at]:
                covered[v].append(index)
        uncovered = [v for v in support if not covered[v]]
        problems: list[str] = []
        if uncovered:
            problems.append(f"{_plural(uncovered, support)} uncovered")
        overlaps: dict[tuple[int, ...], list[int]] = {}
        for v in support:
            if len(covered[v]) > 1:
                overlaps.setdefault(tuple(covered[v]), []).append(v)
        for indices, values in overlaps.items():
            times = "twice" if len(indices) == 2 else f"{len(indices)} times"
            ids = ", ".join(self.rows[i].id for i in indices)
            problems.append(f"{_plural(values, support)} covered {times} ({ids})")
        problems.extend(impossible)
        if problems:
            raise TableCoverageError(
                f"table '{self.id}' ({self.formula}): " + "; ".join(problems),
                file=self.file,
                line=self.line,
            )
        return {v: covered[v][0] for v in support}

    # -- properties -------------------------------------------------------------------

    @property
    def is_d66(self) -> bool:
        """True when the formula's results are exactly the 36 d66 values."""
        return self._support == D66_VALUES

    @property
    def results(self) -> tuple[int, ...]:
        """Every possible result of the formula, lowest first."""
        return self._support

    def row(self, row_id: str) -> Row:
        """The row with this id."""
        for row in self.rows:
            if row.id == row_id:
                return row
        from umpire.errors import UnknownNameError

        known = ", ".join(r.id for r in self.rows)
        raise UnknownNameError(f"unknown row '{row_id}' in table '{self.id}' (known: {known})")

    # -- lookup -----------------------------------------------------------------------

    def modified_value(self, total: int, mod: int = 0) -> int:
        """The result read after ``mod``: clamped to the table's ends; d66 in index space.

        For a formula whose results have gaps (not d66), a modified value that falls in a
        gap reads the next possible result below it.
        """
        support = self._support
        if self.is_d66:
            index = support.index(total) + mod
            return support[min(max(index, 0), len(support) - 1)]
        value = min(max(total + mod, support[0]), support[-1])
        if value in self._row_of:
            return value
        return support[bisect.bisect_right(support, value) - 1]

    def row_index(self, total: int, mod: int = 0, shift: int = 0) -> int:
        """Index (file order) of the row read for a rolled total under mod and shift."""
        index = self._row_of[self.modified_value(total, mod)] + shift
        return min(max(index, 0), len(self.rows) - 1)

    def lookup(self, total: int, mod: int = 0, shift: int = 0) -> Row:
        """The row read for a rolled total under mod and shift."""
        return self.rows[self.row_index(total, mod, shift)]

    def row_probabilities(self, mod: int = 0, shift: int = 0) -> list[tuple[Row, Fraction]]:
        """Exact probability of landing on each row (file order) under mod and shift."""
        key = (mod, shift)
        cached = self._cache.get(key)
        if cached is None:
            totals = [Fraction(0)] * len(self.rows)
            for value, p in self.outcomes:
                totals[self.row_index(value, mod, shift)] += p
            cached = tuple(zip(self.rows, totals, strict=True))
            self._cache[key] = cached
        return list(cached)

    # -- rolling ----------------------------------------------------------------------

    def roll(
        self,
        source: DiceSource,
        *,
        mod: int = 0,
        shift: int = 0,
        tables: TableSet | None = None,
        used_today: Mapping[str, int] | None = None,
        used_game: Mapping[str, int] | None = None,
    ) -> TableResult:
        """Roll this table (and any tables its rows refer to) and return the traced result.

        ``mod`` and ``shift`` apply to this table only, not to nested tables. A ``ref`` row
        rolls the referenced table next, looked up in ``tables`` or else the built-in set;
        the final outcome is the nested one. Limits are checked against counts keyed by
        ``"<table_id>.<row_id>"``: a row past its limit ends the roll with
        ``exhausted=True``.
        """
        steps: list[TraceStep] = []
        table: RollTable = self
        seen = {self.id}
        step_mod, step_shift = mod, shift
        while True:
            rolled = table.expr.roll(source)
            total = int(rolled.total)
            index = table.row_index(total, step_mod, step_shift)
            row = table.rows[index]
            steps.append(
                TraceStep(
                    table_id=table.id,
                    formula=table.formula,
                    roll=rolled,
                    raw=total,
                    modified=table.modified_value(total, step_mod),
                    mod=step_mod,
                    shift=step_shift,
                    row_id=row.id,
                    range_text=row.range_text,
                    p_row=table.row_probabilities(step_mod, step_shift)[index][1],
                )
            )
            if row.limit is not None:
                reached = row.limit.reached(f"{table.id}.{row.id}", used_today, used_game)
                if reached is not None:
                    note = f"'{table.id}.{row.id}' has reached its limit ({reached}); {LIMIT_NOTE}"
                    return TableResult(self.id, row, tuple(steps), exhausted=True, note=note)
            if row.ref is None:
                return TableResult(self.id, row, tuple(steps))
            if tables is None:
                from umpire.tables.loader import builtin_tables

                tables = builtin_tables()
            previous, table = table, tables.get(row.ref)
            if table.id in seen:
                raise DataFileError(
                    f"table '{previous.id}' row '{row.id}' refers back to '{table.id}' (a cycle)",
                    file=previous.file,
                    line=row.line,
                )
            seen.add(table.id)
            step_mod, step_shift = 0, 0
