"""Seed 002 orders as menus: every legal order of a pending request, in words, with odds.

The combat role's ``options`` seam: a player at the terminal or on the web picks from
these, and the generic AI scores them by their odds (``inflict``, ``suffer``,
``goes_in``). Moves are offered as a handful of destinations that make sense on the
table (toward the nearest enemy, to an objective, back, a change of formation in
place); any other legal move can still be typed as coordinates.
"""

from __future__ import annotations

import math
from functools import cache
from typing import TYPE_CHECKING, Final

from umpire.battle import orders as od
from umpire.battle.effects import fx, fx_why
from umpire.battle.engine import NEAR_TIE
from umpire.battle.roles import Choice, Offer, Order, Request, choices
from umpire.board.fmath import hypot as _hypot
from umpire.board.geometry import SURELY
from umpire.errors import IllegalActionError
from umpire.rules.data import on_change
from umpire.rules.quick_acw import losses as LO
from umpire.rules.quick_acw import reach as RCH
from umpire.rules.quick_acw import rules as R
from umpire.rules.quick_acw import steps as S
from umpire.rules.quick_acw.odds import ChargeOdds, charge_odds, fire_odds, melee_odds

if TYPE_CHECKING:
    from umpire.battle.engine import Battle
    from umpire.battle.state import Leader, Unit
    from umpire.board import Board

# math's functions that mypyc has no native form of, held in C statics (``Final``): a
# call then skips looking the name up in ``math`` (the same functions, the same floats).
_atan2: Final = math.atan2
_remainder: Final = math.remainder

CHANGE_WORDS = {
    "line": "form line",
    "column": "form column",
    "mount": "mount",
    "dismount": "dismount",
    "limber": "limber",
    "unlimber": "unlimber",
}


def pct(p: float) -> str:
    """A probability as a whole percentage ("<1%" and ">99%" at the ends)."""
    if 0 < p < 0.005:
        return "<1%"
    if 0.995 < p < 1:
        return ">99%"
    return f"{100 * p:.0f}%"


def shots(
    b: Battle, u: Unit, exact: bool = True, step: object = None
) -> list[tuple[int, int, list[R.Mod], float]]:
    """The targets the current fire step allows ``u`` (``exact``: with every range measured,
    else NaN where the band is settled without it, see ``steps.targets``); ``step``: the
    current step, when the caller has it."""
    if step is None:
        step = b.phase().step
    if isinstance(step, S.FireStep):
        return step.shots(b, u, exact=exact)
    return RCH.targets(b, u, exact)


def fire_offers(b: Battle, u: Unit) -> list[Offer]:
    """Seed 002 FIRE: one offer per target, with P(hit), P(two stands) and E[stands]."""
    out: list[Offer] = []
    us = b.state.units
    step = b.phase().step
    reaction = bool(getattr(step, "reaction", False))
    for t, needed, mods, rng in shots(b, u, False, step):
        v = us[t]
        if u.extra:
            mods = mods + S.fire_effects(b, u, v, reaction)
        m = LO.total(mods)
        hit, value = fire_numbers(needed, m, b.r)
        finish = R.is_removed(v.stands - 1, v.stands0, b.r)
        odds = {"p": hit, "inflict": value, "finish": 1.0 if finish else 0.0}
        out.append(FireOffer(b, u, v, needed, m, rng, odds))
    out.sort(key=_inflict_down)
    out.append(Offer(od.HOLD, "hold", {}, "hold fire"))
    return out


def _inflict_down(c: Offer) -> float:
    """Sort key: the higher expected loss first."""
    return -c.odds["inflict"]


class FireOffer(Offer):
    """``u`` firing at ``v`` (legal: found among its targets), worded only when asked."""

    __slots__ = ("b", "m", "needed", "rng", "u", "v")

    def __init__(
        self, b: Battle, u: Unit, v: Unit, needed: int, m: int, rng: float, odds: dict[str, float]
    ):
        super().__init__(od.FireAt("fire", v.i), "fire", odds, "")
        self.b = b
        self.u = u
        self.v = v
        self.needed = needed
        self.m = m
        self.rng = rng

    def words(self) -> str:
        """The words of a fire offer (the range measured now if it was not)."""
        return _fire_text(self.b, self.u, self.v, self.needed, self.m, self.rng)


@cache
def fire_numbers(needed: int, mod: int, r: R.Rules) -> tuple[float, float]:
    """(P(hit), E[stands lost]) of one fire roll (``odds.fire_odds``), as floats."""
    o = fire_odds(needed, mod, r)
    return float(o.hit), float(o.expected_stands)


def _fire_text(b: Battle, u: Unit, v: Unit, needed: int, m: int, rng: float) -> str:
    """The words of a fire offer (the range measured now if it was not)."""
    if math.isnan(rng):
        rng = b.dist(u.i, v.i)
    o = fire_odds(needed, m, b.r)
    return (
        f'fire at {v.name}, {rng:.1f}", needs {needed}+'
        + (f" ({m:+d})" if m else "")
        + f": {pct(float(o.hit))} hit"
        + (f", {pct(float(o.two))} two stands" if o.two else "")
    )


def fire_choices(b: Battle, u: Unit) -> list[Choice]:
    """Seed 002 FIRE: one choice per target, with P(hit), P(two stands) and E[stands]."""
    return choices(fire_offers(b, u))


def charge_choice(b: Battle, u: Unit, v: Unit) -> Choice | None:
    """Seed 002 charge paragraph: the chance the charge goes in and drives the enemy off."""
    found = charge_offer(b, u, v)
    return None if found is None else found.choice()


def charge_offer(b: Battle, u: Unit, v: Unit) -> Offer | None:
    """:func:`charge_choice` as an offer (None when the charge is illegal)."""
    opt = RCH.charge_option(b, u, v)
    return None if opt is None else _charge_offer(b, u, v, opt)


def _charge_offer(b: Battle, u: Unit, v: Unit, opt: RCH.Charge) -> Offer:
    """The offer of a legal charge (``opt``: where it ends, flank, distance)."""
    flank = opt[3]
    mods = S.charge_mods(b, u, v, flank)
    morale = b.comp.morale
    if morale.id == OWN_MORALE:
        good, goes_in, inflict, suffer = _charge_numbers_of(mods)
    else:  # another module's morale test (issue 25): its own exact odds
        passes = morale.pass_odds(b, u, "charge test")
        stands = morale.pass_odds(b, v, "stand test")
        good, goes_in, inflict, suffer = _chained(
            ChargeOdds(passes, stands, melee_odds(mods[4], mods[5]))
        )
    odds = {"p": good, "goes_in": goes_in, "inflict": inflict, "suffer": suffer}
    return ChargeOffer(u, v, opt, odds)


class ChargeOffer(Offer):
    """``u`` charging ``v`` (seed 002 charge paragraph; legal), with its odds, worded only
    when asked (no closure made per offer)."""

    __slots__ = ("opt", "u", "v")

    def __init__(self, u: Unit, v: Unit, opt: RCH.Charge, odds: dict[str, float]):
        super().__init__(od.Charge("charge", v.i), "charge", odds, "")
        self.u = u
        self.v = v
        self.opt = opt

    def words(self) -> str:
        """The charge in words: its length, P(goes in), P(drives it off)."""
        flank, dist = self.opt[3], self.opt[4]
        o = self.odds
        return (
            f'charge {self.v.name}{" in the flank" if flank else ""}: {dist:.1f}", '
            f"goes in {pct(o['goes_in'])}, drives it off {pct(o['p'])}"
        )


@cache
def charge_numbers(*mods: int) -> tuple[float, float, float, float]:
    """(P(drives it off), P(goes in), E[enemy stands lost], E[own stands lost]) of a charge
    with the numbers of ``steps.charge_mods``, exactly (``odds.charge_odds``), as floats."""
    return _chained(charge_odds(*mods))


_CHARGE_NUMBERS: dict[tuple[int, int, int, int, int, int], tuple[float, float, float, float]] = {}
on_change(_CHARGE_NUMBERS.clear)


def _charge_numbers_of(
    mods: tuple[int, int, int, int, int, int],
) -> tuple[float, float, float, float]:
    """:func:`charge_numbers` of the tuple ``charge_mods`` gives, kept under that tuple (a
    native call and one look-up: the varargs function is called through Python)."""
    hit = _CHARGE_NUMBERS.get(mods)
    if hit is None:
        hit = _CHARGE_NUMBERS[mods] = charge_numbers(*mods)
    return hit


OWN_MORALE: Final = "quick-acw"
"""Seed 002's own morale role: with it a charge's odds are :func:`charge_numbers`, kept."""


def _chained(o: ChargeOdds) -> tuple[float, float, float, float]:
    """:func:`charge_numbers` of a chained charge."""
    melee = o.melee
    a_lost = sum(k * p for k, p in enumerate(melee.a_lost))
    b_lost = sum(k * p for k, p in enumerate(melee.b_lost))
    fought = o.charge_passes * o.target_stands
    return (
        float(o.favourable),
        float(o.charge_passes),
        float(fought * b_lost),
        float(fought * a_lost),
    )


def _toward(
    u: Unit, x: float, y: float, stop: float, frac: float, allow: float
) -> tuple[float, float, float] | None:
    """A move of ``frac`` of the unit's allowance (in the open, no change: ``allow``) toward
    (x, y), stopping ``stop``" short: where it ends and its facing, (x, y, theta); None
    when it would not move. :func:`move_offers` writes this out for each of its moves (no
    tuple per offer); tests hold its ends to this."""
    d = _hypot(x - u.x, y - u.y)
    step = _toward_step(stop, frac, allow, d)
    if step < 0.0:
        return None
    return u.x + (x - u.x) / d * step, u.y + (y - u.y) / d * step, _atan2(y - u.y, x - u.x)


def _toward_step(stop: float, frac: float, allow: float, d: float) -> float:
    """How far :func:`_toward` moves along its line, or -1.0 when it would not move (a
    float, not a tuple: the menu makes the end itself, no tuple or boxed float made)."""
    step = allow * frac
    if d - stop < step:  # min() and max() written out (the same float, the first on a tie)
        step = d - stop
    if not step > 0.0:
        step = 0.0
    if d < 1e-9 or step < 1e-6:
        return -1.0
    return step


def _near_key(e: tuple[float, int, Unit]) -> tuple[float, int]:
    """Sort key of (distance, place in the list, unit): the nearest, the earlier first."""
    return e[0], e[1]


def move_choices(b: Battle, u: Unit) -> list[Choice]:
    """Seed 002 MOVE: charges with their odds, a few sensible moves, formation changes."""
    return choices(move_offers(b, u))


HOLD = Offer(od.HOLD, "hold", {}, "hold")
RALLY = (
    Offer(od.HOLD, "hold", {}, "hold still (rallies at the end of the move)"),
    Offer(od.TURN, "turn", {}, "turn about"),
    Offer(od.ROUT, "rout", {}, "rout away from the enemy"),
)


NO_ODDS: dict[str, float] = {}
"""The odds of a move offer (none), one shared dict: read, never changed."""


class MoveOffer(Offer):
    """A move offered to ``u``, to ``(x, y)`` facing ``theta`` with the formation ``change``:
    tested by ``steps.move_ok`` (a refused change is illegal), worded ``word`` [length]
    ``tail`` ``name`` ("advance 6.0" toward 1st TN"), both only when asked (a menu offers
    about eight moves; the AI tests one or two), its order made when first read. A move
    toward a point (``face``) is given a NaN ``theta``: its facing is worked out when first
    asked (:meth:`facing`), as most offers are only scored by where they end."""

    __slots__ = (
        "b",
        "change",
        "fx",
        "fy",
        "measured",
        "name",
        "tail",
        "theta",
        "u",
        "word",
        "x",
        "y",
    )

    def __init__(
        self,
        b: Battle,
        u: Unit,
        x: float,
        y: float,
        theta: float,
        change: str,
        word: str,
        tail: str,
        name: str,
        measured: bool,
        fx: float = 0.0,
        fy: float = 0.0,
    ):
        self._order = None
        self.x = x
        self.y = y
        self.theta = theta
        self.change = change
        self.fx = fx
        self.fy = fy
        self.kind = "move"
        self.odds = NO_ODDS
        self._text = ""
        self._test = None
        self._ok = None
        self.b = b
        self.u = u
        self.word = word
        self.tail = tail
        self.name = name
        self.measured = measured

    def make(self) -> Order:
        """The move order."""
        return od.Move("move", self.x, self.y, self.facing(), self.change)

    def facing(self) -> float:
        """The facing the move ends in: ``theta``, or when that is NaN the facing toward
        ``face`` from where the unit stands (as ``_toward`` faces), worked out once."""
        th = self.theta
        if th != th:
            u = self.u
            th = self.theta = _atan2(self.fy - u.y, self.fx - u.x)
        return th

    def at(self) -> tuple[float, float]:
        """Where the move ends."""
        return self.x, self.y

    def test(self) -> bool:
        """Seed 002 MOVE: ``steps.move_ok``."""
        try:
            return RCH.move_ok(self.b, self.u, self.x, self.y, self.facing(), self.change)
        except IllegalActionError:
            return False

    def words(self) -> str:
        """The move in words, its length measured now."""
        if not self.measured:
            return f"{self.word}{self.tail}{self.name}"
        u = self.u
        length = _hypot(self.x - u.x, self.y - u.y)
        return f'{self.word} {length:.1f}"{self.tail}{self.name}'


def move_offers(b: Battle, u: Unit) -> list[Offer]:
    """Seed 002 MOVE: charges with their odds, a few sensible moves (legality tested when
    asked), formation changes, hold."""
    limit = b.status.move_limit(b, u)
    if limit == "rally":
        return list(RALLY)
    if limit == "none":
        return [HOLD]
    out: list[Offer] = []
    ux, uy, side = u.x, u.y, u.side
    allow = RCH.allowance(b, u, u.formation, u.mounted, u.limbered, None, False)
    # The nearest enemy, and the enemies a charge could reach at all: the charges are
    # tried against the eight nearest (by distance, the earlier unit first on a tie), so
    # the enemies are sorted only when one is within a charge's reach.
    units = b.state.units
    en: Unit | None = None
    best = math.inf
    count = 0
    close: list[Unit] = []
    # beyond this centre distance no charge can reach, for sure (a base lies within its
    # radius of its centre; the margin is geometry.surely_beyond's)
    far = -1.0
    if u.type != "artillery":
        big = -math.inf  # max(b.rad) written out (a generic call over boxed floats)
        for r in b.rad:
            if r > big:
                big = r
        far = allow + 1e-5 + u.hd + big
    far2 = far * far * SURELY + 1e-12
    bq = math.inf
    for v in units:
        if v.alive and v.side != side:
            dx, dy = v.x - ux, v.y - uy
            q = dx * dx + dy * dy
            if q * NEAR_TIE < bq:  # nearer for sure (as Battle.nearest_enemy)
                en, best, bq = v, -1.0, q
            elif q <= bq * NEAR_TIE and en is not None:  # a near tie: the rules' sums
                if best < 0.0:
                    best = math.pow(en.x - ux, 2.0) + math.pow(en.y - uy, 2.0)
                d = math.pow(dx, 2.0) + math.pow(dy, 2.0)  # = dx ** 2 (native)
                if d < best:
                    en, best, bq = v, d, q
            count += 1
            if far >= 0.0 and q <= far2 and RCH.charge_in_reach(u, v, allow):
                close.append(v)
    if close:
        if count > 8:
            # those of the eight nearest (by distance, then place in the list: a sort of
            # every enemy's (d, k)) within reach: each of ``close`` with fewer than eight
            # enemies before it, in that order (no tuple per enemy, no sort of them all)
            # The distance is the rules' dx ** 2 + dy ** 2; the cheaper dx * dx + dy * dy
            # (a few ulps away) settles every comparison but a near tie, as in
            # Battle.nearest_enemy, where both sides' own sums are worked out.
            qs: list[float] = []
            ks: list[int] = []
            for k in range(len(units)):
                v = units[k]
                if v.alive and v.side != side:
                    dx, dy = v.x - ux, v.y - uy
                    qs.append(dx * dx + dy * dy)
                    ks.append(k)
            reach_i = {v.i for v in close}
            keep: list[tuple[float, int, Unit]] = []
            for m in range(len(ks)):
                v = units[ks[m]]
                if v.i not in reach_i:
                    continue
                qm, km = qs[m], ks[m]
                dm = -1.0  # the rules' sum, worked out when a near tie or the sort needs it
                before = 0
                for j in range(len(ks)):
                    qj = qs[j]
                    if qj * NEAR_TIE < qm:
                        before += 1
                    elif qj <= qm * NEAR_TIE and ks[j] != km:
                        if dm < 0.0:
                            dm = math.pow(v.x - ux, 2.0) + math.pow(v.y - uy, 2.0)
                        w = units[ks[j]]
                        dj = math.pow(w.x - ux, 2.0) + math.pow(w.y - uy, 2.0)
                        if dj < dm or (dj == dm and ks[j] < km):
                            before += 1
                if before < 8:
                    if dm < 0.0:
                        dm = math.pow(v.x - ux, 2.0) + math.pow(v.y - uy, 2.0)  # = dx ** 2
                    keep.append((dm, km, v))
            if len(keep) > 1:
                keep.sort(key=_near_key)
            close = [v for _, _, v in keep]
        elif len(close) > 1:
            close.sort(key=lambda v: (math.pow(v.x - ux, 2.0) + math.pow(v.y - uy, 2.0), v.i))
        # (each tested in full: testing room and path only when asked costs more, as
        # the odds of every charge in reach must then be worked out; RESULTS.md)
        for v, opt in RCH.charge_options(b, u, close):
            out.append(_charge_offer(b, u, v, opt))
    if out and u.extra and fx(u, "must_charge"):
        return out  # unit effect must_charge: a charge it must make, when it can
    th = u.theta  # the facing toward the nearest enemy (the advances, wheel, changes)
    if en is not None:
        # the full and the half advance share the distance and the facing (_toward's own)
        ex, ey = en.x, en.y
        d = _hypot(ex - ux, ey - uy)
        th = _atan2(ey - uy, ex - ux)
        # (_toward's ends, written out: no tuple per offer)
        step = _toward_step(4.0, 1.0, allow, d)
        if step >= 0.0:
            x, y = ux + (ex - ux) / d * step, uy + (ey - uy) / d * step
            out.append(MoveOffer(b, u, x, y, th, "", "advance", " toward ", en.name, True))
        step = _toward_step(4.0, 0.5, allow, d)
        if step >= 0.0:
            x, y = ux + (ex - ux) / d * step, uy + (ey - uy) / d * step
            word = "advance half a move"
            out.append(MoveOffer(b, u, x, y, th, "", word, " toward ", en.name, True))
        bx, by = 2 * ux - ex, 2 * uy - ey  # falling back keeps the facing: no atan2
        db = _hypot(bx - ux, by - uy)
        step = _toward_step(0.0, 1.0, allow, db)
        if step >= 0.0:
            x, y = ux + (bx - ux) / db * step, uy + (by - uy) / db * step
            word = "fall back"
            out.append(MoveOffer(b, u, x, y, u.theta, "", word, " facing the enemy", "", True))
    for ob in b.setup.objectives:  # (_toward, its facing worked out when first asked)
        ox, oy = ob.x, ob.y
        do = _hypot(ox - ux, oy - uy)
        step = _toward_step(0.0, 1.0, allow, do)
        if step >= 0.0:
            x, y = ux + (ox - ux) / do * step, uy + (oy - uy) / do * step
            out.append(
                MoveOffer(b, u, x, y, math.nan, "", "move", " toward ", ob.name, True, ox, oy)
            )
    changes = RCH.changes_open(u)
    if changes or en is not None:
        for change in changes:
            out.append(
                MoveOffer(b, u, ux, uy, th, change, CHANGE_WORDS[change], " in place", "", False)
            )
        if en is not None and abs(_remainder(th - u.theta, 2 * math.pi)) > 0.05:
            out.append(MoveOffer(b, u, ux, uy, th, "", "wheel to face ", "", en.name, False))
    out.append(HOLD)
    return out


def leader_choices(b: Battle, li: int) -> list[Choice]:
    """Seed 002 COMMAND: join a unit of his command within a leader's move, or stay."""
    return choices(leader_offers(b, li))


def leader_offers(b: Battle, li: int) -> list[Offer]:
    """:func:`leader_choices` as offers (whether he can reach a unit is tested when asked)."""
    ld = b.state.leaders[li]
    rate = b.r.movement["leader"]
    board = b.setup.board
    out = [Offer(od.HOLD, "hold", {}, f"{ld.name} stays where he is")]
    # his own units first, each group nearest first (a stable sort: the earlier on a tie),
    # as a sort by (u.leader != li, distance) but without a key tuple per unit
    own: list[Unit] = []
    others: list[Unit] = []
    for u in b.state.units:
        if u.alive and u.side == ld.side:
            (own if u.leader == li else others).append(u)
    n = 0
    for group in (own, others):
        ds = [_hypot(u.x - ld.x, u.y - ld.y) for u in group]
        idx: list[int] = []  # an insertion sort by distance (stable, as sorted(); native)
        for k in range(len(ds)):
            d = ds[k]
            j = len(idx)
            idx.append(k)
            while j > 0 and ds[idx[j - 1]] > d:
                idx[j] = idx[j - 1]
                j -= 1
            idx[j] = k
        for k in idx:
            if n == 8:
                return out
            out.append(LeaderOffer(board, rate, ld, group[k], ds[k]))
            n += 1
    return out


class LeaderOffer(Offer):
    """Leader ``ld`` joining ``u``, ``d`` inches away: whether he can ride there (seed 002
    COMMAND, half in rough) and the words, only when asked."""

    __slots__ = ("board", "d", "ld", "rate", "u")

    def __init__(self, board: Board, rate: R.MoveRate, ld: Leader, u: Unit, d: float):
        self._order = None
        self.kind = "leader"
        self.odds = NO_ODDS
        self._text = ""
        self._test = None
        self._ok = None
        self.board = board
        self.rate = rate
        self.ld = ld
        self.u = u
        self.d = d

    def make(self) -> Order:
        """The leader order: to the unit's centre, attached to it."""
        u = self.u
        return od.Leader("leader", u.x, u.y, u.i)

    def at(self) -> tuple[float, float]:
        """Where he rides to: the unit's centre."""
        u = self.u
        return u.x, u.y

    def test(self) -> bool:
        """Seed 002 COMMAND: can he ride the ``d`` inches to the unit (half in rough)?"""
        ld, u, rate = self.ld, self.u, self.rate
        rough = self.board.path_rough(ld.x, ld.y, u.x, u.y)
        return bool(self.d <= rate.open * (rate.rough if rough else 1.0) + 1e-6)

    def words(self) -> str:
        """The words of a leader's join."""
        ld, u = self.ld, self.u
        where = "stays with" if ld.attached == u.i else f'rides {self.d:.1f}" to join'
        return f"{ld.name} {where} {u.name}"


def options(b: Battle, req: Request) -> list[Choice]:
    """Every legal order offered for ``req``, best first where the odds say so."""
    return choices(offers(b, req))


def offers(b: Battle, req: Request) -> list[Offer]:
    """The candidate orders for ``req`` (:func:`options` before the legality tests)."""
    if req.kind == "leader":
        return leader_offers(b, req.actor)
    u = b.state.units[req.actor]
    if req.kind == "fire":
        return fire_offers(b, u)
    if req.kind == "move":
        return move_offers(b, u)
    return [HOLD]


def check(b: Battle, req: Request, order: Order) -> None:
    """Refuse an illegal order with its one-line reason (nothing changes)."""
    if not order:
        raise IllegalActionError("an empty order")
    typed = od.as_order(order)
    kind = typed.kind
    if kind == "hold":
        return
    if req.kind == "leader":
        if kind != "leader":
            raise IllegalActionError(f"a leader order is needed, not '{kind}'")
        return
    u = b.state.units[req.actor]
    if req.kind == "fire":
        if typed.kind != "fire":
            raise IllegalActionError(f"a fire order is needed for {u.name}, not '{kind}'")
        if int(typed.t) not in [t for t, *_ in shots(b, u)]:
            raise IllegalActionError(S.why_not_fire(b, u, int(typed.t)))
        return
    if req.kind == "move":
        if isinstance(typed, od.Move):
            RCH.check_move(b, u, typed.x, typed.y, typed.theta, typed.change)
        elif isinstance(typed, od.Charge):
            t = int(typed.t)
            if not 0 <= t < len(b.state.units):
                raise IllegalActionError(f"no unit {t}")
            RCH.charge_reach(b, u, b.state.units[t])
        elif kind in ("turn", "rout"):
            if b.status.move_limit(b, u) != "rally":
                raise IllegalActionError(f"{u.name} may {kind} only with a Morale Marker")
        else:
            raise IllegalActionError(f"unknown move order '{kind}'")


def explain(b: Battle, req: Request, choice: Choice) -> list[str]:
    """Why a menu entry reads as it does (issue 23), in seed 002's terms: a move's allowance
    with every factor that cut it (MOVEMENT, COMMAND, LEADERS), a shot's number needed and
    each modifier in it (FIRE), who may fire."""
    lines = [f"{choice.text}:"]
    order = od.as_order(choice.order)
    if req.kind == "leader" and 0 <= req.actor < len(b.state.leaders):
        return lines + _leader_why(b, b.state.leaders[req.actor], order)
    if not 0 <= req.actor < len(b.state.units) or req.kind not in ("move", "fire"):
        return lines
    u = b.state.units[req.actor]
    if req.kind == "move" and isinstance(order, (od.Hold, od.Turn, od.Rout)):
        return lines + _stay_why(b, u, order)
    if isinstance(order, od.Charge) and 0 <= int(order.t) < len(b.state.units):
        return lines + _charge_why(b, u, b.state.units[int(order.t)])
    if isinstance(order, od.Move):
        try:
            form, mounted, limbered, cost = RCH.after_change(u, str(order.change))
        except IllegalActionError as exc:
            return [*lines, f"  {exc}"]
        key = R.move_key(u.type, form, mounted, limbered)
        if u.type == "artillery" and cost == "formation":
            key = "artillery_limbered"
        inches, trace = R.move_allowance(
            key, in_command=u.in_command, leader_lost=u.leader_lost, change=cost, r=b.r
        )
        cuts = [m.text for m in trace[1:]]
        lines.append(
            f'  {u.name} may move {inches:g}" in the open: {trace[0].text}'
            + (" less " + ", ".join(cuts) if cuts else "")
            + f" ({trace[0].source})"
        )
        lines += _ground_why(b, u, order, form, mounted, limbered, cost)
        if b.status.move_limit(b, u) == "no_advance":
            mark = b.status.label(u) or "its status"
            lines.append(f"  {mark}: it may not advance (the {b.status.id} status rules)")
    elif order.kind == "fire":
        found = [s for s in shots(b, u) if s[0] == order.t]
        if found:
            _, needed, mods, rng = found[0]
            if u.extra:
                mods = mods + S.fire_effects(b, u, b.state.units[order.t], False)
            said = ", ".join(f"{m.text} {m.value:+d}" for m in mods if m.value) or "none"
            lines.append(
                f'  needs {needed}+ on 2d6 at {rng:.1f}" (002 FIRE, the range band), modifiers '
                f"{said} (as things stand now)"
            )
    elif isinstance(order, od.Hold) and req.kind == "fire":
        lines.append(
            "  only units with a target in range and arc are asked to fire (002 FIRE): within "
            "45 degrees of its facing (default fire_arc), in sight and not through friendly "
            "troops; mounted cavalry and limbered artillery cannot fire; a unit in contact "
            "fires only at the enemy it touches (default engaged_no_fire)"
        )
    return lines


def _leader_why(b: Battle, ld: Leader, order: od.Order) -> list[str]:
    """Seed 002 COMMAND and LEADERS for a leader's entry: how far he may ride, what his
    radius does for his units, what joining a unit gives it and risks."""
    rate = b.r.movement["leader"]
    out = [
        f'  {ld.name} may ride {rate.open:g}" in the open, x{rate.rough:g} through rough '
        "ground (002 MOVEMENT, Leaders)",
        f'  his units within his {ld.radius:g}" radius after the Command step move at full '
        "rate, the others at half (002 COMMAND, LEADERS)",
    ]
    if isinstance(order, od.Leader) and 0 <= int(order.attach) < len(b.state.units):
        u = b.state.units[int(order.attach)]
        mine = "one of his units" if u.leader == ld.i else "not of his command"
        out.append(
            f"  attached to {u.name} ({mine}) he adds +{ld.bonus} to its charge, stand and "
            f"melee rolls, not its fire; each time it loses stands he is lost on a "
            f"{b.r.leader_loss_on}-6 (002 MORALE, MELEE, LEADERS)"
        )
    else:
        out.append("  staying, he keeps his place (attached, he moves with his unit)")
    return out


def _stay_why(b: Battle, u: Unit, order: od.Order) -> list[str]:
    """Seed 002 Move and Rally for hold, turn about and rout: what a Morale Marker allows,
    or why a unit may only hold."""
    limit = b.status.move_limit(b, u)
    if limit == "rally":
        marker = (
            "  with a Morale Marker it may only turn about (180 degrees) or rout away from the "
            "nearest enemy (002 Move)"
        )
        if isinstance(order, od.Rout):
            key = R.move_key(u.type, u.formation, u.mounted, u.limbered)
            rout = b.r.movement[key].rout
            how = (
                f'up to {rout:g}" directly away from the nearest enemy, facing away'
                if rout > 0
                else "it limbers in place (reading unlimbered_artillery_rout)"
            )
            return [
                marker,
                f"  a rout: {how} (002 MOVEMENT, the ROUT column); it keeps its marker "
                "(Rally lifts it only from units that did not move)",
            ]
        return [
            marker,
            "  it stays (a turn about only changes its facing), so it rallies: its marker is "
            "removed at the Rally step (002 Rally: 'units that did not move except to change "
            "facing')",
        ]
    if limit in ("none", "no_advance"):
        mark = b.status.label(u) or "its status"
        may = "not move this turn, so it holds" if limit == "none" else "not advance"
        return [f"  {mark}: it may {may} (the {b.status.id} status rules)"]
    return ["  it stays where it is, as it faces; no dice"]


def _charge_why(b: Battle, u: Unit, v: Unit) -> list[str]:
    """Seed 002 charge paragraph, MORALE and MELEE for a charge: the reach, the charge and
    stand tests with their numbers and modifiers, the melee modifiers; what is rolled later."""
    found = RCH.charge_options(b, u, [v])
    flank = bool(found and found[0][1][3])
    allow = RCH.allowance(b, u, u.formation, u.mounted, u.limbered, None, False)
    out = [f'  it reaches {v.name} within its {allow:g}" move (002 charge paragraph, MOVEMENT)']
    morale = b.comp.morale
    if morale.id == OWN_MORALE:
        n_a, m_a, n_d, m_d, ma, md = S.charge_mods(b, u, v, flank)
        r = b.r
        test_a = R.morale_test(u.side, LO.attached_bonus(b, u), u.marker, r)[1]
        test_d = R.morale_test(v.side, LO.attached_bonus(b, v), v.marker, r)[1]
        test_a += LO.effect_mods(u, "charge", r) if u.extra else []
        test_d += LO.effect_mods(v, "morale", r) if v.extra else []
        out.append(
            f"  the charge test (002 MORALE): {n_a}+ on 2d6, {m_a:+d} ({_said(test_a)}); "
            "failed, it goes half way and takes a Morale Marker"
        )
        out.append(
            f"  then {v.name} stands on {n_d}+, {m_d:+d} ({_said(test_d)}); failed, it "
            'retreats 2D6" (3D6" mounted cavalry) and takes a Morale Marker (002 charge '
            "paragraph)"
        )
        mine = R.melee_modifiers(S.melee_facts(b, u, v, True, flank), r)
        theirs = R.melee_modifiers(S.melee_facts(b, v, u, False, False), r)
        mine += LO.effect_mods(u, "melee", r) if u.extra else []
        theirs += LO.effect_mods(v, "melee", r) if v.extra else []
        out.append(
            f"  melee (002 MELEE), 2d6 each: {u.name} {ma:+d} ({_said(mine)}) against "
            f"{md:+d} ({_said(theirs)})"
        )
    else:
        passes = morale.pass_odds(b, u, "charge test")
        stands = morale.pass_odds(b, v, "stand test")
        out.append(
            f"  the charge test passes {pct(float(passes))} and {v.name} stands "
            f"{pct(float(stands))} ({morale.id} morale); then melee (002 MELEE)"
        )
    out.append("  not yet known: the dice of the tests and the melee")
    return out


def _said(mods: list[R.Mod]) -> str:
    """Modifiers in words: "stands fighting +4, uphill of enemy +1"."""
    return ", ".join(f"{m.text} {m.value:+d}" for m in mods if m.value) or "none"


def _ground_why(
    b: Battle, u: Unit, order: od.Move, form: str, mounted: bool, limbered: bool, cost: str | None
) -> list[str]:
    """Seed 002 MOVEMENT's rough column for this entry's own path (default rough_terrain:
    a move that touches rough ground anywhere goes at the rough rate), and a unit effect
    that changes the going (seed 001 Find the Way)."""
    x, y = float(order.x), float(order.y)
    dist = _hypot(x - u.x, y - u.y)
    if dist < 1e-9:
        return []
    board = b.setup.board
    rough = board.path_rough(u.x, u.y, x, y) or board.is_rough(x, y)
    where = "its path touches rough ground" if rough else "its path is open ground"
    out: list[str] = []
    if u.extra and fx(u, "terrain"):
        harder = fx(u, "terrain") == "harder"
        going = RCH.terrain_going(u, rough, dist)
        out.append(
            f"  {where}; {fx_why(u, 'terrain')} this turn: "
            + ("open counts as rough, rough may not be entered" if harder else "rough as open")
        )
        if going is None:
            return out
        rough = going
    lead = "  so" if out else f"  {where}:"
    if not rough:
        return [*out, f"{lead} the open rate (002 MOVEMENT)"]
    a = RCH.allowance(b, u, form, mounted, limbered, cost, True)
    rate = f'the whole move goes at the rough rate, {a:g}"'
    return [*out, f"{lead} {rate} (the rough column, 002 MOVEMENT; default rough_terrain)"]
