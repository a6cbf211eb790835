"""Rule modules: one subpackage per seed text, each data files plus small pure functions.

Each rule module registers itself once, in its package's ``module.toml`` (its games,
roles, commands, resolvers, odds, web tables and conformance compositions: see
:class:`ModuleSpec` and docs/engine-api.md). This registry reads those files and reaches
the modules by import path, loading them on first use, so commands that need none of them
start fast and the import contracts see no edge from here into a rule module.
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from umpire.errors import DataFileError, UnknownNameError

if TYPE_CHECKING:
    from umpire.battle.roles import RoleModule
    from umpire.engine.context import ActionFn
    from umpire.rules.labels import Labelled

RULES = Path(__file__).parent
"""Where the rule module packages live: each is a package with a ``module.toml``."""

CORE_GAMES: dict[str, str] = {
    "battle": "umpire.battle.module:MODULE",
    "quick_acw": "umpire.battle.module:LEGACY",
}
"""Game modules that are not rule modules: ``battle`` is the tactical engine, whose rules
are composed per scenario from the role modules; ``quick_acw`` is its old id, kept so that
older saves load and verify."""

_KEYS = {"games", "roles", "commands", "resolvers", "odds", "tables", "conformance", "open_tables"}


@dataclass(frozen=True)
class ModuleSpec:
    """One rule module's registration, read from its ``module.toml`` (its one place).

    Every place is a full ``"package.path:ATTRIBUTE"`` string, loaded on first use; the
    registry reaches modules only by these strings, so the import contracts see no edge.
    """

    package: str
    """The package under ``umpire.rules`` (``quick_acw``)."""
    games: dict[str, str] = field(default_factory=dict)
    """Game module id -> where its module object is (what a saved game is a game of)."""
    roles: dict[str, str] = field(default_factory=dict)
    """Role module id (what a scenario's ``[rules]`` names) -> where its object is."""
    commands: dict[str, tuple[str, str]] = field(default_factory=dict)
    """Command groups it adds to ``umpire``: name -> (where the Typer app is, help)."""
    resolvers: tuple[str, ...] = ()
    """Typer apps whose commands join ``umpire resolve`` (its table rulings)."""
    odds: tuple[str, ...] = ()
    """Where it lists its exact-odds resolutions (``umpire odds``)."""
    tables: dict[str, str] = field(default_factory=dict)
    """Kinds of web table -> the game module (of ``games``) that fills them."""
    conformance: dict[str, str] = field(default_factory=dict)
    """Compositions the conformance suite plays (name -> a ``[rules]`` table in TOML)."""
    open_tables: tuple[str, ...] = ()
    """Data tables a ``--rules-data`` copy may add entries to (``FILE:table``; read by
    ``umpire.rules.data``, which checks every other table keeps the shipped keys)."""


def read_spec(package: str) -> ModuleSpec:
    """The registration of ``umpire.rules.<package>`` from its ``module.toml``."""
    import tomllib

    path = RULES / package / "module.toml"
    raw = tomllib.loads(path.read_text(encoding="utf-8"))
    unknown = set(raw) - _KEYS
    if unknown:
        raise DataFileError(
            f"unknown keys {', '.join(sorted(unknown))} (known: {', '.join(sorted(_KEYS))})",
            file=str(path),
        )
    base = f"umpire.rules.{package}"

    def at(place: str) -> str:
        sub, sep, attr = place.partition(":")
        if not sep or not attr:
            raise DataFileError(f"'{place}' is not 'submodule:ATTRIBUTE'", file=str(path))
        return f"{base}.{sub}:{attr}" if sub else f"{base}:{attr}"

    return ModuleSpec(
        package=package,
        games={k: at(v) for k, v in raw.get("games", {}).items()},
        roles={k: at(v) for k, v in raw.get("roles", {}).items()},
        commands={k: (at(v["at"]), str(v["help"])) for k, v in raw.get("commands", {}).items()},
        resolvers=tuple(at(v) for v in raw.get("resolvers", [])),
        odds=tuple(at(v) for v in raw.get("odds", [])),
        tables=dict(raw.get("tables", {})),
        conformance={k: str(v) for k, v in raw.get("conformance", {}).items()},
        open_tables=tuple(str(v) for v in raw.get("open_tables", [])),
    )


MODULE_PACKAGES: tuple[str, ...] = (
    "session",
    "cwb_events",
    "quick_acw",
    "sequence_cards",
    "solo_events",
    "action_reaction",
)
"""The rule module packages under ``umpire.rules``, the one list (in the order ``rules
list``, ``umpire resolve`` and ``umpire odds`` show them); each registers itself in its
``module.toml``. tests/test_registration.py holds pyproject.toml's contracts to it."""

SPECS: tuple[ModuleSpec, ...] = tuple(read_spec(p) for p in MODULE_PACKAGES)
"""Every rule module's registration, in package order; the tables below are read from it."""

REGISTRY: dict[str, str] = {g: t for s in SPECS for g, t in s.games.items()} | CORE_GAMES
"""Game module id -> ``"package.path:ATTRIBUTE"``: what a saved game is a game of."""

ROLE_REGISTRY: dict[str, str] = {r: t for s in SPECS for r, t in s.roles.items()}
"""Role module id -> where it lives: the modules a scenario's ``[rules]`` can name."""

COMMANDS: dict[str, tuple[str, str]] = {c: t for s in SPECS for c, t in s.commands.items()}
"""Command groups that rule modules add to ``umpire``: name -> (where, help)."""

RESOLVERS: tuple[str, ...] = tuple(t for s in SPECS for t in s.resolvers)
"""Typer apps whose commands join ``umpire resolve`` (each module's table rulings)."""

ODDS: tuple[str, ...] = tuple(t for s in SPECS for t in s.odds)
"""Where each module lists its exact-odds resolutions (``umpire odds``; see
:mod:`umpire.rules.odds` for the shape)."""

HIDDEN = {"quick_acw"}
"""Old ids that ``umpire rules list`` does not show (they load as the module they became)."""


class RuleModule(Protocol):
    """What the engine needs from a rule module (see docs/engine-api.md)."""

    id: str
    name: str
    seed: str
    provides: tuple[str, ...]

    def initial_state(self, scenario: dict[str, Any]) -> dict[str, Any]:
        """The JSON state before any action."""
        ...

    def actions(self) -> Mapping[str, ActionFn]:
        """The actions this module accepts, by name."""
        ...

    def defaults(self) -> list[Labelled]:
        """Every labelled default and reading the module uses."""
        ...


class AtTable(Protocol):
    """A game module that can be played at a shared table (the web page) without the page
    knowing its internals: its sides, a start, a view in sections, the commands open now."""

    id: str
    name: str
    sides: tuple[str, ...]

    def table_start(self, options: Mapping[str, str]) -> dict[str, Any]:
        """The scenario of a new game."""
        ...

    def table_view(self, state: dict[str, Any], viewer: str | None) -> dict[str, Any]:
        """``{"summary": [lines], "sections": [{"title", "head", "rows"}], ...}`` for a seat."""
        ...

    def table_commands(self, state: dict[str, Any], viewer: str | None) -> list[dict[str, Any]]:
        """``[{"action", "label", "params"}]``: what ``viewer`` may do now."""
        ...


TABLE_MODULES: dict[str, str] = {k: g for s in SPECS for k, g in s.tables.items()}
"""Kinds of web table -> the game module that fills them (through :class:`AtTable`)."""


def table_module(kind: str) -> AtTable:
    """The module behind a kind of table, checked to fill the seam."""
    mid = TABLE_MODULES.get(kind)
    if mid is None:
        raise UnknownNameError(f"unknown kind of table '{kind}' ({', '.join(TABLE_MODULES)})")
    mod: Any = get_module(mid)
    for attr in ("sides", "table_start", "table_view", "table_commands"):
        if not hasattr(mod, attr):
            raise UnknownNameError(f"module '{mid}' cannot be played at a shared table")
    found: AtTable = mod
    return found


class Listed(Protocol):
    """What ``umpire rules list`` shows of any module."""

    id: str
    name: str
    seed: str
    provides: tuple[str, ...]

    def defaults(self) -> list[Labelled]:
        """Every labelled default and reading the module uses."""
        ...


def get_module(module_id: str) -> RuleModule:
    """Load a registered module by id, or raise :class:`UnknownNameError`."""
    target = REGISTRY.get(module_id)
    if target is None:
        raise UnknownNameError(
            f"unknown rules module '{module_id}' (known: {', '.join(sorted(REGISTRY))})"
        )
    path, attr = target.split(":")
    try:
        mod = importlib.import_module(path)
    except ModuleNotFoundError as exc:
        if exc.name and path.startswith(exc.name):
            raise UnknownNameError(f"rules module '{module_id}' is not installed") from None
        raise
    found: RuleModule = getattr(mod, attr)
    return found


def _load(target: str) -> Any:
    path, attr = target.split(":")
    return getattr(importlib.import_module(path), attr)


def role_module_ids() -> list[str]:
    """The ids of the role modules that are present."""
    out = []
    for mid, target in ROLE_REGISTRY.items():
        if importlib.util.find_spec(target.split(":")[0]) is not None:
            out.append(mid)
    return out


def role_module(module_id: str) -> RoleModule:
    """A role module by id; KeyError when unknown or not present."""
    target = ROLE_REGISTRY.get(module_id)
    if target is None or module_id not in role_module_ids():
        raise KeyError(module_id)
    found: RoleModule = _load(target)
    return found


def all_modules() -> list[Listed]:
    """Every module that is present, game modules then role modules, for ``rules list``."""
    out: list[Listed] = []
    for module_id in REGISTRY:
        if module_id in HIDDEN:
            continue
        try:
            out.append(get_module(module_id))
        except UnknownNameError:
            continue
    out.extend(role_module(mid) for mid in role_module_ids())
    return out
