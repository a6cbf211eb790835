"""``umpire resolve ... --rules action-reaction``: seed 003 rulings for a real table.

Hand-to-hand, first and consecutive fire, shell and case bursts, solid shot and the
reaction to a charge: the faces typed (real dice) or rolled on a seed (a fresh one,
printed, unless given), the ruling with its trace, and the exact odds. Heavy modules are
imported inside the commands so ``umpire roll`` stays fast.
"""

from __future__ import annotations

from typing import Any

import typer

from umpire.cli.common import dice_seed, show_ruling
from umpire.errors import IllegalActionError, UnknownNameError

resolve_app = typer.Typer(help="Seed 003 (Action/Reaction) rulings with exact odds.")

RULES = ("action-reaction", "action_reaction")


def _rules(name: str) -> None:
    if name not in RULES:
        raise UnknownNameError(f"unknown rules '{name}' for this ruling (known: action-reaction)")


def _faces(text: str, n: int | None, sides: int, low: int, what: str) -> list[int]:
    """Faces typed at the table ("6 5 4" or "6,5,4"), checked."""
    parts = text.replace(",", " ").split()
    try:
        faces = [int(p) for p in parts]
    except ValueError:
        raise IllegalActionError(f"{what}: faces must be whole numbers, not '{text}'") from None
    if n is not None and len(faces) != n:
        raise IllegalActionError(f"{what}: {n} dice, not {len(faces)}")
    bad = [f for f in faces if not low <= f <= low + sides - 1]
    if bad or not faces:
        raise IllegalActionError(
            f"{what}: each die shows {low} to {low + sides - 1}"
            + (f", not {bad[0]}" if bad else "")
        )
    return faces


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
    a = _faces(attacker, None, 6, 1, "--attacker") if attacker else []
    d = _faces(defender, None, 6, 1, "--defender") if defender else []
    n = len(a) or attacker_pieces
    m = len(d) or defender_pieces
    if column and not defender:
        n, m = column_dice(m or 3)
    if n < 1 or m < 1:
        raise IllegalActionError("give the faces (--attacker, --defender) or the pieces a side")
    if n > h2h.MAX_DICE or m > h2h.MAX_DICE:
        raise IllegalActionError(f"hand-to-hand takes at most {h2h.MAX_DICE} dice a side")
    out: dict[str, Any] = {"rule": "003 XIV.B (column)" if column else "003 XIV.A (line)"}
    out["dice"] = {"attacker": n, "defender": m}
    if not odds_only:
        if not a or not d:
            seed = dice_seed(seed)
            out["seed"] = seed
            a = a or _roll(n, 6, 1, seed)
            d = d or _roll(m, 6, 1, seed + 1)
        s = strike(a, d)
        out.update(
            attacker=sorted(a, reverse=True),
            defender=sorted(d, reverse=True),
            attacker_hits=s.attacker_hits,
            defender_hits=s.defender_hits,
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
    seed: int | None = typer.Option(None, help="dice seed when not given (default fresh)"),
    odds_only: bool = typer.Option(False, "--odds"),
    as_json: bool = typer.Option(False, "--json"),
) -> None:
    """XI.B / XI.C: five d10 as a poker hand: hit, burst, misfire or dud, long or short."""
    from umpire.rules.action_reaction import artillery as A

    _rules(rules)
    out: dict[str, Any] = {"rule": "003 XI.C (consecutive fire)" if consecutive else "003 XI.B"}
    if not odds_only:
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
    roll: str = typer.Option("", help="the d10 faces (0-9)"),
    seed: int | None = typer.Option(None, help="dice seed when not given (default fresh)"),
    odds_only: bool = typer.Option(False, "--odds"),
    as_json: bool = typer.Option(False, "--json"),
) -> None:
    """XI.A.2-3: remove the 0s and every die showing the highest; the rest are hits."""
    from umpire.rules.action_reaction import artillery as A

    _rules(rules)
    if ammunition not in ("shell", "case"):
        raise UnknownNameError(f"unknown ammunition '{ammunition}' (bursts: shell, case)")
    n = A.data()["burst"][f"{ammunition}_dice"]
    out: dict[str, Any] = {"rule": "003 XI.A.2" if ammunition == "shell" else "003 XI.A.3"}
    if not odds_only:
        if roll:
            faces = _faces(roll, n, 10, 0, "--roll")
        else:
            seed = dice_seed(seed)
            out["seed"] = seed
            faces = _roll(n, 10, 0, seed)
        out.update(roll=faces, hits=A.burst_hits(faces))
    out["odds"] = {f"{k} hits": v for k, v in sorted(A.burst_odds(ammunition).items())}
    show_ruling(out, as_json)


@resolve_app.command("reaction")
def reaction_cmd(
    rules: str = typer.Option("action-reaction", "--rules"),
    roll: int | None = typer.Option(None, help="the defender's d10 (0-9; a 0 reads as 10)"),
    column: bool = typer.Option(False, "--column", help="a column under infantry fire: 1d6"),
    seed: int | None = typer.Option(None, help="dice seed when not given (default fresh)"),
    as_json: bool = typer.Option(False, "--json"),
) -> None:
    """XIII.B.1 (the d10 list) or XV.2.(3) (a column's d6 list): what the defender does."""
    from fractions import Fraction

    from umpire.rules.action_reaction import melee as M

    _rules(rules)
    sides, low = (6, 1) if column else (10, 0)
    out: dict[str, Any] = {"rule": "003 XV.2.(3)" if column else "003 XIII.B.1"}
    if roll is None:
        seed = dice_seed(seed)
        out["seed"] = seed
        face = _roll(1, sides, low, seed)[0]
    else:
        face = _faces(str(roll), 1, sides, low, "--roll")[0]
    kind, inches = (M.column_reaction if column else M.reaction)(face)
    out.update(roll=face, reaction=kind, inches=inches)
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
    roll: str = typer.Option("", help="the nine d10 faces (0-9)"),
    seed: int | None = typer.Option(None, help="dice seed when not given (default fresh)"),
    odds_only: bool = typer.Option(False, "--odds"),
    as_json: bool = typer.Option(False, "--json"),
) -> None:
    """XI.A.4: 9 d10 on the rifle stick; each at or under its number less deductions hits."""
    from umpire.rules.action_reaction import artillery as A

    _rules(rules)
    value = A.stick_value(range_)
    if value is None:
        reach = len(A.data()["stick"]["rifle"]) * A.data()["stick"]["rifle_section"]
        raise IllegalActionError(f'canister reaches {reach:g}" (the rifle stick), not {range_:g}"')
    n = A.data()["stick"]["canister_dice"]
    out: dict[str, Any] = {
        "rule": "003 XI.A.4 (rifle stick, default rifle_stick)",
        "stick": value,
        "needed": f"{value - deductions} or less on a d10 (0-9)",
    }
    if not odds_only:
        if roll:
            faces = _faces(roll, n, 10, 0, "--roll")
        else:
            seed = dice_seed(seed)
            out["seed"] = seed
            faces = _roll(n, 10, 0, seed)
        out.update(roll=faces, hits=A.stick_hits(faces, value, deductions))
    out["odds"] = {f"{k} hits": p for k, p in A.stick_odds(n, value, deductions).items()}
    show_ruling(out, as_json)


@resolve_app.command("solid-shot")
def solid_shot_cmd(
    rules: str = typer.Option("action-reaction", "--rules"),
    roll: str = typer.Option("", help='the bounce d10, then the hit d10s, e.g. "4 2 7"'),
    seed: int | None = typer.Option(None, help="dice seed when not given (default fresh)"),
    as_json: bool = typer.Option(False, "--json"),
) -> None:
    """XI.A.1: an even d10 bounces 2" and rolls 2 hit dice, else 1; even hit dice hit."""
    from umpire.rules.action_reaction import artillery as A

    _rules(rules)
    out: dict[str, Any] = {"rule": "003 XI.A.1"}
    if roll:
        faces = _faces(roll, None, 10, 0, "--roll")
    else:
        seed = dice_seed(seed)
        out["seed"] = seed
        first = _roll(1, 10, 0, seed)
        faces = first + _roll(2 if first[0] % 2 == 0 else 1, 10, 0, seed + 1)
    try:
        bounced, hits = A.solid_shot_hits(faces[0], faces[1:])
    except ValueError as exc:
        raise IllegalActionError(f"--roll: {exc}") from None
    out.update(roll=faces, bounced=bounced, hits=hits)
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
