"""``umpire serve``: the web table on this machine; ``umpire host-key``: the key of its start
page, kept in the save file (see docs/web.md)."""

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
        typer.Option(
            help="The key of the host's start page for this run only (default: the one kept "
            "in the save file, made on first use; see 'umpire host-key')"
        ),
    ] = None,
    new_key: Annotated[
        bool,
        typer.Option("--new-key", help="Make a new key first (the old start page stops opening)"),
    ] = False,
) -> None:
    """Serve the web table: start games from any scenario, one secret link per side."""
    import uvicorn

    from umpire.cli.common import open_store
    from umpire.web.app import create_app
    from umpire.web.seats import host_key

    _check_listen(host, port)
    store = open_store()
    if db is not None:
        from umpire.store import Store

        store = Store(db)
    store_path = str(store.path)
    key = key or host_key(store, new=new_key)
    store.close()
    app = create_app(store_path, key)
    shown = "localhost" if host in ("127.0.0.1", "0.0.0.0") else host
    import gc

    gc.freeze()  # what is loaded at start stays: the collector does not walk it again
    gc.set_threshold(20_000, 20, 20)  # fewer, shorter pauses under load (docs/web.md)
    typer.echo(f"Umpire web table on http://{shown}:{port}/?key={key}")
    typer.echo(f"Save file: {store_path}. Stop with Ctrl-C.")
    uvicorn.run(app, host=host, port=port, log_level="warning")


def _check_listen(host: str, port: int) -> None:
    """One line, before anything starts, when this machine cannot listen on ``host:port``
    (not an address, a name too long, the port taken or not permitted)."""
    import socket

    from umpire.errors import UmpireError

    where = f"--host {host[:60]!r} --port {port}"
    if not host.strip():
        raise UmpireError("--host: give an address to listen on (127.0.0.1, 0.0.0.0, a name)")
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError) as exc:
        raise UmpireError(f"{where}: not an address of this machine ({exc})") from None
    family, kind, proto, _, addr = infos[0]
    try:
        with socket.socket(family, kind, proto) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind(addr)
    except OSError as exc:
        raise UmpireError(f"{where}: cannot listen there ({exc.strerror or exc})") from None


def host_key_cmd(
    db: Annotated[
        str | None, typer.Option("--db", help="The save file (default: the usual one)")
    ] = None,
    new: Annotated[
        bool,
        typer.Option(
            "--new",
            help="Make a new key: the old start page stops opening (a running server "
            "keeps the key it started with until it restarts)",
        ),
    ] = False,
) -> None:
    """Show the key of the web table's start page (kept in the save file), or make a new one."""
    from umpire.cli.common import open_store
    from umpire.web.seats import host_key

    store = open_store()
    if db is not None:
        from umpire.store import Store

        store = Store(db)
    key = host_key(store, new=new)
    store.close()
    typer.echo(f"{'New host key' if new else 'Host key'}: {key}")
    typer.echo(f"Start page: http://localhost:<port>/?key={key}  (save file: {store.path})")
