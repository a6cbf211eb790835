"""The fast path: play a whole battle in memory, record faces and orders, replay them.

``play`` draws every die from the game's dice source (``SeededSource(seed)``) through a
:class:`~umpire.battle.engine.Recorder`, and keeps every order. ``replay`` feeds the
recorded faces back through ``ScriptedSource`` and the recorded orders, with no
policies, and must reach the identical state.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from umpire.battle.engine import Battle, Order, Recorder, Roller
from umpire.battle.policy import Policy
from umpire.battle.setup import build
from umpire.scenarios import Scenario


@dataclass(slots=True)
class Result:
    """The outcome of one battle and everything needed to replay it."""

    winner: str
    turns: int
    losses: dict[str, int]
    removed: dict[str, int]
    seed: int | None
    faces: list[int] = field(default_factory=list)
    orders: list[list[Any]] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)
    state: dict[str, Any] = field(default_factory=dict)
    leaders_lost: dict[str, int] = field(default_factory=dict)
    broke: dict[str, int | None] = field(default_factory=dict)
    """Per side: the turn it broke (past its break point, or made to quit by a module), or
    None."""
    tally: dict[str, int] = field(default_factory=dict)
    """What the roles counted (``module:what`` -> times; seed 001's events fired, ...)."""

    def to_json(self) -> dict[str, Any]:
        """The JSON summary ``umpire battle --json`` prints."""
        return {
            "winner": self.winner,
            "turns": self.turns,
            "losses": {"stands": self.losses, "units_removed": self.removed},
            "seed": self.seed,
            "dice": len(self.faces),
            "state_hash": state_hash(self.state),
        }


def state_hash(state: Mapping[str, Any]) -> str:
    """SHA-256 of the canonical JSON of a battle state."""
    text = json.dumps(state, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def new_battle(scen: Scenario, roller: Roller, narrate: bool = False) -> Battle:
    """A battle at its start on ``scen``."""
    setup, state = build(scen)
    return Battle(setup, state, roller, narrate=narrate)


def tally_of(b: Battle) -> tuple[dict[str, int], set[str]]:
    """What every role counted in this battle, and the sides a role made quit the field.

    The seam: any role object may offer ``tally(b) -> {what: times}`` (keys are prefixed
    with its id) and ``quits(b) -> sides`` (docs/engine-api.md); the core knows no module.
    """
    comp = b.comp
    out: dict[str, int] = {}
    quit: set[str] = set()
    seen: set[int] = set()
    roles: list[Any] = [comp.sequence, comp.combat, comp.status, *comp.events]
    for role in roles:
        if id(role) in seen:
            continue
        seen.add(id(role))
        count = getattr(role, "tally", None)
        if count is not None:
            for k, v in count(b).items():
                out[f"{role.id}:{k}"] = out.get(f"{role.id}:{k}", 0) + int(v)
        quits = getattr(role, "quits", None)
        if quits is not None:
            quit.update(quits(b))
    return out, quit


def result_of(
    b: Battle, seed: int | None, faces: list[int], orders: list[list[Any]], *, last: bool = False
) -> Result:
    """Summarise a finished (or stopped) battle. ``last``: the battle is dropped at once, so
    the result's state takes its roles' ``extra`` uncopied."""
    from umpire.battle.victory import broken_sides
    from umpire.sides import SIDES

    st = b.state
    removed = {s: sum(1 for u in st.units if u.side == s and not u.alive) for s in b.sides()}
    leaders: dict[str, int] = {
        s: sum(1 for ld in st.leaders if ld.side == s and not ld.alive) for s in SIDES
    }
    tally, quit = tally_of(b)
    down = set(broken_sides(b)) | quit if st.over else set()
    broke: dict[str, int | None] = {s: st.turn if s in down else None for s in SIDES}
    return Result(
        st.winner,
        st.turn,
        dict(st.losses),
        removed,
        seed,
        faces,
        orders,
        list(b.lines),
        st.to_json(not last),
        leaders,
        broke,
        tally,
    )


def play(
    scen: Scenario,
    seed: int,
    policies: Mapping[str, Policy],
    *,
    narrate: bool = False,
    source: Roller | None = None,
    tell: Callable[[str], None] | None = None,
) -> Result:
    """Play a battle to the end on the fast path. ``tell`` (with ``narrate``) is given each
    narrative line before the next decision is asked, so a player at the prompt sees what
    the dice did before choosing again."""
    if source is None:
        from umpire.dice import SeededSource

        source = SeededSource(seed)
    rec = Recorder(source)
    b = new_battle(scen, rec, narrate)
    orders: list[list[Any]] = []
    last_turn = 0
    told = 0
    while True:
        req = b.next_request()
        if req is None:
            break
        if narrate and b.state.turn != last_turn:
            last_turn = b.state.turn
            b.lines.append(f"--- Turn {last_turn} ---")
        if tell is not None:
            told = _tell(b.lines, told, tell)
        order: Order = policies[req.side].decide(b, req)
        b.apply(req, order)
        orders.append([req.actor, *order])
    if tell is not None:
        _tell(b.lines, told, tell)
    return result_of(b, seed, rec.faces, orders, last=True)  # ``b`` ends here


def _tell(lines: list[str], told: int, tell: Callable[[str], None]) -> int:
    """Give ``tell`` the lines after the first ``told``; how many are told now."""
    for line in lines[told:]:
        tell(line)
    return len(lines)


def replay(
    scen: Scenario,
    faces: list[int],
    orders: list[list[Any]],
    *,
    until_turn: int | None = None,
    narrate: bool = False,
) -> Battle:
    """Rebuild a battle from recorded faces and orders (no policies, no RNG).

    Each order is ``[actor, *order]``; an actor of None is not checked. With
    ``until_turn`` the battle stops at the first decision of that turn (or at the end).
    """
    from umpire.dice import ScriptedSource

    b = new_battle(scen, ScriptedSource(list(faces)), narrate)
    it = iter(orders)
    while True:
        req = b.next_request()
        if req is None or (until_turn is not None and b.state.turn >= until_turn):
            break
        rec = next(it, None)
        if rec is None:
            break  # a game saved part-way: stop at its pending decision
        if rec[0] is not None and rec[0] != req.actor:
            raise ValueError(f"replay out of step: order for {rec[0]}, engine asks {req.actor}")
        b.apply(req, tuple(rec[1:]))
    return b
