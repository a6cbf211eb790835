"""Labelled defaults and readings: every gap the project fills, with its reason.

The seeds are fragments. Where they are silent the project uses a ``default``; where
they can be read two ways it uses a ``reading``. Both live in data and are listed by
``umpire rules list`` so a user can see and override them.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from umpire.errors import DataFileError

LABELS = ("default", "reading")


@dataclass(frozen=True, slots=True)
class Labelled:
    """One labelled default or reading, with where it comes from and why."""

    id: str
    label: str
    text: str
    reason: str
    source: str = ""

    def to_json(self) -> dict[str, str]:
        """A JSON object for ``umpire rules list --json``."""
        return {
            "id": self.id,
            "label": self.label,
            "text": self.text,
            "reason": self.reason,
            "source": self.source,
        }


def load_labels(path: Path) -> list[Labelled]:
    """Read ``[[default]]`` / ``[[reading]]`` entries (id, text, reason, source) from TOML."""
    try:
        raw: dict[str, Any] = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise DataFileError(f"bad TOML: {exc}", file=str(path)) from None
    out: list[Labelled] = []
    for label in LABELS:
        for i, entry in enumerate(raw.get(label, [])):
            missing = [k for k in ("id", "text", "reason") if not entry.get(k)]
            if missing:
                raise DataFileError(
                    f"{label} #{i + 1} lacks {', '.join(missing)}",
                    file=str(path),
                    line=_line_of(path, f"[[{label}]]", i),
                )
            out.append(
                Labelled(
                    entry["id"], label, entry["text"], entry["reason"], entry.get("source", "")
                )
            )
    return out


@cache
def load_steps(path: Path) -> dict[str, str]:
    """The ``[steps]`` table of a module's ``labels.toml``: each step's name in words, for
    headings a person reads (the web table shows "Movement", not ``move``)."""
    try:
        raw: dict[str, Any] = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise DataFileError(f"bad TOML: {exc}", file=str(path)) from None
    steps = raw.get("steps", {})
    if not isinstance(steps, dict) or not all(isinstance(v, str) for v in steps.values()):
        raise DataFileError("[steps] maps a step's name to its words", file=str(path))
    return {str(k): v for k, v in steps.items()}


def _line_of(path: Path, header: str, index: int) -> int | None:
    """The line number of the ``index``-th occurrence of a TOML array header."""
    seen = -1
    for no, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if line.strip() == header:
            seen += 1
            if seen == index:
                return no
    return None
