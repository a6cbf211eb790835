"""Seed 003's resolutions for ``umpire odds``: artillery rounds, poker hands, hand-to-hand,
reactions, terrain, charge distance, infantry fire, rallies, officer losses and fog.

Pure functions from checked parameters to exact odds (``umpire.rules.odds``), on the math
already in :mod:`artillery`, :mod:`h2h`, :mod:`melee`, :mod:`terrain`, :mod:`fire`,
:mod:`officers` and :mod:`weather`; a d10 shows 0 to 9 (reading ``d10_zero``).
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from umpire.errors import IllegalActionError
from umpire.rules.action_reaction import artillery as A
from umpire.rules.action_reaction import fire as F
from umpire.rules.action_reaction import h2h as H
from umpire.rules.action_reaction import melee as M
from umpire.rules.action_reaction import officers as O
from umpire.rules.action_reaction import terrain as T
from umpire.rules.action_reaction import weather as W
from umpire.rules.odds import Odds, Param, Resolution, Why, joint, outcomes

MODULE = "action-reaction"
ROUNDS = ("solid-shot", "shell", "case", "canister")
HAND_LABELS = {
    "straight": "straight",
    "five": "five of a kind",
    "four": "four of a kind",
    "full_house": "full house",
    "three": "three of a kind",
    "two_pair": "two pair",
    "pair": "a pair",
    "misfire": "no pair, mostly even (misfire)",
    "dud": "no pair, mostly odd (dud)",
}
FLIGHTS = {
    "": "on the called range",
    "long": "long",
    "short": "short",
    "both": "long and short pairs (1d6: even short, odd long)",
}


def _hits(dist: Mapping[int, Fraction], extra: str = "") -> list[tuple[str, Fraction]]:
    return [(f"{k} hit{'s' if k != 1 else ''}{extra}", p) for k, p in sorted(dist.items())]


def _artillery(v: Mapping[str, Any]) -> Odds:
    """XI.A: solid shot, shell and case bursts, canister on the rifle stick."""
    kind = str(v["round"])
    if kind == "solid-shot":
        why = [
            Why("dice", '1d10 bounce: even bounces 2" and rolls 2 hit dice, odd 1', "003 XI.A.1"),
            Why("rule", "each even hit die is a hit", "003 XI.A.1"),
        ]
        return Odds("003 solid shot", outcomes(_hits(A.solid_shot_odds())), tuple(why))
    if kind in ("shell", "case"):
        n = int(A.data()["burst"][f"{kind}_dice"])
        sec = "003 XI.A.2" if kind == "shell" else "003 XI.A.3"
        why = [
            Why("dice", f"{n}d10 (0-9) for a {kind} burst", sec),
            Why(
                "rule",
                "remove every 0 and each die showing the highest number; the rest are hits",
                f"{sec} (reading burst_removal)",
            ),
        ]
        return Odds(f"003 {kind} burst", outcomes(_hits(A.burst_odds(kind))), tuple(why))
    distance, ded = float(v["range"]), int(v["deductions"])
    value = A.stick_value(distance)
    if value is None:
        reach = len(A.data()["stick"]["rifle"]) * A.data()["stick"]["rifle_section"]
        raise IllegalActionError(
            f'canister reaches {reach:g}" (the rifle stick), not {distance:g}"'
        )
    n = int(A.data()["stick"]["canister_dice"])
    why = [
        Why("dice", f"{n}d10 (0-9) of canister", "003 XI.A.4"),
        Why("row", f'the rifle stick at {distance:g}" reads {value}', "default rifle_stick"),
        Why("modifier", f"-{ded} deductions (smoke, fog, terrain, walls, fences)", "003 XI.A.4"),
        Why("rule", f"a die at or under {value - ded} hits", "003 XI.A.4.a.(2)(b)"),
    ]
    return Odds(
        f'003 canister at {distance:g}"', outcomes(_hits(A.stick_odds(n, value, ded))), tuple(why)
    )


def _poker(v: Mapping[str, Any]) -> Odds:
    """XI.B / XI.C: five d10 read as a poker hand; the result and the long/short call."""
    consecutive = bool(v["consecutive"])
    sec = "003 XI.C" if consecutive else "003 XI.B"
    cfg = A.data()["consecutive_fire" if consecutive else "first_fire"]
    why = [
        Why("dice", "5d10 (0-9), read as a poker hand", sec),
        Why("rule", "four, five of a kind and straights hit; pairs to full houses burst", sec),
        Why("rule", "no pair: mostly even misfires, mostly odd is a dud", "reading misfire_or_dud"),
        Why(
            "row",
            f"a pair of {', '.join(map(str, cfg['long_pair']))} flies long, of "
            f"{', '.join(map(str, cfg['short_pair']))} short",
            f"{sec} (XI.B.1.b.(5)-(7))",
        ),
    ]
    if v["show"] == "hand":
        cats = A.distribution(5, A.hand_category)
        order = list(HAND_LABELS)
        outs = [(HAND_LABELS[c], cats[c]) for c in order if c in cats]
        return Odds(f"{sec[4:]} fire: the hand", outcomes(outs), tuple(why))
    res = A.result_odds(consecutive)
    order_r = ("hit", "burst", "misfire", "dud")
    paths = sorted(
        res.items(), key=lambda kv: (order_r.index(kv[0][0]), list(FLIGHTS).index(kv[0][1]))
    )
    out = joint([((r, FLIGHTS[f]), p) for (r, f), p in paths])
    return Odds(f"{sec[4:]} fire: result and flight", out, tuple(why))


def _h2h(v: Mapping[str, Any]) -> Odds:
    """XIV: pair the dice high to low; higher hits; an unpaired die only above the lowest."""
    n, m = int(v["attacker"]), int(v["defender"])
    column = bool(v["column"])
    if column:
        n, m = M.column_dice(m)
    why = [
        Why("dice", f"{n}d6 for the attacker against {m}d6 for the defender", "003 XIV.A.3"),
        Why(
            "rule",
            "both sides' dice sorted high to low and paired; equal pairs cancel, the higher "
            "die of a pair hits; an unpaired die hits only above the opponent's lowest",
            "003 XIV.A.3 (reading in rules-notes 003)",
        ),
        Why(
            "rule", 'the side hit more backs 3" and is disrupted; equal hits: neither', "XIV.A.3.b"
        ),
    ]
    if column:
        why.insert(
            0,
            Why(
                "row",
                "a column: the defender rolls for the piece in front and its neighbours (at "
                "most 3), the attacker one die more",
                "003 XIV.B.a-b",
            ),
        )
    dist = H.strike_distribution(n, m)
    title = f"003 hand-to-hand: {n} against {m} dice"
    if v["show"] == "hits":
        items = sorted(dist.items())
        out = joint([((f"attacker hits {a}", f"defender hits {d}"), p) for (a, d), p in items])
        return Odds(title, out, tuple(why))
    lose = {"defender": Fraction(0), "attacker": Fraction(0), "": Fraction(0)}
    for (a, d), p in dist.items():
        lose["attacker" if d > a else "defender" if a > d else ""] += p
    outs = [
        ("the defender backs (attacker wins)", lose["defender"]),
        ("neither (equal hits)", lose[""]),
        ("the attacker backs (defender wins)", lose["attacker"]),
    ]
    return Odds(title, outcomes(outs), tuple(why))


def _reaction(v: Mapping[str, Any]) -> Odds:
    """XIII.A.2-B (a charge) or XV.2.(3) (a column under fire): what the defender does."""
    if v["to"] == "column-fire":
        cfg = A.data()["column_reaction"]
        dist: dict[str, Fraction] = {}
        for f in range(1, 7):
            what, inches = M.column_reaction(f)
            key = f'{what} {inches}"' if inches else what
            dist[key] = dist.get(key, Fraction(0)) + Fraction(1, 6)
        rows = ", ".join(f"{k.replace('_on', '')} on {cfg[k]}" for k in cfg)
        why = [
            Why("dice", "1d6 for a column under infantry fire", "003 XV.2.(3)"),
            Why("row", rows, "003 XV.2.(3)"),
        ]
        return Odds("003 a column's reaction to fire", outcomes(dist), tuple(why))
    clear = bool(v["clear_field"])
    officers = int(v["officers"])
    reacts = M.reacts_odds(clear)
    hold = O.rally_odds(officers)
    cfg = A.data()["reaction"]
    paths: list[tuple[tuple[str, ...], Fraction]] = []
    for f in range(10):
        what, inches = M.reaction(f)
        p = reacts * Fraction(1, 10)
        name = f'{what} {inches}"' if inches else what
        if what == "none":
            name = "does nothing (a 10)"
        if what in ("retreat", "withdraw"):
            paths.append((("reacts", name, "an officer holds it"), p * hold))
            paths.append((("reacts", name, "gives way"), p * (1 - hold)))
        else:
            paths.append((("reacts", name), p))
    paths.append((("does not react until struck",), 1 - reacts))
    rows = ", ".join(f"{k.replace('_on', '')} on {cfg[k]}" for k in cfg if k.endswith("_on"))
    why = [
        Why(
            "dice",
            "2d10: the charger cheers on an even die, the defender hears on an even die "
            + ("(the field is clear: it reacts anyway)" if clear else "(smoke or fog)"),
            "003 XIII.A.2 (reading cheer_and_hear)",
        ),
        Why("dice", "1d10 for the reaction (a 0 reads as 10)", "003 XIII.B.1"),
        Why("row", rows, "003 XIII.B.1.(1)"),
        Why(
            "rule",
            f"{officers} officer(s) may hold a retreat or withdrawal: each contests the men "
            f"(d10 against d10, ties again) until one wins: P = {hold}",
            "003 XIII.B.2 (reading any_officer_rallies)",
        ),
    ]
    return Odds("003 the defender's reaction to a charge", joint(paths), tuple(why))


def _terrain(v: Mapping[str, Any]) -> Odds:
    """XVI: a terrain's movement deduction (and stall), or its firing deduction."""
    kind, left = str(v["kind"]), float(v["left"])
    sec = f"003 XVI ({kind.replace('_', ' ')})"
    if v["what"] == "fire":
        if kind == "stone_wall":
            dist = {f"-{k} on the stick": Fraction(1, 6) for k in range(1, 7)}
            why = [Why("dice", "1d6: the stone wall's firing deduction", sec)]
        else:
            ded = T.fire_deduction(kind)
            dist = {f"-{ded} on the stick": Fraction(1)}
            why = [Why("row", f"a fixed firing deduction of {ded}", sec)]
        return Odds(f"003 firing across {kind.replace('_', ' ')}", outcomes(dist), tuple(why))
    die = T.move_die(kind)
    spec = str(A.data()["terrain"][kind]["move"])
    dist = {}
    if die is None:
        g = T.movement(kind, left)
        dist["stalled" if g.stalled else f'{g.left:g}" left'] = Fraction(1)
        why = [Why("row", f'a fixed movement deduction of {spec}"', sec)]
    else:
        faces = range(10) if die[1] == 10 else range(1, die[1] + 1)
        for f in faces:
            g = T.movement(kind, left, f)
            key = "stalled" if g.stalled else f'{g.left:g}" left'
            dist[key] = dist.get(key, Fraction(0)) + Fraction(1, len(faces))
        why = [
            Why(
                "dice",
                f"{spec} inches ({'1D6 halved, rounding up' if '/2' in spec else spec})",
                sec,
            ),
        ]
    why.append(
        Why(
            "rule",
            f'{left:g}" of movement left; if the number exceeds it the regiment may not move '
            "for the rest of the turn",
            "003 XVI.E.1.a, F.1 (reading terrain_stall)",
        )
    )
    order = sorted(dist.items(), key=lambda kv: (kv[0] != "stalled", kv[0]))
    return Odds(f"003 moving across {kind.replace('_', ' ')}", outcomes(order), tuple(why))


def _charge_distance(v: Mapping[str, Any]) -> Odds:
    """XII.H: the dice each stand (line) or the column adds to its move."""
    from umpire.dice import parse

    troops, formation, move = str(v["troops"]), str(v["formation"]), float(v["move"])
    expr = str(A.data()["charge"][f"{troops}_{formation}"])
    rolled = "1d10-1" if expr == "1d10" else expr  # a d10 shows 0-9 (reading d10_zero)
    dist = [(int(x), Fraction(p)) for x, p in parse(rolled).distribution()]
    outs = [(f'+{x}" (reaches {move + x:g}")', p) for x, p in dist]
    each = "each stand rolls" if formation == "line" else "the column rolls"
    why = [
        Why("dice", f"{expr} ({each}; a d10 shows 0-9)", "003 XII.H.3-4 (default charge_dice)"),
        Why("rule", f'added to the regular move less deductions ({move:g}")', "003 XII.H"),
    ]
    if formation == "line":
        why.append(
            Why(
                "rule",
                "the line's dice are placed from the centre to the flanks, highest at the centre",
                "003 XII.H.3.a.(1)",
            )
        )
    return Odds(f"003 charge distance: {troops} {formation}", outcomes(outs), tuple(why))


def _fire(v: Mapping[str, Any]) -> Odds:
    """Infantry fire (default infantry_fire): a d10 a piece on the stick; a column loses double."""
    n, distance, ded = int(v["pieces"]), float(v["distance"]), int(v["deductions"])
    stick, formation = str(v["stick"]), str(v["formation"])
    value = F.stick_number(distance, stick)
    dist = F.infantry_odds(n, distance, ded, stick)
    if formation == "column":
        outs = [(f"{k} hits, {F.losses(k, formation)} lost", p) for k, p in sorted(dist.items())]
    else:
        outs = _hits(dist)
    why = [
        Why("dice", f"{n}d10 (0-9), one a piece on the firing line", "default infantry_fire"),
        Why("row", f'the {stick} stick at {distance:g}" reads {value}', "default rifle_stick"),
        Why("modifier", f"-{ded} deductions (smoke, fog, terrain, disruption)", "003 XV.4"),
        Why("rule", f"a die at or under {value - ded} hits", "003 XI.A.4.a.(2)(b)"),
    ]
    if formation == "column":
        why.append(Why("rule", "units in column lose double", "003 XVII.A (reading column_double)"))
    return Odds(f'003 infantry fire: {n} pieces at {distance:g}"', outcomes(outs), tuple(why))


def _rally(v: Mapping[str, Any]) -> Odds:
    """XII.A-B: officers contest the men in turn until one wins (ties rolled again)."""
    n, stop = int(v["officers"]), bool(v["stop_reaction"])
    p = O.rally_odds(n)
    win, lose = ("stops its reaction", "still in reaction") if stop else ("rallies", "routs")
    why = [
        Why("dice", "per officer: 1d10 for him against 1d10 for the men", "003 XII.A.1-2"),
        Why("rule", "the higher wins; a tie is rolled again", "reading contest_tie"),
        Why(
            "rule",
            f"{n} officer(s); the unit {win} as soon as one wins",
            "003 XII.A.3 / XII.B.2 (reading any_officer_rallies)",
        ),
    ]
    sec = "XII.B" if stop else "XII.A"
    return Odds(f"003 {sec}: {n} officers", outcomes([(win, p), (lose, 1 - p)]), tuple(why))


def _officer_loss(v: Mapping[str, Any]) -> Odds:
    """XVII.B (default officer_wounds): each officer 1d6 (even: hit), then 1d20 (15+: removed)."""
    n = int(v["officers"])
    dist = O.officers_lost_odds(n)
    why = [
        Why("dice", "1d6 per officer when his unit loses a piece: even is a hit", "003 XVII.B.1"),
        Why("dice", "1d20 for a hit officer: 15+ removed, else wounded and stays", "003 XVII.B.1"),
        Why("rule", f"P(one officer removed) = {O.officer_loss_odds()}", "default officer_wounds"),
    ]
    outs = [(f"{k} removed", p) for k, p in sorted(dist.items())]
    return Odds(f"003 officer losses: {n} officers", outcomes(outs), tuple(why))


def _fog(v: Mapping[str, Any]) -> Odds:
    """XII.D-E: fog or smoke thins by one on an even d10 at the start of each turn."""
    smoke, level, turns = bool(v["smoke"]), int(v["level"]), int(v["turns"])
    what = "smoke" if smoke else "fog"
    top = W.SMOKE_MAX if smoke else W.FOG_MAX
    if level > top:
        raise IllegalActionError(f"--level: {what} is 0 to {top}, not {level}")
    dist = W.level_odds(level, turns)
    why = [
        Why("dice", "1d10 at the beginning of each turn: even thins by one", "003 XII.D-E"),
        Why("rule", f"{what} {level} now, after {turns} turn(s)", "reading smoke_thins"),
    ]
    outs = [(f"{what} {k}", p) for k, p in sorted(dist.items())]
    return Odds(f"003 {what} after {turns} turns", outcomes(outs), tuple(why))


def _officers() -> int:
    return int(A.data()["battle"]["officers"])


RESOLUTIONS: tuple[Resolution, ...] = (
    Resolution(
        MODULE,
        "artillery",
        "003 XI.A (artillery rounds)",
        "hits of a solid shot, a shell or case burst, or canister",
        (
            Param("round", "str", "shell", "the round fired", ROUNDS),
            Param("range", "float", 6.0, "inches to the target (canister)", lo=0, hi=27),
            Param("deductions", "int", 0, "deductions on the stick (canister)", lo=0, hi=9),
        ),
        _artillery,
    ),
    Resolution(
        MODULE,
        "poker-hand",
        "003 XI.B-C (first and consecutive fire)",
        "five d10 as a poker hand: hit, burst, misfire or dud, long or short",
        (
            Param("consecutive", "bool", False, "consecutive fire (XI.C), not first fire"),
            Param(
                "show", "str", "result", "the result and flight, or the hand", ("result", "hand")
            ),
        ),
        _poker,
    ),
    Resolution(
        MODULE,
        "h2h",
        "003 XIV (hand-to-hand)",
        "one strike of hand-to-hand: who backs, or both sides' hits",
        (
            Param("attacker", "int", 4, "the attacker's dice (pieces)", lo=1, hi=H.MAX_DICE),
            Param("defender", "int", 4, "the defender's dice (pieces)", lo=1, hi=H.MAX_DICE),
            Param("column", "bool", False, "the attacker is a column (XIV.B: dice from it)"),
            Param("show", "str", "loser", "who backs, or the joint hits", ("loser", "hits")),
        ),
        _h2h,
    ),
    Resolution(
        MODULE,
        "reaction",
        "003 XIII.A.2-B, XV.2.(3) (reactions)",
        "the defender's reaction to a charge, or a column's to fire",
        (
            Param("to", "str", "charge", "what it reacts to", ("charge", "column-fire")),
            Param("clear_field", "bool", False, "the field is clear of smoke and fog"),
            Param("officers", "int", _officers(), "the defender's officers", lo=0, hi=6),
        ),
        _reaction,
    ),
    Resolution(
        MODULE,
        "terrain",
        "003 XVI (terrain)",
        "what a terrain takes off a move (and stalls it), or off fire",
        (
            Param("kind", "str", "uphill", "the terrain", tuple(T.kinds())),
            Param("left", "float", 6.0, "inches of movement left before it", lo=0, hi=36),
            Param("what", "str", "move", "the movement or the firing deduction", ("move", "fire")),
        ),
        _terrain,
    ),
    Resolution(
        MODULE,
        "charge-distance",
        "003 XII.H (charges)",
        "the inches a charging stand (or column) adds to its move",
        (
            Param("troops", "str", "infantry", "who charges", ("infantry", "cavalry")),
            Param("formation", "str", "line", "line or column", ("line", "column")),
            Param("move", "float", 0.0, "the regular move less deductions", lo=0, hi=36),
        ),
        _charge_distance,
    ),
    Resolution(
        MODULE,
        "fire",
        "003 infantry fire (default infantry_fire), XVII.A",
        "hits of infantry fire on the stick (a column loses double)",
        (
            Param("pieces", "int", 4, "pieces on the firing line", lo=1, hi=24),
            Param("distance", "float", 6.0, "inches to the target", lo=0, hi=27),
            Param("deductions", "int", 0, "smoke, fog, terrain, disruption", lo=0, hi=9),
            Param(
                "formation", "str", "line", "the target's formation", ("line", "column", "skirmish")
            ),
            Param("stick", "str", "rifle", "the range stick", ("rifle", "musket")),
        ),
        _fire,
    ),
    Resolution(
        MODULE,
        "rally",
        "003 XII.A-B (officers)",
        "the officers rally a routed unit (or stop a reaction)",
        (
            Param("officers", "int", _officers(), "the unit's officers", lo=0, hi=6),
            Param("stop_reaction", "bool", False, "stop a reaction (XII.B), not rally a rout"),
        ),
        _rally,
    ),
    Resolution(
        MODULE,
        "officer-loss",
        "003 XVII.B (default officer_wounds)",
        "officers removed when their unit loses a piece",
        (Param("officers", "int", _officers(), "the unit's officers", lo=0, hi=6),),
        _officer_loss,
    ),
    Resolution(
        MODULE,
        "fog",
        "003 XII.D-E (fog and smoke)",
        "the fog's (or a unit's smoke's) level after some turns",
        (
            Param("level", "int", 3, "the level now", lo=0, hi=6),
            Param("turns", "int", 1, "turns from now", lo=0, hi=20),
            Param("smoke", "bool", False, "smoke markers, not fog"),
        ),
        _fog,
    ),
)
