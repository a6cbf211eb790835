"""``umpire aar GAME -o report.html``: a saved game's after-action report, one HTML file."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer


def aar_cmd(
    game: Annotated[str, typer.Argument(help="The saved game (umpire games list)")],
    out: Annotated[
        Path | None,
        typer.Option("-o", "--output", help="The HTML file to write (default GAME-aar.html)"),
    ] = None,
) -> None:
    """Write a saved game's after-action report: the story with maps, charts, the decisive
    moments by their exact odds, each side's luck and the proof (one self-contained file)."""
    from umpire.aar.html import report_file
    from umpire.cli.common import open_store

    store = open_store()
    store.info(game)  # an unknown game: one line, before any work
    path = report_file(store, game, out or Path(f"{game}-aar.html"))
    typer.echo(f"Wrote {path} (after-action report of {game})")
