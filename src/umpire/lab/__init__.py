"""The lab: many battles of one scenario, AI against AI, under one or more rule variants.

``umpire simulate`` (``umpire.cli.lab_cmd``) plays N battles per arm. Battle ``i`` of a run
seeded ``S`` has its own dice seed, :func:`battle_seed` (S, i), and is exactly
``umpire battle SCENARIO --seed battle_seed(S, i)`` AI against AI, whichever path plays
it: the batch simulator where a module offers one for the scenario's rules (its
``batch`` seam: seed 002's plays N battles in lock step with numpy and each battle's own
dice stream), the scalar engine everywhere else. See docs/lab.md.

``run_batch(scenario, n, seed)`` plays one batch on a single bulk dice stream
(``SeededSource(seed)``), keeping every face, so ``run_batch(..., faces=...)`` re-runs it
exactly (used to test the batch simulator; the lab itself draws per battle).
"""

from __future__ import annotations

import hashlib
import math
from typing import Any

from umpire.scenarios import Scenario

__all__ = [
    "Z95",
    "batch_seed",
    "batch_simulator",
    "batch_unavailable",
    "battle_seed",
    "run_batch",
    "wilson",
]

Z95 = 1.959963984540054
"""The two-sided 95% normal quantile."""


def battle_seed(seed: int, i: int) -> int:
    """The dice seed of battle ``i`` of a run seeded ``seed``: 48 bits of SHA-256.

    Reading ``battle_seeds`` (docs/lab.md): hashed rather than ``seed + i`` so runs with
    nearby seeds share no battles; 48 bits so ``umpire battle --seed`` takes it as it is.
    """
    digest = hashlib.sha256(f"umpire-lab/{seed}/{i}".encode()).digest()
    return int.from_bytes(digest[:6], "big")


def batch_simulator(scen: Scenario, *, need: bool = True) -> Any:
    """The batch simulator of a scenario's rules (a module's ``batch`` seam); None, or an
    error when ``need``, where no module offers one."""
    from umpire.battle.compose import compose_for
    from umpire.errors import UmpireError

    comp = compose_for(scen)
    for module in comp.modules.values():
        offer = getattr(module, "batch", None)
        found = offer(comp) if offer is not None else None
        if found is not None:
            return found
    if not need:
        return None
    raise UmpireError(
        f"no batch simulator plays these rules ({comp.describe()}); "
        "the batch simulator covers pure quick-acw battles"
    )


def batch_unavailable(sim: Any) -> str | None:
    """Why a batch simulator cannot run in this process (its ``unavailable()``), or None."""
    why = getattr(sim, "unavailable", None)
    return why() if why is not None else None


def prepare_batch(scen: Scenario) -> bool:
    """Let the scenario's batch simulator get ready before workers start (compile its
    kernels once, so that each worker loads them ready); True where it had work to do."""
    prep = getattr(batch_simulator(scen, need=False), "prepare", None)
    return bool(prep(scen)) if prep is not None else False


def run_batch(scen: Scenario, n: int, seed: int | None = None, **kw: Any) -> Any:
    """Play ``n`` battles of ``scen`` at once on its rules' batch simulator (see there)."""
    return batch_simulator(scen).run_batch(scen, n, seed, **kw)


def batch_seed(seed: int, b: int) -> int:
    """The bulk dice seed of batch ``b`` of a seed (batch 0 uses ``seed``)."""
    return seed + (b << 64)


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
