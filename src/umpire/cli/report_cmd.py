"""``umpire report RUN -o report.html``: a stored lab run as one self-contained HTML file."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from umpire.errors import UmpireError


def report_cmd(
    run: Annotated[
        str, typer.Argument(help="The lab run's id (umpire runs lists them) or 'latest'")
    ],
    out: Annotated[Path, typer.Option("-o", "--output", help="The HTML file to write")] = Path(
        "report.html"
    ),
    luck: Annotated[
        int,
        typer.Option(
            "--luck",
            min=0,
            max=1_000_000,
            help="Battles of each arm played again with every roll's exact odds kept, for "
            "the luck section's 'whose dice ran above their expectation' (0: leave it out)",
        ),
    ] = 200,
) -> None:
    """Write a lab run's report: win rates with intervals, distributions, A/B differences."""
    from umpire.cli.common import open_store
    from umpire.cli.games_cmd import atomic_write
    from umpire.lab.report import render
    from umpire.lab.results import list_runs, load_run

    conn = open_store().conn
    if run == "latest":
        done = [r for r in list_runs(conn) if r["complete"]]
        if not done:
            raise UmpireError("no finished lab run yet (umpire simulate SCENARIO -n N)")
        run_id = int(done[0]["id"])
    else:
        try:
            run_id = int(run)
        except ValueError:
            raise UmpireError(f"a run is a number or 'latest', not {run!r} (umpire runs)") from None
    folder = out.parent if str(out.parent) else Path(".")
    if not folder.is_dir():
        raise UmpireError(f"{out}: the folder {folder} does not exist")
    loaded = load_run(conn, run_id)
    lucks = None
    if luck:
        from umpire.cli.lab_cmd import progress_bar
        from umpire.lab.luck import run_luck

        total = sum(min(luck, len(b)) for b in loaded.battles)
        with progress_bar("luck: battles played again", total, False) as tick:
            lucks = run_luck(loaded, luck, tick)
    html = render(loaded, lucks, f"umpire report {run_id} --luck 200")
    atomic_write(out, html)  # whole or not at all: a failure leaves no half-written report
    typer.echo(f"Wrote {out} (lab run {run_id}, {len(html) // 1024} KiB, one file)")
    for a in lucks or []:
        won, n = a.lucky_won()
        share = f"{100 * won / n:.0f}% of {n}" if n else "none"
        left = f"; {len(a.differed)} left out (their replay differs)" if a.differed else ""
        fail = f"; not played again: {a.failed}" if a.failed else ""
        typer.echo(
            f"  luck, {a.label}: {len(a.replayed)} battles played again, the luckier side "
            f"won {share}{left}{fail}"
        )
