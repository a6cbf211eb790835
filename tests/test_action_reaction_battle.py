"""Seed 003 as modules of the tactical engine: whole battles, conformance, bad orders.

Scenarios: ``stone_wall`` (the XII sequence with 003's combat and status, fog) and
``stone_wall_cards`` (seed 004's card draw with 003's combat and the 004 ladder).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from umpire.ai import make_policy
from umpire.battle.engine import Battle, Recorder
from umpire.battle.game import save_game
from umpire.battle.roles import Request
from umpire.battle.run import new_battle, play, replay, state_hash
from umpire.battle.scenario import load_scenario
from umpire.cli.main import main
from umpire.dice import SeededSource
from umpire.errors import IllegalActionError

SCENARIOS = ("stone_wall", "stone_wall_cards")


def check_ranges(b: Battle) -> None:
    """Conformance: ammunition never negative, fog 0-6, smoke 0 to its cap."""
    cap = int(b.r["battle"]["smoke_cap"])
    fog = int(b.state.extra.get("ar", {}).get("fog", 0))
    assert 0 <= fog <= 6
    for u in b.state.units:
        bk = u.extra.get("ar")
        if not bk:
            continue
        assert 0 <= bk["smoke"] <= cap, (u.id, bk["smoke"])
        assert bk["off"] >= 0
        for gun in bk.get("ammo", []):
            assert all(v >= 0 for v in gun.values()), (u.id, gun)


def run(scen_name: str, seed: int, kind: str) -> tuple[Battle, list[list[Any]], list[int]]:
    scen = load_scenario(scen_name)
    pols = {"union": make_policy(kind, seed), "confederate": make_policy(kind, seed + 99)}
    rec = Recorder(SeededSource(seed))
    b = new_battle(scen, rec)
    orders: list[list[Any]] = []
    for _ in range(5000):
        req = b.next_request()
        check_ranges(b)
        if req is None:
            break
        order = pols[req.side].decide(b, req)
        b.apply(req, order)
        orders.append([req.actor, *order])
    assert b.state.over and b.state.winner in ("union", "confederate", "draw")
    return b, orders, rec.faces


@pytest.mark.parametrize("scen", SCENARIOS)
@pytest.mark.parametrize("seed", range(6))
def test_seeded_battles_conform_and_replay(scen: str, seed: int) -> None:
    """Seed 003 conformance: ammunition >= 0, fog and smoke in range, the battle ends, and a
    replay of the faces and orders gives the identical state."""
    kind = "ai" if seed % 2 else "random"
    b, orders, faces = run(scen, seed, kind)
    again = replay(load_scenario(scen), faces, orders)
    assert state_hash(again.state.to_json()) == state_hash(b.state.to_json())


@pytest.mark.parametrize("scen", SCENARIOS)
def test_a_saved_003_battle_reexecutes(scen: str) -> None:
    """The saved-game path logs every roll and re-executes (verify) to the same states."""
    s = load_scenario(scen)
    res = play(s, 3, {"union": make_policy("ai"), "confederate": make_policy("ai")})
    game = save_game(s, 3, res.orders)
    assert state_hash(game.state["battle"]) == state_hash(res.state)
    game.reexecute()


def test_the_battle_uses_003s_mechanisms() -> None:
    """Across a few battles: fire on the stick, artillery rounds spent, charges announced,
    cheers, reactions and hand-to-hand (XI, XII.H, XIII, XIV)."""
    text = []
    for seed in range(4):
        s = load_scenario("stone_wall")
        res = play(
            s, seed, {"union": make_policy("ai"), "confederate": make_policy("ai")}, narrate=True
        )
        text += res.lines
    joined = "\n".join(text)
    for needle in ("on the stick", "Fog: thickness", "announces a charge", "hand-to-hand"):
        assert needle in joined, needle
    assert any(w in joined for w in ("shell at", "case at", "canister at", "solid shot at"))


def _at_move(scen: str, want: str) -> tuple[Battle, Request]:
    """A battle at the first move request of a unit of type ``want``."""
    b = new_battle(load_scenario(scen), Recorder(SeededSource(1)))
    ai = make_policy("ai", 1)
    for _ in range(500):
        req = b.next_request()
        assert req is not None
        if req.kind == "move" and b.state.units[req.actor].type == want:
            return b, req
        b.apply(req, ai.decide(b, req))
    raise AssertionError("no such request")


def test_a_charge_by_artillery_is_refused_and_nothing_changes() -> None:
    """003 XII.H.5: 'No other pieces may charge.'"""
    b, req = _at_move("stone_wall", "artillery")
    before = state_hash(b.state.to_json())
    enemy = next(v.i for v in b.state.units if v.side != b.state.units[req.actor].side)
    with pytest.raises(IllegalActionError, match="no other pieces may charge"):
        b.apply(req, ("charge", enemy))
    assert state_hash(b.state.to_json()) == before


def test_unknown_ammunition_and_canister_beyond_the_stick() -> None:
    """003 XI.A: the four rounds; canister by the rifle stick (27")."""
    b = new_battle(load_scenario("stone_wall"), Recorder(SeededSource(2)))
    ai = make_policy("ai", 2)
    for _ in range(2000):
        req = b.next_request()
        assert req is not None
        if req.kind == "fire" and b.state.units[req.actor].type == "artillery":
            break
        b.apply(req, ai.decide(b, req))
    u = b.state.units[req.actor]
    far = [v for v in b.state.units if v.alive and v.side != u.side and b.dist(u.i, v.i) > 27]
    near = [v for v in b.state.units if v.alive and v.side != u.side]
    before = state_hash(b.state.to_json())
    with pytest.raises(Exception, match="unknown ammunition type 'grape'"):
        b.apply(req, ("fire", near[0].i, "grape"))
    if far:
        with pytest.raises(IllegalActionError, match="canister only on the rifle stick"):
            b.apply(req, ("fire", far[0].i, "canister"))
    assert state_hash(b.state.to_json()) == before


def feed(monkeypatch: pytest.MonkeyPatch, answers: Iterator[str]) -> None:
    def fake_input(prompt: str = "") -> str:
        try:
            return next(answers)
        except StopIteration:
            raise EOFError from None

    monkeypatch.setattr("builtins.input", fake_input)


@pytest.mark.parametrize("scen", SCENARIOS)
def test_both_scenarios_play_through_the_cli(
    scen: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Any,
) -> None:
    """`umpire battle` AI against AI, and with --human (menu choice 1 every time), to the
    end; the saved games verify."""
    monkeypatch.setenv("UMPIRE_DB", str(tmp_path / "u.db"))
    assert main(["battle", scen, "--seed", "4", "--game", "ai"]) == 0
    out = capsys.readouterr().out
    assert "Result:" in out
    feed(monkeypatch, iter(["1"] * 3000))
    assert main(["battle", scen, "--seed", "5", "--human", "union", "--game", "h"]) == 0
    out = capsys.readouterr().out
    assert "Result:" in out and "1. " in out
    assert main(["games", "verify", "ai"]) == 0
    assert main(["games", "verify", "h"]) == 0
