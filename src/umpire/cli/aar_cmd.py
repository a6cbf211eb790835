"""``umpire aar GAME -o report.html``: a saved game's after-action report, one HTML file."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer


def aar_cmd(
    game: Annotated[str, typer.Argument(help="The saved game (umpire games list)")],
    out: Annotated[
        Path | None,
        typer.Option("-o", "--output", help="The HTML file to write (default GAME-aar.html)"),
    ] = None,
    battles: Annotated[
        int,
        typer.Option(
            "--battles",
            min=0,
            max=100_000,
            help="Battles played on from before and after each of the five least likely "
            "rolls of a battle, for its win-chance swing (0: leave the swing out)",
        ),
    ] = 200,
    average: Annotated[
        int,
        typer.Option(
            "--average",
            min=0,
            max=100_000,
            help="Battles played from a battle's start on fresh dice with every roll's odds "
            "kept, for 'whether the result would likely have changed with average dice' "
            "(0: leave it out)",
        ),
    ] = 400,
    workers: Annotated[
        int, typer.Option("--workers", min=1, max=256, help="Processes for the swing's battles")
    ] = 2,
) -> None:
    """Write a saved game's after-action report: the story with maps, charts, the decisive
    moments by their exact odds and the win-chance swing of the five least likely (played
    on from before and after each roll), each side's luck, whether the result would likely
    have changed with average dice (battles played from the start) and the proof (one
    file)."""
    from umpire.aar.html import report_file
    from umpire.cli.common import open_store

    store = open_store()
    info = store.info(game)  # an unknown game: one line, before any work
    swing = None
    if battles and info.module in ("battle", "quick_acw"):
        swing = _swing_with_progress(store, battles, workers)
    avg = None
    if average and info.module in ("battle", "quick_acw"):
        avg = _average_with_progress(store, average)
    path = report_file(store, game, out or Path(f"{game}-aar.html"), swing=swing, average=avg)
    typer.echo(f"Wrote {path} (after-action report of {game})")


def _swing_with_progress(store: Any, battles: int, workers: int) -> Any:
    """The lab's swing (:func:`umpire.lab.playon.swing`) on this store, one progress line
    per decisive moment (each plays ``2 * battles`` battles)."""
    from rich.console import Console

    from umpire.lab.playon import swing

    console = Console(stderr=True)

    def measured(name: str, moment: Any) -> float | None:
        with console.status(
            f"win-chance swing of action {moment.action} ({moment.turn}): "
            f"{2 * battles} battles played on"
        ):
            return swing(name, moment, n=battles, workers=workers, store=store)

    return measured


def _average_with_progress(store: Any, battles: int) -> Any:
    """The lab's "with average dice" line (:func:`umpire.lab.luck.average_line`) on this
    store, with a status line counting the battles played."""
    from rich.console import Console

    from umpire.lab.luck import average_line

    console = Console(stderr=True)

    def measured(name: str) -> str | None:
        with console.status(
            f"with average dice: 0 of {battles} battles played from the start"
        ) as st:

            def tick(done: int) -> None:
                if done % 10 == 0 or done == battles:
                    st.update(
                        f"with average dice: {done} of {battles} battles played from the start"
                    )

            return average_line(store, name, battles, progress=tick)

    return measured


def report_at_end(store: Any, name: str) -> str:
    """Write the after-action report of a game that has just ended at the terminal (issue
    24: "printed as a path at the end of terminal play"), in ``reports/`` beside the save
    file, else in the current folder, without playing on; the line to print (a report that
    cannot be written is a one-line note: the game is saved either way)."""
    from umpire.aar.html import report_file
    from umpire.errors import UmpireError

    tries = [Path(store.path).parent / "reports" / f"{name}.html", Path(f"{name}-aar.html")]
    why = ""
    for path in tries:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            report_file(store, name, path)
        except (OSError, UmpireError) as exc:
            why = str(exc)
            continue
        return f"After-action report: {path} (umpire aar {name} -o FILE writes it again)"
    return f"No after-action report written ({why})"
