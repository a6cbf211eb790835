"""Rule modules: one subpackage per seed text, each data files plus small pure functions.

Modules are registered here by import path and loaded on first use, so commands that
need none of them start fast.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Protocol

from umpire.errors import UnknownNameError

if TYPE_CHECKING:
    from umpire.engine.context import ActionFn
    from umpire.rules.labels import Labelled

REGISTRY: dict[str, str] = {
    "session": "umpire.rules.session:MODULE",
    "cwb_events": "umpire.rules.cwb_events:MODULE",
    "quick_acw": "umpire.rules.quick_acw:MODULE",
}
"""Module id -> ``"package.path:ATTRIBUTE"``; a module listed but not yet built is skipped."""


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


def all_modules() -> list[RuleModule]:
    """Every registered module that is present, in registry order."""
    out = []
    for module_id in REGISTRY:
        try:
            out.append(get_module(module_id))
        except UnknownNameError:
            continue
    return out
