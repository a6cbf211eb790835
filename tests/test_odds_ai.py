"""The generic AI (umpire.ai.odds_ai): plays any composition by the combat role's odds.

Issue "One tactical engine ...": "The AI plays any composition. It chooses among the
legal orders by the combat module's exact odds (expected stands lost and gained, the
chance that a charge goes in), with the posture of the scenario."
"""

from __future__ import annotations

import math
from collections.abc import Callable

import pytest

from umpire.ai.odds_ai import CHARGE_THRESHOLD, OddsAI
from umpire.ai.random_policy import RandomPolicy
from umpire.battle import orders as od
from umpire.battle.engine import Battle, Order, Request
from umpire.battle.roles import Choice, Offer, offered
from umpire.battle.run import new_battle, play
from umpire.battle.scenario import load_scenario
from umpire.dice import SeededSource


def test_fire_takes_the_best_expected_loss_and_values_a_kill() -> None:
    ai = OddsAI()
    opts = [
        Choice(od.FireAt("fire", 1), "a", "fire", {"inflict": 0.30}),
        Choice(od.FireAt("fire", 2), "b", "fire", {"inflict": 0.45}),
        Choice(od.HOLD, "hold", "hold"),
    ]
    assert ai.fire([Offer.of(c) for c in opts]) == ("fire", 2)
    opts[0] = Choice(od.FireAt("fire", 1), "a", "fire", {"inflict": 0.31, "finish": 1.0})
    assert ai.fire([Offer.of(c) for c in opts]) == ("fire", 1)  # 0.31 x 1.5 > 0.45


def test_pick_takes_the_highest_value() -> None:
    ai = OddsAI()
    opts = [
        Choice(od.Pick("pick", 3), "x", "pick", {"value": 1.0}),
        Choice(od.Pick("pick", 5), "y", "pick", {"value": 2.0}),
    ]
    assert ai.pick([Offer.of(c) for c in opts]) == ("pick", 5)


def test_beats_the_random_policy_on_either_side() -> None:
    """Four battles a side on McPherson's Ridge: the odds AI wins at least three of each."""
    scen = load_scenario("mcpherson_ridge")
    for ai_side, other in (("union", "confederate"), ("confederate", "union")):
        wins = 0
        for seed in range(4):
            res = play(scen, seed, {ai_side: OddsAI(), other: RandomPolicy(seed)})
            wins += res.winner == ai_side
        assert wins >= 3, (ai_side, wins)


def eager(ai: OddsAI, b: Battle, req: Request) -> Order:
    """The generic AI as it was before offers: score the full legal menu (``offered``)."""
    opts = offered(b, req)
    if req.kind == "leader":
        ld = b.state.leaders[req.actor]
        mine = [u for u in b.state.units if u.alive and u.leader == ld.i]
        joins = [c for c in opts if c.kind == "leader"]
        if not mine or not joins:
            return ("hold",)
        cx = sum(u.x for u in mine) / len(mine)
        cy = sum(u.y for u in mine) / len(mine)
        return min(joins, key=lambda c: (c.order[1] - cx) ** 2 + (c.order[2] - cy) ** 2).order
    if req.kind == "fire":
        return ai.fire([Offer.of(c) for c in opts])
    if req.kind != "move":
        return ai.pick([Offer.of(c) for c in opts])
    charges = [
        c
        for c in opts
        if c.kind == "charge"
        and c.odds.get("p", 0.0) > CHARGE_THRESHOLD
        and c.odds.get("inflict", 0.0) >= c.odds.get("suffer", 0.0)
    ]
    if charges:
        return max(charges, key=lambda c: (c.odds["p"], c.odds.get("inflict", 0.0))).order
    moves = [c for c in opts if c.kind == "move"]
    if not moves:
        kinds = {c.kind for c in opts}
        return ("hold",) if "hold" in kinds or not opts else opts[0].order
    u = b.state.units[req.actor]
    gx, gy, stop = ai.goal(b, req)

    def score(x: float, y: float) -> float:
        s = -abs(math.hypot(gx - x, gy - y) - stop)
        return s + (3.0 if b.setup.board.in_cover(x, y) else 0.0)

    here = score(u.x, u.y) + 0.25
    best = max(moves, key=lambda c: score(float(c.order[1]), float(c.order[2])))
    return best.order if score(float(best.order[1]), float(best.order[2])) > here else ("hold",)


class Both:
    """The AI, checked at every decision against the eager reference."""

    kind = "ai"

    def __init__(self) -> None:
        self.ai = OddsAI()
        self.asked = 0

    def decide(self, b: Battle, req: Request) -> Order:
        want = eager(self.ai, b, req)
        got = self.ai.decide(b, req)
        assert got == want, (req, got, want)
        self.asked += 1
        return got


@pytest.mark.parametrize("name", ["standard_five_step", "mcpherson_cards", "stone_wall_cards"])
def test_testing_legality_best_first_picks_what_the_full_menu_would(name: str) -> None:
    """Scoring offers first and testing the best first gives the order the AI would take
    from the whole legal menu (brute force: the old algorithm over ``offered``)."""
    scen = load_scenario(name)
    pols = {"union": Both(), "confederate": Both()}
    for seed in range(2):
        play(scen, seed, pols)
    assert pols["union"].asked > 20 and pols["confederate"].asked > 20


def test_an_illegal_offer_is_never_taken_and_worse_ones_are_not_tested() -> None:
    """Offers are tested best first; the first legal one is taken, the rest left untested."""
    scen = load_scenario("standard_five_step")
    b = new_battle(scen, SeededSource(0))
    req = b.next_request()
    while req is not None and req.kind != "move":
        b.apply(req, OddsAI().decide(b, req))
        req = b.next_request()
    assert req is not None
    u = b.state.units[req.actor]
    gx, gy, _ = OddsAI().goal(b, req)
    tested: list[int] = []

    def test(k: int, ok: bool) -> Callable[[], bool]:
        return lambda: tested.append(k) is None and ok

    def at(f: float) -> Order:  # a point a fraction f of the way to the goal
        return od.Move("move", u.x + (gx - u.x) * f, u.y + (gy - u.y) * f, 0.0, "")

    opts = [
        Offer(at(0.2), "move", {}, "a", test(0, True)),
        Offer(at(0.9), "move", {}, "b", test(1, False)),
        Offer(at(0.6), "move", {}, "c", test(2, True)),
        Offer(od.HOLD, "hold", {}, "hold"),
    ]
    assert OddsAI().move(b, req, opts) == at(0.6)
    assert tested == [1, 2]
