"""Seed 001's random events for ``umpire odds``: the check, the side and the event as one
joint outcome ("event -> the attacker -> 7 Confusion"), and each table alone.

The three tables ship in ``umpire/data/tables/solo_events.toml``; the order of the rolls
is the rule of :meth:`events.SoloEvents.roll_event` (001 RANDOM EVENTS), restated here.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from umpire.rules.odds import Odds, Param, Resolution, Why, table_odds

MODULE = "solo-events"
TABLES = ("solo_event_check", "solo_event_side", "solo_events")


def then(table: Any, row: Any) -> str | None:
    """001 RANDOM EVENTS: on a 1 or a 6 roll a D6 for the side, then a D20 for the event."""
    if table.id == "solo_event_check":
        return "solo_event_side" if row.effects.get("event") else None
    if table.id == "solo_event_side":
        return "solo_events"
    return None


def label(table: Any, row: Any) -> str:
    """Each stage in a few words: event or none, the side, the event's number and name."""
    if table.id == "solo_event_check":
        return "an event" if row.effects.get("event") else "no event"
    if table.id == "solo_event_side":
        return f"affects the {row.effects.get('side')}"
    return f"{row.range_text} {str(row.text).split(':')[0]}"


NOTES = (
    Why(
        "note",
        "a unit 'chosen randomly' is a logged die over the eligible units; 'the player "
        "chooses' is a decision; neither changes these odds",
        "001 RANDOM EVENTS",
    ),
)


def _events(v: Mapping[str, Any]) -> Odds:
    """001 RANDOM EVENTS: the whole chain of rolls at the start of a turn."""
    return table_odds(
        "001 random events at the start of a turn", "solo_event_check", then, label, NOTES
    )


def _table(v: Mapping[str, Any]) -> Odds:
    """One of the three tables, with the tables it leads on to."""
    tid = str(v["table"])
    return table_odds(f"001 {tid}", tid, then, label, NOTES)


RESOLUTIONS: tuple[Resolution, ...] = (
    Resolution(
        MODULE,
        "events",
        "001 RANDOM EVENTS",
        "the turn's event check, the side it affects and the event (1d6, 1d6, 1d20)",
        (),
        _events,
    ),
    Resolution(
        MODULE,
        "table",
        "001 RANDOM EVENTS (tables)",
        "one table of seed 001 with the tables it leads on to",
        (Param("table", "str", "solo_events", "the table", TABLES),),
        _table,
    ),
)
