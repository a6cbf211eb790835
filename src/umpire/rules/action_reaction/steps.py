"""Seed 003 in battle: the steps of the XII turn, charges, hand-to-hand and ordered fire.

Everything 003 keeps on a unit lives in ``u.extra["ar"]`` (officers, hits carried, smoke
markers, reaction, disruption, rout, stall, ammunition per gun, the target fired at last);
the fog level in ``state.extra["ar"]``. The rulings are the pure functions of this
package (artillery, melee, officers, weather, movement, fire, ammo, terrain); this module
rolls their dice through the battle and applies them. Defaults and readings:
``data/labels.toml`` (docs/action_reaction.md).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction
from functools import cache
from typing import TYPE_CHECKING, Any, NamedTuple, TypeVar

from umpire.battle.effects import fx, fx_why
from umpire.battle.roles import AutoStep, Order
from umpire.board.fmath import hypot as _hypot
from umpire.dice.luck import Dist, by_faces, dist_of
from umpire.errors import IllegalActionError
from umpire.rules.action_reaction import ammo as A
from umpire.rules.action_reaction import artillery as ART
from umpire.rules.action_reaction import fire as F
from umpire.rules.action_reaction import melee as M
from umpire.rules.action_reaction import menu_odds as MO
from umpire.rules.action_reaction import movement as MV
from umpire.rules.action_reaction import officers as O
from umpire.rules.action_reaction import weather as W
from umpire.rules.action_reaction.h2h import loser_odds

_T = TypeVar("_T")

if TYPE_CHECKING:
    from umpire.battle.engine import Battle
    from umpire.battle.state import Unit

KEY = "ar"


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
    return bk


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


def hollows(b: Battle) -> tuple[list[int], int]:
    """Reading ``fog_per_hollow``: each board cell's hollow (the connected stretches of low
    ground, level 0; -1 on a hill) and how many there are; made once per setup."""
    key = ("003", "hollows")
    found: tuple[list[int], int] | None = b.setup.kept.get(key)
    if found is not None:
        return found
    board = b.setup.board
    nx, ny = board.nx, board.ny
    level = board.level.ravel().tolist()
    label = [-1] * (nx * ny)
    n = 0
    for start in range(nx * ny):
        if level[start] != 0 or label[start] >= 0:
            continue
        label[start] = n
        todo = [start]
        while todo:
            k = todo.pop()
            i, j = divmod(k, ny)
            for ii, jj in ((i + 1, j), (i - 1, j), (i, j + 1), (i, j - 1)):
                if 0 <= ii < nx and 0 <= jj < ny:
                    kk = ii * ny + jj
                    if level[kk] == 0 and label[kk] < 0:
                        label[kk] = n
                        todo.append(kk)
        n += 1
    found = b.setup.kept[key] = (label, n)
    return found


def hollow_at(b: Battle, x: float, y: float) -> int:
    """The hollow at (x, y), or -1 on a hill (above the fog, XII.D.1.d)."""
    board = b.setup.board
    i = min(max(int(x / board.cell), 0), board.nx - 1)
    j = min(max(int(y / board.cell), 0), board.ny - 1)
    return hollows(b)[0][i * board.ny + j]


def fog_at(b: Battle, x: float, y: float) -> int:
    """XII.D.1.c-d: the fog's thickness where (x, y) stands: its hollow's card, 0 on a hill."""
    st = b.state.extra.get(KEY)
    if not st or not st.get("fog"):
        return 0
    h = hollow_at(b, x, y)
    if h < 0:
        return 0
    levels: list[int] | None = st.get("fog_hollows")
    return int(st["fog"]) if levels is None or h >= len(levels) else int(levels[h])


def fog_line(b: Battle, u: Unit, t: Unit) -> int:
    """Reading ``fog_per_hollow``: the fog on a line of fire or sight is the thicker of the
    hollows its two ends stand in; a unit on a hill stands in none (a battery on the hill
    pays only the fog of the hollow it fires into)."""
    if not fog(b):
        return 0
    return max(fog_at(b, u.x, u.y), fog_at(b, t.x, t.y))


def clear_field(b: Battle, u: Unit, t: Unit) -> bool:
    """XIII.B.1.c: a smokeless, fog-free field between ``u`` and ``t``."""
    smoke = W.smoke_level(book(b, u)["smoke"], book(b, t)["smoke"])
    return smoke == 0 and fog_line(b, u, t) == 0


def say(b: Battle, text: str) -> None:
    """A narrative line."""
    if b.narrate:
        b.say(text)


# -- losses, officers and the loss roll (XVII) -----------------------------------------------


def remove(b: Battle, u: Unit, why: str) -> None:
    """Take ``u`` off the table; attached leaders ride on."""
    u.alive = False
    for ld in b.state.leaders:
        if ld.attached == u.i:
            ld.attached = -1
    b.changed(u)
    say(b, f"  {u.name} is removed ({why})")


def take_hits(b: Battle, u: Unit, hits: int, cause: str) -> int:
    """Default ``hits_per_piece``: hits become pieces lost (double in column); the loss roll."""
    if hits <= 0 or not u.alive:
        return 0
    bk = book(b, u)
    pieces, bk["hits"] = F.pieces_lost(hits, bk["hits"], int(cfg(b)["hits_per_piece"]), u.formation)
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
    u.resize()
    b.changed(u)
    officer_check(b, u)
    loss_roll(b, u)


def officer_check(b: Battle, u: Unit) -> None:
    """XVII.B.1-3 with rules-notes 003: each officer 1d6 (even hit), then 1d20 >= 15 removes."""
    bk = book(b, u)
    if bk["off"] <= 0:
        return
    lost = 0
    for k in range(bk["off"]):
        if O.officer_hit(b.roll(1, 6, f"{u.name}: is officer {k + 1} hit? (1d6, even)")[0]):
            face = b.roll(1, 20, f"{u.name}: officer {k + 1}'s wound (1d20, 15+ down)")[0]
            if O.officer_removed(face):
                lost += 1
    if lost:
        bk["off"] -= lost
        say(b, f"  {u.name}: {lost} officer{'s' if lost > 1 else ''} down, {bk['off']} left")
    if bk["off"] <= 0:
        captain(b, u)


def captain(b: Battle, u: Unit) -> None:
    """XII.C / XVII.B.2-3: roll for the senior captain (even d10); else the unit stalls."""
    bk = book(b, u)
    face = d10(b, 1, f"{u.name}: the senior captain takes command? (1d10, even)")[0]
    if O.senior_captain(face):
        bk["off"] = 1
        bk.pop("stall", None)
        say(b, f"  {u.name}: the senior captain takes command ({face})")
    else:
        bk["stall"] = True
        say(b, f"  {u.name} stalls: no officer ({face})")


def contest(b: Battle, u: Unit, why: str) -> bool:
    """Reading ``any_officer_rallies``: each officer against the men until one wins."""
    bk = book(b, u)
    for k in range(bk["off"]):
        while True:
            off, men = d10(b, 2, f"{u.name} {why}: officer {k + 1} against the men (2d10)")
            res = O.contest(off, men)
            if res != "tie":
                break
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
    if what == "none":
        say(b, f"  {u.name} rolls {face}: it stands")
        return
    if book(b, u)["off"] and contest(b, u, "rallies"):
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


def fire_reaction(b: Battle, t: Unit, firer: Unit, kind: str) -> None:
    """XV.2-3: the target of infantry or artillery fire reacts (d10 or d6 list)."""
    if not t.alive:
        return
    bk = book(b, t)
    how = F.fire_reaction(kind, t.formation, bool(bk.get("react")))
    if how == "facing":
        face_threat(b, t, firer)
        return
    if how == "d10":
        face = d10(b, 1, f"{t.name} under fire: its reaction (1d10)")[0]
        what, inches = M.reaction(face)
        if b.luck is not None:  # XV.2: the target holds (no retreat nor withdrawal)
            b.note(t.side, "reactions held", int(_held(what)), held_d10())
    elif how == "d6":
        face = b.roll(1, 6, f"{t.name} under fire: its reaction (1d6)")[0]
        what, inches = M.column_reaction(face)
        if b.luck is not None:  # XV.2.(3): a column's reaction
            b.note(t.side, "reactions held", int(_held(what)), held_d6())
    else:
        return
    if what in ("retreat", "withdraw") and bk["off"] and contest(b, t, "holds"):
        return
    if what == "fire":
        b.comp.status.on_setback(b, t, "fire_reaction", firer)
        say(b, f"  {t.name} reacts: it fires back")
        if may_fire(b, t):
            volley(b, t, firer, reaction=True)
        return
    react(b, t, what, inches, firer)


def face_threat(b: Battle, t: Unit, firer: Unit) -> None:
    """XV.1.a 'Units within the adjacent fields may change their facings' (reading
    ``skirmish_fields``): the target and its side's units within ``skirmish_fields`` inches of
    it turn to face the skirmishers when these are outside their front and the turn is free."""
    reach = float(cfg(b)["skirmish_fields"])
    for v in b.state.units:
        if not v.alive or v.side != t.side or _hypot(v.x - t.x, v.y - t.y) > reach:
            continue
        if move_limit(b, v) == "none" or b.in_arc(v, firer):
            continue
        th = math.atan2(firer.y - v.y, firer.x - v.x)
        if b.free_at(v, v.x, v.y, th, v.hw, v.hd):
            b.place(v, v.x, v.y, th)
            say(b, f"  {v.name} turns to face the skirmishers of {firer.name}")


def displace(b: Battle, u: Unit, frm: Unit, inches: float, face_away: bool, why: str) -> None:
    """Straight away from ``frm`` (its base, met at an angle in contact, does not hold it),
    stopping before any other base (off the table removes it); a unit stopped by another's
    base has collided with it and rolls its reaction (XVII.D)."""
    x0, y0 = u.x, u.y
    if not b.push_away(u, frm, inches, face_away, ignore=(frm.i,)):
        remove(b, u, f"{why} off the table")
        return
    step = b.geo["retreat_step"]
    moved = _hypot(u.x - x0, u.y - y0)
    if moved >= inches - step / 2 or face_away or book(b, u).get("rout"):
        return  # reading collision_in_battle: a routed unit that meets a base only stops
    dx, dy = u.x - frm.x, u.y - frm.y
    n = _hypot(dx, dy) or 1.0
    ahead = b.bases_at(u, u.x + dx / n * step, u.y + dy / n * step, u.theta)
    met = [v for v in ahead if v.i != frm.i]
    if met:
        collide(b, u, met[0])


def collide(b: Battle, u: Unit, v: Unit) -> None:
    """XVII.D 'If a unit collides with another unit it will roll 1 D10 for a reaction'
    (default ``collision_reaction``, reading ``collision_in_battle``): the reaction's marker
    is placed; its movement stops at the base met; a firing reaction fires at the nearest
    enemy in front."""
    face = d10(b, 1, f"{u.name} collides with {v.name}: its reaction (1d10)")[0]
    what, _ = F.collision_reaction(face)
    say(b, f"  {u.name} collides with {v.name} ({face}): {what}")
    if what == "none":
        return
    if what in ("retreat", "withdraw") and book(b, u)["off"] and contest(b, u, "holds"):
        return
    if what == "fire":
        b.comp.status.on_setback(b, u, "fire_reaction", v)
        shots = targets(b, u) if may_fire(b, u) and u.type != "artillery" else []
        if shots:
            volley(b, u, shots[0][0], reaction=True)
        return
    b.comp.status.on_setback(b, u, what, v)


# -- fire (XI, XV) -----------------------------------------------------------------------------


def may_fire(b: Battle, u: Unit) -> bool:
    """Alive, not routed or stalled, a firing troop, not barred by an effect."""
    if not u.alive or not b.comp.status.may_fire(b, u):
        return False
    if u.extra and (fx(u, "no_fire") or fx(u, "no_act")):
        return False
    bk = book(b, u)
    if bk.get("stall") or bk.get("rout"):
        return False
    if u.type == "artillery":
        return not u.limbered and any(any(g.values()) for g in bk.get("ammo", []))
    return not (u.type == "cavalry" and u.mounted)


def deductions(b: Battle, u: Unit, t: Unit, reaction: bool) -> tuple[int, list[str]]:
    """XV.4 'all are cumulative': smoke, fog, terrain and walls, disruption, effects."""
    from umpire.rules.action_reaction import terrain as T

    out: list[tuple[int, str]] = []
    for v, what in known_deductions(b, u, t):
        if v is None:  # XVI.F: the stone wall's firing deduction is a die, rolled now
            sides = T.fire_die(what) or 6
            face = b.roll(1, sides, f"{t.name} behind a stone wall: the deduction (1d{sides})")[0]
            out.append((T.fire_deduction(what, face), what.replace("_", " ")))
        else:
            out.append((v, what))
    if reaction and cfg(b)["reaction_fire_halved"]:
        half = ART.halved(b.roll(1, 6, f"{u.name}'s reaction fire: 1D6 halved")[0])
        out.append((half, "reaction"))
    mod = effects_mod(u, reaction)
    if mod:
        out.append((-mod, "effects"))
    return sum(v for v, _ in out), [f"-{v} {w}" if v >= 0 else f"+{-v} {w}" for v, w in out]


def known_deductions(b: Battle, u: Unit, t: Unit) -> list[tuple[int | None, str]]:
    """The deductions of ``u``'s fire at ``t`` known before it fires, in order: smoke, fog,
    woodlot, hill, each wall covering ``t`` (None and its XVI kind where a die decides it:
    the stone wall's 1d6) and disruption; the menus fold the dice in (``menu_odds``)."""
    from umpire.rules.action_reaction import terrain as T

    out: list[tuple[int | None, str]] = []
    smoke = W.smoke_deduction(W.smoke_level(book(b, u)["smoke"], book(b, t)["smoke"]))
    if smoke:
        out.append((smoke, "smoke"))
    thick = fog_line(b, u, t)
    if thick:
        out.append((W.fog_deductions(thick)[0], f"fog {thick}"))
    board = b.setup.board
    if board.in_cover(t.x, t.y) or board.is_rough(t.x, t.y):
        out.append((T.fire_deduction("woodlot"), "woodlot"))
    hu, ht = board.height_at(u.x, u.y), board.height_at(t.x, t.y)
    if hu != ht:
        out.append((T.fire_deduction("uphill" if ht > hu else "downhill"), "hill"))
    for kind in walls_covering(b, u, t):
        if T.fire_die(kind) is not None:
            out.append((None, kind))
        else:
            out.append((T.fire_deduction(kind), kind.replace("_", " ")))
    if book(b, u).get("disr"):
        out.append((1, "disrupted"))
    return out


def effects_mod(u: Unit, reaction: bool) -> int:
    """What effects add to ``u``'s stick (``fire_mod``; ``reaction_fire_mod`` in reaction)."""
    if not u.extra:
        return 0
    return int(fx(u, "fire_mod") or 0) + (int(fx(u, "reaction_fire_mod") or 0) if reaction else 0)


def walls_covering(b: Battle, u: Unit, t: Unit) -> list[str]:
    """Reading ``wall_covers_target``: the XVI kinds of the walls on the line of fire from
    ``u`` that stand nearer the target than the firer (they cover it); a unit firing out
    from behind its own wall is not slowed by it."""
    half = _hypot(t.x - u.x, t.y - u.y) / 2
    return [kind for at, kind in walls_on_path(b, u.x, u.y, t.x, t.y) if at > half]


def _walls(b: Battle) -> list[tuple[str, float, float, float, float, Any]]:
    """The board's walls: (XVI kind, x range, y range, shapely line), made once per setup."""
    key = ("003", "walls")
    found: list[tuple[str, float, float, float, float, Any]] | None = b.setup.kept.get(key)
    if found is None:
        found = []
        for f in b.setup.board.features:
            if f.kind == "wall":
                kind = {"rail": "rail_fence", "worm": "worm_fence"}.get(f.variant, "stone_wall")
                xs = [p[0] for p in f.points]
                ys = [p[1] for p in f.points]
                found.append((kind, min(xs), max(xs), min(ys), max(ys), f.geometry()))
        b.setup.kept[key] = found
    return found


def fire_line(u: Unit) -> int:
    """Pieces on the firing line: all in line or skirmish order, the leading piece in column."""
    return 1 if u.formation == "column" else u.stands


def targets(b: Battle, u: Unit) -> list[tuple[Unit, float]]:
    """Enemies ``u`` may fire at: in its front arc, in sight and on its stick."""
    reach = b.comp.combat.reach(b, u)
    st = b.status
    out = []
    for j in b.enemies(u):
        t = b.state.units[j]
        d = b.dist(u.i, j)
        if d <= reach + 1e-9 and b.in_arc(u, t) and b.sees(u, t):
            if b.touching(t) and not st.fire_on_engaged(b, t):
                continue  # the status forbids fire at Engaged units (seed 004 EFFECT)
            out.append((t, d))
    out.sort(key=lambda p: p[1])
    return out


def volley(
    b: Battle, u: Unit, t: Unit, reaction: bool = False, kind: str = "", called: float | None = None
) -> None:
    """One unit's fire at ``t``: infantry on the stick, or each gun's round (XI)."""
    bk = book(b, u)
    if u.type == "artillery":
        guns(b, u, t, kind or best_round(b, u, t), called)
        return
    d = b.dist(u.i, t.i)
    value = ART.stick_value(d)
    if value is None:
        return
    ded, why = deductions(b, u, t, reaction)
    # what hits is said before real dice are asked for (issue 21)
    need = f"hits on {value - ded} or less" if value - ded >= 0 else "no die can hit"
    faces = d10(b, fire_line(u), f'{u.name} fires at {t.name} ({d:.1f}", d10 per piece, {need})')
    hits = ART.stick_hits(faces, value, ded)
    if b.luck is not None:  # XI.A.4: the stick's hits are the firer's luck (issue 24)
        b.note(u.side, "fire hits", hits, dist_of(ART.stick_odds(len(faces), value, ded)))
    say(
        b,
        f'{u.name} fires at {t.name} ({d:.1f}": {value} on the stick'
        + (f" {' '.join(why)}" if why else "")
        + f"): {' '.join(map(str, faces))}: {hits} hit{'s' if hits != 1 else ''}",
    )
    bk["smoke"] = min(int(cfg(b)["smoke_cap"]), bk["smoke"] + 1)
    take_hits(b, t, hits, f"fire of {u.name}")
    if not reaction:
        fire_reaction(b, t, u, "skirmish" if u.formation == "skirmish" else "infantry")


def best_round(b: Battle, u: Unit, t: Unit) -> str:
    """The round a battery fires when no one chose: canister on the stick, else shell, case,
    solid shot, whichever is left first."""
    for kind in rounds(b, u, t):
        return kind
    return ""


def rounds(b: Battle, u: Unit, t: Unit) -> list[str]:
    """The rounds the battery may fire at ``t`` (XI.A): canister only on the rifle stick."""
    ammo = book(b, u).get("ammo", [])
    d = b.dist(u.i, t.i)
    out = []
    for kind in ("canister", "shell", "case", "solid_shot"):
        if kind == "canister" and ART.stick_value(d) is None:
            continue
        if A.left(ammo, kind) > 0:
            out.append(kind)
    return out


def guns(b: Battle, u: Unit, t: Unit, kind: str, called: float | None = None) -> None:
    """Each gun with a round of ``kind`` fires it (XI.A-C); smoke unless every gun misfired.
    Consecutive fire lands at the called range (XI.C.1): ``called``, else the range of the
    battery's last shot at ``t`` (reading ``called_range``)."""
    bk = book(b, u)
    if kind not in A.KINDS:
        A.spend([], 0, kind)  # the one-line error for an unknown type
    d = b.dist(u.i, t.i)
    consecutive = bk.get("aim") == t.id
    error = 0.0
    call = ""
    if consecutive and kind != "canister":
        rng = called if called is not None else float(bk.get("aim_range", d))
        error = rng - d
        call = f', range called {rng:.1f}"'
        bk["aim_range"] = rng
    elif kind != "canister":
        bk["aim_range"] = d  # XI.B: first fire is laid on the measured range
    later = kind == "canister" and later_canister(bk)
    total = 0
    smoke = False
    accumulating: list[int] = []
    for g in range(len(bk["ammo"])):
        if bk["ammo"][g].get(kind, 0) <= 0:
            continue
        bk["ammo"] = A.spend(bk["ammo"], g, kind)
        if kind == "canister":
            value = ART.stick_value(d)
            if value is None:
                raise IllegalActionError(f'canister beyond the rifle stick ({d:.1f}")')
            ded, _ = deductions(b, u, t, False)
            if later:
                face = b.roll(1, 6, f"{u.name} gun {g + 1}: accumulating smoke (1D6 halved)")[0]
                accumulating.append(ART.halved(face))
                ded += accumulating[-1]
            faces = d10(b, int(b.r["stick"]["canister_dice"]), f"{u.name} gun {g + 1}: canister")
            hits = ART.stick_hits(faces, value, ded)
            smoke = True
            if b.luck is not None:  # XI.A.4: canister on the stick, the firer's luck
                odds = ART.stick_odds(len(faces), value, ded)
                b.note(u.side, "artillery hits", hits, dist_of(odds))
        else:
            hits, fired = round_at(b, u, t, g, kind, consecutive, error)
            smoke = smoke or fired
            if b.luck is not None and not error:  # one gun's whole round (exact odds
                # at the true range only: a called range that errs has no odds here)
                within = sum(1 for k in (1, 2, 3) if k <= t.hw)
                odds = round_odds(kind, consecutive, within)
                b.note(u.side, "artillery hits", hits, dist_of(odds))
        total += hits
    if kind == "canister":
        bk["canister_fired"] = True
    bk["aim"] = t.id
    if smoke:
        bk["smoke"] = min(int(cfg(b)["smoke_cap"]), bk["smoke"] + 1)
    how = ""
    if accumulating:
        how = ", a later shot: accumulating smoke " + " ".join(f"-{v}" for v in accumulating)
    if not smoke:
        # XI.B.1.b.(1)(a) 'Do not place smoke if it is a misfire': nothing left the guns,
        # so nothing reached the target to react to (reading misfire_no_reaction).
        say(b, f"{u.name}: every gun misfires at {t.name} (no smoke, no reaction)")
        return
    say(
        b,
        f'{u.name} fires {kind.replace("_", " ")} at {t.name} ({d:.1f}"{call}{how}): {total} hits',
    )
    take_hits(b, t, total, f"{kind.replace('_', ' ')} of {u.name}")
    fire_reaction(b, t, u, "artillery")


def later_canister(bk: dict[str, Any]) -> bool:
    """XI.A.4.b 'Consecutive Fire' (reading ``canister_later_shot``): the battery fired
    canister before and that fire's smoke still stands on it (it has not thinned to 0)."""
    return bool(bk.get("canister_fired")) and bk["smoke"] > 0


def round_at(
    b: Battle, u: Unit, t: Unit, g: int, kind: str, consecutive: bool, error: float = 0.0
) -> tuple[int, bool]:
    """Reading ``artillery_round``: one gun's round; (hits, made smoke). ``error``: the
    called range less the true one (XI.C.1, reading ``called_range``)."""
    what = "consecutive" if consecutive else "first"
    hand = ART.first_fire(d10(b, 5, f"{u.name} gun {g + 1}: {what} fire (5d10)"), consecutive)
    side = ART.deviation(b.roll(1, 6, f"{u.name} gun {g + 1}: left or right? (1d6)")[0])
    if hand.result == "misfire":
        return 0, False
    flight = hand.flight
    if hand.result == "dud":
        flight = ART.dud_flight(b.roll(1, 6, f"{u.name} gun {g + 1}: the dud (1d6)")[0])
    elif flight == "both":
        flight = ART.settle_flight(b.roll(1, 6, f"{u.name} gun {g + 1}: long or short? (1d6)")[0])
    if side:
        off = ART.halved(b.roll(1, 6, f"{u.name} gun {g + 1}: inches {side} (1D6 halved)")[0])
        if off > t.hw:
            return 0, True
    # Reading called_range: the round lands at the called range (``error`` inches beyond
    # the target), plus a long round's inches or less a short one's.
    land = error
    if flight == "long":
        if not error:
            return 0, True  # on the true range, a long round always passes over
        land += ART.halved(b.roll(1, 6, f"{u.name} gun {g + 1}: inches long (1D6 halved)")[0])
    elif flight == "short":
        land -= ART.halved(b.roll(1, 6, f"{u.name} gun {g + 1}: inches short (1D6 halved)")[0])
    if land > t.hd:
        return 0, True  # beyond the target
    short = -land if land < -t.hd else 0.0
    if short > 2:
        return 0, True
    burst = kind in ("shell", "case") and hand.result in ("burst", "hit")
    if burst:
        n = int(b.r["burst"][f"{kind}_dice"])
        return ART.burst_hits(d10(b, n, f"{u.name} gun {g + 1}: {kind} burst ({n}d10)")), True
    bounce = d10(b, 1, f"{u.name} gun {g + 1}: does the shot bounce? (1d10, even)")[0]
    if short and bounce % 2:
        return 0, True
    n = int(b.r["solid_shot"]["dice_bounce" if bounce % 2 == 0 else "dice_no_bounce"])
    _, hits = ART.solid_shot_hits(bounce, d10(b, n, f"{u.name} gun {g + 1}: shot ({n}d10)"))
    return hits, True


# -- exact odds for the menus -------------------------------------------------------------------


@cache
def round_odds(kind: str, consecutive: bool, within: int) -> dict[int, Fraction]:
    """Exact P(hits) of one gun's round (reading ``artillery_round``); ``within`` is how many
    of the deviations 1, 2, 3 inches still strike (the target's half frontage)."""
    p_side = Fraction(2, 6)  # a 1 or a 6
    p_on_line = 1 - p_side + p_side * Fraction(within, 3)
    out: dict[int, Fraction] = {}

    def add(dist: dict[int, Fraction], p: Fraction) -> None:
        for h, q in dist.items():
            out[h] = out.get(h, Fraction(0)) + p * q

    shot = ART.solid_shot_odds()
    # A shot short by 1 or 2 inches strikes only when it bounced (an even d10): 2 d10 then.
    bounced = {h: q for h, q in _bounced().items()}
    burst = ART.burst_odds(kind) if kind in ("shell", "case") else shot
    for (result, fl), p in ART.result_odds(consecutive).items():
        if result == "misfire":
            add({0: Fraction(1)}, p)
            continue
        strikes = burst if result in ("burst", "hit") and kind in ("shell", "case") else shot
        if result == "dud":
            flights = {"short": Fraction(1, 6), "long": Fraction(1, 6), "": Fraction(4, 6)}
            strikes = shot
        elif fl == "both":
            flights = {"short": Fraction(1, 2), "long": Fraction(1, 2)}
        else:
            flights = {fl: Fraction(1)}
        for f, q in flights.items():
            w = p * q * p_on_line
            if f == "long":
                add({0: Fraction(1)}, w)
            elif f == "short":
                near = Fraction(2, 3)  # 1D6 halved is 1 or 2 on four faces of six
                if strikes is shot:
                    add(bounced, w * near)
                    add({0: Fraction(1)}, w * (1 - near))
                else:
                    add(strikes, w * near)
                    add({0: Fraction(1)}, w * (1 - near))
            else:
                add(strikes, w)
            add({0: Fraction(1)}, p * q * (1 - p_on_line))
    return out


@cache
def _bounced() -> dict[int, Fraction]:
    """P(hits) of a shot that must bounce to strike: half the time 2 d10 (even hits), else 0."""
    out: dict[int, Fraction] = {0: Fraction(1, 2)}
    for k, q in ((0, Fraction(1, 4)), (1, Fraction(1, 2)), (2, Fraction(1, 4))):
        out[k] = out.get(k, Fraction(0)) + q / 2
    return out


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


# -- movement (XII.F-G) and charges (XII.H) ---------------------------------------------------


CHANGES = (
    *("", "column", "line", "skirmish", "prone", "stand"),
    *("mount", "dismount", "limber", "unlimber"),
)


def after_change(u: Unit, change: str, prone: bool) -> tuple[str, bool, bool, float]:
    """(formation, mounted, limbered, movement cost) after ``change`` (XII.F costs)."""
    form, mounted, limbered = u.formation, u.mounted, u.limbered
    if change == "":
        up = MV.change_cost("stand_up", u.type, form, mounted, limbered) if prone else 0.0
        return form, mounted, limbered, up
    if change in MV.FORMATIONS:
        if u.type == "artillery" or change == form or (change == "skirmish" and u.type != "foot"):
            raise IllegalActionError(f"{u.name} cannot form {change}")
        return change, mounted, limbered, 0.0
    if change in ("prone", "stand"):
        if u.type != "foot" or (change == "prone") == prone:
            raise IllegalActionError(
                f"{u.name} cannot {'go prone' if change == 'prone' else 'stand up'}"
            )
        action = "prone" if change == "prone" else "stand_up"
        return form, mounted, limbered, MV.change_cost(action, u.type, form, mounted, limbered)
    if change in ("mount", "dismount"):
        if u.type != "cavalry" or mounted == (change == "mount"):
            raise IllegalActionError(f"{u.name} cannot {change}")
        return form, change == "mount", limbered, MV.cost("mount")
    if change in ("limber", "unlimber"):
        if u.type != "artillery" or limbered == (change == "limber"):
            raise IllegalActionError(f"{u.name} cannot {change}")
        return form, mounted, change == "limber", MV.cost("limber")
    raise IllegalActionError(f"unknown formation change '{change}'")


def allowance(b: Battle, u: Unit, form: str, mounted: bool, limbered: bool) -> float:
    """XII.F: the unit's movement less fog (the terrain dice are rolled as it moves)."""
    rate = MV.rate(u.type, form, mounted, limbered)
    thick = fog_at(b, u.x, u.y) if fog(b) else 0
    if thick and MV.deductions_apply(u.type, form, mounted, limbered):
        rate -= W.fog_deductions(thick)[1]
    return max(0.0, rate)


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


def check_move(b: Battle, u: Unit, x: float, y: float, th: float, change: str) -> float:
    """A legal move's length before terrain, or IllegalActionError with the reason."""
    limit = move_limit(b, u)
    if limit not in ("free", "no_advance"):
        why = b.comp.status.label(u) or "routed, stalled or held"
        raise IllegalActionError(f"{u.name} may not move now ({why})")
    bk = book(b, u)
    form, mounted, limbered, cost = after_change(u, change, bool(bk.get("prone")))
    if change == "" and bk.get("prone") and (x, y) != (u.x, u.y):
        raise IllegalActionError(f"{u.name} is prone: stand up first")
    dist = _hypot(x - u.x, y - u.y)
    allow = allowance(b, u, form, mounted, limbered) - cost
    if dist > allow + 1e-6:
        more = downhill_most(b, u, x, y, form, mounted, limbered) if allow > 0 else 0.0
        if dist > allow + more + 1e-6:
            also = f' ({allow + more:.1f}" downhill, as far as its die allows)' if more else ""
            raise IllegalActionError(
                f'{u.name} may move {max(allow, 0):.1f}" now{also}, not {dist:.1f}"'
            )
    if u.type == "artillery" and not limbered and dist > 1e-9 and not to_front(b, u, x, y):
        raise IllegalActionError(
            f"{u.name} is unlimbered: by hand it moves only to the front (003 XII.F.8, "
            "reading by_hand_to_the_front); limber to go elsewhere"
        )
    if limit == "no_advance" and dist > 0 and b.advances(u, x, y):
        why = "in reaction" if book(b, u).get("react") else b.comp.status.label(u) or "held"
        raise IllegalActionError(
            f"{u.name} is {why} and may not advance (no part of its move may come nearer "
            "its nearest enemy)"
        )
    from umpire.battle.state import base_size

    hw, hd = base_size(u.type, form, u.stands, b.comp.combat.bases)
    if not b.free_at(u, x, y, th, hw, hd):
        raise IllegalActionError(f"{u.name} cannot end there: off the table or on another unit")
    if dist > 0 and b.crosses_enemy(u, x, y):
        raise IllegalActionError(f"{u.name} cannot move through an enemy unit")
    if b.touching_box(u, (x, y, math.cos(th), math.sin(th), hw, hd)):
        raise IllegalActionError(f"{u.name} would touch an enemy: contact needs a charge")
    return dist


def to_front(b: Battle, u: Unit, x: float, y: float) -> bool:
    """Reading ``by_hand_to_the_front`` (XII.F.8 'Unlimbered By Hand to the Front: The piece
    will move 1 inch to the front'): (x, y) lies ahead of ``u``, within its front arc."""
    from umpire.board.geometry import local

    fwd, lat = local(u.x, u.y, u.theta, x, y)
    return fwd > 0 and math.degrees(math.atan2(abs(lat), fwd)) <= b.geo["fire_arc_degrees"] + 1e-9


class Crossing(NamedTuple):
    """XVI along a path: the movement left for it after every die (``left``, the allowance
    less the deductions, plus the downhill bonus), where the regiment stopped (``stop``, the
    inches along the path to the obstacle whose die exceeded the movement left there, or
    None) and the words for the narrative."""

    left: float
    stop: float | None
    words: list[str]
    why: str = ""  # the stop in words


def walls_on_path(b: Battle, x0: float, y0: float, x1: float, y1: float) -> list[tuple[float, str]]:
    """Reading ``walls_and_fences``: (inches along the path, XVI kind) of each wall a straight
    move crosses, nearest first."""
    import shapely

    lo_x, hi_x = (x0, x1) if x0 < x1 else (x1, x0)
    lo_y, hi_y = (y0, y1) if y0 < y1 else (y1, y0)
    out = []
    line = None
    for kind, ax, bx, ay, by, wall in _walls(b):
        if hi_x < ax or lo_x > bx or hi_y < ay or lo_y > by:
            continue
        if line is None:
            line = shapely.LineString([(x0, y0), (x1, y1)])
        if line.intersects(wall):
            out.append((float(line.project(line.intersection(wall))), kind))
    return sorted(out)


def terrain_cost(
    b: Battle, u: Unit, x: float, y: float, allow: float, to: Unit | None = None
) -> Crossing:
    """XVI along a move of ``allow`` inches toward (x, y) (a charge: to ``to``'s line), the
    dice rolled now: woodlots and hills first, then the walls and fences in the order met.
    A die that exceeds the movement left stops the regiment: at a wall or fence, the
    movement left is the allowance so far less the inches its front walked to it (XVI.E.1.a,
    F.1; reading ``terrain_stall``); downhill adds its die (XVI.C)."""
    from umpire.rules.action_reaction import terrain as T

    if not MV.deductions_apply(u.type, u.formation, u.mounted, u.limbered):
        return Crossing(allow, None, [])
    left = allow
    words: list[str] = []
    for at, kind in obstacles(b, u, x, y, to):
        die = T.move_die(kind)
        face = None
        if die is not None:
            n, sides = die
            face = b.roll(n, sides, f"{u.name}: {kind.replace('_', ' ')} (movement)")[0]
        if at > 0 and at >= left:
            break  # the movement runs out before this obstacle: it is not reached
        name = kind.replace("_", " ")
        there = max(0.0, left - at)
        going = T.movement(kind, there, face)
        if going.stalled:
            why = f'the {name} costs {going.deduction}", more than the {there:.1f}" left there'
            return Crossing(left, at, words, why)
        if going.left > there:
            words.append(f'{name} gains {going.deduction}"')
        else:
            words.append(f'{name} loses {going.deduction}"')
        left += going.left - there
    return Crossing(left, None, words)


def obstacles(b: Battle, u: Unit, x: float, y: float, to: Unit | None) -> list[tuple[float, str]]:
    """XVI on a move toward (x, y) (a charge: to ``to``'s line): (inches the front walks to
    it, kind) of the woodlots and hills (at once) and each wall or fence, in the order met."""
    board = b.setup.board
    met: list[tuple[float, str]] = []
    if board.path_rough(u.x, u.y, x, y) or board.is_rough(x, y):
        met.append((0.0, "woodlot"))
    h0 = board.height_at(u.x, u.y)
    h1 = board.height_at(to.x, to.y) if to is not None else board.height_at(x, y)
    if h1 != h0:
        met.append((0.0, "uphill" if h1 > h0 else "downhill"))
    return met + [(max(0.0, at - u.hd), k) for at, k in walls_on_path(b, u.x, u.y, x, y)]


def downhill_most(
    b: Battle, u: Unit, x: float, y: float, form: str, mounted: bool, limbered: bool
) -> float:
    """XVI.C 'Down Hill: Movement +D6 Halved': the most a move down to (x, y) may gain (the
    die is rolled as it goes; a move ordered past what it gives stops there)."""
    from umpire.rules.action_reaction import terrain as T

    board = b.setup.board
    if board.height_at(x, y) >= board.height_at(u.x, u.y):
        return 0.0
    if not MV.deductions_apply(u.type, form, mounted, limbered):
        return 0.0
    die = T.move_die("downhill")
    faces = range(1, 2) if die is None else range(1, die[1] + 1)
    return max(float(T.movement("downhill", 0.0, f).left) for f in faces)


def stop_short(b: Battle, u: Unit, x: float, y: float, at: float) -> float:
    """Put ``u`` where its front meets an obstacle ``at`` inches along its move to (x, y)
    (not past it; where that is taken, it stays); the inches it moved."""
    dist = _hypot(x - u.x, y - u.y)
    go = max(0.0, at - u.hd - 0.05)
    if dist <= 1e-9 or go <= 1e-9:
        return 0.0
    f = min(1.0, go / dist)
    nx, ny = u.x + (x - u.x) * f, u.y + (y - u.y) * f
    if not b.free_at(u, nx, ny, u.theta, u.hw, u.hd):
        return 0.0
    b.place(u, nx, ny, u.theta)
    return go


def do_move(b: Battle, u: Unit, x: float, y: float, th: float, change: str) -> None:
    """A legal move with its terrain dice; stalls when they exceed the movement left."""
    dist = check_move(b, u, x, y, th, change)
    bk = book(b, u)
    form, mounted, limbered, cost = after_change(u, change, bool(bk.get("prone")))
    allow = allowance(b, u, form, mounted, limbered) - cost
    if change in ("prone", "stand"):
        bk["prone"] = change == "prone"
        if not bk["prone"]:
            bk.pop("prone")
    elif change == "" and bk.get("prone"):
        bk.pop("prone")
    cross = Crossing(allow, None, [])
    if dist > 1e-9:
        cross = terrain_cost(b, u, x, y, allow)
        if cross.stop is not None or cross.left <= 0:
            bk["still"] = b.state.turn
            was = u.formation, u.mounted, u.limbered
            u.formation, u.mounted, u.limbered = form, mounted, limbered
            u.resize()
            b.changed(u)  # its base's size changed even where it does not move
            went = stop_short(b, u, x, y, cross.stop or 0.0)
            kept = ""
            if went <= 0 and change and not b.free_at(u, u.x, u.y, u.theta, u.hw, u.hd):
                # reading no_room_to_change: the new base would overlap another where the
                # unit stands, so the change is not made (the move was checked at its end)
                u.formation, u.mounted, u.limbered = was
                u.resize()
                b.changed(u)
                kept, change = (
                    f"; no room to {change} where it stands, so it stays {u.formation}",
                    "",
                )
            u.moved = went > 0 or bool(change)
            where = f'moves {went:.1f}" and halts' if went > 0 else "cannot get over the ground"
            why = ", ".join([*cross.words, cross.why] if cross.why else cross.words)
            say(b, f"{u.name} {where} ({why}){kept}: it may not move for the rest of the turn")
            return
        left = cross.left
        if left < dist:
            f = left / dist
            x, y = u.x + (x - u.x) * f, u.y + (y - u.y) * f
            dist = left
    u.formation, u.mounted, u.limbered = form, mounted, limbered
    u.resize()
    blocked = dist > 1e-9 and not b.free_at(u, x, y, th, u.hw, u.hd)
    if blocked:
        # the terrain cut the move short onto another base: it stops before it, keeping its
        # facing where turning there would overlap a base (``Battle.slide`` settles that)
        x0, y0 = u.x, u.y
        b.slide(u, (x - x0) / dist, (y - y0) / dist, dist, th)
        x, y, th, dist = u.x, u.y, u.theta, _hypot(u.x - x0, u.y - y0)
    b.place(u, x, y, th)
    u.moved = dist > 1e-9 or bool(change)
    if u.moved:
        notes = ([change] if change else []) + (cross.words if dist > 1e-9 else [])
        say(b, f'{u.name} moves {dist:.1f}"' + (f" ({', '.join(notes)})" if notes else ""))
    elif blocked:
        say(b, f"{u.name} does not move: another base is in its way")


def charge_dice(u: Unit) -> list[tuple[int, int]]:
    """XII.H.3-4 dice (count, sides) per roll; IllegalActionError for other pieces."""
    try:
        return M.charge_dice(troop(u), u.formation, u.stands)
    except ValueError as exc:
        raise IllegalActionError(f"{u.name}: {exc}") from None


def may_charge(b: Battle, u: Unit, t: Unit) -> str:
    """Why ``u`` may not charge ``t`` ("" if it may): reading ``charges_only_foot_and_horse``."""
    if troop(u) == "other":
        return f"{u.name} may not charge: no other pieces may charge (003 XII.H.5)"
    if u.formation not in ("line", "column"):
        return f"{u.name} may not charge in {u.formation} order: a charge is in line or column"
    bk = book(b, u)
    if move_limit(b, u) != "free" or bk.get("disr") or bk.get("prone"):
        return f"{u.name} may not charge now (routed, stalled, in reaction, disrupted or prone)"
    if u.extra and fx(u, "no_charge"):
        return f"{u.name} may not charge this turn ({fx_why(u, 'no_charge')})"
    if not t.alive or t.side == u.side:
        return f"{u.name} may only charge an enemy unit on the table"
    if not (b.in_arc(u, t) and b.sees(u, t)):
        return f"{u.name} cannot see {t.name} in its front"
    if b.dist(u.i, t.i) > max_charge(b, u) + 1e-9:
        return f"{t.name} is beyond {u.name}'s longest charge ({max_charge(b, u):.0f}\")"
    v = path_blocker(b, u, t)
    if v is not None:
        return f"{u.name} cannot charge {t.name}: {v.name} is in the way"
    return ""


def path_blocker(b: Battle, u: Unit, t: Unit) -> Unit | None:
    """Reading ``charge_path_clear``: the first base (not ``t``'s) on ``u``'s straight path
    to contact with ``t``, or None (steps of the charger's own depth, so none is missed)."""
    x, y, th = contact_spot(u, t)
    dx, dy = x - u.x, y - u.y
    dist = _hypot(dx, dy)
    if dist <= 1e-9:
        return None
    step = max(0.25, 2 * u.hd)
    n = math.ceil(dist / step)
    for k in range(1, n + 1):
        f = min(1.0, k * step / dist)
        for v in b.bases_at(u, u.x + dx * f, u.y + dy * f, th):
            if v.i != t.i:
                return v
    return None


def max_charge(b: Battle, u: Unit) -> float:
    """The longest a charge could go: the move plus the highest die."""
    n, sides = charge_dice(u)[0]
    return allowance(b, u, u.formation, u.mounted, u.limbered) + n * sides


@cache
def _max_at_least(rolls: int, n: int, sides: int, need: int) -> Fraction:
    """P(the highest of ``rolls`` sums of ``n``d``sides`` is at least ``need``)."""
    from umpire.dice import parse

    dist = parse(f"{n}d{sides}").distribution()
    below = sum((Fraction(p) for v, p in dist if int(v) < need), Fraction(0))
    return 1 - below**rolls


def reach_odds(b: Battle, u: Unit, t: Unit) -> Fraction:
    """Exact P(the charge reaches): the centre die covers the gap (XII.H) through the
    terrain on the front's path, each obstacle's die folded in (XVI, ``menu_odds``)."""
    dice = charge_dice(u)
    n, sides = dice[0]
    base = allowance(b, u, u.formation, u.mounted, u.limbered)
    gap = b.dist(u.i, t.i)
    met = charge_terrain(b, u, t)
    if met:
        return MO.reach_odds_through(tuple(dice), base, gap, met)
    need = math.ceil(gap - base - 1e-9)
    if need <= (0 if sides == 10 else n):
        return Fraction(1)
    if sides == 10:  # a column's d10 shows 0-9
        return Fraction(max(0, 10 - need), 10)
    return _max_at_least(len(dice), n, sides, need)


def charge_terrain(b: Battle, u: Unit, t: Unit) -> tuple[tuple[float, str], ...]:
    """XVI on ``u``'s charge at ``t``: the obstacles its front meets, as it meets them."""
    if not MV.deductions_apply(u.type, u.formation, u.mounted, u.limbered):
        return ()
    return tuple(obstacles(b, u, *charge_path_end(u, t), t))


def give_way_odds(b: Battle, u: Unit, t: Unit) -> tuple[Fraction, Fraction]:
    """Exact (P(``t`` gives way), P(``t`` fires)) when ``u``'s charge reaches it: it reacts
    (XIII.A.2, reading ``cheer_and_hear``), rolls the d10 list (XIII.B.1), and its officers
    may hold it (XIII.B.2, reading ``any_officer_rallies``)."""
    return odds(b, _give_way, clear_field(b, u, t), int(book(b, t)["off"]))


def _give_way(clear: bool, officers: int) -> tuple[Fraction, Fraction]:
    """:func:`give_way_odds` from what it reads: a clear field, the defender's officers."""
    p = M.reacts_odds(clear)
    ro = M.reaction_odds()
    hold = O.rally_odds(officers)
    away = ro.get("retreat", Fraction(0)) + ro.get("withdraw", Fraction(0))
    return p * away * (1 - hold), p * ro.get("fire", Fraction(0))


@cache
def _strike_odds(n: int, m: int) -> dict[str, Fraction]:
    """:func:`loser_odds` kept (the charge menus ask it for every reach)."""
    return loser_odds(n, m)


def _charge_numbers(
    reach: Fraction, away: Fraction, n: int, m: int
) -> tuple[float, float, float, float]:
    """(P(win), P(reach), P(the defender wins the first strike), the attacker's losing
    chance) of a charge as floats: the exact products :func:`charge_choice` offers."""
    strike = _strike_odds(min(n, 12), min(m, 12))
    win = reach * (1 - away) * strike["defender"]
    return (
        float(win),
        float(strike["defender"]),
        float(reach),
        float(reach * (1 - away) * strike["attacker"]),
    )


def contact_spot(u: Unit, t: Unit) -> tuple[float, float, float]:
    """Where ``u`` stands when its front touches ``t``'s: straight at ``t``'s centre."""
    dx, dy = t.x - u.x, t.y - u.y
    d = _hypot(dx, dy) or 1.0
    th = math.atan2(dy, dx)
    gap = d - (t.hd + u.hd)
    return u.x + dx / d * max(0.0, gap), u.y + dy / d * max(0.0, gap), th


def charge_path_end(u: Unit, t: Unit) -> tuple[float, float]:
    """The end of the front's path to the defender's line (XVI's terrain is met on it)."""
    x, y, _ = contact_spot(u, t)
    d = _hypot(x - u.x, y - u.y)
    if d > 1e-9:  # the front's path to the defender's line, not the ground under it
        x, y = x + (x - u.x) / d * (u.hd + 0.1), y + (y - u.y) / d * (u.hd + 0.1)
    return x, y


def contact_place(b: Battle, u: Unit, t: Unit) -> str:
    """Move ``u`` along the line of the charge until its front meets ``t``'s
    (:func:`contact_spot`). Another base on the way stops it before that base; where the
    contact spot overlaps ``t``'s corners (met at an angle) it backs to the first free spot.
    "" when it reached ``t`` (hand-to-hand follows); else why it stopped, naming the unit
    in the way (the charge is then over)."""
    x, y, th = contact_spot(u, t)
    x0, y0 = u.x, u.y
    dx, dy = x - x0, y - y0
    dist = _hypot(dx, dy)
    step = b.geo["retreat_step"]
    if dist > 1e-9:
        dx, dy = dx / dist, dy / dist
        k = 1
        while (k - 1) * step < dist:
            d = min(dist, k * step)
            others = [v for v in b.bases_at(u, x0 + dx * d, y0 + dy * d, th) if v.i != t.i]
            if others:
                back = max(0.0, d - step)
                if b.free_at(u, x0 + dx * back, y0 + dy * back, th, u.hw, u.hd):
                    b.place(u, x0 + dx * back, y0 + dy * back, th)
                return f'{others[0].name} is in the way ({dist - back:.1f}" short)'
            k += 1
    d = 0.0
    while not b.free_at(u, x - dx * d, y - dy * d, th, u.hw, u.hd):
        if d >= dist:
            return ""  # only ``t`` in the way: it stays where it is, in hand-to-hand
        d = min(dist, d + 0.1)
    b.place(u, x - dx * d, y - dy * d, th)
    return ""


def mark_charge(b: Battle, u: Unit, t: Unit, centre: float) -> None:
    """XIII.A.1 'places a marker at the farthest point of advance, and places a marker where
    the charge will end should the attacker be successful' (reading ``charge_markers``):
    both on the line of the charge, in ``state.extra["ar"]["markers"]`` and the narrative."""
    x, y, _ = contact_spot(u, t)
    dx, dy = t.x - u.x, t.y - u.y
    d = _hypot(dx, dy) or 1.0
    gap = b.dist(u.i, t.i)
    reach = max(0.0, centre)
    fx_, fy = u.x + dx / d * reach, u.y + dy / d * reach
    st = b.state.extra.setdefault(KEY, {})
    marks = [m for m in st.get("markers", []) if m["unit"] != u.id]
    marks.append({"unit": u.id, "kind": "farthest", "x": fx_, "y": fy, "turn": b.state.turn})
    marks.append({"unit": u.id, "kind": "charge_end", "x": x, "y": y, "turn": b.state.turn})
    st["markers"] = marks
    beyond = reach - gap
    say(
        b,
        f"  markers: farthest advance at ({fx_:.1f}, {fy:.1f}), "
        + (f"{beyond:.1f}\" beyond {t.name}'s line" if beyond >= 0 else f'{-beyond:.1f}" short')
        + f"; the charge ends at ({x:.1f}, {y:.1f}) if it succeeds",
    )


def resolve_charge(b: Battle, u: Unit, t: Unit) -> None:
    """XII.H, XIII and XIV for one announced charge."""
    if not (u.alive and t.alive):
        return
    dice = charge_dice(u)
    base = allowance(b, u, u.formation, u.mounted, u.limbered)
    rolls = []
    for n, sides in dice:
        r = sum(b.roll(n, sides, f"{u.name} charges {t.name}: {n}d{sides}"))
        rolls.append(r % 10 if sides == 10 else r)  # reading d10_zero: a column's 0 is 0
    arranged = M.centre_out(rolls)
    x, y = charge_path_end(u, t)
    cross = terrain_cost(b, u, x, y, base + max(arranged), t)
    ded = base + max(arranged) - cross.left
    dists = [base - ded + r for r in arranged]
    centre = max(dists)
    gap = b.dist(u.i, t.i)
    words = cross.words
    say(
        b,
        f'{u.name} charges {t.name} ({gap:.1f}" away): dice {arranged}, '
        f'{centre:.1f}" at the centre' + (f" ({', '.join(words)})" if words else ""),
    )
    u.charged = True
    mark_charge(b, u, t, centre)
    if cross.stop is not None:
        x, y, _ = contact_spot(u, t)
        stop_short(b, u, x, y, cross.stop)
        book(b, u)["still"] = b.state.turn
        say(b, f"  the charge of {u.name} halts short of {t.name}: {cross.why}")
        return
    if centre < gap:
        k = max(0.0, centre) / max(gap, 1e-9)
        x, y, th = contact_spot(u, t)
        nx, ny = u.x + (x - u.x) * k * 0.95, u.y + (y - u.y) * k * 0.95
        if b.free_at(u, nx, ny, th, u.hw, u.hd):
            b.place(u, nx, ny, th)
        say(b, f"  the charge falls short of {t.name}")
        return
    pieces = max(1, sum(1 for d in dists if d >= gap)) if u.formation == "line" else u.stands
    farthest = centre - gap
    # XIII.A.2 and B: the cheer, the hearing and the defender's reaction.
    cheer, hear = d10(b, 2, f"{u.name} cheers? {t.name} hears? (2d10, even)")
    reacts = M.reacts(cheer, hear, clear_field(b, u, t))
    say(
        b,
        f"  {u.name} {'cheers' if cheer % 2 == 0 else 'charges in silence'} ({cheer}); "
        f"{t.name} {'reacts' if reacts else 'will not react until struck'} ({hear})",
    )
    tb = book(b, t)
    if reacts:
        what, inches = M.reaction(d10(b, 1, f"{t.name}'s reaction to the charge (1d10)")[0])
        if b.luck is not None:  # XIII.B.1.(1): the charged unit holds
            b.note(t.side, "reactions held", int(_held(what)), held_d10())
        if what in ("retreat", "withdraw") and tb["off"] and contest(b, t, "stands"):
            what, inches = "none", 0
        if what == "fire":
            b.comp.status.on_setback(b, t, "fire_reaction", u)
            say(b, f"  {t.name} fires on the charge")
            if may_fire(b, t):
                volley(b, t, u, reaction=True)
            broken = charge_broken(b, u)
            if broken:
                say(b, f"  the charge of {u.name} is broken by the fire ({broken}): no melee")
                return
        elif what in ("retreat", "withdraw"):
            react(b, t, what, inches, u)
            farthest -= inches
            if farthest < 0 or not t.alive:
                say(b, f"  {u.name} halts at its farthest point of advance")
                return
    if not (u.alive and t.alive):
        return
    blocked = contact_place(b, u, t)
    if blocked:
        say(b, f"  the charge of {u.name} halts short of {t.name}: {blocked}")
        return
    melee(b, u, t, pieces, farthest)


def charge_broken(b: Battle, u: Unit) -> str:
    """Reading ``charge_broken_by_fire``: why the defender's reaction fire stopped ``u``'s
    charge ("" if it goes on): gone, routed or stalled, or held back by its loss roll (it
    withdrew or went prone: in reaction, or a status that forbids the advance)."""
    if not u.alive:
        return "no pieces left"
    bk = book(b, u)
    if bk.get("rout"):
        return "it routs"
    if bk.get("stall"):
        return "it stalls"
    if move_limit(b, u) != "free":
        return (b.comp.status.label(u) or "held").lower()
    return ""


def melee(
    b: Battle, u: Unit, t: Unit, pieces: int, farthest: float, struck: frozenset[int] = frozenset()
) -> None:
    """XIV: strikes in line until the attacker loses or reaches its farthest advance; in
    column one strike, and the column pierces the line (XIV.B.2). Disruption by reading
    ``melee_disruption``: the side that loses a strike; both sides when both suffered hits."""
    column = u.formation == "column"
    strikes = 0
    hurt = {"attacker": False, "defender": False}  # who suffered hits in this melee
    while u.alive and t.alive:
        strikes += 1
        if column:
            n, m = M.column_dice(t.stands)
        else:
            n, m = pieces, min(t.stands, pieces + 1)
        n += int(fx(u, "extra_die") or 0) if u.extra else 0
        a = b.roll(n, 6, f"hand-to-hand: {u.name} (attacker, {n}d6)")
        d = b.roll(m, 6, f"hand-to-hand: {t.name} (defender, {m}d6)")
        s = M.strike(a, d)
        say(
            b,
            f"  hand-to-hand {strikes}: {sorted(a, reverse=True)} against "
            f"{sorted(d, reverse=True)}: {s.attacker_hits} to {s.defender_hits}",
        )
        hurt["defender"] = hurt["defender"] or s.attacker_hits > 0
        hurt["attacker"] = hurt["attacker"] or s.defender_hits > 0
        take_hits(b, t, s.attacker_hits, f"hand-to-hand with {u.name}")
        take_hits(b, u, s.defender_hits, f"hand-to-hand with {t.name}")
        if s.loser == "attacker":
            disrupt(b, u, t)  # XIV.A.3.a.(6)-(7), XIV.B.3: back 3" and a red marker
            if u.alive:
                b.comp.combat.displace(b, u, t, 3.0, False, "back")
            break
        if not s.loser:
            say(b, f"  neither side gives way ({'equal hits' if s.attacker_hits else 'no hits'})")
            break
        disrupt(b, t, u)
        if column:
            # XIV.B.d: 'The defender will place a red disrupted marker on the unit and create
            # a hole for the attacker to pass through' - it does not back up.
            say(b, f"  {u.name} pierces the line of {t.name} through the hole")
            if u.alive:
                pierce(b, u, farthest, struck | {t.i})
            return
        if t.alive:
            b.comp.combat.displace(b, t, u, 3.0, False, "back")
        if not (u.alive and t.alive):
            break
        # XIV.A.3.b.(2): the attacker follows while the defender has not passed its
        # farthest point of advance (a defender that also routed may be out of reach).
        gap = b.dist(u.i, t.i)
        if gap > farthest + 1e-9:
            th = math.atan2(t.y - u.y, t.x - u.x)
            if farthest > 0:
                b.slide(u, math.cos(th), math.sin(th), farthest, u.theta)
            say(b, f"  {u.name} reaches its farthest point of advance")
            break
        farthest -= gap
        blocked = contact_place(b, u, t)
        if blocked:
            say(b, f"  {u.name} cannot follow {t.name}: {blocked}")
            break
    if hurt["attacker"] and hurt["defender"]:
        # XIV.A.3.b 'If both players suffer hits ... (3) At that point both players place
        # red disrupted markers by their units.'
        disrupt(b, u, t)
        disrupt(b, t, u)


def pierce(b: Battle, u: Unit, farthest: float, struck: frozenset[int]) -> None:
    """XIV.B.2: 'The attacker pierced the opponent's line and continues forward until
    reaching the point of advance or striking another unit': hand-to-hand with the next
    enemy ahead within the advance left (a), else a halt there, disrupted (b; reading
    ``column_pierces``: the hole lets it through the broken line, no other base)."""
    dx, dy = math.cos(u.theta), math.sin(u.theta)
    ahead: list[tuple[float, Unit]] = []
    for v in b.state.units:
        if not v.alive or v.side == u.side or v.i in struck:
            continue
        along = (v.x - u.x) * dx + (v.y - u.y) * dy
        aside = abs((v.y - u.y) * dx - (v.x - u.x) * dy)
        gap = along - u.hd - v.hd
        if along > 0 and aside <= u.hw + v.hw and gap <= farthest:
            ahead.append((gap, v))
    if ahead:
        gap, v = min(ahead, key=lambda p: (p[0], p[1].i))
        x, y, th = contact_spot(u, v)
        if b.free_at(u, x, y, th, u.hw, u.hd, ignore=tuple(struck)):
            b.place(u, x, y, th)
            say(b, f"  {u.name} strikes {v.name}")
            melee(b, u, v, u.stands, farthest - max(0.0, gap), struck)
            clear_of_hole(b, u)
            return
    nx, ny = u.x + dx * max(0.0, farthest), u.y + dy * max(0.0, farthest)
    if farthest > 0 and b.free_at(u, nx, ny, u.theta, u.hw, u.hd):
        b.place(u, nx, ny, u.theta)
        say(b, f'  {u.name} goes on {farthest:.1f}" to its point of advance')
    else:
        b.slide(u, dx, dy, max(0.0, farthest), u.theta)
        clear_of_hole(b, u)
        say(b, f"  {u.name} halts at its point of advance")
    if cfg(b)["charge_halt_disrupts"]:
        disrupt(b, u, u)


def clear_of_hole(b: Battle, u: Unit) -> None:
    """Reading ``column_pierces``: the hole lets a column through a broken line, not stand
    in it. A column that halts (or is thrown back) while still on a base it pierced goes to
    the nearest free spot on its line (back first, as a point of advance on the line halts
    it short).
    """
    if b.free_at(u, u.x, u.y, u.theta, u.hw, u.hd):
        return
    dx, dy = math.cos(u.theta), math.sin(u.theta)
    step, limit = 0.1, 4 * (u.hd + u.hw) + 24.0
    d = step
    while d <= limit:
        for sign in (-1.0, 1.0):  # back first (where it came from), then on
            nx, ny = u.x + sign * dx * d, u.y + sign * dy * d
            if b.free_at(u, nx, ny, u.theta, u.hw, u.hd):
                b.place(u, nx, ny, u.theta)
                return
        d += step


def disrupt(b: Battle, u: Unit, frm: Unit) -> None:
    """A red disruption marker (XIV), put on by the mounted status (``disrupted``)."""
    if u.alive and not book(b, u).get("disr"):
        say(b, f"  {u.name} is disrupted")
        b.comp.status.on_setback(b, u, "disrupted", frm)


# -- the steps of the XII sequence ------------------------------------------------------------


class Muster(AutoStep):
    """Every unit's 003 book at the start of the battle (officers, ammunition)."""

    def auto(self, b: Battle, side: str) -> None:
        for u in b.state.units:
            if u.alive:
                book(b, u)


class RallyRouted(AutoStep):
    """XII.A: each routed unit's officers against the men; the men: it routs again."""

    def auto(self, b: Battle, side: str) -> None:
        for u in b.state.units:
            bk = book(b, u) if u.alive else {}
            if not bk.get("rout"):
                continue
            if bk["off"] and contest(b, u, "rallies"):
                bk.pop("rout")
                bk.pop("react", None)
                b.comp.status.recover(b, u, "rallied by an officer")
                continue
            inches = float(bk["rout"])
            en = b.nearest_enemy(u)
            say(
                b, f'{u.name} routs again {inches:g}"' + (" with its officers" if bk["off"] else "")
            )
            if en is not None:
                b.comp.combat.displace(b, u, en, inches, True, "rout")


class StopReactions(AutoStep):
    """XII.B: the officer-versus-men contest takes the reaction (and disruption) off."""

    def auto(self, b: Battle, side: str) -> None:
        for u in b.state.units:
            if not u.alive:
                continue
            bk = book(b, u)
            if bk.get("rout") or not (bk.get("react") or bk.get("disr")):
                continue
            if bk["off"] and contest(b, u, "stops the reaction"):
                bk.pop("react", None)
                bk.pop("disr", None)
                b.comp.status.recover(b, u, "an officer stops the reaction")


class SeniorOfficers(AutoStep):
    """XII.C: a unit with no line officer left rolls for its senior captain."""

    def auto(self, b: Battle, side: str) -> None:
        for u in b.state.units:
            if u.alive and book(b, u)["off"] <= 0:
                captain(b, u)


class Fog(AutoStep):
    """XII.D: the fog's thickness (1d6) when it first comes, a card in each hollow; each
    hollow's fog thinned on its own even d10 (reading ``fog_per_hollow``)."""

    def __init__(self, start: int | bool):
        self.start = start

    def auto(self, b: Battle, side: str) -> None:
        st = b.state.extra.setdefault(KEY, {})
        n = hollows(b)[1]
        if "fog" not in st:
            if self.start is True:
                level = W.fog_thickness(b.roll(1, 6, "the fog's thickness (1d6)")[0])
            else:
                level = int(self.start)
            st["fog"] = level
            st["fog_hollows"] = [level] * n  # XII.D.1.c: a card in each hollow
            where = f" in each of the {n} hollows" if n > 1 else ""
            say(b, f"Fog: thickness {level}{where}")
            return
        levels = list(st.get("fog_hollows") or [st["fog"]] * n)
        if not any(levels):
            return
        words = []
        for h, level in enumerate(levels):
            if level > 0:
                which = f" in hollow {h + 1}" if n > 1 else ""
                face = d10(b, 1, f"does the fog{which} thin? (1d10, even)")[0]
                levels[h] = W.next_level(level, face)
                words.append(f"{which.strip()} ({face}): thickness {levels[h]}".strip())
        st["fog_hollows"] = levels
        st["fog"] = max(levels)
        say(b, "Fog " + ", ".join(words) if n > 1 else f"Fog {words[0]}")


class Smoke(AutoStep):
    """XII.E: each unit's smoke thins by one on an even d10."""

    def auto(self, b: Battle, side: str) -> None:
        for u in b.state.units:
            if u.alive and book(b, u)["smoke"] > 0:
                bk = book(b, u)
                face = d10(b, 1, f"{u.name}: does the smoke thin? (1d10, even)")[0]
                bk["smoke"] = W.next_level(bk["smoke"], face)
                if bk["smoke"] == 0:
                    bk.pop("canister_fired", None)  # reading canister_later_shot


class MoveStep:
    """XII.F: regular movement, formation changes, or a charge announced (a marker)."""

    kind = "move"

    def actors(self, b: Battle, side: str) -> list[int]:
        scope = b.scope
        out = []
        for u in b.state.units:
            if u.side == side and u.alive and (scope is None or u.i in scope):
                u.moved = False
                u.charged = False
                book(b, u).pop("charge", None)
                if b.comp.sequence.id != "action-reaction" and book(b, u)["off"] <= 0:
                    captain(b, u)  # XII.C, where another sequence has no step for it
                out.append(u.i)
        return out

    def eligible(self, b: Battle, actor: int) -> bool:
        return b.state.units[actor].alive

    def apply(self, b: Battle, side: str, actor: int, order: Order) -> None:
        u = b.state.units[actor]
        kind = order[0]
        if kind == "hold":
            return
        if kind == "move":
            change = str(order[4]) if len(order) > 4 else ""
            do_move(b, u, float(order[1]), float(order[2]), float(order[3]), change)
            return
        if kind == "charge":
            t = int(order[1])
            if not 0 <= t < len(b.state.units):
                raise IllegalActionError(f"no unit {t}")
            why = may_charge(b, u, b.state.units[t])
            if why:
                raise IllegalActionError(why)
            book(b, u)["charge"] = t
            b.state.extra.setdefault(KEY, {}).setdefault("charges", []).append([u.i, t])
            say(b, f"{u.name} announces a charge on {b.state.units[t].name} (a charge marker)")
            return
        raise IllegalActionError(f"unknown move order '{kind}' (hold, move, charge)")

    def auto(self, b: Battle, side: str) -> None:  # pragma: no cover - asks each unit
        raise NotImplementedError


class Charges(AutoStep):
    """XIII-XIV: the announced charges, in the order they were announced."""

    def auto(self, b: Battle, side: str) -> None:
        st = b.state.extra.get(KEY, {})
        charges = st.pop("charges", [])
        if st.get("markers"):  # XIII.A.1's markers stand until the next turn's charges
            st["markers"] = [m for m in st["markers"] if m["turn"] == b.state.turn]
        us = b.state.units
        for a, t in charges:
            if book(b, us[a]).pop("charge", None) is not None:
                resolve_charge(b, us[a], us[t])


class FireStep:
    """XV: ordered firing; ``units`` and ``targets`` narrow it under other sequences."""

    kind = "fire"

    def __init__(
        self, units: str = "all", targets: str = "any", mark: str = "", blocked_by: str = ""
    ):
        self.units = units
        self.targets = targets
        self.mark = mark
        self.blocked_by = blocked_by

    def shots(self, b: Battle, u: Unit) -> list[tuple[Unit, float]]:
        """The targets this step allows ``u``."""
        if not may_fire(b, u):
            return []
        if self.blocked_by and u.extra and fx(u, self.blocked_by):
            return []
        if self.units == "artillery" and u.type != "artillery":
            return []
        found = targets(b, u)
        if self.targets == "chargers":
            found = [(t, d) for t, d in found if u.i in t.extra.get("crossed", ())]
        return found

    def actors(self, b: Battle, side: str) -> list[int]:
        return [u.i for u in b.state.units if u.alive and u.side == side]

    def eligible(self, b: Battle, actor: int) -> bool:
        return bool(self.shots(b, b.state.units[actor]))

    def apply(self, b: Battle, side: str, actor: int, order: Order) -> None:
        from umpire.battle.effects import set_fx

        u = b.state.units[actor]
        if order[0] == "hold":
            return
        if order[0] != "fire":
            raise IllegalActionError(f"a fire order is needed for {u.name}, not '{order[0]}'")
        t = int(order[1])
        if u.type == "artillery" and len(order) > 2:
            A.kind_of(str(order[2]))  # an unknown round is one line, before anything else
        allowed = {v.i for v, _ in self.shots(b, u)}
        if t not in allowed:
            raise IllegalActionError(why_not_fire(b, u, t))
        target = b.state.units[t]
        if u.type == "artillery":
            kind = A.kind_of(str(order[2])) if len(order) > 2 else best_round(b, u, target)
            if kind not in rounds(b, u, target):
                if kind == "canister":
                    raise IllegalActionError(
                        f"{u.name}: canister only on the rifle stick "
                        f'({b.dist(u.i, t):.1f}" is beyond it), or none is left'
                    )
                raise IllegalActionError(f"{u.name} has no {kind.replace('_', ' ')} left")
            volley(b, u, target, kind=kind, called=called_range(b, u, target, order, kind))
        else:
            volley(b, u, target)
        if self.mark:
            set_fx(u, self.mark, b.state.turn)

    def auto(self, b: Battle, side: str) -> None:  # pragma: no cover - asks each unit
        raise NotImplementedError


def called_range(b: Battle, u: Unit, t: Unit, order: Order, kind: str) -> float | None:
    """XI.C.1 'Call the range in inches toward the target': the fourth item of a battery's
    fire order (None: the range of its last shot); only consecutive fire with a round that
    flies (not canister, laid on the stick) calls it; anything else is refused in one line."""
    if len(order) < 4:
        return None
    try:
        rng = float(order[3])
    except (TypeError, ValueError):
        raise IllegalActionError(f"{u.name}: a called range is inches, not {order[3]!r}") from None
    if not 0 < rng <= max(b.setup.board.width, b.setup.board.height) * 2:
        raise IllegalActionError(f'{u.name}: call a range on the table, not {rng:g}"')
    if book(b, u).get("aim") != t.id:
        raise IllegalActionError(
            f"{u.name}: first fire at {t.name} is laid on the measured range (XI.B); "
            "a range is called on consecutive fire (XI.C.1)"
        )
    if kind == "canister":
        raise IllegalActionError(f"{u.name}: canister is laid on the rifle stick, not called")
    return rng


def why_not_fire(b: Battle, u: Unit, t: int) -> str:
    """Why ``u`` cannot fire at unit ``t`` now, in one line."""
    if not 0 <= t < len(b.state.units) or not b.state.units[t].alive:
        return f"{u.name} cannot fire: no such target on the table"
    v = b.state.units[t]
    if not may_fire(b, u):
        return f"{u.name} cannot fire now (mounted, limbered, routed, stalled or out of rounds)"
    if v.side == u.side:
        return f"{u.name} cannot fire at a friendly unit"
    if b.touching(v) and not b.status.fire_on_engaged(b, v):
        return f"{u.name} cannot fire at {v.name}: Engaged units cannot be fired upon"
    d = b.dist(u.i, t)
    if d > b.comp.combat.reach(b, u) + 1e-9:
        return f'{u.name} cannot fire at {v.name}: out of range ({d:.1f}")'
    if not b.in_arc(u, v):
        return f"{u.name} cannot fire at {v.name}: outside its front arc"
    return f"{u.name} cannot fire at {v.name} in this step (no line of sight, or not allowed)"


class TurnEnd(AutoStep):
    """XV.5 End Turn: this turn's marks end (movement stalls)."""

    def auto(self, b: Battle, side: str) -> None:
        for u in b.state.units:
            if u.alive and u.extra.get(KEY):
                book(b, u).pop("still", None)
