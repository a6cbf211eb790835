"""Seed 001: solo random events (borrowed from Maurice) as the ``solo-events`` events role.

The tables ship in ``umpire/data/tables/solo_events.toml``; ``events.py`` rolls them at
the start of each turn and acts on the game through the tactical engine's seams;
``data/mapping.toml`` (read by ``mapping.py``) maps 001's terms (BW, DISR, phases, army
morale) and each of the 20 events onto the host rules, and ``data/labels.toml`` holds
every default and reading (docs/solo_events.md).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from umpire.battle.roles import Composition, RulesSpec
from umpire.rules.labels import Labelled, load_labels, load_steps
from umpire.rules.solo_events.mapping import LABELS


class SoloEventsModule:
    """The role module ``solo-events``."""

    id = "solo-events"
    name = "Solo random events, a d20 table (borrowed from Maurice)"
    seed = "001"
    provides = ("events",)
    options: Mapping[str, str] = {}

    def defaults(self) -> list[Labelled]:
        """Every labelled default and reading of ``data/labels.toml``."""
        return load_labels(LABELS)

    def steps(self) -> dict[str, str]:
        """Each step's name in words (``[steps]`` of data/labels.toml), for headings."""
        return load_steps(LABELS)

    def role(self, kind: str, spec: RulesSpec) -> Any:
        """The events role."""
        if kind != "events":
            raise KeyError(kind)
        from umpire.rules.solo_events.events import SoloEvents

        return SoloEvents(spec)

    def needs(self, kind: str) -> Mapping[str, tuple[frozenset[str], str]]:
        """It mounts on any sequence and combat."""
        return {}

    def invariants(self, comp: Composition) -> Any:
        """What must hold after every step (``umpire.battle.invariants``): seed 001's."""
        from umpire.rules.solo_events import invariants

        return invariants.invariants(comp)

    def features(self, comp: Composition) -> Any:
        """Seed 001's parts whose use a conformance run counts."""
        from umpire.rules.solo_events import invariants

        return invariants.features(comp)


MODULE = SoloEventsModule()
