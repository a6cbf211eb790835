"""Seed 000's event tables for ``umpire odds``: each side's Random Event Table with the
tables it leads on to, as joint outcomes ("event -> Leader Table -> wounded or killed").

The tables are data (``data/cwb_tables.toml``); which table a result leads on to is in the
rules of :mod:`events` (``run_phase``, the leader events, Friendly Fire, Panic Check) and
is restated here, with the seed passage, for the odds.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from umpire.rules.odds import Odds, Param, Resolution, Why, table_odds
from umpire.sides import SIDES_UNION_FIRST

MODULE = "cwb-events"
CASUALTY = {
    "army_casualty": "cwb_army_casualty",  # Meade/Lee is a Casualty: 1-5 W, 6 K
    "corps_loss": "cwb_leader_casualty",  # Check for corps commander loss: 1-4 W, 5-6 K
    "division_loss": "cwb_leader_casualty",
    "brigade_loss": "cwb_leader_casualty",
}


def _side_of(table_id: str) -> str:
    return "union" if "_union_" in table_id else "confederate"


def then(table: Any, row: Any) -> str | None:
    """The table a result leads on to (seed 000, as :mod:`events` rolls them)."""
    event = row.effects.get("event")
    side = _side_of(table.id)
    if table.id.endswith("_events"):
        if event == "consult_leader":  # Random Event Table: "Consult Leader Table"
            return f"cwb_{side}_leader"
        if event == "panic_check":  # Panic Check: a d66 on the side's Panic Table
            return f"cwb_{side}_panic"
        return None
    if table.id.endswith("_leader"):
        if event in CASUALTY:
            return CASUALTY[event]
        if event == "arrest" and side == "union":  # Union Arrest that General!: 1d6 level
            return "cwb_union_arrest_level"
        if event == "friendly_fire":  # Friendly Fire: the 4-6 column of the fire table
            return "cwb_friendly_fire"
        return None
    if table.id == "cwb_friendly_fire" and int(row.effects.get("halves", 0)) % 2:
        return "cwb_half_step"  # a half step loss: is it kept? (default)
    return None


def _labeller(panic_row: int) -> Any:
    def label(table: Any, row: Any) -> str:
        if row.effects.get("event") == "panic_band":
            return "panic" if int(row.effects["band"]) <= panic_row else "no panic"
        return str(row.text)

    return label


NOTES = (
    Why(
        "note",
        "every event is taken as available: a result past its limit (Sickles, Ambush! once "
        "a day; Arrest, Longstreet twice a game) or with no leader eligible is no result",
        "000 (limits)",
    ),
    Why("note", "which leader or unit is hit is a random pick among those eligible", "000"),
)


def _events(v: Mapping[str, Any]) -> Odds:
    """Seed 000, Checking for Random Events: the side's table and every nested roll."""
    side, row = str(v["side"]), int(v["panic_row"])
    panic = Why(
        "row",
        f"panic row {row} (wrecked infantry divisions plus the shift): panic on a band "
        f"at or under it (P = {min(3 * row, 36)}/36)",
        "000 Panic Check (default panic table)",
    )
    return table_odds(
        f"000 {side} random events",
        f"cwb_{side}_events",
        then,
        _labeller(row),
        (panic, *NOTES),
    )


def _table(v: Mapping[str, Any]) -> Odds:
    """One of seed 000's tables, with the tables it leads on to."""
    tid, row = str(v["table"]), int(v["panic_row"])
    return table_odds(f"000 {tid}", tid, then, _labeller(row), NOTES)


TABLES = (
    "cwb_union_events",
    "cwb_confederate_events",
    "cwb_union_leader",
    "cwb_confederate_leader",
    "cwb_union_panic",
    "cwb_confederate_panic",
    "cwb_friendly_fire",
    "cwb_half_step",
    "cwb_army_casualty",
    "cwb_leader_casualty",
    "cwb_union_arrest_level",
)

_ROW = Param("panic_row", "int", 0, "the Panic Check row (wrecked divisions + shift)", lo=0, hi=12)

RESOLUTIONS: tuple[Resolution, ...] = (
    Resolution(
        MODULE,
        "events",
        "000 Checking for Random Events",
        "a side's random event, with the Leader, casualty, fire and panic rolls after it",
        (Param("side", "str", "union", "the phasing side", SIDES_UNION_FIRST), _ROW),
        _events,
    ),
    Resolution(
        MODULE,
        "table",
        "000 (event tables)",
        "one table of seed 000 with the tables it leads on to",
        (Param("table", "str", "cwb_union_leader", "the table", TABLES), _ROW),
        _table,
    ),
)
