"""``umpire simulate --from GAME@ACTION`` (issue 24, "In the laboratory": play on from a
saved position): exact agreement with ``simulate`` from action 0, fresh dice that never
touch the saved game's own, the saved game unchanged, and bad input as one line."""

from __future__ import annotations

import json
from typing import Any

import pytest

from umpire.ai import make_policy
from umpire.battle.game import save_game
from umpire.battle.run import play
from umpire.battle.scenario import load_scenario, parse_scenario
from umpire.cli.common import open_store
from umpire.cli.main import main
from umpire.lab import battle_seed
from umpire.lab.arms import SHIPPED as SHIPPED_RULES
from umpire.lab.play import run_task
from umpire.lab.playon import game_position, load_position, play_on
from umpire.lab.runner import plan, tasks
from umpire.scenarios import SHIPPED, Scenario, shipped
from umpire.sides import SIDES

BASE = (SHIPPED / "mcpherson_ridge.toml").read_text(encoding="utf-8")
COMPOSITIONS = {
    "five-step+MM": '[rules]\nsequence = "five-step"\nstatus = "quick-acw"',
    "002+001": '[rules]\nevents = ["solo-events"]\nattacker = "confederate"',
    "five-step+001": (
        '[rules]\nsequence = "five-step"\nevents = ["solo-events"]\nattacker = "union"'
    ),
    "card-draw+001": (
        '[rules]\nsequence = "card-draw"\ncards = "regiment"\nevents = ["solo-events"]\n'
        'attacker = "confederate"'
    ),
}
"""McPherson's Ridge under other ``[rules]`` (as the conformance suite's): compositions no
shipped scenario uses, the solo events among them."""


def scenario_of(key: str) -> Scenario:
    if key in COMPOSITIONS:
        return parse_scenario(BASE.replace('rules = "quick_acw"', COMPOSITIONS[key], 1))
    return load_scenario(key)


def cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def saved(name: str, scenario: str = "stone_wall", seed: int = 11) -> Any:
    """A battle played AI against AI and saved in the test's own save file."""
    scen = scenario_of(scenario)
    res = play(scen, seed, {s: make_policy("ai", seed) for s in SIDES})
    game = save_game(scen, seed, res.orders)
    open_store().create(name, game)
    return game


def simulate_records(
    scenario: str, n: int, seed: int, players: tuple[tuple[str, str], ...] = ()
) -> list[dict[str, Any]]:
    """``umpire simulate SCENARIO -n N --seed S --path scalar``'s records, in battle order."""
    p = plan(scenario_of(scenario), [SHIPPED_RULES], "scalar", players)
    out: list[dict[str, Any]] = []
    for t in tasks(p, n, seed, 1, players):
        out += run_task(t)[2]
    return out


@pytest.mark.parametrize("scenario", [*shipped(), *COMPOSITIONS])
def test_from_action_0_is_simulate_battle_by_battle(scenario: str) -> None:
    """Issue 24: 'playing on from action 0 of a saved battle agrees with simulate from the
    scenario': exactly, battle by battle (same seed rule, same policies), for every shipped
    scenario and the test compositions (simulate's batch path equals its scalar path:
    test_lab_agreement). From half-way the battles play to their end as well."""
    game = saved("g", scenario, seed=5)
    got = play_on(game, 0, 3, 77)
    assert got.records == simulate_records(scenario, 3, 77)
    assert got.n == 3 and sum(got.summary["results"][o]["wins"] for o in (*SIDES, "draw")) == 3
    pos = game_position(game, len(game.actions) // 2)
    mid = play_on(pos, None, 2, 77)
    assert all(r["winner"] in (*SIDES, "draw") and r["turns"] >= pos.turn for r in mid.records)


def test_from_action_0_with_other_players_is_simulate_too() -> None:
    """``--player SIDE=POLICY`` plays the same policies as ``simulate --player``."""
    game = saved("g")
    players = (("union", "random"),)
    got = play_on(game, 0, 4, 9, players)
    assert got.records == simulate_records("stone_wall", 4, 9, players)


@pytest.mark.parametrize("scenario", ["stone_wall", "mcpherson_cards", "002+001"])
def test_a_position_on_the_games_own_dice_continues_the_saved_battle(scenario: str) -> None:
    """The position is the whole battle: played on from action k with the saved game's own
    dice (its open seed, at the log's position) and the same AI, it reaches the saved
    game's end exactly. (The lab itself never does this: it draws fresh dice.)"""
    from umpire.battle.run import state_hash
    from umpire.dice import SeededSource
    from umpire.lab.playon import play_from

    game = saved("g", scenario, seed=5)
    for k in (1, len(game.actions) // 3, len(game.actions) - 1):
        pos = game_position(game, k)
        used = sum(
            len(d[2]) for r in game.actions[:k] for e in r.events for d in e.data.get("draws", [])
        )
        res = play_from(
            pos.state, 5, {s: make_policy("ai", 5) for s in SIDES}, SeededSource(5, position=used)
        )
        assert state_hash(res.state) == state_hash(game.state["battle"]), k


def test_play_on_starts_at_the_position_and_uses_fresh_dice() -> None:
    """Each battle continues the saved position (its turn, its losses so far) on its own dice
    ``battle_seed(seed, i)``; the same seed gives the same battles however many workers."""
    game = saved("g")
    at = len(game.actions) // 2
    pos = game_position(game, at)
    lost = pos.state["battle"]["losses"]
    one = play_on(pos, None, 6, 3, workers=1)
    two = play_on(pos, None, 6, 3, workers=2)
    assert one.records == two.records
    for i, r in enumerate(one.records):
        assert r["seed"] == battle_seed(3, i)
        assert r["turns"] >= pos.turn
        assert all(r["losses"][s] >= lost.get(s, 0) for s in SIDES)
    other = play_on(pos, None, 6, 4)
    assert [r["seed"] for r in other.records] != [r["seed"] for r in one.records]


def test_the_games_own_dice_are_never_made(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 24 brief: 'never the saved game's own future dice: the game's hidden seed must not
    leak or be reused': the position is read from the log's changes alone; no dice source of
    the game is built (a committed game's seed would be read there), and a committed game's
    seed appears nowhere in the output and stays hidden."""
    import umpire.store.sqlite as sq
    from umpire.battle.game import pending
    from umpire.dice import CommittedSource
    from umpire.engine.game import Game
    from umpire.rules import get_module

    secret = 987654321987654321
    game = Game.new(
        get_module("battle"), load_scenario("stone_wall").to_json(), CommittedSource(secret)
    )
    game.act("start", {})
    ai = make_policy("ai", 1)
    for _ in range(30):
        view, req = pending(game)
        assert req is not None
        game.act("order", {"order": list(ai.decide(view, req))})
    open_store().create("hidden", game)
    saved("g")

    def refuse(*a: Any, **k: Any) -> Any:
        raise AssertionError("the game's own dice source was made")

    monkeypatch.setattr(sq, "_make_source", refuse)
    pos = load_position(open_store(), "g", 40)
    res = play_on(pos, None, 2, 1)
    assert res.position.at == 40 and len(res.records) == 2
    code, out, err = cli(
        capsys, "simulate", "--from", "hidden@last", "-n", "3", "--seed", "4", "--json"
    )
    assert code == 0, err
    assert str(secret) not in out + err and json.loads(out)["at"] == 31
    assert not open_store().info("hidden").revealed


def test_the_library_takes_a_finished_position() -> None:
    """For the after-action report: from the end of a game every battle ends as it did (no
    dice), so a roll that ended the battle swings the win chance to 1 or 0."""
    game = saved("g")
    res = play_on(game, len(game.actions), 3, 1)
    winner = game.state["battle"]["winner"]
    assert res.chance(winner)[0] == 1.0 and all(r["dice"] == 0 for r in res.records)


def test_swing_is_the_win_chance_after_the_action_less_before() -> None:
    """The after-action report's seam (issue 24, 'the swing in the win chance: play on from the
    position before and after the roll'): action k's swing for a side is play_on from k
    less play_on from k - 1, on the same fresh seeds; a roll that ended the battle swings
    the winner's chance to 1. The saved game is not changed."""
    from types import SimpleNamespace

    from umpire.lab.playon import swing, swing_seed

    game = saved("g")
    store = open_store()
    head = store.head("g")
    k = len(game.actions) // 2
    got = swing("g", SimpleNamespace(action=k, side="union"), n=4, store=store)
    seed = swing_seed("g", k)
    want = (
        play_on(game, k, 4, seed).chance("union")[0]
        - play_on(game, k - 1, 4, seed).chance("union")[0]
    )
    assert got == want
    last = len(game.actions)
    winner = game.state["battle"]["winner"]
    end = swing("g", SimpleNamespace(action=last, side=winner), n=4, store=store)
    assert (
        end is not None
        and end == 1.0 - play_on(game, last - 1, 4, swing_seed("g", last)).chance(winner)[0]
    )
    assert swing("g", SimpleNamespace(action=k, side=""), n=4, store=store) is None
    assert open_store().head("g") == head


def test_cli_json_text_and_the_saved_game_unchanged(capsys: pytest.CaptureFixture[str]) -> None:
    """``simulate --from g@0 --json``: each side's win chance with its interval and the number
    of battles, equal to ``simulate``'s; the saved game (its log, chain head, state) is not
    changed; the text says the position, the chances and the scalar engine."""
    saved("g")
    store = open_store()
    before = (store.info("g").actions, store.head("g"), store.load("g").state_hash())
    code, out, err = cli(capsys, "simulate", "--from", "g@0", "-n", "6", "--seed", "2", "--json")
    assert code == 0, err
    got = json.loads(out)
    code, out, err = cli(
        capsys, "simulate", "stone_wall", "-n", "6", "--seed", "2", "--path", "scalar",
        "--json", "--no-save",
    )  # fmt: skip
    want = json.loads(out)["arms"][0]["summary"]["results"]
    assert got["battles"] == 6 and got["at"] == 0 and got["path"] == "scalar"
    for o in (*SIDES, "draw"):
        assert got["win"][o]["rate"] == want[o]["rate"]
        assert got["win"][o]["ci95"] == want[o]["ci95"]
    code, out, err = cli(capsys, "simulate", "--from", "g@t3", "-n", "4", "--seed", "2")
    assert code == 0, err
    assert "battles played on from action" in out and "(turn 3, " in out
    assert "union wins" in out and "95% CI" in out and "scalar" in err
    store = open_store()
    assert (store.info("g").actions, store.head("g"), store.load("g").state_hash()) == before


def test_last_plays_on_a_battle_in_progress(capsys: pytest.CaptureFixture[str]) -> None:
    """``@last``: the position a game stopped at (a battle undone part-way)."""
    saved("g")
    open_store().undo("g", 30)
    code, out, err = cli(capsys, "simulate", "--from", "g@last", "-n", "2", "--seed", "1")
    assert code == 0, err
    assert out.startswith("g@30: 2 battles played on from action 30 of 30")


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--from", "nope@3"], "--from 'nope@3': unknown game 'nope'"),
        (["--from", "g@999"], "no action 999 in game 'g' (it has"),
        (["--from", "g@last"], "the battle is over at action"),
        (["--from", "g@t99"], "never reaches turn 99"),
        (["--from", "g@t0"], "turns count from 1"),
        (["--from", "g@x"], "--from 'g@x': ACTION is N"),
        (["--from", "g@-1"], "not '-1'"),
        (["--from", "g"], "--from takes GAME@ACTION"),
        (["--from", "book@0"], "game 'book' is a session game, not a battle"),
        (["stone_wall", "--from", "g@0"], "drop SCENARIO"),
        (["--from", "g@0", "--vary", "x=1"], "drop --vary"),
        ([], "give a SCENARIO to simulate, or --from GAME@ACTION"),
    ],
)
def test_bad_input_is_one_line(
    capsys: pytest.CaptureFixture[str], args: list[str], words: str
) -> None:
    """An unknown game, an action out of range, a finished position, a game that is not a
    battle: one line naming what and where, exit 2, no traceback."""
    saved("g")
    assert cli(capsys, "session", "new", "book")[0] == 0
    code, _, err = cli(capsys, "simulate", *args, "-n", "2")
    assert code == 2
    assert words in err and err.count("\n") == 1 and "Traceback" not in err
