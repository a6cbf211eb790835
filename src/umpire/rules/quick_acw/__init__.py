"""Quick ACW miniatures rules (seed 002, MWAN #101): the first complete tactical rule set.

Rules are data (``data/rules.toml``, ``data/labels.toml``) plus small pure functions
(``rules.py``, ``odds.py``); ``steps.py`` gives the engine the seed's sequence as hooks.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from umpire.rules.labels import Labelled, load_labels
from umpire.rules.quick_acw.rules import DATA

if TYPE_CHECKING:
    from umpire.engine.context import ActionFn


class QuickACW:
    """The rule module object registered as ``quick_acw``."""

    id = "quick_acw"
    name = "Quick ACW miniatures rules (MWAN #101)"
    seed = "002"
    provides = ("sequence", "command", "move", "fire", "melee", "morale")

    def initial_state(self, scenario: dict[str, Any]) -> dict[str, Any]:
        """The battle's JSON state from a scenario mapping (see ``umpire.scenarios``)."""
        from umpire.battle.game import initial_state

        return initial_state(scenario)

    def actions(self) -> Mapping[str, ActionFn]:
        """``start`` (run to the first decision) and ``order`` (one decision)."""
        from umpire.battle.game import act_order, act_start

        return {"start": act_start, "order": act_order}

    def defaults(self) -> list[Labelled]:
        """Every labelled default and reading of ``data/labels.toml``."""
        return load_labels(DATA / "labels.toml")


MODULE = QuickACW()
