"""Roll tables and decks as data: ranges, d66, mods and shifts, nesting, coverage check.

Tables live in TOML files (see docs/tables.md). Loading checks each table against the
exact distribution of its formula, so every result is covered by exactly one row, and
every error names its file and line. Rolling returns a ``TableResult`` whose trace
records every roll, nested tables included, with the exact odds of each row read.
"""

from umpire.tables.deck import Deck
from umpire.tables.loader import (
    TableSet,
    builtin_table_paths,
    builtin_tables,
    load_table_file,
    load_tables,
    parse_table_text,
)
from umpire.tables.model import (
    D66_VALUES,
    LIMIT_NOTE,
    Label,
    Limit,
    RollTable,
    Row,
    TableResult,
    TraceStep,
    parse_range,
)

__all__ = [
    "D66_VALUES",
    "LIMIT_NOTE",
    "Deck",
    "Label",
    "Limit",
    "RollTable",
    "Row",
    "TableResult",
    "TableSet",
    "TraceStep",
    "builtin_table_paths",
    "builtin_tables",
    "load_table_file",
    "load_tables",
    "parse_range",
    "parse_table_text",
]
