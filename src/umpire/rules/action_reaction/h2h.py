"""Exact hand-to-hand odds for up to 12 pieces a side (seed 003 XIV), fast.

A dynamic programme over the faces from 6 down to 1. With both sides' dice sorted high to
low, after the faces >= f are placed the attacker holds positions 1..p and the defender
1..q. Placing x attacker and y defender dice of face f then scores, at once:

- for the attacker, its new positions (p, p+x] that face a defender die lower than f:
  positions above q+y and within the defender's m dice;
- the same for the defender, mirrored;
- an unpaired attacker die (position > m) scores when it beats the defender's lowest
  die: its face f beats that lowest die exactly when the defender still has dice to
  place below f (q + y < m); mirrored for the defender.

So the hits depend only on (p, q, x, y), and the state is, per (p, q), a table of counts
over (attacker hits, defender hits). The counts of ordered rolls are whole numbers (at
most 6**24 < 2**63), so the result is exact.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from math import comb

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view
from numpy.typing import NDArray

MAX_DICE = 12
I64 = NDArray[np.int64]


def _scores(n: int, m: int, p: int, q: int, xs: I64, ys: I64) -> tuple[I64, I64]:
    """(attacker hits, defender hits) for placing xs and ys dice of one face, as grids."""
    x = xs[:, None]
    y = ys[None, :]
    pa, qd = p + x, q + y
    att = np.maximum(0, np.minimum(pa, m) - np.maximum(p, qd))
    dfn = np.maximum(0, np.minimum(qd, n) - np.maximum(q, pa))
    # unpaired dice beat the opponent's lowest die when the opponent has dice still lower
    att = att + np.where(qd < m, np.maximum(0, pa - np.maximum(p, m)), 0)
    dfn = dfn + np.where(pa < n, np.maximum(0, qd - np.maximum(q, n)), 0)
    return att.astype(np.int64), dfn.astype(np.int64)


@cache
def strike_counts(n: int, m: int) -> I64:
    """Counts of ordered rolls (out of 6**(n+m)) by (attacker hits, defender hits)."""
    if not (1 <= n <= MAX_DICE and 1 <= m <= MAX_DICE):
        raise ValueError(f"hand-to-hand odds take 1 to {MAX_DICE} dice a side")
    ha, hd = n + 1, m + 1
    state = np.zeros((n + 1, m + 1, ha, hd), dtype=np.int64)
    state[0, 0, 0, 0] = 1
    pad = np.zeros((2 * n + 1, 2 * m + 1), dtype=np.int64)
    # windows[a, d] is the table placed in pad[n:, m:] moved by (n - a, m - d)
    windows = sliding_window_view(pad, (ha, hd))
    steps = {(p, q): _step(n, m, p, q) for p in range(n + 1) for q in range(m + 1)}
    for _face in range(6, 1, -1):
        nxt = np.zeros_like(state)
        for (p, q), (ia, idd, w) in steps.items():
            src = state[p, q]
            if not src.any():
                continue
            pad[n:, m:] = src
            nxt[p:, q:] += w * windows[ia, idd]
        state = nxt
    # the last face (1) takes every die left: one move from each (p, q) to (n, m)
    out: I64 = np.zeros((ha, hd), dtype=np.int64)
    for p in range(n + 1):
        for q in range(m + 1):
            src = state[p, q]
            if not src.any():
                continue
            da, dd = _scores(n, m, p, q, np.array([n - p]), np.array([m - q]))
            a, d = int(da[0, 0]), int(dd[0, 0])
            out[a:, d:] += src[: ha - a, : hd - d]
    return out


def _step(n: int, m: int, p: int, q: int) -> tuple[I64, I64, I64]:
    """From (p, q): the window indexes of every (x, y) move and its weight, as grids."""
    xs = np.arange(n - p + 1, dtype=np.int64)
    ys = np.arange(m - q + 1, dtype=np.int64)
    da, dd = _scores(n, m, p, q, xs, ys)
    wx = np.array([comb(n - p, int(x)) for x in xs], dtype=np.int64)
    wy = np.array([comb(m - q, int(y)) for y in ys], dtype=np.int64)
    w = (wx[:, None] * wy[None, :])[:, :, None, None]
    return n - da, m - dd, w


def strike_distribution(n: int, m: int) -> dict[tuple[int, int], Fraction]:
    """Exact P(attacker hits, defender hits) of one strike of n against m dice."""
    counts = strike_counts(n, m)
    total = 6 ** (n + m)
    return {
        (int(a), int(d)): Fraction(int(counts[a, d]), total)
        for a, d in zip(*np.nonzero(counts), strict=True)
    }


def loser_odds(n: int, m: int) -> dict[str, Fraction]:
    """Exact P(the attacker loses), P(the defender loses), P(neither: equal hits)."""
    out = {"attacker": Fraction(0), "defender": Fraction(0), "": Fraction(0)}
    for (a, d), p in strike_distribution(n, m).items():
        out["attacker" if d > a else "defender" if a > d else ""] += p
    return out
