"""The answers quick ACW keeps to decide faster (issue 25, the compiled scalar engine's
speed on seed 004's card battles): each kept answer equals the one worked out afresh, and
changes when what it reads changes. The battles themselves are pinned by
``tests/test_scalar_golden.py`` (a pure speed change leaves them exactly the same)."""

from __future__ import annotations

import math

import numpy as np

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


def test_seed002_command_half_move_kept_allowances_follow_command() -> None:
    """Seed 002 COMMAND: 'otherwise 1/2 move'; MOVEMENT's rough column. The pair kept per
    unit type and command is allowance()'s own, and changes when the unit leaves command."""
    b = battle()
    u = next(v for v in b.state.units if v.alive and v.type == "foot")
    f, m, lim = u.formation, u.mounted, u.limbered
    was = u.in_command
    try:
        for cmd in (True, False, True):
            u.in_command = cmd
            pair = RCH.allowances(b, u, f, m, lim, None)
            assert pair == (
                RCH.allowance(b, u, f, m, lim, None, False),
                RCH.allowance(b, u, f, m, lim, None, True),
            )
        u.in_command = True
        full = RCH.allowances(b, u, f, m, lim, None)
        u.in_command = False
        half = RCH.allowances(b, u, f, m, lim, None)
        assert half[0] < full[0]  # out of command: half the move, not the kept full one
    finally:
        u.in_command = was


def test_seed002_rough_terrain_kept_path_is_the_boards() -> None:
    """Seed 002 MOVEMENT, default rough_terrain ('a move that touches rough ground'): the
    path kept for the battle is the board's answer, rough and open alike, and a battle
    that forgets everything (``dirty``) forgets it."""
    b = battle("mcpherson_cards")
    board = b.setup.board
    seen = set()
    for k in range(400):
        x0, y0 = (k * 7.3) % board.width, (k * 3.1) % board.height
        x1, y1 = (x0 + 11.0 * math.cos(k)) % board.width, (y0 + 11.0 * math.sin(k)) % board.height
        want = board.path_rough(x0, y0, x1, y1)
        assert RCH.path_rough(b, x0, y0, x1, y1) is want
        assert RCH.path_rough(b, x0, y0, x1, y1) is want  # the kept answer
        seen.add(want)
    assert seen == {True, False}
    b.dirty()
    assert not [k for k in b.kept if k[0] == "rough"]


def test_kept_numbers_are_cleared_with_the_rules_data() -> None:
    """Seed 002 FIRE (the longest range of a row) and the exact fire and charge odds: kept
    in plain dicts that a change of the rules data clears (``umpire rules`` overlays)."""
    b = battle()
    assert RCH.max_range("foot", b.r) == max(
        band for band, n in zip(b.r.fire_bands, b.r.fire_table["foot"], strict=True) if n
    )
    M.fire_numbers(7, 0, b.r)
    M.charge_numbers(7, 0, 7, 0, 0, 0)
    assert RCH._MAX_RANGE and M._FIRE_NUMBERS and M._CHARGE_NUMBERS
    clear_caches()
    assert not RCH._MAX_RANGE and not M._FIRE_NUMBERS and not M._CHARGE_NUMBERS


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
    """Seed 002 MOVE, the menu's advances: the full and the half advance share one
    distance and facing, and end where ``_toward`` (the one-move helper) puts them."""
    b = battle()
    checked = 0
    for u in b.state.units:
        en = b.nearest_enemy(u)
        assert en is not None
        allow = RCH.allowance(b, u, u.formation, u.mounted, u.limbered, None, False)
        moves = {
            o.word: o for o in M.move_offers(b, u) if isinstance(o, M.MoveOffer) and o.measured
        }
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
    assert checked >= 4


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
    finally:
        del foe.extra["crossed"], friend.extra["crossed"]
