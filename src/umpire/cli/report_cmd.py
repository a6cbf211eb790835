"""``umpire report RUN -o report.html``: a stored lab run as one self-contained HTML file."""

from __future__ import annotations

import os
import tempfile
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
) -> None:
    """Write a lab run's report: win rates with intervals, distributions, A/B differences."""
    from umpire.cli.common import open_store
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
    html = render(load_run(conn, run_id))
    # written beside the target, then renamed: a failure leaves no half-written report
    fd, tmp = tempfile.mkstemp(prefix=".report-", suffix=".html", dir=folder)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(html)
        os.replace(tmp, out)
    except OSError as exc:
        Path(tmp).unlink(missing_ok=True)
        raise UmpireError(f"{out}: cannot write the report ({exc.strerror})") from None
    typer.echo(f"Wrote {out} (lab run {run_id}, {len(html) // 1024} KiB, one file)")
