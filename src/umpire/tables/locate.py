"""Find the source line of a value in a table file, for error messages.

tomllib keeps no positions, so a validation error's location (for example
``('table', 2, 'row', 5, 'range')``) is mapped back to a line by scanning the raw text:
the n-th ``[[table]]`` header, then the m-th ``[[table.row]]`` after it, then the key's
line inside that block. When a step cannot be found the last line found is returned, so
a missing key points at the header of the block that lacks it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

_HEADER = re.compile(r"^\s*(\[\[|\[)\s*([^\[\]]+?)\s*\]\]?\s*(?:#.*)?$")
_KEY = re.compile(r"""^\s*("[^"]*"|'[^']*'|[A-Za-z0-9_-]+)\s*(?:\.|=)""")


@dataclass(frozen=True)
class _Item:
    line: int
    kind: str  # "array" ([[x]]), "table" ([x]) or "key" (x = ...)
    name: str  # dotted header name, or the bare key


def _clean(name: str) -> str:
    parts = [p.strip().strip("\"'") for p in name.split(".")]
    return ".".join(parts)


def scan(text: str) -> list[_Item]:
    """Headers and key lines of a TOML text, skipping multi-line strings."""
    items: list[_Item] = []
    in_string: str | None = None
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw
        if in_string is not None:
            if line.count(in_string) % 2 == 1:
                in_string = None
            continue
        header = _HEADER.match(line)
        if header is not None:
            kind = "array" if header.group(1) == "[[" else "table"
            items.append(_Item(number, kind, _clean(header.group(2))))
            continue
        key = _KEY.match(line)
        if key is not None:
            items.append(_Item(number, "key", key.group(1).strip("\"'")))
        for quote in ('"""', "'''"):
            if line.count(quote) % 2 == 1:
                in_string = quote
                break
    return items


def _find_key(
    items: list[_Item], start: int, end: int, prefix: str, key: str
) -> tuple[int, int | None] | None:
    """Where ``key`` is set in the block: ``(line, None)`` for ``key = ...`` directly in
    it, ``(line, index)`` for a ``[prefix.key]`` sub-table header at ``items[index]``."""
    in_block = True
    full = f"{prefix}.{key}" if prefix else key
    for index in range(start, end):
        item = items[index]
        if item.kind == "key":
            if in_block and item.name == key:
                return item.line, None
        else:
            in_block = False
            if item.name == full:
                return item.line, index
            if item.name.startswith(full + "."):
                return item.line, None
    return None


def _arrays(items: list[_Item], start: int, end: int, name: str) -> list[int]:
    """Indexes in ``items`` of every ``[[name]]`` header in the range, in order."""
    return [
        index
        for index in range(start, end)
        if items[index].kind == "array" and items[index].name == name
    ]


def _block_end(items: list[_Item], start: int, end: int, name: str) -> int:
    """End of the block opened at ``start``: the next header that is not inside it."""
    for index in range(start + 1, end):
        item = items[index]
        if item.kind != "key" and not item.name.startswith(name + "."):
            return index
    return end


class Locator:
    """Lines of locations in one TOML text, scanned once: each ``line(loc)`` costs about the
    size of the block it names, not of the whole text (issue 21: a 4000-row table located
    every row by rescanning the file, so loading was quadratic in rows)."""

    def __init__(self, text: str) -> None:
        self.items = scan(text)
        self._arrays: dict[tuple[int, int, str], list[int]] = {}
        self._ends: dict[tuple[int, int, str], int] = {}

    def _nth_array(self, start: int, end: int, name: str, n: int) -> int | None:
        key = (start, end, name)
        found = self._arrays.get(key)
        if found is None:
            found = self._arrays[key] = _arrays(self.items, start, end, name)
        return found[n] if 0 <= n < len(found) else None

    def _block_end(self, start: int, end: int, name: str) -> int:
        key = (start, end, name)
        found = self._ends.get(key)
        if found is None:
            found = self._ends[key] = _block_end(self.items, start, end, name)
        return found

    def line(self, loc: Sequence[str | int]) -> int:
        """The 1-based line of a location like ``('table', 2, 'row', 5, 'range')``."""
        items = self.items
        best = 1
        start, end = 0, len(items)
        prefix = ""
        path = list(loc)
        while path:
            step = path.pop(0)
            if not isinstance(step, str):
                break
            name = f"{prefix}.{step}" if prefix else step
            if path and isinstance(path[0], int):
                nth = path.pop(0)
                assert isinstance(nth, int)
                index = self._nth_array(start, end, name, nth)
                if index is None:
                    found = _find_key(items, start, end, prefix, step)
                    return found[0] if found is not None else best
                best = items[index].line
                start, end = index + 1, self._block_end(index, end, name)
                prefix = name
                continue
            found = _find_key(items, start, end, prefix, step)
            if found is None:
                return best
            best, header = found
            if header is None:
                return best
            start, end = header + 1, self._block_end(header, end, name)
            prefix = name
        return best


def locate(text: str, loc: Sequence[str | int]) -> int:
    """The 1-based line of a location like ``('table', 2, 'row', 5, 'range')``.

    Scans the whole text; to locate many places in one text, use one ``Locator``.
    """
    return Locator(text).line(loc)
