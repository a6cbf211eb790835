"""Issue 25's speed goal on seed 003 (Action/Reaction): the short cuts of the menus give the
very answers of the rules they stand for. Each test names the seed section whose rule the
short cut must not change; the golden battles (``test_scalar_golden.py``) hold the whole
battles and menus equal."""

from __future__ import annotations

import math
import random
from fractions import Fraction
from itertools import product

import shapely

from test_action_reaction_issue20 import RIDGE, WALL, ByPurpose, battle, unit
from umpire.battle.engine import Battle
from umpire.errors import IllegalActionError
from umpire.rules.action_reaction import artillery as ART
from umpire.rules.action_reaction import charging as CH
from umpire.rules.action_reaction import firing as FI
from umpire.rules.action_reaction import ground as GD
from umpire.rules.action_reaction import marks as MK
from umpire.rules.action_reaction import menu as MN
from umpire.rules.action_reaction import menu_odds as MO
from umpire.rules.action_reaction import moving as MOV
from umpire.rules.action_reaction import terrain as T


def test_walls_on_a_path_are_kept_as_worked_out_reading_walls_and_fences() -> None:
    """Seed 003 XVI.D-F (reading ``walls_and_fences``: the walls a straight move crosses,
    nearest first): the paths kept per setup give what shapely works out, asked again."""
    b = battle(WALL + unit("dfn", "union", 20, 26.4, 90), ByPurpose([]))
    paths = [(20.0, 20.0 + k, 20.0 + k / 3, 34.0) for k in range(6)]
    paths += [(5.0, 30.0, 40.0, 30.0), (10.0, 10.0, 40.0, 40.0)]
    for x0, y0, x1, y1 in paths:
        first = GD.walls_on_path(b, x0, y0, x1, y1)
        assert first == GD._walls_on_path(b, x0, y0, x1, y1)
        assert GD.walls_on_path(b, x0, y0, x1, y1) is first  # kept
    assert any(GD.walls_on_path(b, *p) for p in paths)  # the stone wall is met


def _walls_by_shapely(b: Battle, x0: float, y0: float, x1: float, y1: float) -> list[object]:
    """``ground._walls_on_path`` as it was, all by shapely: the reference (it raises where
    the path runs along a wall or crosses a bent one twice: not a point to project)."""
    import shapely

    line = shapely.LineString([(x0, y0), (x1, y1)])
    out = []
    for kind, *_, wall, _seg in GD._walls(b):
        if line.intersects(wall):
            out.append((float(line.project(line.intersection(wall))), kind))
    return sorted(out)


def test_walls_on_a_path_are_shapelys_floats_reading_walls_and_fences() -> None:
    """Seed 003 XVI.D-F (reading ``walls_and_fences``: 'the inches along a move to each
    wall it crosses'): the straight walls' crossings worked out without shapely
    (``umpire.board.crossing``) are shapely's floats on 3,000 moves and lines of fire on
    the stone_wall board (a stone wall and a rail fence), including moves that end or
    start on the wall and run along it; a wall of several segments is shapely's own."""
    text = WALL + '[[terrain]]\nkind = "wall"\nvariant = "rail"\nname = "Bent"\n'
    text += "points = [[4, 19], [18, 21], [32, 19]]\n"
    b = battle(text + unit("dfn", "union", 20, 26.4, 90), ByPurpose([]))
    walls = GD._walls(b)
    assert [w[6] is None for w in walls] == [False, True]
    rnd = random.Random(3)
    met = raised = 0
    for k in range(3000):
        x0, y0 = rnd.uniform(0, 60), rnd.uniform(10, 40)
        d, th = rnd.uniform(0.5, 14), rnd.uniform(0, 2 * math.pi)
        x1, y1 = x0 + d * math.cos(th), y0 + d * math.sin(th)
        if k % 5 == 1:
            y1 = 27.0  # ends on the stone wall
        elif k % 5 == 2:
            y0 = 27.0  # starts on it
        elif k % 5 == 3:
            y0 = y1 = 27.0 + rnd.choice([0.0, 1e-12])  # along it
        try:
            want = _walls_by_shapely(b, x0, y0, x1, y1)
        except shapely.errors.GEOSException:  # along a wall, or twice across the bent one
            got = GD._walls_on_path(b, x0, y0, x1, y1)  # reading path_along_wall instead
            length = math.hypot(x1 - x0, y1 - y0)
            assert got and got == sorted(got), (x0, y0, x1, y1)
            assert all(0.0 <= at <= length + 1e-9 for at, _ in got), (got, length)
            raised += 1
            continue
        got = GD._walls_on_path(b, x0, y0, x1, y1)
        assert got == want, (x0, y0, x1, y1)
        met += bool(got)
    assert met > 600
    assert 0 < raised < 500


def test_a_path_along_a_wall_or_twice_across_a_bent_one_reading_path_along_wall() -> None:
    """Seed 003 XVI (reading ``path_along_wall``): a move or line of fire run along a wall's
    line meets it once, where it first touches it; one that crosses a bent fence twice meets
    it at each crossing (shapely cannot project either: the step raised GEOSException)."""
    text = WALL + '[[terrain]]\nkind = "wall"\nvariant = "rail"\nname = "Bent"\n'
    text += "points = [[4, 19], [18, 21], [32, 19]]\n"
    b = battle(text + unit("dfn", "union", 20, 26.4, 90), ByPurpose([]))
    (stone,) = [w for w in GD._walls(b) if w[6] is not None]
    y = stone[3]  # the stone wall's line (it runs level)
    assert stone[3] == stone[4]
    along = GD._walls_on_path(b, stone[1] - 3.0, y, stone[1] + 5.0, y)
    assert along == [(3.0, stone[0])]
    twice = GD._walls_on_path(b, 10.0, 20.0, 26.0, 20.0)  # under the bend's peak, across both legs
    assert [k for _, k in twice] == ["rail_fence", "rail_fence"]
    assert twice[0][0] < twice[1][0] and 0 < twice[0][0] < 8 < twice[1][0] < 16


def test_hollows_are_kept_by_the_ground_they_label_reading_fog_per_hollow() -> None:
    """Seed 003 XII.D.1 'c. Place a playing card in each of the hollows' (reading
    ``fog_per_hollow``): the hollows kept for a board's levels are the flood fill's of a
    new setup on the same ground, and other ground (a ridge splitting the low ground in
    two) gets its own."""
    flat = battle(unit("a", "union", 20, 5, 90), ByPurpose([]))
    again = battle(unit("a", "union", 21, 5, 90), ByPurpose([]))  # same ground, new setup
    assert again.setup is not flat.setup
    board = flat.setup.board
    level = board.level.ravel().tolist()
    fresh = GD._label_hollows(board.nx, board.ny, level)
    assert GD.hollows(flat) == fresh and GD.hollows(again) == fresh
    assert GD.hollows(flat)[1] == 1
    ridged = battle(RIDGE + unit("a", "union", 20, 5, 90), ByPurpose([]))
    assert GD.hollows(ridged)[1] == 2
    rb = ridged.setup.board
    assert GD.hollows(ridged) == GD._label_hollows(rb.nx, rb.ny, rb.level.ravel().tolist())


def test_a_move_menus_charges_are_charge_offer_for_each_enemy_xii_h() -> None:
    """Seed 003 XII.H (reading ``charges_only_foot_and_horse``, ``charge_path_clear``): the
    move menu works out the charger's part of ``may_charge``, its dice and allowance once;
    its charge offers are still :func:`menu.charge_offer`'s for each of the six nearest
    enemies, in order (orders and odds): one behind the wall, one out of its front, one
    behind another's base, one beyond its longest charge; and none when the charger itself
    may not charge (disrupted)."""
    text = WALL + unit("reb", "confederate", 20, 36.0, 270, stands=2)
    text += unit("a", "union", 20, 26.4, 90) + unit("c", "union", 24, 30.0, 90)
    text += unit("d", "union", 40, 37.0, 90) + unit("e", "union", 8, 20.0, 90)
    text += unit("g", "union", 34, 27.0, 90) + unit("h", "union", 14, 29.0, 90)
    text += unit("k", "union", 17, 22.0, 90)  # a stands in the way
    b = battle(text, ByPurpose([]))
    reb = b.state.units[0]
    enemies = sorted(
        (v for v in b.state.units if v.alive and v.side != reb.side),
        key=lambda v: (v.x - reb.x) ** 2 + (v.y - reb.y) ** 2,
    )
    want = [o for o in (MN.charge_offer(b, reb, v) for v in enemies[:6]) if o is not None]
    got = [o for o in MN.move_offers(b, reb) if o.kind == "charge"]
    assert len(got) == 3
    assert [(o.order, o.odds) for o in got] == [(o.order, o.odds) for o in want]
    assert [o.words() for o in got] == [o.words() for o in want]
    why = [CH.may_charge(b, reb, v) for v in enemies[:6]]
    assert why.count("") == 3 and "reb cannot charge k: a is in the way" in why
    assert (
        "reb cannot see g in its front" in why and "e is beyond reb's longest charge (15\")" in why
    )
    MK.book(b, reb)["disr"] = True
    assert not [o for o in MN.move_offers(b, reb) if o.kind == "charge"]
    assert all(MN.charge_offer(b, reb, v) is None for v in enemies)


def test_a_menu_tests_formation_changes_as_after_change_does_xii_f() -> None:
    """Seed 003 XII.F (formation changes and their costs): ``change_refused`` refuses
    exactly the changes ``after_change`` raises for, with the same words."""
    text = WALL + unit("dfn", "union", 20, 26.4, 90)
    b = battle(text, ByPurpose([]))
    u = b.state.units[0]
    for kind, form, mounted, limbered, prone in product(
        ("foot", "cavalry", "artillery"),
        ("line", "column", "skirmish"),
        (False, True),
        (False, True),
        (False, True),
    ):
        u.type, u.formation, u.mounted, u.limbered = kind, form, mounted, limbered
        for change in (*MOV.CHANGES, "somersault"):
            why = MOV.change_refused(u, change, prone)
            try:
                MOV.after_change(u, change, prone)
            except IllegalActionError as exc:
                assert why == str(exc)
            else:
                assert why == ""


def _reach_by_movement(
    dice: tuple[tuple[int, int], ...], base: float, gap: float, met: tuple[tuple[float, str], ...]
) -> Fraction:
    """P(a charge reaches) crossing ``met`` face by face with ``T.movement`` itself."""
    sides = [MO._faces(kind) for _, kind in met]
    total = Fraction(0)
    for centre, p in MO.centre_odds(dice).items():
        good = 0
        for faces in product(*sides):
            left = base + centre
            for (at, kind), face in zip(met, faces, strict=True):
                if at > 0 and at >= left:
                    break
                there = max(0.0, left - at)
                going = T.movement(kind, there, face)
                if going.stalled:
                    left = -math.inf
                    break
                left += going.left - there
            good += left >= gap - 1e-9
        total += p * Fraction(good, math.prod(len(f) for f in sides))
    return total


def test_charge_reach_odds_cross_terrain_as_movement_does_xii_h_xvi() -> None:
    """Seed 003 XII.H.3 (the centre die added to the regular movement) and XVI (each
    obstacle's die, 'if the number exceeds the amount of movement left, the regiment may
    not move'): the odds worked out in whole numbers from each kind's amounts read once
    equal the charge crossed face by face with ``T.movement``."""
    for dice, base, gap, met in [
        (((1, 6), (1, 6)), 4.0, 6.0, ((2.0, "stone_wall"),)),
        (((1, 10),), 3.0, 7.0, ((0.0, "woodlot"), (1.5, "rail_fence"))),
        (((2, 6),), 2.5, 8.0, ((0.0, "downhill"), (3.0, "worm_fence"))),
        (((1, 6), (1, 6), (1, 6)), 6.0, 9.0, ((0.0, "uphill"), (4.0, "stone_wall"))),
    ]:
        want = _reach_by_movement(dice, base, gap, met)
        assert MO.reach_odds_through(dice, base, gap, met) == want
        assert 0 < want < 1


def test_menu_words_made_when_asked_read_as_before_xv_4_xii_h() -> None:
    """Seed 003 XV.4 'all are cumulative' and XII.H: a fire or charge entry's words, made
    only when a menu line is read, name the stick's number and every deduction known, and
    the charge's reach and terrain, as the menu drew them."""
    text = WALL + unit("dfn", "union", 20, 26.4, 90) + unit("reb", "confederate", 20, 33, 270)
    b = battle(text, ByPurpose([]))
    dfn, reb = b.state.units
    fire = next(o for o in MN.fire_offers(b, reb) if o.kind == "fire")
    fixed, rolled, words = MN.known_fire(b, reb, dfn)
    assert "-1d6 stone wall" in words and rolled == ("stone_wall",)
    assert fire.words().startswith(f"fire at {dfn.name} (") and words in fire.words()
    value = ART.stick_value(b.dist(reb.i, dfn.i)) or 0
    mean, none = MO.stick_mean_none(FI.fire_line(reb), value, fixed, rolled)
    assert fire.odds["p"] == float(1 - none) and fire.odds["inflict"] * 3 == float(mean)
    near = WALL + unit("dfn", "union", 20, 26.4, 90) + unit("reb", "confederate", 20, 31, 270)
    b = battle(near, ByPurpose([]))
    dfn, reb = b.state.units
    charge = MN.charge_offer(b, reb, dfn)
    assert charge is not None
    assert charge.words().startswith(f"charge {dfn.name}: reaches ")
    assert "through the stone wall" in charge.words()
    assert charge.choice().text == charge.words()
