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
import re
import sys
import tomllib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from umpire.errors import DataFileError, UmpireError

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
    if not where.is_dir():
        raise UmpireError(f"--rules-data: no folder '{folder}'")
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
    """The overlay of a ``--rules-data`` folder (its files are read now to check them)."""
    mid, where = copy_of(path)
    overlay = Overlay(((folder_key(data_dir(mid)), str(where.resolve())),))
    for p in sorted(where.glob("*.toml")):
        try:
            tomllib.loads(p.read_text(encoding="utf-8"))
        except tomllib.TOMLDecodeError as exc:
            raise DataFileError(
                f"bad TOML: {str(exc).split(' (at')[0]}", file=str(p), line=_line(exc)
            ) from None
    return overlay
