"""The tactical engine as a game module: what a saved battle is a game of.

Its state is the scenario and the compact battle state as JSON; its actions are
``start`` and ``order`` (``umpire.battle.game``). The rules are not fixed here: they
are composed from the role modules the scenario names. ``quick_acw`` is the id saves
made before the composable engine carry; it loads the same way.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from umpire.rules.labels import Labelled, load_labels

if TYPE_CHECKING:
    from umpire.engine.context import ActionFn

DATA = Path(__file__).parent / "data"


class BattleModule:
    """The game module of the tactical engine."""

    name = "The tactical engine (its rules are composed per scenario from the role modules)"
    seed = "002-004"
    provides = ("battle",)

    def __init__(self, module_id: str):
        self.id = module_id

    def initial_state(self, scenario: dict[str, Any]) -> dict[str, Any]:
        """The battle's JSON state from a scenario mapping (see ``umpire.scenarios``)."""
        from umpire.battle.game import initial_state

        return initial_state(scenario)

    def actions(self) -> Mapping[str, ActionFn]:
        """``start`` (run to the first decision) and ``order`` (one decision)."""
        from umpire.battle.game import act_order, act_start

        return {"start": act_start, "order": act_order}

    def defaults(self) -> list[Labelled]:
        """The tactical core's own defaults (``data/labels.toml``)."""
        return load_labels(DATA / "labels.toml")


MODULE = BattleModule("battle")
LEGACY = BattleModule("quick_acw")
