"""The engine: games, actions, decisions, and the event log they write.

See ``docs/engine-api.md`` for the contract rule modules build on.
"""

from umpire.engine.context import ActionFn, Context
from umpire.engine.decisions import (
    Decision,
    Option,
    Policy,
    PromptPolicy,
    RandomPolicy,
    ScriptedPolicy,
)
from umpire.engine.events import Event, apply_change, canonical_json, get_path, state_hash
from umpire.engine.game import ActionRecord, Game

__all__ = [
    "ActionFn",
    "ActionRecord",
    "Context",
    "Decision",
    "Event",
    "Game",
    "Option",
    "Policy",
    "PromptPolicy",
    "RandomPolicy",
    "ScriptedPolicy",
    "apply_change",
    "canonical_json",
    "get_path",
    "state_hash",
]
