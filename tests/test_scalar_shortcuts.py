"""The scalar engine's short cuts give the answers of the plain tests they stand for (issue 11).

Each short cut added for speed is checked here against the plain computation it replaces,
at every decision of a few AI battles (brute force over real positions), so a short cut that
drifts from its rule fails here before it changes a battle:

- seed 002 charge paragraph: ``charge_options`` (the charger's own tests once, a centre-
  distance reject) against ``charge_option`` per enemy, and the silent test against the
  one that explains (``charge_reach``);
- seed 002 MOVE: ``changes_open`` against ``after_change`` tried for every change; the
  silent move test (ground read only between the rough and the open allowance) against
  the one that explains;
- seed 002 FIRE: the targets kept per firer-target pair (``Battle.kept``) against a fresh
  battle on the same state;
- seed 003 XII.H/XIII: the charge odds kept per scenario (``Setup.kept``) against the
  exact functions called afresh;
- the third pass: the nearest enemy (squares first, the rules' ``** 2`` near a tie), the
  move menu's charges (enemies sorted only when one is within reach), the sure-distance
  rejects (``geometry.surely_beyond``), and seed 004's pass-through marks against plain
  sampling of every path.
"""

from __future__ import annotations

import math
from typing import Any

import pytest

from umpire.ai import make_policy
from umpire.battle.engine import Battle, Order, Request
from umpire.battle.run import play
from umpire.battle.scenario import load_scenario
from umpire.dice import ScriptedSource
from umpire.errors import IllegalActionError
from umpire.rules.quick_acw import reach as RCH


class Checking:
    """The AI, with ``check(b, req)`` run before each of its decisions."""

    kind = "ai"

    def __init__(self, check: Any) -> None:
        self.ai = make_policy("ai")
        self.check = check
        self.asked = 0

    def decide(self, b: Battle, req: Request) -> Order:
        self.check(b, req)
        self.asked += 1
        order: Order = self.ai.decide(b, req)
        return order


def run(name: str, check: Any, seeds: int = 2) -> int:
    """Play ``seeds`` AI battles of ``name`` with ``check`` at every decision."""
    scen = load_scenario(name)
    pols = {"union": Checking(check), "confederate": Checking(check)}
    for seed in range(seeds):
        play(scen, seed, pols)
    return pols["union"].asked + pols["confederate"].asked


def quick_acw_checks(b: Battle, req: Request) -> None:
    if req.kind != "move":
        return
    u = b.state.units[req.actor]
    enemies = [v for v in b.state.units if v.alive and v.side != u.side]
    plain = [(v, RCH.charge_option(b, u, v)) for v in enemies]
    want = [(v, opt) for v, opt in plain if opt is not None]
    assert RCH.charge_options(b, u, enemies) == want
    for v, opt in plain:
        try:
            explained: Any = RCH.charge_reach(b, u, v)
        except IllegalActionError:
            explained = None
        assert explained == opt, (u.name, v.name)
    tried = []
    for change in RCH.CHANGES[1:]:
        try:
            RCH.after_change(u, change)
        except IllegalActionError:
            continue
        tried.append(change)
    assert list(RCH.changes_open(u)) == tried
    # seed 002 MOVEMENT: the silent move test reads the ground only between the rough and
    # the open allowance; it must answer as the one that explains, at lengths either side
    for change in ["", *tried]:
        for k in range(8):
            th = u.theta + k * math.pi / 4
            for inches in (0.0, 1.0, 1.5, 2.9, 3.0, 3.1, 4.5, 5.9, 6.0, 6.1, 9.0, 12.0):
                x, y = u.x + inches * math.cos(th), u.y + inches * math.sin(th)
                silent = RCH._move(b, u, x, y, th, change, False)
                explained = RCH._move(b, u, x, y, th, change, True)
                assert isinstance(silent, str) == isinstance(explained, str), (u.name, x, y)
                assert silent == "" or silent == explained


@pytest.mark.parametrize("name", ["standard", "standard_five_step", "mcpherson_cards"])
def test_quick_acw_short_cuts_equal_the_plain_tests(name: str) -> None:
    """Seed 002 charge paragraph and MOVE: the fast tests answer as the plain ones."""
    assert run(name, quick_acw_checks) > 100


def targets_check(b: Battle, req: Request) -> None:
    """Seed 002 FIRE: targets kept across changes equal a fresh battle's on this state."""
    if req.kind != "fire":
        return
    fresh = Battle(b.setup, b.state, ScriptedSource([]))
    for u in b.state.units:
        if u.alive:
            got = RCH.targets(b, u, exact=True)
            want = RCH.targets(fresh, u, exact=True)
            assert [s[:3] for s in got] == [s[:3] for s in want]
            assert [s[3] for s in got] == pytest.approx([s[3] for s in want], nan_ok=True)


@pytest.mark.parametrize("name", ["standard_five_step", "mcpherson_cards"])
def test_fire_targets_kept_per_pair_equal_a_fresh_battle(name: str) -> None:
    """Seed 002 FIRE: a pair's shot kept with the two units' versions is never stale."""
    assert run(name, targets_check, seeds=1) > 50


def ar_odds_check(b: Battle, req: Request) -> None:
    """Seed 003 XII.H, XIII: a charge's numbers kept per setup equal the exact functions."""
    from umpire.rules.action_reaction import charging as CH
    from umpire.rules.action_reaction import ground as GD
    from umpire.rules.action_reaction import marks as MK
    from umpire.rules.action_reaction import melee as M
    from umpire.rules.action_reaction import officers as O
    from umpire.rules.action_reaction.h2h import loser_odds

    if req.kind != "move":
        return
    u = b.state.units[req.actor]
    checked = 0
    for t in b.state.units:
        if not t.alive or t.side == u.side or CH.may_charge(b, u, t):
            continue  # no charge offered (may_charge says why)
        checked += 1
        away, fires = CH.give_way_odds(b, u, t)
        p = M.reacts_odds(GD.clear_field(b, u, t))
        ro = M.reaction_odds()
        hold = O.rally_odds(int(MK.book(b, t)["off"]))
        assert away == p * (ro.get("retreat", 0) + ro.get("withdraw", 0)) * (1 - hold)
        assert fires == p * ro.get("fire", 0)
        if u.formation == "column":
            n, m = M.column_dice(t.stands)
        else:
            n, m = u.stands, min(t.stands, u.stands + 1)
        reach = CH.reach_odds(b, u, t)
        strike = loser_odds(min(n, 12), min(m, 12))
        win, first, goes_in, lost = MK.odds(b, CH._charge_numbers, reach, away, n, m)
        assert win == float(reach * (1 - away) * strike["defender"])
        assert first == float(strike["defender"]) and goes_in == float(reach)
        assert lost == float(reach * (1 - away) * strike["attacker"])
    CHARGES_CHECKED[0] += checked


CHARGES_CHECKED = [0]


def test_003_charge_odds_kept_per_scenario_equal_the_exact_functions() -> None:
    """Seed 003 XII.H, XIII: the odds the menus read from ``Setup.kept`` are the exact ones."""
    assert run("stone_wall", ar_odds_check, seeds=2) > 20
    assert CHARGES_CHECKED[0] > 10


def third_pass_checks(b: Battle, req: Request) -> None:
    """The nearest enemy (squares first, the rules' ``** 2`` near a tie), the move menu's
    charges (enemies sorted only when one is within reach) and the sure-distance rejects
    answer as the plain computations."""
    from umpire.board.geometry import surely_beyond
    from umpire.rules.quick_acw import menu as M

    if req.kind != "move":
        return
    u = b.state.units[req.actor]
    enemies = [v for v in b.state.units if v.alive and v.side != u.side]
    plain = min(enemies, key=lambda v: (v.x - u.x) ** 2 + (v.y - u.y) ** 2) if enemies else None
    assert b.nearest_enemy(u) is plain
    if u.type != "artillery" and b.status.move_limit(b, u) not in ("rally", "none"):
        near = sorted(enemies, key=lambda v: ((v.x - u.x) ** 2 + (v.y - u.y) ** 2, v.i))
        want = [("charge", v.i) for v, _ in RCH.charge_options(b, u, near[:8])]
        got = [c.order for c in M.move_offers(b, u) if c.kind == "charge" and c.legal()]
        assert got == want
    for v in enemies:
        dx, dy = v.x - u.x, v.y - u.y
        for lim in (0.0, 1.0, 6.0, 12.0, math.hypot(dx, dy), math.hypot(dx, dy) * (1 - 1e-12)):
            if surely_beyond(dx, dy, lim):
                assert math.hypot(dx, dy) > lim


@pytest.mark.parametrize("name", ["standard_five_step", "mcpherson_cards", "standard"])
def test_third_pass_short_cuts_equal_the_plain_computations(name: str) -> None:
    """Nearest enemy, the move menu's charges, sure-distance rejects (scalar third pass)."""
    assert run(name, third_pass_checks, seeds=1) > 50


def plain_crossing(b: Battle, side: str, step: float) -> None:
    """Reading ``pass_through`` sampled plainly: every point of every path near enough."""
    from umpire.board.geometry import local
    from umpire.rules.sequence_cards import sequence as Q

    foes = [v for v in b.state.units if v.alive and v.side != side]
    arc = math.radians(b.geo["fire_arc_degrees"])
    for u in Q._mine(b, side):
        start = u.extra.pop("from", None)
        if start is None:
            continue
        x0, y0 = float(start[0]), float(start[1])
        dist = math.hypot(u.x - x0, u.y - y0)
        if dist < 1e-9:
            continue
        if Q.rifles(b, u.i):
            b.set_fx(u, "no_fire", b.state.turn, Q.RIFLES)
        n = max(1, math.ceil(dist / step))
        crossed = []
        for v in foes:
            r = b.comp.combat.reach(b, v)
            if r <= 0:
                continue
            for k in range(n + 1):
                px = x0 + (u.x - x0) * k / n
                py = y0 + (u.y - y0) * k / n
                if math.hypot(px - v.x, py - v.y) > r + v.hd + u.hd:
                    continue
                fwd, lat = local(v.x, v.y, v.theta, px, py)
                if fwd > 0 and math.atan2(abs(lat), fwd) <= arc:
                    crossed.append(v.i)
                    break
        if crossed:
            u.extra["crossed"] = crossed


@pytest.mark.parametrize("name", ["standard_five_step", "mcpherson_cards"])
def test_crossing_marks_what_plain_sampling_marks(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Seed 004 pass-through: the path rejects (reach, behind the front, beside the arc)
    mark the same fields crossed as sampling every point."""
    from umpire.rules.sequence_cards import sequence as Q

    if not str(Q.__file__).endswith(".py"):
        pytest.skip("the mypyc build calls crossing natively: it cannot be patched")
    fast = Q.crossing
    compared = [0, 0]

    def both(b: Battle, side: str, step: float) -> None:
        saved = {u.i: dict(u.extra) for u in b.state.units}
        plain_crossing(b, side, step)
        want = {u.i: u.extra.get("crossed") for u in b.state.units}
        for u in b.state.units:
            u.extra.clear()
            u.extra.update(saved[u.i])
        fast(b, side, step)
        assert {u.i: u.extra.get("crossed") for u in b.state.units} == want
        compared[0] += 1
        compared[1] += sum(1 for marks in want.values() if marks)

    monkeypatch.setattr(Q, "crossing", both)
    scen = load_scenario(name)
    pols = {"union": make_policy("ai"), "confederate": make_policy("ai")}
    for seed in range(3):
        play(scen, seed, pols)
    assert compared[0] > 10 and compared[1] > 10


def plain_card_phase(cd: Any, b: Battle, seq: int) -> tuple[Any, ...] | None:
    """The card draw's phase at ``seq`` read afresh from the deck (no row kept): (side,
    step name, step, units)."""
    from umpire.rules.sequence_cards.sequence import other

    head = cd._head_phases
    if seq < len(head):
        return tuple(head[seq])
    seq -= len(head)
    deck = b.state.extra.get("cards")
    per = len(cd._card)
    total = int(deck.get("total", 0)) if deck else 0
    if seq < total * per:
        name, by_other, step = cd._card[seq % per]
        card = deck.get("card", "")
        who = deck.get("drawer" if name == "draw" else "side", cd.order[0])
        if name == "draw":
            return (who, name, step, None)
        if by_other:
            return (other(who), name, step, None)
        return (who, name, step, cd.scope(b, card))
    seq -= total * per
    return tuple(cd._end_phases[seq]) if seq < len(cd._end_phases) else None


@pytest.mark.parametrize("name", ["mcpherson_cards", "stone_wall_cards", "standard_five_step"])
def test_004_cursor_short_cuts_give_the_phase_read_afresh(name: str) -> None:
    """Seed 004 RANDOM MOVEMENT ("the units on that card - and only those units - may fire
    and move") and III: at every decision the phase the engine stands at (found once by
    ``_advance``, the card's phases kept in a row) is the one read afresh from the deck:
    the same side, step, step object and units."""
    seen = [0]

    def check(b: Battle, req: Request) -> None:
        ph = b.phase()
        assert req.step == ph.name
        cd = b.comp.sequence
        if not hasattr(cd, "_card") or getattr(b._at, "checked", False):
            return
        fast = b._at

        def at(b: Battle, seq: int) -> Any:  # every phase read, automatic steps too
            got = fast(b, seq)
            assert (None if got is None else tuple(got)) == plain_card_phase(cd, b, seq)
            seen[0] += 1
            return got

        at.checked = True  # type: ignore[attr-defined]
        b._at = at

    assert run(name, check) > 50
    assert seen[0] > 500 or name == "standard_five_step"


def test_fire_arc_short_cut_answers_as_the_angle() -> None:
    """Seed 002 FIRE, default ``fire_arc``: ``Battle.in_arc`` settles most targets by the
    tangent of the arc and the rest by the angle; both answer as ``degrees(atan2(...))
    <= fire_arc_degrees``, also a hair either side of the arc's edge, at any facing."""
    from umpire.battle.run import new_battle
    from umpire.board.geometry import local

    b = new_battle(load_scenario("standard"), ScriptedSource([]))
    arc = b.geo["fire_arc_degrees"]
    u, v = b.state.units[0], b.state.units[-1]
    checked = inside = 0
    for facing in (0.0, 0.3, 1.0, 2.5, -2.0):
        u.theta = facing
        for deg in (0.0, 10.0, arc - 1e-6, arc - 1e-12, arc, arc + 1e-12, arc + 1e-6, 89.0, 120.0):
            for side in (1.0, -1.0):
                for r in (0.5, 7.0, 30.0):
                    a = facing + side * math.radians(deg)
                    v.x, v.y = u.x + r * math.cos(a), u.y + r * math.sin(a)
                    fwd, lat = local(u.x, u.y, u.theta, v.x, v.y)
                    want = fwd > 0 and math.degrees(math.atan2(abs(lat), fwd)) <= arc
                    assert b.in_arc(u, v) is want, (facing, deg, side, r)
                    checked += 1
                    inside += want
    assert 0 < inside < checked


def test_roll_words_are_skipped_only_where_nothing_reads_them() -> None:
    """A roll's purpose is worded for real dice, scripted faces and the luck report; only
    the fast path's seeded stream skips the words (the golden battles hold its faces)."""
    from umpire.battle.engine import Recorder
    from umpire.battle.run import new_battle
    from umpire.dice import SeededSource
    from umpire.rules.quick_acw.steps import resolve_fire

    scen = load_scenario("standard")
    asked: list[str] = []

    class Asking(ScriptedSource):
        def dice(self, n: int, sides: int, purpose: str = "") -> list[int]:
            asked.append(purpose)
            return super().dice(n, sides, purpose)

    fast = new_battle(scen, Recorder(SeededSource(7)))
    assert not fast.dice_words()
    fast.luck = []
    assert fast.dice_words()
    table = new_battle(scen, Asking([3, 4]))
    assert table.dice_words()
    u, t = table.state.units[0], table.state.units[-1]
    resolve_fire(table, u, t, 7, [], 12.0)
    assert asked and f"{u.name} fires at {t.name} (needs 7+" in asked[0]


def test_leader_joins_nearest_the_middle_as_the_plain_sort() -> None:
    """The generic AI's leader (join the unit nearest the middle of his units, by the
    rules' ``dx ** 2 + dy ** 2``, the earlier on a tie) picks as a plain stable sort does,
    at every leader decision of a few battles (squares first, the rules' sums near a tie)."""
    from umpire.ai.odds_ai import OddsAI
    from umpire.battle import orders as od
    from umpire.battle.roles import offers

    ai = OddsAI()
    seen = [0]

    def check(b: Battle, req: Request) -> None:
        if req.kind != "leader":
            return
        ld = b.state.leaders[req.actor]
        mine = [u for u in b.state.units if u.alive and u.leader == ld.i]
        opts = offers(b, req)
        joins = [c for c in opts if c.kind == "leader"]
        if not mine or not joins:
            return
        cx = sum(u.x for u in mine) / len(mine)
        cy = sum(u.y for u in mine) / len(mine)
        by_d = sorted(joins, key=lambda j: (j.at()[0] - cx) ** 2 + (j.at()[1] - cy) ** 2)
        want = next((j.order for j in by_d if j.legal()), None)
        got = ai.leader(b, req, offers(b, req))
        assert got == (want if want is not None else od.HOLD), (ld.name, got, want)
        seen[0] += 1

    run("standard_five_step", check, seeds=2)
    run("mcpherson_cards", check, seeds=2)
    assert seen[0] > 50


def test_nearest_enemy_on_ties_and_near_ties_is_the_plain_first_nearest() -> None:
    """The nearest enemy (squares first, the rules' ``** 2`` sums near a tie) is plain
    ``min`` by ``dx ** 2 + dy ** 2`` (the first on a tie), with enemies placed at equal
    and at nearly equal distances in many directions (where the two sums can disagree)."""
    import random

    from umpire.battle.run import new_battle

    b = new_battle(load_scenario("standard"), ScriptedSource([]))
    u = b.state.units[0]
    foes = [v for v in b.state.units if v.side != u.side]
    rng = random.Random(4)
    for trial in range(400):
        r = rng.uniform(0.5, 40.0)
        for k, v in enumerate(foes):
            a = rng.uniform(0.0, 2 * math.pi)
            rr = r * (1.0 + rng.choice([0.0, 0.0, 1e-16, -1e-16, 3e-13, 1e-9, 0.01]) * k)
            v.x, v.y = u.x + rr * math.cos(a), u.y + rr * math.sin(a)
        if trial % 3 == 0:  # exact ties: mirror images at the same distance
            for v, w in zip(foes[::2], foes[1::2], strict=False):
                w.x, w.y = 2 * u.x - v.x, 2 * u.y - v.y
        plain = min(foes, key=lambda v: (v.x - u.x) ** 2 + (v.y - u.y) ** 2)
        assert b.nearest_enemy(u) is plain, trial
    # pairs whose two sums order them differently (found by search): the rules' decides
    u.x, u.y = 20.0, 10.0
    for x1, y1, x2, y2 in DISAGREE:
        for v in foes:
            v.x, v.y = u.x + 60.0, u.y + 60.0
        a, c = foes[0], foes[1]
        for (ax, ay), (cx, cy) in (((x1, y1), (x2, y2)), ((x2, y2), (x1, y1))):
            a.x, a.y, c.x, c.y = ax, ay, cx, cy
            plain = min(foes, key=lambda v: (v.x - u.x) ** 2 + (v.y - u.y) ** 2)
            cheap = min(foes, key=lambda v: (v.x - u.x) * (v.x - u.x) + (v.y - u.y) * (v.y - u.y))
            assert cheap is not plain  # the case bites
            assert b.nearest_enemy(u) is plain


DISAGREE = [
    (10.509192279430154, 7.835941316456143, 10.37614835982169, 11.462894658711626),
    (16.01008987031291, 29.472142338091057, 39.10628374498862, 15.480294840046604),
    (31.737905502324622, -0.8048337197106754, 23.259889203785285, 25.61716938728474),
    (33.202954532257166, -7.568759036829572, 41.306152260967025, 15.387687658682577),
    (26.144003194937742, 14.493035421425787, 26.03770909961121, 5.36510934475645),
    (40.005819139251635, 16.10366146037231, 9.691480245969977, -8.199502826617383),
]
"""Two enemies of a unit at (20, 10) whose ``dx * dx + dy * dy`` and ``dx ** 2 + dy ** 2``
order them differently (a search of random pairs at equal radii found them)."""
