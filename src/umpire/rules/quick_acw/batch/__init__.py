"""The batch simulator of quick ACW: N battles of one scenario in lock step, the scalar
engine's battles on numba's kernels (the lab reaches it through the ``batch`` seam)."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from numpy.typing import NDArray

from umpire import jit
from umpire.dice.bulk import Dice
from umpire.errors import UmpireError
from umpire.rules.quick_acw.batch.sim import Outcome, Sim
from umpire.rules.quick_acw.batch.static import static_for
from umpire.rules.quick_acw.rules import rules
from umpire.scenarios import Scenario

__all__ = ["SIDES", "Outcome", "prepare", "run_batch", "unavailable"]

SIDES = rules().order
"""The sides in the order the outcome arrays number them."""


def unavailable() -> str | None:
    """Why the batch simulator cannot run here (it needs numba's kernels), or None."""
    return None if jit.ENABLED else (jit.WHY_OFF or "numba is not available")


def run_batch(
    scen: Scenario, n: int, seed: int | None = None, *, faces: NDArray[np.uint8] | None = None,
    dice: Dice | None = None, on_finish: Callable[[int], None] | None = None,
) -> Outcome:  # fmt: skip
    """Play ``n`` battles of ``scen`` at once, AI against AI, with dice from ``seed``, kept
    ``faces`` or ``dice``; ``on_finish(k)``: ``k`` more battles ended."""
    why = unavailable()
    if why is not None:
        raise UmpireError(
            f"{why}: the batch simulator runs on compiled kernels; "
            "the scalar engine plays the same battles"
        )
    if dice is None:
        if faces is not None:
            dice = Dice.replay(faces)
        elif seed is not None:
            dice = Dice.seeded(seed)
        else:
            raise ValueError("give a seed, the faces of a batch, or a Dice")
    sim = Sim(static_for(scen), n, dice, on_finish=on_finish)
    sim.run()
    return sim.outcome()


def prepare(scen: Scenario) -> bool:
    """Compile (or load) the kernels by playing a few battles before the lab's workers
    start; False where the kernels are off."""
    if not jit.ENABLED:
        return False
    run_batch(scen, PREPARE_BATTLES, 0)
    return True


PREPARE_BATTLES = 32
"""Battles played to get the kernels ready: enough for every step to be taken."""
