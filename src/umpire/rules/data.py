"""The rules-data seam: every rule module reads its data files through :func:`read`.

A designer varies the rules without touching code: an :class:`Overlay` holds values that
replace entries of a module's data (dotted keys such as ``quick-acw.sides.union.morale``)
and directories whose files replace a module's shipped files (``--rules-data``). While an
overlay is installed, :func:`read` gives every loader the data as the overlay has it, and
every cache derived from data is cleared when the overlay changes (``functools`` caches of
``umpire`` modules, and what modules register with :func:`on_change`), so both the scalar
engine and the batch simulator see the varied rules with no code of their own.
"""

from __future__ import annotations

import copy
import difflib
import importlib.util
import math
import re
import sys
import tomllib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from umpire.errors import DataFileError, UmpireError
from umpire.paths import is_dir

__all__ = [
    "Overlay",
    "current",
    "data_dir",
    "install",
    "on_change",
    "parse_value",
    "read",
    "resolve_key",
]

MARKER = ".umpire-rules"
"""The file ``umpire rules copy`` leaves in a copy: the module id it is a copy of."""


@dataclass(frozen=True, slots=True)
class Overlay:
    """Changes to the shipped rules data.

    ``dirs``: (a module's data folder, a user's folder whose files replace its files);
    ``values``: (data folder, file name, path into the TOML, the new value), applied in
    order after the files are read. A module's data folder is named by :func:`folder_key`
    (relative to the umpire package), so an overlay means the same in a worker that runs
    another copy of umpire (the compiled build, a Dask worker's install).
    """

    dirs: tuple[tuple[str, str], ...] = ()
    values: tuple[tuple[str, str, tuple[str, ...], Any], ...] = ()

    def __bool__(self) -> bool:
        return bool(self.dirs or self.values)

    def plus(self, other: Overlay) -> Overlay:
        """This overlay with ``other``'s changes after its own."""
        return Overlay(self.dirs + other.dirs, self.values + other.values)


_current = Overlay()
_clearers: list[Callable[[], None]] = []


def on_change(clear: Callable[[], None]) -> Callable[[], None]:
    """Register a cache to clear whenever the overlay changes (a module's own dict cache)."""
    _clearers.append(clear)
    return clear


def current() -> Overlay:
    """The overlay installed in this process (empty: the shipped rules)."""
    return _current


def install(overlay: Overlay) -> None:
    """Make ``overlay`` the rules data of this process; clear what derives from data."""
    global _current
    if overlay == _current:
        return
    _current = overlay
    clear_caches()


def clear_caches() -> None:
    """Clear every cache derived from rules data: registered ones, and every ``functools``
    cache defined in a loaded ``umpire`` module (cheap to rebuild; nothing is missed)."""
    for fn in _clearers:
        fn()
    for name, mod in list(sys.modules.items()):
        if mod is None or not name.startswith("umpire"):
            continue
        for value in list(vars(mod).values()):
            clear = getattr(value, "cache_clear", None)
            if callable(clear) and getattr(value, "__module__", None) == name:
                clear()


def _line(exc: tomllib.TOMLDecodeError) -> int | None:
    m = re.search(r"line (\d+)", str(exc))
    return int(m.group(1)) if m else None


PACKAGE = Path(__file__).resolve().parents[1]
"""The umpire package folder this process runs (``src/umpire`` or a copy of it)."""


def folder_key(folder: Path) -> str:
    """How an overlay names a module's data folder: its path inside the umpire package
    (``rules/quick_acw/data``), or the absolute path of a folder outside it."""
    where = folder.resolve()
    return where.relative_to(PACKAGE).as_posix() if where.is_relative_to(PACKAGE) else str(where)


def source(path: Path) -> Path:
    """The file to read for a module's data file ``path``: a ``--rules-data`` copy's, if any."""
    folder = folder_key(path.parent)
    src = path
    for d, user in _current.dirs:
        cand = Path(user) / path.name
        if d == folder and cand.is_file():
            src = cand
    return src


def apply(path: Path, raw: dict[str, Any]) -> dict[str, Any]:
    """``raw`` (the parsed data file ``path``) with the overlay's values set in it."""
    folder = folder_key(path.parent)
    for d, name, keys, value in _current.values:
        if d == folder and name == path.name:
            _set(raw, keys, copy.deepcopy(value), str(path))
    return raw


def read(path: Path) -> dict[str, Any]:
    """The TOML data file ``path`` of a rule module, as the installed overlay has it."""
    src = source(path)
    try:
        text = src.read_text(encoding="utf-8")
    except OSError as exc:
        raise DataFileError(f"cannot read: {exc.strerror}", file=str(src)) from None
    try:
        raw: dict[str, Any] = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise DataFileError(
            f"bad TOML: {str(exc).split(' (at')[0]}", file=str(src), line=_line(exc)
        ) from None
    return apply(path, raw)


def _set(raw: Any, keys: tuple[str, ...], value: Any, file: str) -> None:
    node = raw
    for k in keys[:-1]:
        node = node[int(k)] if isinstance(node, list) else node[k]
    last = keys[-1]
    if isinstance(node, list):
        node[int(last)] = value
    elif isinstance(node, dict):
        node[last] = value
    else:  # pragma: no cover - resolve_key checked the path
        raise DataFileError(f"cannot set '{'.'.join(keys)}'", file=file)


# -- keys ------------------------------------------------------------------------------


def _packages() -> dict[str, str]:
    """Role module id -> the package holding its data (``five-step``, ``card-draw``: one)."""
    from umpire.rules import ROLE_REGISTRY

    return {mid: ".".join(t.split(":")[0].split(".")[:3]) for mid, t in ROLE_REGISTRY.items()}


def data_dir(module_id: str) -> Path:
    """The data folder of a role module; UnknownKey when there is no such module."""
    pkg = _packages().get(module_id)
    spec = importlib.util.find_spec(pkg) if pkg else None
    if spec is None or not spec.submodule_search_locations:
        raise UnknownKeyError(
            f"unknown rules module '{module_id}'{_near(module_id, list(_packages()))}"
        )
    return Path(next(iter(spec.submodule_search_locations))) / "data"


class UnknownKeyError(UmpireError):
    """A ``--vary`` key that names nothing in the rules data."""


def _near(word: str, known: list[str]) -> str:
    close = difflib.get_close_matches(word, known, n=3, cutoff=0.5)
    return f" (nearest: {', '.join(close)})" if close else ""


def _values(node: Any, prefix: str = "") -> list[tuple[str, Any]]:
    """(dotted path, value) of every value below a TOML table (a list is one value)."""
    if isinstance(node, dict):
        out: list[tuple[str, Any]] = []
        for k, v in node.items():
            out += _values(v, f"{prefix}.{k}" if prefix else str(k))
        return out
    return [(prefix, node)]


def _leaves(node: Any, prefix: str = "") -> list[str]:
    return [path for path, _ in _values(node, prefix)]


def shipped_values(module_id: str) -> list[tuple[str, Any, str]]:
    """Every ``--vary`` data key of a module with its shipped value and file: ``MODULE.path``
    in ``rules.toml``, ``MODULE.FILE.path`` in another file (``labels.toml`` holds texts and
    ``[meta]`` names the module: neither is listed)."""
    folder = data_dir(module_id)
    out: list[tuple[str, Any, str]] = []
    for path in sorted(folder.glob("*.toml")):
        if path.name == "labels.toml":
            continue
        raw = dict(_shipped(folder, path.name))
        raw.pop("meta", None)
        prefix = module_id if path.name == "rules.toml" else f"{module_id}.{path.stem}"
        out += [(key, value, path.name) for key, value in _values(raw, prefix)]
    return out


def _shipped(folder: Path, name: str) -> dict[str, Any]:
    out: dict[str, Any] = tomllib.loads((folder / name).read_text(encoding="utf-8"))
    return out


def resolve_key(key: str, value: Any) -> tuple[str, str, tuple[str, ...]]:
    """(data folder, file name, path) of ``MODULE.[FILE.]path``, checked against the shipped
    data: the path must exist, and the new value must have the old one's kind."""
    mid, _, rest = key.partition(".")
    folder = data_dir(mid)
    files = sorted(p.name for p in folder.glob("*.toml"))
    parts = tuple(rest.split(".")) if rest else ()
    name = "rules.toml" if "rules.toml" in files else files[0]
    if parts and f"{parts[0]}.toml" in files and parts[0] not in _shipped(folder, name):
        name, parts = f"{parts[0]}.toml", parts[1:]
    raw = _shipped(folder, name)
    node: Any = raw
    for i, k in enumerate(parts):
        ok = (isinstance(node, dict) and k in node) or (
            isinstance(node, list) and k.isdigit() and int(k) < len(node)
        )
        if not ok:
            known = [f"{mid}.{leaf}" for leaf in _leaves(raw)]
            seen = ".".join(parts[: i + 1])
            raise UnknownKeyError(f"unknown --vary key '{key}'{_near(f'{mid}.{seen}', known)}")
        node = node[int(k)] if isinstance(node, list) else node[k]
    if not parts or isinstance(node, dict):
        known = [f"{key}.{leaf}" if parts else f"{mid}.{leaf}" for leaf in _leaves(node)]
        raise UnknownKeyError(
            f"--vary key '{key}' names a table, not a value (e.g. {', '.join(known[:3])})"
        )
    bad = _not_finite(value)
    if bad is not None:
        raise UmpireError(f"--vary {key}: {bad}")
    if not _same_kind(node, value):
        raise UmpireError(
            f"--vary {key}: {value!r} is not like the shipped value {node!r} "
            f"({type(node).__name__})"
        )
    return folder_key(folder), name, parts


def _same_kind(old: Any, new: Any) -> bool:
    """Is ``new`` like the shipped ``old``: a number for a number (a whole one for a whole
    one), a list of the same length and kinds (a table of rows may have more or fewer rows,
    each like the shipped ones)?"""
    if isinstance(old, bool) or isinstance(new, bool):
        return isinstance(old, bool) and isinstance(new, bool)
    if isinstance(old, int | float):
        return isinstance(new, int | float) and (isinstance(old, float) or isinstance(new, int))
    if isinstance(old, list):
        if not isinstance(new, list):
            return False
        if old and all(isinstance(row, list) for row in old):
            return bool(new) and all(_same_kind(old[0], row) for row in new)
        return len(new) == len(old) and all(_same_kind(a, b) for a, b in zip(old, new, strict=True))
    return isinstance(new, type(old))


def parse_value(text: str) -> Any:
    """A ``--vary`` value as TOML (``7``, ``0.5``, ``true``, ``[5, 7, 9]``), else the text."""
    try:
        return tomllib.loads(f"v = {text}")["v"]
    except tomllib.TOMLDecodeError:
        return text


def copy_of(path: str) -> tuple[str, Path]:
    """(module id, folder) of a ``--rules-data`` folder: ``MODULE=DIR`` or a copy made by
    ``umpire rules copy`` (whose marker file names the module)."""
    mid, eq, folder = path.partition("=")
    if not eq:
        folder, mid = path, ""
    where = Path(folder)
    if not is_dir(where):
        raise UmpireError(f"--rules-data: no folder '{folder[:80]}'")
    if not mid:
        marker = where / MARKER
        if not marker.is_file():
            raise UmpireError(
                f"--rules-data: '{folder}' is not a copy made by 'umpire rules copy' "
                f"(no {MARKER}); give MODULE={folder}"
            )
        mid = marker.read_text(encoding="utf-8").strip()
    shipped = data_dir(mid)
    have = sorted(p.name for p in where.glob("*.toml"))
    if not have:
        raise UmpireError(f"--rules-data: '{folder}' holds no .toml data files")
    for name in have:
        if not (shipped / name).is_file():
            raise UmpireError(
                f"--rules-data: {name} is not one of {mid}'s data files "
                f"({', '.join(sorted(p.name for p in shipped.glob('*.toml')))})"
            )
    return mid, where


def dir_overlay(path: str) -> Overlay:
    """The overlay of a ``--rules-data`` folder (its files are read now to check them: TOML,
    then the shape of the module's shipped file, :func:`check_shape`)."""
    mid, where = copy_of(path)
    shipped = data_dir(mid)
    overlay = Overlay(((folder_key(shipped), str(where.resolve())),))
    open_tables = _open_tables(shipped)
    for p in sorted(where.glob("*.toml")):
        try:
            text = p.read_text(encoding="utf-8")
            raw = tomllib.loads(text)
        except UnicodeDecodeError:
            raise DataFileError("not a UTF-8 text file", file=str(p)) from None
        except tomllib.TOMLDecodeError as exc:
            raise DataFileError(
                f"bad TOML: {str(exc).split(' (at')[0]}", file=str(p), line=_line(exc)
            ) from None
        try:
            check_shape(_shipped(shipped, p.name), raw, open_tables.get(p.name, ()))
        except ShapeError as exc:
            raise DataFileError(str(exc), file=str(p), line=_line_of(text, exc.path)) from None
    return overlay


# -- the shape of an edited data file ----------------------------------------------------


class ShapeError(UmpireError):
    """An edited data file that is not shaped like the module's shipped file (``path``:
    the dotted key at fault)."""

    def __init__(self, path: str, message: str):
        super().__init__(message)
        self.path = path


def _open_tables(folder: Path) -> dict[str, tuple[str, ...]]:
    """The tables of a module's data files that take new entries (``open_tables`` in its
    ``module.toml``: ``"FILE:dotted.table"``, e.g. quick ACW's named leaders); every other
    table has exactly the shipped keys."""
    reg = folder.parent / "module.toml"
    names = tomllib.loads(reg.read_text(encoding="utf-8")).get("open_tables", [])
    out: dict[str, tuple[str, ...]] = {}
    for entry in names:
        file, _, table = str(entry).partition(":")
        out[file] = (*out.get(file, ()), table)
    return out


def check_shape(shipped: Any, new: Any, open_tables: tuple[str, ...] = (), at: str = "") -> None:
    """Raise :class:`ShapeError` unless ``new`` is shaped like the ``shipped`` data: the same
    keys (an open table may add or drop entries, each like a shipped one), numbers where
    numbers were (whole where whole, finite), true/false and texts where they were, lists
    of the shipped elements' kinds (rows of a table may be more or fewer)."""
    where = at or "the file"
    if isinstance(shipped, dict):
        if not isinstance(new, dict):
            raise ShapeError(at, f"'{where}' must be a table (like the shipped one)")
        is_open = at in open_tables
        for k, v in new.items():
            key = f"{at}.{k}" if at else k
            if k in shipped:
                check_shape(shipped[k], v, open_tables, key)
            elif is_open and shipped:
                check_shape(next(iter(shipped.values())), v, open_tables, key)
            else:
                near = _near(k, [str(x) for x in shipped])
                raise ShapeError(key, f"unknown key '{key}'{near}")
        if not is_open:
            for k, v in shipped.items():
                if k not in new:
                    key = f"{at}.{k}" if at else k
                    raise ShapeError(key, f"missing key '{key}' (shipped: {_shown(v)})")
        return
    if isinstance(shipped, list) and shipped and all(isinstance(e, dict) for e in shipped):
        if not isinstance(new, list):
            raise ShapeError(at, f"'{where}' must be a list of tables like the shipped ones")
        _check_records(shipped, new, open_tables, at)
        return
    if not _same_kind(shipped, new):  # the one test --vary makes too
        if isinstance(shipped, int) and not isinstance(shipped, bool):
            kind = "a whole number"
        elif isinstance(shipped, list):
            kind = "a list of the same kinds (as many items, or rows like the shipped ones)"
        else:
            kind = _family(shipped)
        raise ShapeError(at, f"'{where}' = {_shown(new)} must be {kind}, like {_shown(shipped)}")
    bad = _not_finite(new)
    if bad is not None:
        raise ShapeError(at, f"'{where}' = {bad}")


def _not_finite(value: Any) -> str | None:
    """What is wrong with a NaN or infinity in a value (a number, or a list holding one),
    in words; None when every number in it is finite."""
    if isinstance(value, float) and not math.isfinite(value):
        return f"{value} is not a finite number"
    if isinstance(value, list):
        for item in value:
            inner = _not_finite(item)
            if inner is not None:
                if isinstance(item, list):
                    return inner
                return f"{_shown(value)} holds {item}, not a finite number"
    return None


def _check_records(
    shipped: list[dict[str, Any]], new: list[Any], open_tables: tuple[str, ...], at: str
) -> None:
    """A list of records (``[[table]]``): each has only keys some shipped record has, every
    key all of them have, and each value like the first shipped record's with that key."""
    every = set.intersection(*(set(e) for e in shipped))
    for i, e in enumerate(new):
        here = f"{at}.{i}"
        if not isinstance(e, dict):
            raise ShapeError(here, f"'{here}' must be a table like the shipped ones")
        for k, v in e.items():
            like = next((r[k] for r in shipped if k in r), None)
            if like is None:
                known = sorted({str(x) for r in shipped for x in r})
                raise ShapeError(f"{here}.{k}", f"unknown key '{here}.{k}'{_near(k, known)}")
            check_shape(like, v, open_tables, f"{here}.{k}")
        for k in sorted(every - set(e)):
            raise ShapeError(f"{here}.{k}", f"missing key '{here}.{k}'")


def _family(v: Any) -> str:
    """The kind of a TOML value (not a table or list) as a designer reads it."""
    if isinstance(v, bool):
        return "true or false"
    if isinstance(v, int | float):
        return "a number"
    if isinstance(v, str):
        return "a text"
    return type(v).__name__  # a TOML date or time


def _shown(v: Any) -> str:
    text = repr(v)
    return text if len(text) <= 40 else text[:37] + "..."


def _line_of(text: str, path: str) -> int | None:
    """The line of a dotted key in a TOML text (best effort: the key set under its table's
    header, else its last part anywhere), for the one-line error."""
    parts = [p for p in path.split(".") if p and not p.isdigit()]
    if not parts:
        return None
    lines = text.splitlines()

    def key_at(word: str, start: int) -> int | None:
        pat = re.compile(rf"^\s*(\"?{re.escape(word)}\"?\s*=|\[+[^\]]*\b{re.escape(word)}\b)")
        for n in range(start, len(lines)):
            if pat.match(lines[n]):
                return n + 1
            if start and lines[n].lstrip().startswith("["):
                return None  # the next table: not set under this header
        return None

    for j in range(len(parts) - 1, 0, -1):
        head = re.compile(rf"^\s*\[+\s*{re.escape('.'.join(parts[:j]))}\s*\]+")
        for n, line in enumerate(lines):
            if head.match(line):
                found = key_at(parts[j], n + 1)
                if found is not None:
                    return found
    return key_at(parts[-1], 0)
