"""Issue 23 'Levels for every composition' and hard 'obeys every rule the person must': the
two shipped compositions ``test_ai_levels`` does not watch (seed 002's five-step sequence
with the 004 ladder, seed 003's combat drawn by the cards) played by easy and hard on each
side under the conformance suite's every-step watch."""

from __future__ import annotations

import pytest

from umpire.battle.scenario import load_scenario
from umpire.lab.conformance import check_battle


@pytest.mark.parametrize("level", ["easy", "hard"])
@pytest.mark.parametrize("scenario", ["standard_five_step", "stone_wall_cards"])
def test_levels_obey_every_rule_on_the_other_compositions(level: str, scenario: str) -> None:
    """Each order replays to the same state and every invariant holds after every step
    (seed 002 five-step, seed 004 status ladder; seed 003 with seed 004's cards)."""
    scen = load_scenario(scenario)
    for players in ((level, "normal"), ("normal", level)):
        assert check_battle(scen, 3, players).failures() == []
