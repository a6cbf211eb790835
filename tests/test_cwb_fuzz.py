"""Issue 21, seed 000 command phase: random argument vectors and random prompt input fed to
`umpire cwb` through typer's CliRunner on a temporary save file: never a traceback, exit code
0, 1 or 2, and a refusal is one line.

The command lines are mostly well formed (each command with arguments from the game's own
vocabulary: leaders, divisions, orders, effects, results, dates), one token in four of them
mangled or replaced by junk, so that most reach the rules rather than stopping at the
option parser. Two games share the save file: one on seeded dice, one on physical dice, so
`phase` and `order roll` on the second ask for faces at the prompt; the typed lines mix
faces, menu answers, junk, Enter and quit. A guard checks that the run reached the rules
(commands played and refused by them, prompts answered), so the test cannot go blind.
"""

from __future__ import annotations

import builtins
import collections
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from umpire.cli.main import main

runner = CliRunner()

GAMES = ["gs", "gp"]  # seeded dice, physical dice
LEADERS = ["lee", "longstreet", "hill", "ewell", "meade", "hancock", "sickles", "law", "repl1"]
COMMANDS_TO = [*LEADERS, "II", "L/H/1", "H/1", "1/I"]
DIVISIONS = ["H/1", "M/1", "1/I", "1/III", "X/9"]
UNITS = ["L/H/1", "H/1", "1/I", "Bachman/Arty/H/1", "lee", "longstreet", "Z/Z"]
HEXES = ["A43.01", "A10.10", "Z99.99", "43.01"]
ORDERS = ["o1", "o2", "o3", "o99"]
EFFECTS = ["e1", "e2", "e3", "e9"]
RESULTS = ["A", "D1", "D2", "D4", "D6", "Dt", "D9"]
DATES = ["July 1", "July 2", "July 3", "July 4", "2"]
TIMES = ["05:00", "13:40", "14:00", "14:20", "15:00", "2 pm", "25:00"]
SIDES = ["union", "confederate", "Union", "yankee"]
KINDS = ["move", "attack", "defend", "retreat", "charge"]
STATUS = ["wounded", "killed", "arrested", "x"]
MORALE = ["no effect", "routed", "??"]
JUNK = st.text(
    alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"), max_size=8
)


def pick(draw: st.DrawFn, words: list[str]) -> str:
    return draw(st.sampled_from(words))


@st.composite
def well_formed(draw: st.DrawFn) -> list[str]:
    """One `cwb` command with arguments taken from the game's vocabulary."""
    kind = draw(
        st.sampled_from(
            ["phase"] * 5 + ["next"] * 4 + ["order issue"] * 3 + ["order arrive"] * 2
            + ["order accept", "order roll", "order roll", "order cancel", "clock", "status"]
            + ["wreck", "place", "unplace", "enter", "exit", "leader-loss", "moved", "checks"]
            + ["army-left", "new", "nosuch"]
        )
    )  # fmt: skip
    out = ["cwb", *kind.split()]
    if kind == "phase":
        out += draw(
            st.sampled_from([[], [], ["--policy", "random"], ["--side", pick(draw, SIDES)]])
        )
    elif kind == "next":
        out += draw(st.sampled_from([[], ["--skip-events"]]))
    elif kind == "order issue":
        out += ["--from", pick(draw, LEADERS), "--to", pick(draw, COMMANDS_TO)]
        out += ["--kind", pick(draw, KINDS)]
        out += draw(st.sampled_from([[], [], ["--status", pick(draw, RESULTS)], ["--text", "go"]]))
    elif kind == "order arrive":
        out += [pick(draw, ORDERS), pick(draw, RESULTS)]
    elif kind in ("order accept", "order roll"):
        out.append(pick(draw, ORDERS))
        out += draw(st.sampled_from([[], ["--division", pick(draw, DIVISIONS)]]))
    elif kind == "order cancel":
        out.append(pick(draw, ORDERS))
    elif kind == "clock":
        out += ["--date", pick(draw, DATES), "--time", pick(draw, TIMES)]
        out += ["--side", pick(draw, SIDES)]
    elif kind == "wreck":
        out += [pick(draw, DIVISIONS), *draw(st.sampled_from([[], ["--undo"]]))]
    elif kind == "place":
        out += [pick(draw, UNITS), pick(draw, HEXES)]
    elif kind in ("unplace", "enter", "exit"):
        out.append(pick(draw, UNITS))
    elif kind == "leader-loss":
        out += [pick(draw, LEADERS), "--status", pick(draw, STATUS)]
    elif kind == "moved":
        out += [pick(draw, EFFECTS), *draw(st.lists(st.sampled_from(UNITS), max_size=3))]
    elif kind == "checks":
        out += [pick(draw, EFFECTS), "--stragglers", draw(st.sampled_from(["0", "3", "-2", "x"]))]
        out += ["--morale", pick(draw, MORALE)]
    elif kind == "army-left":
        out += ["--side", pick(draw, SIDES)]
    if kind == "new":
        out += ["--game", pick(draw, [*GAMES, "g3"]), "--date", "July 2", "--time", "14:00"]
        out += ["--dice", pick(draw, ["seeded", "physical", "committed", "loaded"])]
    elif kind != "nosuch":
        out += ["--game", pick(draw, GAMES)]
    return out


@st.composite
def argv(draw: st.DrawFn) -> list[str]:
    """A well-formed command line, or (one in four) one with a token dropped, replaced by
    junk, or junk or a flag added."""
    out = draw(well_formed())
    if draw(st.integers(0, 3)) == 0:
        how = draw(st.sampled_from(["drop", "replace", "add", "flag"]))
        at = draw(st.integers(1, len(out) - 1))
        if how == "drop" and len(out) > 2:
            del out[at]
        elif how == "replace":
            out[at] = draw(JUNK)
        elif how == "add":
            out.insert(at, draw(JUNK))
        else:
            out.append(pick(draw, ["--json", "--help", "--skip-events", "--undo"]))
    return out


# Faces and menu answers (most), junk, Enter; quit rarely (it stops the command).
TYPED = st.lists(
    st.one_of(
        st.sampled_from(["3 4", "6,6", "1 2", "5, 5", "1", "2", "1 2", "yes", "no", "", "0"]),
        st.sampled_from(["7 7", "3", "q!", "6 6 6"]),
        JUNK,
        st.sampled_from(["q", "quit"]),
    ),
    max_size=8,
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
    """A save file with two games at July 2 14:00, seeded and physical dice (shared by the
    examples: a random walk through the command phase)."""
    from umpire.cli import common

    path = tmp_path_factory.mktemp("cwbfuzz") / "games.db"
    mp = pytest.MonkeyPatch()
    mp.setenv("UMPIRE_DB", str(path))
    common.set_db_path(None)
    for game, dice in zip(GAMES, ["seeded", "physical"], strict=True):
        start = ["--date", "July 2", "--time", "14:00"]
        code, err = invoke(
            ["cwb", "new", "--game", game, "--seed", "1", "--dice", dice, *start], []
        )
        assert code == 0, err
    yield path
    mp.undo()
    common.set_db_path(None)


Seen = collections.Counter[Any]


def _one_example(seen: Seen, commands: list[list[str]], typed: list[str]) -> None:
    """Random `cwb` command lines and prompt input: exit 0, 1 or 2, and a refusal in one line
    (an exception escaping `main` would be a traceback and fails the test)."""
    for args in commands:
        code, err = invoke(args, typed)
        assert code in (0, 1, 2), (args, code, err)
        assert "Traceback" not in err
        if code != 0:
            errors = [ln for ln in err.splitlines() if ln.startswith("umpire:")]
            assert len(errors) == 1, (args, err)
            if "--help')" not in err:  # the option parser's refusals point at --help
                seen["refused past the parser"] += 1
        else:
            seen["played"] += 1
            seen[" ".join(args[1:3]) if args[1] == "order" else args[1]] += 1


def test_cwb_random_argv_and_prompt_input_never_a_traceback(
    save: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 21, done when: random `cwb` argument vectors and prompt input, no traceback; and
    the run reached the rules: commands played, refused by the rules (not only by the option
    parser), and prompts read."""
    from umpire.cli import common

    # the autouse _private_db points UMPIRE_DB at an empty file for each test: use the save
    monkeypatch.setenv("UMPIRE_DB", str(save))
    common.set_db_path(None)
    seen: Seen = collections.Counter()
    real_input = builtins.input

    def counted(prompt: object = "") -> str:
        seen["prompts read"] += 1
        return real_input(prompt)

    monkeypatch.setattr(builtins, "input", counted)

    @settings(
        max_examples=30,  # about 60 commands: some seconds
        deadline=None,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    )
    @given(commands=st.lists(argv(), min_size=1, max_size=3), typed=TYPED)
    @example(  # the physical game's roll: wrong faces asked again, then the roll played
        commands=[["cwb", "phase", "--game", "gp"], ["cwb", "next", "--game", "gp"]],
        typed=["7 7", "", "3", "3 4"],
    )
    @example(
        commands=[["cwb", "status", "--game", "gs"], ["cwb", "phase", "--game", "gs"]], typed=[]
    )
    def run(commands: list[list[str]], typed: list[str]) -> None:
        _one_example(seen, commands, typed)

    run()
    assert seen["played"] >= 5, seen
    assert seen["refused past the parser"] >= 5, seen
    assert seen["prompts read"] >= 1, seen
