"""The record of one roll: which dice each term drew, which counted, and the total.

Kept free of heavy imports so that ``umpire roll`` starts fast.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class DieGroup:
    """The faces one dice term drew (``kept`` are the ones that counted toward its value).

    ``term`` is the canonical text of the term, e.g. ``"4d6kh3"``. For ``d66`` the group is
    ``sides=6, faces=(tens, units)``. For keep-highest ``kept`` is sorted high to low, for
    keep-lowest low to high; for a success count it holds the successful faces in rolled order.
    """

    term: str
    sides: int
    faces: tuple[int, ...]
    kept: tuple[int, ...]

    def to_json(self) -> dict[str, Any]:
        """A plain JSON object: term, sides, faces and kept."""
        return {
            "term": self.term,
            "sides": self.sides,
            "faces": list(self.faces),
            "kept": list(self.kept),
        }


@dataclass(frozen=True, slots=True)
class RollResult:
    """One evaluation of a dice expression: its canonical text, the dice groups in order, the total.

    ``total`` is a bool when the expression ends in a comparison of the total.
    """

    expr: str
    dice: tuple[DieGroup, ...]
    total: int | bool

    def to_json(self) -> dict[str, Any]:
        """A plain JSON object: ``{"expr": ..., "dice": [...], "total": ...}``."""
        return {
            "expr": self.expr,
            "dice": [group.to_json() for group in self.dice],
            "total": self.total,
        }

    @property
    def faces(self) -> tuple[int, ...]:
        """Every face drawn, in order, across all groups (d66 gives two faces)."""
        return tuple(face for group in self.dice for face in group.faces)
