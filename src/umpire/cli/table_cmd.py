"""``umpire table ...``: list the roll tables, show one with exact odds, roll one with a trace.

The lead mounts ``table_app`` in ``cli/main.py``. Errors are UmpireError subclasses that the
main wrapper prints as one line (exit 2). ``--file`` loads a user's table file on top of
the built-in tables; an id defined in both is an error naming both files.
"""

from __future__ import annotations

import secrets
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from umpire.cli.common import console, percent, print_json

if TYPE_CHECKING:
    from umpire.tables import RollTable, Row, TableSet

table_app = typer.Typer(
    help="Roll tables: list them, show one with exact odds, roll one with a full trace.",
    no_args_is_help=True,
)

FileOpt = Annotated[
    list[Path] | None,
    typer.Option(
        "--file",
        "-f",
        help="Also load this table file (repeatable). Its ids must not repeat built-in ids.",
        dir_okay=False,
    ),
]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print JSON instead of a table.")]
ModOpt = Annotated[
    int, typer.Option("--mod", help="Add K to the roll (clamped at the table's ends).")
]
ShiftOpt = Annotated[
    int, typer.Option("--shift", help="Move K rows down the table (negative: up), clamped.")
]


def _tables(files: list[Path] | None) -> TableSet:
    from umpire.tables import builtin_tables, load_tables

    base = builtin_tables()
    return load_tables(files, base=base) if files else base


def _frac(p: Fraction) -> str:
    return f"{p.numerator}/{p.denominator}"


def _signed(k: int) -> str:
    return f"{k:+d}"


def _row_probabilities(table: RollTable, mod: int, shift: int) -> list[dict[str, Any]]:
    return [
        {"id": row.id, "range": row.range_text, "p": _frac(p)}
        for row, p in table.row_probabilities(mod, shift)
    ]


def _label_text(row: Row) -> str:
    if row.label is None:
        return ""
    return f"{row.label.value}: {row.reason}"


@table_app.command("list")
def list_tables(file: FileOpt = None, json_out: JsonOpt = False) -> None:
    """List every loaded table: id, name, formula, number of rows, source."""
    tables = _tables(file)
    if json_out:
        print_json(
            [
                {
                    "id": t.id,
                    "name": t.name,
                    "formula": t.formula,
                    "rows": len(t.rows),
                    "source": t.source,
                    "file": t.file,
                }
                for t in tables
            ]
        )
        return
    from rich.table import Table

    grid = Table(title="Roll tables")
    grid.add_column("id", no_wrap=True)
    grid.add_column("name")
    grid.add_column("formula", no_wrap=True)
    grid.add_column("rows", justify="right")
    grid.add_column("source")
    for t in tables:
        grid.add_row(t.id, t.name, t.formula, str(len(t.rows)), t.source, end_section=False)
    console().print(grid)


@table_app.command("show")
def show_table(
    table_id: Annotated[str, typer.Argument(metavar="ID", help="The table's id.")],
    mod: ModOpt = 0,
    shift: ShiftOpt = 0,
    file: FileOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Show a table's rows with the exact probability of each (under --mod/--shift)."""
    table = _tables(file).get(table_id)
    probabilities = table.row_probabilities(mod, shift)
    if json_out:
        print_json(
            {
                "id": table.id,
                "name": table.name,
                "formula": table.formula,
                "d66": table.is_d66,
                "source": table.source,
                "notes": table.notes,
                "file": table.file,
                "line": table.line,
                "mod": mod,
                "shift": shift,
                "rows": [{**row.to_json(), "p": _frac(p)} for row, p in probabilities],
            }
        )
        return
    from rich.table import Table
    from rich.text import Text

    title = f"{table.name} [{table.id}] ({table.formula})"
    if mod or shift:
        title += f" mod {_signed(mod)} shift {_signed(shift)}"
    grid = Table(title=Text(title), caption=Text(f"source: {table.source}"))
    grid.add_column("range", justify="right", no_wrap=True)
    grid.add_column("id", no_wrap=True)
    grid.add_column("text")
    grid.add_column("p", justify="right")
    grid.add_column("%", justify="right")
    for row, p in probabilities:
        text = Text(row.text)
        if row.ref is not None:
            text.append(f" -> roll {row.ref}", style="cyan")
        if row.limit is not None:
            limits = ", ".join(f"{v} {k.replace('_', ' ')}" for k, v in row.limit.to_json().items())
            text.append(f" (limit {limits})", style="magenta")
        if row.label is not None:
            text.append(f"\n[{row.label.value.upper()}] {row.reason}", style="bold yellow")
        grid.add_row(row.range_text, row.id, text, _frac(p), percent(p))
    console().print(grid)
    if table.notes:
        console().print(Text(f"notes: {table.notes}"))


@table_app.command("roll")
def roll_table(
    table_id: Annotated[str, typer.Argument(metavar="ID", help="The table's id.")],
    mod: ModOpt = 0,
    shift: ShiftOpt = 0,
    seed: Annotated[
        int | None,
        typer.Option("--seed", help="Seed for the dice (default: a fresh one, printed)."),
    ] = None,
    file: FileOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Roll a table (following nested tables) and show every step and the outcome."""
    from umpire.dice import SeededSource

    tables = _tables(file)
    table = tables.get(table_id)
    if seed is None:
        seed = secrets.randbits(64)
    result = table.roll(SeededSource(seed), mod=mod, shift=shift, tables=tables)
    outcome = result.outcome
    if json_out:
        print_json(
            {
                "table": table.id,
                "seed": seed,
                "mod": mod,
                "shift": shift,
                "trace": [step.to_json() for step in result.steps],
                "outcome": {
                    "id": outcome.id,
                    "text": outcome.text,
                    "effects": dict(outcome.effects),
                    "label": outcome.label.value if outcome.label is not None else None,
                    "reason": outcome.reason,
                },
                "exhausted": result.exhausted,
                "note": result.note,
                "rows": _row_probabilities(table, mod, shift),
            }
        )
        return
    from rich.text import Text

    out = console()
    out.print(Text(f"seed {seed} (repeat with --seed {seed})", style="dim"))
    for number, step in enumerate(result.steps, start=1):
        rolled = tables.get(step.table_id).expr.explain(step.roll)
        line = Text(f"{number}. {step.table_id}: {rolled}")
        if step.mod:
            line.append(f", mod {_signed(step.mod)} -> {step.modified}")
        if step.shift:
            line.append(f", shift {_signed(step.shift)}")
        row = tables.get(step.table_id).row(step.row_id)
        line.append(f"; row {step.range_text} '{step.row_id}': {row.text}")
        line.append(f" (p {_frac(step.p_row)} = {percent(step.p_row)})", style="dim")
        out.print(line)
    result_line = Text("outcome: ", style="bold")
    result_line.append(f"{outcome.text} [{outcome.id}]")
    out.print(result_line)
    if outcome.label is not None:
        out.print(Text(f"  [{outcome.label.value.upper()}] {outcome.reason}", style="yellow"))
    if outcome.effects:
        effects = ", ".join(f"{k}={v}" for k, v in outcome.effects.items())
        out.print(Text(f"  effects: {effects}"))
    if result.exhausted:
        out.print(Text(f"  no effect: {result.note}", style="bold red"))
