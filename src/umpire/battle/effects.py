"""Unit effects: flags and modifiers that sequences and events put on units for a while.

The seam between the modules that cause an effect (seed 004's sequence: "cannot fire
again in their following step 1 or 2"; seed 001's events: "+1 to hit ... for this
turn") and the combat modules that honour it. An effect is a key in the unit's
``extra["fx"]`` with a value (a number, or the turn it was set) and a reason.

Every effect name is declared here, once (``FxKey``; docs/engine-api.md, "Unit effects"):
a module reads one with :func:`fx` and changes one only through the battle's change
operations ``Battle.set_fx`` and ``Battle.clear_fx``, which log the unit on the saved
path and clear ``Battle.memo`` (menus cache legality that reads the effects; not for the
:data:`MARKS`, which nothing cached reads). A name that
comes from a data file (seed 001's ``mapping.toml``) or a step's parameters is checked
against :data:`KEYS` when it is read (:func:`fx_key`).

| key | value | meaning |
| --- | --- | --- |
| ``no_fire`` | turn | may not fire |
| ``no_move`` | turn | may not move or charge |
| ``no_charge`` | turn | may not charge |
| ``no_act`` | turn | may do nothing (no move, fire, charge or rally) |
| ``no_rally`` | turn | does not rally this turn |
| ``must_charge`` | turn | must charge when it can (seed 001's Impetuous) |
| ``fired`` | turn | fired this turn (seed 004's sequence: bars a later fire step) |
| ``fired_defensive`` | turn | fired defensively (seed 004: bars the next steps 1-2) |
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

from typing import TYPE_CHECKING, Any, Final, Literal, get_args

if TYPE_CHECKING:
    from umpire.battle.state import Unit

FxKey = Literal[
    "no_fire",
    "no_move",
    "no_charge",
    "no_act",
    "no_rally",
    "must_charge",
    "fired",
    "fired_defensive",
    "fire_mod",
    "melee_mod",
    "charge_mod",
    "canister_mod",
    "reaction_fire_mod",
    "extra_die",
    "terrain",
    "ignore_disruption",
]
"""The name of a unit effect: every one there is (the table above)."""

KEYS: Final[tuple[FxKey, ...]] = get_args(FxKey)
"""Every effect name, in the order of the table above."""

MARKS: Final[frozenset[str]] = frozenset(("fired", "fired_defensive"))
"""The effects that are a sequence's bookkeeping, read only by the steps as they run (a
fire step's ``blocked_by``, seed 004's ``after_fire`` and turn end), never by a cached
answer: putting one on or off leaves ``Battle.memo`` as it is (a battle marks a unit at
each of its fires; tests/test_effect_ops.py holds the marks uncached)."""


CROSSED: Final = "crossed"
"""Not an effect but the one other mark modules share, ``u.extra[CROSSED]``: the enemy
units whose field of fire ``u`` crossed in the movement just made (a list of their
indices; seed 004 III step 4, reading ``pass_through``). The sequence sets it and ends it
(``Battle.record`` logs it); a combat's fire step with ``targets="chargers"`` reads it."""


def fx_key(name: str) -> FxKey | None:
    """``name`` as an effect name, or None when it is none of :data:`KEYS` (the caller says
    where the name came from: a data file's line, a step's parameter)."""
    for key in KEYS:
        if key == name:
            return key
    return None


def fx_flag(name: Any, param: str) -> FxKey | Literal[""]:
    """A step's parameter ``param`` that names an effect flag (``""``: none; seed 004's fire
    steps' ``mark`` and ``blocked_by``), checked against :data:`KEYS` when the sequence is
    built: a name that is none of them is a ValueError naming the parameter and the name."""
    if name == "":
        return ""
    key = fx_key(name) if isinstance(name, str) else None
    if key is None:
        known = ", ".join(KEYS)
        raise ValueError(f"step parameter {param} = {name!r} is not a unit effect (known: {known})")
    return key


def fx(u: Unit, key: FxKey) -> Any:
    """The value of effect ``key`` on ``u`` (0 when it has none)."""
    table = u.extra.get("fx")
    if not table:
        return 0
    return table.get(key, 0)


def fx_why(u: Unit, key: FxKey) -> str:
    """Why ``u`` has effect ``key`` (its cause, in words)."""
    return str(u.extra.get("fx_why", {}).get(key, key.replace("_", " ")))


def put_fx(u: Unit, key: FxKey, value: Any, why: str) -> None:
    """Write effect ``key`` on ``u`` (replacing an earlier value; ``why`` "" keeps the
    earlier reason). Only ``Battle.set_fx`` calls it: it also logs and clears caches."""
    u.extra.setdefault("fx", {})[key] = value
    if why:
        u.extra.setdefault("fx_why", {})[key] = why


def take_fx(u: Unit, keys: tuple[FxKey, ...]) -> bool:
    """Take effects off ``u`` (all of them when ``keys`` is empty); True if it had any of
    them. Only ``Battle.clear_fx`` calls it: it also logs and clears caches."""
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
