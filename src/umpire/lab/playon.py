"""Play on from a saved position: N battles from action K of a saved battle, AI against AI.

``umpire simulate --from GAME@ACTION`` (issue 24, "what if"): the position after the first
ACTION actions of a saved battle is rebuilt from the log's recorded changes alone (no dice
source is made, so a committed or joint game's hidden seed is never read), then played to
the end N times, battle ``i`` on its own fresh dice ``SeededSource(battle_seed(seed, i))``
with the policies seeded as ``umpire simulate`` seeds them. The game's own future dice are
never used, and the saved game is not changed.

The batch simulator starts only from a scenario's opening, so these battles play on the
scalar engine (through the lab's runner: the same chunks, workers and records as
``umpire simulate``). From action 0 a battle is exactly battle ``i`` of ``umpire simulate``
on the game's scenario with the same seed and players.

The after-action report calls :func:`play_on` to weigh a decisive roll: the win chance
from the position before the action that rolled it against the one after.
"""

from __future__ import annotations

import copy
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from umpire.errors import UmpireError, UnknownNameError
from umpire.lab.play import Record
from umpire.sides import SIDES

if TYPE_CHECKING:
    from pathlib import Path

    from umpire.ai import Policy
    from umpire.battle.run import Result
    from umpire.engine.game import ActionRecord, Game
    from umpire.store.sqlite import Store

BATTLE_MODULES = ("battle", "quick_acw")
"""Game modules whose saves are battles (``quick_acw``: saves from before the composable
engine); the same list as ``umpire battle --resume`` takes."""

ACTION_FORMS = (
    "N (actions played, 0 = the start, as 'games undo --to' and 'games fork --at' count), "
    "tT (the first decision of turn T) or last"
)
"""The forms ``GAME@ACTION`` takes, for messages and --help."""


@dataclass(frozen=True, slots=True)
class Position:
    """A saved battle after its first ``at`` actions: the engine state to play on from."""

    game: str
    at: int
    actions: int
    """How many actions the saved game has."""
    state: dict[str, Any]
    """The engine state: ``{"scenario": ..., "battle": ...}`` (a private copy)."""

    @property
    def turn(self) -> int:
        """The turn the position is in (0 before the first action)."""
        return int(self.state["battle"]["turn"])

    @property
    def over(self) -> bool:
        """The battle has ended at this position."""
        return bool(self.state["battle"]["over"])

    def to_act(self) -> tuple[str, str] | None:
        """(side, step) of the decision the position waits for; None at action 0 (the
        opening's automatic steps roll first) or when over."""
        if self.at == 0 or self.over:
            return None
        from umpire.battle.game import battle_from

        b = battle_from(self.state)
        ph = b.phase()
        return ph.side, ph.name

    def where(self) -> str:
        """The position in words: 'action 12 of 40 (turn 2, union to act: fire)'."""
        act = self.to_act()
        return where_words(self.at, self.actions, self.turn, act)


def where_words(at: int, actions: int, turn: int, act: Any) -> str:
    """A position in words from its numbers; ``act`` is (side, step), a ``to_act`` JSON
    object, or None."""
    if at == 0:
        return f"action 0 of {actions} (the start)"
    if isinstance(act, dict):
        act = (act["side"], act["step"])
    who = f", {act[0]} to act: {str(act[1]).replace('_', ' ')}" if act else ""
    return f"action {at} of {actions} (turn {turn}{who})"


def parse_from(text: str) -> tuple[str, str]:
    """``GAME@ACTION`` as (game, action text); a one-line error when it is not that shape."""
    game, at, action = text.rpartition("@")
    if not at or not game or not action.strip():
        raise UmpireError(
            f"--from takes GAME@ACTION, e.g. mygame@12, not '{text}' (ACTION: {ACTION_FORMS})"
        )
    return game, action.strip()


def _turn_index(module: Any, scenario: Mapping[str, Any], records: Sequence[Any], t: int) -> int:
    """The number of actions after which turn ``t`` first waits for a decision."""
    from umpire.engine.game import Game

    state = module.initial_state(copy.deepcopy(dict(scenario)))
    for k, _ in enumerate(Game.replay_steps(state, records), start=1):
        if int(state["battle"]["turn"]) >= t:
            return k
    return -1


def resolve_action(
    text: str,
    game: str,
    module: Any,
    scenario: Mapping[str, Any],
    records: Sequence[ActionRecord],
) -> int:
    """The number of actions ``text`` names (see :data:`ACTION_FORMS`); a one-line error
    naming the game and the action when it names none."""
    total = len(records)
    word = text.strip().lower()
    where = f"--from '{game}@{text}'"
    if word == "last":
        return total
    if word[:1] == "t" and word.removeprefix("turn").removeprefix("t").isdigit():
        t = int(word.removeprefix("turn").removeprefix("t")[:9])
        if t < 1:
            raise UmpireError(
                f"{where}: turns count from 1 (t1 is the first turn's first decision)"
            )
        k = _turn_index(module, scenario, records, t)
        if k < 0:
            raise UmpireError(f"{where}: the game '{game}' never reaches turn {t}")
        return k
    if not (word.isascii() and word.isdigit()):
        raise UmpireError(f"{where}: ACTION is {ACTION_FORMS}; not '{text}'")
    k = int(word[:12])
    if k > total:
        raise UmpireError(
            f"{where}: no action {k} in game '{game}' (it has {total} actions; 0 is the start)"
        )
    return k


def position_of(
    name: str,
    module: Any,
    scenario: Mapping[str, Any],
    records: Sequence[ActionRecord],
    action: int | str,
    *,
    allow_over: bool = False,
) -> Position:
    """The position after ``action`` actions of a battle's log (its change events only:
    no dice source is made). A one-line error for a game that is not a battle, an action out
    of range, or (unless ``allow_over``) a position where the battle is already over."""
    from umpire.engine.game import Game

    if module.id not in BATTLE_MODULES:
        raise UmpireError(
            f"--from '{name}@{action}': game '{name}' is a {module.id} game, not a battle"
        )
    if isinstance(action, str):
        at = resolve_action(action, name, module, scenario, records)
    else:
        at = action
        if not 0 <= at <= len(records):
            raise UmpireError(
                f"--from '{name}@{action}': no action {at} in game '{name}' "
                f"(it has {len(records)} actions; 0 is the start)"
            )
    state = Game.replay_state(module, copy.deepcopy(dict(scenario)), list(records[:at]))
    assert isinstance(state, dict)
    pos = Position(name, at, len(records), copy.deepcopy(state))
    if pos.over and not allow_over:
        st = state["battle"]
        won = "a draw" if st["winner"] == "draw" else f"{st['winner']} won"
        raise UmpireError(
            f"--from '{name}@{action}': the battle is over at action {at} ({won} in turn "
            f"{st['turn']}); play on from an earlier action"
        )
    return pos


def load_position(store: Store, name: str, action: int | str) -> Position:
    """The position of a saved game (by name) after ``action`` actions, read from its log.

    Only the log's recorded changes are read; the game is not loaded with its dice (a
    committed game's hidden seed stays in the save file) and nothing is written.
    """
    from umpire.rules import get_module

    try:
        info = store.info(name)
    except UnknownNameError as exc:
        raise UnknownNameError(f"--from '{name}@{action}': {exc}") from None
    if info.module not in BATTLE_MODULES:
        raise UmpireError(
            f"--from '{name}@{action}': game '{name}' is a {info.module} game, not a battle"
        )
    return position_of(
        name, get_module(info.module), store.scenario(name), store.records(name), action
    )


def game_position(
    game: Game, action: int, name: str = "game", *, allow_over: bool = False
) -> Position:
    """The position of a loaded engine game after ``action`` actions (its log's changes;
    its dice source is not touched). ``allow_over``: a finished position is taken too (its
    battles all end at once, as it ended)."""
    return position_of(
        name, game.module, game.scenario, game.actions, action, allow_over=allow_over
    )


def play_from(
    state: Mapping[str, Any], seed: int, policies: Mapping[str, Policy], source: Any = None
) -> Result:
    """Play one battle to its end from an engine state on ``SeededSource(seed)`` (or on
    ``source``: tests continue a saved battle on its own dice with it)."""
    from umpire.battle.engine import Recorder
    from umpire.battle.game import battle_from
    from umpire.dice import SeededSource

    rec = Recorder(SeededSource(seed) if source is None else source)
    b = battle_from(copy.deepcopy(dict(state)), rec)
    return play_to_end(b, rec, seed, policies)


def play_to_end(b: Any, rec: Any, seed: int, policies: Mapping[str, Policy]) -> Result:
    """Answer every request of battle ``b`` (rolling through the Recorder ``rec``) with the
    sides' policies, to its end; its result under ``seed``."""
    from umpire.battle.run import result_of

    orders: list[list[Any]] = []
    while True:
        req = b.next_request()
        if req is None:
            break
        order = policies[req.side].decide(b, req)
        b.apply(req, order)
        orders.append([req.actor, *order])
    return result_of(b, seed, rec.faces, orders)


@dataclass(slots=True)
class PlayOn:
    """N battles played on from one position: their records and each side's win chance."""

    position: Position
    n: int
    seed: int
    players: tuple[tuple[str, str], ...]
    records: list[Record]
    seconds: float
    summary: dict[str, Any] = field(default_factory=dict)

    def chance(self, outcome: str) -> tuple[float, float, float]:
        """(rate, 95% low, 95% high) of an outcome: a side's win, or ``draw``."""
        r = self.summary["results"][outcome]
        return float(r["rate"]), float(r["ci95"][0]), float(r["ci95"][1])

    def to_json(self) -> dict[str, Any]:
        """The result as ``umpire simulate --from ... --json`` prints it."""
        pos = self.position
        act = pos.to_act()
        return {
            "game": pos.game,
            "at": pos.at,
            "actions": pos.actions,
            "turn": pos.turn,
            "to_act": None if act is None else {"side": act[0], "step": act[1]},
            "battles": self.n,
            "seed": self.seed,
            "players": {s: k for s, k in self.players},
            "path": "scalar",
            "win": {
                o: {"rate": self.chance(o)[0], "ci95": list(self.chance(o)[1:])}
                for o in (*SIDES, "draw")
            },
            "summary": self.summary,
            "seconds": self.seconds,
            "battles_per_second": self.n / self.seconds if self.seconds else None,
            "seed_rule": "battle i: umpire.lab.battle_seed(seed, i), 48 bits of SHA-256",
        }


def tasks_from(
    pos: Position, n: int, seed: int, workers: int, players: Iterable[tuple[str, str]] = ()
) -> list[Any]:
    """The lab runner's chunks for N battles on from ``pos`` (scalar path, shipped rules)."""
    from umpire.lab import battle_seed
    from umpire.lab.play import Task
    from umpire.lab.runner import chunks
    from umpire.rules.data import Overlay
    from umpire.scenarios import Scenario

    scen = Scenario.model_validate(pos.state["scenario"])
    seeds = [battle_seed(seed, i) for i in range(n)]
    return [
        Task(
            scen,
            Overlay(),
            0,
            start,
            tuple(seeds[start : start + size]),
            "scalar",
            players=tuple(players),
            position=pos.state,
        )
        for start, size in chunks(n, "scalar", workers)
    ]


def play_on(
    game: Position | Game,
    at: int | None = None,
    n: int = 1000,
    seed: int = 0,
    players: Sequence[tuple[str, str]] = (),
    workers: int = 1,
    *,
    cluster: str | None = None,
    engine: Path | None = None,
    progress: Callable[[int], None] | None = None,
) -> PlayOn:
    """Play ``n`` battles on from a position, each on fresh dice seeded from ``seed``.

    ``game``: a :class:`Position` (``at`` ignored), or a loaded engine Game and ``at``, the
    number of its actions to play on after (a finished position is taken: every battle ends
    as the game did, so a roll that ended the battle swings it to 1 or 0). ``players``:
    (side, policy) for sides not played by the shipped AI (``ai``); ``progress`` is told how
    many battles are done as chunks end.
    """
    from umpire.lab.runner import run
    from umpire.lab.stats import summarise

    if isinstance(game, Position):
        pos = game
    else:
        if at is None:
            raise UmpireError("play_on: say after how many actions to play on (at)")
        pos = game_position(game, at, allow_over=True)
    if n < 1:
        raise UmpireError(f"-n must be at least 1, got {n}")
    got: list[Record | None] = [None] * n
    done = 0

    def keep(arm: int, start: int, recs: list[Record]) -> None:
        nonlocal done
        got[start : start + len(recs)] = recs
        done += len(recs)
        if progress is not None:
            progress(done)

    todo = tasks_from(pos, n, seed, workers, players)
    t0 = time.perf_counter()
    run(todo, keep, workers=workers, cluster=cluster, engine=engine)
    seconds = time.perf_counter() - t0
    records = [r for r in got if r is not None]
    return PlayOn(pos, n, seed, tuple(players), records, seconds, summarise(records))


SWING_N = 200
"""Battles played on from each side of a decisive roll (``swing``): a 95% interval of about
+-7 points on each chance; before and after share their seeds, so the difference is steadier
than the two intervals."""


def swing_seed(name: str, action: int) -> int:
    """The seed of a swing's battles: fixed by the game's name and the action (a report is
    the same when built again), never the game's own seed."""
    import hashlib

    digest = hashlib.sha256(f"umpire-swing/{name}/{action}".encode()).digest()
    return int.from_bytes(digest[:6], "big")


def swing(
    name: str, moment: Any, *, store: Store, n: int = SWING_N, workers: int = 1
) -> float | None:
    """The change in ``moment.side``'s win chance made by action ``moment.action`` (1-based,
    as ``umpire games show`` numbers actions) of the saved battle ``name``: the chance played
    on from the position after it less the chance from the position before it, ``n``
    battles each on the same fresh seeds. None for a game that is not a battle or a moment
    with no side. ``umpire aar`` hands it to the report as its ``SwingFn``."""
    side = getattr(moment, "side", "")
    at = int(getattr(moment, "action", 0))
    if side not in SIDES or at < 1:
        return None
    info = store.info(name)
    if info.module not in BATTLE_MODULES:
        return None
    from umpire.rules import get_module

    module, scenario, records = get_module(info.module), store.scenario(name), store.records(name)
    if at > len(records):
        return None
    seed = swing_seed(name, at)
    chances = []
    for k in (at - 1, at):
        pos = position_of(name, module, scenario, records, k, allow_over=True)
        chances.append(play_on(pos, None, n, seed, workers=workers).chance(side)[0])
    return chances[1] - chances[0]
