"""``umpire cwb``: the command line, the store, and bad input (one line, nothing written)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from umpire.cli.main import main

SEED_LONGSTREET = 9  # the first 2d6 of seed 9 is [2, 3] = 5: Longstreet Moves to the Right


@pytest.fixture
def db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A fresh save file for each test."""
    path = tmp_path / "games.db"
    monkeypatch.setenv("UMPIRE_DB", str(path))
    yield path


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """Run the CLI; return (exit code, stdout, stderr)."""
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


def actions(capsys: pytest.CaptureFixture[str], game: str = "cwb") -> int:
    """How many actions a saved game has (via ``umpire games list --json``)."""
    code, out, _ = run(capsys, "games", "list", "--json")
    assert code == 0
    rows = json.loads(out)
    return int(next(r for r in rows if r["name"] == game)["actions"])


def test_new_phase_status_json(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A game starts, a phase shows every roll with its exact odds, status reports the book."""
    assert run(capsys, "cwb", "new", "--seed", "3", "--date", "July 2", "--time", "14:00")[0] == 0
    code, out, err = run(capsys, "cwb", "phase", "--side", "confederate", "--policy", "random")
    assert code == 0, err
    assert "Confederate Random Event Table: 2d6" in out and "(P " in out
    code, out, _ = run(capsys, "cwb", "next", "--json")
    assert code == 0 and json.loads(out)["name"] == "next"
    code, out, _ = run(capsys, "cwb", "phase", "--side", "union", "--policy", "random", "--json")
    rec = json.loads(out)
    assert rec["name"] == "phase" and any(e["kind"] == "lookup" for e in rec["events"])
    code, out, _ = run(capsys, "cwb", "status", "--json")
    status = json.loads(out)
    assert status["time"] == "July 2 14:00" and status["player_turn"] == "union"
    assert status["sides"]["union"]["army_commander"] == "meade"
    code, out, _ = run(capsys, "cwb", "status")
    assert code == 0 and "UNION" in out and "CONFEDERATE" in out


def test_book_keeping_commands(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Orders, wrecks, positions, leader losses and the clock, each one saved action."""
    run(capsys, "cwb", "new", "--seed", "1", "--date", "July 2", "--time", "14:00")
    steps = [
        (
            "cwb",
            "order",
            "issue",
            "--side",
            "confederate",
            "--from",
            "lee",
            "--to",
            "longstreet",
            "--kind",
            "attack",
            "--arrive",
            "July 2 14:40",
        ),
        ("cwb", "order", "arrive", "o1", "D2"),
        ("cwb", "next", "--skip-events"),  # an order arriving in D2 is rolled in a later turn
        ("cwb", "next", "--skip-events"),
        ("cwb", "order", "roll", "o1"),
        ("cwb", "wreck", "H/3"),
        ("cwb", "place", "L/H/1", "a43.01"),
        ("cwb", "place", "longstreet", "A43.02"),
        ("cwb", "unplace", "longstreet"),
        ("cwb", "leader-loss", "pender", "--status", "wounded"),
        ("cwb", "clock", "--date", "July 3", "--time", "13:00", "--side", "union"),
        (
            "cwb",
            "order",
            "issue",
            "--side",
            "union",
            "--from",
            "meade",
            "--to",
            "II",
            "--status",
            "D3",
        ),
        ("cwb", "order", "accept", "o2"),
        ("cwb", "order", "cancel", "o2"),
        ("cwb", "enter", "P/1"),
    ]
    for n, step in enumerate(steps, 1):
        code, _, err = run(capsys, *step)
        assert code == 0, (step, err)
        assert actions(capsys) == n
    code, out, _ = run(capsys, "cwb", "status", "--json")
    st = json.loads(out)
    conf = st["sides"]["confederate"]
    assert conf["wrecked_infantry_divisions"] == ["H/3"]
    assert any(c["id"] == "pender" for c in conf["casualties"])
    assert st["time"] == "July 3 13:00"


def test_undo_fork_export(db: Path, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """The foundation's undo, fork and export work on cwb games."""
    run(capsys, "cwb", "new", "--seed", "5")
    run(capsys, "cwb", "phase", "--side", "confederate", "--policy", "random")
    run(capsys, "cwb", "next")
    assert actions(capsys) == 2
    assert run(capsys, "games", "fork", "cwb", "cwb2")[0] == 0
    assert run(capsys, "games", "undo", "cwb", "--to", "1")[0] == 0
    assert actions(capsys) == 1 and actions(capsys, "cwb2") == 2
    out_file = tmp_path / "cwb.json"
    code, _, err = run(capsys, "games", "export", "cwb2", "--output", str(out_file))
    assert code == 0, err
    assert run(capsys, "games", "verify", str(out_file))[0] == 0
    code, out, _ = run(capsys, "cwb", "status", "--game", "cwb2", "--json")
    assert json.loads(out)["player_turn"] == "union"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("cwb", "phase", "--side", "french"), "unknown side 'french'"),
        (("cwb", "phase", "--side", "union", "--policy", "random"), "it is the Confederate"),
        (("cwb", "place", "L/H/1", "Z99.01"), "unknown hex 'Z99.01'"),
        (("cwb", "place", "L/H/9", "A10.10"), "unknown leader 'L/H/9'"),
        (
            ("cwb", "order", "issue", "--side", "union", "--from", "meade", "--to", "napoleon"),
            "unknown union leader 'napoleon'",
        ),
        (
            ("cwb", "order", "issue", "--side", "union", "--from", "meade", "--to", "lee"),
            "unknown union leader 'lee'",
        ),
        (("cwb", "order", "arrive", "o9", "A"), "unknown order 'o9'"),
        (("cwb", "wreck", "Q/9"), "unknown division 'Q/9'"),
        (("cwb", "status", "--game", "nosuch"), "unknown game 'nosuch'"),
        (("cwb", "phase", "--side", "confederate", "--game", "nosuch"), "unknown game 'nosuch'"),
        (("cwb", "clock", "--date", "July 9", "--time", "10:00"), "unknown date 'July 9'"),
        (("cwb", "clock", "--date", "July 2", "--time", "10:05"), "is not a game turn"),
    ],
)
def test_bad_input_one_line_nothing_written(
    db: Path, capsys: pytest.CaptureFixture[str], args: tuple[str, ...], message: str
) -> None:
    """Bad input: a clear one-line error, exit code 2, and no action saved."""
    run(capsys, "cwb", "new", "--seed", "2", "--date", "July 2", "--time", "14:00")
    code, _out, err = run(capsys, *args)
    assert code == 2
    assert message in err and err.count("\n") == 1 and "Traceback" not in err
    assert actions(capsys) == 0


def test_phase_twice_refused(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Seed 000: each side rolls once in its Command Phase; a second roll is refused."""
    run(capsys, "cwb", "new", "--seed", "2")
    run(capsys, "cwb", "phase", "--side", "confederate", "--policy", "random")
    code, _, err = run(capsys, "cwb", "phase", "--side", "confederate", "--policy", "random")
    assert code == 2 and "already been rolled" in err
    assert actions(capsys) == 1


def test_choice_outside_options(
    db: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A prompt answer outside the options is refused and asked again, as many times as
    needed (issue 21); `quit` stops the command and nothing is written."""
    run(capsys, "cwb", "new", "--seed", str(SEED_LONGSTREET), "--date", "July 2", "--time", "14:00")
    typed = ["maybe"] * 12 + ["quit"]
    monkeypatch.setattr("builtins.input", lambda prompt="": typed.pop(0))
    code, out, err = run(capsys, "cwb", "phase", "--side", "confederate")
    assert out.count("'maybe' is not an option") == 12
    assert code == 2 and "quit at the prompt" in err and err.count("\n") == 1
    assert actions(capsys) == 0
    monkeypatch.setattr("builtins.input", lambda prompt="": "1")
    code, out, err = run(capsys, "cwb", "phase", "--side", "confederate")
    assert code == 0, err
    assert "24 accumulated MPs" in out
    assert actions(capsys) == 1


def test_custom_oob_file_errors(
    db: Path, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """A user's order of battle with an error names the file and line."""
    bad = tmp_path / "my_oob.toml"
    bad.write_text('[[army]]\nside = "prussia"\n')
    code, _, err = run(capsys, "cwb", "new", "--oob", str(bad))
    assert code == 2 and f"{bad}:1:" in err and "prussia" in err
