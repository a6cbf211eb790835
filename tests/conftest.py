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


@pytest.fixture(autouse=True)
def _strict_change_log(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 25: a rule module changes a unit or a leader only through the Battle's change
    operations; the saved path refuses one it finds changed otherwise."""
    from umpire.battle import game

    monkeypatch.setattr(game, "STRICT", True)
