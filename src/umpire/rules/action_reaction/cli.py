"""``umpire resolve ... --rules action-reaction``: seed 003 rulings for a real table.

Hand-to-hand, first and consecutive fire, shell and case bursts, solid shot, the reaction
to a charge, the officer's rally, fog and smoke, infantry fire and officer losses: the faces
typed (real dice) or rolled on a seed (a fresh one, printed, unless given), the ruling with
its trace, and the exact odds. Heavy modules are imported inside the commands so ``umpire
roll`` stays fast.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import typer

from umpire.errors import IllegalActionError, UnknownNameError
from umpire.rules.ruling import dice_seed, show_ruling, typed_faces

resolve_app = typer.Typer(help="Seed 003 (Action/Reaction) rulings with exact odds.")

RULES = ("action-reaction", "action_reaction")


def _rules(name: str) -> None:
    if name not in RULES:
        raise UnknownNameError(f"unknown rules '{name}' for this ruling (known: action-reaction)")


def _faces(text: str, n: int | None, sides: int, low: int, what: str) -> list[int]:
    """Faces typed at the table ("6 5 4" or "6,5,4"), read as every dice prompt reads them;
    a d10 shows 0 to 9 and its 0 may be typed 0 or 10 (reading ``d10_zero``)."""
    return typed_faces(text, n, sides, what, zero_low=low == 0)


def _inches(value: float, option: str) -> float:
    """A distance typed in inches: a finite number, 0 or more."""
    import math

    if not math.isfinite(value) or value < 0:
        raise IllegalActionError(f'{option}: inches, 0 or more, not {value:g}"')
    return value


def _count(value: int, option: str, low: int, high: int, what: str) -> int:
    """A count typed (pieces, officers, deductions, turns) within what the module allows."""
    if not low <= value <= high:
        raise IllegalActionError(f"{option}: {what} are {low} to {high}, not {value}")
    return value


MAX_PIECES = 30
"""The most pieces (stands) a unit has: a scenario's limit (``umpire.scenarios`` UnitSpec)."""

MAX_DEDUCTIONS = 20
"""Deductions typed on the stick: 0 to 20 (the stick's numbers are at most 9, so any more
hit nothing alike; the limit only keeps a typo from reading as a ruling)."""

MAX_TURNS = 100
"""``resolve fog --turns``: the exact distribution after at most 100 turn starts (its
fractions grow a digit a turn)."""


def _per() -> int:
    """Default ``hits_per_piece`` (data [battle]): hits that take one piece off."""
    from umpire.rules.action_reaction.artillery import data

    return int(data()["battle"]["hits_per_piece"])


def _loss(hits: int, formation: str, carried: int, whose: str) -> str:
    """``whose`` losses to ``hits`` counted as the battle counts them
    (:func:`fire.pieces_lost`, default ``hits_per_piece``, XVII.A in column)."""
    from umpire.rules.action_reaction import fire as F

    per = _per()
    pieces, left = F.pieces_lost(hits, carried, per, formation)
    had = f" with {carried} carried" if carried else ""
    col = ", doubled in column (XVII.A)" if formation == "column" and pieces else ""
    return (
        f"{whose} loses {pieces} piece{'s' if pieces != 1 else ''} "
        f"({hits} hit{'s' if hits != 1 else ''}{had}; {per} hits a piece{col}; "
        f"{left} carried toward the next)"
    )


def _target(formation: str, carried: int, option: str = "--target-formation") -> tuple[str, int]:
    """The target's formation (seed 003's formations) and the hits it already carries."""
    from umpire.rules.action_reaction.movement import FORMATIONS

    if formation not in FORMATIONS:
        raise UnknownNameError(
            f"{option}: unknown formation '{formation}' (seed 003: {', '.join(FORMATIONS)})"
        )
    return formation, _count(carried, "--carried", 0, _per() - 1, "hits already on the target")


def _roll(n: int, sides: int, low: int, seed: int) -> list[int]:
    """``n`` faces rolled on the seed (a d10 shows 0-9: ``low`` 0)."""
    from umpire.dice import SeededSource

    return [f - 1 + low for f in SeededSource(seed).dice(n, sides, "resolve")]


@resolve_app.command("hand-to-hand")
def hand_to_hand(
    rules: str = typer.Option("action-reaction", "--rules"),
    attacker: str = typer.Option("", help='the attacker\'s d6 faces, e.g. "6 5 4 3 2 1"'),
    defender: str = typer.Option("", help="the defender's d6 faces"),
    attacker_pieces: int = typer.Option(0, help="pieces charging (when the faces are rolled)"),
    defender_pieces: int = typer.Option(0, help="defending pieces (when rolled)"),
    defender_formation: str = typer.Option(
        "line", help="the defender's formation (a column loses double, XVII.A)"
    ),
    column: bool = typer.Option(False, "--column", help="the attacker is in column (XIV.B)"),
    seed: int | None = typer.Option(None, help="dice seed when faces are rolled (default fresh)"),
    odds_only: bool = typer.Option(False, "--odds", help="only the exact odds"),
    as_json: bool = typer.Option(False, "--json"),
) -> None:
    """XIV: pair the dice high to low; the higher of a pair hits; an unpaired die hits only
    above the opponent's lowest; the side hit more backs 3" and is disrupted."""
    from umpire.rules.action_reaction import h2h
    from umpire.rules.action_reaction.melee import column_dice, strike

    _rules(rules)
    d_form, _ = _target(defender_formation, 0, "--defender-formation")
    _count(attacker_pieces, "--attacker-pieces", 0, MAX_PIECES, "pieces")
    _count(defender_pieces, "--defender-pieces", 0, MAX_PIECES, "pieces")
    a = _faces(attacker, None, 6, 1, "--attacker") if attacker else []
    d = _faces(defender, None, 6, 1, "--defender") if defender else []
    n = len(a) or attacker_pieces
    m = len(d) or defender_pieces
    if column and not defender:
        n, m = column_dice(m or 3)
    if n < 1 or m < 1:
        raise IllegalActionError("give the faces (--attacker, --defender) or the pieces a side")
    if n > h2h.MAX_DICE or m > h2h.MAX_DICE:
        raise IllegalActionError(
            f"hand-to-hand takes at most {h2h.MAX_DICE} dice a side, not {max(n, m)}"
        )
    out: dict[str, Any] = {"rule": "003 XIV.B (column)" if column else "003 XIV.A (line)"}
    out["dice"] = {"attacker": n, "defender": m}
    if (a and d) or not odds_only:
        if not a or not d:
            seed = dice_seed(seed)
            out["seed"] = seed
            a = a or _roll(n, 6, 1, seed)
            d = d or _roll(m, 6, 1, seed + 1)
        s = strike(a, d)
        a_form = "column" if column else "line"
        out.update(
            attacker=sorted(a, reverse=True),
            defender=sorted(d, reverse=True),
            hits_by_attacker_on_defender=s.attacker_hits,
            hits_by_defender_on_attacker=s.defender_hits,
            attacker_losses=_loss(s.defender_hits, a_form, 0, "the attacker"),
            defender_losses=_loss(s.attacker_hits, d_form, 0, "the defender"),
            loser=s.loser or "neither (equal hits)",
        )
        if s.loser:
            out["result"] = f'the {s.loser} backs up 3" and is disrupted (red marker)'
    out["odds"] = {f"{k or 'neither'} loses": v for k, v in h2h.loser_odds(n, m).items() if v}
    show_ruling(out, as_json)


@resolve_app.command("first-fire")
def first_fire_cmd(
    rules: str = typer.Option("action-reaction", "--rules"),
    roll: str = typer.Option("", help='five d10 faces (0-9), e.g. "3 4 5 6 7"'),
    consecutive: bool = typer.Option(False, "--consecutive", help="consecutive fire (XI.C)"),
    called: float | None = typer.Option(
        None, help="consecutive fire: the range called, inches (XI.C.1)"
    ),
    range_: float | None = typer.Option(
        None, "--range", help="with --called: the true range to the target, inches"
    ),
    seed: int | None = typer.Option(None, help="dice seed when not given (default fresh)"),
    odds_only: bool = typer.Option(False, "--odds"),
    as_json: bool = typer.Option(False, "--json"),
) -> None:
    """XI.B / XI.C: five d10 as a poker hand: hit, burst, misfire or dud, long or short;
    consecutive fire lands at the range called (XI.C.1, reading called_range)."""
    from umpire.rules.action_reaction import artillery as A

    _rules(rules)
    if called is not None and not consecutive:
        raise IllegalActionError(
            "--called: first fire is laid on the measured range (XI.B); "
            "a range is called on consecutive fire (--consecutive, XI.C.1)"
        )
    if (called is None) != (range_ is None):
        raise IllegalActionError("--called and --range go together (the call and the truth)")
    if called is not None and range_ is not None:
        _inches(called, "--called")
        _inches(range_, "--range")
        if called <= 0 or range_ <= 0:
            raise IllegalActionError("--called and --range are inches, more than 0")
    out: dict[str, Any] = {"rule": "003 XI.C (consecutive fire)" if consecutive else "003 XI.B"}
    if called is not None and range_ is not None:
        off = called - range_
        out["called"] = (
            f'{called:g}" called, the target at {range_:g}": the round lands '
            + (f'{off:g}" beyond it' if off > 0 else f'{-off:g}" short of it' if off else "on it")
            + ", then long (+1D6 halved) or short (-1D6 halved) as the hand says"
        )
    if roll or not odds_only:
        if roll:
            faces = _faces(roll, 5, 10, 0, "--roll")
        else:
            seed = dice_seed(seed)
            out["seed"] = seed
            faces = _roll(5, 10, 0, seed)
        hand = A.first_fire(faces, consecutive)
        flights = {
            "": "on the called range",
            "long": 'long by 1D6 halved (1-3")',
            "short": 'short by 1D6 halved (1-3")',
            "both": "long and short pairs: roll 1d6, even short, odd long",
        }
        out.update(roll=faces, hand=hand.category, result=hand.result, flight=flights[hand.flight])
        if hand.result == "dud":
            out["dud"] = "treated as solid shot; 1d6: 1 short, 2 long, else on range"
    cats = A.hand_odds()
    out["odds"] = dict(sorted(cats.items(), key=lambda kv: -kv[1]))
    show_ruling(out, as_json)


@resolve_app.command("burst")
def burst_cmd(
    rules: str = typer.Option("action-reaction", "--rules"),
    ammunition: str = typer.Option("shell", help="shell (5d10) or case (7d10)"),
    roll: str = typer.Option("", help="the d10 faces (0-9; a 0 may be typed 10)"),
    target_formation: str = typer.Option("line", help="the target's formation"),
    carried: int = typer.Option(0, help="hits already on the target (short of a piece)"),
    seed: int | None = typer.Option(None, help="dice seed when not given (default fresh)"),
    odds_only: bool = typer.Option(False, "--odds"),
    as_json: bool = typer.Option(False, "--json"),
) -> None:
    """XI.A.2-3: remove the 0s and every die showing the highest; the rest are hits."""
    from umpire.rules.action_reaction import artillery as A

    _rules(rules)
    if ammunition not in ("shell", "case"):
        raise UnknownNameError(f"unknown ammunition '{ammunition}' (bursts: shell, case)")
    form, carried = _target(target_formation, carried)
    n = A.data()["burst"][f"{ammunition}_dice"]
    out: dict[str, Any] = {"rule": "003 XI.A.2" if ammunition == "shell" else "003 XI.A.3"}
    if roll or not odds_only:
        if roll:
            faces = _faces(roll, n, 10, 0, "--roll")
        else:
            seed = dice_seed(seed)
            out["seed"] = seed
            faces = _roll(n, 10, 0, seed)
        hits = A.burst_hits(faces)
        out.update(
            roll=faces, hits_on_target=hits, target_losses=_loss(hits, form, carried, "the target")
        )
    out["odds"] = {f"{k} hits": v for k, v in sorted(A.burst_odds(ammunition).items())}
    show_ruling(out, as_json)


@resolve_app.command("reaction")
def reaction_cmd(
    rules: str = typer.Option("action-reaction", "--rules"),
    roll: str = typer.Option(
        "", help="the defender's d10 (0-9, or 10: the 0 reads as 10), or a column's d6"
    ),
    column: bool = typer.Option(False, "--column", help="a column under infantry fire: 1d6"),
    seed: int | None = typer.Option(None, help="dice seed when not given (default fresh)"),
    odds_only: bool = typer.Option(False, "--odds", help="only the odds, unless --roll is given"),
    as_json: bool = typer.Option(False, "--json"),
) -> None:
    """XIII.B.1 (the d10 list) or XV.2.(3) (a column's d6 list): what the defender does."""
    from fractions import Fraction

    from umpire.rules.action_reaction import melee as M

    _rules(rules)
    sides, low = (6, 1) if column else (10, 0)
    out: dict[str, Any] = {"rule": "003 XV.2.(3)" if column else "003 XIII.B.1"}
    if roll or not odds_only:
        if not roll:
            seed = dice_seed(seed)
            out["seed"] = seed
            face = _roll(1, sides, low, seed)[0]
        else:
            face = _faces(roll, 1, sides, low, "--roll")[0]
        kind, inches = (M.column_reaction if column else M.reaction)(face)
        out.update(
            roll=f"{face} (reads as 10)" if face == 0 else face, reaction=kind, inches=inches
        )
    odds: dict[str, Fraction] = {}
    for f in range(low, low + sides):
        k = (M.column_reaction if column else M.reaction)(f)[0]
        odds[k] = odds.get(k, Fraction(0)) + Fraction(1, sides)
    out["odds"] = odds
    show_ruling(out, as_json)


@resolve_app.command("canister")
def canister_cmd(
    rules: str = typer.Option("action-reaction", "--rules"),
    range_: float = typer.Option(..., "--range", help="inches to the target"),
    deductions: int = typer.Option(0, help="smoke, fog, terrain, walls and fences"),
    later: bool = typer.Option(
        False,
        "--later",
        help="a later shot: the battery fired canister before and its smoke stands "
        "(XI.A.4.b: 1D6 halved more for the accumulating smoke)",
    ),
    smoke_roll: int | None = typer.Option(
        None, help="with --later: the accumulating smoke's d6 (1-6), halved rounding up"
    ),
    roll: str = typer.Option("", help="the nine d10 faces (0-9; a 0 may be typed 10)"),
    target_formation: str = typer.Option("line", help="the target's formation"),
    carried: int = typer.Option(0, help="hits already on the target (short of a piece)"),
    seed: int | None = typer.Option(None, help="dice seed when not given (default fresh)"),
    odds_only: bool = typer.Option(False, "--odds"),
    as_json: bool = typer.Option(False, "--json"),
) -> None:
    """XI.A.4: 9 d10 on the rifle stick; each at or under its number less deductions hits;
    a later shot (--later) adds 1D6 halved for the accumulating smoke (XI.A.4.b)."""
    from umpire.rules.action_reaction import artillery as A

    _rules(rules)
    form, carried = _target(target_formation, carried)
    _count(deductions, "--deductions", 0, MAX_DEDUCTIONS, "deductions")
    value = A.stick_value(_inches(range_, "--range"))
    if value is None:
        reach = len(A.data()["stick"]["rifle"]) * A.data()["stick"]["rifle_section"]
        raise IllegalActionError(f'canister reaches {reach:g}" (the rifle stick), not {range_:g}"')
    if smoke_roll is not None and not later:
        raise IllegalActionError("--smoke-roll: only a later shot (--later) rolls for smoke")
    n = A.data()["stick"]["canister_dice"]
    later_rule = "; XI.A.4.b consecutive fire (reading canister_later_shot)" if later else ""
    out: dict[str, Any] = {
        "rule": f"003 XI.A.4 (rifle stick, default rifle_stick){later_rule}",
        "stick": value,
    }
    total = deductions
    smoke_face = None
    if later and (smoke_roll is not None or not odds_only):
        if smoke_roll is None:
            seed = dice_seed(seed)
            out["seed"] = seed
            smoke_face = _roll(1, 6, 1, seed + 1)[0]
        else:
            smoke_face = _faces(str(smoke_roll), 1, 6, 1, "--smoke-roll")[0]
        total += A.halved(smoke_face)
        out["accumulating_smoke"] = (
            f"1D6 halved: {smoke_face} -> -{A.halved(smoke_face)} (deductions {total})"
        )
    elif later:
        out["accumulating_smoke"] = "1D6 halved: -1, -2 or -3, each 1/3"
    if not later or smoke_face is not None:
        out["needed"] = f"{value - total} or less on a d10 (0-9)"
    if roll or not odds_only:
        if roll:
            faces = _faces(roll, n, 10, 0, "--roll")
        else:
            seed = dice_seed(seed)
            out["seed"] = seed
            faces = _roll(n, 10, 0, seed)
        hits = A.stick_hits(faces, value, total)
        out.update(
            roll=faces, hits_on_target=hits, target_losses=_loss(hits, form, carried, "the target")
        )
    odds = (
        A.later_stick_odds(n, value, deductions)
        if later and smoke_roll is None
        else A.stick_odds(n, value, total)
    )
    out["odds"] = {f"{k} hits": p for k, p in odds.items()}
    show_ruling(out, as_json)


@resolve_app.command("solid-shot")
def solid_shot_cmd(
    rules: str = typer.Option("action-reaction", "--rules"),
    roll: str = typer.Option("", help='the bounce d10, then the hit d10s, e.g. "4 2 7"'),
    target_formation: str = typer.Option("line", help="the target's formation"),
    carried: int = typer.Option(0, help="hits already on the target (short of a piece)"),
    seed: int | None = typer.Option(None, help="dice seed when not given (default fresh)"),
    odds_only: bool = typer.Option(False, "--odds", help="only the odds, unless --roll is given"),
    as_json: bool = typer.Option(False, "--json"),
) -> None:
    """XI.A.1: an even d10 bounces 2" and rolls 2 hit dice, else 1; even hit dice hit."""
    from umpire.rules.action_reaction import artillery as A

    _rules(rules)
    form, carried = _target(target_formation, carried)
    out: dict[str, Any] = {"rule": "003 XI.A.1"}
    if roll or not odds_only:
        if roll:
            faces = _faces(roll, None, 10, 0, "--roll")
            if len(faces) > 3:
                raise IllegalActionError(
                    f"--roll: the bounce d10 and 1 or 2 hit d10s, not {len(faces)} faces"
                )
        else:
            seed = dice_seed(seed)
            out["seed"] = seed
            first = _roll(1, 10, 0, seed)
            faces = first + _roll(2 if first[0] % 2 == 0 else 1, 10, 0, seed + 1)
        try:
            bounced, hits = A.solid_shot_hits(faces[0], faces[1:])
        except ValueError as exc:
            raise IllegalActionError(f"--roll: {exc}") from None
        out.update(
            roll=faces,
            bounced=bounced,
            hits_on_target=hits,
            target_losses=_loss(hits, form, carried, "the target"),
        )
    out["odds"] = {f"{k} hits": p for k, p in sorted(A.solid_shot_odds().items())}
    show_ruling(out, as_json)


@resolve_app.command("charge-distance")
def charge_cmd(
    rules: str = typer.Option("action-reaction", "--rules"),
    troops: str = typer.Option(..., help="infantry or cavalry (mounted)"),
    formation: str = typer.Option("line", help="line or column"),
    stands: int = typer.Option(1, help="stands in the charging line"),
    move: float = typer.Option(0.0, help="the regular move less deductions (inches)"),
    seed: int | None = typer.Option(None, help="dice seed (default fresh, printed)"),
    as_json: bool = typer.Option(False, "--json"),
) -> None:
    """XII.H: the dice each stand (or the column) adds to its move, centre to flanks."""
    from fractions import Fraction

    from umpire.dice import parse
    from umpire.rules.action_reaction.melee import centre_out, charge_dice

    _rules(rules)
    _count(stands, "--stands", 1, MAX_PIECES, "stands")
    move = _inches(move, "--move")
    try:
        dice = charge_dice(troops, formation, stands)
    except ValueError as exc:
        raise IllegalActionError(str(exc)) from None
    seed = dice_seed(seed)
    count, sides = dice[0]
    low = 0 if sides == 10 else 1
    rolls = [sum(_roll(count, sides, low, seed + k)) for k in range(len(dice))]
    placed = centre_out(rolls) if formation == "line" else rolls
    expr = f"{count}d{sides}" if sides != 10 else "1d10-1"
    dist = {f'+{int(v)}"': Fraction(p) for v, p in parse(expr).distribution()}
    out: dict[str, Any] = {
        "rule": "003 XII.H",
        "seed": seed,
        "adds": placed,
        "reach": [move + r for r in placed],
        "odds": dist,
    }
    show_ruling(out, as_json)


def _stream(seed: int) -> Callable[[int, int, int], list[int]]:
    """A roller drawing one die after another from the seed's stream (``low`` 0: a d10 0-9)."""
    from umpire.dice import SeededSource

    src = SeededSource(seed)

    def roll(n: int, sides: int, low: int) -> list[int]:
        return [f - 1 + low for f in src.dice(n, sides, "resolve")]

    return roll


@resolve_app.command("rally")
def rally_cmd(
    rules: str = typer.Option("action-reaction", "--rules"),
    officers: int | None = typer.Option(None, help="the unit's officers (default 3)"),
    faces: str = typer.Option(
        "", help='each contest\'s officer and men d10 (0-9), in pairs, e.g. "7 3, 2 5"'
    ),
    reaction: bool = typer.Option(False, "--reaction", help="stop a reaction (XII.B)"),
    seed: int | None = typer.Option(None, help="dice seed when not given (default fresh)"),
    odds_only: bool = typer.Option(False, "--odds"),
    as_json: bool = typer.Option(False, "--json"),
) -> None:
    """XII.A-B: each officer rolls a d10 against the men's d10; the higher wins, a tie is
    rolled again; the unit rallies (or stops its reaction) as soon as one officer wins."""
    from umpire.rules.action_reaction import officers as O
    from umpire.rules.action_reaction.artillery import data

    _rules(rules)
    top = int(data()["battle"]["officers"])
    n = top if officers is None else _count(officers, "--officers", 0, top, "a unit's officers")
    win, lose = ("stops", "still in reaction") if reaction else ("rallies", "routs")
    out: dict[str, Any] = {
        "rule": "003 XII.B (stop a reaction)" if reaction else "003 XII.A (rally a routed unit)",
        "officers": n,
    }
    if faces or not odds_only:
        pairs: list[int] = _faces(faces, None, 10, 0, "--faces") if faces else []
        if len(pairs) % 2:
            raise IllegalActionError(
                f"--faces: the dice go in pairs (officer, men), not {len(pairs)} faces"
            )
        roll = None
        if not faces and n > 0:
            seed = dice_seed(seed)
            out["seed"] = seed
            roll = _stream(seed)
        contests: list[str] = []
        result = ""
        k, used = 0, 0
        while k < n and not result:
            if roll is not None:
                off, men = roll(2, 10, 0)
            elif used < len(pairs):
                off, men = pairs[used], pairs[used + 1]
            else:
                result = f"undecided: officer {k + 1} rolls next"
                break
            used += 2
            res = O.contest(off, men)
            word = {"officer": "the officer wins", "men": "the men win", "tie": "a tie, again"}
            contests.append(f"officer {k + 1}: {off} against the men's {men}: {word[res]}")
            if res == "officer":
                result = f"the unit {win} (officer {k + 1})"
            elif res == "men":
                k += 1
        if roll is None and used < len(pairs):
            raise IllegalActionError(
                f"--faces: the rally was decided by pair {used // 2}; "
                f"{(len(pairs) - used) // 2} more given"
            )
        if not result:
            result = (
                "the unit is still in reaction"
                if reaction
                else "the men win: the unit routs the distance it did on the previous turn, "
                "taking the officers with it"
            )
        out.update(contests=contests, result=result)
    p = O.rally_odds(n)
    out["odds"] = {win: p, lose: 1 - p}
    show_ruling(out, as_json)


@resolve_app.command("fog")
def fog_cmd(
    rules: str = typer.Option("action-reaction", "--rules"),
    level: int | None = typer.Option(
        None, help="the fog's thickness now (0-6), or a unit's smoke markers with --smoke"
    ),
    turns: int | None = typer.Option(None, help="the exact distribution after this many turns"),
    roll: int | None = typer.Option(
        None, help="the die: a new fog's d6 (1-6), or the d10 (0-9) that may thin it"
    ),
    smoke: bool = typer.Option(False, "--smoke", help="smoke markers (XII.E), not fog"),
    seed: int | None = typer.Option(None, help="dice seed when not given (default fresh)"),
    as_json: bool = typer.Option(False, "--json"),
) -> None:
    """XII.D-E: a new fog's thickness (1d6), or the thinning at the turn's start (an even
    d10 takes one off, fog and smoke alike), or the exact level after some turns."""
    from fractions import Fraction

    from umpire.rules.action_reaction import weather as W

    _rules(rules)
    what = "smoke" if smoke else "fog"
    top = W.SMOKE_MAX if smoke else W.FOG_MAX
    if level is not None and not 0 <= level <= top:
        raise IllegalActionError(f"--level: {what} is 0 to {top}, not {level}")
    if turns is not None and (roll is not None or level is None):
        raise IllegalActionError("--turns: with --level and without --roll")
    if turns is not None:
        _count(turns, "--turns", 0, MAX_TURNS, "turns")

    def deduct(lv: int) -> dict[str, str]:
        if smoke:
            return {"fire": f"-{W.smoke_deduction(lv)} on the stick (add the other unit's)"}
        fire, move = W.fog_deductions(lv)
        return {"fire": f"-{fire} on the stick", "movement": f'-{move:g}"'}

    out: dict[str, Any] = {"rule": "003 XII.E.2 (smoke)" if smoke else "003 XII.D"}
    if level is None:
        if smoke:
            raise IllegalActionError("--smoke: give --level (the smoke markers on the unit)")
        out["rule"] = "003 XII.D.1 (the fog's thickness)"
        if roll is None:
            seed = dice_seed(seed)
            out["seed"] = seed
            face = _roll(1, 6, 1, seed)[0]
        else:
            face = _faces(str(roll), 1, 6, 1, "--roll")[0]
        thick = W.fog_thickness(face)
        out.update(roll=face, thickness=thick, deductions=deduct(thick))
        out["odds"] = {f"thickness {k}": Fraction(1, 6) for k in range(1, 7)}
    elif turns is not None:
        out.update(level=level, turns=turns)
        out["odds"] = {f"{what} {k}": p for k, p in W.level_odds(level, turns).items()}
    else:
        if roll is None:
            seed = dice_seed(seed)
            out["seed"] = seed
            face = _roll(1, 10, 0, seed)[0]
        else:
            face = _faces(str(roll), 1, 10, 0, "--roll")[0]
        after = W.next_level(level, face)
        out.update(roll=face, thins=W.thins(face) and level > 0, level=after)
        out["deductions"] = deduct(after)
        out["odds"] = {f"{what} {k}": p for k, p in W.level_odds(level, 1).items()}
    show_ruling(out, as_json)


@resolve_app.command("infantry-fire")
def infantry_fire_cmd(
    rules: str = typer.Option("action-reaction", "--rules"),
    pieces: int = typer.Option(0, help="pieces on the firing line (one d10 each)"),
    distance: float = typer.Option(..., help="inches to the target"),
    deductions: int = typer.Option(0, help="smoke, fog, terrain, walls, fences, disruption"),
    formation: str = typer.Option("line", help="the target's formation (column: double)"),
    stick: str = typer.Option("rifle", help='rifle (27") or musket (6")'),
    faces: str = typer.Option("", help="the d10 faces (0-9; a 0 may be typed 10), one a piece"),
    carried: int = typer.Option(0, help="hits already on the target (short of a piece)"),
    seed: int | None = typer.Option(None, help="dice seed when not given (default fresh)"),
    odds_only: bool = typer.Option(False, "--odds"),
    as_json: bool = typer.Option(False, "--json"),
) -> None:
    """Infantry fire (default infantry_fire): a d10 a piece on the stick; at or under its
    number less deductions hits; a column loses double (XVII.A); the target's reaction."""
    from umpire.rules.action_reaction import fire as F

    _rules(rules)
    formation, carried = _target(formation, carried, "--formation")
    _count(pieces, "--pieces", 0, MAX_PIECES, "pieces on the firing line")
    _count(deductions, "--deductions", 0, MAX_DEDUCTIONS, "deductions")
    distance = _inches(distance, "--distance")
    F.stick_length(stick)
    rolled = _faces(faces, pieces or None, 10, 0, "--faces") if faces else []
    if len(rolled) > MAX_PIECES:
        raise IllegalActionError(
            f"--faces: one d10 a piece, at most {MAX_PIECES}, not {len(rolled)}"
        )
    n = len(rolled) or pieces
    if n < 1:
        raise IllegalActionError("give the pieces on the firing line (--pieces) or --faces")
    value = F.stick_number(distance, stick)
    need = value - deductions
    reacts = {"d10": "1d10 (XIII.B.1)", "d6": "1d6 (XV.2.(3): a column)"}
    out: dict[str, Any] = {
        "rule": "003 infantry fire (defaults infantry_fire, rifle_stick), XVII.A",
        "pieces": n,
        "stick": value,
        "needed": f"{need} or less on a d10 (0-9)" if need >= 0 else "none: no die can hit",
        "reaction": reacts[F.fire_reaction("infantry", formation, False)],
    }
    if rolled or not odds_only:
        if not rolled:
            seed = dice_seed(seed)
            out["seed"] = seed
            rolled = _roll(n, 10, 0, seed)
        hits = F.infantry_hits(rolled, distance, deductions, stick)
        out.update(
            roll=rolled,
            hits_on_target=hits,
            target_losses=_loss(hits, formation, carried, "the target"),
        )
    odds = F.infantry_odds(n, distance, deductions, stick)
    per = _per()

    def lost(k: int) -> int:
        return F.pieces_lost(k, carried, per, formation)[0]

    out["odds"] = {
        f"{k} hit{'s' if k != 1 else ''}, {lost(k)} piece{'s' if lost(k) != 1 else ''} lost": p
        for k, p in odds.items()
    }
    show_ruling(out, as_json)


@resolve_app.command("officer-loss")
def officer_loss_cmd(
    rules: str = typer.Option("action-reaction", "--rules"),
    officers: int | None = typer.Option(None, help="the unit's officers (default 3)"),
    faces: str = typer.Option(
        "", help='each officer\'s d6, and a d20 after an even d6, e.g. "4 17, 3, 6 2"'
    ),
    captain: int | None = typer.Option(None, help="the senior captain's d10 (0-9), if needed"),
    seed: int | None = typer.Option(None, help="dice seed when not given (default fresh)"),
    odds_only: bool = typer.Option(False, "--odds"),
    as_json: bool = typer.Option(False, "--json"),
) -> None:
    """XVII.B with default officer_wounds: when a unit loses a piece each officer rolls 1d6
    (even: hit), a hit one 1d20 (15+: removed); none left: the senior captain (XII.C)."""
    from umpire.rules.action_reaction import officers as O
    from umpire.rules.action_reaction.artillery import data

    _rules(rules)
    groups = faces.split(",") if faces else []
    n = len(groups) if officers is None and groups else officers
    top = int(data()["battle"]["officers"])
    n = top if n is None else _count(n, "--officers", 0, top, "a unit's officers")
    if groups and len(groups) != n:
        raise IllegalActionError(f"--faces: {n} officers, not {len(groups)}")
    out: dict[str, Any] = {
        "rule": "003 XVII.B (default officer_wounds), XII.C",
        "officers": n,
        "p_one_removed": O.officer_loss_odds(),
    }
    if groups or not odds_only:
        roll = None
        if not groups:
            seed = dice_seed(seed)
            out["seed"] = seed
            roll = _stream(seed)
        checks: list[str] = []
        removed = 0
        for k in range(n):
            if roll is not None:
                d6 = roll(1, 6, 1)[0]
                d20 = roll(1, 20, 1)[0] if O.officer_hit(d6) else None
            else:
                what = f"--faces: officer {k + 1}"
                parts = groups[k].split()
                d6 = _faces(parts[0] if parts else "", 1, 6, 1, what)[0]
                want = 2 if O.officer_hit(d6) else 1
                if len(parts) != want:
                    raise IllegalActionError(
                        f"{what}: a d6, and a d20 only after an even d6 "
                        f"({want} {'dice' if want > 1 else 'die'}, not {len(parts)})"
                    )
                d20 = _faces(parts[1], 1, 20, 1, what)[0] if want == 2 else None
            if d20 is None:
                checks.append(f"officer {k + 1}: {d6}, not hit")
            elif O.officer_removed(d20):
                removed += 1
                checks.append(f"officer {k + 1}: {d6} hit, {d20}: removed")
            else:
                checks.append(f"officer {k + 1}: {d6} hit, {d20}: wounded, stays")
        out.update(checks=checks, removed=removed, left=n - removed)
        if n - removed <= 0:
            if captain is None and roll is not None:
                captain = roll(1, 10, 0)[0]
            if captain is None:
                out["captain"] = "roll 1d10 for the senior captain (XII.C): even restores one"
            else:
                face = _faces(str(captain), 1, 10, 0, "--captain")[0]
                ok = O.senior_captain(face)
                out["captain"] = (
                    f"{face}: the senior captain takes command"
                    if ok
                    else f"{face}: no officer; the unit stalls (no move or fire)"
                )
    out["odds"] = {f"{k} removed": p for k, p in sorted(O.officers_lost_odds(n).items())}
    show_ruling(out, as_json)


@resolve_app.command("terrain")
def terrain_cmd(
    kind: str = typer.Argument(
        ..., help="woodlot, stumps, uphill, downhill, rail_fence, worm_fence, stone_wall"
    ),
    rules: str = typer.Option("action-reaction", "--rules"),
    left: float = typer.Option(..., help="inches of movement left before the terrain"),
    face: int | None = typer.Option(None, help="the movement die's face (a d10 shows 0-9)"),
    fire_face: int | None = typer.Option(None, help="the stone wall's firing d6"),
    seed: int | None = typer.Option(None, help="dice seed when not given (default fresh)"),
    as_json: bool = typer.Option(False, "--json"),
) -> None:
    """XVI: what the terrain takes off a move (and off fire); if the number exceeds the
    movement left, the regiment may not move for the rest of the turn."""
    from fractions import Fraction

    from umpire.rules.action_reaction import terrain as T

    _rules(rules)
    if kind not in T.kinds():
        raise UnknownNameError(f"unknown terrain '{kind}' (known: {', '.join(T.kinds())})")
    left = _inches(left, "--left")
    out: dict[str, Any] = {"rule": f"003 XVI ({kind.replace('_', ' ')})"}
    die = T.move_die(kind)
    fire_die = kind == "stone_wall"
    if (die is not None and face is None) or (fire_die and fire_face is None):
        seed = dice_seed(seed)
        out["seed"] = seed
    n = 0
    if die is not None:
        sides = die[1]
        low = 0 if sides == 10 else 1
        if face is None:
            face = _roll(1, sides, low, seed or 0)[0]
            n = 1
        else:
            face = _faces(str(face), 1, sides, low, "--face")[0]
        out["movement_die"] = f"{face} (reads as 10)" if sides == 10 and face == 0 else face
    elif face is not None:
        raise IllegalActionError(f"--face: {kind} rolls no movement die")
    going = T.movement(kind, left, face)
    gains = going.left > left
    out.update(
        movement=f'{"gains" if gains else "loses"} {going.deduction}"',
        deduction=(f"+{going.deduction}" if gains else f"-{going.deduction}"),
        left=going.left,
        stalled=going.stalled,
    )
    if fire_die:
        if fire_face is None:
            fire_face = _roll(n + 1, 6, 1, seed or 0)[n]
        else:
            fire_face = _faces(str(fire_face), 1, 6, 1, "--fire-face")[0]
        out["fire_die"] = fire_face
    elif fire_face is not None:
        raise IllegalActionError(f"--fire-face: {kind} rolls no firing die")
    out["fire_deduction"] = T.fire_deduction(kind, fire_face)
    odds: dict[str, Fraction] = {}
    if die is not None:
        faces = range(10) if die[1] == 10 else range(1, die[1] + 1)
        for f in faces:
            g = T.movement(kind, left, f)
            name = "stalled" if g.stalled else f'{g.left:g}" left'
            odds[name] = odds.get(name, Fraction(0)) + Fraction(1, len(faces))
    else:
        odds["stalled" if going.stalled else f'{going.left:g}" left'] = Fraction(1)
    out["odds"] = odds
    show_ruling(out, as_json)
