"""Seed 003 XII.F movement: the rates a turn and the costs of formation changes.

The numbers are in ``data/rules.toml`` ``[movement]`` (rates), ``[movement.cost]`` and
``[movement.alias]`` (costs); the engine's troop types map onto XII.F's troops by the
reading ``movement_troops``, the costs by ``movement_costs``.
"""

from __future__ import annotations

from typing import Any

from umpire.errors import UmpireError
from umpire.rules.action_reaction.artillery import data

TROOPS = ("foot", "cavalry", "artillery", "officer")
FORMATIONS = ("line", "column", "skirmish")


def _cfg() -> dict[str, Any]:
    out: dict[str, Any] = data()["movement"]
    return out


def _check(troop: str, formation: str) -> None:
    if troop not in TROOPS:
        raise UmpireError(f"unknown troop type '{troop}' ({', '.join(TROOPS)})")
    if formation not in FORMATIONS:
        raise UmpireError(f"unknown formation '{formation}' ({', '.join(FORMATIONS)})")


def rate(troop: str, formation: str, mounted: bool = False, limbered: bool = False) -> float:
    """XII.F.1-4, 8 (reading ``movement_troops``): inches a unit moves in a turn before
    deductions. Foot: line 9, column 12 (F.1), skirmishers 12 (F.3); cavalry mounted: line
    26, column 36 (F.2), dismounted 12 (F.3); artillery limbered: line of pieces 26,
    column of pieces 36 (F.4), unlimbered: by hand to the front, 1 (F.8); an individual
    officer 36 mounted (F.2.4), 12 dismounted (F.3)."""
    _check(troop, formation)
    m = _cfg()
    if troop == "officer":
        return float(m["officer_mounted" if mounted else "officer_dismounted"])
    if troop == "artillery":
        if not limbered:
            return float(m["by_hand"])
        return float(m["limbered_column" if formation == "column" else "limbered_line"])
    if formation == "skirmish":
        return float(m["skirmish"])
    if troop == "cavalry":
        if not mounted:
            return float(m["dismounted"])
        return float(m["cavalry_column" if formation == "column" else "cavalry_line"])
    return float(m["infantry_column" if formation == "column" else "infantry_line"])


def actions() -> list[str]:
    """Every named action with a cost (XII.F), aliases included."""
    m = _cfg()
    return sorted([*m["cost"], *m.get("alias", {})])


def cost(action: str) -> float:
    """XII.F.1.3-4, 2.3, 5-7, 9 (reading ``movement_costs``): the movement an action uses:
    prone 0, stand_up 5, mount / dismount 2, limber / unlimber / fix_prolonge 14,
    into_battery / from_battery 12, limber_and_battery 26, change_front 0, prolonge_rear 7,
    prolonge_with_fixing 21."""
    m = _cfg()
    key = m.get("alias", {}).get(action, action)
    costs: dict[str, float] = m["cost"]
    if key not in costs:
        raise UmpireError(f"unknown movement action '{action}' ({', '.join(actions())})")
    return float(costs[key])


def deductions_apply(troop: str, formation: str, mounted: bool, limbered: bool = True) -> bool:
    """XII.F.3: 'Skirmishers, Dismounted Cavalry, Dismounted Officers, Artillery Crew
    Serving a Gun ... Move 12 inches without deductions'; every other unit takes them.
    ``limbered`` (artillery only) is False for a gun unlimbered, its crew serving it."""
    _check(troop, formation)
    if formation == "skirmish":
        return False
    if troop in ("cavalry", "officer"):
        return mounted
    if troop == "artillery":
        return limbered
    return True


FREE_FOR_F3 = ("prone", "stand_up")
"""XII.F.3.2-3: 'No deductions for going Prone', 'No deductions for Standing Up'."""


def change_cost(
    action: str, troop: str, formation: str, mounted: bool = False, limbered: bool = True
) -> float:
    """:func:`cost` for this unit: the troops of XII.F.3 (skirmishers, dismounted cavalry
    and officers, a gun's crew) go prone and stand up without deductions (F.3.2-3), so
    a skirmisher standing up still moves its 12 inches; every other unit pays F.1.3-4."""
    if action in FREE_FOR_F3 and not deductions_apply(troop, formation, mounted, limbered):
        cost(action)  # an unknown action is still refused
        return 0.0
    return cost(action)
