"""The batch simulator and the scalar engine are one rule set: same dice, same battles;
own dice, the same outcome distribution.

Each scenario plays 400 scalar battles (seeds 0..399). The lab then plays

- the same 400 battles with each battle's own ``SeededSource(seed)`` stream, as the
  scalar engine draws them: every battle must end the same (winner, turns, stands lost
  per side, dice drawn). This needs numpy's cos/sin to be the C library's (true here;
  where not, this part is skipped and the distribution test still runs);
- 400 battles on its own bulk stream (one ``SeededSource`` per batch): win rates per
  side, mean turns and mean stands lost per side must agree within 4 standard errors of
  the difference.
"""

from __future__ import annotations

import math
import random

import numpy as np
import pytest

from umpire import jit
from umpire.ai import make_policy
from umpire.battle.run import play
from umpire.battle.scenario import load_scenario
from umpire.dice.bulk import Dice
from umpire.errors import DiceSourceError
from umpire.lab import batch_seed, run_batch, wilson
from umpire.rules.quick_acw.batch.sim import Sim
from umpire.rules.quick_acw.batch.static import static_for
from umpire.rules.quick_acw.rules import rules

N = 400
SE = 4.0

pytestmark = pytest.mark.skipif(
    not jit.ENABLED,
    reason="the batch simulator runs on numba's kernels; without them the lab plays the "
    "scalar engine (tests/test_lab_simulate.py)",
)


def numpy_trig_is_libm() -> bool:
    """Do numpy's cos and sin give the math module's floats on this machine?"""
    rng = random.Random(7)
    xs = [rng.uniform(-7, 7) for _ in range(20000)]
    a = np.array(xs)
    return np.cos(a).tolist() == [math.cos(x) for x in xs] and np.sin(a).tolist() == [
        math.sin(x) for x in xs
    ]


def scalar_outcomes(name: str, n: int) -> dict[str, np.ndarray]:  # type: ignore[type-arg]
    scen = load_scenario(name)
    pols = {"union": make_policy("ai"), "confederate": make_policy("ai")}
    order = rules().order
    code = {order[0]: 0, order[1]: 1, "draw": 2}
    out: dict[str, list[object]] = {"winner": [], "turns": [], "losses": [], "dice": []}
    for seed in range(n):
        res = play(scen, seed, pols)
        out["winner"].append(code[res.winner])
        out["turns"].append(res.turns)
        out["losses"].append([res.losses[order[0]], res.losses[order[1]]])
        out["dice"].append(len(res.faces))
    return {k: np.array(v) for k, v in out.items()}


def agree(a: np.ndarray, b: np.ndarray, what: str) -> None:  # type: ignore[type-arg]
    """The means of two samples agree within SE standard errors of their difference."""
    a, b = a.astype(float), b.astype(float)
    se = math.sqrt(a.var(ddof=1) / len(a) + b.var(ddof=1) / len(b))
    se = max(se, 1.0 / len(a))  # a rate of 0 or 1 on both sides: allow one battle
    assert abs(a.mean() - b.mean()) <= SE * se, (what, a.mean(), b.mean(), se)


@pytest.mark.parametrize("name", ["standard", "mcpherson_ridge"])
def test_lab_agrees_with_the_scalar_engine(name: str) -> None:
    """Same dice: the same battles, one by one. Own dice: the same distributions."""
    want = scalar_outcomes(name, N)
    scen = load_scenario(name)
    if numpy_trig_is_libm():
        sim = Sim(static_for(scen), N, Dice.per_battle(list(range(N))))
        sim.run()
        got = sim.outcome()
        assert got.winner.tolist() == want["winner"].tolist()
        assert got.turns.tolist() == want["turns"].tolist()
        assert got.losses.tolist() == want["losses"].tolist()
        counts = sim.dice.counts()
        assert counts is not None and counts.tolist() == want["dice"].tolist()
    own = run_batch(scen, N, batch_seed(2024, 0))
    for k, side in enumerate(rules().order):
        agree(own.winner == k, want["winner"] == k, f"{side} win rate")
        agree(own.losses[:, k], want["losses"][:, k], f"{side} stands lost")
    agree(own.turns, want["turns"], "turns")


def test_a_batch_replays_exactly_from_its_faces() -> None:
    """Every face a batch draws is kept; played again from them it ends identically."""
    scen = load_scenario("mcpherson_ridge")
    first = run_batch(scen, 300, 5)
    assert first.faces.dtype == np.uint8 and len(first.faces) == first.dice > 300 * 50
    assert first.faces.min() >= 1 and first.faces.max() <= 6
    again = run_batch(scen, 300, faces=first.faces)
    for field in ("winner", "turns", "losses", "removed"):
        assert getattr(again, field).tolist() == getattr(first, field).tolist()
    assert again.faces.tolist() == first.faces.tolist()
    other = run_batch(scen, 300, 6)
    assert other.faces.tolist() != first.faces.tolist()
    with pytest.raises(DiceSourceError, match="ran out"):
        run_batch(scen, 300, faces=first.faces[:-10])


def test_batch_end_state_keeps_the_rules_invariants() -> None:
    """No negative stands, removal below half, markers only on units in play, no overlap."""
    from umpire.board.kgeom import overlap

    st = static_for(load_scenario("standard"))
    sim = Sim(st, 200, Dice.seeded(11))
    for p in (0, 1):  # two turns' worth, then look
        for step in (sim.command_step, sim.move_step, sim.rally_step):
            step(p)
        sim.fire_step(1 - p)
        sim.fire_step(p)
        sim.melee_step(p)
    assert (sim.stands >= 0).all()
    assert ((sim.stands * 2 >= st.stands0[None, :]) | ~sim.alive).all()
    assert not (sim.marker & ~sim.alive).any()
    box = (sim.x, sim.y, sim.c, sim.s, sim.hw, sim.hd)
    for r in range(sim.n):
        units = np.flatnonzero(sim.alive[r]).tolist()
        for i, a in enumerate(units):
            for b in units[i + 1 :]:
                pa = [float(v[r, a]) for v in box]
                pb = [float(v[r, b]) for v in box]
                assert not overlap(*pa, *pb, 1e-6)


def test_batch_seeds_and_wilson_ends() -> None:
    """Bulk batches of one seed have their own streams; Wilson's interval closes at 0 and 1."""
    scen = load_scenario("mcpherson_ridge")
    assert wilson(0, 50)[0] == 0.0 and wilson(50, 50)[1] == 1.0
    assert batch_seed(9, 0) == 9 and batch_seed(9, 1) == 9 + 2**64
    one = run_batch(scen, 100, 9)
    assert one.winner.tolist() == run_batch(scen, 100, 9).winner.tolist()
