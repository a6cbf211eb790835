"""The log as the page shows it: each action's rolls (with every face), rulings and notes.

Only events that are public once their action is done reach a page; a decision shows
who decided and what, because the action that asked it has been applied for everyone.
"""

from __future__ import annotations

from typing import Any

from umpire.engine.game import ActionRecord


def roll_line(data: dict[str, Any]) -> str:
    """``purpose: 2d6 [3, 5] = 8`` for a roll event."""
    faces = [f for g in data.get("dice", []) for f in g.get("faces", [])]
    expr = data.get("expr", "")
    total = data.get("total", "")
    face_text = f" {faces}" if faces else ""
    return f"{data.get('purpose') or expr}: {expr}{face_text} = {total}"


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
    return f"{head}: {'; '.join(parts)} -> {text}"


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
                {"kind": "draw", "text": f"{data.get('purpose', 'draw')}: {data.get('card')}"}
            )
        elif kind == "lookup":
            out.append({"kind": "roll", "text": lookup_line(data)})
        elif kind == "decision" and decisions:
            who = data.get("decider", "")
            out.append(
                {"kind": "decision", "text": f"{who} chose {', '.join(data.get('answer', []))}"}
            )
    return out


def recent(records: list[ActionRecord], count: int = 12) -> list[dict[str, Any]]:
    """The last ``count`` actions, newest first, each with its lines and the browser
    entropy its dice came from (public once the action is done; the page checks it)."""
    out = []
    for r in reversed(records[-count:]):
        lines = event_lines([e.to_json() for e in r.events[1:]])
        out.append({"no": r.no, "name": r.name, "lines": lines, "entropy": r.entropy})
    return out
