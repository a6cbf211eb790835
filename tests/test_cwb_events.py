"""Seed 000 random events, one test per event per side, each naming the sentence it checks."""

from __future__ import annotations

import pytest

from test_cwb_helpers import TWO_D6, act, issue, last, new_game, texts
from umpire.errors import IllegalActionError


# ---------------------------------------------------------------- Panic Check
@pytest.mark.parametrize("side", ["union", "confederate"])
@pytest.mark.parametrize("result", [2, 12])
def test_panic_check_no_wrecks(side: str, result: int) -> None:
    """Seed 000, Panic Check: 'Add up the number of infantry divisions currently wrecked.'

    With none wrecked (row 0) the chance is 0: no panic, and no Panic Table roll (issue 21).
    """
    g = new_game(side=side)
    act(g, "phase", {"side": side}, faces=[*TWO_D6[result]])
    assert last(g)["event"] == "panic_check"
    assert last(g)["result"] == "no panic (row 0, not rolled)"
    assert not g.state["panic"][side]["panicked"]


@pytest.mark.parametrize(
    ("side", "divs"), [("union", ["1/I", "2/I"]), ("confederate", ["H/3", "P/3"])]
)
def test_panic_check_panics(side: str, divs: list[str]) -> None:
    """Seed 000, Panic Table Modifiers: 'If Panic occurs ... No further attack orders'."""
    g = new_game(side=side)
    for d in divs:
        act(g, "wreck", {"division": d})
    rec = act(g, "phase", {"side": side}, faces=[6, 6, 1, 6])  # 12, d66 16 = band 2 <= row 2
    assert last(g)["result"] == "panic"
    edge = "south or east" if side == "union" else "west map edge"
    assert edge in texts(rec)
    army = "meade" if side == "union" else "lee"
    corps = "hancock" if side == "union" else "hill"
    for _ in range(2):
        act(g, "next", {"skip_events": True})  # orders wait for the next Command Phase
    with pytest.raises(IllegalActionError, match="panic"):
        act(g, "order_issue", {"side": side, "issuer": army, "recipient": corps, "kind": "attack"})
    act(g, "order_issue", {"side": side, "issuer": corps, "recipient": corps, "kind": "attack"})


def test_panic_row_shift_union_ratings() -> None:
    """Seed 000, Union Panic Table: 'Shift one row down if corps commanders with leader ratings
    totalling 10 or more are casualties.'"""
    g = new_game(side="union")
    for lid in ("reynolds", "hancock", "sedgwick"):  # 3 + 4 + 3 = 10
        act(g, "leader_loss", {"leader": lid, "status": "wounded"})
    rec = act(g, "phase", {"side": "union"}, faces=[6, 6, 1, 3])  # band 1 <= row 1
    assert "total 10" in texts(rec, "note")
    assert last(g)["result"] == "panic"


def test_panic_row_shift_longstreet() -> None:
    """Seed 000, Confederate Panic Table: 'Shift one row down if Longstreet is a casualty.'"""
    g = new_game(side="confederate")
    act(g, "leader_loss", {"leader": "longstreet", "status": "killed"})
    act(g, "phase", {"side": "confederate"}, faces=[6, 6, 1, 3])
    assert last(g)["result"] == "panic"


# ---------------------------------------------------------------- Sickles Saves the Day
def test_sickles_decline_then_write_once_a_day() -> None:
    """Seed 000, Sickles Saves the Day: 'may decline the result before the random corps is
    selected'; 'may only write one Loose Cannon order per day from this result.'"""
    g = new_game(side="union")
    act(g, "phase", {"side": "union"}, faces=TWO_D6[5], confederate=["decline"])
    assert last(g)["result"].startswith("no result: the Confederate player declines")
    act(g, "next", {"skip_events": True})
    act(g, "next", {"skip_events": True})
    oid = issue(g, "union", "meade", "sickles", "move")
    act(g, "phase", {"side": "union"}, faces=[*TWO_D6[5], 3], confederate=["write"])
    assert last(g)["result"] == "loose cannon III"
    lc = [o for o in g.state["orders"].values() if o["kind"] == "loose_cannon"]
    assert lc[0]["recipient"] == "sickles" and lc[0]["issuer"] == "confederate"
    assert g.state["orders"][oid]["status"] == "cancelled"
    act(g, "next", {"skip_events": True})
    act(g, "next", {"skip_events": True})
    act(g, "phase", {"side": "union"}, faces=TWO_D6[5])
    assert "already written a Loose Cannon order today" in last(g)["result"]


# ---------------------------------------------------------------- order events
@pytest.mark.parametrize(
    ("side", "issuer", "to"), [("union", "meade", "hancock"), ("confederate", "lee", "hill")]
)
def test_immediate_order_acceptance(side: str, issuer: str, to: str) -> None:
    """Seed 000, Immediate Order Acceptance: 'Any one order in delay or in transit is
    immediately accepted. If more than one order qualifies, choose the order at random.'"""
    g = new_game(side=side)
    act(g, "phase", {"side": side}, faces=TWO_D6[6])
    assert last(g)["result"] == "no result: no order is in delay or in transit"
    act(g, "next", {"skip_events": True})
    act(g, "next", {"skip_events": True})
    a = issue(g, side, issuer, to, "attack")
    b = issue(g, side, issuer, to, "move", status="D4")
    act(g, "phase", {"side": side}, faces=[*TWO_D6[6], 1])
    assert g.state["orders"][a]["status"] == "accepted"
    assert g.state["orders"][b]["status"] == "D4"
    cid = g.state["orders"][a]["corps"]
    assert g.state["corps"][cid]["attack_orders"] == [a]


@pytest.mark.parametrize(
    ("side", "issuer", "to"), [("union", "meade", "hancock"), ("confederate", "lee", "hill")]
)
def test_orders_delay(side: str, issuer: str, to: str) -> None:
    """Seed 000, Orders Delay: 'a D4 would become a D5, a D6 would become a Dt. An order in
    transit has its status adjusted when it arrives.'"""
    g = new_game(side=side)
    d4 = issue(g, side, issuer, to, status="D4")
    d6 = issue(g, side, issuer, to, status="D6")
    tr = issue(g, side, issuer, to)
    act(g, "phase", {"side": side}, faces=[*TWO_D6[8], 1])
    assert g.state["orders"][d4]["status"] == "D5"
    for _ in range(2):
        act(g, "next", {"skip_events": True})
    act(g, "phase", {"side": side}, faces=[*TWO_D6[8], 2])
    assert g.state["orders"][d6]["status"] == "Dt"
    for _ in range(2):
        act(g, "next", {"skip_events": True})
    act(g, "phase", {"side": side}, faces=[*TWO_D6[8], 2])  # open now: d4 (D5), tr
    assert g.state["orders"][tr]["pending_delay"] == 1
    for _ in range(2):
        act(g, "next", {"skip_events": True})
    act(g, "order_arrive", {"order": tr, "result": "D4"})
    assert g.state["orders"][tr]["status"] == "D5"


# ---------------------------------------------------------------- Withdraw Buford
def test_withdraw_buford() -> None:
    """Seed 000, Withdraw Buford: 'any time this event is rolled on July 2nd or later,
    immediately withdraw all the units called for. If rolled on July 1st, or if Buford is
    already withdrawn, ignore this result.'"""
    g = new_game("July 1 08:00", side="union")
    act(g, "phase", {"side": "union"}, faces=TWO_D6[9])
    assert last(g)["result"] == "no result: rolled on July 1st"
    g = new_game("July 2 09:00", side="union")
    rec = act(g, "phase", {"side": "union"}, faces=TWO_D6[9])
    assert last(g)["result"] == "buford withdrawn"
    assert g.state["leaders"]["buford"]["status"] == "withdrawn"
    assert g.state["units"]["Gamble/1/CC"]["status"] == "withdrawn"
    assert "Calef/Arty/Tidball/CC" in texts(rec)
    for _ in range(2):
        act(g, "next", {"skip_events": True})
    act(g, "phase", {"side": "union"}, faces=TWO_D6[9])
    assert last(g)["result"] == "no result: Buford is already withdrawn"


# ---------------------------------------------------------------- Ambush!
@pytest.mark.parametrize("side", ["union", "confederate"])
def test_ambush_once_a_day(side: str) -> None:
    """Seed 000, Ambush!: 'treat all straggler losses against all the units of any one brigade
    as permanent losses ... This event cannot happen more than once on any given day.'"""
    g = new_game("July 2 18:00", side=side)
    rec = act(g, "phase", {"side": side}, faces=[*TWO_D6[10], 2])
    unit = last(g)["result"].split()[1]
    assert g.state["units"][unit]["side"] == side and g.state["units"][unit]["kind"] == "brigade"
    assert "permanent losses" in texts(rec)
    assert g.state["effects"][0]["unit"] == unit
    act(g, "next", {"skip_events": True})
    assert g.state["effects"] == []
    act(g, "next", {"skip_events": True})
    act(g, "phase", {"side": side}, faces=TWO_D6[10])
    assert last(g)["result"] == "no result: Ambush! has already happened today"
    act(g, "clock_set", {"date": "July 3", "time": "05:00", "side": side})
    act(g, "phase", {"side": side}, faces=[*TWO_D6[10], 1])
    assert last(g)["result"].startswith("ambush ")


# ---------------------------------------------------------------- Corps Attack Stoppage
@pytest.mark.parametrize(
    ("side", "issuer", "to"), [("union", "meade", "hancock"), ("confederate", "lee", "hill")]
)
def test_corps_attack_stoppage(side: str, issuer: str, to: str) -> None:
    """Seed 000, Corps Attack Stoppage: 'Any one Corps with attack orders (chosen at random, if
    necessary) immediately stops.'"""
    g = new_game(side=side)
    act(g, "phase", {"side": side}, faces=TWO_D6[11])
    assert "has attack orders" in last(g)["result"]
    for _ in range(2):
        act(g, "next", {"skip_events": True})
    oid = issue(g, side, issuer, to, "attack", status="A")
    act(g, "phase", {"side": side}, faces=[*TWO_D6[11], 1])
    cid = g.state["orders"][oid]["corps"]
    assert g.state["corps"][cid]["stopped"] and g.state["orders"][oid]["status"] == "stopped"


# ---------------------------------------------------------------- Longstreet Moves to the Right
def test_longstreet_variable_entry_july_1() -> None:
    """Seed 000, Longstreet Moves to the Right: 'At 2:00 PM July 1st, begin rolling for variable
    entry ... On a 10+, all these units enter at hex A43.01. They have orders to move to the
    Army HQ.'"""
    g = new_game("July 1 13:20", side="confederate")
    act(g, "phase", {"side": "confederate"}, faces=TWO_D6[5])
    assert last(g)["result"] == "longstreet variable entry active"
    for _ in range(2):
        act(g, "next", {"skip_events": True})  # 13:40: before 2:00 PM, no roll
    act(g, "phase", {"side": "confederate"}, faces=TWO_D6[6])
    assert "variable_entry" not in last(g)
    for _ in range(2):
        act(g, "next", {"skip_events": True})  # 14:00
    act(g, "phase", {"side": "confederate"}, faces=[4, 5, *TWO_D6[6]])
    assert last(g)["variable_entry"] == "variable entry 9: not yet"
    act(g, "place", {"unit": "A/H/3", "hex": "A40.05"})
    for _ in range(2):
        act(g, "next", {"skip_events": True})
    rec = act(g, "phase", {"side": "confederate"}, faces=[4, 6, *TWO_D6[6]])
    assert last(g)["variable_entry"] == "variable entry 10: entered"
    assert g.state["leaders"]["longstreet"]["status"] == "active"
    assert g.state["units"]["K/M/1"]["hex"] == "A43.01"
    assert g.state["units"]["L/H/1"]["status"] == "waiting"
    assert g.state["units"]["Bachman/Arty/H/1"]["status"] == "waiting"
    assert "1/6" in texts(rec, "note")
    assert any(o["text"].startswith("Move to the Army HQ") for o in g.state["orders"].values())


def test_longstreet_july_1_after_regular_entry_unused() -> None:
    """Seed 000: 'If this roll is made after the regular entry times ... bring these units on
    normally and ignore this result' (reading: the use is not spent)."""
    g = new_game("July 1 13:20", side="confederate")
    act(g, "enter", {"unit": "M/1"})
    act(g, "phase", {"side": "confederate"}, faces=TWO_D6[5])
    assert "not used" in last(g)["result"]
    assert g.state["usage"]["game"] == {}


@pytest.mark.parametrize(
    ("attack", "close", "mps"), [(False, "no", 24), (False, "yes", 0), (True, None, 0)]
)
def test_longstreet_free_order_july_2(attack: bool, close: str | None, mps: int) -> None:
    """Seed 000: 'On July 2nd or after ... write one attack order to himself ... if he does not
    currently have any attack orders and has no troops within small-arms range ... 24
    accumulated MPs.'"""
    g = new_game("July 2 10:00", side="confederate")
    if attack:
        issue(g, "confederate", "lee", "longstreet", "attack", status="A")
    act(g, "phase", {"side": "confederate"}, faces=TWO_D6[5], confederate=[close] if close else [])
    assert g.state["longstreet"]["mps"] == mps
    free = [o for o in g.state["orders"].values() if o["text"].startswith("Free attack")]
    assert free and free[0]["status"] == "accepted" and free[0]["recipient"] == "longstreet"
    for _ in range(2):
        act(g, "next", {"skip_events": True})
    assert g.state["longstreet"]["mps"] == 0
    act(g, "phase", {"side": "confederate"}, faces=TWO_D6[5])
    assert "already been used" in last(g)["result"]


def test_longstreet_computed_small_arms() -> None:
    """Seed 000: 'has no troops within small-arms range of any enemy unit' computed from hexes."""
    g = new_game("July 2 10:00", side="confederate")
    for uid in [
        u for u, d in g.state["units"].items() if d["corps"] == "1" and d["status"] == "in_play"
    ]:
        act(g, "place", {"unit": uid, "hex": "A30.10"})
    act(g, "place", {"unit": "Meredith/1/I", "hex": "A30.12"})
    act(g, "phase", {"side": "confederate"}, faces=TWO_D6[5])
    assert g.state["longstreet"]["mps"] == 0


# ---------------------------------------------------------------- Longstreet Drags his Feet
def test_drag_feet() -> None:
    """Seed 000, Longstreet Drags his Feet: 'each division must roll to accept that order
    individually ... He rolls only once per turn for the whole corps, and chooses which
    division to commit upon each successful roll.'"""
    g = new_game("July 2 14:00", side="confederate")
    act(g, "phase", {"side": "confederate"}, faces=TWO_D6[9])
    assert last(g)["result"].startswith("no result")
    for _ in range(2):
        act(g, "next", {"skip_events": True})
    oid = issue(g, "confederate", "lee", "longstreet", "attack", status="D4")
    act(g, "phase", {"side": "confederate"}, faces=[*TWO_D6[9], 1])
    drag = g.state["orders"][oid]["drag"]
    assert drag["divisions"] == ["M/1", "H/1"]  # Pickett is not yet on the field
    for _ in range(2):
        act(g, "next", {"skip_events": True})  # the roll comes in a later Command Phase
    act(g, "order_roll", {"order": oid}, faces=[3])
    assert g.state["orders"][oid]["drag"]["committed"] == []
    with pytest.raises(IllegalActionError, match="already been rolled"):
        act(g, "order_roll", {"order": oid}, faces=[6])
    for _ in range(2):
        act(g, "next", {"skip_events": True})
    act(g, "order_roll", {"order": oid}, faces=[5], confederate=["H/1"])
    assert g.state["orders"][oid]["drag"]["committed"] == ["H/1"]
    assert g.state["orders"][oid]["status"] == "D4"
    for _ in range(2):
        act(g, "next", {"skip_events": True})
    act(g, "order_roll", {"order": oid}, faces=[4], confederate=["M/1"])
    assert g.state["orders"][oid]["status"] == "accepted"
    assert g.state["corps"]["1"]["attack_orders"] == [oid]
