"""Issue 25 'Orders are typed records, not ``tuple[Any, ...]`` read by position in 50
places': every menu offers records of ``umpire.battle.orders``, every policy decides one,
and no reader in ``src`` takes an order apart by position again."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import pytest

from umpire.ai import make_policy
from umpire.battle import orders as od
from umpire.battle.roles import offered, offers
from umpire.battle.run import play
from umpire.battle.scenario import load_scenario
from umpire.scenarios import shipped

SRC = Path(__file__).resolve().parents[1] / "src" / "umpire"

ORDER_NAMES = frozenset({"order", "o", "act", "typed", "cand", "trip", "back", "target"})
"""Names (and attributes, ``c.order``) that hold an order in the readers."""

NOT_ORDERS = {
    ("rules/quick_acw/roles.py", "self.order[0]"): "the sides' turn order",
    ("rules/quick_acw/roles.py", "self.order[-1]"): "the sides' turn order",
    ("rules/sequence_cards/sequence.py", "self.order[0]"): "the sides' turn order",
    ("rules/cwb_events/clock.py", "order[0]"): "the clock's turn order of sides",
    ("rules/cwb_events/clock.py", "order[1]"): "the clock's turn order of sides",
    ("lab/playon.py", "act[0]"): "who is to act: (side, step)",
    ("lab/playon.py", "act[1]"): "who is to act: (side, step)",
}
"""Subscripts on those names that are not battle orders, with what they are."""

TYPES = frozenset({*od.ORDER_TYPES.values(), od.FireAt, od.FireRound})


def _by_position(node: ast.Subscript) -> bool:
    """Is this a subscript by a literal int (``x[1]``, ``x[-1]``) or a literal slice
    (``x[:3]``, ``x[1:]``)?"""

    def lit(e: ast.expr | None) -> bool:
        if isinstance(e, ast.UnaryOp):
            e = e.operand
        return e is None or (isinstance(e, ast.Constant) and isinstance(e.value, int))

    s = node.slice
    if isinstance(s, ast.Slice):
        return lit(s.lower) and lit(s.upper)
    return s is not None and not isinstance(s, ast.Slice) and lit(s)


def position_reads(root: Path = SRC) -> list[str]:
    """``path:line expression`` of every subscript by position on an order-like name."""
    out = []
    for path in sorted(root.rglob("*.py")):
        rel = path.relative_to(root).as_posix()
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if not isinstance(node, ast.Subscript) or not _by_position(node):
                continue
            v = node.value
            name = v.id if isinstance(v, ast.Name) else getattr(v, "attr", None)
            if name in ORDER_NAMES and (rel, ast.unparse(node)) not in NOT_ORDERS:
                out.append(f"{rel}:{node.lineno} {ast.unparse(node)}")
    return out


def test_no_order_is_read_by_position_in_src() -> None:
    """Issue 25: readers use the record's fields (``order.kind``, ``order.t``,
    ``order.x``), not ``order[0]`` / ``c.order[1]``, which break silently when a kind's
    fields change."""
    assert position_reads() == []


def test_the_scan_finds_a_position_read(tmp_path: Path) -> None:
    """The scan can fail: the reads the issue counted are caught."""
    (tmp_path / "m.py").write_text(
        "def f(order, c, act):\n"
        "    return order[0] == 'move', c.order[1], act[2], order[:3], order.x, order[i]\n"
    )
    assert sorted(position_reads(tmp_path)) == [
        "m.py:2 act[2]",
        "m.py:2 c.order[1]",
        "m.py:2 order[0]",
        "m.py:2 order[:3]",
    ]


class Checking:
    """A policy that checks every offer and its own decision is an orders record."""

    def __init__(self, kind: str, seed: int) -> None:
        self.inner = make_policy(kind, seed)
        self.kind = self.inner.kind
        self.seen: set[str] = set()

    def decide(self, b: Any, req: Any) -> Any:
        for c in [*offers(b, req), *offered(b, req)]:
            assert type(c.order) in TYPES, (req, c.order)
            assert c.order.kind == c.order[0]
            self.seen.add(type(c.order).__name__)
        for f in offers(b, req):
            o = f.order
            if o.kind == "move" or o.kind == "leader":  # a lazy offer's place is its order's
                assert f.at() == (o.x, o.y)
        order = self.inner.decide(b, req)
        assert type(order) in TYPES, (req, order)
        return order


@pytest.mark.parametrize("kind", ["ai", "random", "hard"])
@pytest.mark.parametrize("name", sorted(shipped()))
def test_every_offer_and_decision_is_a_typed_order(name: str, kind: str) -> None:
    """Issue 25: every module's menus (seed 001 events, 002, 003, 004) offer typed orders
    and every policy decides one."""
    pols = {"union": Checking(kind, 1), "confederate": Checking(kind, 2)}
    play(load_scenario(name), 0, pols)
    assert pols["union"].seen | pols["confederate"].seen
