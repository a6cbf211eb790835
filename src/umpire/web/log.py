"""The log as the page shows it: each action's rolls (with every face), rulings and notes.

Only events that are public once their action is done reach a page; a decision shows
who decided and what, because the action that asked it has been applied for everyone.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from umpire.engine.game import ActionRecord

TYPED = " (real dice, typed)"
"""Marks every roll whose faces a player typed from real dice (docs/web.md, Real dice)."""


def typed_mark(data: dict[str, Any]) -> str:
    """:data:`TYPED` when any die of the event was typed at the table, else nothing."""
    draws = data.get("draws") or []
    return TYPED if any(len(d) > 3 and d[3] == "typed" for d in draws) else ""


def roll_line(data: dict[str, Any]) -> str:
    """``purpose: 2d6 [3, 5] = 8`` for a roll event."""
    faces = [f for g in data.get("dice", []) for f in g.get("faces", [])]
    expr = data.get("expr", "")
    total = data.get("total", "")
    face_text = f" {faces}" if faces else ""
    return f"{data.get('purpose') or expr}: {expr}{face_text} = {total}{typed_mark(data)}"


def lookup_line(data: dict[str, Any]) -> str:
    """``purpose: 2d6 [3, 5] = 8 -> row 8 (p 5/36): outcome`` for a table lookup."""
    parts = []
    for step in data.get("trace", []):
        roll = step.get("roll", {})
        faces = [f for g in roll.get("dice", []) for f in g.get("faces", [])]
        mod = f" {step['mod']:+d}" if step.get("mod") else ""
        parts.append(
            f"{step.get('table')}: {roll.get('expr', '')} {faces}{mod} = {step.get('modified')} "
            f"(row {step.get('range')}, p {step.get('p')})"
        )
    outcome = data.get("outcome") or {}
    text = outcome.get("text", "") if isinstance(outcome, dict) else str(outcome)
    head = str(data.get("purpose") or data.get("table") or "table")
    return f"{head}: {'; '.join(parts)} -> {text}{typed_mark(data)}"


def event_lines(events: list[dict[str, Any]], *, decisions: bool = True) -> list[dict[str, str]]:
    """Lines for the page: ``{"kind": roll|note|draw|decision|instruction, "text": ...}``."""
    out: list[dict[str, str]] = []
    for e in events:
        kind = e.get("kind")
        data = e.get("data", e)
        if kind == "roll":
            out.append({"kind": "roll", "text": roll_line(data)})
        elif kind in ("note", "instruction"):
            out.append({"kind": str(kind), "text": str(data.get("text", ""))})
        elif kind == "draw":
            out.append(
                {
                    "kind": "draw",
                    "text": f"{data.get('purpose', 'draw')}: {data.get('card')}{typed_mark(data)}",
                }
            )
        elif kind == "lookup":
            out.append({"kind": "roll", "text": lookup_line(data)})
        elif kind == "decision" and decisions:
            who = data.get("decider", "")
            out.append(
                {"kind": "decision", "text": f"{who} chose {', '.join(data.get('answer', []))}"}
            )
    return out


def recent(records: Sequence[ActionRecord], count: int = 12) -> list[dict[str, Any]]:
    """The last ``count`` actions, newest first, each with its lines, who asked for it, and
    the browser entropy its dice came from (public once the action is done; the page
    checks it)."""
    out = []
    for r in reversed(records[-count:] if count else []):
        lines = event_lines([e.to_json() for e in r.events[1:]])
        typed = any(TYPED in line["text"] for line in lines)
        out.append(
            {
                "no": r.no,
                "name": r.name,
                "by": r.by,
                "lines": lines,
                "entropy": r.entropy,
                "typed": typed,
            }
        )
    return out


def record_line(rec: dict[str, Any]) -> str:
    """One line for a record kept beside the log (an undo, a switch to real dice)."""
    kind, at = rec.get("kind"), rec.get("at")
    if kind == "undo":
        withdrawn = [ActionRecord.from_json(a) for a in rec.get("withdrawn", [])]
        who = (
            f"{rec.get('agreed')} agreed"
            if rec.get("agreed")
            else f"no consent needed: {rec.get('why', '')}"
        )
        parts = []
        for a in withdrawn:
            faces = [
                f"{d[2]}{' typed' if len(d) > 3 and d[3] == 'typed' else ''}"
                for e in a.events
                for d in e.data.get("draws", [])
            ]
            by = f" by {a.by}" if a.by else ""
            parts.append(f"{a.no} {a.name}{by}" + (f" (dice {', '.join(faces)})" if faces else ""))
        return (
            f"Undo: {rec.get('by')} asked, {who}; withdrawn: {'; '.join(parts) or 'nothing'}; "
            f"now at action {at}"
        )
    if kind == "undo_refused":
        return f"Undo asked by {rec.get('by')} at action {at}: refused by {rec.get('refused')}"
    if kind == "real_dice":
        if not rec.get("on"):
            return f"The {rec.get('side')} player uses the game's dice again (action {at})"
        why = f"{rec['agreed']} agreed" if rec.get("agreed") else str(rec.get("why", ""))
        return (
            f"The {rec.get('side')} player rolls real dice and types the faces from action "
            f"{at} ({why}); those rolls are marked typed"
        )
    if kind == "real_dice_refused":
        return f"Real dice asked by {rec.get('by')} at action {at}: refused by {rec.get('refused')}"
    return f"{kind} at action {at}"
