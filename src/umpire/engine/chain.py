"""The hash chain of a game's log: each action commits to the game and to every action before.

The chain starts from the game's identity (its module, scenario, dice source and seed
commitment: ``identity``) and each action's link is the SHA-256 of the link before it and
the action's canonical JSON (``link``). The last link, the **head**, stands for the whole
log: a player who writes down the head and the action count can later tell whether an
export was shortened, extended, reordered or moved onto another scenario
(docs/verification.md).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping
from typing import Any

from umpire.engine.events import canonical_json

CHAIN_FORMAT = "umpire-chain/1"
"""Written into the identity, so a later change of the recipe cannot be mistaken for this one."""

ACTION_KEYS = ("no", "name", "params", "state_hash", "events")
"""The fields of an action that its link commits to (its ``chain`` field is the link)."""


def identity(
    module: str,
    scenario: Mapping[str, Any],
    source: str,
    commitment: str | None,
    fork: Mapping[str, Any] | None = None,
) -> str:
    """The chain's first link: what game this is (never the seed itself, only its commitment).

    A fork's identity also holds its fork record (the parent, the action and the parent's
    chain head it was forked at), so its chain hangs on the parent's.
    """
    body: dict[str, Any] = {
        "chain": CHAIN_FORMAT,
        "module": module,
        "scenario": dict(scenario),
        "source": source,
        "commitment": commitment,
    }
    if fork is not None:
        body["fork"] = dict(fork)
    text = canonical_json(body)
    return hashlib.sha256(text.encode()).hexdigest()


def link(prev: str, action: Mapping[str, Any]) -> str:
    """The link after ``action``: SHA-256 of the previous link and the action's canonical JSON."""
    body = canonical_json({k: action[k] for k in ACTION_KEYS})
    return hashlib.sha256(bytes.fromhex(prev) + body.encode()).hexdigest()


def heads(start: str, actions: Iterable[Mapping[str, Any]]) -> list[str]:
    """The link after each action, in order, from the identity ``start``."""
    out = []
    cur = start
    for action in actions:
        cur = link(cur, action)
        out.append(cur)
    return out
