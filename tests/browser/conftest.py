"""Shared by the browser tests: Debian's chromium through Playwright (never a downloaded
browser), launched once per session, and the folder screenshots go to."""

from __future__ import annotations

import os
from collections.abc import Iterator
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
