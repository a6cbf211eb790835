"""Issue 24 audit: what a user of `umpire aar` saw that was wrong for a Gettysburg
command-phase game (seed 000) and a dice book."""

from __future__ import annotations

from pathlib import Path

import pytest

from umpire.cli.main import main


def test_cwb_and_book_reports_offer_no_swing_and_say_why_no_luck(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 24's win-chance swing is "play on from the position before and after the
    roll": a seed 000 game and a dice book have no winner to play on for. Their reports
    said "not measured: umpire aar GAME plays on to measure it" even when written by that
    very command, and a cwb game's luck said "No roll of this game carries its exact odds"
    above a table of its rolls' exact odds."""
    db = str(tmp_path / "g.db")
    assert main(["--db", db, "session", "demo", "--seed", "5", "--name", "book"]) == 0
    assert main(["--db", db, "cwb", "new", "--game", "cwb", "--seed", "3"]) == 0
    for _ in range(3):
        assert main(["--db", db, "cwb", "phase", "--game", "cwb"]) == 0
        assert main(["--db", db, "cwb", "next", "--game", "cwb"]) == 0
    capsys.readouterr()
    for name in ("cwb", "book"):
        path = tmp_path / f"{name}.html"
        assert main(["--db", db, "aar", name, "-o", str(path)]) == 0
        text = path.read_text()
        assert "Decisive moments" in text and "% <small>(" in text  # exact odds, ranked
        assert "win-chance swing</th>" not in text and "plays on to measure it" not in text
        assert "no winner to play on for" in text
        assert "No roll of this game carries its exact odds" not in text
    cwb = (tmp_path / "cwb.html").read_text()
    assert "No roll of this game is good or bad for a side in itself" in cwb
