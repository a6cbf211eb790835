"""Seed 002's rules as arrays for the batch simulator, read from the scalar engine's
``Rules`` and built by its functions (:data:`N`: numba's copy of ``numeric``), by codes."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from itertools import product
from typing import Any

import numpy as np
from numpy.typing import NDArray

from umpire import jit
from umpire.rules.quick_acw import numeric, odds
from umpire.rules.quick_acw import rules as R

I = NDArray[np.signedinteger[Any]]  # noqa: E741
F = NDArray[np.float64]
B = NDArray[np.bool_]

N: Any = jit.twin(numeric)
"""Seed 002's rules as numba compiles them (``numeric``; the scalar engine's source)."""
TYPES = R.TYPES
FORMS = ("line", "column")
FIRE_CLASSES = numeric.FIRE_ROWS
MOVE_KEYS = numeric.MOVE_ROWS
FOOT, CAV, ART = numeric.FOOT, numeric.CAVALRY, numeric.ARTILLERY
LINE, COLUMN = 0, 1
NO_CHANGE, FORMATION, MOUNT = numeric.NO_CHANGE, numeric.FORMATION, numeric.MOUNT


@dataclass(frozen=True, slots=True, eq=False)
class Tables:
    """The tables of one ``Rules`` object as arrays indexed by the codes above."""

    r: R.Rules
    morale: I  # per side
    bands: F
    fire_table: I  # (fire class, band)
    max_range: F  # per fire class
    melee_rows: I  # (|difference| 0..cap, 4): win loss, win retreat, lose loss, lose retreat


@cache
def tables(r: R.Rules | None = None) -> Tables:
    """The arrays of a rules object (the built-in seed 002 rules by default), built once."""
    r = r or R.rules()
    fire_table = np.array([r.fire_table[k] for k in FIRE_CLASSES], dtype=np.int64)
    max_range = np.array(
        [
            max([b for b, n in zip(r.fire_bands, row, strict=True) if n] or [0.0])
            for row in fire_table
        ],
        dtype=float,
    )
    cap = max(row.high if row.high < 99 else row.low for row in r.melee_rows) + 1
    rows = np.zeros((cap + 1, 4), dtype=np.int64)
    for d in range(cap + 1):
        row = R.melee_row(d, r)  # the scalar look-up, once per difference
        rows[d] = (row.win_loss, row.win_retreat, row.lose_loss, row.lose_retreat)
    return Tables(
        r,
        np.array([r.sides[s].morale for s in r.order], dtype=np.int64),
        np.array(r.fire_bands, dtype=float),
        fire_table,
        max_range,
        rows,
    )


# -- look-ups the simulator's bookkeeping makes over many units ------------------------


_fire_row, _stands_lost = N.fire_row, N.stands_lost


@jit.kernel
def fire_rows(utype: I, mounted: B, limbered: B) -> I:
    """``numeric.fire_row`` of units of types ``utype`` (n) in battles (m, n)."""
    m, n = mounted.shape[0], mounted.shape[1]
    out = np.empty((m, n), dtype=np.int64)
    for b in range(m):
        for u in range(n):
            out[b, u] = _fire_row(utype[u], mounted[b, u], limbered[b, u])
    return out


@jit.kernel
def stands_lost(roll: I, needed: I, mod: I, margin: int) -> I:
    """``numeric.stands_lost`` of each shot."""
    out = np.empty(roll.shape[0], dtype=np.int64)
    for q in range(roll.shape[0]):
        out[q] = _stands_lost(roll[q], needed[q], mod[q], margin)
    return out


def melee_row(t: Tables, difference: I) -> tuple[I, B, I, B]:
    """Seed 002 MELEE difference table: (win loss, win retreats, lose loss, lose retreats)."""
    row = t.melee_rows[np.minimum(np.abs(difference), len(t.melee_rows) - 1)]
    return row[..., 0], row[..., 1].astype(bool), row[..., 2], row[..., 3].astype(bool)


# -- tables the kernels read -----------------------------------------------------------

ES_LO, ES_HI = -20, 40  # ``needed - modifier`` in the expected-stands table (beyond: the ends)
CH_LO, CH_HI = 2, 13  # a morale roll's ``number - modifier`` (2d6 >= 2 always, >= 13 never)
CH_DIFF = 24  # melee modifier differences clipped to +-24 (2d6 - 2d6 spans only +-10)


@cache
def fire_runs(t: Tables) -> tuple[I, I]:
    """Per fire class and band: the score needed (0 none) and its run of equal scores (a
    range between two bands of one run needs no exact measure)."""
    need = np.zeros((len(t.fire_table), len(t.bands) + 1), dtype=np.int64)
    need[:, : len(t.bands)] = t.fire_table
    run = np.zeros(need.shape, dtype=np.int64)
    run[:, 1:] = np.cumsum(need[:, 1:] != need[:, :-1], axis=1)
    return need, run


@cache
def fire_modifier_table(t: Tables) -> I:
    """Seed 002 FIRE "Die Roll Modifiers" summed by the scalar ``rules.fire_modifiers`` for
    every combination of the facts ``kfire.shots`` indexes them by (flat)."""
    two = (False, True)
    combos = product(range(2), range(3), range(2), two, range(3), two, range(2), two)

    def total(k: tuple[Any, ...]) -> int:
        s, f, a, mk, u, mt, b, c = k
        fa = R.FireFacts(t.r.order[s], FIRE_CLASSES[f], FORMS[a], mk, TYPES[u], mt, FORMS[b], c)
        return sum(m.value for m in R.fire_modifiers(fa, t.r))

    return np.array([total(k) for k in combos], dtype=np.int64)


@cache
def melee_modifier_table(t: Tables) -> I:
    """Seed 002 MELEE "Add" list summed by the scalar ``rules.melee_modifiers`` for every
    side, type, mounted, formation, attacking, wall or stream, uphill, marker and flank
    (codes in that order, flat), as (sum, per stand, per leader bonus): the sum is linear
    in those two, so a unit's modifier is one look-up in ``kcharge.melee_mod``."""
    two = (False, True)
    combos = product(range(2), range(3), two, range(2), two, two, two, two, two)

    def total(k: tuple[Any, ...], n: int, ldr: int) -> int:
        s, u, mt, f, at, ob, up, mk, fl = k
        facts = R.MeleeFacts(t.r.order[s], TYPES[u], mt, FORMS[f], n, at, ob, up, mk, ldr, fl)
        return sum(m.value for m in R.melee_modifiers(facts, t.r))

    return np.array(
        [(total(k, 0, 0), total(k, 1, 0) - total(k, 0, 0), total(k, 0, 1) - total(k, 0, 0))
         for k in combos],
        dtype=np.int64,
    )  # fmt: skip


@cache
def expected_stands_table(r: R.Rules | None = None) -> F:
    """``odds.expected_stands(needed, mod)`` for ``needed - mod`` in ES_LO..ES_HI."""
    r = r or R.rules()
    return np.array([odds.expected_stands(x, 0, r) for x in range(ES_LO, ES_HI + 1)])


@cache
def charge_table() -> F:
    """``odds.charge_favourable`` over (charge need, stand need, melee difference): the
    scalar AI's floats, which depend on those differences only."""
    n = CH_HI - CH_LO + 1
    out = np.zeros((n, n, 2 * CH_DIFF + 1))
    for a in range(n):
        for d in range(n):
            for k in range(2 * CH_DIFF + 1):
                out[a, d, k] = odds.charge_favourable(a + CH_LO, 0, d + CH_LO, 0, k - CH_DIFF, 0)
    return out
