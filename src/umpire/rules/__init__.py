"""Rule modules: one subpackage per seed text, each data files plus small pure functions.

Modules are registered here by import path and loaded on first use, so commands that
need none of them start fast.
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Protocol

from umpire.errors import UnknownNameError

if TYPE_CHECKING:
    from umpire.battle.roles import RoleModule
    from umpire.engine.context import ActionFn
    from umpire.rules.labels import Labelled

REGISTRY: dict[str, str] = {
    "session": "umpire.rules.session:MODULE",
    "cwb_events": "umpire.rules.cwb_events:MODULE",
    "battle": "umpire.battle.module:MODULE",
    "quick_acw": "umpire.battle.module:LEGACY",
}
"""Game module id -> ``"package.path:ATTRIBUTE"``: what a saved game is a game of.

``battle`` is the tactical engine, whose rules are composed per scenario from the role
modules below; ``quick_acw`` is its old id, kept so that older saves load and verify.
"""

ROLE_REGISTRY: dict[str, str] = {
    "quick-acw": "umpire.rules.quick_acw.roles:MODULE",
    "five-step": "umpire.rules.sequence_cards:FIVE_STEP",
    "card-draw": "umpire.rules.sequence_cards:CARD_DRAW",
    "solo-events": "umpire.rules.solo_events:MODULE",
    "action-reaction": "umpire.rules.action_reaction.roles:MODULE",
}
"""Role module id -> where it lives: the modules a scenario's ``[rules]`` can name."""

COMMANDS: dict[str, tuple[str, str]] = {
    "cwb": (
        "umpire.rules.cwb_events.cli:cwb_app",
        "Gettysburg command-phase assistant (seed 000).",
    ),
}
"""Command groups that rule modules add to ``umpire``: name -> (where, help)."""

RESOLVERS: tuple[str, ...] = (
    "umpire.rules.quick_acw.cli:resolve_app",
    "umpire.rules.action_reaction.cli:resolve_app",
)
"""Typer apps whose commands join ``umpire resolve`` (each module's table rulings)."""

ODDS: tuple[str, ...] = (
    "umpire.rules.quick_acw.resolutions:RESOLUTIONS",
    "umpire.rules.action_reaction.resolutions:RESOLUTIONS",
    "umpire.rules.sequence_cards.resolutions:RESOLUTIONS",
    "umpire.rules.cwb_events.resolutions:RESOLUTIONS",
    "umpire.rules.solo_events.resolutions:RESOLUTIONS",
)
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


TABLE_MODULES: dict[str, str] = {"cwb": "cwb_events"}
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
