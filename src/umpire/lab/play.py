"""One chunk of a run, in whatever process plays it: battles ``start..`` of one arm.

A :class:`Task` carries the scenario as the arm plays it, the arm's data overlay and the
battles' seeds; :func:`run_task` installs the overlay (``umpire.rules.data``), plays the
battles on the path chosen for the arm, and returns one record per battle (plain JSON
values, the same fields on both paths). Results depend only on the seeds, never on how
the battles are split into chunks or which process plays them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from umpire.errors import UmpireError
from umpire.rules.data import Overlay, install
from umpire.scenarios import Scenario
from umpire.sides import SIDES

Record = dict[str, Any]
"""One battle: ``i``, ``seed``, ``winner`` (a side or ``draw``), ``turns``, per side
``losses`` (stands), ``removed`` (units), ``leaders_lost``, ``broke`` (the turn, or
None), ``events`` (what the roles counted), ``dice`` (faces drawn), ``path``."""


@dataclass(frozen=True, slots=True)
class Task:
    """Battles ``start .. start + len(seeds)`` of arm ``arm``."""

    scen: Scenario
    overlay: Overlay
    arm: int
    start: int
    seeds: tuple[int, ...]
    path: str  # "batch" or "scalar"
    varied: bool = False
    """The arm's rules are a variant: a failure in its battles is the variant's (one line)."""
    players: tuple[tuple[str, str], ...] = ()
    """(side, policy) for sides not played by the shipped AI (``simulate --player``; issue
    23's levels): these battles play on the scalar path."""
    position: dict[str, Any] | None = None
    """The engine state of a saved position to play on from (``simulate --from``, issue 24;
    :mod:`umpire.lab.playon`), or None to play from the scenario's opening."""


_tuned = False


def tune_malloc() -> None:
    """Keep freed memory in the process (glibc ``mallopt``), once per process.

    Dask starts its workers with ``MALLOC_TRIM_THRESHOLD_=65536``, which also pins glibc's
    mmap threshold at 128 KiB: every numpy temporary of the batch simulator is then mapped
    and unmapped anew, and a chunk costs 1.5-3 times the CPU (measured: 7.1 s against
    4.8 s for 2048 battles). Trim above 64 MiB and map above 32 MiB, as glibc's own
    dynamic thresholds settle at. Elsewhere (not glibc) nothing is done.
    """
    global _tuned
    if _tuned:
        return
    _tuned = True
    import sys

    if not sys.platform.startswith("linux"):
        return
    try:
        import ctypes

        libc = ctypes.CDLL("libc.so.6")
        libc.mallopt(-1, 64 << 20)  # M_TRIM_THRESHOLD
        libc.mallopt(-3, 32 << 20)  # M_MMAP_THRESHOLD
    except (OSError, AttributeError):  # pragma: no cover - not glibc
        return


def run_task(task: Task) -> tuple[int, int, list[Record]]:
    """Play one chunk: (arm, start, records in battle order)."""
    tune_malloc()
    install(task.overlay)
    try:
        recs = _batch(task) if task.path == "batch" else _scalar(task)
    except UmpireError:
        raise
    except Exception as exc:
        if not task.varied:
            raise  # the shipped rules failing is a bug: keep its traceback
        end = task.start + len(task.seeds) - 1
        raise UmpireError(
            f"the variant's battles {task.start}-{end} failed ({type(exc).__name__}: {exc}); "
            "are the varied rules consistent?"
        ) from None
    return task.arm, task.start, recs


def _scalar(task: Task) -> list[Record]:
    """Each battle as ``umpire battle SCENARIO --seed SEED`` plays it, AI against AI (or on
    from ``task.position`` on the same fresh dice)."""
    from umpire.ai import make_policy
    from umpire.battle.run import play
    from umpire.lab.playon import play_from

    out = []
    kinds = dict(task.players)
    for k, seed in enumerate(task.seeds):
        pols: dict[str, Any] = {side: make_policy(kinds.get(side, "ai"), seed) for side in SIDES}
        if task.position is None:
            res = play(task.scen, seed, pols)
        else:
            res = play_from(task.position, seed, pols)
        out.append(
            {
                "i": task.start + k,
                "seed": seed,
                "winner": res.winner,
                "turns": res.turns,
                "losses": {s: int(res.losses.get(s, 0)) for s in SIDES},
                "removed": {s: int(res.removed.get(s, 0)) for s in SIDES},
                "leaders_lost": {s: int(res.leaders_lost.get(s, 0)) for s in SIDES},
                "broke": {s: res.broke.get(s) for s in SIDES},
                "events": dict(sorted(res.tally.items())),
                "dice": len(res.faces),
                "path": "scalar",
            }
        )
    return out


def _batch(task: Task) -> list[Record]:
    """The batch simulator with each battle's own dice stream: the scalar engine's battles."""
    from umpire.battle.victory import is_broken
    from umpire.dice.bulk import Dice
    from umpire.lab import batch_simulator

    scen = task.scen
    sim = batch_simulator(scen)
    n = len(task.seeds)
    out_ = sim.run_batch(scen, n, dice=Dice.per_battle(list(task.seeds)))
    order = tuple(sim.SIDES)
    names = (*order, "draw")
    units0 = {s: sum(1 for u in scen.units if u.side == s) for s in SIDES}
    frac = {s: scen.sides[s].break_fraction if s in scen.sides else 0.5 for s in SIDES}
    winner = out_.winner.tolist()
    turns = out_.turns.tolist()
    losses = out_.losses.tolist()
    removed = out_.removed.tolist()
    leaders = out_.leaders_lost.tolist()
    dice = out_.dice_each.tolist()
    col = {s: order.index(s) for s in SIDES}
    out = []
    for k in range(n):
        rem = {s: int(removed[k][col[s]]) for s in SIDES}
        out.append(
            {
                "i": task.start + k,
                "seed": task.seeds[k],
                "winner": names[winner[k]],
                "turns": int(turns[k]),
                "losses": {s: int(losses[k][col[s]]) for s in SIDES},
                "removed": rem,
                "leaders_lost": {s: int(leaders[k][col[s]]) for s in SIDES},
                "broke": {
                    s: int(turns[k]) if is_broken(units0[s], rem[s], frac[s]) else None
                    for s in SIDES
                },
                "events": {},
                "dice": int(dice[k]),
                "path": "batch",
            }
        )
    return out
