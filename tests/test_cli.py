"""The command line: games, sessions, verify, and one-line errors for bad input."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from umpire.cli.main import main


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_session_life_cycle(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert run(capsys, "session", "new", "s1", "--dice", "committed")[0] == 0
    for args in (
        ("session", "roll", "s1", "2d6+1", "--purpose", "fire"),
        ("session", "pick", "s1", "Hood", "McLaws", "Pickett"),
        ("session", "deck", "s1", "box", "A", "B", "C"),
        ("session", "draw", "s1", "box"),
    ):
        code, out, err = run(capsys, *args)
        assert code == 0, err
    code, out, _ = run(capsys, "games", "list", "--json")
    assert json.loads(out)[0]["actions"] == 4
    assert json.loads(out)[0]["seed"] is None  # committed seed stays hidden
    code, out, _ = run(capsys, "games", "show", "s1")
    assert "fire: 2d6+1" in out
    export = tmp_path / "s1.json"
    assert run(capsys, "games", "end", "s1")[0] == 0
    assert run(capsys, "games", "export", "s1", "-o", str(export))[0] == 0
    code, out, _ = run(capsys, "games", "verify", str(export), "--json")
    assert code == 0 and json.loads(out)["rolls_checked"] is True
    # Tamper with the first roll's face: verify names its place in the log.
    data = json.loads(export.read_text())
    draw = data["actions"][0]["events"][1]["draws"][0]
    draw[2][0] = 1 + draw[2][0] % 6
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    code, out, err = run(capsys, "games", "verify", str(bad))
    assert code == 2
    assert err.startswith(f"umpire: error: {bad}: tampered roll at log event 2 (action 1")
    assert err.count("\n") == 1 and "Traceback" not in err


def test_undo_fork_import(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    run(capsys, "session", "new", "g", "--seed", "5")
    for _ in range(3):
        run(capsys, "session", "roll", "g", "d6")
    assert run(capsys, "games", "fork", "g", "h", "--at", "2")[0] == 0
    assert run(capsys, "games", "undo", "g")[0] == 0
    code, out, _ = run(capsys, "games", "list", "--json")
    counts = {g["name"]: g["actions"] for g in json.loads(out)}
    assert counts == {"g": 2, "h": 2}
    export = tmp_path / "g.json"
    run(capsys, "games", "export", "g", "-o", str(export))
    code, out, err = run(capsys, "games", "import", str(export))
    assert code == 2 and "already exists" in err
    assert run(capsys, "games", "import", str(export), "--name", "g-copy")[0] == 0


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("roll", "2d"), "2d"),
        (("roll", "d0"), "d0"),
        (("roll", "3d6+"), "3d6+"),
        (("games", "show", "nope"), "unknown game 'nope'"),
        (("session", "roll", "nope", "2d6"), "unknown game 'nope'"),
        (("games", "verify", "missing-game"), "unknown game 'missing-game'"),
        (("games", "undo"), "Missing argument"),
    ],
)
def test_bad_input_is_one_line(
    capsys: pytest.CaptureFixture[str], args: tuple[str, ...], message: str
) -> None:
    code, _out, err = run(capsys, *args)
    assert code == 2
    assert err.startswith("umpire: error:") and message in err
    assert err.count("\n") == 1 and "Traceback" not in err


def test_bad_notation_in_a_game_writes_nothing(capsys: pytest.CaptureFixture[str]) -> None:
    run(capsys, "session", "new", "g", "--seed", "1")
    code, _, err = run(capsys, "session", "roll", "g", "200d6")
    assert code == 2 and "at most" in err
    _, out, _ = run(capsys, "games", "list", "--json")
    assert json.loads(out)[0]["actions"] == 0


def test_bad_export_file_names_file_and_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    bad = tmp_path / "broken.json"
    bad.write_text('{\n  "format": "umpire-game/1",\n  "game": ,\n}\n')
    code, _, err = run(capsys, "games", "import", str(bad))
    assert code == 2 and f"{bad}:3: bad JSON" in err


def test_console_script_no_traceback(tmp_path: Path) -> None:
    """The installed entry point prints one line and exits 2 on bad notation."""
    exe = Path(sys.executable).parent / "umpire"
    proc = subprocess.run(
        [str(exe), "odds", "2d6kh7"], capture_output=True, text=True, timeout=60, check=False
    )
    assert proc.returncode == 2
    assert proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr


@pytest.mark.parametrize("expr", ["2d", "d0", "3d6+", "500d6"])
def test_fast_roll_path_errors_are_one_line(expr: str) -> None:
    """``umpire roll`` bypasses typer for speed; its errors are still one line, exit 2."""
    exe = Path(sys.executable).parent / "umpire"
    proc = subprocess.run(
        [str(exe), "roll", expr], capture_output=True, text=True, timeout=60, check=False
    )
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.startswith("umpire: error:") and proc.stderr.count("\n") == 1


def test_fast_roll_json_matches_full_app(capsys: pytest.CaptureFixture[str]) -> None:
    exe = Path(sys.executable).parent / "umpire"
    proc = subprocess.run(
        [str(exe), "roll", "4d6kh3", "--seed", "9", "--json"],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    code, out, _ = run(capsys, "roll", "4d6kh3", "--seed", "9", "--json")
    assert code == 0 and json.loads(out) == json.loads(proc.stdout)
    assert set(json.loads(out)) >= {"expr", "dice", "total", "seed"}


def test_main_job_demo_plays_saves_verifies_and_draws(
    capsys: pytest.CaptureFixture[str], _private_db: Path
) -> None:
    """The README's main job: a whole battle, saved, verified against its seed, drawn."""
    code, out, err = run(capsys, "demo", "--seed", "3")
    assert code == 0, err
    assert "every die matches the seed" in out
    code, out, _ = run(capsys, "games", "verify", "demo-standard-3", "--json")
    assert code == 0 and json.loads(out)["rolls_checked"]
    picture = _private_db.parent / "demo-standard-3.svg"
    assert picture.read_text().startswith("<svg") or "<svg" in picture.read_text()[:200]


def test_session_demo(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "session", "demo", "--seed", "2", "--name", "dd")
    assert code == 0, err
    assert "verified 9 actions" in out
