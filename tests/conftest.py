"""Shared fixtures: every test gets its own save file, never the user's."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def _private_db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """Point UMPIRE_DB and XDG_DATA_HOME into the test's temporary folder."""
    db = tmp_path / "umpire.db"
    monkeypatch.setenv("UMPIRE_DB", str(db))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    from umpire.cli import common

    common.set_db_path(None)
    yield db
