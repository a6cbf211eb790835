"""Log events and the change operations that are the only way a state changes.

The state of every game is a JSON value. A ``change`` event names an operation and
a path; :func:`apply_change` performs it. Replaying the change events of a log over
the module's initial state gives the state again, and :func:`state_hash` fingerprints
it so that replays can be compared exactly.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from typing import Any

from umpire.errors import IllegalActionError

JSON = Any
Path = list[str | int]

EVENT_KINDS = ("action", "roll", "lookup", "draw", "decision", "change", "note", "instruction")
CHANGE_OPS = ("set", "inc", "append", "remove", "delete")


@dataclass(frozen=True, slots=True)
class Event:
    """One entry of the event log: its kind and a JSON payload."""

    kind: str
    data: dict[str, JSON] = field(default_factory=dict)

    def to_json(self) -> dict[str, JSON]:
        """The event as a JSON object ``{"kind": ..., **data}``."""
        return {"kind": self.kind, **self.data}

    @staticmethod
    def from_json(obj: dict[str, JSON]) -> Event:
        """Rebuild an event from :meth:`to_json` output."""
        data = dict(obj)
        kind = data.pop("kind")
        if kind not in EVENT_KINDS:
            raise ValueError(f"unknown event kind {kind!r}")
        return Event(str(kind), data)


def parse_path(path: str | Path) -> Path:
    """A dotted path ``"a.b.3"`` or a list of keys as a list (digits index lists)."""
    if isinstance(path, list):
        return list(path)
    parts: Path = []
    for part in path.split("."):
        parts.append(int(part) if part.isdigit() else part)
    return parts


def _container(state: JSON, path: Path, create: bool) -> JSON:
    node = state
    for key in path[:-1]:
        if isinstance(node, dict):
            if key not in node:
                if not create:
                    raise KeyError(key)
                node[key] = {}
            node = node[key]
        elif isinstance(node, list) and isinstance(key, int):
            node = node[key]
        else:
            raise KeyError(key)
    return node


def get_path(state: JSON, path: str | Path, default: JSON = None) -> JSON:
    """The value at ``path``, or ``default`` when any step is missing."""
    node = state
    for key in parse_path(path):
        try:
            node = node[key]
        except (KeyError, IndexError, TypeError):
            return default
    return node


def apply_change(state: JSON, op: str, path: Path, value: JSON = None) -> None:
    """Apply one change operation to ``state`` in place.

    ``set`` creates missing parent objects; ``inc`` starts from 0; ``append`` starts a
    list; ``remove`` removes the first equal list item; ``delete`` drops a key.
    """
    if not path:
        raise IllegalActionError("a change needs a non-empty path")
    if isinstance(value, dict | list):
        value = copy_state(value)  # the state never shares objects with the log
    try:
        parent = _container(state, path, create=op in ("set", "inc", "append"))
        key = path[-1]
        if op == "set":
            parent[key] = value
        elif op == "inc":
            parent[key] = (parent.get(key, 0) if isinstance(parent, dict) else parent[key]) + value
        elif op == "append":
            if isinstance(parent, dict):
                parent.setdefault(key, [])
            parent[key].append(value)
        elif op == "remove":
            parent[key].remove(value)
        elif op == "delete":
            del parent[key]
        else:
            raise IllegalActionError(f"unknown change operation {op!r}")
    except (KeyError, IndexError, TypeError, ValueError, AttributeError) as exc:
        where = ".".join(str(p) for p in path)
        raise IllegalActionError(f"cannot {op} at '{where}': {exc!s}") from None


def canonical_json(value: JSON) -> str:
    """Compact JSON with sorted keys: the form hashed and stored."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def state_hash(state: JSON) -> str:
    """SHA-256 of the canonical JSON of a state (replays must give the same hash)."""
    return hashlib.sha256(canonical_json(state).encode()).hexdigest()


def copy_state(state: JSON) -> JSON:
    """A deep copy of a JSON state (fast path through the json module)."""
    return json.loads(json.dumps(state))
