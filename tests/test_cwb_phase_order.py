"""Seed 000, the Gettysburg command phase in order (issue 21): each test names the seed
sentence it holds and checks what the players see (the printed or logged lines)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from test_cwb_helpers import TWO_D6, act, d66, issue, new_game, texts
from umpire.cli.main import main
from umpire.errors import IllegalActionError, UmpireError
from umpire.rules.cwb_events.cli import TablePolicy

EVENTS_LAST = "all random events occur last in the Command Phase"


@pytest.fixture
def db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A fresh save file for each test."""
    path = tmp_path / "games.db"
    monkeypatch.setenv("UMPIRE_DB", str(path))
    yield path


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """Run the CLI; return (exit code, stdout, stderr)."""
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


def notes(record: object) -> str:
    """Every note and instruction of an action, joined."""
    return texts(record, "note") + "\n" + texts(record)  # type: ignore[arg-type]


# ------------------------------------------------------------------ events come last
def test_seed000_events_last_refuses_order_steps_after_the_roll() -> None:
    """Seed 000: 'Note that all random events occur last in the Command Phase sequence':
    after the random-event step, order issue, arrive, accept and roll wait for the next
    Command Phase, each refused in one line."""
    g = new_game()
    o1 = issue(g, "confederate", "lee", "longstreet", "attack")  # before the roll: allowed
    o2 = issue(g, "confederate", "lee", "ewell", "move", status="D3")
    act(g, "phase", {}, faces=TWO_D6[11])  # Corps Attack Stoppage: no corps attacking
    steps = [
        ("order_issue", {"issuer": "lee", "recipient": "hill", "kind": "attack"}),
        ("order_arrive", {"order": o1, "result": "A"}),
        ("order_accept", {"order": o2}),
        ("order_roll", {"order": o2}),
    ]
    for name, params in steps:
        with pytest.raises(IllegalActionError, match=EVENTS_LAST) as err:
            act(g, name, params)
        assert "\n" not in str(err.value)
    act(g, "next")
    act(g, "next", {"skip_events": True})  # the next Confederate Command Phase
    act(g, "order_arrive", {"order": o1, "result": "A"})
    assert g.state["orders"][o1]["status"] == "accepted"


def test_seed000_events_last_cli_line(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Seed 000, 'all random events occur last in the Command Phase': the issue's own case,
    July 2 14:00 `cwb phase` then `cwb order issue --from lee --to longstreet --kind attack`."""
    run(capsys, "cwb", "new", "--seed", "1863", "--date", "July 2", "--time", "14:00")
    assert run(capsys, "cwb", "phase", "--policy", "random")[0] == 0
    code, out, err = run(
        capsys, "cwb", "order", "issue", "--from", "lee", "--to", "longstreet", "--kind", "attack"
    )
    assert code == 2 and "Order o" not in out
    line = err.strip().splitlines()[-1]
    assert line.startswith(
        "umpire: error: cwb order issue refused: the Confederate random events of"
    )
    assert EVENTS_LAST in line


def test_seed000_longstreet_free_order_is_written_by_the_event() -> None:
    """Seed 000, Longstreet Moves to the Right: 'this order allows Longstreet to immediately
    write one attack order to himself': the event writes it in its phase, though the players'
    own order steps are closed after the roll."""
    g = new_game()
    rec = act(g, "phase", {}, faces=TWO_D6[5], confederate=["no"])
    assert "Longstreet writes one attack order to himself (o1, a free initiative)" in texts(rec)
    assert g.state["orders"]["o1"]["status"] == "accepted"
    with pytest.raises(IllegalActionError, match=EVENTS_LAST):
        act(g, "order_issue", {"issuer": "longstreet", "recipient": "longstreet", "kind": "attack"})


def test_seed000_sickles_loose_cannon_is_written_by_the_event() -> None:
    """Seed 000, Sickles Saves the Day: 'The Confederate player gets to write one Loose Cannon
    order for a randomly selected Union corps in play': written by the event in its phase."""
    g = new_game(side="union")
    rec = act(g, "phase", {}, faces=[*TWO_D6[5], 1], confederate=["write"])
    assert "Confederate player: write a Loose Cannon order (o1)" in texts(rec)
    assert g.state["orders"]["o1"]["kind"] == "loose_cannon"


# ------------------------------------------------------------------ one roll, none skipped
def test_seed000_next_asks_for_the_roll_first() -> None:
    """Seed 000: 'During each command phase ... each player rolls on his own Random Events
    Table': `next` refuses while the phasing side has not rolled; --skip-events is logged."""
    g = new_game()
    with pytest.raises(IllegalActionError, match="have not been rolled") as err:
        act(g, "next")
    assert "--skip-events" in str(err.value)
    rec = act(g, "next", {"skip_events": True})
    assert "The Confederate random events of July 2 14:00 are skipped (--skip-events)" in notes(rec)
    assert rec.params == {"skip_events": True}


def test_seed000_next_cli_lines(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Seed 000, 'each player rolls on his own Random Events Table': what the table sees."""
    run(capsys, "cwb", "new", "--seed", "2", "--date", "July 2", "--time", "14:00")
    code, out, err = run(capsys, "cwb", "next")
    assert code == 2 and "Now:" not in out
    assert (
        "umpire: error: the Confederate random events of July 2 14:00 have not been rolled "
        "(one roll each Command Phase): roll them with `umpire cwb phase`, or skip them with "
        "`umpire cwb next --skip-events` (the log records it)"
    ) in err
    code, out, _ = run(capsys, "cwb", "next", "--skip-events")
    assert code == 0
    assert "The Confederate random events of July 2 14:00 are skipped (--skip-events)" in out
    assert "Now: July 2 14:00, Union player turn." in out


# ------------------------------------------------------------------ the clock goes forward
def test_seed000_clock_never_goes_back() -> None:
    """Seed 000: 'nothing that can be done about an RE-imposed attack stoppage until the next
    turn at the earliest': the clock cannot go back (14:00 -> 13:40) nor set the same player
    turn again (a second roll); going back is `games undo`."""
    g = new_game()
    act(g, "phase", {}, faces=TWO_D6[11])
    for date, time, side in (
        ("July 2", "13:40", "confederate"),
        ("July 2", "14:00", "confederate"),
        ("July 1", "19:00", "union"),
    ):
        with pytest.raises(IllegalActionError, match="the clock only moves forward") as err:
            act(g, "clock_set", {"date": date, "time": time, "side": side})
        assert "games undo" in str(err.value)
    rec = act(g, "clock_set", {"date": "July 2", "time": "14:00", "side": "union"})
    assert "Clock set to July 2 14:00, Union player turn." in notes(rec)
    assert g.state["clock"]["phase_done"] is False


def test_seed000_going_back_is_games_undo_which_is_logged(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Seed 000: 'nothing that can be done about an RE-imposed attack stoppage until the next
    turn at the earliest': `cwb clock` refuses to go back and names `games undo`; the undo is
    seen in `games show` with the roll it withdrew (and kept in the export)."""
    run(capsys, "cwb", "new", "--game", "u", "--seed", "5", "--date", "July 2", "--time", "14:00")
    assert run(capsys, "cwb", "phase", "--policy", "random")[0] == 0
    code, _, err = run(capsys, "cwb", "clock", "--date", "July 2", "--time", "13:40")
    assert code == 2 and "use `umpire games undo` (logged)" in err
    assert run(capsys, "games", "undo", "u")[0] == 0
    code, out, _ = run(capsys, "games", "show", "u")
    assert code == 0
    line = next(ln for ln in out.splitlines() if ln.startswith("beside the log: "))
    assert "Undo: terminal asked" in line and "withdrawn: 1 phase (dice " in line
    assert line.endswith("now at action 0")
    code, out, _ = run(capsys, "games", "show", "u", "--json")
    assert [r["kind"] for r in json.loads(out)["records"]] == ["undo"]


# ------------------------------------------------------------------ orders and lost leaders
def test_seed000_order_to_lost_leader_goes_to_replacement() -> None:
    """Seed 000, Lee is a Casualty: 'removed from play and immediately replaced': an order to a
    lost leader goes to his replacement, and Drags his Feet then finds it."""
    g = new_game()
    oid = issue(g, "confederate", "lee", "hill", "attack", status="D4")
    rec = act(g, "leader_loss", {"leader": "hill", "status": "killed"})
    new = g.state["leaders"]["hill"]["replaced"]
    assert g.state["orders"][oid]["recipient"] == new
    assert f"Order {oid} (attack) now goes to" in notes(rec)
    act(g, "next", {"skip_events": True})
    act(g, "next", {"skip_events": True})
    rec = act(g, "phase", {}, faces=[*TWO_D6[9], 1])  # Longstreet Drags his Feet
    assert f"order {oid} to" in texts(rec) and "no order" not in notes(rec)


def test_seed000_new_order_to_lost_leader_refused() -> None:
    """Seed 000, Random Events and Leader Loss: 'Any leader selected for loss must actually be
    in play': a killed, wounded or arrested leader takes no new order (Hill, Rowley)."""
    g = new_game()
    act(g, "leader_loss", {"leader": "hill", "status": "wounded"})
    with pytest.raises(IllegalActionError, match="no new order to a lost leader") as err:
        act(g, "order_issue", {"issuer": "lee", "recipient": "hill", "kind": "attack"})
    assert "is wounded (since July 2 14:00)" in str(err.value) and "write it to" in str(err.value)
    g2 = new_game(side="union")
    act(g2, "leader_loss", {"leader": "rowley", "status": "killed"})
    with pytest.raises(IllegalActionError, match="no new order to a lost leader"):
        act(g2, "order_issue", {"issuer": "meade", "recipient": "rowley"})


def test_seed000_gap4_order_arriving_in_delay_not_rolled_same_turn() -> None:
    """Default delay_acceptance (rules-notes 000: 'an order in Dn is accepted in a later
    Command Phase on 1d6 >= n'): an order arriving at D2 is not rolled for that turn."""
    g = new_game()
    oid = issue(g, "confederate", "lee", "ewell")
    rec = act(g, "order_arrive", {"order": oid, "result": "D2"})
    assert (
        f"Order {oid} arrives in delay (D2) with Richard S. Ewell (II Corps [2]): roll its "
        f"acceptance (1d6 >= 2) in a later Command Phase"
    ) in texts(rec)
    with pytest.raises(IllegalActionError, match="arrived this turn in D2"):
        act(g, "order_roll", {"order": oid})
    act(g, "next", {"skip_events": True})
    act(g, "next", {"skip_events": True})
    rec = act(g, "order_roll", {"order": oid}, faces=[2])
    assert g.state["orders"][oid]["status"] == "accepted"


def test_seed000_order_arrive_says_what_happened() -> None:
    """Default order_states: 'on arrival is accepted (A), delayed (D1..D6) or lost (Dt)':
    `order arrive` says which."""
    g = new_game()
    a = issue(g, "confederate", "lee", "ewell")
    t = issue(g, "confederate", "lee", "hill")
    rec = act(g, "order_arrive", {"order": a, "result": "A"})
    assert f"Order {a} arrives and is accepted by Richard S. Ewell" in texts(rec)
    rec = act(g, "order_arrive", {"order": t, "result": "Dt"})
    assert f"Order {t} arrives and is lost (Dt)" in texts(rec)


# ------------------------------------------------------------------ what the players read
@pytest.mark.parametrize(("before", "after"), [("D4", "D5"), ("D6", "Dt")])
def test_seed000_orders_delay_message(before: str, after: str) -> None:
    """Seed 000, Orders Delay: 'For example, a D4 would become a D5, a D6 would become a Dt.'"""
    g = new_game()
    oid = issue(g, "confederate", "lee", "ewell", status=before)
    rec = act(g, "phase", {}, faces=[*TWO_D6[8], 1])
    assert f"Order {oid} goes from {before} to {after}" in texts(rec)
    assert g.state["orders"][oid]["status"] == after


def test_seed000_replacement_of_replacement_named() -> None:
    """Seed 000, Check for Brigade commander loss ('Ignore replacement leaders'): a replacement
    of a replacement is named by who he is, not 'Replacement for Replacement for ...'."""
    g = new_game()
    act(g, "leader_loss", {"leader": "law", "status": "killed"})
    first = g.state["units"]["L/H/1"]["leader"]
    rec = act(g, "leader_loss", {"leader": first, "status": "wounded"})
    second = g.state["units"]["L/H/1"]["leader"]
    name = g.state["leaders"][second]["name"]
    assert name == f"Col. {second}, replacing Law"
    assert "Replacement for" not in notes(rec)


def test_seed000_panic_names_army_commander_in_command() -> None:
    """Seed 000, Union Panic: 'If Panic occurs, Meade decides to retreat to Pipe Creek': after
    Meade is killed the message names the ranking corps commander who replaced him."""
    g = new_game(side="union")
    act(g, "leader_loss", {"leader": "meade", "status": "killed"})
    act(g, "wreck", {"division": "1/I"})
    rec = act(g, "phase", {}, faces=[*TWO_D6[12], *d66(11)])
    head = g.state["armies"]["union"]["commander"]
    name = g.state["leaders"][head]["name"]
    assert f"PANIC: {name} decides to retreat to Pipe Creek" in texts(rec)
    assert "Meade decides" not in texts(rec)


def test_seed000_panic_zero_chance_not_rolled() -> None:
    """Seed 000, Panic Check: 'Add up the number of infantry divisions currently wrecked':
    with none (and no shift) the chance is 0 and no Panic Table roll is made."""
    g = new_game(side="union")
    rec = act(g, "phase", {}, faces=TWO_D6[12])  # no more faces: a panic roll would fail
    assert "No Panic Table roll: with row 0 the army cannot panic." in notes(rec)
    assert not any(e.kind == "lookup" and "Panic" in str(e.data) for e in rec.events[2:])


def test_seed000_status_lists_only_leaders_in_play(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Seed 000: 'Any leader selected for loss must actually be in play': status names only
    leaders in play as commanders (Longstreet has not arrived at July 1 05:00)."""
    run(capsys, "cwb", "new", "--seed", "2")
    code, out, _ = run(capsys, "cwb", "status", "--json")
    assert code == 0
    corps = json.loads(out)["sides"]["confederate"]["corps"]["1"]
    assert corps["commander_name"] == "none in play (James Longstreet: not yet arrived)"


# ------------------------------------------------------------------ the prompt
def test_seed000_prompt_asks_again_until_right() -> None:
    """The cwb prompt asks again after each wrong entry, as many times as needed."""
    from umpire.engine import Decision, Option

    answers = ["x", "9", "yes please", "0", "-1", "zz", "2"]
    policy = TablePolicy(new_game().state, ask=lambda p="": answers.pop(0))
    decision = Decision("union", "Pick", (Option("a"), Option("b")), 1, "test")
    assert policy.choose(decision, lambda n, p: 0) == ["b"]


@pytest.mark.parametrize("word", ["q", "quit", " QUIT "])
def test_seed000_prompt_q_and_quit_quit(word: str) -> None:
    """`q` and `quit` both quit the cwb prompt (nothing saved)."""
    from umpire.engine import Decision, Option

    policy = TablePolicy(new_game().state, ask=lambda p="": word)
    decision = Decision("union", "Pick", (Option("a"), Option("b")), 1, "test")
    with pytest.raises(UmpireError, match="quit at the prompt"):
        policy.choose(decision, lambda n, p: 0)


def test_seed000_record_prompts_ask_again(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Seed 000, Friendly Fire: 'Check stragglers and morale normally': the questions after a
    phase ask again after a wrong entry (as often as needed) and `quit` stops them."""
    from umpire.rules.cwb_events.cli import _ask_until, _morale, _stragglers

    typed = ["many", "-1", "2.5", "3"]
    monkeypatch.setattr("builtins.input", lambda prompt="": typed.pop(0))
    assert _ask_until("stragglers: ", _stragglers) == 3
    out = capsys.readouterr().out
    assert out.count("try again (Enter to record later, q to quit)") == 3
    assert "stragglers must be a whole number 0 or more, not 'many'" in out
    typed[:] = ["panicked", "9", "2"]
    assert _ask_until("morale: ", _morale(["no effect", "disorganized", "routed"])) == (
        "disorganized"
    )
    typed[:] = ["quit"]
    with pytest.raises(UmpireError, match="quit at the prompt"):
        _ask_until("morale: ", _morale(["no effect"]))
