"""Issue 23, "An AI general": the AI's levels (easy, normal, hard) per side with
``--player SIDE=POLICY`` in ``umpire battle`` and ``umpire simulate``, and ``--explain``.

The rules these policies obey are the menus' (every order they give is offered and legal:
a replay of the faces and orders reaches the same state).
"""

from __future__ import annotations

from typing import Any

import pytest

from test_acw_cli import feed, run
from umpire.ai import KINDS, make_policy
from umpire.ai.levels import EasyAI, HardAI
from umpire.battle.run import play
from umpire.battle.scenario import load_scenario
from umpire.cli.battle_cmd import assign_players
from umpire.cli.lab_cmd import parse_players
from umpire.errors import UmpireError
from umpire.lab.arms import SHIPPED
from umpire.lab.conformance import check_battle
from umpire.lab.play import run_task
from umpire.lab.runner import plan, tasks


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
@pytest.mark.parametrize(
    "scenario", ["stone_wall", "mcpherson_cards", "standard", "mcpherson_ridge"]
)
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


def test_explain_at_the_prompt_of_an_unsaved_battle(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 23 `--explain` with a person at the prompt and `--no-save`: the AI's lines come
    before the person's next prompt (they went only into the narrative, printed at the end,
    so a person who quit never saw one)."""
    asked = feed(monkeypatch, ["hold"] * 12 + ["quit"])
    code, out, err = run(
        capsys, "battle", "stone_wall", "--seed", "5", "--no-save",
        "--human", "union", "--player", "confederate=hard", "--explain",
    )  # fmt: skip
    assert code == 0, err
    assert len(asked) == 13
    before_quit = out[: out.index("Quit: the battle stops here")]
    assert before_quit.count("[hard confederate ") >= 3, before_quit[-2000:]


@pytest.mark.parametrize("level", ["easy", "hard"])
def test_web_table_plays_the_ai_at_a_level(tmp_path: Any, level: str) -> None:
    """Issue 23: the levels 'in the web table's start page': a side given to the hard or
    easy AI plays to the end, and the start page offers the levels."""
    from fastapi.testclient import TestClient

    from test_web_api import KEY, api, new_game
    from umpire.web.app import create_app

    client = TestClient(create_app(tmp_path / "web.db", KEY))
    links = new_game(client, scenario="stone_wall_cards", players={"union": level})
    side = api(links["confederate"])
    for _ in range(400):
        v = client.get(side).json()
        if v["table"]["over"]:
            break
        assert v["table"]["waiting"]["side"] == "confederate"
        hold = next(c["i"] for c in v["table"]["choices"] if c["kind"] == "hold")
        assert client.post(side + "/order", json={"at": v["at"], "choice": hold}).status_code == 200
    assert client.get(side).json()["table"]["over"]
    assert client.get(api(links["host"]) + "/verify").json()["ok"]
    page = client.get(f"/?key={KEY}").text
    assert 'value="hard">the AI (hard)' in page and 'value="easy"' in page


def test_personality_defaults_are_labelled_data() -> None:
    """Issue 23: 'Personalities ... (how readily it attacks, the risk it takes, the reserve
    it keeps), as data with labelled defaults'; unset, the shipped AI plays as before."""
    from umpire.ai.odds_ai import CHARGE_THRESHOLD
    from umpire.ai.personality import labels, personality

    scen = load_scenario("standard")
    p = personality(scen, "union")
    assert (p.attack, p.risk, p.reserve) == (CHARGE_THRESHOLD, 1.0, 0.0)
    assert {d["id"] for d in labels()} == {"ai_attack", "ai_risk", "ai_reserve"}
    assert all(d["label"] == "default" and d["reason"] for d in labels())


def _with_personality(name: str, side: str, **values: float) -> Any:
    scen = load_scenario(name)
    data = scen.model_dump(mode="json", exclude_unset=True)
    data.setdefault("sides", {}).setdefault(side, {})["personality"] = values
    return type(scen).model_validate(data)


def test_personality_attack_and_reserve_change_the_play() -> None:
    """Issue 23: a scenario's personality per side changes how the AI plays it: a bold
    one (attack 0.2, risk 3) charges more; one keeping half its units in reserve holds
    more."""
    from umpire.ai.personality import personality

    seeds = range(6)
    bold = _with_personality("standard", "union", attack=0.2, risk=3.0)
    assert personality(bold, "union").attack == 0.2
    assert personality(bold, "confederate").attack == 0.5

    from umpire.ai.odds_ai import OddsAI

    def orders(scen: Any, kind: str) -> int:
        n = 0
        for s in seeds:
            res = play(scen, s, {"union": OddsAI(), "confederate": OddsAI()})
            n += sum(1 for o in res.orders if o[1] == kind)
        return n

    plain = load_scenario("standard")
    assert orders(bold, "charge") > orders(plain, "charge")
    held = _with_personality("standard", "union", reserve=0.5)
    assert orders(held, "hold") > orders(plain, "hold")
    with pytest.raises(ValueError):
        _with_personality("standard", "union", reserve=1.5)


def test_rules_list_shows_the_ai_personality_defaults(capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 23 and the project's rule: every default 'is listed by umpire rules list'."""
    code, out, err = run(capsys, "rules", "list")
    assert code == 0, err
    assert "ai — the AI's personality" in out and "ai_reserve: reserve = 0.0" in out


def test_hard_looks_ahead_on_a_fork_and_leaves_the_battle_alone() -> None:
    """Issue 23: hard 'weighs candidate orders by their exact odds and the position each
    outcome leads to, one step on', on the engine's copy of the state: the real battle's
    state and dice are untouched by its deciding, and it chooses otherwise than normal."""
    from umpire.battle.engine import Recorder
    from umpire.battle.run import new_battle, state_hash
    from umpire.dice import SeededSource

    scen = load_scenario("stone_wall")
    rec = Recorder(SeededSource(4))
    b = new_battle(scen, rec)
    hard, normal = make_policy("hard", 4), make_policy("normal", 4)
    differ = 0
    for _ in range(400):
        req = b.next_request()
        if req is None:
            break
        before = state_hash(b.state.to_json())
        faces = len(rec.faces)
        order = hard.decide(b, req)
        assert state_hash(b.state.to_json()) == before
        assert len(rec.faces) == faces
        differ += order != normal.decide(b, req)
        b.apply(req, order)
    assert differ > 0


def _scan(scenario: str, seed: int, found: Any, turns: int = 12) -> Any:
    """Play ``scenario`` with hard deciding for both sides beside normal (the battle follows
    hard's orders, each checked legal by the engine) until ``found(b, req, hard, order,
    normal_order)`` returns something; that is returned (None when nothing was found)."""
    from umpire.battle.engine import Recorder
    from umpire.battle.run import new_battle
    from umpire.dice import SeededSource

    b = new_battle(load_scenario(scenario), Recorder(SeededSource(seed)))
    hard, normal = make_policy("hard", seed), make_policy("normal", seed)
    assert isinstance(hard, HardAI)
    while b.state.turn <= turns:
        req = b.next_request()
        if req is None:
            break
        order = hard.decide(b, req)
        got = found(b, req, hard, order, normal.decide(b, req))
        if got is not None:
            return got
        b.apply(req, order)  # the engine raises on an illegal order
    return None


def test_hard_changes_formation_where_it_pays_in_a_seed_002_battle() -> None:
    """Issue 23: hard 'uses terrain and formations (in 20 standard battles today the AI
    never changed formation, mounted, dismounted, limbered or unlimbered)'; seed 002
    MOVEMENT: 'Move—including changing formation', at half movement. In `standard` (seed
    002's scripted general is normal there) hard changes formation where normal does not,
    by the rules (the combat role's check passes), and says why."""

    def changed(b: Any, req: Any, hard: HardAI, order: Any, normal: Any) -> Any:
        if order[0] == "move" and len(order) > 4 and order[4] and order != normal:
            b.comp.combat.check(b, req, order)  # legal: raises otherwise
            return order, hard.why
        return None

    got = _scan("standard", 5, changed)
    assert got is not None
    _, why = got
    assert why.startswith(("form ", "mount", "dismount", "limber", "unlimber")), why
    assert any(w in why for w in ("expects to", "a move after it", "cover", "from its goal"))


def test_hard_concentrates_fire_on_the_target_it_can_finish_or_break() -> None:
    """Issue 23: hard 'concentrates fire'; seed 002 FIRE: 'Any unit reduced to less than
    1/2 of its original stands is removed': where normal fires elsewhere, hard's target is
    one it may finish, or already damaged or marked, and the menu's odds say so."""

    def concentrated(b: Any, req: Any, hard: HardAI, order: Any, normal: Any) -> Any:
        if req.kind == "fire" and order != normal:
            return b, order, normal, hard.why
        return None

    got = _scan("mcpherson_ridge", 5, concentrated)
    assert got is not None
    b, order, normal, why = got
    t, n = b.state.units[order[1]], b.state.units[normal[1]]
    assert why.startswith(f"concentrates fire on {t.name}: ")
    assert "to finish it" in why or t.stands < t.stands0 or b.status.label(t)
    assert (t.stands / t.stands0, not b.status.label(t)) <= (n.stands / n.stands0, True)


def test_hard_pulls_back_a_shaken_unit_where_that_rallies_it() -> None:
    """Issue 23: hard 'pulls back shaken units to rally'. Seed 004 (the status ladder:
    Shaken may not advance, and a second hit makes it worse, 'Shaken + Stop = Retreat'):
    a shaken unit falls back out of the enemy's reach. Seed 002 TURN ORDER: 'Rally—remove
    Morale Markers from 1st player's units that did not move': there holding still is what
    rallies, and hard holds as normal does."""

    def fell_back(b: Any, req: Any, hard: HardAI, order: Any, normal: Any) -> Any:
        if req.kind == "move" and hard.why.startswith("falls back to rally"):
            return b, req, order
        return None

    got = _scan("mcpherson_cards", 5, fell_back)
    assert got is not None
    b, req, order = got
    u = b.state.units[req.actor]
    assert b.status.move_limit(b, u) == "no_advance"
    en = b.nearest_enemy(u)
    assert en is not None
    before = ((en.x - u.x) ** 2 + (en.y - u.y) ** 2) ** 0.5
    after = ((en.x - order[1]) ** 2 + (en.y - order[2]) ** 2) ** 0.5
    assert after > before + 1.0

    def moved_marked(b: Any, req: Any, hard: HardAI, order: Any, normal: Any) -> Any:
        if req.kind == "move" and b.status.move_limit(b, b.state.units[req.actor]) == "rally":
            return order
        return None

    assert _scan("standard", 5, moved_marked) == ("hold",)


def test_hard_work_per_decision_is_capped() -> None:
    """Issue 23: 'no single decision takes over a second at the terminal': hard's work per
    decision is bounded whatever the crowd: at most FORKS forks, and per fork its own fire
    menu and ENEMIES enemies' (counted, not timed), in the most crowded shipped battles."""
    top = {"forks": 0, "menus": 0}

    def work(b: Any, req: Any, hard: HardAI, order: Any, normal: Any) -> Any:
        top["forks"] = max(top["forks"], hard.forks)
        top["menus"] = max(top["menus"], hard.menus)
        return None

    for scenario in ("standard", "stone_wall_cards"):
        _scan(scenario, 2, work, turns=99)
    assert 3 <= top["forks"] <= HardAI.FORKS
    assert top["menus"] <= HardAI.FORKS * (1 + HardAI.ENEMIES)


def test_explain_says_hards_reason_where_it_differs_from_normal(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Issue 23: the AI's choices 'can be explained' (`--explain`): where hard chooses
    otherwise than normal, its line says why first (a formation change and what it gains,
    concentrated fire on a named target), then the order's odds."""
    code, out, err = run(
        capsys, "battle", "standard", "--seed", "5", "--no-save",
        "--player", "confederate=hard", "--explain",
    )  # fmt: skip
    assert code == 0, err
    lines = [s for s in out.splitlines() if "[hard confederate" in s]
    assert any("] form column" in s and "expects to take" in s for s in lines)
    assert any("] concentrates fire on " in s and "stands left" in s for s in lines)


def test_hard_skips_a_candidate_the_step_refuses(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 23: hard 'obeys every rule the person must'. Should a module's check pass a
    candidate that its step then refuses (seed 003 did, when a base grown in place was not
    told to the engine: now the engine's caches-current invariant), hard's fork meets the
    refusal, drops that candidate, and the battle goes on with legal orders only."""
    from umpire.battle.engine import Battle
    from umpire.errors import IllegalActionError
    from umpire.lab import battle_seed

    real_fork, real_apply = HardAI.fork, Battle.apply
    refusing: set[int] = set()

    def refusing_fork(self: HardAI, b: Battle) -> Battle:
        f = real_fork(self, b)
        if self.forks % 3 == 0:  # every third candidate is refused by its step
            refusing.add(id(f))
        return f

    def apply(self: Battle, req: Any, order: Any) -> Any:
        if id(self) in refusing:
            raise IllegalActionError("refused by the step (test)")
        return real_apply(self, req, order)

    monkeypatch.setattr(HardAI, "fork", refusing_fork)
    monkeypatch.setattr(Battle, "apply", apply)
    s = battle_seed(23, 150)
    hard = make_policy("hard", s)
    assert isinstance(hard, HardAI)
    res = play(
        load_scenario("stone_wall_cards"),
        s,
        {"union": hard, "confederate": make_policy("normal", s)},
    )
    assert hard.refused and res.winner in ("union", "confederate", "")


def test_explain_names_the_leader_and_why_he_joins_a_unit(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Issue 23 `--explain` on a leader's decision (it said only "places a leader"): the
    leader by name, the unit he joins and how far, and, where it is so, that the unit is the
    nearest of his own to their middle (the rule both the generic and seed 002's AI play)."""
    code, out, err = run(
        capsys, "battle", "mcpherson_cards", "--seed", "3", "--no-save",
        "--player", "confederate=hard", "--explain",
    )  # fmt: skip
    assert code == 0, err
    lines = [s for s in out.splitlines() if "[hard confederate Brig. Gen. " in s]
    assert lines and "places a leader" not in out
    assert any(" joins " in s and "the nearest of his" in s for s in lines), lines[:3]
