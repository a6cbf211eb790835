"""Seed 000 Leader Tables, one test per row per side, each naming the sentence it checks."""

from __future__ import annotations

from typing import Any

import pytest

from test_cwb_helpers import TWO_D6, act, d66, last, new_game, texts

LEADER = [*TWO_D6[7]]  # Random Event 7: Consult Leader Table


def decision_options(rec: Any, purpose: str) -> list[str]:
    """The options of the first decision whose purpose starts with ``purpose``."""
    for e in rec.events:
        if e.kind == "decision" and str(e.data["purpose"]).startswith(purpose):
            return list(e.data["options"])
    raise AssertionError(f"no decision {purpose!r}")


# ---------------------------------------------------------------- army commander
@pytest.mark.parametrize(
    ("side", "army", "heir", "corps", "div_heir"),
    [
        ("union", "meade", "sedgwick", "VI", "wright"),
        ("confederate", "lee", "longstreet", "1", "mclaws"),
    ],
)
@pytest.mark.parametrize(("die", "status"), [(1, "wounded"), (5, "wounded"), (6, "killed")])
def test_army_commander_casualty(
    side: str, army: str, heir: str, corps: str, div_heir: str, die: int, status: str
) -> None:
    """Seed 000, Meade/Lee is a Casualty: 'Roll one die. 1-5 wounded, 6 killed ... immediately
    replaced by the ranking corps commander. If ... already a casualty, treat as no result.'"""
    g = new_game(side=side)
    act(g, "phase", {"side": side}, faces=[*LEADER, *d66(11), die])
    assert last(g)["leader_event"] == "army_casualty"
    st = g.state
    assert st["leaders"][army]["status"] == status
    assert st["armies"][side]["commander"] == heir
    assert st["leaders"][heir]["post"] == "army" and not st["leaders"][heir]["permanent"]
    assert st["corps"][corps]["commander"] == div_heir
    for _ in range(2):
        act(g, "next", {"skip_events": True})
    act(g, "phase", {"side": side}, faces=[*LEADER, *d66(11)])
    assert last(g)["result"].startswith("no result")


# ---------------------------------------------------------------- corps commander
@pytest.mark.parametrize(
    ("side", "pick", "lid", "heir"),
    [("union", 3, "sickles", "birney"), ("confederate", 3, "hill", "anderson")],
)
@pytest.mark.parametrize(("die", "status"), [(4, "wounded"), (5, "killed")])
def test_corps_commander_loss(
    side: str, pick: int, lid: str, heir: str, die: int, status: str
) -> None:
    """Seed 000, Check for corps commander loss: 'Choose randomly from all in-play corps
    commanders ... 1-4, wounded, 5-6 killed. Do not include replacement corps commanders.'"""
    g = new_game(side=side)
    act(g, "phase", {"side": side}, faces=[*LEADER, *d66(12), pick, die])
    assert last(g)["result"] == f"{lid} {status}"
    assert g.state["leaders"][heir]["post"] == "corps"
    assert g.state["corps"][g.state["leaders"][heir]["command"]]["lost_commander"]
    for _ in range(2):
        act(g, "next", {"skip_events": True})
    rec = act(g, "phase", {"side": side}, faces=[*LEADER, *d66(16), 1, 1])
    options = decision_options(rec, f"{side.capitalize()} corps commander loss")
    assert heir not in options and lid not in options


# ---------------------------------------------------------------- division commander
def test_division_loss_nominations_union() -> None:
    """Seed 000, Check for Divisional commander loss: 'The Rebel player chooses two eligible
    division commanders, the Union player chooses one. From these three, randomly select.'"""
    g = new_game(side="union")
    elig = ["wadsworth", "robinson", "barlow", "gibbon"]
    rec = act(
        g,
        "phase",
        {"side": "union"},
        faces=[*LEADER, *d66(21), 2, 4],
        union=[elig, ["barlow"]],
        confederate=[["wadsworth", "robinson"]],
    )
    assert last(g)["result"] == "robinson wounded"
    draw = decision_options(rec, "draw the affected")
    assert draw == ["wadsworth", "robinson", "barlow"]
    assert g.state["divisions"]["2/I"]["commander"] == "paul"
    assert g.state["units"]["Paul/2/I"]["leader"].startswith("repl")


def test_division_loss_nominations_confederate() -> None:
    """Seed 000, Check for divisional commander loss (Confederate): 'The Union player chooses
    two eligible division commanders, the Rebel player chooses one.'"""
    g = new_game(side="confederate")
    act(
        g,
        "phase",
        {"side": "confederate"},
        faces=[*LEADER, *d66(25), 3, 6],
        confederate=[["heth", "pender", "rodes"], ["rodes"]],
        union=[["heth", "pender"]],
    )
    assert last(g)["result"] == "rodes killed"
    assert g.state["divisions"]["R/2"]["commander"] == "daniel"


def test_division_loss_eligibility_from_hexes() -> None:
    """Seed 000, Random Events and Leader Loss: 'division leaders must be within 8 hexes of an
    enemy unit to be eligible'; fewer than three eligible: the enemy names them (reading)."""
    g = new_game(side="union")
    act(g, "place", {"unit": "B/H/3", "hex": "A10.10"})
    act(g, "place", {"unit": "wadsworth", "hex": "A10.18"})
    act(g, "place", {"unit": "robinson", "hex": "A10.19"})
    rec = act(
        g,
        "phase",
        {"side": "union"},
        faces=[*LEADER, *d66(22), 1, 1],
        union=[[]],
        confederate=[["wadsworth"]],
    )
    asked = decision_options(rec, "eligibility")
    assert "wadsworth" not in asked and "robinson" not in asked
    assert last(g)["result"] == "wadsworth wounded"


def test_division_loss_no_eligible() -> None:
    """Seed 000: 'If all permanent divisional commanders are currently ineligible, treat as no
    result.'"""
    g = new_game(side="union")
    act(g, "phase", {"side": "union"}, faces=[*LEADER, *d66(23)], union=[[]])
    assert last(g)["result"].startswith("no result")


# ---------------------------------------------------------------- brigade commander
@pytest.mark.parametrize(
    ("side", "foe_unit", "near", "far", "lid"),
    [
        ("union", "B/H/3", "Meredith/1/I", "Cutler/1/I", "meredith"),
        ("confederate", "Meredith/1/I", "A/H/3", "D/H/3", "archer"),
    ],
)
@pytest.mark.parametrize(("die", "status"), [(1, "wounded"), (6, "killed")])
def test_brigade_loss_eligibility_and_replacements(
    side: str, foe_unit: str, near: str, far: str, lid: str, die: int, status: str
) -> None:
    """Seed 000, Check for Brigade commander loss: 'brigade leaders must be within four hexes of
    an enemy unit'; 'Ignore replacement leaders for this process.'"""
    g = new_game(side=side)
    act(g, "place", {"unit": foe_unit, "hex": "A10.10"})
    act(g, "place", {"unit": near, "hex": "A10.14"})
    act(g, "place", {"unit": far, "hex": "A10.15"})
    foe = "confederate" if side == "union" else "union"
    rec = act(
        g, "phase", {"side": side}, faces=[*LEADER, *d66(26), 1, die], **{side: [[]], foe: [[lid]]}
    )  # type: ignore[arg-type]
    asked = decision_options(rec, "eligibility")
    assert lid not in asked and g.state["units"][far]["leader"] not in asked
    assert last(g)["result"] == f"{lid} {status}"
    repl = g.state["units"][near]["leader"]
    assert repl.startswith("repl") and not g.state["leaders"][repl]["permanent"]
    for _ in range(2):
        act(g, "next", {"skip_events": True})
    act(g, "phase", {"side": side}, faces=[*LEADER, *d66(41)], **{side: [[]]})  # type: ignore[arg-type]
    assert last(g)["result"].startswith("no result")  # the replacement at 4 hexes is ignored


# ---------------------------------------------------------------- Arrest that General!
@pytest.mark.parametrize(
    ("level_die", "level", "victim"),
    [
        (1, "brigade", "rowley"),
        (4, "brigade", "rowley"),
        (5, "division", "barnes"),
        (6, "corps", "sickles"),
    ],
)
def test_union_arrest_levels(level_die: int, level: str, victim: str) -> None:
    """Seed 000, Union Arrest that General!: 'Roll one die: 1-4 Brigade leader, 5 division
    commander ... 6 - corps commander. Any one 0-0 or 0-1 brigade commander, or any 0 rated
    division or corps commander, chosen at random, is immediately replaced.'"""
    g = new_game(side="union")
    act(g, "phase", {"side": "union"}, faces=[*LEADER, *d66(42), level_die, 1])
    assert last(g)["result"] == f"{victim} arrested"
    assert g.state["leaders"][victim]["status"] == "arrested"
    if level == "corps":
        assert g.state["corps"]["III"]["commander"] == "birney"
        assert g.state["corps"]["III"]["lost_commander"] is False


def test_union_arrest_waives_stoppage_modifier() -> None:
    """Seed 000: 'Any attack stoppage modifier for lost corps commander is ignored when replaced
    by this result.'"""
    g = new_game(side="union")
    act(g, "leader_loss", {"leader": "sickles", "status": "wounded"})
    assert g.state["corps"]["III"]["lost_commander"] is True
    g2 = new_game(side="union")
    act(g2, "phase", {"side": "union"}, faces=[*LEADER, *d66(43), 6, 1])
    assert g2.state["corps"]["III"]["lost_commander"] is False


def test_union_arrest_promoted_brigadier() -> None:
    """Seed 000: '5 division commander (including brigadiers promoted due to leader casualties,
    like Rowley)'."""
    g = new_game(side="union")
    act(g, "leader_loss", {"leader": "doubleday", "status": "wounded"})
    assert g.state["divisions"]["3/I"]["commander"] == "rowley"
    rec = act(g, "phase", {"side": "union"}, faces=[*LEADER, *d66(44), 5, 1])
    assert "rowley" in decision_options(rec, "Arrest that General!")
    assert last(g)["result"] == "rowley arrested"


def test_arrest_twice_a_game_and_unspent() -> None:
    """Seed 000: 'This result may occur twice per game' (reading: no candidate, not spent)."""
    g = new_game(side="union")
    act(g, "phase", {"side": "union"}, faces=[*LEADER, *d66(42), 6, 1])  # Sickles
    for _ in range(2):
        act(g, "next", {"skip_events": True})
    act(g, "phase", {"side": "union"}, faces=[*LEADER, *d66(42), 6])  # no 0-rated corps left
    assert "not spent" in last(g)["result"]
    assert g.state["usage"]["game"]["arrest:union"] == 1
    for _ in range(2):
        act(g, "next", {"skip_events": True})
    act(g, "phase", {"side": "union"}, faces=[*LEADER, *d66(42), 5, 1])  # Barnes
    for _ in range(2):
        act(g, "next", {"skip_events": True})
    act(g, "phase", {"side": "union"}, faces=[*LEADER, *d66(42)])
    assert (
        last(g)["result"] == "no result: Arrest that General! has already occurred twice this game"
    )


def test_confederate_arrest_brigade_only() -> None:
    """Seed 000, Confederate Arrest that General!: 'Any one 0-0 or 0-1 brigade commander, chosen
    at random, is immediately replaced.'"""
    g = new_game(side="confederate")
    rec = act(g, "phase", {"side": "confederate"}, faces=[*LEADER, *d66(44), 2])
    options = decision_options(rec, "Arrest that General!")
    assert all(g.state["leaders"][o]["post"] == "brigade" for o in options)
    assert all(g.state["leaders"][o]["original_rating"] in ("0-0", "0-1") for o in options)
    assert last(g)["result"] == f"{options[1]} arrested"


# ---------------------------------------------------------------- Friendly Fire
@pytest.mark.parametrize(
    ("side", "a", "b", "lone", "foe_unit"),
    [
        ("union", "Meredith/1/I", "Cutler/1/I", "Paul/2/I", "B/H/3"),
        ("confederate", "A/H/3", "D/H/3", "P/H/3", "Meredith/1/I"),
    ],
)
@pytest.mark.parametrize(
    ("faces", "steps"),
    [([1, 1, 5], 1), ([1, 1, 2], 0), ([2, 3], 1), ([4, 6, 1], 1), ([5, 6], 2), ([4, 4, 4], 2)],
)
def test_friendly_fire(
    side: str, a: str, b: str, lone: str, foe_unit: str, faces: list[int], steps: int
) -> None:
    """Seed 000, Friendly Fire: 'chooses one ... unit, adjacent to at least one other ... unit and
    within 4 hexes of any ... enemy unit ... Resolve the fire on the 4-6 column'."""
    g = new_game(side=side)
    act(g, "place", {"unit": a, "hex": "A10.10"})
    act(g, "place", {"unit": b, "hex": "A10.11"})
    act(g, "place", {"unit": lone, "hex": "A20.20"})
    act(g, "place", {"unit": foe_unit, "hex": "A10.14"})
    foe = "confederate" if side == "union" else "union"
    rec = act(g, "phase", {"side": side}, faces=[*LEADER, *d66(45), *faces], **{foe: [a]})  # type: ignore[arg-type]
    options = decision_options(rec, "Friendly Fire target")
    assert a in options and b in options and lone not in options
    assert last(g)["result"] == f"{a} loses {steps}"
    assert "ignore low ammo" in texts(rec) and "flank attack" in texts(rec)


# ---------------------------------------------------------------- random movement
@pytest.mark.parametrize("side", ["union", "confederate"])
@pytest.mark.parametrize(("roll", "own"), [(54, True), (63, True), (64, False), (66, False)])
def test_random_movement(side: str, roll: int, own: bool) -> None:
    """Seed 000, Owning/Enemy player random movement: 'may move two of his regiments anywhere
    on the board up to 3 hexes'; 'the Rebel/Union player gets to move those two regiments.'"""
    g = new_game(side=side)
    rec = act(g, "phase", {"side": side}, faces=[*LEADER, *d66(roll)])
    mover = side if own else ("confederate" if side == "union" else "union")
    assert texts(rec).startswith(f"{mover.capitalize()} player: move two {side.capitalize()}")
    assert "not through hexes with enemy units" in texts(rec)


def test_stoppage_modifier_is_in_the_count_the_check_uses() -> None:
    """Seed 000, Arrest that General!: 'the attack stoppage modifier for lost corps commander'
    (default ``stoppage_modifier``: one more wrecked division). It is applied to the number
    the players' stoppage check uses, in `cwb status` and on the web table, not only flagged;
    an arrest replacement waives it."""
    from umpire.rules.cwb_events.cli import _status
    from umpire.rules.cwb_events.table import view

    g = new_game(side="union")
    div = g.state["corps"]["III"]["divisions"][0]
    act(g, "wreck", {"division": div})
    corps = _status(g.state)["sides"]["union"]["corps"]["III"]
    assert (corps["stoppage_count"], corps["stoppage_words"]) == (1, "1 wrecked")
    act(g, "leader_loss", {"leader": "sickles", "status": "wounded"})
    corps = _status(g.state)["sides"]["union"]["corps"]["III"]
    assert corps["stoppage_count"] == 2
    assert corps["stoppage_words"] == "1 wrecked + 1 for the lost commander"
    rows = [r for sec in view(g.state, None)["sections"] for r in sec["rows"]]
    assert any("check counts 2 (1 wrecked + 1 for the lost commander)" in r[-1] for r in rows)
    g2 = new_game(side="union")
    act(g2, "phase", {"side": "union"}, faces=[*LEADER, *d66(43), 6, 1])  # Sickles arrested
    assert _status(g2.state)["sides"]["union"]["corps"]["III"]["stoppage_count"] == 0
