"""The lab: many battles of one scenario, AI against AI, summarised with intervals.

``simulate`` runs as many batches as needed and summarises them (win rates with
confidence intervals, turns, losses). Where the scenario's rules have a batch simulator
(a module's ``batch`` seam: seed 002's plays N battles in lock step with numpy, the very
battles the scalar engine plays with the same dice; see ``docs/battle.md``),
``run_batch(scenario, n, seed)`` plays one batch on it and returns every battle's
outcome and the dice faces it drew.

Dice: one ``SeededSource`` per batch (batch ``b`` of a run seeded ``S`` uses
``SeededSource(S + b * 2**64)``), drawn in bulk; every batch's faces are kept, and
``run_batch(..., faces=...)`` re-runs a batch exactly from them.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from umpire.scenarios import Scenario

__all__ = ["Summary", "batch_seed", "batch_simulator", "run_batch", "simulate"]

BATCH = 8192
"""Battles per batch: large enough that numpy's per-call cost is spread thin."""

Z95 = 1.959963984540054
"""The two-sided 95% normal quantile."""


def batch_simulator(scen: Scenario) -> Any:
    """The batch simulator of a scenario's rules, or raise when none covers them."""
    from umpire.battle.compose import compose_for
    from umpire.errors import UmpireError

    comp = compose_for(scen)
    for module in comp.modules.values():
        offer = getattr(module, "batch", None)
        found = offer(comp) if offer is not None else None
        if found is not None:
            return found
    raise UmpireError(
        f"no batch simulator plays these rules ({comp.describe()}); "
        "the batch simulator covers pure quick-acw battles"
    )


def run_batch(scen: Scenario, n: int, seed: int | None = None, **kw: Any) -> Any:
    """Play ``n`` battles of ``scen`` at once on its rules' batch simulator (see there)."""
    return batch_simulator(scen).run_batch(scen, n, seed, **kw)


def batch_seed(seed: int, b: int) -> int:
    """The dice seed of batch ``b`` of a run seeded ``seed`` (batch 0 uses ``seed``)."""
    return seed + (b << 64)


@dataclass(frozen=True, slots=True)
class Summary:
    """What many battles came to: counts, rates with 95% intervals, means."""

    scenario: str
    battles: int
    seed: int
    batch: int
    sides: tuple[str, str]
    wins: tuple[int, int, int]  # side 0, side 1, draws
    turns_mean: float
    turns_sd: float
    lost_mean: tuple[float, float]
    lost_sd: tuple[float, float]
    removed_mean: tuple[float, float]
    dice: int
    seconds: float

    def win_rate(self, k: int) -> tuple[float, float, float]:
        """(rate, low, high): Wilson's 95% interval for outcome ``k`` (0, 1 or 2 = draw)."""
        return (self.wins[k] / self.battles, *wilson(self.wins[k], self.battles))

    def mean_ci(self, mean: float, sd: float) -> tuple[float, float]:
        """A normal 95% interval for a mean over these battles."""
        half = Z95 * sd / math.sqrt(self.battles)
        return mean - half, mean + half

    def to_json(self) -> dict[str, object]:
        """The summary as plain JSON values."""
        names = (*self.sides, "draw")
        rate = {}
        for k, name in enumerate(names):
            p, lo, hi = self.win_rate(k)
            rate[name] = {"wins": self.wins[k], "rate": p, "ci95": [lo, hi]}
        return {
            "scenario": self.scenario,
            "battles": self.battles,
            "seed": self.seed,
            "batch": self.batch,
            "results": rate,
            "turns": {
                "mean": self.turns_mean,
                "sd": self.turns_sd,
                "ci95": list(self.mean_ci(self.turns_mean, self.turns_sd)),
            },
            "stands_lost": {
                side: {
                    "mean": self.lost_mean[i],
                    "sd": self.lost_sd[i],
                    "ci95": list(self.mean_ci(self.lost_mean[i], self.lost_sd[i])),
                }
                for i, side in enumerate(self.sides)
            },
            "units_removed": {side: self.removed_mean[i] for i, side in enumerate(self.sides)},
            "dice": self.dice,
            "seconds": self.seconds,
            "battles_per_second": self.battles / self.seconds if self.seconds else None,
            "dice_source": "umpire SeededSource, one per batch (batch b: seed + b * 2**64)",
        }


def wilson(k: int, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson's score interval for a proportion ``k / n``."""
    if n == 0:
        return 0.0, 1.0
    p = k / n
    den = 1 + z * z / n
    mid = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    lo = 0.0 if k == 0 else max(0.0, mid - half)
    hi = 1.0 if k == n else min(1.0, mid + half)
    return lo, hi


def simulate(
    scen: Scenario,
    n: int,
    seed: int,
    *,
    batch: int = BATCH,
    name: str = "",
    on_finish: Callable[[int], None] | None = None,
) -> Summary:
    """Play ``n`` battles in batches of at most ``batch`` and summarise them."""
    sim = batch_simulator(scen)
    if n < 1 or batch < 1:
        raise ValueError("the number of battles and the batch size must be at least 1")
    t0 = time.perf_counter()
    outs = []
    count = math.ceil(n / batch)
    for b in range(count):  # batches of near-equal size, none larger than ``batch``
        size = n * (b + 1) // count - n * b // count
        outs.append(sim.run_batch(scen, size, batch_seed(seed, b), on_finish=on_finish))
    secs = time.perf_counter() - t0
    winner = np.concatenate([o.winner for o in outs])
    turns = np.concatenate([o.turns for o in outs]).astype(float)
    lost = np.concatenate([o.losses for o in outs]).astype(float)
    removed = np.concatenate([o.removed for o in outs]).astype(float)
    counts = np.bincount(winner, minlength=3)
    order = sim.SIDES
    return Summary(
        name or scen.name,
        n,
        seed,
        batch,
        (order[0], order[1]),
        (int(counts[0]), int(counts[1]), int(counts[2])),
        float(turns.mean()),
        float(turns.std(ddof=1)) if n > 1 else 0.0,
        (float(lost[:, 0].mean()), float(lost[:, 1].mean())),
        (
            float(lost[:, 0].std(ddof=1)) if n > 1 else 0.0,
            float(lost[:, 1].std(ddof=1)) if n > 1 else 0.0,
        ),
        (float(removed[:, 0].mean()), float(removed[:, 1].mean())),
        sum(o.dice for o in outs),
        secs,
    )
