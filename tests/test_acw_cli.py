"""The battle commands at the command line: battle (and its saved game), resolve, render.

Everything goes through ``umpire.cli.main.main([...])``; conftest gives each test its own
save file, so "nothing saved" is checked with ``games list --json``.
"""

from __future__ import annotations

import builtins
import json
import re
import struct
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path

import pytest

from umpire.battle.scenario import load_scenario
from umpire.cli.main import main

# A small battle: one unit a side, 26" apart, three turns, no leaders.
TINY = """name = "Tiny"
[table]
width = 36
height = 24
turns = 3

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


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def saved(capsys: pytest.CaptureFixture[str]) -> dict[str, int]:
    code, out, _ = run(capsys, "games", "list", "--json")
    assert code == 0
    return {g["name"]: g["actions"] for g in json.loads(out)}


def one_line_error(code: int, out: str, err: str, *needles: str) -> None:
    assert code == 2, (out, err)
    assert err.startswith("umpire: error: ") and err.count("\n") == 1, err
    assert "Traceback" not in err + out
    for needle in needles:
        assert needle in err, err


@pytest.fixture
def tiny(tmp_path: Path) -> Path:
    path = tmp_path / "tiny.toml"
    path.write_text(TINY, encoding="utf-8")
    return path


# -- umpire battle -----------------------------------------------------------------------


def test_battle_json_saves_a_verifiable_game(capsys: pytest.CaptureFixture[str]) -> None:
    """--json holds winner, turns, losses per side and the seed; the saved game verifies."""
    code, out, err = run(capsys, "battle", "mcpherson_ridge", "--seed", "4", "--json")
    assert code == 0, err
    res = json.loads(out)
    assert res["winner"] in ("union", "confederate", "draw")
    assert 1 <= res["turns"] <= load_scenario("mcpherson_ridge").table.turns and res["seed"] == 4
    assert set(res["losses"]["stands"]) == {"union", "confederate"}
    assert set(res["losses"]["units_removed"]) == {"union", "confederate"}
    assert res["players"] == {"union": "ai", "confederate": "ai"}
    assert res["game"] == "battle-mcpherson_ridge-4"
    assert saved(capsys)["battle-mcpherson_ridge-4"] > 100
    code, out, err = run(capsys, "games", "verify", "battle-mcpherson_ridge-4", "--json")
    assert code == 0, err
    rep = json.loads(out)
    assert rep["rolls_checked"] is True and rep["dice"] == res["dice"]
    # The log shows the battle's narrative and its rolls.
    code, out, _ = run(capsys, "games", "show", "battle-mcpherson_ridge-4", "--events", "0")
    assert code == 0 and "fires at" in out and "2d6" in out
    # The same name again is refused in one line, before anything is played.
    code, out, err = run(capsys, "battle", "mcpherson_ridge", "--seed", "4")
    one_line_error(code, out, err, "already exists")


def test_same_seed_same_result(capsys: pytest.CaptureFixture[str], tiny: Path) -> None:
    """The same seed and the same choices give the same result (and state)."""
    a = json.loads(run(capsys, "battle", str(tiny), "--seed", "9", "--json", "--game", "a")[1])
    b = json.loads(run(capsys, "battle", str(tiny), "--seed", "9", "--json", "--game", "b")[1])
    c = json.loads(run(capsys, "battle", str(tiny), "--seed", "9", "--json", "--no-save")[1])
    assert a.pop("game") == "a" and b.pop("game") == "b" and c.pop("game") is None
    assert a == b == c
    assert saved(capsys).keys() == {"a", "b"}


def test_text_narrative_and_game_name(capsys: pytest.CaptureFixture[str], tiny: Path) -> None:
    """Without --json: the narrative turn by turn, the result, the saved game's name and
    (issue 24) the path of its after-action report."""
    code, out, err = run(capsys, "battle", str(tiny), "--seed", "2")
    assert code == 0, err
    assert "--- Turn 1 ---" in out and "Result: " in out
    *_, name, report = out.strip().splitlines()
    assert name == "Saved as game 'battle-tiny-2' (umpire games show battle-tiny-2)"
    assert report.startswith("After-action report: ") and "battle-tiny-2.html" in report


def test_undo_and_fork_a_battle(capsys: pytest.CaptureFixture[str], tiny: Path) -> None:
    """Undo and fork work on a saved battle, and what is left still verifies."""
    assert run(capsys, "battle", str(tiny), "--seed", "3", "--game", "g")[0] == 0
    total = saved(capsys)["g"]
    code, _, err = run(capsys, "games", "undo", "g", "--steps", "3")
    assert code == 0, err
    code, _, err = run(capsys, "games", "fork", "g", "h", "--at", "5")
    assert code == 0, err
    assert saved(capsys) == {"g": total - 3, "h": 5}
    for name in ("g", "h"):
        code, out, err = run(capsys, "games", "verify", name, "--json")
        assert code == 0 and json.loads(out)["rolls_checked"], err
    code, out, _ = run(capsys, "games", "show", "h", "--json")
    log = json.loads(out)["log"]
    assert [e["name"] for e in log] == ["start"] + ["order"] * 4
    assert all("actor" in e["params"] for e in log[1:])


def test_resume_after_undo_replays_the_same_battle(
    capsys: pytest.CaptureFixture[str], tiny: Path
) -> None:
    """Undo, then --resume with the AI: it plays to the end, saves every action, verifies.

    The dice continue the seeded stream where the log stops and the AI is deterministic,
    so the resumed battle ends exactly as the first one did.
    """
    code, out, err = run(capsys, "battle", str(tiny), "--seed", "3", "--game", "g", "--json")
    assert code == 0, err
    first = json.loads(out)
    total = saved(capsys)["g"]
    assert run(capsys, "games", "undo", "g", "--to", "4")[0] == 0
    code, out, err = run(capsys, "battle", "--resume", "g", "--ai", "union,confederate")
    assert code == 0, err
    assert out.startswith("Resuming 'g' after action 4") and re.search(r"─ Turn \d+ ─", out)
    assert "Result: " in out and "umpire games show g" in out
    assert saved(capsys)["g"] == total
    code, out, err = run(capsys, "games", "verify", "g", "--json")
    assert code == 0 and json.loads(out)["rolls_checked"], err
    code, out, _ = run(capsys, "games", "show", "g", "--json")
    from umpire.battle.run import state_hash

    assert state_hash(json.loads(out)["state"]["battle"]) == first["state_hash"]
    # Played out: a second resume is refused in one line.
    code, out, err = run(capsys, "battle", "--resume", "g")
    one_line_error(code, out, err, "battle 'g' is over")


def test_resume_a_fork_with_other_players(capsys: pytest.CaptureFixture[str], tiny: Path) -> None:
    """Fork at an action (or at 0) and play the fork on with other players, as JSON."""
    assert run(capsys, "battle", str(tiny), "--seed", "8", "--game", "g")[0] == 0
    assert run(capsys, "games", "fork", "g", "h", "--at", "6")[0] == 0
    code, out, err = run(capsys, "battle", "--resume", "h", "--random", "union", "--json")
    assert code == 0, err
    res = json.loads(out)
    assert res["game"] == "h" and res["resumed_after"] == 6 and res["seed"] == 8
    assert res["players"] == {"union": "random", "confederate": "ai"}
    assert res["winner"] in ("union", "confederate", "draw") and res["actions"] > 6
    assert saved(capsys)["h"] == res["actions"]
    assert run(capsys, "games", "fork", "g", "z", "--at", "0")[0] == 0
    code, out, err = run(capsys, "battle", "--resume", "z", "--json")
    assert code == 0, err
    assert json.loads(out)["resumed_after"] == 0
    for name in ("h", "z"):
        code, out, err = run(capsys, "games", "verify", name, "--json")
        assert code == 0 and json.loads(out)["rolls_checked"], err


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (("battle", "--resume", "nope"), "unknown game 'nope'"),
        (("battle", "--resume", "g", "--seed", "3"), "drop --seed"),
        (("battle", "mcpherson_ridge", "--resume", "g"), "drop SCENARIO"),
        (("battle", "--resume", "g", "--human", "rebels"), "unknown side 'rebels'"),
        (("battle",), "give a SCENARIO"),
    ],
)
def test_resume_bad_input_one_line(
    capsys: pytest.CaptureFixture[str], tiny: Path, args: tuple[str, ...], needle: str
) -> None:
    """An unknown game, options that do not apply, a bad side: exit 2, one line."""
    assert run(capsys, "battle", str(tiny), "--seed", "3", "--game", "g")[0] == 0
    before = saved(capsys)
    code, out, err = run(capsys, *args)
    one_line_error(code, out, err, needle)
    assert saved(capsys) == before


def test_default_seed_is_fresh_and_printed(capsys: pytest.CaptureFixture[str], tiny: Path) -> None:
    """Without --seed two runs draw different 48-bit seeds, print them and do not collide."""
    code, out1, err = run(capsys, "battle", str(tiny))
    assert code == 0, err
    code, out2, err = run(capsys, "battle", str(tiny))
    assert code == 0, err
    seeds = [int(o.splitlines()[0].split()[1]) for o in (out1, out2)]
    assert seeds[0] != seeds[1] and all(0 <= s < 2**48 for s in seeds)
    assert out1.splitlines()[0].startswith(f"Seed {seeds[0]} ")
    assert saved(capsys).keys() == {f"battle-tiny-{s}" for s in seeds}
    code, out, err = run(capsys, "battle", str(tiny), "--json", "--no-save")
    assert code == 0 and 0 <= json.loads(out)["seed"] < 2**48, err


def test_log_file_and_render_from_it(
    capsys: pytest.CaptureFixture[str], tiny: Path, tmp_path: Path
) -> None:
    """--log writes faces, orders, narrative and the result; render replays it."""
    log = tmp_path / "battle.json"
    code, out, err = run(capsys, "battle", str(tiny), "--seed", "5", "--log", str(log), "--json")
    assert code == 0, err
    data = json.loads(log.read_text())
    assert data["seed"] == 5 and data["result"] == json.loads(out)
    assert len(data["faces"]) == data["result"]["dice"]
    assert data["orders"] and data["narrative"]
    svg = tmp_path / "end.svg"
    assert run(capsys, "render", str(log), "-o", str(svg))[0] == 0
    assert "Turn " in svg.read_text()


# -- human policy -----------------------------------------------------------------------


def feed(monkeypatch: pytest.MonkeyPatch, answers: list[str]) -> list[str]:
    """Script standard input; every prompt asked is kept."""
    asked: list[str] = []
    it: Iterator[str] = iter(answers)

    def fake_input(prompt: str = "") -> str:
        asked.append(prompt)
        try:
            return next(it)
        except StopIteration:
            raise EOFError from None

    monkeypatch.setattr(builtins, "input", fake_input)
    return asked


def test_human_policy_from_scripted_input(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tiny: Path
) -> None:
    """--human union: a numbered menu of legal orders with exact odds; typed orders too.

    A unit is asked to fire only when it has a target; so the first Union decision is
    its move, and fire prompts (with their hit chances) come once the armies are in range.
    """
    asked = feed(monkeypatch, ["move 26 12"] + ["hold"] * 20)
    code, out, err = run(capsys, "battle", str(tiny), "--seed", "1", "--human", "union")
    assert code == 0, err
    assert asked[0].startswith("union move [1-")
    assert any(a.startswith(("union defensive_fire [", "union offensive_fire [")) for a in asked)
    assert "2nd WI (foot, line) at (30.0, 12.0)" in out
    assert '1. advance 6.0" toward 1st VA' in out  # moves in words, numbered
    assert '2nd WI moves 4.0"' in out
    assert re.search(r"fire at 1st VA, [0-9.]+\", needs \d+\+.*: \d+% hit", out)
    code, out, err = run(capsys, "games", "verify", "battle-tiny-1")
    assert code == 0, err


def test_illegal_human_order_saves_nothing(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tiny: Path
) -> None:
    """Moving further than allowed: its one-line reason, and the prompt asks again (issue 21:
    'asks again after a wrong entry, as many times as needed'); input running out ends it
    in one line, exit 2; the game keeps only what was legal before it (a person's game is
    saved as it goes) and verifies."""
    asked = feed(monkeypatch, ["move 10 20"])
    code, out, err = run(capsys, "battle", str(tiny), "--seed", "1", "--human", "union")
    assert 'umpire: error: 2nd WI may move 6.00" this turn' in out
    assert asked == ["union move [1-4]> "] * 2
    one_line_error(code, "", err, "standard input closed", "saved as far as it went")
    before = saved(capsys)
    assert list(before) == ["battle-tiny-1"]
    assert run(capsys, "games", "verify", "battle-tiny-1")[0] == 0
    assert run(capsys, "games", "delete", "battle-tiny-1", "--yes")[0] == 0
    # Firing at a unit out of range is refused the same way (a second Confederate
    # unit 5" away gives the Union unit a fire decision in the first turn).
    near = tiny.parent / "near.toml"
    near.write_text(
        TINY + '[[units]]\nid = "c2"\nname = "2nd VA"\nside = "confederate"\n'
        'type = "foot"\nstands = 4\nx = 25\ny = 12\nfacing = 0\n',
        encoding="utf-8",
    )
    asked = feed(monkeypatch, ["fire c1"])
    code, out, err = run(capsys, "battle", str(near), "--seed", "1", "--human", "union")
    assert asked == ["union defensive_fire [1-2]> "] * 2
    assert "cannot fire at 1st VA: out of range" in out
    one_line_error(code, "", err, "standard input closed")
    # Input running out is a clean error too.
    feed(monkeypatch, [])
    code, out, err = run(capsys, "battle", str(tiny), "--seed", "1", "--human", "union")
    one_line_error(code, out, err, "standard input closed", "saved as far as it went")
    assert set(saved(capsys)) == {"battle-near-1", "battle-tiny-1"}
    for name in ("battle-near-1", "battle-tiny-1"):
        assert run(capsys, "games", "verify", name)[0] == 0


# -- bad input ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (("battle", "no_such_scenario"), "no scenario 'no_such_scenario'"),
        (("battle", "mcpherson_ridge", "--human", "rebels"), "unknown side 'rebels'"),
        (("battle", "mcpherson_ridge", "--player", "union=robot"), "unknown policy 'robot'"),
        (("battle", "mcpherson_ridge", "--ai", "union"), "no player for the confederate side"),
        (("battle", "mcpherson_ridge", "--ai", "union", "--human", "union"), "two players"),
        (("battle", "mcpherson_ridge", "--seed", "-1"), "--seed"),
        (("render", "no_such_thing", "-o", "x.svg"), "not a scenario, a battle log"),
        (("render", "mcpherson_ridge", "-o", "x.gif"), ".svg or .png"),
        (("resolve", "fire", "--range", "40"), "no fire"),
        (("resolve", "fire", "--rules", "warhammer", "--range", "4"), "unknown rules"),
        (("resolve", "melee", "--a", "confederate,foot"), "side,type,formation,stands"),
        (("battle", "mcpherson_ridge", "--log", "/no/such/dir/log.json"), "cannot write"),
    ],
)
def test_bad_input_one_line(
    capsys: pytest.CaptureFixture[str], args: tuple[str, ...], needle: str
) -> None:
    """Unknown scenario, side, policy...: exit 2, one line on stderr, nothing saved."""
    code, out, err = run(capsys, *args)
    one_line_error(code, out, err, needle)
    assert saved(capsys) == {}


def test_impossible_scenario_names_file_and_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """A unit off the table: the error names file:line of the unit; nothing saved."""
    bad = tmp_path / "bad.toml"
    bad.write_text(TINY.replace("x = 30", "x = 40"), encoding="utf-8")
    code, out, err = run(capsys, "battle", str(bad))
    one_line_error(code, out, err, f"{bad}:", "off the table")
    line = int(err.split(f"{bad}:")[1].split(":")[0])
    assert TINY.replace("x = 30", "x = 40").splitlines()[line - 1] == "x = 40"
    assert saved(capsys) == {}


# -- umpire resolve: traces and exact odds -------------------------------------------------

P2D6 = {t: Fraction(6 - abs(t - 7), 36) for t in range(2, 13)}  # 1/36, 2/36 .. 6/36 .. 1/36


def at_least(n: int) -> Fraction:
    return sum((p for t, p in P2D6.items() if t >= n), Fraction(0))


def fraction(text: str) -> Fraction:
    return Fraction(text)


def test_resolve_fire_odds_foot_at_2_inches_in_line_at_column(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Foot at 2" firing in line at a column: 4+, +2 line, +1 column.

    P(hit) = P(2d6 + 3 >= 4) = 1; two stands need 2d6 + 3 >= 12, i.e. 9+ = 10/36.
    """
    code, out, err = run(
        capsys,
        "resolve",
        "fire",
        "--rules",
        "quick-acw",
        "--range",
        "2",
        "--target-formation",
        "column",
        "--odds",
        "--json",
    )
    assert code == 0, err
    res = json.loads(out)
    assert res["table"] == "002 FIRE" and res["row"] == "foot" and res["needed"] == 4
    assert [(m["id"], m["value"]) for m in res["modifiers"]] == [
        ("target_foot_column", 1),
        ("firer_line", 2),
    ]
    assert all(m["source"] == "002 FIRE modifiers" for m in res["modifiers"])
    odds = {k: fraction(v) for k, v in res["odds"].items()}
    assert odds["miss"] == 0
    assert odds["two_stands"] == Fraction(10, 36) == at_least(9)
    assert odds["one_stand"] == 1 - Fraction(10, 36)
    assert "roll" not in res  # --odds: nothing rolled


def test_resolve_fire_union_artillery_long_range_with_roll(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Union artillery at 20" (11+) at artillery in cover: +1 Union, -1 artillery, -1 cover.

    P(hit) = P(2d6 - 1 >= 11) = P(12) = 1/36; a roll of 6,6 scores 11: one stand.
    """
    code, out, err = run(
        capsys,
        "resolve",
        "fire",
        "--firer",
        "artillery",
        "--side",
        "union",
        "--range",
        "20",
        "--target",
        "artillery",
        "--cover",
        "--roll",
        "6,6",
        "--json",
    )
    assert code == 0, err
    res = json.loads(out)
    assert res["needed"] == 11 and res["band"] == 3 and res["total_modifier"] == -1
    assert {m["id"] for m in res["modifiers"]} == {
        "target_cover",
        "target_artillery",
        "union_firing",
    }
    assert fraction(res["odds"]["one_stand"]) == Fraction(1, 36)
    assert fraction(res["odds"]["two_stands"]) == 0
    assert res["roll"] == [6, 6] and res["score"] == 11 and res["stands_lost"] == 1


def test_resolve_charge_odds(capsys: pytest.CaptureFixture[str]) -> None:
    """Union charges (8+) with a +1 leader and a MM (-1); the Confederates stand on 7+.

    P(charge passes) = P(2d6 >= 8) = 15/36; P(target stands) = P(2d6 >= 7) = 21/36.
    """
    code, out, err = run(
        capsys,
        "resolve",
        "charge",
        "--side",
        "union",
        "--leader",
        "1",
        "--marker",
        "--target-side",
        "confederate",
        "--odds",
        "--json",
    )
    assert code == 0, err
    res = json.loads(out)
    assert res["charge_number"] == 8 and res["stand_number"] == 7
    assert [(m["id"], m["value"]) for m in res["charge_modifiers"]] == [
        ("leader", 1),
        ("marker", -1),
    ]
    assert fraction(res["odds"]["charge_passes"]) == Fraction(15, 36) == at_least(8)
    assert fraction(res["odds"]["target_stands"]) == Fraction(21, 36) == at_least(7)


def test_resolve_melee_odds(capsys: pytest.CaptureFixture[str]) -> None:
    """Confederate foot line 4 stands charging Union foot line 4 stands.

    A = 2d6 + 4 + 1 (Confederates attacking), B = 2d6 + 4: A wins when X - Y >= 0 for two
    2d6 rolls X, Y: (1 + P(X = Y)) / 2 with P(X = Y) = sum p_k^2 = 146/1296; a tie when
    X - Y = -1: sum p_k p_(k+1) = 140/1296.
    """
    code, out, err = run(capsys, "resolve", "melee", "--odds", "--json")
    assert code == 0, err
    res = json.loads(out)
    assert [(m["id"], m["value"]) for m in res["a_modifiers"]] == [
        ("stands", 4),
        ("confederates_attacking", 1),
    ]
    assert [(m["id"], m["value"]) for m in res["b_modifiers"]] == [("stands", 4)]
    same = sum((p * p for p in P2D6.values()), Fraction(0))
    one_less = sum((P2D6[k] * P2D6[k + 1] for k in range(2, 12)), Fraction(0))
    assert same == Fraction(146, 1296) and one_less == Fraction(140, 1296)
    odds = {k: fraction(v) for k, v in res["odds"].items()}
    assert odds["a_wins"] == (1 + same) / 2 == Fraction(721, 1296)
    assert odds["tie"] == one_less
    assert odds["b_wins"] == 1 - odds["a_wins"] - odds["tie"]


def test_resolve_melee_with_rolls_gives_the_row(capsys: pytest.CaptureFixture[str]) -> None:
    """Given dice: scores, the difference row and the results (winner / loser with #)."""
    code, out, err = run(
        capsys, "resolve", "melee", "--roll", "6,6", "--b-roll", "1,2", "--b-obstacle", "--json"
    )
    assert code == 0, err
    res = json.loads(out)
    # A: 12 + 4 + 1 = 17; B: 3 + 4 + 2 (defending a wall or stream) = 9; difference 8.
    assert (res["a_score"], res["b_score"], res["difference"]) == (17, 9, 8)
    assert res["row"] == "6-8" and res["result"] == {"a": "1", "b": "3#"}


# -- umpire render -------------------------------------------------------------------------


def test_render_svg_and_png(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """Issue 23 'PNG and SVG renders show names and a legend': the SVG labels every unit by
    its short name (not its id) with its stands, names the terrain, has a legend giving each
    full name and a scale; the PNG is the size asked for and not blank."""
    svg, png = tmp_path / "m.svg", tmp_path / "m.png"
    assert run(capsys, "render", "mcpherson_ridge", "-o", str(svg))[0] == 0
    assert run(capsys, "render", "mcpherson_ridge", "-o", str(png), "--size", "1000x700")[0] == 0
    text = svg.read_text()
    assert text.startswith("<svg") and text.rstrip().endswith("</svg>")
    from html import escape

    from umpire.battle.render import short_name
    from umpire.battle.scenario import load_scenario

    scen = load_scenario("mcpherson_ridge")
    for u in scen.units:
        assert f">{short_name(u.name)} {u.stands}</text>" in text
        assert f">{u.id} {u.stands}</text>" not in text
        assert f"</tspan> {escape(u.name)}</text>" in text  # the legend: short, full name
    for t in scen.terrain:
        if t.name:
            assert f">{escape(t.name)}</text>" in text
    assert ">Legend</text>" in text and " inches (table 48 by 36 inches)</text>" in text
    data = png.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    width, height = struct.unpack(">II", data[16:24])
    assert (width, height) == (1000, 700)
    import io

    from PIL import Image

    img = Image.open(io.BytesIO(data)).convert("L")
    lo, hi = img.getextrema()
    assert hi - lo > 100  # not blank: dark text and lines on a light field
    dark = sum(img.histogram()[:80])
    assert dark > 2000  # letters and lines, not only filled shapes
    assert run(capsys, "render", "mcpherson_ridge", "-o", str(png), "--size", "9x9")[0] == 2


def test_render_saved_battle_at_a_turn(
    capsys: pytest.CaptureFixture[str], tiny: Path, tmp_path: Path
) -> None:
    """A saved battle renders at the start of a chosen turn, and at its end."""
    assert run(capsys, "battle", str(tiny), "--seed", "6", "--game", "t")[0] == 0
    at2, end = tmp_path / "t2.svg", tmp_path / "end.svg"
    assert run(capsys, "render", "t", "--turn", "2", "-o", str(at2))[0] == 0
    assert run(capsys, "render", "t", "-o", str(end))[0] == 0
    assert ">Turn 2</text>" in at2.read_text()
    assert "result:" in end.read_text()


def test_resolve_without_seed_rolls_fresh_dice_and_prints_the_seed(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A table player asking three times gets three rolls, each reproducible by its seed."""
    seeds = set()
    for _ in range(3):
        code, out, err = run(capsys, "resolve", "fire", "--range", "4", "--json")
        assert code == 0, err
        seeds.add(json.loads(out)["seed"])
    assert len(seeds) == 3
    seed = seeds.pop()
    code, out, _ = run(capsys, "resolve", "fire", "--range", "4", "--seed", str(seed), "--json")
    again = json.loads(out)
    code, out, _ = run(capsys, "resolve", "fire", "--range", "4", "--seed", str(seed), "--json")
    assert json.loads(out)["roll"] == again["roll"]
