"""``umpire session``: the dice book, a saved game of rolls, tables, picks and decks.

For players at a real table who want every roll kept: each command is one logged,
undoable action, and a committed session can be verified by anyone afterwards.
"""

from __future__ import annotations

from typing import Annotated

import typer

from umpire.cli.common import console, make_source, open_store, print_events, run_action

session_app = typer.Typer(no_args_is_help=True)


def _mount_demo() -> None:
    from umpire.cli.session_demo import session_demo_cmd

    session_app.command("demo")(session_demo_cmd)


NameArg = Annotated[str, typer.Argument(help="The session's name.")]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print the action's events as JSON.")]


@session_app.command("new")
def new_cmd(
    name: NameArg,
    seed: Annotated[int | None, typer.Option("--seed", help="Seed for seeded dice.")] = None,
    dice: Annotated[
        str,
        typer.Option(
            "--dice",
            help="seeded (default), committed (seed hidden until the end, "
            "its SHA-256 shown now) or physical (you type the faces).",
        ),
    ] = "seeded",
    title: Annotated[str, typer.Option("--title", help="A title for the session.")] = "",
) -> None:
    """Start a new dice book session."""
    from umpire.engine import Game

    source = make_source(seed, dice)
    game = Game.new("session", {"title": title or name}, source)
    store = open_store()
    store.create(name, game)
    c = console()
    c.print(f"session {name} started ({dice} dice).")
    if dice == "committed":
        c.print(f"commitment sha256(seed) = {source.commitment}")
        c.print(f"game identity (module, scenario, dice) = {store.head(name)}")
        c.print(f"the seed is revealed by 'umpire games end {name}'.")
    elif dice == "seeded":
        c.print(f"seed {source.seed}")


@session_app.command("roll")
def roll_cmd(
    name: NameArg,
    expr: Annotated[str, typer.Argument(help="Dice notation, e.g. 2d6+1.")],
    purpose: Annotated[str, typer.Option("--purpose", help="What the roll is for.")] = "",
    as_json: JsonOpt = False,
) -> None:
    """Roll dice into the session's log."""
    print_events(run_action(name, "roll", {"expr": expr, "purpose": purpose}), as_json)


@session_app.command("table")
def table_cmd(
    name: NameArg,
    table: Annotated[str, typer.Argument(help="A table id (see 'umpire table list').")],
    mod: Annotated[int, typer.Option("--mod", help="Add to the roll.")] = 0,
    shift: Annotated[int, typer.Option("--shift", help="Move the result by rows.")] = 0,
    as_json: JsonOpt = False,
) -> None:
    """Roll on a table into the session's log (per-day and per-game limits are kept)."""
    print_events(run_action(name, "table", {"table": table, "mod": mod, "shift": shift}), as_json)


@session_app.command("pick")
def pick_cmd(
    name: NameArg,
    options: Annotated[list[str], typer.Argument(help="The options to pick from.")],
    count: Annotated[int, typer.Option("--count", help="How many to pick.")] = 1,
    as_json: JsonOpt = False,
) -> None:
    """Pick at random among options ("chosen at random"), with the session's dice."""
    print_events(run_action(name, "pick", {"options": options, "count": count}), as_json)


@session_app.command("deck")
def deck_cmd(
    name: NameArg,
    deck: Annotated[str, typer.Argument(help="The deck's name.")],
    cards: Annotated[list[str], typer.Argument(help="The cards.")],
    replace: Annotated[bool, typer.Option("--replace", help="Draw with replacement.")] = False,
) -> None:
    """Make a deck of cards in the session."""
    print_events(run_action(name, "deck", {"name": deck, "cards": cards, "replace": replace}))


@session_app.command("draw")
def draw_cmd(
    name: NameArg, deck: Annotated[str, typer.Argument(help="The deck.")], as_json: JsonOpt = False
) -> None:
    """Draw a card blind from a deck."""
    print_events(run_action(name, "draw", {"deck": deck}), as_json)


@session_app.command("shuffle")
def shuffle_cmd(name: NameArg, deck: Annotated[str, typer.Argument(help="The deck.")]) -> None:
    """Put every card back in a deck."""
    print_events(run_action(name, "shuffle", {"deck": deck}))


@session_app.command("new-day")
def new_day_cmd(name: NameArg) -> None:
    """Start a new day: per-day table limits start again."""
    print_events(run_action(name, "new_day", {}))


_mount_demo()
