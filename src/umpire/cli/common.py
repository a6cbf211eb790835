"""Helpers shared by every CLI command: JSON output, the console, error exits.

Heavy modules (rich, icepool, numpy) are imported inside functions so that quick
commands such as ``umpire roll`` start fast.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from fractions import Fraction
from typing import TYPE_CHECKING, Any, NoReturn

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


def fail(message: str, code: int = 2) -> NoReturn:
    """Print a one-line error on standard error and exit with ``code``."""
    raise UmpireError(message) if code == 2 else SystemExit(_emit(message, code))


def _emit(message: str, code: int) -> int:
    sys.stderr.write(f"umpire: error: {message}\n")
    return code


def report(error: UmpireError) -> int:
    """Print an UmpireError as one line on standard error; return its exit code."""
    return _emit(str(error), error.exit_code)


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


_db_path: str | None = None


def set_db_path(path: str | None) -> None:
    """Remember the ``--db`` option of the main command."""
    global _db_path
    _db_path = path


def open_store() -> Any:
    """The save file chosen by ``--db``, ``$UMPIRE_DB`` or the XDG default."""
    from umpire.store import Store

    return Store(_db_path)


def make_source(seed: int | None, dice: str = "seeded") -> Any:
    """A dice source for a new game: ``seeded`` (default), ``committed`` or ``physical``."""
    import secrets

    from umpire.dice import CommittedSource, PhysicalSource, SeededSource

    if seed is not None and seed < 0:
        raise UmpireError(f"--seed must be a whole number >= 0, got {seed}")
    if dice == "seeded":
        return SeededSource(secrets.randbits(48) if seed is None else seed)
    if dice == "committed":
        return CommittedSource(seed)
    if dice == "physical":
        return PhysicalSource(ask_faces, ask_cup)
    raise UmpireError(f"unknown dice source '{dice}' (seeded, committed, physical)")


QUIT_WORDS = ("q", "quit")
"""What a player types at any prompt to stop (the game keeps every action made before)."""


def _ask_checked(prompt: str, check: Callable[[str], object], what: str) -> str:
    """Ask until ``check`` accepts the typed text, as many times as needed (each wrong
    entry said in one line on stderr); ``q`` or ``quit`` stops; a closed standard input
    ends the command in one line."""
    while True:
        try:
            text = input(prompt)
        except EOFError:
            raise UmpireError(
                f"no {what} (standard input closed); every action before this one is saved"
            ) from None
        if text.strip().lower() in QUIT_WORDS:
            from umpire.ai.human import PlayerCommand

            raise PlayerCommand("quit")
        try:
            check(text)
        except UmpireError as exc:
            sys.stderr.write(f"  {exc}; try again (q quits)\n")
            continue
        return text


def ask_faces(n: int, sides: int, purpose: str) -> str:
    """Ask for the faces rolled at the table, saying what the roll is for; re-ask on a typo.

    Issue "at a real table": "Union Random Event Table: roll 2d6", not "Roll 2 d6 for 2d6".
    """
    from umpire.dice import PhysicalSource

    tens = " (the first die is the tens)" if "(d66)" in purpose else ""
    faces = "faces" if n > 1 else "face"
    return _ask_checked(
        f"{purpose or 'a roll'}: roll {n}d{sides}{tens}; type the {faces}: ",
        lambda text: PhysicalSource.parse_faces(text, n, sides, purpose),
        f"faces typed for {purpose}",
    )


def ask_cup(labels: list[str], purpose: str) -> str:
    """Seed 000: "place all potentially affected leaders in a cup and pull one out"."""
    from umpire.dice import PhysicalSource

    lines = [f"{purpose}: put these {len(labels)} in a cup (or a box) and draw one:"]
    lines += [f"  {i}. {lab}" for i, lab in enumerate(labels, 1)]
    print("\n".join(lines))
    return _ask_checked(
        "Drawn (its number or name): ",
        lambda text: PhysicalSource.parse_draw(text, labels, purpose),
        f"draw typed for {purpose}",
    )


def run_action(
    name: str, action: str, params: dict[str, Any], policies: dict[str, Any] | None = None
) -> Any:
    """Load a saved game, run one action, save it, and return the action record.

    Nothing is written if the action fails.
    """
    store = open_store()
    game = store.load(name, policies=policies, physical=ask_faces, draw=ask_cup)
    return store.play(name, game, action, params)


def print_events(record: Any, as_json: bool = False) -> None:
    """Print an action's events as readable lines, or as JSON."""
    if as_json:
        print_json(record.to_json())
        return
    from umpire.cli.games_cmd import describe_event

    for event in record.events:
        if event.kind != "change":
            console().print(describe_event(event.to_json()), markup=False)
