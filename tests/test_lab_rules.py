"""The batch simulator's rule tables and compiled rule functions against the scalar engine's.

The batch simulator reads seed 002 as arrays (``batch.tables``) and as small compiled
functions (``batch.kmove``, ``batch.kfire``); each must give, for every case, exactly what
its scalar twin gives (seed 002 section in the test name).
"""

from __future__ import annotations

import math
import random

import numpy as np
import pytest

from umpire.board import kgeom
from umpire.rules.quick_acw import odds
from umpire.rules.quick_acw import rules as R
from umpire.rules.quick_acw.batch import kbases as KB
from umpire.rules.quick_acw.batch import kcharge as KC
from umpire.rules.quick_acw.batch import kmove as K
from umpire.rules.quick_acw.batch import tables as V
from umpire.rules.quick_acw.batch.arrays import Bases, Board, Scene, Units, rules_of

T = V.tables()
N = 3000
SIDES = R.rules().order


@pytest.fixture
def rng() -> random.Random:
    return random.Random(2002)


def arr(values: list[object], dtype: object = None) -> np.ndarray:  # type: ignore[type-arg]
    return np.array(values, dtype=dtype)  # type: ignore[call-overload]


def test_fire_table_and_modifiers_002_fire(rng: random.Random) -> None:
    """002 FIRE: table row and range band, every modifier, one or two stands lost, and the
    AI's expected stands."""
    bands = rules_of(T).bands
    modtab = V.fire_modifier_table(T)
    es = V.expected_stands_table(T.r)
    seen = set()
    for _ in range(N):
        fc = rng.choice(V.FIRE_CLASSES)
        facts = R.FireFacts(
            rng.choice(SIDES),
            fc,
            rng.choice(V.FORMS),
            rng.random() < 0.5,
            rng.choice(V.TYPES),
            rng.random() < 0.5,
            rng.choice(V.FORMS),
            rng.random() < 0.5,
        )
        dist = rng.choice([rng.uniform(0, 35), rng.choice([2.0, 6.0, 15.0, 30.0])])
        f = V.FIRE_CLASSES.index(fc)
        place = kgeom.band(bands, dist)
        need = int(T.fire_table[f, place]) if place >= 0 else 0
        want = R.fire_needed(fc, dist) or 0
        assert need == want
        k = (SIDES.index(facts.firer_side) * 3 + f) * 2 + V.FORMS.index(facts.firer_formation)
        k = (k * 2 + facts.firer_marker) * 3 + V.TYPES.index(facts.target_type)
        k = (k * 2 + facts.target_mounted) * 2 + V.FORMS.index(facts.target_formation)
        k = k * 2 + facts.target_cover
        m = sum(x.value for x in R.fire_modifiers(facts))
        assert modtab[k] == m
        if want:
            roll = rng.randint(2, 12)
            lost = V.stands_lost(arr([roll]), arr([want]), arr([m]), T.r.two_stand_margin)[0]
            assert lost == R.fire_stands_lost(roll, want, m)
            seen.add(int(lost))
            e = min(max(want - m, V.ES_LO), V.ES_HI)
            assert es[e - V.ES_LO] == odds.expected_stands(want, m)
    assert {0, 1, 2} <= seen


def test_fire_class_and_movement_rates_002_movement(rng: random.Random) -> None:
    """002 FIRE "mounted cavalry can't fire"; MOVEMENT table, rough, command, leader, changes;
    the bases (default ``stand_sizes``)."""
    from umpire.battle.state import base_size

    mv = rules_of(T)
    for _ in range(N):
        ut, form = rng.choice(V.TYPES), rng.choice(V.FORMS)
        mounted, limbered, rough, cmd, lost = (rng.random() < 0.5 for _ in range(5))
        change = rng.choice([None, "formation", "mount"])
        u, f = V.TYPES.index(ut), V.FORMS.index(form)
        fc = V.fire_rows(arr([u]), np.array([[mounted]]), np.array([[limbered]]))[0, 0]
        want_fc = R.fire_class(ut, mounted, limbered)
        assert fc == (-1 if want_fc is None else V.FIRE_CLASSES.index(want_fc))
        key = K.move_row(u, f == V.COLUMN, mounted, limbered, V.NO_CHANGE)
        k = R.move_key(ut, form, mounted, limbered)
        assert V.MOVE_KEYS[key] == k
        chg = (None, "formation", "mount").index(change)
        got = K.move_inches(mv, key, rough, cmd, lost, chg)
        assert got == R.move_inches(k, rough, cmd, lost, change)  # the same float
        stands = rng.randint(0, 8)
        assert KB.base_half(u, f, stands, mv.base_w, mv.base_d) == base_size(
            ut, form, stands, R.rules().bases
        )


def test_morale_charge_odds_002_morale(rng: random.Random) -> None:
    """002 MORALE "USA/CSA 8+/7+ (attached leaders add bonus, MM adds -1)": the numbers the
    batch reads, and the exact charge odds of its table."""
    for side in SIDES:
        assert T.morale[SIDES.index(side)] == R.morale_test(side, None, False)[0]
    assert R.morale_test("union", None, True)[1][0].value == T.r.morale_marker
    table = V.charge_table()
    for _ in range(300):
        args = [rng.randint(7, 8), rng.randint(-1, 4), rng.randint(7, 8), rng.randint(-1, 4)]
        a_mod, b_mod = rng.randint(0, 20), rng.randint(0, 20)
        i, j = args[0] - args[1] - V.CH_LO, args[2] - args[3] - V.CH_LO
        k = min(max(a_mod - b_mod, -V.CH_DIFF), V.CH_DIFF) + V.CH_DIFF
        assert table[i, j, k] == odds.charge_favourable(*args, a_mod, b_mod)


def test_melee_modifiers_and_result_002_melee(rng: random.Random) -> None:
    """002 MELEE: stands fighting, every modifier (the wall or stream across the line
    between the centres, the hill levels under them), the difference table (# = retreat)."""
    at = arr([[0.5, 1.5]], float)  # the two centres in cells 0 and 3 of a 2x2 board
    f32, no = np.zeros((1, 2), np.float32), np.zeros((1, 2))
    bases = Bases(at, at, no, no, no, no, no, no, f32, f32, f32, np.ones((1, 2), bool),
                  np.zeros((1, 2), np.int32))  # fmt: skip
    # the scalar sums (``V.melee_modifier_table``, in ``rules_of(T)``), looked up by the kernel
    for _ in range(N):
        f = R.MeleeFacts(
            rng.choice(SIDES),
            rng.choice(V.TYPES),
            rng.random() < 0.5,
            rng.choice(V.FORMS),
            rng.randint(1, 6),
            rng.random() < 0.5,
            rng.random() < 0.5,
            rng.random() < 0.5,
            rng.random() < 0.5,
            rng.choice([None, 1, 2, 3]),
            rng.random() < 0.5,
        )
        us = Units(
            arr([[V.FORMS.index(f.formation), 0]], np.int8),
            arr([[f.mounted, False]], bool),
            *(np.zeros((1, 2), bool),),
            arr([[f.stands, 4]], np.int16),
            arr([[f.marker, False]], bool),
            *(np.zeros((1, 2), bool) for _ in range(3)),
            arr([[f.leader_bonus or 0, 0]], np.int8),
        )
        side = arr([SIDES.index(f.side), 1 - SIDES.index(f.side)], np.int64)
        utype = arr([V.TYPES.index(f.unit_type), 0], np.int64)
        level = arr([1 if f.uphill else 0, 0, 0, 0], np.int64)
        segs = arr([0.0, 2.0, 2.0, 0.0] if f.defending_obstacle else [], float)  # end to end
        none = np.zeros(0, dtype=np.int64)
        bd = Board(2.0, 2.0, 1.0, 2, 2, none.astype(bool), none.astype(bool), none, none, level,
                   segs, segs, none, none.astype(bool), none, none, 0, 0.0)  # fmt: skip
        sc = Scene(side, utype, none, none, np.zeros(0), bd, rules_of(T))
        got = KC.melee_mods(
            bases, us, sc, arr([0]), arr([0]), arr([1]), arr([f.attacking]), arr([f.flank_or_rear])
        )
        assert got[0] == sum(m.value for m in R.melee_modifiers(f))
    diff = arr(list(range(-40, 41)))
    wl, wr, ll, lr = V.melee_row(T, diff)
    for i, d in enumerate(diff.tolist()):
        row = R.melee_row(d)
        want = (row.win_loss, row.win_retreat, row.lose_loss, row.lose_retreat)
        assert (wl[i], wr[i], ll[i], lr[i]) == want


def test_removal_at_half_and_leader_loss_002(rng: random.Random) -> None:
    """002: "reduced to less than 1/2 of its original stands is removed"; leader lost on 5-6."""
    stands0 = arr([rng.randint(1, 8) for _ in range(N)])
    stands = arr([rng.randint(0, int(s)) for s in stands0])
    gone = V.N.is_removed(stands, stands0, T.r.removal_fraction)
    for i in range(N):
        assert gone[i] == R.is_removed(int(stands[i]), int(stands0[i]))
    faces = arr(list(range(1, 7)))
    lost = V.N.leader_lost(faces, T.r.leader_loss_on).tolist()
    assert lost == [R.leader_lost(f) for f in range(1, 7)]


def test_exact_math_helpers_are_the_math_modules(rng: random.Random) -> None:
    """The kernels' math.hypot gives math's own answers."""
    dx = arr([rng.uniform(-30, 30) for _ in range(N)], float)
    dy = arr([rng.uniform(-30, 30) for _ in range(N)], float)
    assert KB.hypots(dx, dy).tolist() == [math.hypot(a, b) for a, b in zip(dx, dy, strict=True)]
