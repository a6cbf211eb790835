"""Issue 20, seed 003 (Action/Reaction): the wrong rulings fixed, each test naming its
seed section and sentence. Battles are built on a bare table with dice chosen by their
purpose, so each test drives exactly the ruling it names."""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from fractions import Fraction

import pytest

from umpire.battle.engine import Battle
from umpire.battle.orders import Fire
from umpire.battle.run import new_battle
from umpire.battle.scenario import parse_scenario
from umpire.dice.sources import DiceSource
from umpire.errors import IllegalActionError
from umpire.rules.action_reaction import artillery as A
from umpire.rules.action_reaction import charging as CH
from umpire.rules.action_reaction import firing as FI
from umpire.rules.action_reaction import ground as GD
from umpire.rules.action_reaction import marks as MK
from umpire.rules.action_reaction import movement as MV
from umpire.rules.action_reaction import moving as MOV
from umpire.rules.action_reaction import steps as S

HEAD = """name = "t"
[rules]
sequence = "action-reaction"
combat = "action-reaction"
[table]
width = 60
height = 40
turns = 3
"""


def unit(uid: str, side: str, x: float, y: float, facing: float, **kw: object) -> str:
    """One [[units]] entry (foot in line, 4 stands, unless told)."""
    kw.setdefault("type", "foot")
    kw.setdefault("stands", 4)
    extra = "".join(
        f'{k} = "{v}"\n' if isinstance(v, str) else f"{k} = {str(v).lower()}\n"
        for k, v in kw.items()
    )
    return (
        f'[[units]]\nid = "{uid}"\nname = "{uid}"\nside = "{side}"\n'
        f"x = {x}\ny = {y}\nfacing = {facing}\n{extra}\n"
    )


class ByPurpose(DiceSource):
    """Dice chosen by their purpose: the first rule whose words are in the purpose gives
    the faces (a callable gets the count); anything else shows its highest face but a
    d10, which shows 9, and an officer's contest, which he wins (no endless ties). Every
    purpose asked is kept in ``asked``."""

    kind = "scripted"

    def __init__(self, rules: list[tuple[str, int | Callable[[int], list[int]]]]) -> None:
        self.rules = [*rules, ("against the men", lambda n: [9, 1])]
        self.asked: list[str] = []

    def dice(self, n: int, sides: int, purpose: str = "") -> list[int]:
        self.asked.append(purpose)
        for words, faces in self.rules:
            if words in purpose:
                return faces(n) if callable(faces) else [faces] * n
        return [9 if sides == 10 else sides] * n


def battle(text: str, source: DiceSource, head: str = HEAD) -> Battle:
    return new_battle(parse_scenario(head + text, "t.toml"), source, narrate=True)


def said(b: Battle) -> str:
    return "\n".join(b.lines)


# -- item 1: XI.A.4.b consecutive canister fire -------------------------------------------------


def canister_battle(src: ByPurpose) -> Battle:
    text = unit("gun", "union", 20, 20, 0, type="artillery", stands=2) + unit(
        "reb", "confederate", 26, 20, 180, stands=6
    )
    return battle(text, src)


def test_later_canister_adds_accumulating_smoke_xi_a_4_b() -> None:
    """Seed 003 XI.A.4.b 'Consecutive Fire: (a) Account for accumulating smoke roll 1 D6
    halved and add it to the deductions' (reading canister_later_shot): the battery's next
    canister fire, a turn later while its smoke stands, rolls 1D6 halved a gun."""
    src = ByPurpose([("does the smoke thin", 9), ("accumulating smoke", 6)])
    b = canister_battle(src)
    gun, reb = b.state.units
    FI.volley(b, gun, reb, kind="canister")
    assert not [p for p in src.asked if "accumulating smoke" in p]  # the first shot rolls none
    S.Smoke().auto(b, "union")  # a new turn: the smoke does not thin (an odd d10)
    assert MK.book(b, gun)["smoke"] == 1
    FI.volley(b, gun, reb, kind="canister")
    assert len([p for p in src.asked if "accumulating smoke" in p]) == 2  # one a gun
    assert "a later shot: accumulating smoke -3 -3" in said(b)


def test_canister_after_the_smoke_clears_is_a_first_shot_again_xi_a_4_b() -> None:
    """Seed 003 XI.A.4.b (reading canister_later_shot): once the battery's smoke has thinned
    to 0 (XII.E.2), its next canister fire accumulates no smoke."""
    src = ByPurpose([("does the smoke thin", 10)])  # a 0: even, the smoke thins
    b = canister_battle(src)
    gun, reb = b.state.units
    FI.volley(b, gun, reb, kind="canister")
    S.Smoke().auto(b, "union")
    assert MK.book(b, gun)["smoke"] == 0
    FI.volley(b, gun, reb, kind="canister")
    assert not [p for p in src.asked if "accumulating smoke" in p]
    assert "a later shot" not in said(b)


def test_resolve_canister_later_shot(capsys: pytest.CaptureFixture[str]) -> None:
    """Seed 003 XI.A.4.b at the table: `umpire resolve canister --later` adds the
    accumulating smoke's 1D6 halved (a typed 4 halves to 2) and gives the exact odds over
    the d6 when it is not typed."""
    from test_acw_cli import run

    args = ["canister", "--range", "10", "--roll", "0 1 2 3 4 5 6 7 8", "--deductions", "1"]
    code, out, err = run(capsys, "resolve", *args, "--later", "--smoke-roll", "4", "--json")
    assert code == 0, err
    res = json.loads(out)
    assert res["stick"] == 6 and res["hits_on_target"] == 4  # 6 - 1 - 2: 0 to 3 hit
    assert "-2" in res["accumulating_smoke"]
    code, out, err = run(capsys, "resolve", "canister", "--range", "10", "--later", "--odds")
    assert code == 0, err
    assert "1D6 halved" in out
    odds = A.later_stick_odds(9, 6, 0)
    want = sum((A.stick_odds(9, 6, (f + 1) // 2)[0] for f in range(1, 7)), Fraction(0)) / 6
    assert odds[0] == want and sum(odds.values()) == 1
    assert f"P(0 hits) = {want}" in out


# -- item 2: XII.F.3 skirmishers stand up without deductions --------------------------------------


def test_skirmishers_stand_up_without_deductions_xii_f_3_c() -> None:
    """Seed 003 XII.F.3 'Skirmishers ... 1. Move 12 inches without deductions ... 3. No
    deductions for Standing Up': a prone skirmisher stands and moves 12", where a line of
    foot pays the 5 of F.1.4 ('Standing up takes 5 movement points')."""
    text = unit("sk", "union", 10, 20, 0, formation="skirmish") + unit("ln", "union", 10, 30, 0)
    text += unit("reb", "confederate", 50, 20, 180)
    b = battle(text, ByPurpose([]))
    sk, ln, _ = b.state.units
    assert MV.change_cost("stand_up", "foot", "skirmish") == 0
    assert MV.change_cost("prone", "foot", "skirmish") == 0
    assert MV.change_cost("stand_up", "foot", "line") == 5
    for u in (sk, ln):
        MK.book(b, u)["prone"] = True
    MOV.check_move(b, sk, sk.x + 12, sk.y, sk.theta, "stand")
    with pytest.raises(IllegalActionError, match=r'may move 4\.0" now'):
        MOV.check_move(b, ln, ln.x + 9, ln.y, ln.theta, "stand")
    MOV.do_move(b, sk, sk.x + 12, sk.y, sk.theta, "stand")
    assert sk.x == pytest.approx(22) and not MK.book(b, sk).get("prone")
    assert 'sk moves 12.0" (stand)' in said(b)


# -- item 3: a charge broken by the defender's reaction fire ---------------------------------------


def charge_rules(loss_roll: int) -> ByPurpose:
    """The charge reaches; the defender hears the cheer and fires (a 2), every d10 of its
    volley hits; the charger's officers are not hit and lose every contest; its loss roll
    shows ``loss_roll`` (XV.2.(3): 4 retreat 9", a rout; 6 nothing)."""
    return ByPurpose(
        [
            ("charges", 6),
            ("cheers?", 2),
            ("reaction to the charge", 2),
            ("reaction fire", 1),
            ("fires at", 10),
            ("is officer", 1),
            ("against the men", lambda n: [1, 9]),
            ("lost a piece", loss_roll),
            ("hand-to-hand", 3),
        ]
    )


def charge_battle(src: ByPurpose) -> Battle:
    text = unit("att", "confederate", 30, 20, 0) + unit("dfn", "union", 37, 20, 180)
    return battle(text, src)


def test_charger_routed_by_reaction_fire_fights_no_melee_xiii_b_1() -> None:
    """Seed 003 XIII.B.1.(1)(d) 'the defender will fire' and XVII.B 'Routes are rolled if a
    unit loses a piece' (reading charge_broken_by_fire): a charger routed by the fire is
    not put back in contact to fight hand-to-hand; the log says why it stopped."""
    src = charge_rules(loss_roll=4)
    b = charge_battle(src)
    att, dfn = b.state.units
    CH.resolve_charge(b, att, dfn)
    assert not [p for p in src.asked if "hand-to-hand" in p]
    assert MK.book(b, att).get("rout")
    assert b.dist(att.i, dfn.i) > 5  # it routed away and stays away
    assert 'att routs 9"' in said(b)
    assert "the charge of att is broken by the fire (it routs): no melee" in said(b)


def test_charger_that_stands_the_fire_goes_in_xiii_b_1() -> None:
    """Seed 003 XIII.B.1 and XVII.C (reading charge_broken_by_fire): a charger that loses a
    piece to the fire but rolls 'do nothing' (6) goes on into contact and fights."""
    src = charge_rules(loss_roll=6)
    b = charge_battle(src)
    att, dfn = b.state.units
    CH.resolve_charge(b, att, dfn)
    assert [p for p in src.asked if "hand-to-hand" in p]
    assert "hand-to-hand 1" in said(b) and "broken by the fire" not in said(b)


# -- item 4: hand-to-hand (XIV) ---------------------------------------------------------------


def melee_battle(src: DiceSource, formation: str = "line") -> Battle:
    text = unit("att", "confederate", 30, 20, 0, formation=formation) + unit(
        "dfn", "union", 37, 20, 180
    )
    b = battle(text, src)
    att, dfn = b.state.units
    x, y, th = CH.contact_spot(att, dfn)
    b.place(att, x, y, th)
    return b


def strike_dice(attacker: list[list[int]], defender: list[list[int]]) -> ByPurpose:
    """Hand-to-hand faces strike by strike; every officer holds (wins his contest)."""
    a, d = iter(attacker), iter(defender)
    return ByPurpose(
        [
            ("(attacker", lambda n: next(a)[:n]),
            ("(defender", lambda n: next(d)[:n]),
            ("against the men", lambda n: [9, 1]),
            ("is officer", 1),
        ]
    )


def test_column_pierces_through_a_hole_the_defender_does_not_back_xiv_b_d() -> None:
    """Seed 003 XIV.B.d 'The defender will place a red disrupted marker on the unit and
    create a hole for the attacker to pass through': the broken line stays where it stood
    (it does not also back 3"), disrupted, and the column goes on through it."""
    b = melee_battle(strike_dice([[6, 6, 6, 6]], [[1, 1, 1]]), formation="column")
    att, dfn = b.state.units
    x0, y0 = dfn.x, dfn.y
    CH.melee(b, att, dfn, att.stands, 12.0)
    assert (dfn.x, dfn.y) == (x0, y0)
    assert MK.book(b, dfn).get("disr")
    assert att.x > dfn.x  # through the hole
    assert "att pierces the line of dfn through the hole" in said(b)


def test_both_sides_hit_both_disrupted_xiv_a_3_b() -> None:
    """Seed 003 XIV.A.3.b 'If both players suffer hits: (1) The one with the higher number
    backs up 3 inches ... (3) At that point both players place red disrupted markers by
    their units' (reading melee_disruption): the attacker loses 1 to 2, both are marked."""
    b = melee_battle(strike_dice([[6, 2, 2, 1]], [[5, 5, 3, 3]]))
    att, dfn = b.state.units
    CH.melee(b, att, dfn, 4, 6.0)
    assert "hand-to-hand 1: [6, 2, 2, 1] against [5, 5, 3, 3]: 1 to 3" in said(b)
    assert MK.book(b, att).get("disr") and MK.book(b, dfn).get("disr")


def test_neither_side_scores_neither_disrupted_xiv_a_3() -> None:
    """Seed 003 XIV.A.3 (rules-notes 003: equal hits or none, neither side backs; reading
    melee_disruption): a strike where every pair cancels disrupts no one."""
    b = melee_battle(strike_dice([[4, 4, 4, 4]], [[4, 4, 4, 4, 4]]))
    att, dfn = b.state.units
    CH.melee(b, att, dfn, 4, 6.0)
    assert "0 to 0" in said(b) and "neither side gives way (no hits)" in said(b)
    assert not MK.book(b, att).get("disr") and not MK.book(b, dfn).get("disr")


def test_attacker_loses_unhurt_defender_not_disrupted_xiv_a_3_a() -> None:
    """Seed 003 XIV.A.3.a '(6) The attacker must back up 3 inches. (7) The attacker must
    place a red disruption marker on the unit. (8) The defender will suffer no loss and no
    disruption.'"""
    b = melee_battle(strike_dice([[6, 5, 4, 3, 2, 1]], [[6, 6, 4, 4, 2, 2, 2]]))
    att, dfn = b.state.units
    x0 = att.x
    CH.melee(b, att, dfn, 6, 6.0)
    assert MK.book(b, att).get("disr") and not MK.book(b, dfn).get("disr")
    assert att.x == pytest.approx(x0 - 3.0)


# -- item 4: a battery whose guns all misfired -------------------------------------------------


def test_all_guns_misfire_no_reaction_xi_b_1_b_1() -> None:
    """Seed 003 XI.B.1.b.(1) 'If there are no matching numbers, and most of the dice are even
    numbered, the gun misfired. (a) Do not place smoke if it is a misfire' (reading
    misfire_no_reaction): no smoke, and the target rolls no reaction (XV.3)."""
    src = ByPurpose([("first fire (5d10)", lambda n: [2, 4, 6, 8, 1])])
    text = unit("gun", "union", 10, 20, 0, type="artillery", stands=2)
    text += unit("reb", "confederate", 40, 20, 180)
    b = battle(text, src)
    gun, reb = b.state.units
    FI.volley(b, gun, reb, kind="shell")
    assert not [p for p in src.asked if "reaction" in p]
    assert MK.book(b, gun)["smoke"] == 0
    assert "gun: every gun misfires at reb (no smoke, no reaction)" in said(b)


# -- item 4: terrain (XVI) -----------------------------------------------------------------------

HILL = """[[terrain]]
kind = "hill"
name = "Hill"
points = [[0, 0], [60, 0], [60, 10], [0, 10]]
level = 1
"""

WALL = """[[terrain]]
kind = "wall"
variant = "stone"
name = "Wall"
points = [[0, 27], [60, 27]]
"""


def test_downhill_adds_its_die_xvi_c() -> None:
    """Seed 003 XVI.C 'Down Hill: Movement +D6 Halved': a line coming off the hill gains the
    halved die (a 6: 3") and moves 12" where its 9" would not reach; the narrative says
    the ground gains it 3"."""
    src = ByPurpose([("downhill", 6)])
    text = HILL + unit("ln", "union", 20, 5, 90) + unit("reb", "confederate", 50, 35, 270)
    b = battle(text, src)
    ln, _ = b.state.units
    cross = GD.terrain_cost(b, ln, 20, 17, 9.0)
    assert cross.left == 12 and cross.stop is None and cross.words == ['downhill gains 3"']
    with pytest.raises(IllegalActionError, match=r'12\.0" downhill'):
        MOV.check_move(b, ln, 20, 18, ln.theta, "")
    MOV.do_move(b, ln, 20, 17, ln.theta, "")
    assert ln.y == pytest.approx(17)
    assert 'ln moves 12.0" (downhill gains 3")' in said(b)


def test_a_low_downhill_die_stops_the_move_short_xvi_c() -> None:
    """Seed 003 XVI.C: a 1 halves to 1: the line ordered 12" down the hill goes 10"."""
    src = ByPurpose([("downhill", 1)])
    text = HILL + unit("ln", "union", 20, 5, 90) + unit("reb", "confederate", 50, 35, 270)
    b = battle(text, src)
    ln, _ = b.state.units
    MOV.do_move(b, ln, 20, 17, ln.theta, "")
    assert ln.y == pytest.approx(15)


def test_a_move_cut_short_onto_a_base_keeps_its_facing_where_turning_would_overlap() -> None:
    """Seed 003 XVI.C (the downhill die cuts the move short) with the engine's
    blocked_retreat_stops: the line ordered 12" down the hill, turning, gets 10" and that
    spot is taken; a friend alongside blocks the turn where it stands, so it neither moves
    nor turns onto the friend (conformance no-overlap, stone_wall seed 100120 ai/ai:
    83rd Pennsylvania turned onto 4th Texas)."""
    src = ByPurpose([("downhill", 1)])
    text = (
        HILL
        + unit("ln", "union", 20, 5, 90)
        + unit("near", "union", 23, 6.3, 90)
        + unit("far", "union", 16.8, 13.4, 90)
        + unit("reb", "confederate", 50, 35, 270)
    )
    b = battle(text, src)
    ln = b.state.units[0]
    MOV.do_move(b, ln, 20, 17, math.radians(135), "")
    assert b.bases_at(ln, ln.x, ln.y, ln.theta) == []
    assert (ln.x, ln.y, ln.theta) == (20, 5, pytest.approx(math.pi / 2))
    assert "ln does not move: another base is in its way" in said(b)


def wall_battle(face: int) -> tuple[Battle, ByPurpose]:
    src = ByPurpose([("stone wall (movement)", face)])
    text = WALL + unit("ln", "union", 20, 20, 90) + unit("reb", "confederate", 50, 38, 270)
    return battle(text, src), src


def test_wall_die_against_the_movement_left_at_the_wall_xvi_f() -> None:
    """Seed 003 XVI.F 'Stone wall: Movement deduction, roll 1D10. 1. If the number exceeds
    the amount of movement left, the regiment may not move for the rest of the turn': the
    wall is 7" ahead of a 9" move, so 3 exceeds the ~2.4" left there and the line halts at
    the wall, though 3 is less than its 9"."""
    b, _ = wall_battle(3)
    ln, _ = b.state.units
    MOV.do_move(b, ln, 20, 29, ln.theta, "")
    assert ln.y < 27 - ln.hd + 1e-6 and ln.y > 26  # at the wall, not over it
    assert MK.book(b, ln)["still"] == b.state.turn
    assert 'the stone wall costs 3", more than the 2.4" left there' in said(b)
    assert "it may not move for the rest of the turn" in said(b)


def test_wall_die_within_the_movement_left_xvi_f_2() -> None:
    """Seed 003 XVI.F.2 'If the number is lower than the number of movement points the player
    moves the balance of the movement after deducting the die roll': a 2 leaves 7", and the
    narrative prints the loss as a loss ('loses 2"')."""
    b, _ = wall_battle(2)
    ln, _ = b.state.units
    MOV.do_move(b, ln, 20, 29, ln.theta, "")
    assert ln.y == pytest.approx(27)
    assert 'ln moves 7.0" (stone wall loses 2")' in said(b)


# -- item 4: XIII.A.1 the charge's markers ---------------------------------------------------------


def test_charge_markers_on_the_table_xiii_a_1() -> None:
    """Seed 003 XIII.A.1 'Measures the distance of the charge, including deductions to the
    opponent's line and places a marker at the farthest point of advance, and places a
    marker where the charge will end should the attacker be successful' (reading
    charge_markers): both in the state and the narrative."""
    src = ByPurpose([("charges", 6), ("reaction to the charge", 10), ("hand-to-hand", 3)])
    b = charge_battle(src)  # the defender's 0 (10): no reaction; the strike is equal
    att, dfn = b.state.units
    x0 = att.x
    end_x = dfn.x - dfn.hd - att.hd  # the charger's centre when its front meets the line
    CH.resolve_charge(b, att, dfn)
    marks = {m["kind"]: m for m in b.state.extra["ar"]["markers"] if m["unit"] == "att"}
    assert set(marks) == {"farthest", "charge_end"}
    assert marks["farthest"]["x"] == pytest.approx(x0 + 15.0)  # 9" line move + the 6
    assert marks["farthest"]["y"] == pytest.approx(20)
    assert marks["charge_end"]["x"] == pytest.approx(end_x)
    assert "markers: farthest advance at (45.0, 20.0)" in said(b)
    assert "the charge ends at" in said(b)


# -- item 4: the wall covers the unit behind it, not the fire going out ----------------------------


def test_wall_covers_the_target_not_its_own_defenders_fire_xvi_f() -> None:
    """Seed 003 XVI.F 'Stone wall: ... Firing deduction, roll 1D6' and XVI.D 'minimal cover'
    (reading wall_covers_target): fire at the defenders behind the wall rolls the wall's
    d6; the defenders' own fire outward over it takes no wall deduction."""
    src = ByPurpose([("behind a stone wall", 4)])
    text = WALL + unit("dfn", "union", 20, 26.4, 90) + unit("reb", "confederate", 20, 33, 270)
    b = battle(text, src)
    dfn, reb = b.state.units
    ded, why = FI.deductions(b, dfn, reb, False)
    assert ded == 0 and why == []
    assert not [p for p in src.asked if "stone wall" in p]
    ded, why = FI.deductions(b, reb, dfn, False)
    assert ded == 4 and why == ["-4 stone wall"]


# -- item 4: a hit hand goes long or short by its pairs, in battle, resolve and the odds -----------


def test_hit_hand_of_ones_goes_long_in_battle_and_resolve_xi_b_1_b_5() -> None:
    """Seed 003 XI.B.1.b '(4) ... four and five of a kind, and straights indicate hits. (5)
    Pairs of 1s means the round went long' (reading artillery_round): four 1s are a hit
    that goes long; the battle misses as `resolve first-fire` says."""
    assert A.first_fire([1, 1, 1, 1, 5]) == A.Hand("four", "hit", "long")
    src = ByPurpose([("first fire (5d10)", lambda n: [1, 1, 1, 1, 5]), ("left or right", 3)])
    text = unit("gun", "union", 10, 20, 0, type="artillery", stands=1)
    text += unit("reb", "confederate", 40, 20, 180)
    b = battle(text, src)
    gun, reb = b.state.units
    FI.volley(b, gun, reb, kind="solid_shot")
    assert 'fires solid shot at reb (28.9"): 0 hits' in said(b)
    assert not [p for p in src.asked if "shot (" in p or "bounce" in p]


def test_round_odds_count_a_hit_hands_flight_xi_b_1_b_5_7() -> None:
    """Seed 003 XI.B.1.b.(5)-(7): the menus' exact odds of a solid shot on the target's line
    count a hit hand's long and short like any hand's (an oracle written from the reading
    artillery_round: long misses; short by 1D6 halved strikes on 1-2", if it bounces)."""
    shot = A.solid_shot_odds()
    bounced: dict[int, Fraction] = {0: Fraction(1, 2)}
    for k, q in ((0, Fraction(1, 4)), (1, Fraction(1, 2)), (2, Fraction(1, 4))):
        bounced[k] = bounced.get(k, Fraction(0)) + q / 2
    want: dict[int, Fraction] = {}

    def add(dist: dict[int, Fraction], p: Fraction) -> None:
        for h, q in dist.items():
            want[h] = want.get(h, Fraction(0)) + p * q

    for (result, fl), p in A.result_odds(False).items():
        if result == "misfire":
            add({0: Fraction(1)}, p)
            continue
        if result == "dud":
            flights = {"short": Fraction(1, 6), "long": Fraction(1, 6), "": Fraction(4, 6)}
        elif fl == "both":
            flights = {"short": Fraction(1, 2), "long": Fraction(1, 2)}
        else:
            flights = {fl: Fraction(1)}
        for f, q in flights.items():
            if f == "long":
                add({0: Fraction(1)}, p * q)
            elif f == "short":
                add(bounced, p * q * Fraction(2, 3))
                add({0: Fraction(1)}, p * q * Fraction(1, 3))
            else:
                add(shot, p * q)
    FI.round_odds.cache_clear()
    got = FI.round_odds("solid_shot", False, 3)
    assert {k: v for k, v in got.items() if v} == {k: v for k, v in want.items() if v}


# -- item 4: XII.D fog per hollow ------------------------------------------------------------------

RIDGE = """[[terrain]]
kind = "hill"
name = "Ridge"
points = [[0, 17], [60, 17], [60, 23], [0, 23]]
level = 1
"""


def test_fog_per_hollow_and_the_battery_above_it_xii_d_1_c_d() -> None:
    """Seed 003 XII.D.1 'c. Place a playing card in each of the hollows to indicate the fog
    level. d. The hills and hillsides are above the fog' (reading fog_per_hollow): the two
    hollows either side of a ridge thin on their own dice; a battery on the ridge pays only
    the fog of the hollow it fires into; a line in a hollow moves under its fog."""
    src = ByPurpose([("fog in hollow 1 thin", 10), ("fog in hollow 2 thin", 9)])
    text = RIDGE + unit("gun", "union", 20, 20, 90, type="artillery", stands=1)
    text += unit("south", "confederate", 20, 8, 90) + unit("north", "confederate", 30, 32, 270)
    b = battle(text, src)
    gun, south, north = b.state.units
    step = S.Fog(3)
    step.auto(b, "confederate")
    assert GD.hollows(b)[1] == 2
    assert "Fog: thickness 3 in each of the 2 hollows" in said(b)
    step.auto(b, "confederate")  # hollow 1 (south) thins on its 0; hollow 2 stays on a 9
    assert b.state.extra["ar"]["fog_hollows"] == [2, 3]
    assert "Fog in hollow 1 (0): thickness 2, in hollow 2 (9): thickness 3" in said(b)
    assert FI.deductions(b, gun, south, False) == (3, ["-2 fog 2", "-1 hill"])
    assert GD.fog_line(b, gun, south) == 2 and GD.fog_line(b, gun, north) == 3
    assert GD.fog_line(b, south, north) == 3  # the thicker of the two ends
    assert MOV.allowance(b, gun, "line", False, True) == 26  # limbered on the ridge: no fog
    assert MOV.allowance(b, south, "line", False, False) == 9 - 2
    assert not GD.clear_field(b, gun, south)


# -- item 4: XI.C.1 consecutive fire at a called range ---------------------------------------------


def called_battle() -> tuple[Battle, ByPurpose]:
    """One gun at a line 20" off; every hand is a straight (a hit on range), no deviation;
    the target's reaction die does nothing."""
    src = ByPurpose(
        [
            ("fire (5d10)", lambda n: [1, 2, 3, 4, 5]),
            ("left or right", 3),
            ("under fire: its reaction", 6),
            ("bounce", 2),
            ("shot (", 2),
        ]
    )
    text = unit("gun", "union", 10, 20, 0, type="artillery", stands=1)
    text += unit("reb", "confederate", 31.5, 20, 180)
    return battle(text, src), src


def test_consecutive_fire_lands_at_the_called_range_xi_c_1() -> None:
    """Seed 003 XI.C.1 'Call the range in inches toward the target' (reading called_range):
    a second shot at the same target lands where the range is called; called 6" long of
    the target, the straight passes over it; called on it, it strikes."""
    b, _src = called_battle()
    gun, reb = b.state.units
    d = b.dist(gun.i, reb.i)
    FI.volley(b, gun, reb, kind="solid_shot")  # first fire: laid on the measured range
    assert MK.book(b, gun)["aim_range"] == pytest.approx(d)
    assert f'fires solid shot at reb ({d:.1f}"): 2 hits' in said(b)
    FI.guns(b, gun, reb, "solid_shot", d + 6)
    assert f'fires solid shot at reb ({d:.1f}", range called {d + 6:.1f}"): 0 hits' in said(b)
    FI.guns(b, gun, reb, "solid_shot", d)
    assert f'range called {d:.1f}"): 2 hits' in said(b)


def test_called_range_refused_on_first_fire_xi_b() -> None:
    """Seed 003 XI.B first fire is laid on the measured range; XI.C.1 calls it on
    consecutive fire only (reading called_range): a called range at a new target is
    refused in one line, changing nothing."""
    b, _ = called_battle()
    gun, reb = b.state.units
    with pytest.raises(IllegalActionError, match=r"first fire at reb is laid on the measured"):
        FI.called_range(b, gun, reb, Fire("fire", reb.i, "shell", 12.0), "shell")
    MK.book(b, gun)["aim"] = reb.id
    assert FI.called_range(b, gun, reb, Fire("fire", reb.i, "shell", 12.0), "shell") == 12.0
    with pytest.raises(IllegalActionError, match="canister is laid on the rifle stick"):
        FI.called_range(b, gun, reb, Fire("fire", reb.i, "canister", 12.0), "canister")


def test_resolve_consecutive_fire_with_a_called_range_xi_c_1(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Seed 003 XI.C.1 at the table: `resolve first-fire --consecutive --called 14 --range
    12` says where the round lands before its flight; first fire refuses a called range."""
    from test_acw_cli import one_line_error, run

    args = ["resolve", "first-fire", "--consecutive", "--called", "14", "--range", "12"]
    code, out, err = run(capsys, *args, "--roll", "1 1 3 5 7", "--json")
    assert code == 0, err
    res = json.loads(out)
    assert 'lands 2" beyond it' in res["called"] and res["flight"].startswith("long")
    code, out, err = run(capsys, "resolve", "first-fire", "--called", "14", "--range", "12")
    one_line_error(code, out, err, "--called: first fire is laid on the measured range (XI.B)")


# -- the invariants these fixes establish (umpire.battle.invariants) -------------------------------


def _check(b: Battle, inv_id: str, said_lines: list[str], kind: str = "charges") -> list[str]:
    from umpire.battle.invariants import StepSeen, module_invariants

    check = dict((f"{m}:{i.id}", i) for m, i in module_invariants(b.comp))[
        f"action-reaction:{inv_id}"
    ].check
    st = b.state.to_json()
    seen = StepSeen(b, 1, 0, "union", kind, kind, None, None, st, st, said_lines, [], None)
    return check(seen)


def test_invariant_a_charge_is_fought_or_says_why_xiii_xiv() -> None:
    """Seed 003 XIII-XIV (invariant charge-told): a charge that goes in without hand-to-hand
    and without a word why is a violation; one that says it fell short is not."""
    b = charge_battle(ByPurpose([]))
    head = 'att charges dfn (6.0" away): dice [3, 4, 2, 1], 12.0" at the centre'
    assert _check(b, "charge-told", [head, "  att cheers (2); dfn reacts (3)"])
    assert not _check(b, "charge-told", [head, "  the charge falls short of dfn"])
    assert not _check(b, "charge-told", [head, "  hand-to-hand 1: [6] against [1]: 1 to 0"])


def test_invariant_a_broken_charge_fights_no_melee_xiii_b_1() -> None:
    """Reading charge_broken_by_fire (invariant broken-charge): hand-to-hand after the
    charge was broken by the fire is a violation."""
    b = charge_battle(ByPurpose([]))
    head = 'att charges dfn (6.0" away): dice [3, 4, 2, 1], 12.0" at the centre'
    broken = "  the charge of att is broken by the fire (it routs): no melee"
    assert _check(b, "broken-charge", [head, broken, "  hand-to-hand 1: [6] against [1]: 1 to 0"])
    assert not _check(b, "broken-charge", [head, broken])


def test_charge_blocked_by_another_base_says_so_and_overlaps_none() -> None:
    """Seed 003 XIII-XIV with the engine's no-overlap: a charger whose contact spot is taken
    by another unit stops short of it, and the narrative names the unit in the way."""
    src = ByPurpose([("charges", 6), ("reaction to the charge", 10)])
    text = unit("att", "confederate", 30, 20, 0) + unit("dfn", "union", 37, 20, 180)
    text += unit("friend", "confederate", 34.2, 20, 90, stands=1)
    b = battle(text, src)
    att, dfn, _friend = b.state.units
    CH.resolve_charge(b, att, dfn)
    assert not b.bases_at(att, att.x, att.y, att.theta)
    assert "the charge of att halts short of dfn" in said(b) and "friend" in said(b)
    assert "hand-to-hand" not in said(b)


def test_attacker_follows_only_to_its_farthest_advance_xiv_a_3_b_2() -> None:
    """Seed 003 XIV.A.3.b.(2) 'If the defender backs up and has not reached the farthest
    point of advance marked by the attacker the attacker strikes the defender again ...
    (b) Or the attacker reaches the farthest point of advance': a defender that also routs
    9" on its loss roll is beyond the attacker's 6" advance; no second strike."""
    src = ByPurpose(
        [
            ("(attacker", 6),
            ("(defender", 1),
            ("is officer", 1),
            ("against the men", lambda n: [1, 9]),
            ("lost a piece", 4),
        ]
    )
    b = melee_battle(src)
    att, dfn = b.state.units
    x0 = att.x
    CH.melee(b, att, dfn, 4, 6.0)
    assert "hand-to-hand 1" in said(b) and "hand-to-hand 2" not in said(b)
    assert 'dfn routs 9"' in said(b) and "att reaches its farthest point of advance" in said(b)
    assert att.x == pytest.approx(x0 + 6.0)


def test_a_players_look_makes_no_003_marks_under_card_draw() -> None:
    """Issue 20, "replay from the log gives the same state"; seed 003 default
    ``officers_per_unit`` ("Every unit, battery included, starts with 3 officers"): a unit
    has its officers (and a battery its rounds, 003 XV.A) from the start, under any
    sequence. Under seed 004's card draw there is no XII Muster step, so a unit's book was
    made on first use, and the odds AI's look at units off the drawn card made books that
    the replay of faces and orders never made (large run: stone_wall_cards seed 100005,
    odds v random: "the replay of the faces and orders reached another state")."""
    from umpire.ai.odds_ai import OddsAI
    from umpire.battle.run import state_hash
    from umpire.battle.scenario import load_scenario
    from umpire.dice import SeededSource

    b = new_battle(load_scenario("stone_wall_cards"), SeededSource(100005))
    req = b.next_request()
    assert req is not None
    assert all(MK.KEY in u.extra for u in b.state.units if u.alive)
    before = state_hash(b.state.to_json())
    OddsAI().decide(b, req)
    assert state_hash(b.state.to_json()) == before


def test_large_run_seed_100005_replays_to_the_same_state() -> None:
    """Issue 20, "replay from the log gives the same state": the large-run battle that
    found it (stone_wall_cards seed 100005, odds v random; it ends in turn 1) now replays
    to the identical state."""
    from umpire.battle.scenario import load_scenario
    from umpire.lab.conformance import check_battle

    c = check_battle(load_scenario("stone_wall_cards"), 100005, ("odds", "random"))
    assert c.failures() == []
