"""Issue 23, "An AI general": the AI's levels (easy, normal, hard) per side with
``--player SIDE=POLICY`` in ``umpire battle`` and ``umpire simulate``, and ``--explain``.

The rules these policies obey are the menus' (every order they give is offered and legal:
a replay of the faces and orders reaches the same state).
"""

from __future__ import annotations

import pytest

from test_acw_cli import run
from umpire.ai import KINDS, make_policy
from umpire.ai.levels import EasyAI, HardAI
from umpire.battle.run import play
from umpire.cli.battle_cmd import assign_players
from umpire.errors import UmpireError
from umpire.lab.arms import SHIPPED
from umpire.lab.cli import parse_players
from umpire.lab.conformance import check_battle
from umpire.lab.play import run_task
from umpire.lab.runner import plan, tasks
from umpire.scenarios import load_scenario


def test_levels_are_policies_and_ai_means_normal() -> None:
    """Issue 23: 'policies easy, normal, hard, with ai meaning normal, besides human and
    random'."""
    assert {"ai", "easy", "normal", "hard", "random", "human"} <= set(KINDS)
    assert isinstance(make_policy("easy", 1), EasyAI)
    assert isinstance(make_policy("hard", 1), HardAI)
    scen = load_scenario("stone_wall")
    a = play(scen, 7, {s: make_policy("ai", 7) for s in ("union", "confederate")})
    n = play(scen, 7, {s: make_policy("normal", 7) for s in ("union", "confederate")})
    assert a.orders == n.orders


@pytest.mark.parametrize("level", ["easy", "hard"])
@pytest.mark.parametrize("scenario", ["stone_wall", "mcpherson_cards"])
def test_levels_play_only_legal_orders(level: str, scenario: str) -> None:
    """Issue 23: hard 'obeys every rule the person must': its orders replay to the same
    state (each was on the legal menu), and it differs from normal."""
    scen = load_scenario(scenario)
    for players in ((level, "normal"), ("normal", level)):
        checked = check_battle(scen, 3, players)  # the conformance suite's every-step watch
        assert checked.failures() == []


def test_easy_is_noisier_than_normal() -> None:
    """Issue 23: 'easy is normal with noise (it picks among its better orders at random
    and sometimes holds)'."""
    scen = load_scenario("stone_wall")
    normal = play(scen, 11, {s: make_policy("normal", 11) for s in ("union", "confederate")})
    easy = play(
        scen, 11, {"union": make_policy("easy", 11), "confederate": make_policy("normal", 11)}
    )
    assert easy.orders != normal.orders


def test_battle_player_takes_the_levels() -> None:
    """Issue 23: levels chosen per side 'with the existing --player SIDE=POLICY'."""
    kinds = assign_players(None, "", "", ["union=hard", "confederate=easy"])
    assert kinds == {"union": "hard", "confederate": "easy"}
    with pytest.raises(UmpireError, match="unknown policy 'expert'"):
        assign_players(None, "", "", ["union=expert"])


def test_simulate_players_play_on_the_scalar_engine() -> None:
    """Issue 23: 'With a person or a non-default policy on a side, simulate plays on the
    scalar engine (the batch simulator plays only the shipped AI)'."""
    assert parse_players(["union=hard", "confederate=normal"]) == [("union", "hard")]
    assert parse_players(["union=ai"]) == []
    for bad, says in (
        ("union", "SIDE=POLICY"),
        ("north=hard", "unknown side 'north'"),
        ("union=human", "a person plays"),
        ("union=best", "unknown policy 'best'"),
    ):
        with pytest.raises(UmpireError, match=says):
            parse_players([bad])
    scen = load_scenario("standard")
    p = plan(scen, [SHIPPED], "auto", [("union", "hard")])
    assert p.paths == ("scalar",)
    with pytest.raises(UmpireError, match="plays only the shipped AI"):
        plan(scen, [SHIPPED], "batch", [("union", "hard")])
    (task,) = tasks(p, 2, 5, 1, [("union", "hard")])[:1]
    _, _, recs = run_task(task)
    assert all(r["path"] == "scalar" for r in recs)


def test_simulate_cli_player(capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 23: `umpire simulate standard --player union=hard --player confederate=normal`."""
    code, out, err = run(
        capsys,
        "simulate",
        "stone_wall",
        "-n",
        "4",
        "--seed",
        "1",
        "--workers",
        "1",
        "--no-save",
        "--player",
        "union=hard",
        "--player",
        "confederate=normal",
    )
    assert code == 0, err
    assert "scalar engine" in err
    assert "confederate normal against union hard" in out


def test_battle_explain_says_why(capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 23: '`umpire battle ... --explain` (and the log) says in a line why the AI
    chose an order ("charges: 64% to go in, expected loss 0.4 stands, objective 3" away")'."""
    code, out, err = run(
        capsys,
        "battle",
        "stone_wall",
        "--seed",
        "3",
        "--no-save",
        "--player",
        "union=hard",
        "--explain",
    )
    assert code == 0, err
    assert "[hard union 20th Maine] charges: " in out
    assert "to go in" in out and "expected loss" in out and 'objective 6" away' in out
    assert "[normal confederate" in out or "[ai confederate" in out
