"""Seed 004's sequences: the five steps (III. SEQUENCE OF ACTION) and the card draw
(RANDOM MOVEMENT), as sequence roles over any combat role.

For each acting side X (the other is Y) the steps are, after seed 004 III: 1. X's
artillery fires except canister; 2. X's other units fire; 3. X moves (leaders first,
reading ``leaders_move_in_step_three``), then its markers lapse (the status's rally);
4. Y fires at X's chargers and at units that crossed its field of fire; 5. melee. The
five-step sequence runs them for side A, then side B; the card draw runs them for the
units of each card drawn.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, Final

from umpire.battle.effects import CROSSED, FxKey, fx
from umpire.battle.roles import AutoStep, Composition, Phase, RulesSpec, Step
from umpire.board.fmath import hypot as _hypot
from umpire.board.geometry import SURELY
from umpire.rules.sequence_cards.ladder import Ladder, ladder
from umpire.sides import SIDES

if TYPE_CHECKING:
    from umpire.battle.engine import Battle
    from umpire.battle.state import Unit
    from umpire.scenarios import Scenario

# math's functions that mypyc has no native form of, held in C statics (``Final``): a
# call then skips looking the name up in ``math`` (the same functions, the same floats).
_atan2: Final = math.atan2

RIFLES = "rifles: fire or move"


def other(side: str) -> str:
    """The other side."""
    return SIDES[1 - SIDES.index(side)]


class Auto(AutoStep):
    """A step that runs by itself: a function of the battle and the acting side."""

    def __init__(self, fn: Any):
        self.fn = fn

    def auto(self, b: Battle, side: str) -> None:
        self.fn(b, side)


_IN_ORDER: dict[frozenset[int], tuple[int, ...]] = {}
"""A scope's units in index order (a card's few units: its phases keep the same set)."""


def _mine(b: Battle, side: str) -> list[Unit]:
    """The living units of ``side`` in the current phase's scope (in index order)."""
    scope = b.scope
    us = b.state.units
    if scope is None:
        return [u for u in us if u.alive and u.side == side]
    order = _IN_ORDER.get(scope)
    if order is None:
        order = _IN_ORDER[scope] = tuple(sorted(scope))
    out = []
    for i in order:
        u = us[i]
        if u.alive and u.side == side:
            out.append(u)
    return out


def rifles(b: Battle, i: int) -> bool:
    """Does the scenario flag unit ``i`` as rifles (seed 004: fire or move, not both)?
    (The flags read once per battle, kept in ``b.kept``: the scenario is fixed.)"""
    flags: list[bool] | None = b.kept.get("sequence_cards:rifles")
    if flags is None:
        flags = b.kept["sequence_cards:rifles"] = [bool(u.rifles) for u in b.setup.scenario.units]
    return flags[i]


def _drop(d: dict[str, Any], key: str) -> bool:
    """``d.pop(key, None)`` (a generic method call in the mypyc build; most units have no
    such mark); True if it was there."""
    if key in d:
        del d[key]  # (pop is the generic call this avoids)
        return True
    return False


def after_fire(b: Battle, side: str) -> None:
    """Seed 004 III: defensive fire bars only the next steps 1-2; rifles that fired this turn
    stay put ("can either fire or move in a given turn"): in steps 1-2, or in a step 4
    before their own movement (defensive and pass-thru fire is fire too)."""
    turn = b.state.turn
    for u in _mine(b, side):
        fired: bool = fx(u, "fired") == turn
        if fx(u, "fired_defensive"):
            fired = fired or fx(u, "fired_defensive") == turn
            b.clear_fx(u, "fired_defensive")
        if fired and rifles(b, u.i):
            b.set_fx(u, "no_move", turn, RIFLES)
            if b.narrate:
                b.say(f"  {u.name} (rifles) fired this turn and may not move (seed 004 III)")


def mark_start(b: Battle, side: str) -> None:
    """Note where each unit stands before it moves (for pass-through fire), and end every
    earlier movement's "crossed a field of fire" mark: step 4 fires only at the units that
    move now (seed 004 RANDOM MOVEMENT: 'The units on that card ... - and only those units
    - may fire and move'; III step 4: the units of the side that just moved)."""
    for u in b.state.units:
        if u.extra and _drop(u.extra, CROSSED):
            b.record(u)
    for u in _mine(b, side):
        u.extra["from"] = [u.x, u.y]
        u.extra["acted"] = b.state.turn  # the 'Moved' marker of seed 004 EFFECT
        b.record(u)


def crossing(b: Battle, side: str, step: float) -> None:
    """Reading ``pass_through``: which enemy fields of fire each moved unit crossed."""
    foes = [v for v in b.state.units if v.alive and v.side != side]
    arc = math.radians(b.geo["fire_arc_degrees"])
    cone = math.tan(arc) if 0.0 < arc <= math.radians(80.0) else 0.0  # see _outside_cone
    # each foe's reach asked when a moved unit first needs it (most steps move no one);
    # the combat's reach reads the foe only, which nothing here changes
    combat = b.comp.combat
    reach: dict[int, float] = {}
    for u in _mine(b, side):
        marks = u.extra
        if "from" not in marks:
            continue
        start = marks["from"]
        del marks["from"]
        b.record(u)
        if start is None:
            continue
        x0, y0 = float(start[0]), float(start[1])
        dist = _hypot(u.x - x0, u.y - y0)
        if rifles(b, u.i) and (dist >= 1e-9 or u.moved or u.charged):
            b.set_fx(u, "no_fire", b.state.turn, RIFLES)  # a charge that went nowhere is a move
        if dist < 1e-9:
            continue
        n = max(1, math.ceil(dist / step))
        crossed = []
        ex, ey = (u.x - x0) / dist, (u.y - y0) / dist  # the path's direction
        ux, uy, uhd = u.x, u.y, u.hd
        ddx, ddy = ux - x0, uy - y0
        for v in foes:
            r = reach.get(v.i)
            if r is None:
                r = reach[v.i] = combat.reach(b, v)
            if r <= 0:
                continue
            vx, vy = v.x, v.y
            # Every point tried lies on the path: if the whole path is beyond the field
            # of fire's reach (with a margin for rounding), no point can be inside it.
            along = min(max((vx - x0) * ex + (vy - y0) * ey, 0.0), dist)
            ox, oy = x0 + ex * along - vx, y0 + ey * along - vy
            lim = r + v.hd + uhd
            far = lim + 1e-6
            if ox * ox + oy * oy > far * far * SURELY + 1e-12 or _hypot(ox, oy) > far:
                continue  # beyond for sure (geometry.surely_beyond), or beyond
            c, s = math.cos(v.theta), math.sin(v.theta)  # geometry.local, written out
            if cone > 0.0 and _outside_cone(x0 - vx, y0 - vy, ux - vx, uy - vy, c, s, cone):
                continue
            lim2 = lim * lim * SURELY + 1e-12
            for k in range(n + 1):
                px = x0 + ddx * k / n
                py = y0 + ddy * k / n
                dx, dy = px - vx, py - vy
                if dx * dx + dy * dy > lim2 or _hypot(dx, dy) > lim:
                    continue  # beyond for sure (geometry.surely_beyond), or beyond
                fwd = dx * c + dy * s
                if fwd > 0 and _atan2(abs(-dx * s + dy * c), fwd) <= arc:
                    crossed.append(v.i)
                    break
        if crossed:
            u.extra[CROSSED] = crossed
            b.record(u)


class Crossing(AutoStep):
    """The ``crossing`` step: :func:`crossing` at the ladder's ``crossing_step`` (a class of
    its own, not a lambda in an :class:`Auto`: the engine's call of ``auto`` is then native
    in the mypyc build)."""

    def __init__(self, step: float):
        self.step = step

    def auto(self, b: Battle, side: str) -> None:
        crossing(b, side, self.step)


def _outside_cone(
    ax: float, ay: float, bx: float, by: float, c: float, s: float, cone: float
) -> bool:
    """Does the whole segment from a to b (relative to a foe facing (c, s)) lie outside its
    front arc, for sure? The arc (forward, lateral within ``cone`` = tan of the half-angle,
    convex up to 80 degrees) is cut by straight lines: when both ends lie beyond the same
    line by a margin far above rounding, so does every point sampled between them. False
    says nothing (the samples are tried)."""
    fa, fb = ax * c + ay * s, bx * c + by * s
    if fa < -1e-7 and fb < -1e-7:
        return True  # behind the front
    la, lb = -ax * s + ay * c, -bx * s + by * c
    if fa * cone - la < -1e-7 and fb * cone - lb < -1e-7:
        return True  # beyond one side of the arc
    return fa * cone + la < -1e-7 and fb * cone + lb < -1e-7  # beyond the other


def turn_end(b: Battle, side: str) -> None:
    """This turn's marks end with it (a defensive fire's bar carries on to the next steps 1-2)."""
    for u in b.state.units:
        ex = u.extra
        if not ex:
            continue  # nothing marked (clear_fx and fx find nothing either)
        dropped = _drop(ex, CROSSED) | _drop(ex, "from") | _drop(ex, "acted")
        gone: list[FxKey] = []
        why = ex.get("fx_why")
        if why:
            if why.get("no_move") == RIFLES:
                gone.append("no_move")
            if why.get("no_fire") == RIFLES:
                gone.append("no_fire")
        if fx(u, "fired"):
            gone.append("fired")
        if gone and b.clear_fx(u, *gone):  # logs the unit, the marks dropped above too
            continue
        if dropped:
            b.record(u)


def activation(comp: Composition, lad: Ladder) -> list[tuple[str, bool, Step]]:
    """Steps 1-5 for one acting side: (name, by the other side?, step)."""
    combat, status = comp.combat, comp.status
    made: list[tuple[str, bool, Step | None]] = [
        (
            "artillery_fire",
            False,
            combat.step("fire", units="artillery", blocked_by="fired_defensive", mark="fired"),
        ),
        (
            "other_fire",
            False,
            combat.step("fire", units="other", blocked_by="fired_defensive", mark="fired"),
        ),
        ("after_fire", False, Auto(after_fire)),
        ("command", False, combat.step("command")),
        ("mark_start", False, Auto(mark_start)),
        ("move", False, combat.step("move")),
        ("rally", False, status.step("rally")),
        ("crossing", False, Crossing(lad.crossing_step)),
        # the events' reaction point: the other side's reaction (before its step 4 fire)
        *[(name, True, step) for name, step in comp.hooks("reaction")],
        (
            "defensive_fire",
            True,
            combat.step("fire", targets="chargers", mark="fired_defensive", mode="defensive"),
        ),
        ("melee", False, combat.step("melee")),
    ]
    return [(name, by_other, step) for name, by_other, step in made if step is not None]


def ending(comp: Composition) -> list[tuple[str, Step]]:
    """The end of a turn: the events', the status's, then this turn's marks cleared."""
    out = list(comp.hooks("turn_end"))
    end = comp.status.step("turn_end")
    if end is not None:
        out.append(("status_turn_end", end))
    out.append(("turn_end", Auto(turn_end)))
    return out


class FiveStep:
    """Seed 004 III: the five steps for side A, then for side B.

    A fixed turn (``umpire.battle.roles.FixedTurn``'s seam: ``sides`` and ``at``) written
    out rather than inherited, as ``CardDraw`` is: a class of its own compiles to a native
    class in the mypyc build, whose ``phases`` the engine's cursor reads without a
    dictionary look-up several times per decision."""

    id = "five-step"

    def __init__(self, spec: RulesSpec, lad: Ladder | None = None):
        self.lad = lad or ladder()
        a = spec.first or self.lad.first
        self.order: tuple[str, ...] = (a, other(a))
        self.phases: list[Phase] = []

    def sides(self, b: Battle) -> tuple[str, ...]:
        """The sides in the order they act (side A first)."""
        return self.order

    def at(self, b: Battle, seq: int) -> Phase | None:
        """The phase at ``seq``; None past the end of the turn."""
        phases = self.phases
        return phases[seq] if seq < len(phases) else None

    def bind(self, comp: Composition) -> None:
        """Build the turn's phases once."""
        a = self.order[0]
        phases = [Phase(a, name, step) for name, step in comp.hooks("turn_start")]
        for side in self.order:
            for name, by_other, step in activation(comp, self.lad):
                phases.append(Phase(other(side) if by_other else side, name, step))
        phases += [Phase(a, name, step) for name, step in ending(comp)]
        self.phases = phases


# -- the card draw -----------------------------------------------------------------------


def cards_of(s: Scenario, grouping: str) -> dict[str, tuple[str, str, tuple[int, ...]]]:
    """Reading ``card_groupings``: card id -> (name, side, unit indexes), from the scenario.

    Seed 004 RANDOM MOVEMENT: "grouped into regiments (all cavalry, Napoleonic infantry),
    or brigades (Civil War ... infantry)": under ``brigade`` a cavalry regiment has a card
    of its own, not its brigade's."""
    leaders = {ld.id: ld for ld in s.leaders}
    groups: dict[str, list[int]] = {}
    names: dict[str, str] = {}
    for i, u in enumerate(s.units):
        alone = u.type == "artillery" or (u.type == "cavalry" and grouping != "division")
        if u.card:
            key, name = f"{u.side}:{u.card}", u.card
        elif alone or grouping == "regiment" or u.leader not in leaders:
            key, name = f"{u.side}:{u.id}", u.name or u.id
        elif grouping == "division" and leaders[u.leader].division:
            div = leaders[u.leader].division
            key, name = f"{u.side}:div:{div}", div
        else:
            ld = leaders[u.leader]
            key, name = f"{u.side}:{ld.id}", f"{ld.name or ld.id}'s brigade"
        groups.setdefault(key, []).append(i)
        names[key] = name
    return {
        key: (names[key], s.units[idx[0]].side, tuple(idx)) for key, idx in sorted(groups.items())
    }


class CardDraw:
    """Seed 004 RANDOM MOVEMENT: a card per grouping of both sides, drawn blind from one box."""

    id = "card-draw"

    def __init__(self, spec: RulesSpec, lad: Ladder | None = None):
        self.lad = lad or ladder()
        a = spec.first or self.lad.first
        self.order = (a, other(a))
        self.grouping = spec.cards
        self._cards: dict[int, tuple[Any, dict[str, tuple[str, str, tuple[int, ...]]]]] = {}
        self._head: list[tuple[str, Step]] = []
        self._card: list[tuple[str, bool, Step]] = []
        self._end: list[tuple[str, Step]] = []
        self._scopes: dict[str, frozenset[int]] = {}
        self._head_phases: list[Phase] = []
        self._end_phases: list[Phase] = []
        self._card_phases: dict[tuple[int, str, str], Phase] = {}
        # each card's row of phases, per (card, drawer, side), each filled when first read
        # (before the first draw the side is "": only the draw is read)
        self._rows: dict[tuple[str, str, str], list[Phase | None]] = {}
        # the row of the card last read by ``at``, and what it was made for
        self._row: list[Phase | None] = []
        self._row_card = self._row_drawer = self._row_side = "\0"

    def bind(self, comp: Composition) -> None:
        """Build the steps once: the events' turn start, the shuffle, a card's steps, the end."""
        self._head = [*comp.hooks("turn_start"), ("shuffle", Auto(self.shuffle))]
        self._card = [("draw", False, Auto(self.draw)), *activation(comp, self.lad)]
        self._end = ending(comp)
        a = self.order[0]
        self._head_phases = [Phase(a, name, step) for name, step in self._head]
        self._end_phases = [Phase(a, name, step) for name, step in self._end]
        self._card_phases = {}
        self._rows = {}
        self._row = []
        self._row_card = self._row_drawer = self._row_side = "\0"

    def cards(self, b: Battle) -> dict[str, tuple[str, str, tuple[int, ...]]]:
        """The scenario's cards (kept per scenario object)."""
        s = b.setup.scenario
        hit = self._cards.get(id(s))
        if hit is None or hit[0] is not s:
            hit = self._cards[id(s)] = (s, cards_of(s, self.grouping))
        return hit[1]

    def sides(self, b: Battle) -> tuple[str, ...]:
        """Side A draws first."""
        return self.order

    def at(self, b: Battle, seq: int) -> Phase | None:
        """The phase at ``seq``, from the number of cards this turn and the card drawn."""
        head = self._head_phases
        if seq < len(head):
            return head[seq]
        seq -= len(head)
        deck: dict[str, Any] | None = b.state.extra.get("cards")
        per = len(self._card)
        total: int = deck.get("total", 0) if deck else 0  # (an int: no call of int())
        if seq < total * per:
            assert deck is not None
            a = self.order[0]
            card: str = deck.get("card", "")
            drawer: str = deck.get("drawer", a)
            side: str = deck.get("side", a)
            # the phases of the card being played, kept while the same card is (the cursor
            # reads them several times a step): no key made or hashed per call; a card's
            # row is looked up once when it comes up, and kept for the next time it does
            row = self._row
            if not (
                card == self._row_card and drawer == self._row_drawer and side == self._row_side
            ):
                key = (card, drawer, side)
                got = self._rows.get(key)
                if got is None:
                    got = self._rows[key] = [None] * per
                row = self._row = got
                self._row_card, self._row_drawer, self._row_side = card, drawer, side
            k = seq % per
            found = row[k]
            if found is None:
                found = row[k] = self._card_phase(b, k, drawer, side, card)
            return found
        seq -= total * per
        if seq < len(self._end_phases):
            return self._end_phases[seq]
        return None

    def _card_phase(self, b: Battle, k: int, drawer: str, side: str, card: str) -> Phase:
        """Step ``k`` of a card's steps: the same phase object each time it comes round
        (made once per card and side)."""
        name, by_other, step = self._card[k]
        who = drawer if name == "draw" else side
        key = (k, who, card)
        found = self._card_phases.get(key)
        if found is None:
            if name == "draw":
                found = Phase(who, name, step)
            elif by_other:
                found = Phase(other(who), name, step)
            else:
                found = Phase(who, name, step, self.scope(b, card))
            self._card_phases[key] = found
        return found

    def scope(self, b: Battle, card: str) -> frozenset[int]:
        """The units of a card."""
        hit = self._scopes.get(card)
        if hit is None:
            entry = self.cards(b).get(card)
            hit = self._scopes[card] = frozenset(entry[2] if entry else ())
        return hit

    def shuffle(self, b: Battle, side: str) -> None:
        """Every card with a unit left goes into the box; side A draws first.

        The box is kept as a sorted list: its order is never made (reading
        ``cards_without_replacement``), each draw picks with a logged die.
        """
        us = b.state.units
        deck = sorted(
            k for k, (_, _, idx) in self.cards(b).items() if any(us[i].alive for i in idx)
        )
        b.state.extra["cards"] = {
            "deck": deck,
            "total": len(deck),
            "drawn": [],
            "card": "",
            "side": "",
            "drawer": self.order[0],
        }
        if b.narrate:
            b.say(f"Turn {b.state.turn}: the cards are shuffled, {len(deck)} in the box")

    def draw(self, b: Battle, side: str) -> None:
        """Seed 004: the drawer takes one card without looking; its units act next."""
        deck = b.state.extra["cards"]
        left: list[str] = deck["deck"]
        if not left:  # pragma: no cover - the turn ends when the box is empty
            return
        cards = self.cards(b)
        k = b.pick([cards[c][0] for c in left], "card draw: one card from the box", cup=True)
        card = left.pop(k)
        name, card_side, idx = self.cards(b)[card]
        deck["drawn"].append(card)
        deck["card"] = card
        deck["side"] = card_side
        drawer = deck["drawer"]
        deck["drawer"] = other(card_side)  # "The side that did not move now draws"
        if b.narrate:
            alive = sum(1 for i in idx if b.state.units[i].alive)
            b.say(
                f"{drawer.title()} draws: {name} ({card_side})"
                + ("" if alive else ": no units left")
            )
