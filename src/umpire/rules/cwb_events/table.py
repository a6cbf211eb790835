"""Seed 000 at a shared table (the web page): what each side sees and may do now.

The module's side of the ``AtTable`` seam (docs/engine-api.md): a start scenario, a view
of the book in sections (the clock, effects in force, leaders and corps, orders, the
event limits) and the commands open to a seat: the phasing side rolls its random events,
then passes the turn. Decisions inside an action are asked of the side the seed names.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from umpire.sides import SIDES_UNION_FIRST


def start(options: Mapping[str, str]) -> dict[str, Any]:
    """A scenario with the built-in orders of battle at the default start (or ``start``)."""
    from umpire.rules.cwb_events import default_scenario

    return default_scenario(options.get("start") or None)


def view(state: dict[str, Any], viewer: str | None) -> dict[str, Any]:
    """The book in sections a page can show as tables (nothing in it is secret)."""
    from umpire.rules.cwb_events.cli import _status

    st = _status(state)
    sections: list[dict[str, Any]] = []
    sections.append(
        {
            "title": "In force",
            "head": ["side", "effect", "until"],
            "rows": [[e["side"], e["text"], e["until"]] for e in st["in_force"]]
            or [["", "nothing in force", ""]],
        }
    )
    for side in SIDES_UNION_FIRST:
        s = st["sides"][side]
        rows = []
        for post in ("army", "corps", "division"):
            for ld in s["leaders"][post]:
                rows.append([post, ld["label"], str(ld["rating"]), ld["hex"] or ""])
        for ld in s["casualties"]:
            rows.append(["lost", ld["label"], ld["status"], ld["replaced_by_label"]])
        sections.append(
            {
                "title": f"{side.capitalize()} leaders",
                "head": ["post", "leader", "rating", "hex / replaced by"],
                "rows": rows,
            }
        )
        corps_rows = [
            [
                c["label"],
                c["commander_name"],
                ", ".join(str(a) for a in c["attack_orders"]) or "none",
                ("stopped; " if c["stopped_now"] else "")
                + f"check counts {c['stoppage_count']} ({c['stoppage_words']})",
            ]
            for c in s["corps"].values()
        ]
        panic = s["panic"]
        corps_rows.append(
            [
                "army",
                f"panic row {panic['row']}" + (f" ({panic['why']})" if panic.get("why") else ""),
                "",
                "PANIC" if panic["panicked"] else "",
            ]
        )
        sections.append(
            {
                "title": f"{side.capitalize()} corps",
                "head": ["corps", "commander", "attack orders", "stoppage"],
                "rows": corps_rows,
            }
        )
    sections.append(
        {
            "title": "Orders",
            "head": ["order", "from", "to", "kind", "status"],
            "rows": [[o["id"], o["from"], o["to"], o["kind"], o["status"]] for o in st["orders"]]
            or [["", "no orders", "", "", ""]],
        }
    )
    sections.append(
        {
            "title": "Limits",
            "head": ["event", "side", "used", "per"],
            "rows": [
                [lim["event"], lim["side"], f"{lim['used']} of {lim['most']}", lim["per"]]
                for lim in st["limits"]
            ],
        }
    )
    return {
        "summary": [
            f"{st['time']}, {st['player_turn'].capitalize()} player turn",
            "random events " + ("rolled" if st["random_events_rolled"] else "not yet rolled"),
        ]
        + ([f"game over: {st['game_over']}"] if st["game_over"] else []),
        "phasing": st["player_turn"],
        "sections": sections,
    }


def event_odds(side: str) -> list[dict[str, Any]]:
    """The exact chance of each row of the side's Random Event Table, before the roll."""
    from umpire.tables import builtin_tables

    table = builtin_tables().get(f"cwb_{side}_events")
    out = []
    for row, p in table.row_probabilities():
        out.append({"text": row.text, "range": row.range_text, "p": str(p), "pct": float(p) * 100})
    return out


def commands(state: dict[str, Any], viewer: str | None) -> list[dict[str, Any]]:
    """What ``viewer`` may do now: the phasing side rolls its random events, then passes."""
    clock = state["clock"]
    if viewer != clock["side"] or state.get("game_over"):
        return []
    if not clock["phase_done"]:
        return [
            {
                "action": "phase",
                "label": "Roll the random events (the last step of the Command Phase)",
                "params": {"side": viewer},
                "odds": event_odds(str(viewer)),
            }
        ]
    return [
        {
            "action": "next",
            "label": "End the player turn (the clock moves on; arrivals come on)",
            "params": {},
        }
    ]
