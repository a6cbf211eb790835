"""Shared by the browser tests: Debian's chromium through Playwright (never a downloaded
browser), launched once per session, and the folder screenshots go to."""

from __future__ import annotations

import os
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@pytest.fixture(scope="session")
def artifacts() -> Path:
    """``test-artifacts/`` at the project's top (or ``$UMPIRE_ARTIFACTS``)."""
    return Path(os.environ.get("UMPIRE_ARTIFACTS", Path(__file__).parents[2] / "test-artifacts"))


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """Debian's chromium, headless; tasks.py installs it with apt when it is missing."""
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: run python3 tasks.py test (it installs chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


def free_port() -> int:
    """A free TCP port on 127.0.0.1."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@contextmanager
def serve_app(db: Path, key: str) -> Iterator[int]:
    """The web app on its save file ``db`` and host ``key``, on a free loopback port in a
    thread, for a module's tests; yields the port and stops the server after."""
    import uvicorn

    from umpire.web.app import create_app

    port = free_port()
    config = uvicorn.Config(create_app(db, key), host="127.0.0.1", port=port, log_level="error")
    srv = uvicorn.Server(config)
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    for _ in range(200):
        if srv.started:
            break
        time.sleep(0.05)
    try:
        yield port
    finally:
        srv.should_exit = True
        thread.join(timeout=5)
