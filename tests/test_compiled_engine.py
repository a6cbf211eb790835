"""The optional compiled engine (issue 11): ``umpire simulate`` runs its workers on a build
only when it is current, the workers really import it, and they play the same battles.

The real mypyc build is checked by ``python3 tasks.py test``, which compiles it and runs the
golden battles against it with ``UMPIRE_EXPECT_COMPILED=1`` (the last test here)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from umpire.battle.scenario import load_scenario
from umpire.cli.main import main
from umpire.errors import UmpireError
from umpire.lab import compiled
from umpire.lab.arms import SHIPPED
from umpire.lab.runner import plan, run, tasks

SRC = Path(compiled.__file__).resolve().parents[2]


def fake_project(tmp: Path, marker: Path) -> Path:
    """A project folder whose ``build/mypyc/src`` is a plain copy of ``src`` (no compiling)
    that records each import of ``umpire`` in ``marker``, stamped as built from ``src``."""
    top = tmp / "proj"
    skip = shutil.ignore_patterns("__pycache__", "*.so")
    shutil.copytree(SRC, top / "src", ignore=skip)
    (top / "pyproject.toml").write_text("")
    out = top / "build" / "mypyc"
    shutil.copytree(SRC, out / "src", ignore=skip)
    init = out / "src" / "umpire" / "__init__.py"
    init.write_text(
        init.read_text()
        + f"\nwith open({str(marker)!r}, 'a') as _f:\n    _f.write(__file__ + '\\n')\n"
    )
    (out / "SOURCES").write_text(compiled.digest(top / "src") + "\n")
    return top


def records(workers: int, engine: Path | None) -> list[dict]:  # type: ignore[type-arg]
    scen = load_scenario("mcpherson_cards")
    p = plan(scen, [SHIPPED], "scalar")
    got: list[dict] = []  # type: ignore[type-arg]
    run(tasks(p, 6, 11, workers), lambda a, s, r: got.extend(r), workers=workers, engine=engine)
    return sorted(got, key=lambda r: r["i"])


def test_workers_run_on_a_current_build_and_play_the_same_battles(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With a current build, --engine auto chooses it; one worker or two import umpire from
    it (not from src) and their records equal the in-process pure-Python run's."""
    marker = tmp_path / "imports.txt"
    top = fake_project(tmp_path, marker)
    monkeypatch.setattr(compiled, "root", lambda: top)
    where = compiled.choose("auto", cluster=False)
    assert where == top / "build" / "mypyc" / "src"
    pure = records(1, None)
    assert not marker.exists()
    assert records(1, where) == pure
    seen = marker.read_text().splitlines()
    assert seen and all(s.startswith(str(where)) for s in seen)
    assert records(2, where) == pure
    assert len(marker.read_text().splitlines()) > len(seen)


def test_the_command_line_runs_its_workers_on_the_build(tmp_path: Path) -> None:
    """Like the ``umpire`` script, whose workers import the main script again (and with it
    umpire): every import of umpire in a worker is the build's, and a --vary variant still
    reaches the rules there (overlays name data folders inside the package, not by path)."""
    marker = tmp_path / "imports.txt"
    top = fake_project(tmp_path, marker)
    script = tmp_path / "umpire_cli.py"
    script.write_text(
        "import sys\nfrom pathlib import Path\nfrom umpire.lab import compiled\n"
        f"compiled.root = lambda: Path({str(top)!r})\n"
        "from umpire.cli.main import main\n"
        "if __name__ == '__main__':\n    sys.exit(main(sys.argv[1:]))\n"
    )
    bad = 'quick-acw.turn.order=["a", "b"]'
    base = [sys.executable, str(script), "--db", str(tmp_path / "u.db"), "simulate", "standard"]
    res = subprocess.run(
        [*base, "-n", "3", "--workers", "1", "--engine", "compiled", "--vary", bad],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert res.returncode == 2 and "are the varied rules consistent?" in res.stderr, res.stderr
    seen = marker.read_text().splitlines()
    where = str(top / "build" / "mypyc" / "src")
    assert seen and all(s.startswith(where) for s in seen), seen
    res = subprocess.run(
        [
            *base,
            "-n",
            "4",
            "--seed",
            "2",
            "--json",
            "--no-save",
            "--workers",
            "2",
            "--path",
            "scalar",
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert res.returncode == 0, res.stderr
    assert json.loads(res.stdout)["config"]["engine"] == f"compiled ({where})"
    assert len(marker.read_text().splitlines()) >= len(seen) + 2
    assert all(s.startswith(where) for s in marker.read_text().splitlines())


def test_a_stale_build_is_never_used(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An edited source makes the stamp stale: auto falls back to pure Python and
    --engine compiled says what to run; python never looks; a cluster runs its own."""
    top = fake_project(tmp_path, tmp_path / "m.txt")
    monkeypatch.setattr(compiled, "root", lambda: top)
    assert compiled.choose("python", cluster=False) is None
    assert compiled.choose("auto", cluster=True) is None
    with pytest.raises(UmpireError, match="for the local pool"):
        compiled.choose("compiled", cluster=True)
    (top / "build" / "mypyc" / "SOURCES").write_text("0" * 64 + "\n")  # sources edited since
    assert compiled.choose("auto", cluster=False) is None
    with pytest.raises(UmpireError, match=r"python3 tasks.py compile"):
        compiled.choose("compiled", cluster=False)
    shutil.rmtree(top / "build")
    assert compiled.current() is None


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (("--engine", "fast"), "unknown --engine 'fast' (auto, python, compiled)"),
        (("--engine", "compiled", "--cluster", "tcp://127.0.0.1:9"), "for the local pool"),
    ],
)
def test_bad_engine_is_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, args: tuple[str, ...], needle: str
) -> None:
    """Bad --engine input: exit 2, one line, before anything is run."""
    code = main(["--db", str(tmp_path / "u.db"), "simulate", "standard", "-n", "5", *args])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and needle in err, err


@pytest.mark.skipif(
    os.environ.get("UMPIRE_EXPECT_COMPILED") != "1", reason="run by tasks.py test on the build"
)
def test_the_compiled_copy_is_what_runs() -> None:
    """When tasks.py test runs the golden battles on the build, they really run compiled."""
    import umpire.battle.engine
    import umpire.rules.quick_acw.steps

    assert umpire.battle.engine.__file__.endswith(".so")
    assert umpire.rules.quick_acw.steps.__file__.endswith(".so")
