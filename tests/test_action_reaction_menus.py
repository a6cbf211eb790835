"""Issue 23 "The screen", seed 003 (Action/Reaction): the menus' odds hold every modifier
known when the menu is drawn, exact against brute-force enumerations, and ``why N`` says
what each entry holds. Each test names the seed section it checks."""

from __future__ import annotations

import math
import re
from fractions import Fraction
from itertools import product

import pytest

from test_action_reaction_issue20 import WALL, ByPurpose, battle, said, unit
from umpire.battle.engine import Battle, Request
from umpire.battle.roles import Choice, explain
from umpire.errors import IllegalActionError
from umpire.rules.action_reaction import artillery as ART
from umpire.rules.action_reaction import charging as CH
from umpire.rules.action_reaction import firing as FI
from umpire.rules.action_reaction import ground as GD
from umpire.rules.action_reaction import marks as MK
from umpire.rules.action_reaction import menu as MN
from umpire.rules.action_reaction import menu_odds as MO
from umpire.rules.action_reaction import moving as MOV


def _wall_fight(src: ByPurpose, smoke: int = 1, fog: int = 1) -> Battle:
    """Union's line behind the stone wall (y 27), a Confederate line 6" beyond it; smoke
    on both, fog on the field."""
    text = WALL + unit("dfn", "union", 20, 26.4, 90) + unit("reb", "confederate", 20, 33, 270)
    b = battle(text, src)
    dfn, reb = b.state.units
    MK.book(b, dfn)["smoke"] = smoke
    MK.book(b, reb)["smoke"] = smoke
    b.state.extra.setdefault("ar", {})["fog"] = fog
    return b


def _brute_volley(pieces: int, value: int, fixed: int) -> Fraction:
    """Expected hits of ``pieces`` d10 (0-9) on the stick behind a stone wall, every d10
    face and every face of the wall's 1d6 enumerated (XI.A.4.a.(2)(b), XVI.F)."""
    total, count = 0, 0
    for wall in range(1, 7):
        for faces in product(range(10), repeat=pieces):
            total += ART.stick_hits(faces, value, fixed + wall)
            count += 1
    return Fraction(total, count)


def test_fire_menu_folds_smoke_fog_and_the_walls_die_in_exactly_xv_4_xvi_f() -> None:
    """Seed 003 XV.4 'Firing and Movement Deductions (all are cumulative)', XII.E (smoke),
    XII.D.1.b (fog), XVI.F 'Stone wall: ... Firing deduction, roll 1D6': the fire menu's
    expected hits hold the smoke, the fog and the wall's 1d6 over its six faces, equal to
    a brute-force enumeration; the entry names them, and the volley deducts the same."""
    b = _wall_fight(ByPurpose([("behind a stone wall", 2)]))
    dfn, reb = b.state.units
    menu = MN.fire_choices(b, reb)
    fire = next(c for c in menu if c.order == ("fire", dfn.i))
    assert "before smoke and cover" not in fire.text
    d = b.dist(reb.i, dfn.i)
    value = ART.stick_value(d)
    assert value is not None
    assert f"{value} on the stick -2 smoke -1 fog 1 -1d6 stone wall)" in fire.text
    exact = _brute_volley(FI.fire_line(reb), value, 2 + 1)
    assert MO.expected(MO.stick_odds_known(4, value, 3, ("stone_wall",))) == exact
    per = int(MK.cfg(b)["hits_per_piece"])
    assert fire.odds["inflict"] == pytest.approx(float(exact) / per, abs=1e-12)
    assert f"about {float(exact):.1f} hits" in fire.text
    # the volley itself deducts what the menu folded in (the wall's die rolled now: a 2)
    FI.volley(b, reb, dfn)
    assert f"{value} on the stick -2 smoke -1 fog 1 -2 stone wall)" in said(b)


def test_canister_menu_folds_the_wall_and_the_accumulating_smoke_per_gun_xi_a_4_b() -> None:
    """Seed 003 XI.A.4.a.(2) 'Take deductions for smoke, fog, terrain, walls, and fences'
    and XI.A.4.b 'Account for accumulating smoke roll 1 D6 halved': a later canister shot's
    expected hits hold, per gun, the wall's 1d6 and the smoke's 1D6 halved, every face
    (by linearity: 9 d10 a gun, each hitting at or under the stick less the deductions)."""
    text = WALL + unit("gun", "confederate", 20, 33, 270, type="artillery", stands=2)
    text += unit("dfn", "union", 20, 26.4, 90)
    b = battle(text, ByPurpose([]))
    gun, dfn = b.state.units
    MK.book(b, gun).update({"smoke": 1, "canister_fired": True})
    menu = MN.fire_choices(b, gun)
    can = next(c for c in menu if c.order == ("fire", dfn.i, "canister"))
    value = ART.stick_value(b.dist(gun.i, dfn.i))
    assert value is not None
    per_gun = Fraction(0)
    for wall, smoke in product(range(1, 7), range(1, 7)):
        need = value - 1 - wall - ART.halved(smoke)  # the firer's one smoke marker
        per_gun += Fraction(9 * sum(1 for f in range(10) if f <= need), 10 * 36)
    assert "-1 smoke -1d6 stone wall -1D6 halved accumulating smoke" in can.text
    per = int(MK.cfg(b)["hits_per_piece"])
    assert can.odds["inflict"] == pytest.approx(float(2 * per_gun) / per, abs=1e-12)


def test_charge_menu_reach_holds_the_stone_walls_die_xii_h_xvi_f() -> None:
    """Seed 003 XII.H.3.a 'rolls 1 D6 for each stand and adds that to the regular movement
    less deductions' with XVI.F 'Stone wall: Movement deduction, roll 1D10 ... if the number
    exceeds the amount of movement left, the regiment may not move for the rest of the
    turn': the charge menu's P(reaches) holds the wall's die, equal to the charges played
    out on every face of the two stands' d6 and the wall's d10 (a charge stopped at the
    wall never said '100%')."""
    text = WALL + unit("dfn", "union", 20, 26.4, 90)
    text += unit("reb", "confederate", 20, 36.0, 270, stands=2)
    reached = 0
    cases = list(product(range(1, 7), range(1, 7), range(1, 11)))
    menu_p = None
    for a, c, w in cases:
        stands = iter((a, c))
        src = ByPurpose(
            [("charges dfn", lambda n, s=stands: [next(s)]), ("stone wall (movement)", w)]
        )
        b = battle(text, src)
        dfn, reb = b.state.units
        if menu_p is None:
            choice = MN.charge_choice(b, reb, dfn)
            assert choice is not None
            menu_p = CH.reach_odds(b, reb, dfn)
            assert f"reaches {float(menu_p):.0%} through the stone wall;" in choice.text
        CH.resolve_charge(b, reb, dfn)
        lines = said(b)
        if "falls short" not in lines and "halts short" not in lines:
            reached += 1
    assert menu_p == Fraction(reached, len(cases))
    assert 0 < menu_p < 1
    # a chance short of sure never reads 100% (nor a possible one 0%)
    assert MN.pct(Fraction(999, 1000)) == ">99%" and MN.pct(Fraction(1, 1000)) == "<1%"
    assert MN.pct(Fraction(1)) == "100%" and MN.pct(Fraction(0)) == "0%"


def _move_request(b: Battle, u_index: int) -> Request:
    return Request("move", b.state.units[u_index].side, u_index, "move")


def test_why_on_every_kind_of_entry_issue_23_the_screen() -> None:
    """Issue 23 'Every menu entry can say why': in seed 003's terms, a move's allowance and
    what cut it (XII.F, XII.D fog), the terrain on its path (XVI); a charge's parts (XII.H,
    XIII, XIV); a fire order's stick number and deductions (XI.A.4, XV.4); who may fire."""
    b = _wall_fight(ByPurpose([]), smoke=0, fog=2)
    _, reb = b.state.units
    req = _move_request(b, reb.i)
    menu = MN.move_choices(b, reb)
    why = {c.text: explain(b, req, c) for c in menu}
    adv = next(t for t in why if t.startswith("advance") and "toward dfn" in t)
    text = "\n".join(why[adv])
    assert 'reb may move 7": 9" in line (XII.F.1.1) less 2" for fog (thickness 2, XII.D)' in text
    over = Choice(("move", 22.0, 26.8, reb.theta, ""), "move over the wall", "move")
    assert "the terrain dice on its path (stone wall; XVI)" in "\n".join(explain(b, req, over))
    charge = next(t for t in why if t.startswith("charge"))
    assert "plus the centre die of 1d6 for each of 4 stands (XII.H)" in "\n".join(why[charge])
    assert "the terrain on its path is in that chance (stone wall, XVI)" in "\n".join(why[charge])
    fire = next(c for c in MN.fire_choices(b, reb) if c.kind == "fire")
    said_ = "\n".join(explain(b, Request("fire", "confederate", reb.i, "fire"), fire))
    assert re.search(r"\d on the stick: the rifle stick's number at", said_)
    assert "deductions in the odds (known now, XV.4 'all are cumulative'): -2 fog 2" in said_
    assert "-1d6 stone wall" in said_
    hold = MN.fire_choices(b, reb)[-1]
    said_ = "\n".join(explain(b, Request("fire", "confederate", reb.i, "fire"), hold))
    assert "only units that may fire and have a target are asked" in said_


def test_an_unlimbered_gun_moves_by_hand_only_to_its_front_xii_f_8() -> None:
    """Seed 003 XII.F.8 'Unlimbered By Hand to the Front: The piece will move 1 inch to the
    front' (reading by_hand_to_the_front): the menu offers no fall back or sideways step
    for an unlimbered battery, the engine refuses one, and why says the 1" by hand."""
    text = unit("gun", "union", 20, 10, 90, type="artillery", stands=2)
    text += unit("reb", "confederate", 40, 30, 270)
    b = battle(text, ByPurpose([]))
    gun, _ = b.state.units
    req = _move_request(b, gun.i)
    menu = MN.move_choices(b, gun)
    assert not [c for c in menu if c.text.startswith("fall back")]
    for c in menu:
        if c.kind == "move" and c.order[1:3] != (gun.x, gun.y):
            assert GD.to_front(b, gun, float(c.order[1]), float(c.order[2])), c.text
            assert "by hand to the front (XII.F.8)" in "\n".join(explain(b, req, c))
    with pytest.raises(IllegalActionError, match=r"only to the front \(003 XII\.F\.8"):
        MOV.check_move(b, gun, 20, 9, gun.theta, "")  # 1" to its rear
    with pytest.raises(IllegalActionError, match="only to the front"):
        MOV.check_move(b, gun, 21, 10, gun.theta, "")  # 1" to its side
    assert MOV.check_move(b, gun, 20, 11, gun.theta, "") == pytest.approx(1)


@pytest.mark.parametrize("name", ["stone_wall", "stone_wall_cards"])
def test_every_move_entry_is_within_the_allowance_why_reports_xii_f(name: str) -> None:
    """Seed 003 XII.F (the rates less deductions) and XVI.C (only downhill adds): on the
    shipped battles, every move entry of every menu goes no farther than the allowance
    ``why`` reports for it (downhill: plus the most its die may add), and the engine
    refuses a move half an inch beyond that on the same line."""
    from umpire.ai import make_policy
    from umpire.battle.roles import offered
    from umpire.battle.run import play
    from umpire.battle.scenario import load_scenario

    checked = [0]

    class Checking:
        kind = "ai"

        def __init__(self, seed: int) -> None:
            self.inner = make_policy("random", seed)

        def decide(self, b: Battle, req: Request) -> tuple[object, ...]:
            if req.kind == "move":
                u = b.state.units[req.actor]
                for c in offered(b, req):
                    if c.order[0] != "move":
                        continue
                    x, y = float(c.order[1]), float(c.order[2])
                    dist = math.hypot(x - u.x, y - u.y)
                    if dist < 1e-9:
                        continue
                    lines = "\n".join(explain(b, req, c))
                    found = re.search(r'may move ([\d.]+)"', lines)
                    assert found is not None, lines
                    more = re.search(r'up to ([\d.]+)" farther', lines)
                    most = float(found.group(1)) + (float(more.group(1)) if more else 0)
                    assert dist <= most + 0.05, (c.text, lines)
                    far = (most + 0.5) / dist
                    with pytest.raises(IllegalActionError):
                        MOV.check_move(
                            b, u, u.x + (x - u.x) * far, u.y + (y - u.y) * far, u.theta, ""
                        )
                    checked[0] += 1
            return self.inner.decide(b, req)

    scen = load_scenario(name)
    play(scen, 1, {"union": Checking(1), "confederate": Checking(2)})
    assert checked[0] > 50


def test_consecutive_fire_menu_holds_the_range_called_xi_c_1() -> None:
    """Seed 003 XI.C.1 'Call the range in inches toward the target' (reading called_range):
    after the target moved, a battery's consecutive fire lands at the range of its last
    shot; the menu says that range and how far off it is, and its odds are those of a
    round landing there (on the true range: the odds the rounds always had)."""
    for kind in ("solid_shot", "shell", "case"):
        for cons in (False, True):
            for within in range(4):
                assert MO.round_odds_at(kind, cons, within, 0.0, 0.375) == FI.round_odds(
                    kind, cons, within
                )
                for error, hd in ((0.0, 0.375), (1.5, 0.375), (-2.5, 1.5), (0.4, 0.5)):
                    assert MO.round_expected_at(kind, cons, within, error, hd) == MO.expected(
                        MO.round_odds_at(kind, cons, within, error, hd)
                    )
    text = unit("gun", "union", 20, 5, 90, type="artillery", stands=2)
    text += unit("reb", "confederate", 20, 35, 270)
    b = battle(text, ByPurpose([]))
    gun, reb = b.state.units
    MK.book(b, gun).update({"aim": reb.id, "aim_range": b.dist(gun.i, reb.i) + 1.5})
    shell = next(c for c in MN.fire_choices(b, gun) if c.order == ("fire", reb.i, "shell"))
    assert re.search(r'consecutive fire, range called [\d.]+" \(1.5" over\)\): about', shell.text)
    within = sum(1 for k in (1, 2, 3) if k <= reb.hw)
    want = 2 * MO.round_expected_at("shell", True, within, 1.5, reb.hd)
    assert want != 2 * MO.expected(FI.round_odds("shell", True, within))
    per = int(MK.cfg(b)["hits_per_piece"])
    assert shell.odds["inflict"] == pytest.approx(float(want) / per, abs=1e-9)


def test_the_web_tables_menu_says_why_each_entry_reads_so_issue_23() -> None:
    """Issue 23 'Every menu entry can say why', on the web table (the same offers as the
    terminal): each entry of the side to act carries the role's why lines (seed 003)."""
    from umpire.battle.game import save_game
    from umpire.battle.scenario import load_scenario
    from umpire.web.battle_table import view

    game = save_game(load_scenario("stone_wall"), 5, [])
    side = view(game, None)["waiting"]["side"]
    menu = view(game, side)["choices"]
    assert menu and all("why" in c for c in menu)
    text = "\n".join(line for c in menu for line in c["why"])
    assert re.search(r'may move [\d.]+": 9" in line \(XII\.F\.1\.1\)|on the stick: the rifle', text)
