"""``umpire roll`` and ``umpire odds``: roll dice notation, or show its exact odds.

Register with ``app.command("roll")(roll_cmd)`` and ``app.command("odds")(odds_cmd)``.
This module imports neither icepool, numpy, pydantic nor rich (typer itself imports pydantic);
for the fastest cold start the entry point can first try ``umpire.dice.quickroll.fast_roll``.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Annotated

import typer

from umpire.cli.common import print_json
from umpire.dice.notation import parse
from umpire.dice.quickroll import fast_roll, roll_and_print
from umpire.errors import UmpireError

__all__ = ["fast_roll", "odds_cmd", "roll_cmd"]

_EXPR_HELP = (
    "Dice notation, e.g. 2d6+1, 4d6kh3, d6/2 (halved, rounded up), d66, "
    "9d10<=6 (count dice showing 6 or less), 2d6>=8 (true/false)."
)
_BAR_WIDTH = 30


def roll_cmd(
    expr: Annotated[str, typer.Argument(help=_EXPR_HELP, metavar="EXPR", show_default=False)],
    seed: Annotated[
        int | None,
        typer.Option(
            "--seed",
            help="Seed for reproducible dice (0 or more). Without it a random seed is drawn "
            "and printed so the roll can be repeated.",
            show_default=False,
        ),
    ] = None,
    json_out: Annotated[
        bool, typer.Option("--json", help="Print the roll as JSON (expr, dice, total, seed).")
    ] = False,
) -> None:
    """Roll dice notation once and show the faces, the total and the seed."""
    roll_and_print(expr, seed, json_out)


def _percent(p: Fraction) -> float:
    return round(float(p) * 100, 4)


def _fraction(p: Fraction) -> str:
    return f"{p.numerator}/{p.denominator}"


def _value_text(value: int | bool) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def odds_cmd(
    expr: Annotated[str, typer.Argument(help=_EXPR_HELP, metavar="EXPR", show_default=False)],
    json_out: Annotated[
        bool,
        typer.Option("--json", help="Print the odds as JSON (expr, outcomes, mean)."),
    ] = False,
    at_least: Annotated[
        int | None,
        typer.Option(
            "--at-least",
            metavar="V",
            help="Also show the chance that the total is V or more.",
            show_default=False,
        ),
    ] = None,
) -> None:
    """Show the exact odds of every total of dice notation (a comparison shows true/false)."""
    expression = parse(expr)
    if at_least is not None and expression.is_comparison:
        raise UmpireError(
            f"--at-least needs a numeric expression; {expression} is a comparison (true/false)"
        )
    dist = expression.distribution()
    outcomes: list[tuple[int | bool, Fraction]] = list(dist.outcomes)
    if expression.is_comparison:
        outcomes = [(False, dist.probability(False)), (True, dist.probability(True))]
    p_at_least = None if at_least is None else dist.p_at_least(at_least)

    if json_out:
        data: dict[str, object] = {
            "expr": str(expression),
            "outcomes": [
                {"value": v, "p": _fraction(p), "percent": _percent(p)} for v, p in outcomes
            ],
        }
        if not expression.is_comparison:
            data["mean"] = _fraction(dist.mean)
        if at_least is not None and p_at_least is not None:
            data["at_least"] = {
                "value": at_least,
                "p": _fraction(p_at_least),
                "percent": _percent(p_at_least),
            }
        print_json(data)
        return

    from rich.table import Table

    from umpire.cli.common import console

    table = Table(title=f"odds of {expression}", title_justify="left")
    table.add_column("value", justify="right")
    table.add_column("p", justify="right")
    table.add_column("%", justify="right")
    table.add_column("", justify="left")
    top = max(p for _, p in outcomes) or Fraction(1)
    for value, p in outcomes:
        bar = "█" * round(_BAR_WIDTH * p / top)
        table.add_row(_value_text(value), str(p), f"{float(p) * 100:.2f}", bar)
    out = console()
    out.print(table)
    if not expression.is_comparison:
        mean = dist.mean
        out.print(f"mean {mean} ≈ {float(mean):.3f}")
    if at_least is not None and p_at_least is not None:
        out.print(f"P(total ≥ {at_least}) = {p_at_least} ≈ {float(p_at_least) * 100:.2f}%")
