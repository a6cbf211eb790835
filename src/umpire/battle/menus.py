"""Menus: the legal orders offered for a decision (``Choice``) and the candidates behind
them (``Offer``), whose legality and words are worked out only when asked.

They live apart from ``umpire.battle.roles`` (which re-exports them, with the seams that
ask for them: ``offered``, ``offers``, ``combat_offers``) so that the optional mypyc build
(``benchmarks/build_mypyc.py``) can compile them: the generic AI makes and reads thousands
of offers per battle.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Literal, NamedTuple

from umpire.battle.orders import Order as Order

if TYPE_CHECKING:
    from umpire.battle.engine import Battle
    from umpire.battle.roles import Request


ChoiceKind = Literal["hold", "rout", "turn", "move", "fire", "charge", "leader", "pick"]
"""What a menu line offers (``Choice.kind``, ``Offer.kind``): the kind of its order
(``umpire.battle.orders.OrderKind``), except that an event's choice of a unit or of a
retrograde wheel is a ``pick``. The AIs select candidates by it."""


class Choice(NamedTuple):
    """One legal order offered to a player or the AI, in words, with its exact odds.

    ``odds`` keys used by the generic AI: ``inflict`` (expected enemy stands lost),
    ``suffer`` (expected own stands lost), ``goes_in`` (P a charge makes contact and
    the enemy stands or is driven off), ``p`` (the headline probability of ``text``).
    """

    order: Order
    text: str
    kind: ChoiceKind
    odds: Mapping[str, float] = {}


class Offer:
    """A candidate order whose legality and words are worked out only when asked.

    A role's ``options`` are its offers that are ``legal()``, as :meth:`choice`, in the same
    order. A policy that scores candidates by their order and odds (the generic AI's moves)
    tests the legality of only those it would pick, which is most of the cost of a menu.
    ``text`` and ``test`` read the battle as it stands: use an offer before anything changes.
    A module's own kind of offer may make its order only when it is first read (:meth:`make`)
    and say where it leads without it (:meth:`at`): a typed record costs more to build than
    the few numbers behind it, and a policy picks one offer of many.
    """

    __slots__ = ("_ok", "_order", "_test", "_text", "kind", "odds")

    def __init__(
        self,
        order: Order,
        kind: ChoiceKind,
        odds: Mapping[str, float],
        text: str | Callable[[], str],
        test: Callable[[], bool] | None = None,
    ):
        self._order: Order | None = order
        self.kind: ChoiceKind = kind
        self.odds = odds
        self._text = text
        self._test = test
        self._ok: bool | None = None if test is not None else True

    @property
    def order(self) -> Order:
        """The order offered (a typed record, made on the first read when the offer is lazy)."""
        o = self._order
        if o is None:
            o = self._order = self.make()
        return o

    def make(self) -> Order:
        """The order of an offer made without one (a module's own kind of offer gives it)."""
        raise NotImplementedError

    def at(self) -> tuple[float, float]:
        """Where a move or a leader's ride ends, ``(x, y)``: what a policy scores a place by
        (a lazy offer answers without making its order)."""
        o = self.order
        if o.kind == "move" or o.kind == "leader":
            return o.x, o.y
        raise ValueError(f"a {o.kind} order goes nowhere")

    @classmethod
    def of(cls, c: Choice) -> Offer:
        """An offer for a choice already known to be legal."""
        return cls(c.order, c.kind, c.odds, c.text)

    def legal(self) -> bool:
        """Is the order legal? (Tested once, on the first call.)"""
        ok = self._ok
        if ok is None:
            ok = self._ok = self.test()
        return ok

    def test(self) -> bool:
        """The legality test itself (:meth:`legal` runs it once). A module's own kind of
        offer may override it and :meth:`words` instead of passing functions: a menu
        makes many offers, most never asked."""
        assert self._test is not None
        return self._test()

    def words(self) -> str:
        """The order in words (made now)."""
        text = self._text
        return text if isinstance(text, str) else text()

    def choice(self) -> Choice:
        """The offer as a menu line (its words made now)."""
        return Choice(self.order, self.words(), self.kind, self.odds)


def best_left(scores: list[float], done: list[bool]) -> int:
    """The index of the highest score not yet ``done`` (the first of equal ones: a stable
    best-first order without sorting), or -1 when every one is done. The AIs try their
    candidates in this order and stop at the first that passes."""
    k = -1
    top = 0.0
    for m in range(len(scores)):
        if not done[m] and (k < 0 or scores[m] > top):
            k, top = m, scores[m]
    return k


def offered(b: Battle, req: Request) -> list[Choice]:
    """The choices for a pending request: the step's own, else the combat role's."""
    own = b.seams(b.phase().step)[2]
    if own is not None:
        found: list[Choice] = own(b, req)
        return found
    return b.comp.combat.options(b, req)


def choices(found: Sequence[Offer]) -> list[Choice]:
    """The legal offers as choices, in order (what a role's ``options`` returns)."""
    return [o.choice() for o in found if o.legal()]


def offers(b: Battle, req: Request) -> list[Offer]:
    """The same menu as :func:`offered`, as offers: the step's or combat role's own ``offers``
    when it gives them (an optional seam), else its ``options`` wrapped (all legal)."""
    _, _, own, lazy = b.seams(b.phase().step)
    if own is not None:
        if lazy is not None:
            mine: list[Offer] = lazy(b, req)
            return mine
        return [Offer.of(c) for c in offered(b, req)]
    return combat_offers(b, req)


def combat_offers(b: Battle, req: Request) -> list[Offer]:
    """The combat role's menu for ``req`` as offers: its own ``offers`` when it gives them,
    else its ``options`` wrapped (another role asking "could this unit charge?")."""
    lazy = getattr(b.comp.combat, "offers", None)
    if lazy is not None:
        theirs: list[Offer] = lazy(b, req)
        return theirs
    return [Offer.of(c) for c in b.comp.combat.options(b, req)]
