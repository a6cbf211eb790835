"""The batch simulator of quick ACW: N battles of one scenario in lock step.

A second implementation of the scalar engine's seed 002 rules and of the scripted AI
(``umpire.rules.quick_acw.ai``): given the scalar engine's dice it plays the very same
battles (docs/battle.md, "The lab"). The lab reaches it through the module's
``batch`` seam, never by importing it. It runs on numba's compiled kernels only: where
they are off (``umpire.jit.ENABLED``) :func:`unavailable` says why, and the lab plays the
same battles on the scalar engine.
"""

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
    """Why the batch simulator cannot run here (its kernels need numba, Python 3.11 and
    ``UMPIRE_JIT`` not 0), or None where it can."""
    return None if jit.ENABLED else (jit.WHY_OFF or "numba is not available")


def run_batch(
    scen: Scenario,
    n: int,
    seed: int | None = None,
    *,
    faces: NDArray[np.uint8] | None = None,
    dice: Dice | None = None,
    on_finish: Callable[[int], None] | None = None,
) -> Outcome:
    """Play ``n`` battles of ``scen`` at once, AI against AI.

    Dice from ``SeededSource(seed)``, or the kept ``faces`` of an earlier batch (the
    batch is then played again exactly), or any :class:`~umpire.dice.bulk.Dice`.
    ``on_finish(k)`` is told whenever ``k`` more battles have ended. Refused where the
    kernels are off (:func:`unavailable`).
    """
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
    """Compile the simulator's numba kernels (or load them from numba's cache) by playing
    a few battles here, before the lab's workers start, so that they find them cached;
    False where the kernels are off (``umpire.jit``)."""
    if not jit.ENABLED:
        return False
    run_batch(scen, PREPARE_BATTLES, 0)
    return True


PREPARE_BATTLES = 32
"""Battles played to get the kernels ready: enough for every step to be taken (a kernel
first called in a worker is compiled there)."""
