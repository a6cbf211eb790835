"""The AI's personality per side (issue 23): how readily it attacks, the risk it takes,
the reserve it keeps. Data with labelled defaults (``umpire/data/ai/personality.toml``);
a scenario sets any of them per side (``[sides.union.personality]``)."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

RESERVE_NEAR = 12.0
"""A reserve unit joins in once an enemy is this near, in inches (the ``ai_reserve``
default's reason)."""


@cache
def data() -> dict[str, Any]:
    """The personality data: ``values`` (the defaults) and their labels."""
    text = resources.files("umpire").joinpath("data/ai/personality.toml").read_text("utf-8")
    return tomllib.loads(text)


@dataclass(frozen=True, slots=True)
class Personality:
    """One side's: ``attack`` (P to go in a charge needs), ``risk`` (expected stands lost
    it accepts per stand inflicted), ``reserve`` (fraction of units held back)."""

    attack: float
    risk: float
    reserve: float


def personality(scenario: Any, side: str) -> Personality:
    """The side's personality: the scenario's values over the data's defaults."""
    vals = dict(data()["values"])
    spec = getattr(scenario.sides.get(side), "personality", None)
    if spec is not None:
        vals.update(spec.model_dump(exclude_none=True))
    return Personality(float(vals["attack"]), float(vals["risk"]), float(vals["reserve"]))


def labels() -> list[dict[str, str]]:
    """Every labelled default, as ``umpire rules list`` shows a module's."""
    return [{"label": "default", **d} for d in data().get("default", [])]
