"""Seed 003 terrain (XVI): movement and firing deductions, and when a regiment stalls.

Pure functions over the terrain's data (``data/rules.toml`` ``[terrain]``) and the die
rolled; exact odds by enumerating the die.
"""

from __future__ import annotations

from fractions import Fraction
from typing import NamedTuple

from umpire.rules.action_reaction.artillery import data


class Going(NamedTuple):
    """What a piece of terrain did to a move: the inches left, and whether it stalled."""

    left: float
    stalled: bool
    deduction: int


def kinds() -> list[str]:
    """The terrain kinds of XVI."""
    return sorted(data()["terrain"])


def _entry(kind: str) -> dict[str, object]:
    table = data()["terrain"]
    if kind not in table:
        raise ValueError(f"unknown terrain '{kind}' (known: {', '.join(sorted(table))})")
    entry: dict[str, object] = table[kind]
    return entry


def move_die(kind: str) -> tuple[int, int] | None:
    """(count, sides) of the movement roll, or None for a fixed deduction."""
    spec = str(_entry(kind)["move"])
    if "d" not in spec:
        return None
    count, sides = spec.split("/")[0].split("d")
    return int(count or 1), int(sides)


def movement(kind: str, left: float, face: int | None = None) -> Going:
    """XVI: the move left after crossing ``kind`` with the movement die ``face`` (1D6
    halved rounds up; a d10 reads 0 as 10, reading ``terrain_stall``)."""
    entry = _entry(kind)
    spec = str(entry["move"])
    sign = int(str(entry["move_sign"]))
    if "d" in spec:
        if face is None:
            raise ValueError(f"{kind}: the movement die's face is needed")
        amount = 10 if face == 0 and spec.endswith("d10") else face
        if spec.endswith("/2"):
            amount = (amount + 1) // 2
    else:
        amount = int(spec)
    if sign > 0:
        return Going(left + amount, False, amount)
    if amount > left:
        return Going(0.0, True, amount)  # "may not move for the rest of the turn"
    return Going(left - amount, False, amount)


def stall_odds(kind: str, left: float) -> Fraction:
    """Exact P(the regiment stalls) crossing ``kind`` with ``left`` inches of move."""
    die = move_die(kind)
    if die is None:
        return Fraction(int(movement(kind, left).stalled))
    _, sides = die
    faces = range(10) if sides == 10 else range(1, sides + 1)
    stalls = sum(1 for f in faces if movement(kind, left, f).stalled)
    return Fraction(stalls, len(faces))


def fire_die(kind: str) -> int | None:
    """The sides of ``kind``'s firing die (XVI.F: the stone wall's 1d6), or None (fixed)."""
    spec = str(_entry(kind)["fire"])
    return int(spec.split("d")[1]) if "d" in spec else None


def fire_deduction(kind: str, face: int | None = None) -> int:
    """XVI: the firing deduction of ``kind`` (the stone wall's is a rolled 1d6)."""
    spec = str(_entry(kind)["fire"])
    if "d" in spec:
        if face is None:
            raise ValueError(f"{kind}: the firing die's face is needed")
        return face
    return int(spec)
