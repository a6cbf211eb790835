"""The two sides of a battle, defined once for every layer (it imports nothing).

``SIDES`` is the engine's order, Confederate first: seed 002's "TURN ORDER (Confederate
goes through sequence first, then the Union side)", and the order the engine, the lab and
the outcome arrays number the sides in.
``SIDES_UNION_FIRST`` is the other order, named, for what lists the Union first: the
Gettysburg command phase (seed 000), the after-action report and the pages' legends.
"""

from __future__ import annotations

from typing import Final, Literal

Side = Literal["confederate", "union"]
"""A side of the battle."""

SIDES: Final[tuple[Side, Side]] = ("confederate", "union")
"""The sides in the engine's order (Confederate first)."""

SIDES_UNION_FIRST: Final[tuple[Side, Side]] = ("union", "confederate")
"""The sides with the Union first, where a display or seed 000 lists them so."""


def other_side(side: str) -> Side:
    """The side that is not ``side``."""
    return "union" if side == "confederate" else "confederate"
