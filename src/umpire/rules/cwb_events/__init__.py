"""Seed 000: the Gettysburg command-phase assistant (This Terrible Sound random events).

Keeps the book (order of battle, leaders, orders, limits, panic, positions) and rolls and
resolves each side's random events in its Command Phase. See docs/cwb_events.md.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from umpire.engine import ActionFn
from umpire.errors import DataFileError
from umpire.rules.labels import Labelled, load_labels

from .book import ACTIONS
from .clock import Clock, parse_stamp, stamp
from .hexes import MapLayout
from .oob import build_roster, load_raw

DATA = Path(__file__).resolve().parent / "data"


def load_params(path: Path | None = None) -> dict[str, Any]:
    """The numbers and lists the rules use ([params] of defaults.toml)."""
    p = path or DATA / "defaults.toml"
    try:
        raw = tomllib.loads(p.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, OSError) as exc:
        raise DataFileError(f"cannot read defaults: {exc}", file=str(p)) from None
    params = raw.get("params")
    if not isinstance(params, dict):
        raise DataFileError("no [params] table", file=str(p))
    return params


def default_scenario(start: str | None = None, oob: Path | None = None) -> dict[str, Any]:
    """A scenario with the built-in data (or a user's oob file) and an optional start time."""
    raw, file, text = load_raw(oob)
    build_roster(raw, file, text)  # check it now, with file and line in errors
    clock = Clock.load()
    scenario: dict[str, Any] = {
        "oob": raw,
        "maps": MapLayout.load().to_json(),
        "clock": clock,
        "params": load_params(),
        "start": start or str(clock["start"]),
    }
    Clock.from_data(clock).check(parse_stamp(scenario["start"]))
    return scenario


def initial_state(scenario: dict[str, Any]) -> dict[str, Any]:
    """The state before any action: roster, clock at the start turn, empty book."""
    raw = scenario.get("oob")
    if raw is None:
        raw, file, text = load_raw()
        roster = build_roster(raw, file, text)
    else:
        roster = build_roster(raw, "oob (scenario)")
    clock_data = scenario.get("clock") or Clock.load()
    clock = Clock.from_data(clock_data)
    start = clock.check(parse_stamp(str(scenario.get("start") or clock_data["start"])))
    maps = scenario.get("maps") or MapLayout.load().to_json()
    MapLayout.from_data(maps, "maps (scenario)")
    state: dict[str, Any] = {
        **roster,
        "params": scenario.get("params") or load_params(),
        "maps": maps,
        "clock_data": clock_data,
        "clock": {"minute": start, "side": clock.turn_order[0], "phase_done": False},
        "orders": {},
        "next_order": 1,
        "next_repl": 1,
        "usage": {"day": {}, "game": {}},
        "panic": {
            s: {"panicked": False, "at": None, "left_map": False} for s in ("union", "confederate")
        },
        "effects": [],
        "history": [],
        "longstreet": {"variable": "inactive", "activated_at": None, "mps": 0},
        "buford": {"withdrawn": False},
        "game_over": None,
    }
    for u in state["units"].values():
        if u["arrives"] is not None and u["arrives"] <= start:
            u["status"] = "in_play"
    for ld in state["leaders"].values():
        if ld["arrives"] is not None and ld["arrives"] <= start:
            ld["status"] = "active"
    state["start"] = stamp(start)
    return state


class CwbEvents:
    """The rule module object registered as ``cwb_events``."""

    id = "cwb_events"
    name = "Gettysburg random events (This Terrible Sound / CWB)"
    seed = "000"
    provides = ("events", "command")

    def initial_state(self, scenario: dict[str, Any]) -> dict[str, Any]:
        """The JSON state before any action."""
        return initial_state(scenario)

    def actions(self) -> Mapping[str, ActionFn]:
        """The actions: phase, next, clock_set, order_*, wreck, place, enter, exit, ..."""
        return ACTIONS

    def defaults(self) -> list[Labelled]:
        """Every labelled default and reading of this module (defaults.toml)."""
        return load_labels(DATA / "defaults.toml")

    # -- the AtTable seam (a shared table: the web page) ------------------------------------
    sides = ("union", "confederate")

    def table_start(self, options: Mapping[str, str]) -> dict[str, Any]:
        """The scenario of a new game at a shared table."""
        from .table import start

        return start(options)

    def table_view(self, state: dict[str, Any], viewer: str | None) -> dict[str, Any]:
        """The book in sections, for any seat."""
        from .table import view

        return view(state, viewer)

    def table_commands(self, state: dict[str, Any], viewer: str | None) -> list[dict[str, Any]]:
        """The actions open to ``viewer`` now."""
        from .table import commands

        return commands(state, viewer)


MODULE = CwbEvents()
