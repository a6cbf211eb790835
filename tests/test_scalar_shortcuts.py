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
  exact functions called afresh.
"""

from __future__ import annotations

import math
from typing import Any

import pytest

from umpire.ai import make_policy
from umpire.battle.engine import Battle, Order, Request
from umpire.battle.run import play
from umpire.dice import ScriptedSource
from umpire.errors import IllegalActionError
from umpire.rules.quick_acw import steps as S
from umpire.scenarios import load_scenario


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
    plain = [(v, S.charge_option(b, u, v)) for v in enemies]
    want = [(v, opt) for v, opt in plain if opt is not None]
    assert S.charge_options(b, u, enemies) == want
    for v, opt in plain:
        try:
            explained: Any = S.charge_reach(b, u, v)
        except IllegalActionError:
            explained = None
        assert explained == opt, (u.name, v.name)
    tried = []
    for change in S.CHANGES[1:]:
        try:
            S.after_change(u, change)
        except IllegalActionError:
            continue
        tried.append(change)
    assert list(S.changes_open(u)) == tried
    # seed 002 MOVEMENT: the silent move test reads the ground only between the rough and
    # the open allowance; it must answer as the one that explains, at lengths either side
    for change in ["", *tried]:
        for k in range(8):
            th = u.theta + k * math.pi / 4
            for inches in (0.0, 1.0, 1.5, 2.9, 3.0, 3.1, 4.5, 5.9, 6.0, 6.1, 9.0, 12.0):
                x, y = u.x + inches * math.cos(th), u.y + inches * math.sin(th)
                silent = S._move(b, u, x, y, th, change, False)
                explained = S._move(b, u, x, y, th, change, True)
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
            got = S.targets(b, u, exact=True)
            want = S.targets(fresh, u, exact=True)
            assert [s[:3] for s in got] == [s[:3] for s in want]
            assert [s[3] for s in got] == pytest.approx([s[3] for s in want], nan_ok=True)


@pytest.mark.parametrize("name", ["standard_five_step", "mcpherson_cards"])
def test_fire_targets_kept_per_pair_equal_a_fresh_battle(name: str) -> None:
    """Seed 002 FIRE: a pair's shot kept with the two units' versions is never stale."""
    assert run(name, targets_check, seeds=1) > 50


def ar_odds_check(b: Battle, req: Request) -> None:
    """Seed 003 XII.H, XIII: a charge's numbers kept per setup equal the exact functions."""
    from umpire.rules.action_reaction import melee as M
    from umpire.rules.action_reaction import officers as O
    from umpire.rules.action_reaction import steps as A
    from umpire.rules.action_reaction.h2h import loser_odds

    if req.kind != "move":
        return
    u = b.state.units[req.actor]
    checked = 0
    for t in b.state.units:
        if not t.alive or t.side == u.side or A.may_charge(b, u, t):
            continue  # no charge offered (may_charge says why)
        checked += 1
        away, fires = A.give_way_odds(b, u, t)
        p = M.reacts_odds(A.clear_field(b, u, t))
        ro = M.reaction_odds()
        hold = O.rally_odds(int(A.book(b, t)["off"]))
        assert away == p * (ro.get("retreat", 0) + ro.get("withdraw", 0)) * (1 - hold)
        assert fires == p * ro.get("fire", 0)
        if u.formation == "column":
            n, m = M.column_dice(t.stands)
        else:
            n, m = u.stands, min(t.stands, u.stands + 1)
        reach = A.reach_odds(b, u, t)
        strike = loser_odds(min(n, 12), min(m, 12))
        win, first, goes_in, lost = A.odds(b, A._charge_numbers, reach, away, n, m)
        assert win == float(reach * (1 - away) * strike["defender"])
        assert first == float(strike["defender"]) and goes_in == float(reach)
        assert lost == float(reach * (1 - away) * strike["attacker"])
    CHARGES_CHECKED[0] += checked


CHARGES_CHECKED = [0]


def test_003_charge_odds_kept_per_scenario_equal_the_exact_functions() -> None:
    """Seed 003 XII.H, XIII: the odds the menus read from ``Setup.kept`` are the exact ones."""
    assert run("stone_wall", ar_odds_check, seeds=2) > 20
    assert CHARGES_CHECKED[0] > 10
