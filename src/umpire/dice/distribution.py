"""Exact probability distributions of dice expressions, as Fractions.

``Distribution`` itself is light; ``exact_distribution`` builds one icepool Die per tree node and
imports icepool only when called, so rolling never pays for it. No sampling is involved.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from umpire.dice.notation import COMPARE_OPS, D66, Const, Count, Dice, Div, Node, Sum
from umpire.errors import NotationError

if TYPE_CHECKING:
    from umpire.dice.notation import DiceExpr

__all__ = ["MAX_ODDS_COST", "Distribution", "check_odds_cost", "exact_distribution", "odds_cost"]

#: The most work exact odds may take, in ``odds_cost`` steps. One step is one pair of outcomes
#: icepool combines, about 0.3 microseconds on the reference machine (benchmarks/RESULTS.md,
#: "Issue 21"), so the limit allows about a second; benchmarks/bench_odds_cost.py measures it.
MAX_ODDS_COST = 3_000_000


@dataclass(frozen=True, slots=True)
class Distribution:
    """Exact probabilities of each total: ``outcomes`` is ``((value, p), ...)`` sorted by value.

    Only values with a non-zero probability are listed; for a comparison the values are
    False and True (in that order).
    """

    outcomes: tuple[tuple[int | bool, Fraction], ...]

    def __post_init__(self) -> None:
        if not self.outcomes:
            raise ValueError("a distribution needs at least one outcome")
        if sum(p for _, p in self.outcomes) != 1:
            raise ValueError("probabilities must add up to 1")

    def __iter__(self) -> Iterator[tuple[int | bool, Fraction]]:
        return iter(self.outcomes)

    def __len__(self) -> int:
        return len(self.outcomes)

    @property
    def values(self) -> tuple[int | bool, ...]:
        """The possible values, sorted."""
        return tuple(v for v, _ in self.outcomes)

    @property
    def is_comparison(self) -> bool:
        """True if the values are booleans (the expression compares its total)."""
        return isinstance(self.outcomes[0][0], bool)

    @property
    def min(self) -> int | bool:
        """The smallest possible value."""
        return self.outcomes[0][0]

    @property
    def max(self) -> int | bool:
        """The largest possible value."""
        return self.outcomes[-1][0]

    @property
    def mean(self) -> Fraction:
        """The expected value (for a comparison: the probability of True)."""
        return sum((p * int(v) for v, p in self.outcomes), Fraction(0))

    def probability(self, value: int | bool) -> Fraction:
        """P(total == value); 0 for an impossible value."""
        for v, p in self.outcomes:
            if v == value and isinstance(v, bool) == isinstance(value, bool):
                return p
        return Fraction(0)

    def p_at_least(self, value: int) -> Fraction:
        """P(total >= value)."""
        return sum((p for v, p in self.outcomes if v >= value), Fraction(0))

    def p_at_most(self, value: int) -> Fraction:
        """P(total <= value)."""
        return sum((p for v, p in self.outcomes if v <= value), Fraction(0))

    def to_json(self) -> list[dict[str, Any]]:
        """``[{"value": v, "p": "a/b"}, ...]`` with exact fractions as text."""
        return [{"value": v, "p": f"{p.numerator}/{p.denominator}"} for v, p in self.outcomes]


def odds_cost(expr: DiceExpr) -> int:
    """An estimate, made without icepool, of the work exact odds of ``expr`` take (in steps).

    It follows what icepool does for each tree node: ``NdS`` adds one die at a time (each
    step combines every total so far with every face), keeping dice walks the faces with a
    state per (dice kept, their sum), a sum combines every value of the left with every value
    of the right, and every value of the result becomes a Fraction.
    """
    cost, (lo, hi) = _cost(expr.body)
    return cost + 30 * (hi - lo + 1)


def check_odds_cost(expr: DiceExpr) -> None:
    """Refuse, in one line naming ``expr`` and the limit, exact odds that would take too long."""
    cost = odds_cost(expr)
    if cost > MAX_ODDS_COST:
        raise NotationError(
            f"{str(expr)[:100]!r}: exact odds would take about {cost:,} steps, more than the "
            f"{MAX_ODDS_COST:,} allowed (about a second); use fewer dice or fewer sides"
        )


def _cost(node: Node) -> tuple[int, tuple[int, int]]:
    """(estimated steps, (lowest, highest) value) of one tree node."""
    if isinstance(node, Const):
        return 1, (node.value, node.value)
    if isinstance(node, Dice):
        n, s = node.count, node.sides
        if node.keep is None:
            # icepool sums one die at a time: step i combines i*(s-1)+1 totals with s faces.
            return s * ((s - 1) * n * (n - 1) // 2 + n), (n, n * s)
        k = node.keep_count
        # a pool walks the s faces (one Python frame each, about 15,000 steps' time) with
        # k*(s-1)+1 sums of k+1 counts; fitted on benchmarks/bench_odds_cost.py's grid.
        return 7 * s * s * k * k * n // 10 + 15000 * s, (k, k * s)
    if isinstance(node, D66):
        return 72, (11, 66)
    if isinstance(node, Count):
        n = node.dice.count
        return 2 * n * n + node.dice.sides, (0, n)
    if isinstance(node, Div):
        cost, (lo, hi) = _cost(node.operand)
        k = node.divisor
        return cost + hi - lo + 1, ((-(-lo // k), -(-hi // k)) if node.ceil else (lo // k, hi // k))
    total = 0
    acc: tuple[int, int] | None = None
    for sign, term in node.terms:
        cost, (lo, hi) = _cost(term)
        if sign < 0:
            lo, hi = -hi, -lo
        total += cost
        if acc is None:
            acc = (lo, hi)
        else:
            # Die + Die: every pair, about three times NdS's step (the grid measures it)
            total += 3 * (acc[1] - acc[0] + 1) * (hi - lo + 1)
            acc = (acc[0] + lo, acc[1] + hi)
    assert acc is not None
    return total, acc


def exact_distribution(expr: DiceExpr) -> Distribution:
    """The exact distribution of ``expr.roll()``'s total (cached per expression).

    Raises a one-line NotationError (``check_odds_cost``) when the estimate is over
    ``MAX_ODDS_COST``, before any work is done.
    """
    check_odds_cost(expr)
    return _exact(expr)


@contextmanager
def _stack_for(expr: DiceExpr) -> Iterator[None]:
    """Room on the stack for icepool's pools, which recurse once per face (a d1000: 1000)."""
    need = max((n.sides for n in _dice_nodes(expr.body) if n.keep is not None), default=0)
    old = sys.getrecursionlimit()
    want = need + 2000 if need else old
    if want > old:
        sys.setrecursionlimit(want)
    try:
        yield
    finally:
        if want > old:
            sys.setrecursionlimit(old)


def _dice_nodes(node: Node) -> Iterator[Dice]:
    if isinstance(node, Dice):
        yield node
    elif isinstance(node, Div):
        yield from _dice_nodes(node.operand)
    elif isinstance(node, Sum):
        for _, term in node.terms:
            yield from _dice_nodes(term)


@lru_cache(maxsize=512)
def _exact(expr: DiceExpr) -> Distribution:
    with _stack_for(expr):
        die = _die(expr.body)
    if expr.op is not None:
        check, target = COMPARE_OPS[expr.op], expr.target
        assert target is not None
        die = die.map(lambda x: bool(check(x, target)))
        cast_value: Any = bool
    else:
        cast_value = int
    denominator = die.denominator()
    outcomes = sorted(
        (cast_value(v), Fraction(int(q), int(denominator))) for v, q in die.items() if q
    )
    return Distribution(tuple(outcomes))


def _die(node: Node) -> Any:
    """An icepool Die for one tree node."""
    import icepool

    if isinstance(node, Const):
        return icepool.Die([node.value])
    if isinstance(node, Dice):
        single = icepool.d(node.sides)
        if node.keep is None:
            return node.count @ single
        pool = single.pool(node.count)
        kept = pool.highest(node.keep_count) if node.keep == "kh" else pool.lowest(node.keep_count)
        return kept.sum()
    if isinstance(node, D66):
        return 10 * icepool.d(6) + icepool.d(6)
    if isinstance(node, Count):
        check, target = COMPARE_OPS[node.op], node.target
        hit = icepool.d(node.dice.sides).map(lambda f: 1 if check(f, target) else 0)
        return node.dice.count @ hit
    if isinstance(node, Div):
        k = node.divisor
        inner = _die(node.operand)
        if node.ceil:
            return inner.map(lambda x: -(-x // k))
        return inner.map(lambda x: x // k)
    total = None
    for sign, term in node.terms:
        part = _die(term)
        if total is None:
            total = part if sign > 0 else -part
        else:
            total = total + part if sign > 0 else total - part
    return total
