"""Attack at the terminal: fork and undo through `umpire games` (issue 22, "Nobody can see
or choose the dice"; reading ``web_fork`` and the undo records of docs/dice-protocol.md).

Before: `games fork` of a committed game in play kept its seed, so ending the fork revealed
the live game's seed (its SHA-256 is the live commitment) and foretold every die; `games
undo` left no trace, so a roll could be taken back and made again unseen.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from umpire.cli.main import main
from umpire.store import Store


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_forking_a_committed_game_in_play_at_the_terminal_foresees_none_of_its_dice(
    capsys: pytest.CaptureFixture[str], _private_db: Path
) -> None:
    assert run(capsys, "session", "new", "live", "--dice", "committed")[0] == 0
    for _ in range(3):
        assert run(capsys, "session", "roll", "live", "2d6")[0] == 0
    code, out, err = run(capsys, "games", "fork", "live", "copy")
    assert code == 0, err
    assert "with dice of its own from the fork point" in out
    assert run(capsys, "games", "end", "copy")[0] == 0
    store = Store(_private_db)
    live, copy = store.info("live"), store.info("copy")
    assert copy.seed is not None and live.commitment is not None
    assert hashlib.sha256(copy.seed.encode()).hexdigest() != live.commitment
    assert copy.commitment != live.commitment
    # Keeping the parent's hidden dice is refused while the parent is in play.
    code, out, err = run(capsys, "games", "fork", "live", "peek", "--keep-dice")
    assert code != 0 and err.count("\n") == 1 and "once the game has ended" in err
    assert "peek" not in store.names()


def test_an_undo_at_the_terminal_is_recorded_with_the_withdrawn_dice(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    assert run(capsys, "session", "new", "g", "--dice", "committed")[0] == 0
    assert run(capsys, "session", "roll", "g", "2d6", "--purpose", "charge")[0] == 0
    code, out, err = run(capsys, "games", "undo", "g")
    assert code == 0 and "kept beside the log" in out, err
    assert run(capsys, "session", "roll", "g", "2d6", "--purpose", "charge")[0] == 0
    assert run(capsys, "games", "end", "g")[0] == 0
    path = tmp_path / "g.json"
    assert run(capsys, "games", "export", "g", "-o", str(path))[0] == 0
    data = json.loads(path.read_text())
    undo = [r for r in data["records"] if r["kind"] == "undo"]
    assert len(undo) == 1 and undo[0]["by"] == "terminal"
    withdrawn = undo[0]["withdrawn"]
    assert [a["name"] for a in withdrawn] == ["roll"]
    assert any(e.get("draws") for e in withdrawn[0]["events"])  # the faces are kept
    code, out, err = run(capsys, "games", "verify", str(path), "--json")
    assert code == 0, err
    assert any("terminal" in line for line in json.loads(out)["records"])
