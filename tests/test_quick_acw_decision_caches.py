"""What quick ACW works out once to decide faster (issue 25: the compiled scalar engine's
speed on seed 004's card battles): each answer equals the one worked out afresh, and a
kept one changes when what it reads changes. The battles themselves are pinned by
``tests/test_scalar_golden.py`` (a pure speed change leaves them exactly the same)."""

from __future__ import annotations

import math

import numpy as np

from umpire.battle import orders as od
from umpire.battle.engine import Battle
from umpire.battle.run import new_battle
from umpire.battle.scenario import load_scenario
from umpire.dice import SeededSource
from umpire.rules.data import clear_caches
from umpire.rules.quick_acw import menu as M
from umpire.rules.quick_acw import reach as RCH
from umpire.rules.quick_acw import steps as S


def battle(name: str = "standard_five_step") -> Battle:
    return new_battle(load_scenario(name), SeededSource(0))


def test_seed002_cover_and_rough_bytes_match_the_rasters() -> None:
    """Seed 002 FIRE's cover and MOVEMENT's rough ground at a point: the one-byte-a-cell
    copies answer as the boolean rasters do (and with bools)."""
    board = battle("mcpherson_cards").setup.board
    assert board.cover.any() and board.rough.any()
    for i in range(0, board.nx, 3):
        for j in range(0, board.ny, 3):
            x, y = (i + 0.5) * board.cell, (j + 0.5) * board.cell
            assert board.in_cover(x, y) is bool(board.cover[i, j])
            assert board.is_rough(x, y) is bool(board.rough[i, j])
    assert np.count_nonzero(board.cover) == sum(board._cover_l)


def test_seed002_move_offers_advance_as_toward_says() -> None:
    """Seed 002 MOVE, the menu's moves: the full and the half advance share one distance
    and facing, and end where ``_toward`` (the one-move helper) puts them; a move toward an
    objective works its facing out when first asked, the same."""
    b = battle()
    checked = 0
    for u in b.state.units:
        en = b.nearest_enemy(u)
        assert en is not None
        allow = RCH.allowance(b, u, u.formation, u.mounted, u.limbered, None, False)
        offers = [o for o in M.move_offers(b, u) if isinstance(o, M.MoveOffer)]
        moves = {o.word: o for o in offers if o.measured}
        for word, frac in (("advance", 1.0), ("advance half a move", 0.5)):
            want = M._toward(u, en.x, en.y, 4.0, frac, allow)
            got = moves.get(word)
            assert (got is None) == (want is None)
            if got is not None and want is not None:
                assert (got.x, got.y, got.theta) == want
                checked += 1
        back = moves.get("fall back")
        if back is not None:
            want = M._toward(u, 2 * u.x - en.x, 2 * u.y - en.y, 0.0, 1.0, allow)
            assert want is not None and (back.x, back.y, back.theta) == (want[0], want[1], u.theta)
        for ob in b.setup.objectives:  # a move toward an objective faces it when asked
            want = M._toward(u, ob.x, ob.y, 0.0, 1.0, allow)
            got = next((o for o in offers if o.name == ob.name and o.word == "move"), None)
            assert (got is None) == (want is None)
            if got is not None and want is not None:
                assert math.isnan(got.theta) and (got.x, got.y, got.facing()) == want
                assert got.theta == want[2] and got.order == od.Move("move", *want, "")
                checked += 1
    assert checked >= 8


def test_seed004_step4_only_enemies_that_crossed_are_allowed() -> None:
    """Seed 004 III step 4: fire 'at units which have passed thru the field of fire': the
    enemies marked as crossing the firer's field are allowed, a friend's mark is not read."""
    b = battle()
    us = b.state.units
    u = next(v for v in us if v.alive and v.side == "union")
    foe = next(v for v in us if v.alive and v.side != u.side)
    friend = next(v for v in us if v.alive and v.side == u.side and v.i != u.i)
    step = S.FireStep(targets="chargers", mode="defensive")
    assert foe.i not in step._chargers(b, u)
    foe.extra["crossed"] = [u.i]
    friend.extra["crossed"] = [u.i]
    try:
        allowed = step._chargers(b, u)
        assert foe.i in allowed and friend.i not in allowed
        other = next(v for v in us if v.alive and v.side == u.side and v.i != u.i)
        assert foe.i not in step._chargers(b, other)  # the field it crossed is u's alone
    finally:
        del foe.extra["crossed"], friend.extra["crossed"]


def test_seed002_movement_both_allowances_are_allowances() -> None:
    """Seed 002 MOVEMENT (the rough column), COMMAND ('otherwise 1/2 move') and LEADERS:
    the open and rough allowances found with one look-up of the row are allowance()'s."""
    b = battle("mcpherson_cards")
    for u in b.state.units:
        was = (u.in_command, u.leader_lost)
        try:
            for cmd, lost in ((True, False), (False, False), (True, True)):
                u.in_command, u.leader_lost = cmd, lost
                for change in ("", *RCH.changes_open(u)):
                    f, m, lim, cost = RCH.after_change(u, change)
                    assert RCH.allowances(b, u, f, m, lim, cost) == (
                        RCH.allowance(b, u, f, m, lim, cost, False),
                        RCH.allowance(b, u, f, m, lim, cost, True),
                    )
        finally:
            u.in_command, u.leader_lost = was


def test_seed002_charge_odds_kept_by_their_numbers_and_cleared_with_the_rules() -> None:
    """Seed 002 charge paragraph, MORALE and MELEE: the exact odds of a charge kept under
    its numbers are charge_numbers' own, and a change of the rules data forgets them."""
    mods = (7, 1, 6, 0, 2, -1)
    assert M._charge_numbers_of(mods) == M.charge_numbers(*mods)
    assert M._CHARGE_NUMBERS[mods] == M.charge_numbers(*mods)
    clear_caches()
    assert not M._CHARGE_NUMBERS
