"""Unit effects: flags and modifiers that sequences and events put on units for a while.

The seam between the modules that cause an effect (seed 004's sequence: "cannot fire
again in their following step 1 or 2"; seed 001's events: "+1 to hit ... for this
turn") and the combat modules that honour it. An effect is a key in the unit's
``extra["fx"]`` with a value (a number, or the turn it was set) and a reason.

The keys every combat module reads (docs/engine-api.md, "Unit effects"):

| key | value | meaning |
| --- | --- | --- |
| ``no_fire`` | turn | may not fire |
| ``no_move`` | turn | may not move or charge |
| ``no_charge`` | turn | may not charge |
| ``no_act`` | turn | may do nothing (no move, fire, charge or rally) |
| ``fire_mod`` | int | added to its fire rolls |
| ``melee_mod`` | int | added to its melee rolls |
| ``charge_mod`` | int | added to its charge rolls |
| ``canister_mod`` | int | added to its canister fire |
| ``reaction_fire_mod`` | int | added to its defensive (reaction) fire |
| ``extra_die`` | int | extra dice in combat (one more die, or +1 stand where dice are fixed) |
| ``terrain`` | "harder" / "easier" | open as rough and rough as impassable / rough as open |
| ``ignore_disruption`` | 1 | markers do not cut its combat dice |
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from umpire.battle.state import Unit

KEYS = (
    "no_fire",
    "no_move",
    "no_charge",
    "no_act",
    "fire_mod",
    "melee_mod",
    "charge_mod",
    "canister_mod",
    "reaction_fire_mod",
    "extra_die",
    "terrain",
    "ignore_disruption",
)


def fx(u: Unit, key: str) -> Any:
    """The value of effect ``key`` on ``u`` (0 when it has none)."""
    table = u.extra.get("fx")
    if not table:
        return 0
    return table.get(key, 0)


def fx_why(u: Unit, key: str) -> str:
    """Why ``u`` has effect ``key`` (its cause, in words)."""
    return str(u.extra.get("fx_why", {}).get(key, key.replace("_", " ")))


def set_fx(u: Unit, key: str, value: Any, why: str = "") -> None:
    """Put effect ``key`` on ``u`` (replacing an earlier value)."""
    u.extra.setdefault("fx", {})[key] = value
    if why:
        u.extra.setdefault("fx_why", {})[key] = why


def clear_fx(u: Unit, *keys: str) -> bool:
    """Take effects off ``u`` (all of them when no key is given); True if it had any of
    them (the caller then records ``u``: ``Battle.record``)."""
    table = u.extra.get("fx")
    if not table:
        return False
    had = False
    for key in keys or tuple(table):
        if key in table:
            had = True
            del table[key]
        u.extra.get("fx_why", {}).pop(key, None)
    if not table:
        u.extra.pop("fx", None)
        u.extra.pop("fx_why", None)
    return had
