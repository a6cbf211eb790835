"""The web table's readings (``web_undo``, ``web_fork``, ``web_real_dice``, ...) as labelled
data, listed by ``umpire rules list`` beside the rule modules' (docs/web.md)."""

from __future__ import annotations

from functools import cache
from importlib import resources
from pathlib import Path

from umpire.rules.labels import Labelled, load_labels


@cache
def readings() -> tuple[Labelled, ...]:
    """Every reading the web table uses, from ``umpire/data/web/readings.toml``."""
    path = Path(str(resources.files("umpire").joinpath("data/web/readings.toml")))
    return tuple(load_labels(path))
