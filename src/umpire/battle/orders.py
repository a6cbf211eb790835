"""Orders as typed records: one ``NamedTuple`` per kind of decision (issue 25).

Each record is still a tuple whose first item is its kind, so ``json.dumps`` writes the
same list as before (saved logs and golden files stay byte-identical) and an order read
back from a log compares equal to the record. :func:`order_from_json` is the one place a
list from a log, the web or typed input becomes an order: it checks the kind and the
arity and says in one line what is wrong. The menus offer records and the policies decide
records; the engine hands every step one (:func:`as_order`). Readers narrow an ``Order`` by
its ``kind`` and read named fields (``order.x``, ``order.t``), never positions
(``tests/test_orders_typed.py``). A fire order has a record per length (``FireAt``,
``FireRound``, ``Fire``) so that a record writes exactly the list it was read from.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal, NamedTuple

from umpire.errors import IllegalActionError

OrderKind = Literal[
    "hold", "rout", "turn", "move", "fire", "charge", "leader", "pick", "retrograde"
]
"""Every kind of order a step may be given."""


class Hold(NamedTuple):
    """Do nothing this step: ``("hold",)``."""

    kind: Literal["hold"]


class Rout(NamedTuple):
    """Rout away from the enemy: ``("rout",)``."""

    kind: Literal["rout"]


class Turn(NamedTuple):
    """Turn about: ``("turn",)``."""

    kind: Literal["turn"]


class Move(NamedTuple):
    """Move to ``(x, y)`` facing ``theta`` (radians), with the formation ``change`` made on
    the way (``""`` for none): ``("move", x, y, theta, change)``."""

    kind: Literal["move"]
    x: float
    y: float
    theta: float
    change: str = ""


class FireAt(NamedTuple):
    """Fire at unit ``t`` (its index), the round and the range left to the module:
    ``("fire", t)`` (what most menus offer)."""

    kind: Literal["fire"]
    t: int

    @property
    def ammo(self) -> str:
        """No round named: the module's choice."""
        return ""

    @property
    def called(self) -> float | None:
        """No range called."""
        return None


class FireRound(NamedTuple):
    """Fire at unit ``t`` with the round a module names (``ammo``; ``""``: the module's
    choice): ``("fire", t, ammo)``."""

    kind: Literal["fire"]
    t: int
    ammo: str

    @property
    def called(self) -> float | None:
        """No range called."""
        return None


class Fire(NamedTuple):
    """Fire at unit ``t`` with the round ``ammo`` and a ``called`` range in inches (None:
    none called): ``("fire", t, ammo, called)``, the whole form. The two shorter forms are
    records of their own so that each writes the very list it was given (logs and golden
    files stay byte-identical); all three read ``t``, ``ammo`` and ``called``."""

    kind: Literal["fire"]
    t: int
    ammo: str = ""
    called: float | None = None


class Charge(NamedTuple):
    """Charge unit ``t`` (its index): ``("charge", t)``."""

    kind: Literal["charge"]
    t: int


class Leader(NamedTuple):
    """Move a leader to ``(x, y)`` and attach it to unit ``attach`` (-1: none):
    ``("leader", x, y, attach)``."""

    kind: Literal["leader"]
    x: float
    y: float
    attach: int


class Pick(NamedTuple):
    """Choose unit ``i`` (its index) for an event: ``("pick", i)``."""

    kind: Literal["pick"]
    i: int


class Retrograde(NamedTuple):
    """An event's retreat: straight ``"back"`` or a wheel on a flank: ``("retrograde", how)``."""

    kind: Literal["retrograde"]
    how: str


AnyFire = FireAt | FireRound | Fire
"""A fire order of any length (narrow an order to it by ``order.kind == "fire"``)."""

Order = Hold | Rout | Turn | Move | FireAt | FireRound | Fire | Charge | Leader | Pick | Retrograde
"""Any order: narrow it by its ``kind`` (``if order.kind == "move": order.x``), which
mypy reads as a tagged union."""

HOLD = Hold("hold")
"""The one hold order (records are immutable: share it)."""
ROUT = Rout("rout")
"""The one rout order."""
TURN = Turn("turn")
"""The one turn-about order."""


def fire(t: int, ammo: str = "", called: float | None = None) -> AnyFire:
    """The shortest fire record that says this: ``("fire", t)`` with no round named and no
    range called, ``("fire", t, ammo)`` with a round, else the whole form."""
    if called is not None:
        return Fire("fire", t, ammo, called)
    if ammo:
        return FireRound("fire", t, ammo)
    return FireAt("fire", t)


ORDER_TYPES: dict[str, type[Any]] = {
    "hold": Hold,
    "rout": Rout,
    "turn": Turn,
    "move": Move,
    "fire": Fire,  # the whole form; a shorter list reads as FireAt or FireRound
    "charge": Charge,
    "leader": Leader,
    "pick": Pick,
    "retrograde": Retrograde,
}
"""The record type of each kind, by its name."""

_TYPES = frozenset([*ORDER_TYPES.values(), FireAt, FireRound])
_FIRES: tuple[type[Any], ...] = (FireAt, FireRound, Fire)
"""The fire record for a list of 2, 3 or 4 items, by its length less two."""

_SHAPE = {
    "hold": '["hold"]',
    "rout": '["rout"]',
    "turn": '["turn"]',
    "move": '["move", x, y, theta, change]',
    "fire": '["fire", target]',
    "charge": '["charge", target]',
    "leader": '["leader", x, y, attach]',
    "pick": '["pick", unit]',
    "retrograde": '["retrograde", how]',
}


def _num(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _fields_ok(kind: str, rest: Sequence[Any]) -> bool:
    """Do the items after the kind have the kind's arity and types?"""
    n = len(rest)
    if kind in ("hold", "rout", "turn"):
        return n == 0
    if kind == "fire":
        return (
            1 <= n <= 3
            and _int(rest[0])
            and (n < 2 or isinstance(rest[1], str))
            and (n < 3 or _num(rest[2]))
        )
    if kind in ("charge", "pick"):
        return n == 1 and _int(rest[0])
    if kind == "move":
        return (
            n in (3, 4)
            and _num(rest[0])
            and _num(rest[1])
            and _num(rest[2])
            and (n == 3 or isinstance(rest[3], str))
        )
    if kind == "leader":
        return n == 3 and _num(rest[0]) and _num(rest[1]) and _int(rest[2])
    return n == 1 and isinstance(rest[0], str)  # retrograde


def order_from_json(raw: Sequence[Any]) -> Order:
    """The order a list (from a log, the web or typed input) stands for; an
    ``IllegalActionError`` naming what is wrong when it is no order."""
    listed = type(raw) in (list, tuple)  # the common case skips the slow abc test
    if not raw or (not listed and (isinstance(raw, str) or not isinstance(raw, Sequence))):
        raise IllegalActionError(
            f'cannot read the order {raw!r}: an order is a list such as ["hold"] or ["fire", 3]'
        )
    kind = raw[0]
    cls = ORDER_TYPES.get(kind) if isinstance(kind, str) else None
    if cls is None:
        kinds = ", ".join(ORDER_TYPES)
        raise IllegalActionError(f"cannot read the order {list(raw)!r}: the kind is one of {kinds}")
    if not _fields_ok(kind, raw[1:]):
        raise IllegalActionError(
            f"cannot read the order {list(raw)!r}: a {kind} order is {_SHAPE[kind]}"
        )
    if kind == "fire":
        cls = _FIRES[len(raw) - 2]  # the record as long as the list: the same json
    made: Order = cls(*raw)
    return made


def as_order(o: Sequence[Any]) -> Order:
    """``o`` as a typed order: itself when it already is one, else read by
    :func:`order_from_json` (what the engine hands a step)."""
    if type(o) in _TYPES:
        same: Order = o  # type: ignore[assignment]
        return same
    return order_from_json(o)
