"""Seed 002's hot rules written once: plain numbers in, numbers out (issue 25).

The scalar rules (:mod:`umpire.rules.quick_acw.rules`, compiled by mypyc in the compiled
build) call these functions, and the batch simulator's kernels call numba's copy of this
same file (:func:`umpire.jit.twin`), so each rule has one implementation and both engines
give the same numbers (``tests/test_lab_agreement.py``). The rules for this file are
:mod:`umpire.board.numeric`'s: no numpy, no objects made or kept, only numbers (and
indexable sequences of numbers) in and out. Words become codes here: unit types
:data:`FOOT`, :data:`CAVALRY`, :data:`ARTILLERY`; changes :data:`NO_CHANGE`,
:data:`FORMATION` (also limber or unlimber), :data:`MOUNT` (mount or dismount); the rows of
the MOVEMENT table in the order of :data:`MOVE_ROWS`, of the FIRE table in the order of
:data:`FIRE_ROWS` (-1: the unit cannot fire).
"""

from __future__ import annotations

from typing import Final

FOOT: Final = 0
CAVALRY: Final = 1
ARTILLERY: Final = 2
"""Unit types (``rules.TYPES``)."""
NO_CHANGE: Final = 0
FORMATION: Final = 1
MOUNT: Final = 2
"""Changes: none, of formation (also limber or unlimber), mount or dismount."""
MOVE_ROWS: Final = (
    "foot_line",
    "foot_column",
    "cavalry_line",
    "cavalry_column",
    "artillery_limbered",
    "artillery_unlimbered",
)
"""The MOVEMENT table's rows by code (``data/rules.toml``'s ``[movement]`` keys)."""
FIRE_ROWS: Final = ("foot", "dismounted_cavalry", "artillery")
"""The FIRE table's rows by code (``data/rules.toml``'s ``[fire]`` keys)."""


def move_row(utype: int, column: bool, mounted: bool, limbered: bool, change: int) -> int:
    """Seed 002 MOVEMENT: the row a unit moves by (:data:`MOVE_ROWS`). "Foot" includes
    dismounted cavalry; artillery that limbers or unlimbers (``change`` FORMATION) moves by
    the limbered row (default ``formation_change_half`` then halves it)."""
    if utype == ARTILLERY:
        return 4 if limbered or change == FORMATION else 5
    if utype == CAVALRY and mounted:
        return 3 if column else 2
    return 1 if column else 0


def move_inches(
    open_: float,
    rough_rate: float,
    rough: bool,
    in_command: bool,
    leader_lost: bool,
    change: int,
    costs: tuple[float, float, float, float],
) -> float:
    """Seed 002 MOVEMENT (the row's ``open_`` inches, times its ``rough_rate`` on rough
    ground, less the cost of a change of formation or of mounting), COMMAND ("otherwise 1/2
    move") and LEADERS ("all his units move 1/2 rate"): the inches a move may cover, the
    factors multiplied in this order (reading ``half_rates_multiply``). ``costs``: out of
    command, leader lost, formation change, mount or dismount (``[movement_costs]``)."""
    factor = 1.0
    if rough:
        factor *= rough_rate
    if not in_command:
        factor *= costs[0]
    if leader_lost:
        factor *= costs[1]
    if change == FORMATION:
        factor *= 1.0 - costs[2]
    elif change == MOUNT:
        factor *= 1.0 - costs[3]
    return open_ * factor


def fire_row(utype: int, mounted: bool, limbered: bool) -> int:
    """Seed 002 FIRE: the table's row for a unit (:data:`FIRE_ROWS`), -1 if it cannot fire
    ("Mounted cavalry can't fire"; default ``limbered_no_fire``)."""
    if utype == FOOT:
        return 0
    if utype == CAVALRY:
        return -1 if mounted else 1
    return -1 if limbered else 2


def stands_lost(roll: int, needed: int, mod: int, margin: int) -> int:
    """Seed 002 FIRE: a hit (``roll + mod`` at least ``needed``) costs one stand; beating the
    need by ``margin`` (8) or more costs two."""
    score = roll + mod
    if score < needed:
        return 0
    return 2 if score - needed >= margin else 1


def is_removed(stands: int, original: int, fraction: float) -> bool:
    """Seed 002: "Any unit reduced to less than 1/2 of its original stands is removed"
    (``fraction`` 0.5). One comparison: numba's copy also takes arrays."""
    return stands < original * fraction


def leader_lost(face: int, lost_on: int) -> bool:
    """Seed 002 LEADERS: an attached leader is lost on 5-6 of 1d6 (``lost_on`` 5). One
    comparison: numba's copy also takes arrays."""
    return face >= lost_on
