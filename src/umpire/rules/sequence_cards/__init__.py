"""Seed 004: the five-step sequence of action, activation by card draw, the status ladder.

Two role modules: ``five-step`` (III. SEQUENCE OF ACTION) and ``card-draw`` (RANDOM
MOVEMENT); both also fill the status role with the ladder Stop < Shaken < Retreat <
Lose < Route (EFFECT). Every default and reading is in ``data/labels.toml``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from umpire.battle.roles import RulesSpec
from umpire.rules.labels import Labelled, load_labels, load_steps
from umpire.rules.sequence_cards.ladder import DATA

if TYPE_CHECKING:
    from umpire.battle.invariants import Feature, Invariant
    from umpire.battle.roles import Composition

LADDER_MODULES = frozenset({"five-step", "card-draw"})


class SequenceCards:
    """A seed 004 role module: a sequence and the status ladder."""

    seed = "004"
    provides = ("sequence", "status")
    options: Mapping[str, str] = {}

    def __init__(self, module_id: str, name: str):
        self.id = module_id
        self.name = name

    def defaults(self) -> list[Labelled]:
        """Every labelled default and reading of ``data/labels.toml``."""
        return load_labels(DATA / "labels.toml")

    def steps(self) -> dict[str, str]:
        """Each step's name in words (``[steps]`` of data/labels.toml), for headings."""
        return load_steps(DATA / "labels.toml")

    def role(self, kind: str, spec: RulesSpec) -> Any:
        """The sequence (five steps or card draw) or the ladder."""
        if kind == "status":
            from umpire.rules.sequence_cards.status import LadderStatus

            return LadderStatus(self.id)
        if kind == "sequence":
            from umpire.rules.sequence_cards.sequence import CardDraw, FiveStep

            return CardDraw(spec) if self.id == "card-draw" else FiveStep(spec)
        raise KeyError(kind)

    def invariants(self, comp: Composition) -> Sequence[Invariant]:
        """Seed 004's invariants for the roles this module fills in ``comp``."""
        from umpire.rules.sequence_cards import invariants as inv

        return inv.invariants(comp, self.id)

    def features(self, comp: Composition) -> Sequence[Feature]:
        """Seed 004's rules whose use a large run counts."""
        from umpire.rules.sequence_cards import invariants as inv

        return inv.features(comp, self.id)

    def needs(self, kind: str) -> Mapping[str, tuple[frozenset[str], str]]:
        """Card draws need the ladder (seed 004 EFFECT); the five steps run with any status."""
        if self.id == "card-draw" and kind == "sequence":
            return {
                "status": (
                    LADDER_MODULES,
                    "card draws need the status ladder's Retreated and Routed markers "
                    "(seed 004 EFFECT)",
                )
            }
        return {}


FIVE_STEP = SequenceCards("five-step", "Sequence of action: five steps, side A then B (004 III)")
CARD_DRAW = SequenceCards("card-draw", "Random movement: a card per grouping, drawn blind (004)")
