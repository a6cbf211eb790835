"""Issue 25: orders are typed records (``umpire.battle.orders``), still tuples, so a saved
log writes and reads back the same lists."""

from __future__ import annotations

import json

import pytest

from umpire.battle import orders as od
from umpire.errors import IllegalActionError


@pytest.mark.parametrize(
    "raw",
    [
        ["hold"],
        ["rout"],
        ["turn"],
        ["move", 1.5, 2, 0.25, "column"],
        ["move", 1.5, 2, 0.25],
        ["fire", 3],
        ["fire", 3, "case"],
        ["fire", 3, "shell", 12.0],
        ["charge", 4],
        ["leader", 1.0, 2.0, -1],
        ["pick", 0],
        ["retrograde", "back"],
    ],
)
def test_an_order_reads_back_as_its_record_and_writes_the_same_json(raw: list[object]) -> None:
    """Issue 25 'Orders are typed records': the record's kind names its type, it equals
    the tuple it was read from, and json writes the same list (logs stay byte-identical)
    unless the list left out a default field (a fire order of any length is a record as
    long as its list)."""
    o = od.order_from_json(raw)
    want = {2: od.FireAt, 3: od.FireRound, 4: od.Fire}[len(raw)] if raw[0] == "fire" else None
    assert type(o) is (want or od.ORDER_TYPES[str(raw[0])])
    assert o.kind == raw[0]
    assert tuple(o[: len(raw)]) == tuple(raw)
    if len(o) == len(raw):
        assert json.dumps(o) == json.dumps(raw)
    assert od.as_order(o) is o


def test_fields_are_named() -> None:
    """Issue 25: readers use names, not positions."""
    m = od.order_from_json(["move", 1.0, 2.0, 0.5, "line"])
    assert isinstance(m, od.Move)
    assert (m.x, m.y, m.theta, m.change) == (1.0, 2.0, 0.5, "line")
    f = od.order_from_json(["fire", 7])
    assert isinstance(f, od.FireAt) and f.t == 7 and f.ammo == "" and f.called is None
    r = od.order_from_json(["fire", 7, "case"])
    assert isinstance(r, od.FireRound) and (r.t, r.ammo, r.called) == (7, "case", None)
    c = od.order_from_json(["fire", 7, "shell", 9.5])
    assert isinstance(c, od.Fire) and (c.t, c.ammo, c.called) == (7, "shell", 9.5)
    assert od.fire(7) == f and od.fire(7, "case") == r and od.fire(7, "shell", 9.5) == c
    assert json.dumps(f) == '["fire", 7]' and json.dumps(r) == '["fire", 7, "case"]'


@pytest.mark.parametrize(
    ("raw", "words"),
    [
        ([], "an order is a list"),
        ("hold", "an order is a list"),
        (["march"], "the kind is one of hold"),
        (["fire"], 'a fire order is ["fire", target]'),
        (["fire", "3"], 'a fire order is ["fire", target]'),
        (["fire", True], 'a fire order is ["fire", target]'),
        (["move", 1, 2], 'a move order is ["move", x, y, theta, change]'),
        (["hold", 1], 'a hold order is ["hold"]'),
        (["leader", 1, 2, 0.5], 'a leader order is ["leader", x, y, attach]'),
    ],
)
def test_a_malformed_order_is_refused_in_one_line(raw: object, words: str) -> None:
    """Issue 25: one reader checks the kind and arity and names what is wrong."""
    with pytest.raises(IllegalActionError) as err:
        od.order_from_json(raw)  # type: ignore[arg-type]
    assert words in str(err.value)
    assert "\n" not in str(err.value)
