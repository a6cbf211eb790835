"""Seed 000 at a real table (issue 9): each test names the seed sentence it serves.

Stoppage until the next turn, picks with physical dice (one d6 or a cup), rolls shown as they
happen, short lists and remembered answers, who answers, effects kept in the book, the
command line, and a scripted session of three game turns with physical dice that verifies.
"""

from __future__ import annotations

import json
import re
import sqlite3
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

from test_cwb_helpers import TWO_D6, act, d66, issue, last, new_game, texts
from umpire.cli.main import main
from umpire.dice import PhysicalSource, ScriptedSource
from umpire.engine import Decision, Event, Game, Option, ScriptedPolicy
from umpire.engine.context import Context, watching
from umpire.errors import DiceSourceError, IllegalActionError
from umpire.rules.cwb_events import MODULE, default_scenario
from umpire.rules.cwb_events.cli import TablePolicy

LEADER = [*TWO_D6[7]]


# ---------------------------------------------------------------- helpers
class Table:
    """Dice typed at the table: every request is kept with its purpose; answers in order."""

    def __init__(self) -> None:
        self.typed: list[str] = []
        self.asked: list[tuple[int, int, str]] = []

    def ask(self, n: int, sides: int, purpose: str) -> str:
        self.asked.append((n, sides, purpose))
        return self.typed.pop(0)


def table_game(start: str = "July 2 14:00", side: str = "confederate") -> tuple[Game, Table]:
    """A game started with physical dice whose faces come from ``Table.typed``."""
    table = Table()
    game = Game.new(MODULE, default_scenario(start), PhysicalSource(table.ask))
    if side == "union":
        game.act("next", {"skip_events": True})
    return game, table


def play_table(
    game: Game, table: Table, name: str, params: dict[str, Any], typed: list[str], **answers: Any
) -> Any:
    """One action with faces typed at the table and scripted answers per side."""
    table.typed = list(typed)
    policies = {s: ScriptedPolicy(list(answers.get(s, []))) for s in ("union", "confederate")}
    record = game.act(name, params, policies)
    assert table.typed == [], f"faces left over: {table.typed}"
    return record


class Spy:
    """Answers from a script and notes who was asked what (and what had been shown)."""

    kind = "scripted"

    def __init__(self, side: str, answers: list[Any], log: list[tuple[str, str]]) -> None:
        self.side, self.answers, self.log = side, list(answers), log

    def choose(self, decision: Decision, pick: Any) -> list[str]:
        self.log.append((decision.decider, decision.purpose))
        answer = self.answers.pop(0)
        return [answer] if isinstance(answer, str) else list(answer)


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """Run the CLI; return (exit code, stdout, stderr)."""
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.fixture
def typed(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """What the players type at the terminal, in order (faces, draws and answers)."""
    queue: list[str] = []

    def fake(prompt: str = "") -> str:
        if not queue:
            raise EOFError
        return queue.pop(0)

    monkeypatch.setattr("builtins.input", fake)
    yield queue


# ---------------------------------------------------------------- 1. stoppage until next turn
@pytest.mark.parametrize(
    ("side", "issuer", "to"), [("union", "meade", "hancock"), ("confederate", "lee", "hill")]
)
def test_stoppage_holds_until_next_turn(side: str, issuer: str, to: str) -> None:
    """Seed 000, Checking for Random Events: 'Note that all random events occur last in the
    Command Phase ... there is also nothing that can be done about an RE-imposed attack stoppage
    until the next turn at the earliest.'"""
    g = new_game(side=side)
    first = issue(g, side, issuer, to, "attack", status="A")
    for _ in range(2):
        act(g, "next", {"skip_events": True})
    act(g, "phase", {"side": side}, faces=[*TWO_D6[11], 1])
    cid = g.state["orders"][first]["corps"]
    assert g.state["corps"][cid]["stopped"]
    attack = {"side": side, "issuer": issuer, "recipient": to, "kind": "attack"}
    # 'all random events occur last in the Command Phase': no order step after the roll
    with pytest.raises(IllegalActionError, match="all random events occur last"):
        act(g, "order_issue", {**attack, "status": "A"})
    if side == "union":  # the Union player turn ends the game turn: the stop has lapsed
        act(g, "next")
        act(g, "order_issue", {**attack, "status": "A"})
        assert not g.state["corps"][cid]["stopped"]
        return
    act(g, "next")  # the Union player turn of the same game turn: the stop still holds
    with pytest.raises(IllegalActionError, match="cannot be accepted until the next turn"):
        act(g, "order_issue", {**attack, "status": "A"})
    delayed = issue(g, side, issuer, to, "attack", status="D2")
    with pytest.raises(IllegalActionError, match="Corps Attack Stoppage this turn"):
        act(g, "order_accept", {"order": delayed})
    with pytest.raises(IllegalActionError, match="roll it in that side's turn"):
        act(g, "order_roll", {"order": delayed}, faces=[6])
    transit = issue(g, side, issuer, to, "attack")
    with pytest.raises(IllegalActionError, match="until the next turn"):
        act(g, "order_arrive", {"order": transit, "result": "A"})
    issue(g, side, issuer, to, "move", status="A")  # other orders are not affected
    assert g.state["corps"][cid]["stopped"]
    for _ in range(2):
        act(g, "next", {"skip_events": True})
    act(g, "order_accept", {"order": delayed})
    assert g.state["corps"][cid]["attack_orders"] == [delayed]
    assert not g.state["corps"][cid]["stopped"]


def test_stoppage_refusal_on_the_command_line(
    capsys: pytest.CaptureFixture[str], typed: list[str]
) -> None:
    """Seed 000: 'nothing that can be done about an RE-imposed attack stoppage until the next
    turn': one line, exit 2, nothing saved."""
    run(capsys, "cwb", "new", "--game", "s", "--dice", "physical", "--date", "July 2")
    run(capsys, "cwb", "clock", "--date", "July 2", "--time", "14:00")
    code, _, err = run(
        capsys,
        "cwb",
        "order",
        "issue",
        "--from",
        "lee",
        "--to",
        "hill",
        "--kind",
        "attack",
        "--status",
        "A",
    )
    assert code == 0, err
    typed += ["5 6"]  # 11: Corps Attack Stoppage; one corps with attack orders: no roll
    code, out, err = run(capsys, "cwb", "phase")
    assert code == 0, err
    assert "only one to choose from" in out and "stops its attack" in out
    assert run(capsys, "cwb", "next")[0] == 0  # Union player turn, same game turn
    code, _, err = run(
        capsys,
        "cwb",
        "order",
        "issue",
        "--from",
        "lee",
        "--to",
        "hill",
        "--kind",
        "attack",
        "--status",
        "A",
    )
    assert code == 2 and err.count("\n") == 1 and "until the next turn" in err
    code, out, _ = run(capsys, "games", "list", "--json")
    assert next(r for r in json.loads(out) if r["name"] == "s")["actions"] == 4


# ---------------------------------------------------------------- 2. picks at the table
def test_table_pick_six_or_fewer_is_one_d6() -> None:
    """Seed 000, Random Events are Random: 'roll a die to choose which division (assuming there
    are 6 or fewer eligible divisions)': one d6, faces above the count rolled again."""
    g, table = table_game()
    rec = play_table(g, table, "phase", {}, ["3 4", "1 2", "5", "6", "2", "3"])
    assert last(g)["result"] == "ewell wounded"
    purposes = [p for _, _, p in table.asked]
    assert purposes[0] == "Confederate Random Event Table"
    assert purposes[1] == "Confederate Leader Table (d66)"
    pick = purposes[2]
    assert "one d6: 1 = James Longstreet (I Corps [1]), 2 = Richard S. Ewell (II Corps [2])" in pick
    assert pick.endswith("4-6 roll again)") and purposes[3] == pick
    assert [(n, s) for n, s, _ in table.asked[2:5]] == [(1, 6)] * 3
    rolls = [e for e in rec.events if e.kind == "roll" and "one d6" in e.data["purpose"]]
    assert [r.data["total"] for r in rolls] == [5, 6, 2]
    assert texts(rec, "note").count("picks nobody: roll the d6 again") == 2
    g.reexecute()


def test_table_pick_more_than_six_is_a_cup() -> None:
    """Seed 000, Random Events are Random: 'or place all potentially affected leaders in a cup
    and pull one out to determine the final result.'"""
    g, table = table_game(side="union")
    rec = play_table(g, table, "phase", {}, ["3 4", "1 2", "sedgwick", "2"])
    assert last(g)["result"] == "sedgwick wounded"
    cup = table.asked[2]
    assert (
        cup[:2] == (1, 7) and "draw one from a cup holding 1 John F. Reynolds (I Corps)" in cup[2]
    )
    draws = [e for e in rec.events if e.kind == "draw"]
    assert len(draws) == 1 and draws[0].data["how"] == "drawn from a cup at the table"
    assert draws[0].data["card"] == "John Sedgwick (VI Corps)" and len(draws[0].data["cup"]) == 7
    assert not any(e.kind == "roll" and e.data["expr"] == "d7" for e in rec.events)
    g.reexecute()  # the replay reads the drawn slip from the log


def test_cup_takes_a_number_or_a_name() -> None:
    """Seed 000: 'pull one out': the slip drawn is typed by its number or its name."""
    labels = ["Richard S. Ewell (II Corps [2])", "A. P. Hill (III Corps [3])", "Hood (H/1)"]
    assert PhysicalSource.parse_draw("2", labels) == 1
    assert PhysicalSource.parse_draw("  hill ", labels) == 1
    assert PhysicalSource.parse_draw("Hood (H/1)", labels) == 2
    for bad, why in (("9", "outside 1..3"), ("Lee", "not in the cup"), ("", "nothing typed")):
        with pytest.raises(DiceSourceError, match=re.escape(why)):
            PhysicalSource.parse_draw(bad, labels)
    with pytest.raises(DiceSourceError, match="matches 2 slips"):
        PhysicalSource.parse_draw("corps", labels)


def test_digital_picks_unchanged() -> None:
    """Seed 000, Random Events are Random: seeded and scripted dice keep the exact uniform pick
    with one d{n} (the same dice and the same log as before)."""
    g = new_game(side="union")
    rec = act(g, "phase", {"side": "union"}, faces=[*LEADER, *d66(12), 5, 2])
    picks = [e for e in rec.events if e.kind == "roll" and e.data["purpose"].startswith("random")]
    assert [p.data["expr"] for p in picks] == ["d7"] and last(g)["result"] == "sedgwick wounded"
    assert not any(e.kind == "draw" for e in rec.events)


def test_physical_request_says_what_the_roll_is_for() -> None:
    """Seed 000, Checking for Random Events: 'each player rolls on his own Random Events Table':
    the request names the table ('Union Random Event Table: roll 2d6'), not '2d6'."""
    g, table = table_game(side="union")
    play_table(g, table, "phase", {}, ["3 6"])  # 9: Withdraw Buford
    assert table.asked == [(2, 6, "Union Random Event Table")]


# ---------------------------------------------------------------- 3. shown as it happens
def test_rolls_shown_before_the_question_they_cause() -> None:
    """Seed 000, Check for Divisional commander loss: the players see the Random Event and Leader
    Table rolls before they are asked 'The Rebel player chooses two eligible division
    commanders'; the watcher is generic (any module's Context)."""
    g = new_game(side="union")
    seen: list[Event] = []
    at_question: list[list[str]] = []

    class Watchful(ScriptedPolicy):
        def choose(self, decision: Decision, pick: Any) -> list[str]:
            at_question.append([str(e.data.get("purpose", "")) for e in seen])
            return super().choose(decision, pick)

    g.source = ScriptedSource([*LEADER, *d66(21), 1, 4])
    policies = {
        "union": Watchful([["wadsworth", "robinson", "barlow"], ["barlow"]]),
        "confederate": Watchful([["wadsworth", "robinson"]]),
    }
    with watching(seen.extend):
        g.act("phase", {"side": "union"}, policies)
    assert at_question[0][:2] == ["Union Random Event Table", "Union Leader Table"]
    assert len(at_question) == 3

    class Tiny:
        id, name, seed, provides = "tiny", "tiny", "-", ()

        def initial_state(self, scenario: dict[str, Any]) -> dict[str, Any]:
            return {}

        def actions(self) -> Mapping[str, Any]:
            def go(ctx: Context, params: dict[str, Any]) -> None:
                ctx.roll("2d6", "a roll")
                ctx.decide("a", "which?", ["p", "q"])

            return {"go": go}

        def defaults(self) -> list[Any]:
            return []

    shown: list[str] = []
    tiny = Game.new(Tiny(), {}, ScriptedSource([3, 4]))  # type: ignore[arg-type]
    asked: list[list[str]] = []

    class Look(ScriptedPolicy):
        def choose(self, decision: Decision, pick: Any) -> list[str]:
            asked.append(list(shown))
            return super().choose(decision, pick)

    with watching(lambda evs: shown.extend(e.kind for e in evs)):
        tiny.act("go", {}, {"a": Look(["p"])})
    assert asked == [["roll"]]


def test_cli_shows_each_roll_before_the_question(
    capsys: pytest.CaptureFixture[str], typed: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Seed 000, Random Events are Random: the physical table sees its event roll before it
    is asked to draw from the cup ('place all potentially affected leaders in a cup')."""
    run(
        capsys,
        "cwb",
        "new",
        "--game",
        "w",
        "--dice",
        "physical",
        "--date",
        "July 2",
        "--time",
        "14:00",
    )
    seen_at: list[str] = []

    def fake(prompt: str = "") -> str:
        seen_at.append(capsys.readouterr().out)
        return {0: "4 6", 1: "Law's"}[len(seen_at) - 1]

    monkeypatch.setattr("builtins.input", fake)
    code, out, err = run(capsys, "cwb", "phase")
    assert code == 0, err
    assert "Ambush!" not in seen_at[0]
    assert "Confederate Random Event Table: 2d6 [4, 6] = 10" in seen_at[1]
    assert "L/H/1 Law's Brigade" in out and "drawn from a cup at the table" in out


# ---------------------------------------------------------------- 4. short lists, memory
def _long_list_policy(state: dict[str, Any], answers: list[str]) -> TablePolicy:
    return TablePolicy(state, ask=lambda prompt="": answers.pop(0))


def test_long_lists_asked_by_corps_and_remembered(capsys: pytest.CaptureFixture[str]) -> None:
    """Seed 000, Random Events and Leader Loss: 'division leaders must be within 8 hexes of an
    enemy unit to be eligible': asked by corps first, never more than 8 names a list, and the
    answer is kept for the next time ('same as before')."""
    g = new_game(side="union")
    answers = ["1 2", "1 2 4"]  # I and II Corps, then Wadsworth, Robinson, Caldwell
    g.source = ScriptedSource([*LEADER, *d66(21), 1, 4])
    policies = {
        "union": _long_list_policy(g.state, [*answers, "1"]),
        "confederate": ScriptedPolicy([["wadsworth", "robinson"]]),
    }
    g.act("phase", {"side": "union"}, policies)
    out = capsys.readouterr().out
    numbers = [int(m) for m in re.findall(r"^\s+(\d+)\. ", out, re.M)]
    assert max(numbers) <= 8, out
    assert "first, which corps?" in out and "I Corps (3)" in out
    memo = g.state["memory"]["eligibility: union division commanders within 8 hexes"]
    assert memo["answer"] == ["wadsworth", "robinson", "caldwell"]
    assert last(g)["result"] == "wadsworth wounded"
    for _ in range(2):
        act(g, "next", {"skip_events": True})
    g.source = ScriptedSource([*LEADER, *d66(21), 1, 4])
    policies = {
        "union": _long_list_policy(g.state, ["1", "1"]),
        "confederate": ScriptedPolicy([["robinson", "caldwell"]]),
    }
    rec = g.act("phase", {"side": "union"}, policies)
    out = capsys.readouterr().out
    first_question = out.split("> ")[0]
    assert "same as before: John C. Robinson (2/I division), John C. Caldwell" in first_question
    answer = next(e for e in rec.events if e.kind == "decision")
    assert answer.data["answer"] == ["robinson", "caldwell"]  # Wadsworth is no longer in play


def test_short_list_exact_pick_by_groups(capsys: pytest.CaptureFixture[str]) -> None:
    """Seed 000, Friendly Fire: 'The Rebel player chooses one Union unit': the units are asked
    by corps, then division, then among a few."""
    g = new_game(side="union")
    opts = tuple(Option(u) for u, d in g.state["units"].items() if d["side"] == "union")
    decision = Decision("confederate", "choose one", opts, 1, "Friendly Fire target")
    answers = ["2", "3", "1"]
    chosen = TablePolicy(g.state, ask=lambda p="": answers.pop(0)).choose(decision, lambda n, p: 0)
    assert len(chosen) == 1 and g.state["units"][chosen[0]]["corps"] == "II"
    assert answers == []
    numbers = [int(m) for m in re.findall(r"^\s+(\d+)\. ", capsys.readouterr().out, re.M)]
    assert max(numbers) <= 9


# ---------------------------------------------------------------- 5. who answers
WHO: list[tuple[str, str, list[int], dict[str, list[Any]], list[tuple[str, str]]]] = [
    (  # 'The Rebel player chooses two eligible division commanders, the Union player one.'
        "union",
        "division",
        [*LEADER, *d66(21), 1, 4],
        {
            "union": [["wadsworth", "robinson", "barlow"], ["barlow"]],
            "confederate": [["wadsworth", "robinson"]],
        },
        [
            ("union", "eligibility"),
            ("confederate", "confederate nominates"),
            ("union", "union nominates"),
        ],
    ),
    (  # 'The Union player chooses two eligible brigade commanders, the Confederate player one.'
        "confederate",
        "brigade",
        [*LEADER, *d66(26), 1, 4],
        {"confederate": [["archer", "davis", "lane"], ["lane"]], "union": [["archer", "davis"]]},
        [
            ("confederate", "eligibility"),
            ("union", "union nominates"),
            ("confederate", "confederate nominates"),
        ],
    ),
    (  # 'The Rebel player chooses one Union unit ... to suffer a fire attack.'
        "union",
        "friendly fire",
        [*LEADER, *d66(45), 1, 1, 5],
        {"confederate": ["Meredith/1/I"]},
        [("confederate", "Friendly Fire target")],
    ),
    (  # 'The Union player chooses one Confederate unit ... to suffer a fire attack.'
        "confederate",
        "friendly fire",
        [*LEADER, *d66(45), 1, 1, 5],
        {"union": ["A/H/3"]},
        [("union", "Friendly Fire target")],
    ),
    (  # 'The Confederate player gets to write one Loose Cannon order ... may decline'
        "union",
        "sickles",
        [*TWO_D6[5]],
        {"confederate": ["decline"]},
        [("confederate", "Sickles Saves the Day")],
    ),
    (  # 'each player rolls ... and applies the result': the Confederate states his troops' range
        "confederate",
        "longstreet",
        [*TWO_D6[5]],
        {"confederate": ["no"]},
        [("confederate", "Longstreet: troops within small-arms range")],
    ),
]


@pytest.mark.parametrize(("side", "what", "faces", "answers", "want"), WHO)
def test_who_answers_is_the_side_the_seed_names(
    side: str,
    what: str,
    faces: list[int],
    answers: dict[str, list[Any]],
    want: list[tuple[str, str]],
) -> None:
    """Seed 000: each question goes to the side the seed names; facts it gives to nobody are
    stated by the player whose event it is ('each player rolls on his own Random Events Table
    and applies the result (if any) immediately')."""
    g = new_game(side=side)
    log: list[tuple[str, str]] = []
    g.source = ScriptedSource(faces)
    policies = {s: Spy(s, answers.get(s, []), log) for s in ("union", "confederate")}
    g.act("phase", {"side": side}, policies)  # type: ignore[arg-type]
    assert len(log) == len(want), (what, log)
    for (decider, purpose), (w_decider, w_purpose) in zip(log, want, strict=True):
        assert decider == w_decider and purpose.startswith(w_purpose), (what, log)


def test_drag_feet_division_chosen_by_the_owner() -> None:
    """Seed 000, Longstreet Drags his Feet: 'He rolls only once per turn ... and chooses which
    division to commit upon each successful roll' (the Confederate player)."""
    g = new_game("July 2 14:00", side="confederate")
    oid = issue(g, "confederate", "lee", "longstreet", "attack", status="D4")
    act(g, "phase", {"side": "confederate"}, faces=[*TWO_D6[9], 1])
    for _ in range(2):
        act(g, "next", {"skip_events": True})
    log: list[tuple[str, str]] = []
    g.source = ScriptedSource([5])
    g.act("order_roll", {"order": oid}, {"confederate": Spy("confederate", ["H/1"], log)})  # type: ignore[dict-item]
    assert log == [("confederate", "Drags his Feet: division to commit")]


# ---------------------------------------------------------------- 6. effects in the book
def test_ambush_tracked_shown_and_expired() -> None:
    """Seed 000, Ambush!: 'For the next movement, defensive, and offensive fire phases, treat all
    straggler losses against all the units of any one brigade as permanent losses instead.'"""
    from umpire.rules.cwb_events.cli import _status

    g = new_game(side="union")
    rec = act(g, "phase", {"side": "union"}, faces=[*TWO_D6[10], 3])
    effect = g.state["effects"][0]
    assert effect["kind"] == "ambush" and effect["id"] == "e1"
    assert effect["phases"] == ["movement", "defensive fire", "offensive fire"]
    assert effect["until"] == "the end of the Union player turn of July 2 14:00"
    assert "(e1, until the end of the Union player turn" in texts(rec)
    in_force = _status(g.state)["in_force"]
    assert in_force[0]["id"] == "e1" and "permanent" in in_force[0]["text"]
    rec = act(g, "next", {"skip_events": True})
    assert g.state["effects"] == [] and g.state["effects_past"][0]["id"] == "e1"
    assert "Effect e1 ends: Ambush!" in texts(rec, "note")


@pytest.mark.parametrize(
    ("side", "divs", "edge", "army", "corps"),
    [
        ("union", ["1/I"], "south or east map edge", "meade", "hancock"),
        ("confederate", ["H/3"], "west map edge", "lee", "hill"),
    ],
)
def test_panic_orders_refusals_and_end(
    side: str, divs: list[str], edge: str, army: str, corps: str
) -> None:
    """Seed 000, Panic: 'No further attack orders may be issued by the Army commander, though
    initiative attack orders are still allowed. All corps must be issued orders to retreat off
    the south or east map edges ... The game ends once all Federals have left the map.'"""
    g = new_game(side=side)
    for d in divs:
        act(g, "wreck", {"division": d})
    rec = act(g, "phase", {"side": side}, faces=[6, 6, 1, 1])
    assert last(g)["result"] == "panic"
    retreats = [o for o in g.state["orders"].values() if o.get("panic")]
    in_play = {"union": 9, "confederate": 4}[side]
    assert len(retreats) == in_play
    assert {o["kind"] for o in retreats} == {"retreat"} and {o["status"] for o in retreats} == {
        "transit"
    }
    assert all(o["text"] == f"Retreat off the {edge} (Army Panic)" for o in retreats)
    assert all(o["issuer"] == army for o in retreats)
    assert "Retreat orders written" in texts(rec)
    for _ in range(2):
        act(g, "next", {"skip_events": True})  # orders wait for the next Command Phase
    with pytest.raises(IllegalActionError, match="no further attack orders"):
        act(g, "order_issue", {"issuer": army, "recipient": corps, "kind": "attack"})
    act(g, "order_issue", {"issuer": corps, "recipient": corps, "kind": "attack"})
    for uid, u in list(g.state["units"].items()):
        if u["side"] == side and u["status"] == "in_play":
            act(g, "exit", {"unit": uid})
    assert g.state["game_over"] and "left the map" in g.state["game_over"]


@pytest.mark.parametrize(("roll", "mover"), [(54, "union"), (64, "confederate")])
def test_random_movement_recorded(roll: int, mover: str) -> None:
    """Seed 000, Owning/Enemy player random movement: 'The Union player may move two of his
    regiments anywhere on the board up to 3 hexes'; 'the Rebel player gets to move those two
    Union regiments.'"""
    g = new_game(side="union")
    act(g, "phase", {"side": "union"}, faces=[*LEADER, *d66(roll)])
    e = g.state["effects"][0]
    assert (e["kind"], e["side"], e["mover"], e["count"], e["hexes"]) == (
        "random_movement",
        "union",
        mover,
        2,
        3,
    )
    with pytest.raises(IllegalActionError, match="1 to 2 regiments"):
        act(g, "moved", {"effect": "e1", "regiments": ["a", "b", "c"]})
    with pytest.raises(IllegalActionError, match="no effect 'e9'"):
        act(g, "moved", {"effect": "e9", "regiments": ["a"]})
    rec = act(g, "moved", {"effect": "e1", "regiments": ["20th Maine", "83rd Pennsylvania"]})
    assert g.state["effects"][0]["regiments"] == ["20th Maine", "83rd Pennsylvania"]
    assert "20th Maine, 83rd Pennsylvania" in texts(rec, "note")
    with pytest.raises(IllegalActionError, match="already recorded"):
        act(g, "moved", {"effect": "e1", "regiments": ["1st Minnesota"]})


def test_friendly_fire_checks_recorded() -> None:
    """Seed 000, Friendly Fire: 'Resolve the fire on the 4-6 column ... Check stragglers and
    morale normally, as if it were a flank attack.'"""
    g = new_game(side="union")
    act(
        g, "phase", {"side": "union"}, faces=[*LEADER, *d66(45), 2, 3], confederate=["Meredith/1/I"]
    )
    e = g.state["effects"][0]
    assert (e["kind"], e["unit"], e["steps"], e["checks"]) == (
        "friendly_fire",
        "Meredith/1/I",
        1,
        None,
    )
    with pytest.raises(IllegalActionError, match="unknown morale result 'shaken'"):
        act(g, "checks", {"effect": "e1", "stragglers": 1, "morale": "shaken"})
    act(g, "checks", {"effect": "e1", "stragglers": "2", "morale": "disorganized"})
    assert g.state["effects"][0]["checks"] == {"stragglers": 2, "morale": "disorganized"}


# ---------------------------------------------------------------- 7. the command line
def test_phase_side_from_the_clock_and_game_from_the_store(
    capsys: pytest.CaptureFixture[str], typed: list[str], tmp_path: Path
) -> None:
    """Seed 000: 'No Union Random Even can occur during a Confederate Player Turn, or
    vice-versa': the phase knows whose turn it is; the game is the one played last."""
    run(capsys, "cwb", "new", "--game", "a", "--seed", "3", "--date", "July 2", "--time", "14:00")
    run(capsys, "cwb", "new", "--game", "b", "--seed", "4", "--date", "July 2", "--time", "14:00")
    code, out, err = run(capsys, "cwb", "phase", "--policy", "random")
    assert code == 0, err
    assert out.startswith("game 'b' (the cwb game played last)")
    assert "Confederate Random Event Table" in out
    code, out, _ = run(capsys, "cwb", "next", "--game", "a", "--skip-events")
    code, out, _ = run(capsys, "cwb", "status", "--json")
    assert json.loads(out)["player_turn"] == "union"  # 'a' was played last
    code, _, err = run(capsys, "cwb", "phase", "--side", "confederate", "--policy", "random")
    assert code == 2 and "it is the Union player turn" in err and err.count("\n") == 1
    db = sqlite3.connect(tmp_path / "umpire.db")
    with db:
        db.execute("UPDATE actions SET created = '2001-01-01T00:00:00+00:00'")
        db.execute("UPDATE games SET created = '2001-01-01T00:00:00+00:00'")
    db.close()
    code, _, err = run(capsys, "cwb", "status")
    assert code == 2 and err.count("\n") == 1
    assert "several cwb games are open (a, b)" in err and "--game" in err


def test_one_name_everywhere_and_status_tables(capsys: pytest.CaptureFixture[str]) -> None:
    """Seed 000, Check for corps commander loss: 'Choose randomly from all in-play corps
    commanders ...': narration and status name him the same way (name and command), and status
    shows the lost leaders, their replacements, orders, limits and effects in force."""
    run(capsys, "cwb", "new", "--game", "n", "--seed", "1", "--date", "July 2", "--time", "14:00")
    code, out, err = run(capsys, "cwb", "leader-loss", "ewell", "--status", "killed")
    assert code == 0, err
    assert "Richard S. Ewell (II Corps [2]) is killed" in out
    run(capsys, "cwb", "order", "issue", "--from", "lee", "--to", "hill", "--kind", "attack")
    code, out, _ = run(capsys, "cwb", "status")
    assert "II Corps [2]" in out and "Early" in out and "replacement" in out and "killed" in out
    for word in ("leaders lost", "orders", "limits", "Arrest that General!", "transit"):
        assert word in out, word
    code, out, _ = run(capsys, "cwb", "status", "--json")
    lost = json.loads(out)["sides"]["confederate"]["casualties"][0]
    assert lost["label"] == "Richard S. Ewell (II Corps [2])" and lost["status"] == "killed"
    assert lost["replaced_by"] == "early" and lost["at"] == "July 2 14:00"
    assert lost["replaced_by_label"] == "Jubal A. Early (II Corps [2], replacement)"


# ---------------------------------------------------------------- 8. a session at the table
def test_three_turns_with_physical_dice_then_verify(
    capsys: pytest.CaptureFixture[str], typed: list[str]
) -> None:
    """Seed 000 at a real table, three game turns with physical dice: 'roll a die to choose ...
    (assuming there are 6 or fewer eligible ...) or place all potentially affected leaders in a
    cup and pull one out'; Ambush!; a Panic ('All corps must be issued orders to retreat');
    then `umpire games verify`."""

    def step(*args: str, faces: tuple[str, ...] = ()) -> str:
        typed[:] = list(faces)
        code, out, err = run(capsys, *args)
        assert code == 0, (args, err)
        assert typed == [], (args, typed)
        return out

    step("cwb", "new", "--game", "s", "--dice", "physical", "--date", "July 2", "--time", "14:00")
    # Turn 1, 14:00. Confederate: 10 Ambush!, 38 brigades: a cup.
    out = step("cwb", "phase", faces=("4 6", "Law's"))
    assert "drawn from a cup at the table → L/H/1 Law's Brigade (1 of 38)" in out
    out = step("cwb", "status")
    assert "Ambush!" in out and "e1" in out
    step("cwb", "next")
    # Union: 7 Leader Table; 12 corps commander loss among 7: a cup; 2 wounded.
    out = step("cwb", "phase", faces=("3 4", "1 2", "Sedgwick", "2"))
    assert "John Sedgwick (VI Corps) is wounded" in out
    step("cwb", "next")
    # Turn 2, 14:20. Confederate: corps commander loss among 3: one d6, 5 rolled again.
    out = step("cwb", "phase", faces=("3 4", "1 2", "5", "2", "3"))
    assert "5 picks nobody" in out and "Richard S. Ewell (II Corps [2]) is wounded" in out
    step("cwb", "next")
    # Union: a wrecked division, then 12 Panic Check, d66 11: band 1 <= row 1: panic.
    step("cwb", "wreck", "1/I")
    out = step("cwb", "phase", faces=("6 6", "1 1"))
    assert "PANIC" in out and "Retreat orders written" in out
    typed[:] = []
    code, _, err = run(  # 'all random events occur last in the Command Phase'
        capsys, "cwb", "order", "issue", "--from", "hancock", "--to", "hancock", "--kind", "attack"
    )
    assert code == 2 and "all random events occur last in the Command Phase" in err
    step("cwb", "next")
    code, _, err = run(
        capsys, "cwb", "order", "issue", "--from", "meade", "--to", "hancock", "--kind", "attack"
    )
    assert code == 2 and "no further attack orders" in err
    step("cwb", "order", "issue", "--from", "hancock", "--to", "hancock", "--kind", "attack")
    # Turn 3, 14:40. Confederate: 3 Leader Table, 55 owner random movement, recorded at once.
    out = step("cwb", "phase", faces=("1 2", "5 5", "1st Texas; 4th Alabama"))
    assert "moves 1st Texas, 4th Alabama" in out
    step("cwb", "next")
    # Union: 8 Orders Delay among 10 open orders (9 retreats and the initiative attack): a cup.
    out = step("cwb", "phase", faces=("2 6", "10"))
    assert "drawn from a cup at the table → o10" in out
    step("cwb", "next")
    out = step("cwb", "status")
    for word in ("Army Panic", "retreat", "John Sedgwick (VI Corps)", "leaders lost"):
        assert word in out, word
    step("cwb", "army-left", "--side", "union")
    code, out, err = run(capsys, "cwb", "status", "--json")
    assert json.loads(out)["game_over"].startswith("the Union army has left the map")
    code, out, err = run(capsys, "games", "verify", "s")
    assert code == 0, err
    assert out.startswith("OK: 16 actions")
