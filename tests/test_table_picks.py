"""Random picks the table's way, for every module (issue 9: "the same care applies to the
tactical modules where the same pattern appears").

Seed 000, Random Events are Random: "roll a die to choose ... (assuming there are 6 or fewer
eligible ...) or place all potentially affected leaders in a cup and pull one out". The
engine's ``Context.pick_one`` and the tactical engine's ``Battle.pick`` make every module's
random pick that way when the game's dice are real ones, and with one exact die otherwise.
Seed 004 (activation by card draw): "Side A draws one card (without looking)": with real
dice the card is drawn from the box and its name typed in.
"""

from __future__ import annotations

import re
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from umpire.battle.game import pending, pending_actor
from umpire.battle.roles import offered
from umpire.battle.scenario import load_scenario
from umpire.cli.main import main
from umpire.dice import PhysicalSource, ScriptedSource, SeededSource
from umpire.engine import Game
from umpire.engine.context import Context
from umpire.rules import get_module
from umpire.store import Store
from umpire.store.verify import verify_export


class Table:
    """Real dice: faces come from a script (a constant face when it runs dry); cup draws
    from another, each request kept with its purpose."""

    def __init__(self, faces: list[int] | None = None, slips: list[str] | None = None):
        self.faces = list(faces or [])
        self.slips = list(slips or [])
        self.asked: list[tuple[int, int, str]] = []
        self.cups: list[tuple[list[str], str]] = []

    def ask(self, n: int, sides: int, purpose: str) -> str:
        self.asked.append((n, sides, purpose))
        out = [self.faces.pop(0) if self.faces else min(3, sides) for _ in range(n)]
        return " ".join(str(f) for f in out)

    def draw(self, labels: list[str], purpose: str) -> str:
        self.cups.append((list(labels), purpose))
        return self.slips.pop(0) if self.slips else labels[0]


def ctx_at_table(table: Table) -> Context:
    return Context({}, PhysicalSource(table.ask, table.draw), {}, at_table=True)


def test_up_to_six_is_one_d6_with_out_of_range_faces_rolled_again() -> None:
    """000: 'roll a die to choose ... (assuming there are 6 or fewer eligible ...)'."""
    table = Table(faces=[6, 4, 2])
    ctx = ctx_at_table(table)
    index = ctx.pick_one(["Archer", "Davis", "Pettigrew"], "a brigade at random")
    assert index == 1  # 6 and 4 pick nobody; 2 = Davis
    assert [sides for _, sides, _ in table.asked] == [6, 6, 6]
    assert "1 = Archer, 2 = Davis, 3 = Pettigrew; 4-6 roll again" in table.asked[0][2]
    notes = [e.data["text"] for e in ctx.events if e.kind == "note"]
    assert notes == ["6 picks nobody: roll the d6 again.", "4 picks nobody: roll the d6 again."]
    assert [e.data["total"] for e in ctx.events if e.kind == "roll"] == [6, 4, 2]


def test_more_than_six_is_a_cup_draw_logged_as_made_at_the_table() -> None:
    """000: 'place all potentially affected leaders in a cup and pull one out'."""
    names = [f"Brigade {c}" for c in "ABCDEFGH"]
    table = Table(slips=["brigade f"])
    ctx = ctx_at_table(table)
    assert ctx.pick_one(names, "a brigade at random") == 5
    assert table.asked == [] and table.cups == [(names, "a brigade at random")]
    (draw,) = [e.data for e in ctx.events if e.kind == "draw"]
    assert draw["how"] == "drawn from a cup at the table" and draw["card"] == "Brigade F"


def test_cup_forces_a_draw_even_among_few() -> None:
    """004: cards are drawn from the box, however few are left."""
    table = Table(slips=["2"])
    ctx = ctx_at_table(table)
    assert ctx.pick_one(["Archer", "Davis"], "card draw", cup=True) == 1
    assert table.asked == [] and len(table.cups) == 1


def test_digital_dice_pick_with_one_exact_die() -> None:
    """Seeded dice keep their exact uniform pick: one d{n}, logged."""
    ctx = Context({}, ScriptedSource([5]), {})
    assert ctx.pick_one([str(i) for i in range(7)], "a pick") == 4
    (roll,) = [e.data for e in ctx.events if e.kind == "roll"]
    assert roll["expr"] == "d7" and roll["total"] == 5


def test_the_table_d6_pick_is_uniform() -> None:
    """The d6-with-re-roll pick is exactly uniform: enumerate two throws' worth of faces
    (sequences that stop), weighting each by (1/6)^k, for n = 1..6."""
    for n in range(2, 7):
        weights: dict[int, Fraction] = {}
        stack: list[list[int]] = [[f] for f in range(1, 7)]
        while stack:
            seq = stack.pop()
            if seq[-1] <= n:
                table = Table(faces=list(seq))
                ctx = ctx_at_table(table)
                index = ctx.pick_one([str(i) for i in range(n)], "p")
                assert table.faces == []
                weights[index] = weights.get(index, Fraction(0)) + Fraction(1, 6 ** len(seq))
            elif len(seq) < 6:
                stack.extend([*seq, f] for f in range(1, 7))
        total = sum(weights.values(), Fraction(0))
        assert len(weights) == n
        for i in range(n):  # equal shares of what the enumeration covered
            assert weights[i] / total == Fraction(1, n)


def _cards_game(table: Table) -> Game:
    scen = load_scenario("mcpherson_cards")
    return Game.new(get_module("battle"), scen.to_json(), PhysicalSource(table.ask, table.draw))


def _first_order(game: Game) -> dict[str, Any]:
    """The params of the first legal order offered for the pending request."""
    b, req = pending(game)
    actor = pending_actor(game)
    assert req is not None and actor is not None
    return {"actor": actor, "order": list(offered(b, req)[0].order)}


def _run_turns(game: Game, actions: int) -> None:
    game.act("start", {})
    for _ in range(actions):
        if pending_actor(game) is None:
            break
        game.act("order", _first_order(game))


def test_card_draw_with_real_dice_is_a_draw_from_the_box() -> None:
    """004: 'Side A draws one card (without looking)': with real dice the players draw the
    card from the box and type it; the log says so, and the game re-executes."""
    table = Table()
    game = _cards_game(table)
    _run_turns(game, 6)
    assert table.cups, "no card was drawn from the box"
    labels, purpose = table.cups[0]
    assert purpose.startswith("card draw") and len(labels) > 6
    assert not any("card draw" in p for _, _, p in table.asked)  # never a d17
    assert all(sides <= 20 for _, sides, _ in table.asked)
    draws = [e.data for e in game.events if e.kind == "draw"]
    assert draws and all(d["how"] == "drawn from a cup at the table" for d in draws)
    game.reexecute()


def test_card_draw_with_seeded_dice_is_one_exact_die() -> None:
    """Seeded dice: the card is one d{n} over the cards left in the box, as before."""
    scen = load_scenario("mcpherson_cards")
    game = Game.new(get_module("battle"), scen.to_json(), SeededSource(7))
    game.act("start", {})
    rolls = [e.data for e in game.events if e.kind == "roll" and "card draw" in e.data["purpose"]]
    box = game.state["battle"]["extra"]["cards"]["total"]  # the box as shuffled
    assert rolls and rolls[0]["expr"] == f"d{box}"
    assert not [e for e in game.events if e.kind == "draw"]


def test_a_physical_game_saved_and_loaded_counts_its_dice_on(tmp_path: Any) -> None:
    """The store rebuilds a physical game's dice at the log's position, so the next action's
    rolls are logged where they fall and the export verifies."""
    table = Table()
    store = Store(str(tmp_path / "t.db"))
    game = _cards_game(table)
    store.create("g", game)
    rec = store.play("g", game, "start", {})
    used = sum(len(d[2]) for e in rec.events for d in e.data.get("draws", []))
    assert used > 0
    loaded = store.load("g", physical=table.ask, draw=table.draw)
    assert loaded.source.position == used
    store.play("g", loaded, "order", _first_order(loaded))
    report = verify_export(store.export("g"))
    assert report.dice >= used


def test_a_battle_played_with_real_dice_at_the_prompt(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """`umpire battle SCENARIO --dice physical`: each roll is asked for with what it is for
    (a unit's name, not an id), each card is drawn from the box, the battle is saved as it
    goes and verifies. Seed 004: 'Side A draws one card (without looking)'."""
    monkeypatch.setenv("UMPIRE_DB", str(tmp_path / "u.db"))
    prompts: list[str] = []

    def typed(prompt: str = "") -> str:
        prompts.append(prompt)
        if prompt.startswith("Drawn"):
            return "1"
        found = re.search(r"roll (\d+)d(\d+)", prompt)
        assert found, prompt
        n, sides = int(found[1]), int(found[2])
        return " ".join(str(min(len(prompts) % sides + 1, sides)) for _ in range(n))

    monkeypatch.setattr("builtins.input", typed)
    code = main(["battle", "mcpherson_cards", "--dice", "physical", "--game", "t"])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert "Result:" in out and "Saved as game 't'" in out
    cups = [p for p in prompts if p.startswith("Drawn")]
    assert cups and "card draw: one card from the box: put these" in out
    fires = [p for p in prompts if " fires at " in p]
    assert fires and all(re.match(r"[^:]*[A-Z][a-z]", p) for p in fires)
    assert not [p for p in prompts if re.search(r"roll 1d(1[0-9]|[7-9])\b", p)]
    assert main(["games", "verify", "t"]) == 0, capsys.readouterr()


def test_physical_battle_refuses_a_seed(capsys: pytest.CaptureFixture[str]) -> None:
    """Real dice have no seed: one line, exit 2."""
    code = main(["battle", "mcpherson_cards", "--dice", "physical", "--seed", "3"])
    _, err = capsys.readouterr()
    assert code == 2 and err.count("\n") == 1 and "drop --seed" in err
