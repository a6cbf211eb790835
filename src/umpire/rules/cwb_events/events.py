"""The random events of Seed 000 for both sides, applied through the engine Context.

Every function cites the seed passage it implements. Random picks use
``ctx.random_choice``; player choices use ``ctx.decide`` with the side that the seed
names; every roll goes through ``ctx.roll`` / ``ctx.table`` so its exact odds are logged.
This module runs a side's event phase; the events live in ``leader_events`` and
``army_events``, what they share in ``event_kit`` (split from this module in issue 25).
"""

from __future__ import annotations

from umpire.engine import Context
from umpire.errors import IllegalActionError

from .army_events import (
    EVENTS,
    longstreet_variable_entry,
)
from .clock import stamp
from .event_kit import (
    S,
    title,
)
from .leader_events import (
    LEADER_EVENTS,
)
from .state import (
    now,
)


def run_phase(ctx: Context, side: str) -> S:
    """Seed 000, Checking for Random Events:

    The phasing side rolls its own table, last in the Command Phase.
    """
    st = ctx.state
    if st["game_over"]:
        raise IllegalActionError(f"the game is over ({st['game_over']})")
    turn_side = st["clock"]["side"]
    if side != turn_side:
        raise IllegalActionError(
            f"it is the {title(turn_side)} player turn ({stamp(now(st))}): no {title(side)} "
            "random event can occur now"
        )
    if st["clock"]["phase_done"]:
        raise IllegalActionError(
            f"the {title(side)} random events of {stamp(now(st))} have already been rolled "
            "(use `umpire cwb next` to go on)"
        )
    record: S = {"at": stamp(now(st)), "side": side}
    if side == "confederate":
        entry = longstreet_variable_entry(ctx)
        if entry is not None:
            record["variable_entry"] = entry
    res = ctx.table(f"cwb_{side}_events", f"{title(side)} Random Event Table")
    event = str(res.outcome.effects["event"])
    record.update(roll=res.steps[0].raw, row=res.outcome.id, event=event)
    if event == "consult_leader":
        lres = ctx.table(f"cwb_{side}_leader", f"{title(side)} Leader Table")
        levent = str(lres.outcome.effects["event"])
        record.update(leader_roll=lres.steps[0].raw, leader_event=levent)
        record["result"] = LEADER_EVENTS[levent](ctx, side)
    else:
        record["result"] = EVENTS[event](ctx, side)
    ctx.append("history", record)
    ctx.set("clock.phase_done", True)
    return record
