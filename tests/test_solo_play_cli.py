"""Solo play at the terminal: menus by number, status, undo, quit and resume.

Issue "One tactical engine ...", section "Solo play at the terminal": a numbered menu of
legal orders with exact odds, free coordinates still possible, a status table, save,
quit, resume, undo and fork.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from test_acw_cli import TINY, feed, one_line_error, run, saved


@pytest.fixture
def tiny(tmp_path: Path) -> Path:
    path = tmp_path / "tiny.toml"
    path.write_text(TINY, encoding="utf-8")
    return path


def test_menu_number_status_undo_quit_and_resume(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tiny: Path
) -> None:
    """Choose by number, show the status table, undo the choice, quit, then resume."""
    asked = feed(monkeypatch, ["1", "status", "undo", "2", "quit"])
    code, out, err = run(capsys, "battle", str(tiny), "--seed", "5", "--human", "union")
    assert code == 0, err
    assert "1. advance" in out and "status | undo | quit | help" in out
    assert "2nd WI" in out and "stands" in out  # the status table's columns
    assert "Undone back to action" in out
    assert "play on with: umpire battle --resume battle-tiny-5" in out
    assert asked[0].startswith("union move [1-")
    # Saved as far as it went (the start, the AI's orders and the second choice).
    assert saved(capsys)["battle-tiny-5"] >= 2
    # Resume with the AI for the Union: it plays to the end and the game verifies.
    code, out, err = run(capsys, "battle", "--resume", "battle-tiny-5", "--ai", "union,confederate")
    assert code == 0, err
    assert "Result: " in out
    assert run(capsys, "games", "verify", "battle-tiny-5")[0] == 0


def test_menu_number_out_of_range_is_refused(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tiny: Path
) -> None:
    """A number outside the menu is refused in one line and asked again, from a pipe as at
    a tty (issue 21); the input running out ends the battle in one line."""
    asked = feed(monkeypatch, ["99"])
    code, out, err = run(capsys, "battle", str(tiny), "--seed", "6", "--human", "union")
    assert "umpire: error: choose 1 to" in out and len(asked) == 2
    one_line_error(code, "", err, "standard input closed")


def test_an_unsaved_battle_tells_what_happened_before_the_next_prompt(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tiny: Path
) -> None:
    """A player at the prompt of a --no-save battle sees each narrative line (seed 002's
    moves and fire: the dice and the hits) before being asked again, not all at the end."""
    import builtins

    seen_before: list[str] = []  # what was on the screen when each prompt was asked
    answers = iter(["1"] * 60)

    def fake_input(prompt: str = "") -> str:
        seen_before.append(capsys.readouterr().out)
        try:
            return next(answers)
        except StopIteration:
            raise EOFError from None

    monkeypatch.setattr(builtins, "input", fake_input)
    code, out, err = run(
        capsys, "battle", str(tiny), "--seed", "1", "--human", "union", "--no-save"
    )
    assert code == 0, err
    shown = "".join(seen_before) + out
    assert "Result: " in out
    assert "--- Turn 2 ---" in "".join(seen_before)  # told while play went on
    assert shown.count("--- Turn 1 ---") == 1  # and not printed again at the end
    assert "1st VA" in seen_before[1] or "1st VA" in seen_before[0]  # the AI's move, told
