"""Seed 002 rules, one test per rule sentence (named in each docstring), and exact odds."""

from __future__ import annotations

from fractions import Fraction

import pytest

from umpire.rules.quick_acw import rules as R
from umpire.rules.quick_acw.odds import charge_odds, fire_odds, melee_odds, morale_odds
from umpire.rules.quick_acw.roles import MODULE


def ff(**kw: object) -> R.FireFacts:
    base: dict[str, object] = dict(
        firer_side="confederate",
        firer_class="foot",
        firer_formation="column",
        firer_marker=False,
        target_type="foot",
        target_mounted=False,
        target_formation="line",
        target_cover=False,
    )
    base.update(kw)
    return R.FireFacts(**base)  # type: ignore[arg-type]


def mods(facts: R.FireFacts) -> dict[str, int]:
    return {m.id: m.value for m in R.fire_modifiers(facts)}


def test_turn_order() -> None:
    """TURN ORDER: Confederate goes through the sequence first, then the Union."""
    r = R.rules()
    assert r.order == ("confederate", "union")
    assert r.sequence == (
        "command",
        "move",
        "rally",
        "defensive_fire",
        "offensive_fire",
        "melee",
    )


def test_movement_table() -> None:
    """MOVEMENT table: open rates by troop type and formation."""
    expect = {
        "foot_line": 6,
        "foot_column": 10,
        "cavalry_line": 10,
        "cavalry_column": 18,
        "artillery_limbered": 10,
        "artillery_unlimbered": 0,
        "leader": 24,
    }
    for key, inches in expect.items():
        assert R.move_allowance(key)[0] == inches


def test_dismounted_cavalry_moves_as_foot() -> None:
    """'"Foot" includes dismounted cavalry for movement'."""
    assert R.move_key("cavalry", "line", False, False) == "foot_line"
    assert R.move_key("cavalry", "column", True, False) == "cavalry_column"


def test_rough_half_and_quarter() -> None:
    """ROUGH: half speed, quarter speed for limbered artillery."""
    assert R.move_allowance("foot_column", rough=True)[0] == 5
    assert R.move_allowance("artillery_limbered", rough=True)[0] == 2.5


def test_command_half_move() -> None:
    """Command: outside Leader Radius, 1/2 move."""
    assert R.move_allowance("foot_line", in_command=False)[0] == 3


def test_change_formation_and_mount_costs() -> None:
    """CHANGE FORMATION: half movement; 1/4 move to mount/dismount."""
    assert R.move_allowance("foot_column", change="formation")[0] == 5
    assert R.move_allowance("cavalry_column", change="mount")[0] == 13.5


def test_half_rates_multiply() -> None:
    """Reading half_rates_multiply: out of radius, rough and a lost leader: one eighth."""
    got = R.move_allowance("cavalry_column", rough=True, in_command=False, leader_lost=True)[0]
    assert got == 18 / 8


def test_rout_distances() -> None:
    """Rout move of up to 12" (foot/artillery) or 24" (cavalry)."""
    assert R.rout_distance("foot") == 12
    assert R.rout_distance("artillery") == 12
    assert R.rout_distance("cavalry") == 24


@pytest.mark.parametrize(
    ("fclass", "dist", "needed"),
    [
        ("foot", 2, 4),
        ("foot", 6, 8),
        ("foot", 6.5, None),
        ("foot", 30, None),
        ("dismounted_cavalry", 1, 3),
        ("dismounted_cavalry", 5, 7),
        ("dismounted_cavalry", 10, None),
        ("artillery", 2, 2),
        ("artillery", 6, 4),
        ("artillery", 15, 9),
        ("artillery", 30, 11),
        ("artillery", 30.5, None),
    ],
)
def test_fire_table(fclass: str, dist: float, needed: int | None) -> None:
    """FIRE table by range band (reading range_bands_upper_bounds)."""
    assert R.fire_needed(fclass, dist) == needed


def test_mounted_cavalry_cannot_fire() -> None:
    """'Mounted cavalry can't fire.'"""
    assert R.fire_class("cavalry", True, False) is None
    assert R.fire_class("cavalry", False, False) == "dismounted_cavalry"


def test_mod_target_in_cover() -> None:
    """-1 target in cover."""
    assert mods(ff(target_cover=True)) == {"target_cover": -1}


def test_mod_target_artillery() -> None:
    """-1 target is artillery."""
    assert mods(ff(target_type="artillery")) == {"target_artillery": -1}


def test_mod_target_dismounted_cavalry() -> None:
    """-1 target is dismounted cavalry."""
    assert mods(ff(target_type="cavalry")) == {"target_dismounted_cavalry": -1}


def test_mod_firer_marker() -> None:
    """-1 firing unit has MM."""
    assert mods(ff(firer_marker=True)) == {"firer_marker": -1}


def test_mod_union_firing() -> None:
    """+1 Union firing."""
    assert mods(ff(firer_side="union")) == {"union_firing": 1}


def test_mod_target_foot_column() -> None:
    """+1 target is foot column."""
    assert mods(ff(target_formation="column")) == {"target_foot_column": 1}


def test_mod_target_mounted_cavalry() -> None:
    """+2 target is mounted cavalry."""
    assert mods(ff(target_type="cavalry", target_mounted=True)) == {"target_mounted_cavalry": 2}


def test_mod_firer_line() -> None:
    """+2 firing unit is in line formation (not artillery: reading line_bonus_foot_only)."""
    assert mods(ff(firer_formation="line")) == {"firer_line": 2}
    assert mods(ff(firer_formation="line", firer_class="artillery")) == {}


def test_hit_one_stand_two_if_beaten_by_eight() -> None:
    """Any hit loses one stand; 8 or more higher than required: 2 stands."""
    assert R.fire_stands_lost(3, 4, 0) == 0
    assert R.fire_stands_lost(4, 4, 0) == 1
    assert R.fire_stands_lost(11, 4, 0) == 1
    assert R.fire_stands_lost(10, 4, 2) == 2


def test_exact_p_hit_foot_2in_line_at_column() -> None:
    """Exact odds: Confederate foot at 2" in line at a foot column: 4+ with +2 +1."""
    m = sum(
        x.value for x in R.fire_modifiers(ff(firer_formation="line", target_formation="column"))
    )
    assert m == 3
    odds = fire_odds(4, m)
    # hit on 2d6 >= 1: certain; two stands on 2d6 >= 9: 4+3+2+1 = 10 of 36
    assert odds.hit == 1
    assert odds.two == Fraction(10, 36)
    # Union adds +1: two stands on 2d6 >= 8: 15/36
    assert fire_odds(4, 4).two == Fraction(15, 36)
    # foot at 6" in column at line, Confederate: 8+ -> 15/36
    assert fire_odds(8, 0).hit == Fraction(15, 36)


def test_morale_numbers() -> None:
    """MORALE: USA/CSA 8+/7+, attached leaders add bonus, MM adds -1."""
    n, m = R.morale_test("union", None, False)
    assert (n, m) == (8, [])
    n, m = R.morale_test("confederate", 2, True)
    assert n == 7 and sum(x.value for x in m) == 1
    assert morale_odds(8, 0) == Fraction(15, 36)
    assert morale_odds(7, 1) == Fraction(26, 36)


def test_leader_ratings() -> None:
    """LEADERS: Union +1/5", Confederate +2/6"; Longstreet +3/7", Sickles +0/4"."""
    r = R.rules()
    assert (r.sides["union"].leader_bonus, r.sides["union"].leader_radius) == (1, 5)
    assert (r.sides["confederate"].leader_bonus, r.sides["confederate"].leader_radius) == (2, 6)
    assert r.named_leaders["longstreet"] == (3, 7)
    assert r.named_leaders["sickles"] == (0, 4)


def test_removal_below_half() -> None:
    """Any unit reduced to less than 1/2 of its original stands is removed."""
    assert not R.is_removed(2, 4)
    assert R.is_removed(1, 4)
    assert not R.is_removed(3, 5)
    assert R.is_removed(2, 5)


def test_leader_loss_five_six() -> None:
    """A leader attached to a unit that loses a stand: 5-6 killed or captured."""
    assert [R.leader_lost(f) for f in range(1, 7)] == [False] * 4 + [True] * 2


def mf(**kw: object) -> R.MeleeFacts:
    base: dict[str, object] = dict(
        side="union",
        unit_type="foot",
        mounted=False,
        formation="line",
        stands=4,
        attacking=False,
        defending_obstacle=False,
        uphill=False,
        marker=False,
        leader_bonus=None,
        flank_or_rear=False,
    )
    base.update(kw)
    return R.MeleeFacts(**base)  # type: ignore[arg-type]


def mm(facts: R.MeleeFacts) -> dict[str, int]:
    return {m.id: m.value for m in R.melee_modifiers(facts)}


def test_melee_stands_fighting() -> None:
    """MELEE: add the number of stands fighting."""
    assert mm(mf()) == {"stands": 4}


def test_melee_mounted_cavalry_attacking() -> None:
    """+2 if mounted cavalry attacking."""
    got = mm(mf(unit_type="cavalry", mounted=True, attacking=True))
    assert got["mounted_cavalry_attacking"] == 2
    assert "mounted_cavalry_attacking" not in mm(mf(unit_type="cavalry", mounted=True))


def test_melee_defending_wall_or_stream() -> None:
    """+2 if defending a wall or stream."""
    assert mm(mf(defending_obstacle=True))["defending_wall_or_stream"] == 2


def test_melee_infantry_column() -> None:
    """+2 if infantry in column."""
    assert mm(mf(formation="column"))["infantry_column"] == 2


def test_melee_leader_bonus() -> None:
    """+leader bonus if attached."""
    assert mm(mf(leader_bonus=2))["leader"] == 2


def test_melee_uphill() -> None:
    """+1 if uphill of enemy."""
    assert mm(mf(uphill=True))["uphill"] == 1


def test_melee_confederates_attacking() -> None:
    """+1 if Confederates attacking."""
    assert mm(mf(side="confederate", attacking=True))["confederates_attacking"] == 1
    assert "confederates_attacking" not in mm(mf(side="confederate"))


def test_melee_marker() -> None:
    """-2 if unit has Morale Marker."""
    assert mm(mf(marker=True))["marker"] == -2


def test_melee_flank_doubles_stands() -> None:
    """Double the attacking stands on a flank or rear attack."""
    got = mm(mf(attacking=True, flank_or_rear=True))
    assert got["stands"] + got["flank_rear"] == 8


@pytest.mark.parametrize(
    ("diff", "row"),
    [
        (0, (1, True, 1, True)),
        (1, (1, False, 1, True)),
        (2, (1, False, 1, True)),
        (3, (1, False, 2, True)),
        (5, (1, False, 2, True)),
        (6, (1, False, 3, True)),
        (8, (1, False, 3, True)),
        (9, (0, False, 3, True)),
        (20, (0, False, 3, True)),
    ],
)
def test_melee_difference_table(diff: int, row: tuple[int, bool, int, bool]) -> None:
    """MELEE difference table: 0 1#/1#, 1-2 1/1#, 3-5 1/2#, 6-8 1/3#, 9+ 0/3#."""
    got = R.melee_row(diff)
    assert (got.win_loss, got.win_retreat, got.lose_loss, got.lose_retreat) == row
    assert R.melee_row(-diff) == got


def test_melee_odds_hand() -> None:
    """Exact melee odds: equal sides tie with P(2d6 = 2d6) = 146/1296."""
    o = melee_odds(0, 0)
    assert o.tie == Fraction(146, 1296)
    assert o.a_wins == o.b_wins == (1 - o.tie) / 2
    # +9 over the enemy: A wins unless 2d6_B - 2d6_A >= 9 ... brute force
    n = sum(
        1
        for a in range(1, 7)
        for b in range(1, 7)
        for c in range(1, 7)
        for d in range(1, 7)
        if a + b + 9 > c + d
    )
    assert melee_odds(9, 0).a_wins == Fraction(n, 1296)


def test_charge_odds_chain() -> None:
    """Charge: pass the charge #, then the target stands or runs, then melee."""
    o = charge_odds(7, 0, 8, 0, 0, 0)
    assert o.charge_passes == Fraction(21, 36)
    assert o.target_stands == Fraction(15, 36)
    assert o.favourable == Fraction(21, 36) * (Fraction(21, 36) + Fraction(15, 36) * o.melee.a_wins)


def test_module_defaults_are_labelled() -> None:
    """Every default and reading lives in data with a label and a reason."""
    labels = MODULE.defaults()
    ids = {x.id for x in labels}
    assert {
        "charge_number_is_morale",
        "leader_bonus_not_fire",
        "markers_do_not_stack",
        "range_bands_upper_bounds",
        "line_bonus_foot_only",
        "half_rates_multiply",
        "unlimbered_artillery_rout",
        "one_leader_roll_per_loss",
        "stands_fighting_all",
        "attacking_means_charged",
        "morale_on_2d6",
    } <= ids
    assert all(x.label in ("default", "reading") and x.reason for x in labels)
