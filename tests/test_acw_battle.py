"""Seed 002 on the table: charges, routs, rally, removal, leader loss, fire, bad input."""

from __future__ import annotations

import math

import pytest

from umpire.battle.engine import Battle, Request
from umpire.battle.run import new_battle
from umpire.battle.scenario import load_scenario, parse_scenario
from umpire.dice import ScriptedSource
from umpire.errors import DataFileError, IllegalActionError, UnknownNameError
from umpire.rules.quick_acw import losses as LO
from umpire.rules.quick_acw import reach as RCH
from umpire.rules.quick_acw import steps as S

HEAD = """name = "test"
[table]
width = 48
height = 36
turns = 3
"""


def unit(uid: str, side: str, x: float, y: float, facing: float, **kw: object) -> str:
    extra = "".join(
        f"{k} = {str(v).lower() if isinstance(v, bool) else repr(v) if isinstance(v, str) else v}\n"
        for k, v in kw.items()
    ).replace("'", '"')
    kw.setdefault("type", "foot")
    typ = kw["type"]
    extra = extra if "type" in extra else extra + f'type = "{typ}"\n'
    stands = "" if "stands" in kw else "stands = 4\n"
    return (
        f'[[units]]\nid = "{uid}"\nside = "{side}"\nx = {x}\ny = {y}\nfacing = {facing}\n'
        f"{stands}{extra}\n"
    )


def battle(text: str, faces: list[int]) -> Battle:
    return new_battle(parse_scenario(HEAD + text, "t.toml"), ScriptedSource(faces), narrate=True)


def two_lines(**kw: object) -> str:
    return unit("c", "confederate", 10, 18, 0) + unit("u", "union", 14, 18, 180, **kw)


def test_charge_fails_half_move_and_marker() -> None:
    """Charge: fail the charge # -> move 1/2 the distance to the enemy and take a MM."""
    b = battle(two_lines(), [1, 1])  # 2 < 7
    c, u = b.state.units
    x0 = c.x
    S.do_charge(b, c, u)
    assert c.marker and c.x == pytest.approx(x0 + (u.x - u.hd - c.hd - x0) / 2)
    assert not b.state.contacts


def test_charge_target_fails_stand_retreats_2d6() -> None:
    """Charged unit fails to stand: retreats 2D6" directly away, then takes a MM."""
    b = battle(two_lines(), [4, 3, 2, 2, 3, 4])  # charge 7 ok; stand 4 < 8; retreat 7"
    c, u = b.state.units
    S.do_charge(b, c, u)
    assert u.marker and u.x == pytest.approx(14 + 7)
    assert not c.marker


def test_charge_mounted_cavalry_target_retreats_3d6() -> None:
    """... 3D6" for mounted cavalry."""
    text = unit("c", "confederate", 10, 18, 0) + unit(
        "u", "union", 14, 18, 180, type="cavalry", mounted=True, stands=3
    )
    b = battle(text, [4, 3, 1, 1, 1, 2, 3])
    c, u = b.state.units
    S.do_charge(b, c, u)
    assert u.x == pytest.approx(14 + 6)


def test_charge_both_pass_contact() -> None:
    """Charge passes and the target stands: the units are in contact for the melee."""
    b = battle(two_lines(), [4, 3, 5, 3])
    c, u = b.state.units
    S.do_charge(b, c, u)
    assert b.state.contacts == [[0, 1, 0]]
    assert u.i in b.touching(c)


def test_melee_result_applied() -> None:
    """Melee: 2d6 + stands + modifiers; the difference row gives losses and # retreats."""
    b = battle(two_lines(), [6, 6, 1, 1, 3, 3, 1])
    c, u = b.state.units
    c.x = u.x - u.hd - c.hd
    b.dirty()
    S.resolve_melee(b, c, u, True, False)
    # C: 12 + 4 + 1 (Confederates attacking) = 17; U: 2 + 4 = 6; diff 11 -> 0 / 3#
    assert c.stands == 4 and not c.marker
    assert not u.alive  # 1 stand left of 4: removed
    assert "removed" in " ".join(b.lines)


def test_flank_charge_qualifies_only_from_behind_flank() -> None:
    """Flank/rear: must start behind flank or rear to qualify."""
    text = unit("c", "confederate", 14, 12, 90) + unit("u", "union", 14, 18, 180)
    b = battle(text, [])
    c, u = b.state.units
    *_, flank = RCH.contact_point(c, u)
    assert flank
    b2 = battle(two_lines(), [])
    c2, u2 = b2.state.units
    assert not RCH.contact_point(c2, u2)[3]


def test_rout_moves_away_and_faces_away() -> None:
    """Units with MM may rout 12"(foot) directly away from the nearest enemy, facing away."""
    b = battle(two_lines(), [])
    _, u = b.state.units
    u.marker = True
    LO.rout_move(b, u)
    assert u.x == pytest.approx(26) and math.cos(u.theta) == pytest.approx(1)


def test_rout_off_table_removed() -> None:
    """Default blocked_retreat_stops: a unit that leaves the table is removed."""
    b = battle(unit("c", "confederate", 30, 18, 0) + unit("u", "union", 40, 18, 180), [])
    _, u = b.state.units
    LO.rout_move(b, u)
    assert not u.alive


def test_marker_unit_may_only_hold_turn_rout() -> None:
    """Units with MM may not move except to turn around 180 degrees or rout."""
    b = battle(two_lines(), [])
    c, _ = b.state.units
    c.marker = True
    with pytest.raises(IllegalActionError):
        RCH.check_move(b, c, c.x - 2, c.y, c.theta, "")
    S.MoveStep().apply(b, "confederate", 0, ("turn",))
    assert math.cos(c.theta) == pytest.approx(-1)


def test_rally_removes_markers_of_units_that_did_not_move() -> None:
    """Rally: remove MM from the 1st player's units that did not move."""
    b = battle(two_lines() + unit("c2", "confederate", 4, 30, 0), [])
    c, u, c2 = b.state.units
    c.marker = c2.marker = u.marker = True
    c2.moved = True
    S.RallyStep().auto(b, "confederate")
    assert not c.marker and c2.marker and u.marker


def test_markers_do_not_stack() -> None:
    """MM are not cumulative: you can only have one per unit."""
    b = battle(two_lines(), [])
    c, _ = b.state.units
    LO.add_marker(b, c)
    LO.add_marker(b, c)
    assert c.marker is True


def test_fire_hit_costs_stand_and_marker() -> None:
    """Any hit unit loses one stand & gets a MM."""
    b = battle(unit("c", "confederate", 10, 18, 0) + unit("u", "union", 15, 18, 180), [4, 4])
    c, u = b.state.units
    ((_, needed, mods, _),) = RCH.targets(b, c)
    assert needed == 8 and sum(m.value for m in mods) == 2  # 6" band, +2 line
    S.resolve_fire(b, c, u, needed, mods, 4)
    assert u.stands == 3 and u.marker


def test_no_fire_through_friends() -> None:
    """You can't shoot through friendly troops."""
    text = (
        unit("c", "confederate", 6, 18, 0)
        + unit("c2", "confederate", 9, 18, 90)
        + unit("u", "union", 12.5, 18, 180)
    )
    b = battle(text, [])
    c = b.state.units[0]
    assert RCH.targets(b, c) == []
    with pytest.raises(IllegalActionError, match="line of sight"):
        S.FireStep("first").apply(b, "confederate", 0, ("fire", 2))


def test_no_fire_through_woods() -> None:
    """If you can't see it you can't shoot it (default los_centre_to_centre)."""
    text = (
        '[[terrain]]\nkind = "woods"\npoints = [[11, 10], [14, 10], [14, 26], [11, 26]]\n\n'
        + unit("c", "confederate", 6, 18, 0, type="artillery", stands=2)
        + unit("u", "union", 18, 18, 180)
    )
    b = battle(text, [])
    assert RCH.targets(b, b.state.units[0]) == []


def test_leader_loss_and_half_rate() -> None:
    """Leader attached to a unit that loses a stand: 5-6 lost; his units move 1/2 rate."""
    text = (
        '[[leaders]]\nid = "l"\nside = "union"\nx = 15\ny = 18\nattached = "u"\n\n'
        + unit("c", "confederate", 10, 18, 0)
        + unit("u", "union", 15, 18, 180, leader="l")
        + unit("u2", "union", 15, 24, 180, leader="l")
    )
    b = battle(text, [6])
    _, u, u2 = b.state.units
    LO.lose_stands(b, u, 1, "test")
    assert not b.state.leaders[0].alive and u2.leader_lost
    assert RCH.allowance(b, u2, "line", False, False, None, False) == 3


def test_out_of_command_half_move() -> None:
    """Command: a unit outside its leader's radius moves 1/2."""
    text = (
        '[[leaders]]\nid = "l"\nside = "union"\nx = 40\ny = 30\n\n'
        + unit("u", "union", 15, 18, 180, leader="l")
        + unit("c", "confederate", 3, 3, 0)
    )
    b = battle(text, [])
    S.MoveStep().actors(b, "union")
    u = b.state.units[0]
    assert not u.in_command
    with pytest.raises(IllegalActionError, match=r"3\.00"):
        RCH.check_move(b, u, u.x - 4, u.y, u.theta, "")


def test_illegal_move_too_far_changes_nothing() -> None:
    """An illegal human order (moving further than allowed) is refused; nothing changes."""
    b = battle(two_lines(), [])
    c = b.state.units[0]
    before = b.state.to_json()
    req = b.next_request()
    assert req == Request("move", "confederate", 0, "move")
    while req is not None and req.kind != "move":
        b.apply(req, ("hold",))
        req = b.next_request()
    assert req is not None
    before = b.state.to_json()
    with pytest.raises(IllegalActionError, match=r"may move 6\.00"):
        b.apply(req, ("move", c.x - 7, c.y, c.theta, ""))
    assert b.state.to_json() == before


def test_bad_scenarios() -> None:
    """Impossible scenarios: off table, overlapping, unknown type; errors name file:line."""
    with pytest.raises(DataFileError) as e:
        parse_scenario(HEAD + unit("a", "union", 47.9, 5, 0), "bad.toml")
    assert "off the table" in str(e.value) and str(e.value).startswith("bad.toml:")
    with pytest.raises(DataFileError, match="overlaps"):
        parse_scenario(HEAD + unit("a", "union", 10, 5, 0) + unit("b", "union", 10, 6, 0), "b")
    text = HEAD + unit("a", "union", 10, 5, 0, type="dragoon")
    with pytest.raises(DataFileError) as e2:
        parse_scenario(text, "c.toml")
    line = int(str(e2.value).split(":")[1])
    assert 'type = "dragoon"' in text.splitlines()[line - 1]
    assert "unknown unit type" in str(e2.value)
    with pytest.raises(DataFileError, match="bad TOML"):
        parse_scenario("name = ", "d.toml")
    with pytest.raises(UnknownNameError):
        load_scenario("no_such_scenario")


def test_shipped_scenarios_load() -> None:
    """The two shipped scenarios validate; the standard one has ~16 units a side."""
    s = load_scenario("standard")
    assert sum(u.side == "union" for u in s.units) == 16
    assert sum(u.side == "confederate" for u in s.units) == 16
    assert load_scenario("mcpherson_ridge").table.turns == 10  # issue 20: balanced
