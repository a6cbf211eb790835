"""Seed 003 engagements on the table: skirmish fire (XV.1), collisions (XVII.D), a column
piercing a line and striking the next unit (XIV.B.2), and the charge menu's exact odds of
the defender's reaction (XIII.A.2, XIII.B.1-2) checked against enumeration."""

from __future__ import annotations

import math
from fractions import Fraction
from itertools import product

import pytest

from umpire.battle.engine import Battle
from umpire.battle.run import new_battle
from umpire.battle.scenario import parse_scenario
from umpire.dice import ScriptedSource
from umpire.dice.sources import DiceSource
from umpire.errors import DataFileError, IllegalActionError
from umpire.rules.action_reaction import charging as CH
from umpire.rules.action_reaction import firing as FI
from umpire.rules.action_reaction import marks as MK
from umpire.rules.action_reaction import melee as M
from umpire.rules.action_reaction import menu as MN
from umpire.rules.action_reaction import moving as MOV
from umpire.rules.action_reaction import officers as O
from umpire.rules.action_reaction import steps as S

HEAD = """name = "t"
[rules]
sequence = "action-reaction"
combat = "action-reaction"
[table]
width = 48
height = 36
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


def battle(text: str, source: DiceSource) -> Battle:
    return new_battle(parse_scenario(HEAD + text, "t.toml"), source, narrate=True)


def said(b: Battle) -> str:
    return "\n".join(b.lines)


class HandToHand(DiceSource):
    """The attacker's hand-to-hand dice all 6, the defender's all 1 (a charge that wins);
    every other die counts up through its faces (so no contest ties for ever)."""

    kind = "scripted"

    def __init__(self) -> None:
        self.k = 0

    def dice(self, n: int, sides: int, purpose: str = "") -> list[int]:
        if "hand-to-hand" in purpose:
            return [6 if "attacker" in purpose else 1] * n
        out = [(self.k + i) % sides + 1 for i in range(n)]
        self.k += n
        return out


# -- XV.1 skirmish fire -------------------------------------------------------------------------


def test_skirmish_fire_turns_the_adjacent_fields_xv_1_a() -> None:
    """003 XV.1.a: 'Units within the adjacent fields may change their facings in reaction to
    what could be a real threat' (reading skirmish_fields: within 6 inches); no d10 rolled."""
    text = (
        unit("sk", "confederate", 10, 18, 0, formation="skirmish")
        + unit("target", "union", 20, 18, 90)
        + unit("near", "union", 20, 23, 90)
        + unit("far", "union", 20, 31, 90)
    )
    src = ScriptedSource([9] * 4)  # four d10, one per piece in skirmish order, all misses
    b = battle(text, src)
    sk, target, near, far = b.state.units
    far_theta = far.theta
    FI.volley(b, sk, target)
    assert src.remaining() == ()  # no reaction die: skirmish fire asks none (XV.1)
    for v in (target, near):
        want = math.atan2(sk.y - v.y, sk.x - v.x)
        assert math.remainder(v.theta - want, 2 * math.pi) == pytest.approx(0, abs=1e-9)
        assert not MK.book(b, v).get("react")
    assert far.theta == far_theta  # beyond the adjacent fields
    assert "turns to face the skirmishers of sk" in said(b)


def test_line_fire_rolls_the_reaction_not_a_turn_xv_2() -> None:
    """003 XV.2.a.(2): infantry fire (not skirmish) refers to the d10 list of XIII.B.1."""
    text = unit("line", "confederate", 10, 18, 0) + unit("target", "union", 20, 18, 90)
    src = ScriptedSource([9, 9, 9, 9, 10])  # four misses, then the reaction d10 shows 0
    b = battle(text, src)
    line, target = b.state.units
    theta = target.theta
    FI.volley(b, line, target)
    assert src.remaining() == ()
    assert target.theta == theta


def test_skirmish_order_is_foot_only_and_does_not_charge_xii_h() -> None:
    """003 XII.F.3 moves skirmishers; XII.H.3-4 charges are in line or column (reading
    skirmish_order); a battery cannot form skirmish order."""
    text = (
        unit("sk", "confederate", 10, 18, 0, formation="skirmish")
        + unit("gun", "confederate", 10, 8, 0, type="artillery", stands=2)
        + unit("target", "union", 16, 18, 180)
    )
    b = battle(text, ScriptedSource([]))
    sk, gun, target = b.state.units
    assert "may not charge in skirmish order" in CH.may_charge(b, sk, target)
    with pytest.raises(IllegalActionError, match="cannot form skirmish"):
        MOV.after_change(gun, "skirmish", False)
    assert MOV.after_change(target, "skirmish", False)[0] == "skirmish"
    assert FI.fire_line(sk) == 4  # every piece on the firing line


def test_a_formation_the_combat_does_not_have_is_refused_at_its_line() -> None:
    """The formations are the combat module's: seed 002 has line and column only."""
    text = "name = 't'\n[table]\nwidth = 48\nheight = 36\nturns = 3\n\n" + unit(
        "a", "union", 10, 10, 0, formation="skirmish"
    )
    with pytest.raises(DataFileError) as exc:
        parse_scenario(text, "q.toml")
    msg = str(exc.value)
    assert "unknown formation 'skirmish' for quick-acw (line, column)" in msg
    lines = text.splitlines()
    line = next(n for n, t in enumerate(lines, 1) if t.startswith("formation"))
    assert f"q.toml:{line}" in msg and "\n" not in msg


# -- XVII.D collisions --------------------------------------------------------------------------


def _backed_into_a_friend(faces: list[int]) -> tuple[Battle, ScriptedSource]:
    text = (
        unit("enemy", "confederate", 10, 18, 0)
        + unit("front", "union", 20, 18, 180)
        + unit("behind", "union", 22.5, 18, 180)
    )
    src = ScriptedSource(faces)
    return battle(text, src), src


def test_a_withdrawal_into_a_friend_is_a_collision_with_a_fire_reaction_xvii_d() -> None:
    """003 XVII.D: 'If a unit collides with another unit it will roll 1 D10 for a reaction'
    (default collision_reaction: the d10 list; an even die fires)."""
    # the collision d10 (2: fire), the reaction fire's 1D6 halved, four d10 at the stick
    b, src = _backed_into_a_friend([2, 3, 9, 9, 9, 9])
    enemy, front, _behind = b.state.units
    x0 = front.x
    FI.displace(b, front, enemy, 3.0, False, "withdraw")
    assert src.remaining() == ()
    assert x0 < front.x < x0 + 3.0  # stopped against the base behind
    assert MK.book(b, front)["react"] == "fire"
    assert "front collides with behind (2): fire" in said(b)
    assert "front fires at enemy" in said(b)


def test_a_collision_that_rolls_a_zero_does_nothing_xvii_d() -> None:
    """XIII.B.1.(1)(b): a 10 (the d10's 0) is no reaction."""
    b, src = _backed_into_a_friend([10])  # the d10 shows 0
    enemy, front, _ = b.state.units
    FI.displace(b, front, enemy, 3.0, False, "withdraw")
    assert src.remaining() == ()
    assert not MK.book(b, front).get("react")


def test_a_routed_unit_meeting_a_base_only_stops_collision_in_battle() -> None:
    """Reading collision_in_battle: a rout (facing away) that meets a base rolls nothing."""
    b, _src = _backed_into_a_friend([])  # no dice: any roll would raise
    enemy, front, _ = b.state.units
    x0 = front.x
    FI.displace(b, front, enemy, 9.0, True, "rout")
    assert x0 < front.x < x0 + 3.0 and front.alive
    assert "collides" not in said(b)


def test_a_clear_withdrawal_is_no_collision() -> None:
    text = unit("enemy", "confederate", 10, 18, 0) + unit("front", "union", 20, 18, 180)
    src = ScriptedSource([])
    b = battle(text, src)
    enemy, front = b.state.units
    FI.displace(b, front, enemy, 3.0, False, "withdraw")
    assert front.x == pytest.approx(23.0)


# -- XIV.B.2 the column pierces ------------------------------------------------------------------


def _column_and_two_lines(second_x: float | None) -> Battle:
    text = unit("col", "confederate", 10, 18, 0, formation="column") + unit(
        "first", "union", 14, 18, 180
    )
    if second_x is not None:
        text += unit("second", "union", second_x, 18, 180)
    return battle(text, HandToHand())


def test_the_column_pierces_and_strikes_the_next_unit_xiv_b_2_a() -> None:
    """003 XIV.B.2: 'The attacker pierced the opponent's line and continues forward until
    reaching the point of advance or striking another unit. a) If it strikes another unit,
    hand-to-hand will result.'"""
    b = _column_and_two_lines(24)
    col, first, second = b.state.units
    x, y, th = CH.contact_spot(col, first)
    b.place(col, x, y, th)
    CH.melee(b, col, first, col.stands, 12.0)
    text = said(b)
    assert "col pierces the line of first" in text
    assert "col strikes second" in text
    assert "hand-to-hand 1" in text and text.count("hand-to-hand 1") == 2
    assert MK.book(b, second)["hits"] > 0 or second.stands < 4 or not second.alive


def test_the_column_halts_at_its_point_of_advance_xiv_b_2_b() -> None:
    """003 XIV.B.2.b: 'If it reaches the point of advance, it will halt and place a red
    disruption marker on the unit' (a unit beyond the advance is not struck)."""
    b = _column_and_two_lines(40)
    col, first, _second = b.state.units
    x, y, th = CH.contact_spot(col, first)
    b.place(col, x, y, th)
    CH.melee(b, col, first, col.stands, 12.0)
    assert col.x == pytest.approx(x + 12.0)  # through the hole in the broken line
    assert MK.book(b, col).get("disr")
    assert "strikes second" not in said(b)
    assert 'goes on 12.0" to its point of advance' in said(b)


def test_a_point_of_advance_on_the_broken_line_halts_before_it_column_pierces() -> None:
    """Reading column_pierces: the hole lets the column through the broken line, not onto
    it; a point of advance on its base halts the column short of it, disrupted. The broken
    line does not back up (XIV.B.d, reading melee_disruption), so it halts where it struck."""
    b = _column_and_two_lines(None)
    col, first = b.state.units
    x, y, th = CH.contact_spot(col, first)
    b.place(col, x, y, th)
    fx0 = first.x
    CH.melee(b, col, first, col.stands, 3.5)
    assert first.x == fx0
    assert col.x == pytest.approx(x) and col.x < first.x - first.hd - col.hd + 1e-6
    assert MK.book(b, col).get("disr")


def test_a_column_that_strikes_a_unit_close_behind_the_hole_ends_clear_of_it_xiv_b_2() -> None:
    """003 XIV.B.2: 'The attacker pierced the opponent's line and continues forward until
    reaching the point of advance or striking another unit'; reading column_pierces: the
    hole lets it through the broken line, not stand in it. A second line close behind the
    first is struck from inside the hole; when the column then halts it goes to the nearest
    free spot on its line, not onto the broken line (conformance: stone_wall seed 100202
    random/odds ended its charge overlapping 83rd Pennsylvania)."""
    b = _column_and_two_lines(14 + 2 * 0.375 + 0.05)  # second touches first's rear
    col, first, _second = b.state.units
    x, y, th = CH.contact_spot(col, first)
    b.place(col, x, y, th)
    CH.melee(b, col, first, col.stands, 1.0)
    text = said(b)
    assert "col strikes second" in text and "col halts at its point of advance" in text
    assert b.bases_at(col, col.x, col.y, col.theta) == []
    assert col.x + col.hd <= first.x - first.hd + 1e-6  # back where it came from
    assert MK.book(b, col).get("disr")


# -- the charge menu's odds of the reaction -----------------------------------------------------


def _brute_give_way(clear: bool, officers: int) -> tuple[Fraction, Fraction]:
    """Enumerate cheer, hearing and reaction d10s; the officers' contests by hand: each
    contest re-rolls ties, so an officer wins with P(off > men | off != men)."""
    wins = sum(1 for o, m in product(range(10), repeat=2) if O.contest(o, m) == "officer")
    ties = sum(1 for o, m in product(range(10), repeat=2) if O.contest(o, m) == "tie")
    w = Fraction(wins, 100 - ties)
    hold = 1 - (1 - w) ** officers
    away = fires = Fraction(0)
    for cheer, hear, face in product(range(10), repeat=3):
        if not M.reacts(cheer, hear, clear):
            continue
        what = M.reaction(face)[0]
        if what in ("retreat", "withdraw"):
            away += Fraction(1, 1000) * (1 - hold)
        elif what == "fire":
            fires += Fraction(1, 1000)
    return away, fires


@pytest.mark.parametrize("fog", [0, 3])
@pytest.mark.parametrize("officers", [0, 1, 3])
def test_charge_menu_reaction_odds_equal_enumeration_xiii_b(fog: int, officers: int) -> None:
    """003 XIII.A.2 (cheer and hear), XIII.B.1 (the d10 list), XIII.B.2 (the officer's
    contest): the menu's P(gives way) and P(fires) are exact."""
    text = unit("a", "confederate", 10, 18, 0) + unit("d", "union", 16, 18, 180)
    b = battle(text, ScriptedSource([]))
    a, d = b.state.units
    b.state.extra.setdefault("ar", {})["fog"] = fog
    MK.book(b, d)["off"] = officers
    assert CH.give_way_odds(b, a, d) == _brute_give_way(fog == 0, officers)
    choice = MN.charge_choice(b, a, d)
    assert choice is not None
    away, fires = _brute_give_way(fog == 0, officers)
    assert f"gives way {float(away):.0%}, fires {float(fires):.0%}" in choice.text


# -- XII.B, XII.G, XVII.C -----------------------------------------------------------------------


@pytest.mark.parametrize(("officer", "men", "stopped"), [(8, 3, True), (3, 8, False)])
def test_stopping_a_reaction_is_the_officer_against_the_men_xii_b(
    officer: int, men: int, stopped: bool
) -> None:
    """003 XII.B 'Stop Unit Reactions': the officer's d10 against the men's; the higher wins
    (reading any_officer_rallies: one officer, one contest)."""
    text = unit("a", "confederate", 10, 18, 0) + unit("d", "union", 20, 18, 180)
    src = ScriptedSource([officer, men])
    b = battle(text, src)
    _, d = b.state.units
    MK.book(b, d).update({"off": 1, "react": "withdraw", "disr": True})
    S.StopReactions().auto(b, "union")
    assert src.remaining() == ()
    assert (not MK.book(b, d).get("react")) is stopped
    assert (not MK.book(b, d).get("disr")) is stopped


def test_charges_are_announced_in_movement_and_resolved_after_it_xii_g() -> None:
    """003 XII.G 'All the players move their troops simultaneously unless a unit opts to
    charge' and XII.H 'Announcing a Charge': the order puts a marker; nothing moves until the
    charges are resolved after both sides' movement."""
    text = unit("a", "confederate", 10, 18, 0) + unit("d", "union", 16, 18, 180)
    b = battle(text, HandToHand())
    a, d = b.state.units
    before = (a.x, d.x)
    S.MoveStep().apply(b, "confederate", a.i, ("charge", d.i))
    assert (a.x, d.x) == before
    assert b.state.extra["ar"]["charges"] == [[a.i, d.i]]
    assert "announces a charge on d" in said(b)
    S.Charges().auto(b, "confederate")
    assert a.x != before[0]  # the charge went in (or fell short) at the charges step
    assert "charges d" in said(b)


def test_a_piece_lost_rolls_the_d6_reaction_xvii_c() -> None:
    """003 XVII.C 'The unit rolls 1 D6 as cited in XV, 2., (3)' (reading loss_roll): with
    no officer to rally it, a 1 withdraws it 3 inches away from the enemy."""
    assert M.column_reaction(1) == ("withdraw", 3)
    text = unit("a", "confederate", 10, 18, 0) + unit("d", "union", 20, 18, 180)
    src = ScriptedSource([1])
    b = battle(text, src)
    _, d = b.state.units
    MK.book(b, d)["off"] = 0
    MK.loss_roll(b, d)
    assert src.remaining() == ()
    assert d.x == pytest.approx(23.0)
    assert MK.book(b, d)["react"] == "withdraw"
