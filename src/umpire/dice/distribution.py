"""Exact probability distributions of dice expressions, as Fractions.

``Distribution`` itself is light; ``exact_distribution`` builds one icepool Die per tree node and
imports icepool only when called, so rolling never pays for it. No sampling is involved.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from umpire.dice.notation import COMPARE_OPS, D66, Const, Count, Dice, Div, Node

if TYPE_CHECKING:
    from umpire.dice.notation import DiceExpr

__all__ = ["Distribution", "exact_distribution"]


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


def exact_distribution(expr: DiceExpr) -> Distribution:
    """The exact distribution of ``expr.roll()``'s total (cached per expression)."""
    return _exact(expr)


@lru_cache(maxsize=512)
def _exact(expr: DiceExpr) -> Distribution:
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
