"""The batch simulator's vectorised rules and geometry against the scalar engine's.

Each vectorised function must give, for every element, exactly what its scalar twin gives
(seed 002 section in the test name).
"""

from __future__ import annotations

import math
import random

import numpy as np
import pytest

from umpire.board import vgeom as G
from umpire.board.geometry import box_distance, box_of, box_overlap, crosses_any, segment_hits_box
from umpire.rules.quick_acw import odds
from umpire.rules.quick_acw import rules as R
from umpire.rules.quick_acw.batch import vrules as V
from umpire.rules.quick_acw.reach import range_bounds
from umpire.scenarios import load_scenario

T = V.tables()
N = 3000
SIDES = R.rules().order


@pytest.fixture
def rng() -> random.Random:
    return random.Random(2002)


def arr(values: list[object], dtype: object = None) -> np.ndarray:  # type: ignore[type-arg]
    return np.array(values, dtype=dtype)  # type: ignore[call-overload]


def test_fire_table_and_modifiers_002_fire(rng: random.Random) -> None:
    """002 FIRE: table row and range band, every modifier, one or two stands lost."""
    cases = []
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
        cases.append((facts, dist, rng.randint(2, 12)))
    fc = arr([V.FIRE_CLASSES.index(f.firer_class) for f, _, _ in cases])
    dist = arr([d for _, d, _ in cases], float)
    need = V.fire_needed(T, fc, dist)
    mod = V.fire_modifier(
        T,
        arr([SIDES.index(f.firer_side) for f, _, _ in cases]),
        fc,
        arr([V.FORMS.index(f.firer_formation) for f, _, _ in cases]),
        arr([f.firer_marker for f, _, _ in cases], bool),
        arr([V.TYPES.index(f.target_type) for f, _, _ in cases]),
        arr([f.target_mounted for f, _, _ in cases], bool),
        arr([V.FORMS.index(f.target_formation) for f, _, _ in cases]),
        arr([f.target_cover for f, _, _ in cases], bool),
    )
    roll = arr([r for _, _, r in cases])
    lost = V.fire_stands_lost(T, roll, need, mod)
    for i, (facts, d, r) in enumerate(cases):
        want = R.fire_needed(facts.firer_class, d) or 0
        assert need[i] == want
        m = sum(x.value for x in R.fire_modifiers(facts))
        assert mod[i] == m
        if want:
            assert lost[i] == R.fire_stands_lost(r, want, m)
            assert V.expected_stands(arr([want]), arr([m]))[0] == odds.expected_stands(want, m)
    assert {0, 1, 2} <= set(lost.tolist())


def test_fire_class_and_movement_rates_002_movement(rng: random.Random) -> None:
    """002 FIRE "mounted cavalry can't fire"; MOVEMENT table, rough, command, leader, changes."""
    cases = [
        (
            rng.choice(V.TYPES),
            rng.choice(V.FORMS),
            rng.random() < 0.5,
            rng.random() < 0.5,
            rng.random() < 0.5,
            rng.random() < 0.5,
            rng.random() < 0.5,
            rng.choice([None, "formation", "mount"]),
        )
        for _ in range(N)
    ]
    ut = arr([V.TYPES.index(c[0]) for c in cases])
    form = arr([V.FORMS.index(c[1]) for c in cases])
    mounted = arr([c[2] for c in cases], bool)
    limbered = arr([c[3] for c in cases], bool)
    fc = V.fire_class(ut, mounted, limbered)
    key = V.move_key(ut, form, mounted, limbered)
    change = arr([(None, "formation", "mount").index(c[7]) for c in cases])
    inches = V.move_inches(
        T,
        key,
        arr([c[4] for c in cases], bool),
        arr([c[5] for c in cases], bool),
        arr([c[6] for c in cases], bool),
        change,
    )
    rout = V.rout_distance(T, ut)
    for i, c in enumerate(cases):
        want_fc = R.fire_class(c[0], c[2], c[3])
        assert fc[i] == (-1 if want_fc is None else V.FIRE_CLASSES.index(want_fc))
        k = R.move_key(c[0], c[1], c[2], c[3])
        assert V.MOVE_KEYS[key[i]] == k
        assert inches[i] == R.move_inches(k, c[4], c[5], c[6], c[7])  # the same float
        assert rout[i] == R.rout_distance(c[0])


def test_morale_charge_odds_002_morale(rng: random.Random) -> None:
    """002 MORALE "USA/CSA 8+/7+ (attached leaders add bonus, MM adds -1)", exact charge odds."""
    side = arr([rng.randrange(2) for _ in range(N)])
    bonus = arr([rng.choice([0, 0, 1, 2, 3]) for _ in range(N)])
    marker = arr([rng.random() < 0.5 for _ in range(N)], bool)
    number, mod = V.morale(T, side, bonus, marker)
    for i in range(N):
        n_s, mods = R.morale_test(SIDES[side[i]], int(bonus[i]) or None, bool(marker[i]))
        assert (number[i], mod[i]) == (n_s, sum(m.value for m in mods))
    for _ in range(300):
        args = [rng.randint(7, 8), rng.randint(-1, 4), rng.randint(7, 8), rng.randint(-1, 4)]
        a_mod, b_mod = rng.randint(0, 20), rng.randint(0, 20)
        got = V.charge_favourable(
            arr([args[0] - args[1]]), arr([args[2] - args[3]]), arr([a_mod - b_mod])
        )[0]
        assert got == odds.charge_favourable(*args, a_mod, b_mod)


def test_melee_modifiers_and_result_002_melee(rng: random.Random) -> None:
    """002 MELEE: stands fighting, every modifier, the difference table (# = retreat)."""
    cases = [
        R.MeleeFacts(
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
        for _ in range(N)
    ]
    got = V.melee_modifier(
        T,
        arr([SIDES.index(f.side) for f in cases]),
        arr([V.TYPES.index(f.unit_type) for f in cases]),
        arr([f.mounted for f in cases], bool),
        arr([V.FORMS.index(f.formation) for f in cases]),
        arr([f.stands for f in cases]),
        arr([f.attacking for f in cases], bool),
        arr([f.defending_obstacle for f in cases], bool),
        arr([f.uphill for f in cases], bool),
        arr([f.marker for f in cases], bool),
        arr([f.leader_bonus or 0 for f in cases]),
        arr([f.flank_or_rear for f in cases], bool),
    )
    for i, f in enumerate(cases):
        assert got[i] == sum(m.value for m in R.melee_modifiers(f))
    diff = arr(list(range(-40, 41)))
    wl, wr, ll, lr = V.melee_row(T, diff)
    for i, d in enumerate(diff.tolist()):
        row = R.melee_row(d)
        assert (wl[i], wr[i], ll[i], lr[i]) == (
            row.win_loss,
            row.win_retreat,
            row.lose_loss,
            row.lose_retreat,
        )


def test_removal_at_half_and_leader_loss_002(rng: random.Random) -> None:
    """002: "reduced to less than 1/2 of its original stands is removed"; leader lost on 5-6."""
    stands0 = arr([rng.randint(1, 8) for _ in range(N)])
    stands = arr([rng.randint(0, int(s)) for s in stands0])
    gone = V.is_removed(T, stands, stands0)
    for i in range(N):
        assert gone[i] == R.is_removed(int(stands[i]), int(stands0[i]))
    faces = arr(list(range(1, 7)))
    assert V.leader_lost(T, faces).tolist() == [R.leader_lost(f) for f in range(1, 7)]
    ut = arr([rng.randrange(3) for _ in range(N)])
    form = arr([rng.randrange(2) for _ in range(N)])
    hw, hd = V.base_size(T, ut, form, stands)
    from umpire.battle.state import base_size

    for i in range(N):
        assert (hw[i], hd[i]) == base_size(
            V.TYPES[ut[i]], V.FORMS[form[i]], int(stands[i]), R.rules().bases
        )


def boxes(rng: random.Random, n: int) -> tuple[list[tuple[float, ...]], G.VBox]:
    """n random bases, as scalar boxes and as arrays."""
    raw = [
        box_of(
            rng.uniform(0, 20),
            rng.uniform(0, 20),
            rng.uniform(-3.2, 3.2),
            rng.uniform(0.2, 3),
            rng.uniform(0.2, 3),
        )
        for _ in range(n)
    ]
    return raw, tuple(arr([b[k] for b in raw], float) for k in range(6))  # type: ignore[return-value]


def test_base_geometry_is_the_scalar_geometry(rng: random.Random) -> None:
    """Overlap, nearest-point distance, range bounds and sight across bases: the same floats."""
    a, va = boxes(rng, N)
    b, vb = boxes(rng, N)
    ov = G.overlap(va, vb)
    dist = G.distance(va, vb)
    quick = G.quick_distance(va, vb)
    seg = [tuple(rng.uniform(0, 20) for _ in range(4)) for _ in range(N)]
    sx = [arr([s[k] for s in seg], float) for k in range(4)]
    hits = G.segment_hits_box(*sx, va)
    ra, rb = G.mhypot(va[4], va[5]), G.mhypot(vb[4], vb[5])
    lo, hi = G.range_bounds(va, vb, ra, rb)
    le = G.distance_le(va, vb, 0.05)
    for i in range(N):
        assert ov[i] == box_overlap(a[i], b[i])
        d = box_distance(a[i], b[i])
        assert dist[i] == d
        assert abs(quick[i] - d) < 1e-12
        assert le[i] == (d <= 0.05)
        assert hits[i] == segment_hits_box(*seg[i], a[i])
        assert (lo[i], hi[i]) == range_bounds(
            a[i], b[i], math.hypot(*a[i][4:]), math.hypot(*b[i][4:])
        )


@pytest.mark.parametrize("name", ["standard", "mcpherson_ridge"])
def test_terrain_lookups_and_lines_are_the_boards(name: str, rng: random.Random) -> None:
    """Rough, cover and hill at points; rough paths, sight lines, walls: the scalar board's."""
    from umpire.battle.setup import setup_for

    board = setup_for(load_scenario(name)).board
    terrain = G.Terrain.of(board)
    w, h = board.width, board.height
    lines = [(rng.uniform(-1, w + 1), rng.uniform(-1, h + 1)) for _ in range(2000)]
    lines4 = [(x, y, rng.uniform(0, w), rng.uniform(0, h)) for x, y in lines]
    lines4 += [(x, y, x + rng.uniform(-12, 12), y + rng.uniform(-12, 12)) for x, y in lines]
    x0, y0, x1, y1 = (arr([ln[k] for ln in lines4], float) for k in range(4))
    rough = terrain.path_rough(x0, y0, x1, y1)
    sight = terrain.sight_clear(x0, y0, x1, y1)
    obst = G.crosses_any(x0, y0, x1, y1, terrain.obstacles)
    for i, ln in enumerate(lines4):
        assert rough[i] == board.path_rough(*ln)
        assert sight[i] == board.sight_clear(*ln)
        assert obst[i] == board.crosses_obstacle(*ln)
    assert 0.1 < rough.mean() < 0.9 and 0.1 < sight.mean() < 0.95
    for fn, scalar in (
        (terrain.is_rough, board.is_rough),
        (terrain.in_cover, board.in_cover),
        (terrain.height_at, board.height_at),
    ):
        got = fn(x0, y0)
        assert [got[i] == scalar(float(x0[i]), float(y0[i])) for i in range(len(x0))] == [
            True
        ] * len(x0)
    walls = [(a, b, c, d) for a, b, c, d in terrain.walls.tolist()]
    assert crosses_any(0, 0, 1, 1, walls) == bool(
        G.crosses_any(arr([0.0]), arr([0.0]), arr([1.0]), arr([1.0]), terrain.walls)[0]
    )


def test_exact_math_helpers_are_the_math_modules(rng: random.Random) -> None:
    """The math.hypot/atan2 twins and the near-threshold repairs give math's own answers."""
    dx = arr([rng.uniform(-30, 30) for _ in range(N)], float)
    dy = arr([rng.uniform(-30, 30) for _ in range(N)], float)
    assert G.mhypot(dx, dy).tolist() == [math.hypot(a, b) for a, b in zip(dx, dy, strict=True)]
    assert G.matan2(dy, dx).tolist() == [math.atan2(b, a) for a, b in zip(dx, dy, strict=True)]
    lim = G.mhypot(dx, dy)  # every distance exactly at its limit
    assert G.hypot_le(dx, dy, lim).all()
    assert not G.hypot_le(dx, dy, np.nextafter(lim, 0)).any()
