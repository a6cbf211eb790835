"""Reading the cwb_events game state: leaders in play, eligibility, orders, names.

Pure functions over the JSON state (no changes here). Changes go through the engine
Context in ``events.py`` and ``book.py``.
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Iterable
from typing import Any

from umpire.errors import UnknownNameError
from umpire.sides import SIDES_UNION_FIRST

from .clock import date_of
from .hexes import MapLayout

ARMY_NAME = {"union": "Meade", "confederate": "Lee"}
DELAYS = ("A", "D1", "D2", "D3", "D4", "D5", "D6", "Dt")
LOST = ("wounded", "killed", "arrested")
S = dict[str, Any]


def enemy(side: str) -> str:
    """The other side."""
    return "confederate" if side == "union" else "union"


def check_side(side: str) -> str:
    """Refuse anything but ``union`` or ``confederate``."""
    s = str(side).lower()
    if s not in SIDES_UNION_FIRST:
        raise UnknownNameError(f"unknown side '{side}' (sides: union, confederate)")
    return s


def now(state: S) -> int:
    """The current game time in minutes from July 1 00:00."""
    return int(state["clock"]["minute"])


def today(state: S) -> str:
    """The date whose per-day limits apply (reading ``day_boundary``: the calendar date)."""
    return date_of(now(state))


_LAYOUTS: dict[str, MapLayout] = {}


def layout(state: S) -> MapLayout:
    """The map layout of this game (cached by its canonical JSON)."""
    key = json.dumps(state["maps"], sort_keys=True)
    found = _LAYOUTS.get(key)
    if found is None:
        found = _LAYOUTS[key] = MapLayout.from_data(state["maps"], "maps (scenario)")
    return found


def _suggest(name: str, known: Iterable[str]) -> str:
    close = difflib.get_close_matches(name, list(known), n=3, cutoff=0.6)
    return f" (did you mean {', '.join(close)}?)" if close else ""


def leader_id(state: S, name: str, side: str | None = None) -> str:
    """Resolve a leader id, or a command (unit, division, corps) to its current leader."""
    leaders = state["leaders"]
    lid = name
    if lid not in leaders:
        lid = name.lower()
    if lid not in leaders:
        for table in ("units", "divisions", "corps"):
            item = state[table].get(name)
            if item is not None:
                found = item.get("leader") if table == "units" else item.get("commander")
                if found:
                    lid = found
                    break
    if lid not in leaders or (side is not None and leaders[lid]["side"] != side):
        who = f"{side} leader" if side else "leader"
        raise UnknownNameError(f"unknown {who} '{name}'" + _suggest(name.lower(), leaders))
    return lid


def unit_id(state: S, name: str, side: str | None = None) -> str:
    """Resolve a unit id (brigade, battery, HQ, supply); case-insensitive."""
    units = state["units"]
    if name not in units:
        lowered = {u.lower(): u for u in units}
        name = lowered.get(name.lower(), name)
    if name not in units or (side is not None and units[name]["side"] != side):
        who = f"{side} unit" if side else "unit"
        raise UnknownNameError(f"unknown {who} '{name}'" + _suggest(name, units))
    return name


def division_id(state: S, name: str) -> str:
    """Resolve a division id such as ``H/1`` or ``1/I``."""
    if name not in state["divisions"]:
        raise UnknownNameError(f"unknown division '{name}'" + _suggest(name, state["divisions"]))
    return name


def in_play(leader: S) -> bool:
    """A leader on the field and not lost."""
    return bool(leader["status"] == "active")


def current_holder(state: S, lid: str) -> str | None:
    """Who now holds a lost leader's post: his replacement, or the replacement's, in play."""
    seen: set[str] = set()
    while lid in state["leaders"] and lid not in seen:
        seen.add(lid)
        ld = state["leaders"][lid]
        if in_play(ld):
            return lid
        nxt = ld.get("replaced")
        if not nxt:
            return None
        lid = str(nxt)
    return None


def leaders_of(state: S, side: str, post: str, *, permanent: bool = False) -> list[str]:
    """In-play leaders of a side at a post (army, corps, division, brigade), in data order."""
    kinds = set(state["params"]["corps_kinds"])
    out = []
    for lid, ld in state["leaders"].items():
        if ld["side"] != side or ld["post"] != post or not in_play(ld):
            continue
        if permanent and not ld["permanent"]:
            continue
        if post == "corps" and state["corps"][ld["command"]]["kind"] not in kinds:
            continue
        out.append(lid)
    return out


def units_in_play(state: S, side: str, kinds: Iterable[str] | None = None) -> list[str]:
    """Units of a side on the field."""
    want = set(kinds) if kinds is not None else None
    return [
        uid
        for uid, u in state["units"].items()
        if u["side"] == side and u["status"] == "in_play" and (want is None or u["kind"] in want)
    ]


def leader_hex(state: S, lid: str) -> str | None:
    """A leader's hex: his own, or his brigade's (reading ``brigade_leader_position``)."""
    ld = state["leaders"][lid]
    if ld.get("hex"):
        return str(ld["hex"])
    if ld["post"] == "brigade":
        unit = state["units"].get(ld["command"])
        if unit is not None and unit.get("hex"):
            return str(unit["hex"])
    return None


def placed_hexes(state: S, side: str) -> list[str]:
    """Hexes of a side's in-play units that have been placed."""
    return [
        str(u["hex"])
        for u in state["units"].values()
        if u["side"] == side and u["status"] == "in_play" and u.get("hex")
    ]


def within(state: S, hex_id: str, others: list[str], reach: int) -> bool:
    """True if ``hex_id`` is within ``reach`` hexes of any hex in ``others``."""
    lay = layout(state)
    h = lay.parse(hex_id)
    return any(lay.distance(h, lay.parse(o)) <= reach for o in set(others))


def split_known(
    state: S, side: str, ids: list[str], reach: int, where: Any = leader_hex
) -> tuple[list[str], list[str]]:
    """Split into (computed eligible, unknown) by distance to the enemy's placed units.

    Reading ``eligibility_positions``: computed for those with a hex when the enemy has
    any unit placed; the others are put to the players.
    """
    foes = placed_hexes(state, enemy(side))
    if not foes:
        return [], list(ids)
    known, unknown = [], []
    for i in ids:
        h = where(state, i)
        if h is None:
            unknown.append(i)
        elif within(state, h, foes, reach):
            known.append(i)
    return known, unknown


def unit_hex(state: S, uid: str) -> str | None:
    """A unit's hex, if placed."""
    h = state["units"][uid].get("hex")
    return str(h) if h else None


def open_orders(state: S, side: str) -> list[str]:
    """A side's orders in delay or in transit (not accepted, not lost, not Loose Cannon)."""
    return [
        oid
        for oid, o in state["orders"].items()
        if o["side"] == side
        and o["kind"] != "loose_cannon"
        and (o["status"] == "transit" or (o["status"].startswith("D") and o["status"] != "Dt"))
    ]


def corps_with_attack_orders(state: S, side: str) -> list[str]:
    """Corps of a side (event kinds) whose commander holds an accepted attack order."""
    kinds = set(state["params"]["corps_kinds"])
    return [
        cid
        for cid, c in state["corps"].items()
        if c["side"] == side and c["kind"] in kinds and c["attack_orders"]
    ]


def corps_in_play(state: S, side: str) -> list[str]:
    """Corps (event kinds) with a unit or their commander on the field."""
    kinds = set(state["params"]["corps_kinds"])
    out = []
    for cid, c in state["corps"].items():
        if c["side"] != side or c["kind"] not in kinds:
            continue
        units = [u for u in state["units"].values() if u["corps"] == cid]
        cmd = c["commander"]
        if any(u["status"] == "in_play" for u in units) or (cmd and in_play(state["leaders"][cmd])):
            out.append(cid)
    return out


def usage(state: S, key: str, *, day: bool) -> int:
    """How often a limited event has happened today (or in the game)."""
    if day:
        return int(state["usage"]["day"].get(today(state), {}).get(key, 0))
    return int(state["usage"]["game"].get(key, 0))


def wrecked_infantry(state: S, side: str) -> list[str]:
    """A side's wrecked infantry divisions."""
    return [
        did
        for did, d in state["divisions"].items()
        if d["side"] == side and d["infantry"] and d["wrecked"]
    ]


def stoppage_count(state: S, cid: str) -> tuple[int, str]:
    """(count, in words) of wrecked divisions a corps' attack stoppage check uses, the
    lost-commander modifier applied: the corps' wrecked divisions, plus one while its
    original commander is lost and not waived by an Arrest (default ``stoppage_modifier``;
    seed 000, Arrest that General!: 'the attack stoppage modifier for lost corps
    commander'). The players roll the check at the table: the seed gives no stoppage table."""
    corps = state["corps"][cid]
    wrecked = sum(1 for did in corps["divisions"] if state["divisions"][did]["wrecked"])
    extra = 1 if corps["lost_commander"] else 0
    words = f"{wrecked} wrecked" + (" + 1 for the lost commander" if extra else "")
    return wrecked + extra, words


def panic_row(state: S, side: str) -> tuple[int, int, str]:
    """(row, shift, why) for a Panic Check: wrecked infantry divisions plus the row shift.

    Seed 000, Panic Table Modifiers: Union shift if casualty corps commanders' ratings
    total 10+; Confederate shift if Longstreet is a casualty.
    """
    wrecked = len(wrecked_infantry(state, side))
    lost = ("wounded", "killed")
    if side == "union":
        total = sum(
            int(ld["original_rating"])
            for ld in state["leaders"].values()
            if ld["side"] == "union"
            and ld["permanent"]
            and ld["status"] in lost
            and ld["original_post"] == "corps"
            and state["corps"][ld["original_command"]]["kind"] in state["params"]["corps_kinds"]
        )
        need = int(state["params"]["union_panic_ratings"])
        shift = 1 if total >= need else 0
        why = f"casualty corps commanders' ratings total {total} (shift at {need}+)"
    else:
        ls = state["leaders"].get("longstreet")
        shift = 1 if ls is not None and ls["status"] in lost else 0
        why = "Longstreet is a casualty" if shift else "Longstreet is not a casualty"
    return wrecked + shift, shift, why


def corps_label(state: S, cid: str) -> str:
    """``"II Corps [2]"``: the corps' name, with its id when the name does not show it."""
    name = str(state["corps"][cid]["name"])
    return name if cid in name.split() else f"{name} [{cid}]"


def command_label(state: S, post: str, command: str) -> str:
    """What a leader commands, the same way everywhere: ``"II Corps [2]"``, ``"H/1 division"``."""
    if post == "army":
        side = command.partition(":")[2]
        return str(state["armies"][side]["name"]) if side in state["armies"] else "army"
    if post == "corps" and command in state["corps"]:
        return corps_label(state, command)
    return f"{command} {post}"


def leader_label(state: S, lid: str) -> str:
    """A leader, named the same way in narration, questions and status: name and command.

    ``"Richard S. Ewell (II Corps [2])"``, ``"Evander M. Law (L/H/1 brigade)"``; a
    replacement says so and whom he replaces:
    ``"Col. repl3, replacing Law (L/H/1 brigade, replacement)"``.
    """
    ld = state["leaders"][lid]
    extra = ", replacement" if not ld["permanent"] else ""
    return f"{ld['name']} ({command_label(state, ld['post'], ld['command'])}{extra})"


def unit_label(state: S, uid: str) -> str:
    """``"L/H/1 Law's Brigade"``."""
    return f"{uid} {state['units'][uid]['name']}"


def corps_of_leader(state: S, lid: str) -> str | None:
    """The corps a leader's command belongs to (None for an army commander)."""
    ld = state["leaders"][lid]
    cmd = str(ld["command"])
    if ld["post"] == "corps":
        return cmd
    if ld["post"] == "division" and cmd in state["divisions"]:
        return str(state["divisions"][cmd]["corps"])
    if ld["post"] == "brigade" and cmd in state["units"]:
        return str(state["units"][cmd]["corps"])
    return None


def groups_of(state: S, option_id: str) -> list[tuple[str, str]]:
    """Where an option (a leader, a unit, a division) sits at the table: ``[(kind, label)]``.

    Top-down: corps, then division (or artillery battalion). A long list of choices is
    asked by these groups first, so a player never ticks through a hundred names.
    """
    if option_id in state["leaders"]:
        ld = state["leaders"][option_id]
        cid = corps_of_leader(state, option_id)
        if cid is None or ld["post"] == "corps":
            return []
        out = [("corps", corps_label(state, cid))]
        if ld["post"] == "brigade" and ld["command"] in state["units"]:
            div = state["units"][ld["command"]].get("division")
            if div:
                out.append(("division", f"{div} division"))
        return out
    if option_id in state["units"]:
        u = state["units"][option_id]
        out = [("corps", corps_label(state, str(u["corps"])))]
        if u.get("division"):
            out.append(("division", f"{u['division']} division"))
        elif u.get("battalion"):
            out.append(("division", f"{u['battalion']} artillery"))
        else:
            out.append(("division", "headquarters and supply"))
        return out
    if option_id in state["divisions"]:
        return [("corps", corps_label(state, str(state["divisions"][option_id]["corps"])))]
    return []


_BUILTIN: dict[str, Any] = {}


def param(state: S, key: str) -> Any:
    """A rules number or list: the game's own, else the built-in one (games saved before it)."""
    params = state["params"]
    if key in params:
        return params[key]
    if not _BUILTIN:
        from . import load_params

        _BUILTIN.update(load_params())
    return _BUILTIN[key]


def stopped_now(state: S, cid: str | None) -> bool:
    """Seed 000: "nothing that can be done about an RE-imposed attack stoppage until the next
    turn at the earliest": True while the game turn of the stop lasts."""
    if not cid or cid not in state["corps"]:
        return False
    corps = state["corps"][cid]
    at = corps.get("stopped_at")
    return bool(corps["stopped"]) and at is not None and int(at) == now(state)
