"""The ``umpire`` command: the entry point, global options and error handling.

Every command module is registered here. Bad input of any kind ends in one line on
standard error and exit code 2, never a traceback.
"""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from umpire.cli.common import report, set_db_path
from umpire.errors import UmpireError

app = typer.Typer(
    name="umpire",
    help="A computer umpire for American Civil War tabletop wargames: dice, tables, "
    "events, battles and bookkeeping.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)


@app.callback()
def _global(
    db: Annotated[
        str | None,
        typer.Option(
            "--db",
            help="The save file (SQLite). Default: $UMPIRE_DB, else "
            "$XDG_DATA_HOME/umpire/umpire.db.",
            envvar="UMPIRE_DB",
        ),
    ] = None,
) -> None:
    """Options for every command."""
    set_db_path(db)


def _register() -> None:
    """Mount the command modules that are present."""
    import importlib

    plain = [
        ("umpire.cli.dice_cmd", "roll_cmd", "roll"),
        ("umpire.cli.serve_cmd", "serve_cmd", "serve"),
        ("umpire.cli.serve_cmd", "host_key_cmd", "host-key"),
        ("umpire.cli.lab_cmd", "simulate_cmd", "simulate"),
        ("umpire.cli.lab_cmd", "runs_cmd", "runs"),
        ("umpire.cli.report_cmd", "report_cmd", "report"),
        ("umpire.cli.aar_cmd", "aar_cmd", "aar"),
    ]
    for module, attr, name in plain:
        try:
            fn = getattr(importlib.import_module(module), attr)
        except (ImportError, AttributeError):
            continue
        app.command(name)(fn)
    groups = [
        ("umpire.cli.table_cmd", "table_app", "table", "Roll tables: list, show, roll."),
        (
            "umpire.cli.games_cmd",
            "games_app",
            "games",
            "Saved games: list, show, undo, fork, export, import, verify, end.",
        ),
        (
            "umpire.cli.session_cmd",
            "session_app",
            "session",
            "The dice book: a logged game of rolls, tables, random picks and decks.",
        ),
        ("umpire.cli.rules_cmd", "rules_app", "rules", "Rule modules and their labelled defaults."),
        (
            "umpire.cli.odds_cmd",
            "odds_app",
            "odds",
            "Exact odds before the dice: every resolution of every module, or dice notation.",
        ),
    ]
    from umpire.rules import COMMANDS

    for name, (target, help_text) in COMMANDS.items():  # commands that rule modules add
        module, _, attr = target.partition(":")
        groups.append((module, attr, name, help_text))
    resolve = typer.Typer(no_args_is_help=True)
    from umpire.rules import RESOLVERS

    for target in RESOLVERS:  # every module's rulings, one command group
        module, _, attr = target.partition(":")
        try:
            sub = getattr(importlib.import_module(module), attr)
        except (ImportError, AttributeError):
            continue
        known = {c.name for c in resolve.registered_commands}
        resolve.registered_commands.extend(
            c for c in sub.registered_commands if c.name not in known
        )
    app.add_typer(
        resolve,
        name="resolve",
        help="Table assistant: resolve one fire, charge, melee, artillery round or "
        "hand-to-hand with its trace and exact odds.",
    )
    for module, attr, name, help_text in groups:
        try:
            sub = getattr(importlib.import_module(module), attr)
        except (ImportError, AttributeError):
            continue
        app.add_typer(sub, name=name, help=help_text)
    try:
        from umpire.cli import battle_cmd
    except ImportError:
        pass
    else:
        app.command("battle")(battle_cmd.battle)
        app.command("render")(battle_cmd.render)
    try:
        from umpire.cli.demo_cmd import demo_cmd
    except ImportError:
        return
    app.command("demo")(demo_cmd)


_register()


def main(argv: list[str] | None = None) -> int:
    """Run the CLI; turn every :class:`UmpireError` into one line and exit code 2."""
    from typer._click import exceptions as click_exc

    args = sys.argv[1:] if argv is None else argv
    try:
        result = app(args=args, prog_name="umpire", standalone_mode=False)
    except UmpireError as exc:
        return report(exc)
    except click_exc.UsageError as exc:
        hint = f" (see 'umpire {exc.ctx.command_path.partition(' ')[2]} --help')" if exc.ctx else ""
        sys.stderr.write(f"umpire: error: {exc.format_message()}{hint}\n".replace("  ", " "))
        return 2
    except typer.Abort:
        sys.stderr.write("umpire: aborted\n")
        return 130
    except click_exc.ClickException as exc:
        sys.stderr.write(f"umpire: error: {exc.format_message()}\n")
        return exc.exit_code
    except KeyboardInterrupt:
        sys.stderr.write("umpire: interrupted; saved games hold every action committed before\n")
        return 130
    except BrokenPipeError:
        return 0
    except OSError as exc:  # the system refused a file or folder a user named: one line
        where = f"{str(exc.filename)[:80]!r}: " if exc.filename else ""
        sys.stderr.write(f"umpire: error: {where}{exc.strerror or exc}\n")
        return 2
    except Exception as exc:
        from umpire.ai.human import PlayerCommand

        if isinstance(exc, PlayerCommand):  # q typed at a prompt outside a battle's own loop
            sys.stderr.write("umpire: quit; every action before this one is saved\n")
            return 0
        raise
    finally:
        _shipped_rules()
    return int(result) if isinstance(result, int) else 0


def _shipped_rules() -> None:
    """Take off a rule variant a command installed (``--vary``), so a process that runs
    several commands (tests, a shell) plays the next one under the shipped rules."""
    seam = sys.modules.get("umpire.rules.data")
    if seam is not None:
        seam.install(seam.Overlay())


if __name__ == "__main__":
    sys.exit(main())
