"""Seed 003 XII.F movement rates and costs (numbers in data/rules.toml [movement])."""

from __future__ import annotations

from umpire.errors import UmpireError
from umpire.rules.action_reaction.artillery import data


def rate(troop: str, formation: str, mounted: bool = False, limbered: bool = False) -> float:
    """XII.F: inches a unit moves as it stands (unlimbered guns go by hand: 1 inch)."""
    m = data()["movement"]
    if troop == "foot":
        return float(m["infantry_column" if formation == "column" else "infantry_line"])
    if troop == "cavalry":
        if not mounted:
            return float(m["dismounted"])
        return float(m["cavalry_column" if formation == "column" else "cavalry_line"])
    if troop == "artillery":
        if not limbered:
            return float(m["by_hand"])
        return float(m["limbered_column" if formation == "column" else "limbered_line"])
    raise UmpireError(f"unknown troop type '{troop}' (foot, cavalry, artillery)")


def cost(action: str) -> float:
    """XII.F: the movement an action uses."""
    costs: dict[str, float] = data()["movement"]["cost"]
    if action not in costs:
        raise UmpireError(f"unknown movement action '{action}' ({', '.join(sorted(costs))})")
    return float(costs[action])


def deductions_apply(troop: str, formation: str, mounted: bool) -> bool:
    """XII.F.3: skirmishers, dismounted cavalry and crews move without deductions."""
    return not (formation == "skirmish" or (troop == "cavalry" and not mounted))
