"""Seed 003 in battle: the marks 003 keeps on a unit and the dice that change them.

The unit's book (``u.extra["ar"]``: officers, hits carried, smoke, reaction, ammunition),
the fog level, hits and lost pieces, officers and captains, contests (X) and the reactions
they cause (XIII), each rolled through the battle. Split from ``steps`` (issue 25).
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from functools import cache
from typing import TYPE_CHECKING, Any, TypeVar

from umpire.battle.effects import fx
from umpire.dice.luck import Dist, bernoulli, by_faces, convolve
from umpire.rules.action_reaction import ammo as A
from umpire.rules.action_reaction import fire as F
from umpire.rules.action_reaction import melee as M
from umpire.rules.action_reaction import officers as O

if TYPE_CHECKING:
    from umpire.battle.engine import Battle
    from umpire.battle.state import Unit


_T = TypeVar("_T")

KEY = "ar"

OWN_MORALE = "action-reaction"
"""The id of 003's own morale role (the contest of officers and men): with it the menus
keep their cached odds; another module's test is asked for its ``pass_odds``."""


def cfg(b: Battle) -> dict[str, Any]:
    """The ``[battle]`` table of rules.toml."""
    out: dict[str, Any] = b.r["battle"]
    return out


# -- the unit's 003 book -----------------------------------------------------------------------


def book(b: Battle, u: Unit) -> dict[str, Any]:
    """``u``'s 003 marks, made on first use (officers, hits, smoke, ammunition)."""
    bk: dict[str, Any] | None = u.extra.get(KEY)
    if bk is None:
        bk = u.extra[KEY] = {"off": int(cfg(b)["officers"]), "hits": 0, "smoke": 0}
        if u.type == "artillery":
            bk["ammo"] = A.full(u.stands)
        b.record(u)
    return bk


def muster(b: Battle) -> None:
    """Every living unit's book, made before a step asks anyone for an order: a book first
    made by a player's look (a menu, the odds AI's) would be state that a replay of the
    faces and orders does not make (issue 20, replay gives the same state)."""
    for u in b.state.units:
        if u.alive and KEY not in u.extra:
            book(b, u)


def d10(b: Battle, n: int, purpose: str) -> list[int]:
    """``n`` d10 showing 0-9 (reading ``d10_zero``: a 10 on the die is a 0)."""
    return [f % 10 for f in b.roll(n, 10, purpose)]


def troop(u: Unit) -> str:
    """The seed's troop word for a charge: infantry, cavalry (mounted) or other."""
    if u.type == "foot":
        return "infantry"
    if u.type == "cavalry" and u.mounted:
        return "cavalry"
    return "other"


def fog(b: Battle) -> int:
    """The fog's thickness now (0: none)."""
    return int(b.state.extra.get(KEY, {}).get("fog", 0))


def on_hill(b: Battle, u: Unit) -> bool:
    """Is ``u`` on a hill (above the fog)?"""
    return b.setup.board.height_at(u.x, u.y) > 0


def say(b: Battle, text: str) -> None:
    """A narrative line."""
    if b.narrate:
        b.say(text)


# -- losses, officers and the loss roll (XVII) -----------------------------------------------


def remove(b: Battle, u: Unit, why: str) -> None:
    """Take ``u`` off the table; attached leaders ride on."""
    b.take_off(u)
    say(b, f"  {u.name} is removed ({why})")


def take_hits(b: Battle, u: Unit, hits: int, cause: str) -> int:
    """Default ``hits_per_piece``: hits become pieces lost (double in column); the loss roll."""
    if hits <= 0 or not u.alive:
        return 0
    bk = book(b, u)
    pieces, bk["hits"] = F.pieces_lost(hits, bk["hits"], int(cfg(b)["hits_per_piece"]), u.formation)
    b.record(u)
    say(b, f"  {u.name}: {hits} hit{'s' if hits != 1 else ''} ({cause})")
    if pieces:
        b.comp.combat.lose_stands(b, u, pieces, cause)
    return pieces


def lose_pieces(b: Battle, u: Unit, n: int, cause: str) -> None:
    """Pieces off ``u``; XVII.B-C: officers checked, the senior captain, the loss roll."""
    if n <= 0 or not u.alive:
        return
    n = min(n, u.stands)
    u.stands -= n
    b.state.losses[u.side] = b.state.losses.get(u.side, 0) + n
    bk = book(b, u)
    if "ammo" in bk:
        bk["ammo"] = bk["ammo"][: max(u.stands, 0)]
    say(b, f"  {u.name} loses {n} piece{'s' if n > 1 else ''} ({cause}), {u.stands} left")
    if u.stands <= 0:
        remove(b, u, "no pieces left")
        return
    b.reshape(u)
    officer_check(b, u)
    loss_roll(b, u)


def officer_check(b: Battle, u: Unit) -> None:
    """XVII.B.1-3 with rules-notes 003: each officer 1d6 (even hit), then 1d20 >= 15 removes."""
    bk = book(b, u)
    if bk["off"] <= 0:
        return
    lost = 0
    for k in range(bk["off"]):
        down = False
        if O.officer_hit(b.roll(1, 6, f"{u.name}: is officer {k + 1} hit? (1d6, even)")[0]):
            face = b.roll(1, 20, f"{u.name}: officer {k + 1}'s wound (1d20, 15+ down)")[0]
            down = O.officer_removed(face)
            lost += down
        if b.luck is not None:  # XVII.B.1: an officer spared is his unit's luck (issue 24)
            b.note(u.side, "officers spared", int(not down), bernoulli(1 - O.officer_loss_odds()))
    if lost:
        bk["off"] -= lost
        b.record(u)
        say(b, f"  {u.name}: {lost} officer{'s' if lost > 1 else ''} down, {bk['off']} left")
    if bk["off"] <= 0:
        captain(b, u)


def captain(b: Battle, u: Unit) -> None:
    """XII.C / XVII.B.2-3: roll for the senior captain (even d10); else the unit stalls."""
    bk = book(b, u)
    face = d10(b, 1, f"{u.name}: the senior captain takes command? (1d10, even)")[0]
    if b.luck is not None:  # XII.C.2: an even d10 restores an officer, the unit's luck
        b.note(u.side, "tests passed", int(O.senior_captain(face)), captain_dist())
    if O.senior_captain(face):
        bk["off"] = 1
        bk.pop("stall", None)
        say(b, f"  {u.name}: the senior captain takes command ({face})")
    else:
        bk["stall"] = True
        say(b, f"  {u.name} stalls: no officer ({face})")
    b.record(u)


def contest(b: Battle, u: Unit, why: str) -> bool:
    """Reading ``any_officer_rallies``: each officer against the men until one wins."""
    bk = book(b, u)
    for k in range(bk["off"]):
        while True:
            off, men = d10(b, 2, f"{u.name} {why}: officer {k + 1} against the men (2d10)")
            res = O.contest(off, men)
            if res != "tie":
                break
        if b.luck is not None:  # XII.A.1-2: the officer winning is the unit's luck
            b.note(u.side, "tests passed", int(res == "officer"), contest_dist())
        if res == "officer":
            say(b, f"  {u.name}: officer {k + 1} wins ({off} against {men}): {why}")
            return True
        say(b, f"  {u.name}: the men win ({men} against officer {k + 1}'s {off})")
    return False


def loss_roll(b: Battle, u: Unit) -> None:
    """Reading ``loss_roll``: the d6 list of XV.2.(3); an officer attempts a rally first."""
    if not u.alive:
        return
    face = b.roll(1, 6, f"{u.name} lost a piece: the reaction (1d6)")[0]
    what, inches = M.column_reaction(face)
    if b.luck is not None:  # XV.2.(3)'s d6 list: it holds (no retreat nor withdrawal)
        b.note(u.side, "reactions held", int(_held(what)), held_d6())
    if what == "none":
        say(b, f"  {u.name} rolls {face}: it stands")
        return
    if book(b, u)["off"] and b.comp.morale.test(b, u, "rallies"):
        return
    react(b, u, what, inches, None, rout=what == "retreat")


# -- reactions -------------------------------------------------------------------------------


def react(b: Battle, u: Unit, what: str, inches: int, frm: Unit | None, rout: bool = False) -> None:
    """Carry out a reaction: withdraw, retreat (a rout on the loss roll), prone or none.

    The mounted status marks it (``on_setback`` with ``withdraw``, ``retreat``, ``prone`` or
    ``rout``; 003's status keeps the reaction marker, another its nearest rung).
    """
    if what in ("none", "fire", ""):
        return
    enemy = frm or b.nearest_enemy(u)
    if what == "prone":
        say(b, f"  {u.name} goes prone")
        b.comp.status.on_setback(b, u, "prone", enemy)
        return
    if rout:
        say(b, f'  {u.name} routs {inches}"')
        book(b, u)["rout_inches"] = float(inches)
        b.comp.status.on_setback(b, u, "rout", enemy)
        book(b, u).pop("rout_inches", None)
        b.record(u)
    else:
        say(b, f'  {u.name} {"retreats" if what == "retreat" else "withdraws"} {inches}"')
        b.comp.status.on_setback(b, u, what, enemy)
    if enemy is not None and u.alive:
        b.comp.combat.displace(b, u, enemy, float(inches), rout, what)


def _held(what: str) -> bool:
    """A reaction the target's side is glad of: it stays (no retreat nor withdrawal)."""
    return what not in ("retreat", "withdraw")


def held_d10() -> Dist:
    """XIII.B.1.(1)'s d10 list: P(the target holds), for the luck report (issue 24)."""
    return by_faces(1, 10, lambda f: int(_held(M.reaction(f[0] % 10)[0])))


def held_d6() -> Dist:
    """XV.2.(3)'s d6 list for a column: P(it holds)."""
    return by_faces(1, 6, lambda f: int(_held(M.column_reaction(f[0])[0])))


def contest_dist() -> Dist:
    """XII.A.1-2: P(the officer wins) of one contest, ties rolled again (reading
    ``contest_tie``): P(officer) / (P(officer) + P(men)), for the luck report (issue 24)."""
    odds = O.contest_odds()
    return bernoulli(odds["officer"] / (odds["officer"] + odds["men"]))


def captain_dist() -> Dist:
    """XII.C.2: P(the senior captain takes command) on his d10."""
    return bernoulli(O.senior_captain_odds())


@cache
def dice_total(n: int, sides: int) -> Dist:
    """The exact total of ``n``d``sides`` (faces 1..sides), by convolution: a side's own
    hand-to-hand dice or a charge's dice, for the luck report (issue 24)."""
    return convolve([by_faces(1, sides, sum)] * n)


def expected(dist: dict[int, Fraction]) -> float:
    """The mean of a distribution."""
    return float(sum(k * p for k, p in dist.items()))


def odds(b: Battle, fn: Callable[..., _T], *args: Any) -> _T:
    """``fn(*args)``, an exact odds function of its arguments and the rules data, worked
    out once per setup (``Setup.kept``: every battle on the scenario shares it): menus ask
    it again and again. Do not change what it returns."""
    key = ("003", fn, *args)
    kept = b.setup.kept
    if key in kept:
        found: _T = kept[key]
        return found
    made = kept[key] = fn(*args)
    return made


def move_limit(b: Battle, u: Unit) -> str:
    """What the mounted status allows, and 003's own marks (rout, stall, reaction)."""
    limit = b.comp.status.move_limit(b, u)
    bk = book(b, u)
    if bk.get("rout") or bk.get("stall"):
        return "none"
    if u.extra and (fx(u, "no_move") or fx(u, "no_act")):
        return "none"
    if limit == "free" and bk.get("react"):
        return "no_advance"
    return limit
