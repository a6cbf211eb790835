"""The generic AI (umpire.ai.odds_ai): plays any composition by the combat role's odds.

Issue "One tactical engine ...": "The AI plays any composition. It chooses among the
legal orders by the combat module's exact odds (expected stands lost and gained, the
chance that a charge goes in), with the posture of the scenario."
"""

from __future__ import annotations

from umpire.ai.odds_ai import OddsAI
from umpire.ai.random_policy import RandomPolicy
from umpire.battle.roles import Choice
from umpire.battle.run import play
from umpire.scenarios import load_scenario


def test_fire_takes_the_best_expected_loss_and_values_a_kill() -> None:
    ai = OddsAI()
    opts = [
        Choice(("fire", 1), "a", "fire", {"inflict": 0.30}),
        Choice(("fire", 2), "b", "fire", {"inflict": 0.45}),
        Choice(("hold",), "hold", "hold"),
    ]
    assert ai.fire(opts) == ("fire", 2)
    opts[0] = Choice(("fire", 1), "a", "fire", {"inflict": 0.31, "finish": 1.0})
    assert ai.fire(opts) == ("fire", 1)  # 0.31 x 1.5 > 0.45


def test_pick_takes_the_highest_value() -> None:
    ai = OddsAI()
    opts = [
        Choice(("pick", 3), "x", "pick", {"value": 1.0}),
        Choice(("pick", 5), "y", "pick", {"value": 2.0}),
    ]
    assert ai.pick(opts) == ("pick", 5)


def test_beats_the_random_policy_on_either_side() -> None:
    """Four battles a side on McPherson's Ridge: the odds AI wins at least three of each."""
    scen = load_scenario("mcpherson_ridge")
    for ai_side, other in (("union", "confederate"), ("confederate", "union")):
        wins = 0
        for seed in range(4):
            res = play(scen, seed, {ai_side: OddsAI(), other: RandomPolicy(seed)})
            wins += res.winner == ai_side
        assert wins >= 3, (ai_side, wins)
