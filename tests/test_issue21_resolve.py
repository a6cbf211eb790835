"""Issue 21, "`resolve` and every prompt": every resolve option checked against the module
it names, typed dice read one way, rulings in words, losses counted as the battle counts
them, and prompts that ask again. Each test names the seed sentence it holds.

The property tests feed random argument vectors (each resolve command's own options and
values, plus junk) and random prompt lines, and see a result or a one-line refusal, never a
traceback; they are bounded to run in seconds.
"""

from __future__ import annotations

import builtins
import contextlib
import io
import itertools
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from umpire.cli.main import main
from umpire.dice.sources import PhysicalSource, read_faces
from umpire.errors import DiceSourceError

TINY = """name = "Tiny"
[table]
width = 36
height = 24
turns = 2

[[units]]
id = "c1"
name = "1st VA"
side = "confederate"
type = "foot"
stands = 4
x = 4
y = 12
facing = 0

[[units]]
id = "u1"
name = "2nd WI"
side = "union"
type = "foot"
stands = 4
x = 30
y = 12
facing = 180
"""


def call(*args: str, lines: list[str] | None = None) -> tuple[int, str, str]:
    """Run ``umpire ARGS`` with standard input scripted by ``lines`` (then end of input)."""
    out, err = io.StringIO(), io.StringIO()
    it: Iterator[str] = iter(lines or [])

    def fake_input(prompt: str = "") -> str:
        out.write(prompt)
        try:
            return next(it)
        except StopIteration:
            raise EOFError from None

    real = builtins.input
    builtins.input = fake_input
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(list(args))
    finally:
        builtins.input = real
    return code, out.getvalue(), err.getvalue()


def refused(code: int, out: str, err: str, *needles: str) -> None:
    """Exit 2, one line on stderr naming what was wrong, nothing on stdout, no traceback."""
    assert code == 2, (out, err)
    assert err.startswith("umpire: error: ") and err.count("\n") == 1, err
    assert out == "" and "Traceback" not in err
    for needle in needles:
        assert needle in err, err


def ok(*args: str) -> list[str]:
    code, out, err = call("resolve", *args)
    assert code == 0, err
    return out.splitlines()


def field(lines: list[str], name: str) -> str:
    return next(ln.split(": ", 1)[1] for ln in lines if ln.startswith(f"{name}: "))


# -- seed 002: every option against the module's vocabulary -----------------------------------


def test_seed002_fire_union_firing_side_any_case() -> None:
    """Seed 002 FIRE modifiers "+1 Union firing": `--side Union` (any case) is the Union
    and adds it; before, 'Union' silently dropped the modifier."""
    for side in ("union", "Union", "UNION"):
        lines = ok("fire", "--range", "4", "--side", side, "--roll", "3 4")
        assert "  +1 Union firing [002 FIRE modifiers]" in lines
        assert field(lines, "total modifier") == "3"


@pytest.mark.parametrize(
    ("args", "needles"),
    [
        (["fire", "--range", "4", "--formation", "lien"], ["--formation", "'lien'", "line"]),
        (["fire", "--range", "4", "--side", "yankee"], ["--side", "'yankee'", "union"]),
        (["fire", "--range", "-3"], ["--range", "-3"]),
        (["fire", "--range", "nan"], ["--range", "nan"]),
        (["fire", "--range", "4", "--target", "cavalery"], ["--target", "'cavalery'", "cavalry"]),
        (["fire", "--range", "4", "--firer", "cavalry"], ["--firer", "dismounted_cavalry"]),
        (["fire", "--range", "4", "--target-mounted"], ["--target-mounted", "cavalry"]),
        (["charge", "--side", "yankee"], ["--side", "'yankee'", "confederate, union"]),
        (["charge", "--side", "Union", "--target-side", "union"], ["--target-side", "own"]),
        (["charge", "--leader", "7"], ["--leader", "0 (none) to +3", "not 7"]),
        (["charge", "--target-leader", "-1"], ["--target-leader", "not -1"]),
        (["melee", "--a", "confederate,foot,line,-3"], ["--a", "1 to 30", "'-3'"]),
        (["melee", "--b", "union,foot,lien,4"], ["--b", "'lien'"]),
        (["melee", "--b", "yankee,foot,line,4"], ["--b", "'yankee'"]),
        (["melee", "--a-leader", "7"], ["--a-leader", "not 7"]),
        (["melee", "--b", "confederate,foot,line,4"], ["--b", "enemy"]),
        (["fire", "--range", "4", "--roll", "3 7"], ["--roll", "7 is outside 1..6"]),
    ],
)
def test_seed002_resolve_refuses_what_the_module_does_not_know(
    args: list[str], needles: list[str]
) -> None:
    """Seed 002 MORALE "USA/CSA 8+/7+", LEADERS "Union +1 ... Confederate +2 ... +3 & 7\" to
    Longstreet", FIRE table (foot, dismounted cavalry, artillery; 2"-30"), MELEE "the number
    of stands fighting": anything else is refused in one line naming the value and what is
    allowed (before: dropped silently, accepted, or a KeyError traceback)."""
    refused(*call("resolve", *args), *needles)


def test_seed002_charge_side_any_case_no_traceback() -> None:
    """Seed 002 MORALE "USA/CSA 8+/7+": `resolve charge --side Union` charges the
    Confederates (the other side by default) at 8+; before, a KeyError traceback."""
    lines = ok("charge", "--side", "Union", "--roll", "4 4", "--target-roll", "1,1")
    assert field(lines, "charge needs") == "8+ on 2d6"
    assert field(lines, "stand needs") == "7+ on 2d6"
    assert field(lines, "charge passes") == "yes" and field(lines, "target stands") == "no"


def test_seed002_odds_with_a_typed_roll_shows_both_and_needs_comes_first() -> None:
    """Seed 002 FIRE: foot at 4" needs 8+ (+2 in line): `--odds --roll 3,4` shows the odds
    and the result of that roll (before, the roll was dropped); "needs" comes before the
    dice."""
    lines = ok("fire", "--range", "4", "--odds", "--roll", "3,4")
    assert field(lines, "needs") == "8+ on 2d6 +2, so 6+ on the dice"
    assert field(lines, "roll") == "3 4" and field(lines, "stands lost") == "1"
    assert "  P(miss) = 5/18 = 27.78%" in lines
    names = [ln.split(":")[0] for ln in lines]
    assert names.index("needs") < names.index("odds") < names.index("roll")
    assert "roll" not in names[: names.index("needs")]
    only = ok("fire", "--range", "4", "--odds")
    assert "roll" not in [ln.split(":")[0] for ln in only]
    charge = ok("charge", "--odds", "--roll", "6 6", "--target-roll", "1 1")
    assert field(charge, "charge roll") == "6 6" and field(charge, "stand roll") == "1 1"
    melee = ok("melee", "--odds", "--roll", "3 4", "--b-roll", "5,6")
    assert field(melee, "a roll") == "3 4" and field(melee, "b roll") == "5 6"


def test_seed002_melee_result_in_words_not_a_dict() -> None:
    """Seed 002 MELEE "3-5 | 1 / 2#", "# --unit moves 2D6\" ... then takes a MM": the result
    is said in words (before: `result: {'b': '1', 'a': '2#'}`)."""
    code, out, err = call("resolve", "melee", "--roll", "3,4", "--b-roll", "5 6")
    assert code == 0, err
    assert "{" not in out and "[" not in out.replace("[002", "")
    assert "  defender (b, union foot) wins: loses 1 stand" in out
    assert (
        '  attacker (a, confederate foot) loses: loses 2 stands, retreats 2D6" directly away '
        "from the enemy, then takes a MM" in out
    )


def test_typed_faces_spaces_or_commas_alike() -> None:
    """Dice typed the same way everywhere: "3 5", "3,5" and "3, 5" are one roll in
    `--roll` as at the dice prompt."""
    rolls = {
        tuple(ok("fire", "--range", "4", "--roll", text)[-5:]) for text in ("3 5", "3,5", "3, 5")
    }
    assert len(rolls) == 1
    assert read_faces("3 5", 2, 6) == read_faces("3,5", 2, 6) == [3, 5]
    assert PhysicalSource.parse_faces("3, 5", 2, 6) == [3, 5]


# -- seed 003 --------------------------------------------------------------------------------


def test_seed003_reaction_d10_typed_0_or_10_and_odds() -> None:
    """Seed 003 XIII.B.1 "Reactions are based upon the roll of 1 D10" (reading d10_zero: a
    0 reads as 10 in the list): the die's 0 may be typed 0 or 10; `--odds` works as in the
    other commands and, with a roll, shows both."""
    zero, ten = ok("reaction", "--roll", "0"), ok("reaction", "--roll", "10")
    assert zero == ten
    assert field(ten, "roll") == "0 (reads as 10)"
    odds = ok("reaction", "--odds")
    assert "roll" not in [ln.split(":")[0] for ln in odds]
    assert sum(Fraction(ln.split(" = ")[1]) for ln in odds if ln.startswith("  P(")) == 1
    both = ok("reaction", "--odds", "--roll", "3")
    assert field(both, "roll") == "3" and any(ln.startswith("  P(") for ln in both)
    refused(*call("resolve", "reaction", "--roll", "11"), "--roll", "11 is outside 0..9")


def test_seed003_reaction_odds_are_exact() -> None:
    """Seed 003 XIII.B.1: the printed odds are the d10 list counted face by face."""
    from umpire.rules.action_reaction import melee as M

    want: dict[str, Fraction] = {}
    for face in range(10):
        kind = M.reaction(face)[0]
        want[kind] = want.get(kind, Fraction(0)) + Fraction(1, 10)
    got = {
        ln.split("(")[1].split(")")[0]: Fraction(ln.split(" = ")[1])
        for ln in ok("reaction", "--odds")
        if ln.startswith("  P(")
    }
    assert got == want


def test_physical_prompt_takes_a_d10_zero_as_ten() -> None:
    """A d10 printed 0-9: at the dice prompt its 0 is typed 0 or 10 alike (the face 10 the
    battle reads as 0, reading d10_zero)."""
    assert PhysicalSource.parse_faces("0 10 3", 3, 10) == [10, 10, 3]
    with pytest.raises(DiceSourceError, match=r"0 is outside 1\.\.6"):
        PhysicalSource.parse_faces("0 3", 2, 6)


class Counting:
    """Each die counts up through its faces (no contest ties for ever)."""

    kind = "scripted"
    position = 0

    def dice(self, n: int, sides: int, purpose: str = "") -> list[int]:
        out = [(self.position + i) % sides + 1 for i in range(n)]
        self.position += n
        return out


@pytest.mark.parametrize(("hits", "carried", "formation"), [(5, 2, "column"), (2, 0, "line")])
def test_seed003_resolve_counts_losses_as_the_battle(
    hits: int, carried: int, formation: str
) -> None:
    """Seed 003 XVII.A "Units in Column Lose Double Casualties" with default hits_per_piece
    (3 hits a piece): `resolve infantry-fire` says the pieces the battle's take_hits takes
    (before: one piece a hit)."""
    from umpire.battle.run import new_battle
    from umpire.battle.scenario import parse_scenario
    from umpire.rules.action_reaction import marks as MK

    head = (
        'name = "t"\n[rules]\nsequence = "action-reaction"\ncombat = "action-reaction"\n'
        "[table]\nwidth = 48\nheight = 36\nturns = 3\n"
    )
    units = (
        f'[[units]]\nid = "u"\nname = "u"\nside = "union"\ntype = "foot"\nstands = 8\n'
        f'formation = "{formation}"\nx = 20\ny = 10\nfacing = 0\n\n'
        '[[units]]\nid = "c"\nname = "c"\nside = "confederate"\ntype = "foot"\nstands = 4\n'
        "x = 20\ny = 30\nfacing = 180\n"
    )
    b = new_battle(parse_scenario(head + units, "t.toml"), Counting(), narrate=True)  # type: ignore[arg-type]
    u = b.state.units[0]
    MK.book(b, u)["hits"] = carried
    lost = MK.take_hits(b, u, hits, "test")
    faces = " ".join(["0"] * hits + ["9"] * (4 - hits)) if hits <= 4 else "0 0 0 0 0"
    pieces = str(max(hits, 4))
    lines = ok(
        "infantry-fire", "--rules", "action-reaction", "--pieces", pieces, "--distance",
        "10", "--formation", formation, "--faces", faces, "--carried", str(carried),
    )  # fmt: skip
    assert field(lines, "hits on target") == str(hits)
    assert field(lines, "target losses").startswith(
        f"the target loses {lost} piece{'s' if lost != 1 else ''} ({hits} hits"
    )


def test_seed003_hand_to_hand_says_whose_hits() -> None:
    """Seed 003 XIV.A.3 "The higher number ... scores a hit": the hits are named by who
    scores them on whom, and each side's pieces lost; no Python dict is printed."""
    code, out, err = call(
        "resolve", "hand-to-hand", "--rules", "action-reaction",
        "--attacker", "6 5 4", "--defender", "3,3,1",
    )  # fmt: skip
    assert code == 0, err
    lines = out.splitlines()
    assert field(lines, "hits by attacker on defender") == "3"
    assert field(lines, "hits by defender on attacker") == "0"
    assert field(lines, "defender losses").startswith("the defender loses 1 piece (3 hits")
    assert field(lines, "dice") == "attacker 3; defender 3"
    assert "{" not in out


@pytest.mark.parametrize(
    ("args", "needles"),
    [
        (["infantry-fire", "--pieces", "-5", "--distance", "10"], ["--pieces", "not -5"]),
        (["infantry-fire", "--pieces", "5", "--distance", "inf"], ["--distance", "inf"]),
        (["infantry-fire", "--pieces", "5", "--distance", "4", "--formation", "lien"], ["lien"]),
        (["canister", "--range", "-1"], ["--range", "-1"]),
        (["canister", "--range", "4", "--deductions", "-2"], ["--deductions", "not -2"]),
        (["rally", "--officers", "9"], ["--officers", "0 to 3"]),
        (["officer-loss", "--officers", "1000000"], ["--officers", "0 to 3"]),
        (["fog", "--level", "2", "--turns", "100000"], ["--turns", "0 to 100"]),
        (["charge-distance", "--troops", "infantry", "--stands", "1000000"], ["--stands"]),
        (["charge-distance", "--troops", "infantry", "--move", "nan"], ["--move"]),
        (["terrain", "woodlot", "--left", "nan"], ["--left"]),
        (["burst", "--carried", "3"], ["--carried", "0 to 2"]),
        (["first-fire", "--consecutive", "--called", "inf", "--range", "3"], ["--called"]),
    ],
)
def test_seed003_resolve_refuses_out_of_range(args: list[str], needles: list[str]) -> None:
    """Seed 003 "three officers per regiment" (rules-notes), the rifle stick, XII.D fog, a
    scenario unit's pieces: counts and distances outside them are refused in one line."""
    refused(*call("resolve", *args, "--rules", "action-reaction"), *needles)


# -- property tests: random argument vectors to every resolve subcommand --------------------


def _resolve_commands() -> dict[str, list[tuple[str, bool]]]:
    """Every resolve subcommand with its options (name, is a flag)."""
    import typer.main

    from umpire.cli.main import app

    group = typer.main.get_command(app)
    resolve = group.commands["resolve"]  # type: ignore[attr-defined]
    out: dict[str, list[tuple[str, bool]]] = {}
    for name, cmd in resolve.commands.items():
        opts = []
        for p in cmd.params:
            for o in p.opts:
                if o.startswith("--") and o != "--help":
                    opts.append((o, bool(getattr(p, "is_flag", False))))
        out[name] = opts
    return out


COMMANDS = _resolve_commands()
VALUES = [
    *("confederate", "union", "Union", "UNION", "yankee", "line", "column", "lien"),
    *("skirmish", "foot", "cavalry", "cavalery", "artillery", "dismounted_cavalry"),
    *("infantry", "shell", "case", "rifle", "musket", "stone_wall", "woodlot", "uphill"),
    *("0", "1", "2", "3", "4", "7", "9", "10", "11", "12", "30", "31", "-3", "-1", "2.5"),
    *("1e400", "nan", "inf", "-inf", "3,5", "3 5", "6 6", "1 2 3 4 5", "0 5 6 9", "4 2 7"),
    *("1 2 3 4 5 6 7 8 9", "9 9 3 2 0 1 1", "7 3, 2 5", "4 17, 3, 6 2", "6 5 4 3 2 1"),
    *("confederate,foot,line,4", "union,cavalry,column,3", "union,foot,line,-3", "a,b,c"),
    *("quick-acw", "action-reaction", "warhammer", "", " ", "²", "x" * 60, "3;5", "--"),
]


@st.composite
def argv(draw: st.DrawFn) -> list[str]:
    """``resolve CMD`` and a random mix of its own options, values and junk."""
    name = draw(st.sampled_from(sorted(COMMANDS)))
    opts = COMMANDS[name]
    out = ["resolve", name]
    if name == "terrain":
        out.append(draw(st.sampled_from(["woodlot", "stone_wall", "uphill", "moat", "7"])))
    for _ in range(draw(st.integers(0, 6))):
        kind = draw(st.integers(0, 9))
        if kind == 0:
            out.append(draw(st.sampled_from(VALUES)))
        elif kind == 1:
            out.append(draw(st.text(max_size=8)))
        else:
            opt, flag = draw(st.sampled_from(opts))
            out.append(opt)
            if not flag:
                out.append(draw(st.sampled_from(VALUES)))
    if draw(st.booleans()):
        out += ["--seed", "7"]
    return out


@settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(argv())
def test_random_resolve_arguments_never_traceback(args: list[str]) -> None:
    """Any argument vector to any resolve subcommand: a ruling (exit 0, lines printed) or a
    refusal in one line (exit 2); never a traceback."""
    code, out, err = call(*args)
    assert code in (0, 2), (args, code, err)
    if code == 2:
        assert err.startswith("umpire: error: ") and err.count("\n") == 1, (args, err)
    else:
        assert out and not err, (args, err)
        assert "{'" not in out, (args, out)


# -- property tests: random lines at the prompts -------------------------------------------------

LINES = [
    *("1", "2", "3", "4", "5", "0", "99", "-1", "q", "quit", "Q", "QUIT", "status", "help"),
    *("undo", "hold", "rout", "turn", "fire c1", "fire u1", "charge c1", "move 20 12"),
    *("move nan nan", "move 1e400 3", "move 5", "leader 3 3", "3 5", "3,5", "6 6", "1 1"),
    *("", " ", "²", "٣", "x" * 200, "4 4 4", "move 20 12 90 column", "fire", "zz"),
]
_games = itertools.count()


@pytest.fixture(scope="module")
def tiny_path(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    d = tmp_path_factory.mktemp("prompts")
    p = d / "tiny.toml"
    p.write_text(TINY, encoding="utf-8")
    return p, d / "prompts.db"


def _prompt_run(paths: tuple[Path, Path], lines: list[str], *extra: str) -> None:
    scen, db = paths
    game = f"g{next(_games)}"
    code, out, err = call("--db", str(db), "battle", str(scen), "--game", game, *extra, lines=lines)
    assert "Traceback" not in out + err
    assert code in (0, 2), (lines, code, err)
    errs = [ln for ln in err.splitlines() if not ln.endswith("; try again (q quits)")]
    if code == 2:
        assert len(errs) == 1 and errs[0].startswith("umpire: error: "), (lines, err)
        assert "standard input closed" in errs[0], (lines, err)
    else:
        assert not errs or errs == ["umpire: quit; every action before this one is saved"]
    quit_at = next((i for i, ln in enumerate(lines) if ln.strip().lower() in ("q", "quit")), None)
    if code == 0 and "Result:" not in out:
        assert quit_at is not None, (lines, out)
        assert f"play on with: umpire battle --resume {game}" in out


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(st.lists(st.one_of(st.sampled_from(LINES), st.text(max_size=12)), max_size=14))
def test_random_lines_at_the_battle_prompt(tiny_path: tuple[Path, Path], lines: list[str]) -> None:
    """`battle --human union`: every wrong entry is said and asked again; q or quit stops
    with the game saved; the end of input ends it in one line; never a traceback."""
    _prompt_run(tiny_path, lines, "--seed", "3", "--human", "union")


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(st.lists(st.one_of(st.sampled_from(LINES), st.text(max_size=12)), max_size=14))
def test_random_lines_at_the_physical_dice_prompt(
    tiny_path: tuple[Path, Path], lines: list[str]
) -> None:
    """`battle --dice physical`: faces refused are said in one line and asked again, as
    many times as needed; q or quit stops; the end of input ends it in one line."""
    _prompt_run(tiny_path, lines, "--dice", "physical")


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=30), st.integers(1, 6), st.sampled_from([6, 10, 20]), st.booleans())
def test_random_faces_read_or_refused_in_one_line(
    text: str, n: int, sides: int, zero_low: bool
) -> None:
    """Any typed text: the faces, each on the die, or a one-line DiceSourceError."""
    try:
        faces = read_faces(text, n, sides, "x", zero_low=zero_low and sides == 10)
    except DiceSourceError as exc:
        assert "\n" not in str(exc)
        return
    assert len(faces) == n
    low = 0 if zero_low and sides == 10 else 1
    assert all(low <= f <= low + sides - 1 for f in faces)


def test_q_at_the_dice_prompt_saves_and_says_how_to_play_on(
    tiny_path: tuple[Path, Path],
) -> None:
    """`q` at a real-dice prompt stops, keeps the game as it stood, and says how to play on;
    a wrong entry first is asked again (not the end of the command)."""
    scen, db = tiny_path
    code, out, err = call(
        "--db", str(db), "battle", str(scen), "--dice", "physical", "--game", "qdice",
        lines=["7 7", "quit"],
    )  # fmt: skip
    assert code == 0, err
    assert "needs 8+" in out  # the number needed is said before the dice are asked for
    assert err.count("try again") == 1
    assert out.rstrip().endswith("actions; play on with: umpire battle --resume qdice")
    assert "Saved 'qdice' after " in out


@pytest.mark.parametrize(
    "args",
    [
        ["--human", "Union"],
        ["--human", "UNION"],
        ["--player", "Union=Human"],
        ["--player", "union=human", "--ai", "Confederate"],
    ],
)
def test_seed002_battle_side_names_any_case(tiny_path: tuple[Path, Path], args: list[str]) -> None:
    """Seed 002 TURN ORDER ("Union" and "Confederate" as the seed writes them): `battle
    --human Union` is the union side, as in resolve; before, 'unknown side' for any capital."""
    scen, _ = tiny_path
    code, out, err = call("battle", str(scen), "--no-save", "--seed", "3", *args, lines=["q"])
    assert code == 0, err
    assert "union " in out and "Quit: the battle stops here, unsaved (--no-save)" in out, out


def test_seed002_simulate_player_side_names_any_case() -> None:
    """Seed 002 TURN ORDER: `simulate --player Union=Hard` reads the side and the policy as
    `battle` does, without regard to case."""
    from umpire.cli.lab_cmd import parse_players

    assert parse_players(["Union=Hard", "CONFEDERATE=easy"]) == [
        ("confederate", "easy"),
        ("union", "hard"),
    ]


def test_seed002_leader_casualty_says_what_hits_before_the_die_is_asked() -> None:
    """Seed 002 LEADERS: "If any leader is attached to a unit that loses a stand, roll one
    die: 5-6 that leader is killed or captured": the roll is asked for with what hits (at a
    real-dice prompt the player reads it before throwing), not only the leader's name."""
    from umpire.battle.run import new_battle
    from umpire.battle.scenario import parse_scenario
    from umpire.dice import ScriptedSource
    from umpire.rules.quick_acw import losses

    text = TINY.replace("stands = 4\nx = 30", 'stands = 4\nleader = "l"\nx = 30') + (
        '\n[[leaders]]\nid = "l"\nname = "Meredith"\nside = "union"\nx = 30\ny = 12\n'
        'attached = "u1"\n'
    )
    b = new_battle(parse_scenario(text, "t.toml"), ScriptedSource([2]), narrate=True)
    asked: list[str] = []
    real = b.roller.dice

    def dice(n: int, sides: int, purpose: str) -> list[int]:
        asked.append(purpose)
        return real(n, sides, purpose)

    b.roller.dice = dice  # type: ignore[method-assign]
    losses.lose_stands(b, b.state.units[1], 1, "fire")
    assert asked == ["is Meredith hit with 2nd WI? (leader casualty, 1d6: 5+ hits him)"]
    assert b.state.leaders[0].alive


# -- property test: random argument vectors to `battle` (with --human and prompt input) -------

BATTLE_WORDS = {
    "--seed": ["3", "0", "-1", "x", "99999999999999999999", ""],
    "--human": ["union", "Union", "CONFEDERATE", "yankee", "union,confederate", ",", ""],
    "--ai": ["union", "confederate", "Union", "rebels", ""],
    "--random": ["confederate", "union", "x"],
    "--player": ["union=human", "Union=Hard", "union", "union=god", "=", "confederate=random"],
    "--dice": ["seeded", "physical", "Physical", "loaded"],
    "--vary": ["x", "fire=7", "=", "quick_acw.x=1"],
    "--rules-data": ["/nonexistent", ".", "quick_acw=/nonexistent"],
    "--log": ["/nonexistent/dir/x.log"],
    "--game": ["a/b", " ", "\x1b[2J", "ok"],
    "--resume": ["nosuch", "ok"],
}
BATTLE_FLAGS = ["--json", "--no-save", "--explain", "--help"]


@st.composite
def battle_argv(draw: st.DrawFn, scen: str) -> list[str]:
    """``battle SCENARIO`` (or a wrong one, or none) with a random mix of its options, their
    values (good and bad) and junk."""
    out = ["battle"]
    out += draw(st.sampled_from([[scen]] * 4 + [["nosuch"], [], ["/etc/hostname"]]))
    for _ in range(draw(st.integers(0, 4))):
        kind = draw(st.integers(0, 5))
        if kind <= 3:
            opt = draw(st.sampled_from(sorted(BATTLE_WORDS)))
            out += [opt, draw(st.sampled_from(BATTLE_WORDS[opt]))]
        elif kind == 4:
            out.append(draw(st.sampled_from(BATTLE_FLAGS)))
        else:
            out.append(draw(st.text(max_size=6)))
    return out


def test_random_battle_arguments_and_prompt_input_never_traceback(
    tiny_path: tuple[Path, Path],
) -> None:
    """Issue 21, done when: random argument vectors to `battle` (--human and every other
    option, good and bad values, junk) with random prompt input: a battle played, stopped
    by quit or the end of input, or refused in one line; never a traceback. A guard checks
    that the run played battles and read the prompt, so the test cannot go blind."""
    scen, db = tiny_path
    seen: dict[str, int] = {"played": 0, "prompted": 0, "refused": 0}

    @settings(
        max_examples=40,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
    )
    @given(
        args=battle_argv(str(scen)),
        lines=st.lists(st.one_of(st.sampled_from(LINES), st.text(max_size=12)), max_size=8),
    )
    @example(args=["battle", str(scen), "--no-save", "--seed", "3"], lines=[])
    @example(args=["battle", str(scen), "--no-save", "--human", "Union"], lines=["zz", "1", "q"])
    def run(args: list[str], lines: list[str]) -> None:
        code, out, err = call("--db", str(db), *args, lines=lines)
        assert "Traceback" not in out + err, (args, err)
        assert code in (0, 2), (args, code, err)
        errs = [
            ln
            for ln in err.splitlines()
            if ln.startswith("umpire:") and not ln.endswith("; try again (q quits)")
        ]
        if code == 2:
            assert len(errs) == 1 and errs[0].startswith("umpire: error: "), (args, err)
            seen["refused"] += 1
        else:
            seen["played"] += 1
        seen["prompted"] += "]> " in out or "type the faces" in out

    run()
    assert seen["played"] >= 2 and seen["prompted"] >= 1 and seen["refused"] >= 3, seen
