"""Issue 21, seed 000 command phase: random argument vectors (the cwb vocabulary plus junk) and
random prompt input fed to `umpire cwb` through typer's CliRunner on a temporary save file:
never a traceback, exit code 0, 1 or 2, and a refusal is one line."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from umpire.cli.main import main

runner = CliRunner()

LEADERS = ["lee", "longstreet", "hill", "ewell", "meade", "hancock", "law", "rowley", "repl1"]
WORDS = {
    "--game": ["gb", "other", ""],
    "--side": ["union", "confederate", "Union", "yankee", ""],
    "--from": LEADERS,
    "--to": [*LEADERS, "II", "L/H/1", "H/1"],
    "--kind": ["move", "attack", "retreat", "charge"],
    "--status": ["A", "D2", "D6", "Dt", "D9", "wounded", "killed", "arrested", "x"],
    "--arrive": ["July 2 14:40", "July 9 10:00", "soon"],
    "--date": ["July 1", "July 2", "July 3", "July 4", "2"],
    "--time": ["05:00", "13:40", "14:00", "14:20", "2 pm", "25:00", "-1"],
    "--policy": ["random", "prompt", "coin"],
    "--division": ["H/1", "M/1", "1/I", "X/9"],
    "--morale": ["no effect", "routed", "??"],
    "--stragglers": ["0", "3", "-2", "many"],
    "--seed": ["1", "-5", "x"],
    "--dice": ["seeded", "physical", "committed", "loaded"],
    "--text": ["hold the ridge", ""],
}
FLAGS = ["--json", "--skip-events", "--undo", "--help"]
COMMANDS = [
    ["new"],
    ["phase"],
    ["next"],
    ["clock"],
    ["status"],
    ["order", "issue"],
    ["order", "arrive"],
    ["order", "accept"],
    ["order", "roll"],
    ["order", "cancel"],
    ["wreck"],
    ["place"],
    ["unplace"],
    ["enter"],
    ["exit"],
    ["leader-loss"],
    ["army-left"],
    ["moved"],
    ["checks"],
    ["nosuch"],
]
POSITIONAL = [
    "o1",
    "o2",
    "o99",
    "A",
    "D2",
    "Dt",
    "e1",
    "H/1",
    "L/H/1",
    "A43.01",
    "Z99.99",
    *LEADERS,
]
JUNK = st.text(
    alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"), max_size=8
)


@st.composite
def argv(draw: st.DrawFn) -> list[str]:
    """One `cwb` command line: a command, words from the vocabulary, options and junk."""
    out = ["cwb", *draw(st.sampled_from(COMMANDS))]
    for _ in range(draw(st.integers(0, 5))):
        kind = draw(st.integers(0, 3))
        if kind == 0:
            opt = draw(st.sampled_from(sorted(WORDS)))
            out += [opt, draw(st.one_of(st.sampled_from(WORDS[opt]), JUNK))]
        elif kind == 1:
            out.append(draw(st.sampled_from(FLAGS)))
        elif kind == 2:
            out.append(draw(st.sampled_from(POSITIONAL)))
        else:
            out.append(draw(JUNK))
    return out


TYPED = st.lists(
    st.one_of(st.sampled_from(["1", "2", "yes", "no", "3 4", "6 6", "", "0", "q", "quit"]), JUNK),
    max_size=6,
)


def invoke(args: list[str], typed: list[str]) -> tuple[int, str]:
    """Run `umpire` in the CliRunner's isolation (stdin = the typed lines); (code, stderr)."""
    stdin = "".join(t.replace("\n", " ") + "\n" for t in typed)
    with runner.isolation(input=stdin) as streams:
        code = main(args)
        sys.stdout.flush()
        sys.stderr.flush()
        err = streams[1].getvalue()
    return code, err.decode("utf-8", "replace")


@pytest.fixture(scope="module")
def save(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A save file with a game at July 2 14:00 (shared by the examples: a random walk)."""
    path = tmp_path_factory.mktemp("cwbfuzz") / "games.db"
    mp = pytest.MonkeyPatch()
    mp.setenv("UMPIRE_DB", str(path))
    code, err = invoke(
        ["cwb", "new", "--game", "gb", "--seed", "1", "--date", "July 2", "--time", "14:00"], []
    )
    assert code == 0, err
    yield path
    mp.undo()


@settings(
    max_examples=20,  # about 30 commands: a few seconds
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(commands=st.lists(argv(), min_size=1, max_size=2), typed=TYPED)
def test_cwb_random_argv_never_a_traceback(
    save: Path, commands: list[list[str]], typed: list[str]
) -> None:
    """Random `cwb` command lines and prompt input: exit 0, 1 or 2, and a refusal in one line
    (an exception escaping `main` would be a traceback and fails the test)."""
    for args in commands:
        code, err = invoke(args, typed)
        assert code in (0, 1, 2), (args, code, err)
        assert "Traceback" not in err
        if code != 0:
            errors = [ln for ln in err.splitlines() if ln.startswith("umpire:")]
            assert len(errors) == 1, (args, err)
