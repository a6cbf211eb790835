"""Dice for the umpire: notation, reproducible sources, and exact odds.

``parse("2d6+1>=8")`` gives an immutable DiceExpr; ``expr.roll(source)`` draws faces from a
DiceSource (seeded, scripted, physical, committed or joint) and ``expr.distribution()`` gives exact
odds via icepool, which is imported only then. The notation's grammar, the counting rule and
the limits (among them the nesting limit and the cost limit of exact odds: ``nesting_depth``,
``odds_cost``, ``check_odds_cost``, also for the web table) are documented in
``umpire.dice.notation`` and docs/dice.md.
"""

from umpire.dice.distribution import MAX_ODDS_COST, Distribution, check_odds_cost, odds_cost
from umpire.dice.notation import (
    D66,
    MAX_DICE_PER_GROUP,
    MAX_DICE_TOTAL,
    MAX_NESTING,
    MAX_NUMBER,
    MAX_SIDES,
    Const,
    Count,
    Dice,
    DiceExpr,
    Div,
    Node,
    Sum,
    nesting_depth,
    parse,
)
from umpire.dice.results import DieGroup, RollResult
from umpire.dice.sources import (
    CommittedSource,
    DiceSource,
    JointSource,
    NeedFaces,
    PhysicalSource,
    ScriptedSource,
    SeededSource,
    TypedDice,
    check_entropy,
    commitment_of,
    joint_key,
    verify_commitment,
)

__all__ = [
    "D66",
    "MAX_DICE_PER_GROUP",
    "MAX_DICE_TOTAL",
    "MAX_NESTING",
    "MAX_NUMBER",
    "MAX_ODDS_COST",
    "MAX_SIDES",
    "CommittedSource",
    "Const",
    "Count",
    "Dice",
    "DiceExpr",
    "DiceSource",
    "DieGroup",
    "Distribution",
    "Div",
    "JointSource",
    "NeedFaces",
    "Node",
    "PhysicalSource",
    "RollResult",
    "ScriptedSource",
    "SeededSource",
    "Sum",
    "TypedDice",
    "check_entropy",
    "check_odds_cost",
    "commitment_of",
    "joint_key",
    "nesting_depth",
    "odds_cost",
    "parse",
    "verify_commitment",
]
