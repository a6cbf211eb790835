"""``umpire serve``: the web table on this machine (see docs/web.md)."""

from __future__ import annotations

from typing import Annotated

import typer


def serve_cmd(
    host: Annotated[str, typer.Option(help="The address to listen on (0.0.0.0: the network)")] = (
        "127.0.0.1"
    ),
    port: Annotated[int, typer.Option(help="The port", min=1, max=65535)] = 8000,
    db: Annotated[
        str | None, typer.Option("--db", help="The save file (default: the usual one)")
    ] = None,
    key: Annotated[
        str | None,
        typer.Option(help="The key of the host's start page (default: a fresh one, printed)"),
    ] = None,
) -> None:
    """Serve the web table: start games from any scenario, one secret link per side."""
    import secrets

    import uvicorn

    from umpire.cli.common import open_store
    from umpire.web.app import create_app

    store_path = db or str(open_store().path)
    key = key or secrets.token_urlsafe(12)
    app = create_app(store_path, key)
    shown = "localhost" if host in ("127.0.0.1", "0.0.0.0") else host
    import gc

    gc.freeze()  # what is loaded at start stays: the collector does not walk it again
    gc.set_threshold(20_000, 20, 20)  # fewer, shorter pauses under load (docs/web.md)
    typer.echo(f"Umpire web table on http://{shown}:{port}/?key={key}")
    typer.echo(f"Save file: {store_path}. Stop with Ctrl-C.")
    uvicorn.run(app, host=host, port=port, log_level="warning")
