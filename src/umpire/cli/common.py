"""Helpers shared by every CLI command: JSON output, the console, error exits.

Heavy modules (rich, icepool, numpy) are imported inside functions so that quick
commands such as ``umpire roll`` start fast.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any, NoReturn

from umpire.errors import UmpireError

# The ruling helpers live below the rule modules (umpire.rules.ruling); re-exported here.
from umpire.rules.ruling import CommandKit, hand_kit
from umpire.rules.ruling import (
    console as console,
)
from umpire.rules.ruling import (
    dice_seed as dice_seed,
)
from umpire.rules.ruling import (
    percent as percent,
)
from umpire.rules.ruling import (
    print_json as print_json,
)
from umpire.rules.ruling import (
    show_ruling as show_ruling,
)
from umpire.rules.ruling import (
    to_jsonable as to_jsonable,
)
from umpire.rules.ruling import (
    typed_faces as typed_faces,
)
from umpire.rules.ruling import (
    words as words,
)


def fail(message: str, code: int = 2) -> NoReturn:
    """Print a one-line error on standard error and exit with ``code``."""
    raise UmpireError(message) if code == 2 else SystemExit(_emit(message, code))


def _emit(message: str, code: int) -> int:
    sys.stderr.write(f"umpire: error: {message}\n")
    return code


def report(error: UmpireError) -> int:
    """Print an UmpireError as one line on standard error; return its exit code."""
    return _emit(str(error), error.exit_code)


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


hand_kit(CommandKit(open_store, make_source, ask_faces, ask_cup))  # the rule modules' commands
