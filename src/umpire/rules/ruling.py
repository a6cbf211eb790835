"""A rule module's table ruling in a terminal: JSON or words, dice typed or seeded.

Shared by ``umpire.cli`` and by the rule modules' own ``resolve`` commands; it sits below
the rule modules (the layers contract in pyproject.toml), so a module's command needs no
import of the CLI package above it. ``umpire.cli.common`` re-exports every name here.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from umpire.errors import UmpireError

if TYPE_CHECKING:
    from rich.console import Console


def to_jsonable(value: Any) -> Any:
    """Turn fractions, tuples and dataclass-like values into plain JSON values."""
    if isinstance(value, Fraction):
        return f"{value.numerator}/{value.denominator}"
    if isinstance(value, dict):
        return {str(k): to_jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [to_jsonable(v) for v in value]
    return value


def print_json(value: Any) -> None:
    """Print a value as indented JSON on standard output."""
    sys.stdout.write(json.dumps(to_jsonable(value), indent=2, ensure_ascii=False) + "\n")


_console: Console | None = None


def console() -> Console:
    """The shared rich console on standard output (created on first use)."""
    global _console
    if _console is None:
        from rich.console import Console

        _console = Console(highlight=False, soft_wrap=True)
    return _console


def percent(p: Fraction) -> str:
    """A probability as a percentage with two decimals."""
    return f"{float(p) * 100:.2f}%"


def dice_seed(seed: int | None) -> int:
    """The seed for rolled dice: the one given, else a fresh random one (the output prints it)."""
    if seed is None:
        import secrets

        return secrets.randbits(32)
    return seed


def typed_faces(
    text: str, n: int | None, sides: int, option: str, *, zero_low: bool = False
) -> list[int]:
    """Faces typed in a resolve option (``--roll "3 5"`` or ``--roll 3,5``), read as the
    dice prompt reads them (:func:`umpire.dice.sources.read_faces`); a refusal names the
    option."""
    from umpire.dice.sources import read_faces

    try:
        return read_faces(text, n, sides, zero_low=zero_low)
    except UmpireError as exc:
        raise UmpireError(f"{option}: {exc}") from None


def words(value: Any) -> str:
    """A value of a ruling in words: lists as faces ``3 5``, mappings as ``key value; ...``,
    booleans as yes/no (never a Python repr)."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, Fraction):
        return f"{value} = {percent(value)}"
    if isinstance(value, dict):
        return "; ".join(f"{str(k).replace('_', ' ')} {words(v)}" for k, v in value.items())
    if isinstance(value, list | tuple):
        return " ".join(words(v) for v in value) if value else "none"
    return str(value)


def show_ruling(out: dict[str, Any], as_json: bool) -> None:
    """Print a table ruling: JSON, or one line a field in words (field names with spaces,
    odds as fractions and percentages, modifiers one a line with their source)."""
    if as_json:
        print_json(out)
        return
    import typer

    for k, v in out.items():
        name = k.replace("_", " ")
        if k == "odds":
            typer.echo("odds:")
            for outcome, p in v.items():
                typer.echo(f"  P({outcome}) = {p} = {percent(Fraction(p))}")
        elif isinstance(v, list) and v and isinstance(v[0], dict) and "value" in v[0]:
            typer.echo(f"{name}:")
            for m in v:
                typer.echo(f"  {m['value']:+d} {m['text']} [{m['source']}]")
        elif isinstance(v, list) and v and all(isinstance(x, str) for x in v):
            typer.echo(f"{name}:")
            for line in v:
                typer.echo(f"  {line}")
        else:
            typer.echo(f"{name}: {words(v)}")


@dataclass(frozen=True, slots=True)
class CommandKit:
    """What the CLI hands a rule module's commands (the command seam): the save file chosen
    by ``--db``, a new game's dice source, and the prompts for typed dice and cup draws.
    The commands reach these through :func:`kit`, so no rule module imports the CLI."""

    open_store: Callable[[], Any]
    make_source: Callable[[int | None, str], Any]
    ask_faces: Callable[[int, int, str], str]
    ask_cup: Callable[[list[str], str], str]


_kit: CommandKit | None = None


def hand_kit(given: CommandKit) -> None:
    """The CLI's side of the seam (``umpire.cli.common`` calls it once on import)."""
    global _kit
    _kit = given


def kit() -> CommandKit:
    """The kit the CLI handed over; a module command run without the CLI is refused."""
    if _kit is None:
        raise UmpireError("this command runs under the umpire CLI (no command kit handed over)")
    return _kit
