"""``umpire resolve fire|charge|melee --rules quick-acw``: the seed 002 table assistant.

One fire, charge or melee at a real table: the table row, every modifier with its
source, the result of the dice (typed or rolled) and the exact odds. Mounted by
``umpire.cli.main`` into ``umpire resolve`` through the registry (``umpire.rules.RESOLVERS``).
"""

from __future__ import annotations

from typing import Any

import typer

from umpire.errors import IllegalActionError, UnknownNameError
from umpire.rules.ruling import dice_seed, show_ruling, typed_faces

resolve_app = typer.Typer(help="Table assistant: resolve one fire, charge or melee with odds.")


def _rules(name: str) -> None:
    if name not in ("quick-acw", "quick_acw"):
        raise UnknownNameError(f"unknown rules '{name}' (known: quick-acw)")


# -- every option checked against seed 002's own vocabulary (data/rules.toml) ------------


def _one_of(value: str, allowed: Any, option: str, what: str) -> str:
    """``value`` as the module names it (case aside), or a one-line refusal listing them."""
    known = list(allowed)
    found = value.strip().lower()
    if found not in known:
        raise UnknownNameError(f"{option}: unknown {what} '{value}' (seed 002: {', '.join(known)})")
    return found


def _side(value: str, option: str) -> str:
    """A side of seed 002 (``[sides]`` in data/rules.toml), matched without regard to case."""
    from umpire.rules.quick_acw import rules as R

    return _one_of(value, R.rules().sides, option, "side")


def _leader(value: int, option: str) -> int:
    """An attached leader's bonus: 0 (none) up to the best the seed gives (LEADERS: +1 Union,
    +2 Confederate, +3 Longstreet)."""
    from umpire.rules.quick_acw import rules as R

    r = R.rules()
    top = max([s.leader_bonus for s in r.sides.values()] + [b for b, _ in r.named_leaders.values()])
    if not 0 <= value <= top:
        raise IllegalActionError(
            f"{option}: a leader bonus is 0 (none) to +{top} in seed 002 LEADERS, not {value}"
        )
    return value


def _max_stands() -> int:
    """The most stands a unit may have: a scenario's limit (umpire.scenarios ``UnitSpec``)."""
    from umpire.scenarios import UnitSpec

    for m in UnitSpec.model_fields["stands"].metadata:
        top = getattr(m, "le", None)
        if isinstance(top, int):
            return top
    return 30


def _stands(text: str, option: str) -> int:
    """A count of stands fighting: a whole number from 1 to a scenario unit's most."""
    top = _max_stands()
    t = text.strip()
    if not (t.isascii() and t.isdigit() and len(t) <= 6 and 1 <= int(t) <= top):
        raise IllegalActionError(f"{option}: stands are a whole number 1 to {top}, not '{t}'")
    return int(t)


def _faces(text: str, seed: int, option: str) -> list[int]:
    """Two d6 faces typed (``3,5`` or ``3 5``, as at every dice prompt) or rolled on ``seed``."""
    if text:
        return typed_faces(text, 2, 6, option)
    from umpire.dice import SeededSource

    return SeededSource(seed).dice(2, 6, "resolve")


def _needs(n: int, mod: int) -> str:
    """``8+ on 2d6 (+2: 6+ on the dice)``: the number to roll, said before the dice."""
    if mod:
        return f"{n}+ on 2d6 {mod:+d}, so {n - mod}+ on the dice"
    return f"{n}+ on 2d6"


@resolve_app.command("fire")
def resolve_fire(
    rules: str = typer.Option("quick-acw", "--rules"),
    firer: str = typer.Option("foot", help="foot | dismounted_cavalry | artillery"),
    side: str = typer.Option("confederate", help="firing side: confederate | union"),
    range_: float = typer.Option(..., "--range", help="inches, 0 or more"),
    formation: str = typer.Option("line", help="firer formation: line | column"),
    marker: bool = typer.Option(False, "--marker", help="firer has a Morale Marker"),
    target: str = typer.Option("foot", help="foot | cavalry | artillery"),
    target_mounted: bool = typer.Option(False, "--target-mounted", help="cavalry target only"),
    target_formation: str = typer.Option("line", help="line | column"),
    cover: bool = typer.Option(False, "--cover"),
    roll: str = typer.Option("", help='the two dice rolled, "3 5" or 3,5 (else rolled)'),
    seed: int | None = typer.Option(
        None, help="dice seed when no faces are given (default: a fresh one, printed)"
    ),
    odds_only: bool = typer.Option(
        False, "--odds", help="only the odds, unless --roll gives the faces (then both)"
    ),
    as_json: bool = typer.Option(False, "--json"),
) -> None:
    """Resolve one fire: table row, every modifier and its source, result, exact odds."""
    import math

    from umpire.rules.quick_acw import rules as R
    from umpire.rules.quick_acw.odds import fire_odds

    _rules(rules)
    r = R.rules()
    firer = _one_of(firer, r.fire_table, "--firer", "firing troops")
    side = _side(side, "--side")
    formation = _one_of(formation, R.FORMATIONS, "--formation", "formation")
    target = _one_of(target, R.TYPES, "--target", "target type")
    target_formation = _one_of(target_formation, R.FORMATIONS, "--target-formation", "formation")
    if target_mounted and target != "cavalry":
        raise IllegalActionError(f"--target-mounted: only cavalry rides, not {target}")
    if not math.isfinite(range_) or range_ < 0:
        raise IllegalActionError(f'--range: inches, 0 or more, not {range_:g}"')
    needed = R.fire_needed(firer, range_)
    if needed is None:
        raise IllegalActionError(f'{firer} cannot fire at {range_:g}" (no fire)')
    facts = R.FireFacts(
        side, firer, formation, marker, target, target_mounted, target_formation, cover
    )
    mods = R.fire_modifiers(facts)
    total = sum(m.value for m in mods)
    o = fire_odds(needed, total)
    out: dict[str, Any] = {
        "table": "002 FIRE",
        "row": firer,
        "band": R.range_band(range_),
        "needed": needed,
        "modifiers": [m._asdict() for m in mods],
        "total_modifier": total,
        "needs": _needs(needed, total),
        "odds": {"miss": o.miss, "one_stand": o.one, "two_stands": o.two},
    }
    if roll or not odds_only:
        if not roll:
            seed = dice_seed(seed)
            out["seed"] = seed
        faces = _faces(roll, seed or 0, "--roll")
        lost = R.fire_stands_lost(sum(faces), needed, total)
        out.update(roll=faces, score=sum(faces) + total, stands_lost=lost, marker=lost > 0)
        out["result"] = (
            f"the {target} target loses {lost} stand{'s' if lost > 1 else ''} and takes a MM"
            if lost
            else "a miss"
        )
    show_ruling(out, as_json)


@resolve_app.command("charge")
def resolve_charge(
    rules: str = typer.Option("quick-acw", "--rules"),
    side: str = typer.Option("confederate", help="charging side: confederate | union"),
    leader: int = typer.Option(0, help="attached leader bonus of the charger (0: none)"),
    marker: bool = typer.Option(False, "--marker"),
    target_side: str = typer.Option("", help="the charged side (default: the other side)"),
    target_leader: int = typer.Option(0, help="attached leader bonus of the target"),
    target_marker: bool = typer.Option(False, "--target-marker"),
    roll: str = typer.Option("", help='charge dice, "3 4" or 3,4'),
    target_roll: str = typer.Option("", help="stand dice"),
    seed: int | None = typer.Option(
        None, help="dice seed when no faces are given (default: a fresh one, printed)"
    ),
    odds_only: bool = typer.Option(
        False, "--odds", help="only the odds, unless faces are typed (then both)"
    ),
    as_json: bool = typer.Option(False, "--json"),
) -> None:
    """Resolve a charge test and the target's stand test (seed 002 MORALE)."""
    from umpire.rules.quick_acw import rules as R
    from umpire.rules.quick_acw.odds import morale_odds

    _rules(rules)
    side = _side(side, "--side")
    if target_side:
        target_side = _side(target_side, "--target-side")
    else:
        target_side = next(s for s in R.rules().sides if s != side)
    if side == target_side:
        raise IllegalActionError(
            f"--target-side: a {side} unit charges the enemy, not its own side"
        )
    leader = _leader(leader, "--leader")
    target_leader = _leader(target_leader, "--target-leader")
    if target_roll and not roll and odds_only:
        raise IllegalActionError("--target-roll: the stand test follows a charge test (--roll)")
    n_a, ma = R.morale_test(side, leader or None, marker)
    n_d, md = R.morale_test(target_side, target_leader or None, target_marker)
    sa, sd = sum(m.value for m in ma), sum(m.value for m in md)
    out: dict[str, Any] = {
        "table": "002 MORALE",
        "charge_number": n_a,
        "charge_modifiers": [m._asdict() for m in ma],
        "charge_needs": _needs(n_a, sa),
        "stand_number": n_d,
        "stand_modifiers": [m._asdict() for m in md],
        "stand_needs": _needs(n_d, sd),
        "odds": {"charge_passes": morale_odds(n_a, sa), "target_stands": morale_odds(n_d, sd)},
    }
    if roll or not odds_only:
        if not roll:
            seed = dice_seed(seed)
            out["seed"] = seed
        fa = _faces(roll, seed or 0, "--roll")
        ok = sum(fa) + sa >= n_a
        out.update(charge_roll=fa, charge_passes=ok)
        if ok and (target_roll or not odds_only):
            if not target_roll and "seed" not in out:
                seed = dice_seed(seed)
                out["seed"] = seed
            fd = _faces(target_roll, (seed or 0) + 1, "--target-roll")
            stands = sum(fd) + sd >= n_d
            out.update(stand_roll=fd, target_stands=stands)
            out["result"] = (
                "the target stands to receive the charge"
                if stands
                else 'the target retreats 2D6" (3D6" mounted cavalry) directly away, then '
                "takes a MM"
            )
        elif ok:
            out["result"] = f"the charge goes in; the target tests to stand: {_needs(n_d, sd)}"
        else:
            out["result"] = "charger moves half the distance and takes a MM" + (
                " (the charge failed: the target's --target-roll is not used)"
                if target_roll
                else ""
            )
    show_ruling(out, as_json)


def _melee_side(text: str, option: str) -> tuple[str, str, str, int]:
    """``side,type,formation,stands`` of one side of a melee, each checked."""
    from umpire.rules.quick_acw import rules as R

    parts = [p.strip() for p in text.split(",")]
    if len(parts) != 4:
        raise IllegalActionError(
            f"{option}: side,type,formation,stands, e.g. union,foot,line,4, not '{text}'"
        )
    side = _side(parts[0], option)
    kind = _one_of(parts[1], R.TYPES, option, "unit type")
    formation = _one_of(parts[2], R.FORMATIONS, option, "formation")
    return side, kind, formation, _stands(parts[3], option)


def _melee_words(row: Any, side: str, kind: str, mounted: bool, won: bool) -> str:
    """One side's melee result in words: seed 002 MELEE 'Win / Lose' and the '#' note."""
    lost = row.win_loss if won else row.lose_loss
    back = row.win_retreat if won else row.lose_retreat
    text = f"loses {lost} stand{'s' if lost != 1 else ''}" if lost else "loses no stand"
    if back:
        dice = "3D6" if kind == "cavalry" and mounted else "2D6"
        text += f', retreats {dice}" directly away from the enemy, then takes a MM'
    return text


@resolve_app.command("melee")
def resolve_melee(
    rules: str = typer.Option("quick-acw", "--rules"),
    a: str = typer.Option("confederate,foot,line,4", help="attacker: side,type,formation,stands"),
    b: str = typer.Option("union,foot,line,4", help="defender: side,type,formation,stands"),
    a_mounted: bool = typer.Option(False),
    a_leader: int = typer.Option(0, help="the attacker's attached leader bonus (0: none)"),
    a_uphill: bool = typer.Option(False),
    a_marker: bool = typer.Option(False),
    a_flank: bool = typer.Option(False, help="started behind flank or rear"),
    b_mounted: bool = typer.Option(False),
    b_leader: int = typer.Option(0, help="the defender's attached leader bonus (0: none)"),
    b_uphill: bool = typer.Option(False),
    b_marker: bool = typer.Option(False),
    b_obstacle: bool = typer.Option(False, help="defending a wall or stream"),
    roll: str = typer.Option("", help='the attacker\'s dice, "3 4" or 3,4'),
    b_roll: str = typer.Option("", help="the defender's dice"),
    seed: int | None = typer.Option(
        None, help="dice seed when no faces are given (default: a fresh one, printed)"
    ),
    odds_only: bool = typer.Option(
        False, "--odds", help="only the odds, unless faces are typed (then both)"
    ),
    as_json: bool = typer.Option(False, "--json"),
) -> None:
    """Resolve a melee: both scores with every modifier, the difference row, exact odds."""
    from umpire.rules.quick_acw import rules as R
    from umpire.rules.quick_acw.odds import melee_odds

    _rules(rules)
    sa_, ta, fa_, na = _melee_side(a, "--a")
    sb_, tb, fb_, nb = _melee_side(b, "--b")
    if sa_ == sb_:
        raise IllegalActionError(f"--b: a melee is fought with the enemy, not two {sa_} units")
    for mounted, kind, opt in ((a_mounted, ta, "--a-mounted"), (b_mounted, tb, "--b-mounted")):
        if mounted and kind != "cavalry":
            raise IllegalActionError(f"{opt}: only cavalry rides, not {kind}")
    fa = R.MeleeFacts(
        sa_, ta, a_mounted, fa_, na, True, False, a_uphill, a_marker,
        _leader(a_leader, "--a-leader") or None, a_flank,
    )  # fmt: skip
    fb = R.MeleeFacts(
        sb_, tb, b_mounted, fb_, nb, False, b_obstacle, b_uphill, b_marker,
        _leader(b_leader, "--b-leader") or None, False,
    )  # fmt: skip
    ma, mb = R.melee_modifiers(fa), R.melee_modifiers(fb)
    ta_, tb_ = sum(m.value for m in ma), sum(m.value for m in mb)
    o = melee_odds(ta_, tb_)
    out: dict[str, Any] = {
        "table": "002 MELEE",
        "a_modifiers": [m._asdict() for m in ma],
        "b_modifiers": [m._asdict() for m in mb],
        "odds": {
            "a_wins": o.a_wins,
            "tie": o.tie,
            "b_wins": o.b_wins,
            "a_retreats": o.a_retreats,
            "b_retreats": o.b_retreats,
        },
    }
    text: dict[str, Any] = {}
    if roll or b_roll or not odds_only:
        if not roll or not b_roll:
            seed = dice_seed(seed)
            out["seed"] = seed
        ra = _faces(roll, seed or 0, "--roll")
        rb = _faces(b_roll, (seed or 0) + 1, "--b-roll")
        sa, sb = sum(ra) + ta_, sum(rb) + tb_
        row = R.melee_row(sa - sb)
        win, lose = ("a", "b") if sa >= sb else ("b", "a")
        out.update(
            a_roll=ra,
            b_roll=rb,
            a_score=sa,
            b_score=sb,
            difference=abs(sa - sb),
            row=f"{row.low}-{row.high}",
            result={
                win: f"{row.win_loss}{'#' if row.win_retreat else ''}",
                lose: f"{row.lose_loss}{'#' if row.lose_retreat else ''}",
            },
        )
        who = {"a": (sa_, ta, a_mounted, "attacker"), "b": (sb_, tb, b_mounted, "defender")}
        lines = []
        for k in (win, lose):
            sd, kind, mounted, role = who[k]
            head = "ties" if sa == sb else "wins" if k == win else "loses"
            lines.append(
                f"{role} ({k}, {sd} {kind}) {head}: "
                + _melee_words(row, sd, kind, mounted, k == win)
            )
        text["result"] = lines
    show_ruling(out if as_json else {**out, **text}, as_json)
