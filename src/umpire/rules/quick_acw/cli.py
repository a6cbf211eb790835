"""``umpire resolve fire|charge|melee --rules quick-acw``: the seed 002 table assistant.

One fire, charge or melee at a real table: the table row, every modifier with its
source, the result of the dice (typed or rolled) and the exact odds. Mounted by
``umpire.cli.main`` into ``umpire resolve`` through the registry (``umpire.rules.RESOLVERS``).
"""

from __future__ import annotations

from typing import Any

import typer

from umpire.cli.common import dice_seed, show_ruling
from umpire.errors import IllegalActionError, UnknownNameError

resolve_app = typer.Typer(help="Table assistant: resolve one fire, charge or melee with odds.")


def _rules(name: str) -> None:
    if name not in ("quick-acw", "quick_acw"):
        raise UnknownNameError(f"unknown rules '{name}' (known: quick-acw)")


@resolve_app.command("fire")
def resolve_fire(
    rules: str = typer.Option("quick-acw", "--rules"),
    firer: str = typer.Option("foot", help="foot | dismounted_cavalry | artillery"),
    side: str = typer.Option("confederate", help="firing side"),
    range_: float = typer.Option(..., "--range", help="inches"),
    formation: str = typer.Option("line", help="firer formation"),
    marker: bool = typer.Option(False, "--marker", help="firer has a Morale Marker"),
    target: str = typer.Option("foot", help="foot | cavalry | artillery"),
    target_mounted: bool = typer.Option(False, "--target-mounted"),
    target_formation: str = typer.Option("line"),
    cover: bool = typer.Option(False, "--cover"),
    roll: str = typer.Option("", help="the two dice rolled, e.g. 3,5 (else rolled with --seed)"),
    seed: int | None = typer.Option(
        None, help="dice seed when no faces are given (default: a fresh one, printed)"
    ),
    odds_only: bool = typer.Option(False, "--odds"),
    as_json: bool = typer.Option(False, "--json"),
) -> None:
    """Resolve one fire: table row, every modifier and its source, result, exact odds."""
    from umpire.rules.quick_acw import rules as R
    from umpire.rules.quick_acw.odds import fire_odds

    _rules(rules)
    seed = dice_seed(seed)
    if firer not in ("foot", "dismounted_cavalry", "artillery"):
        raise IllegalActionError(f"'{firer}' cannot fire (mounted cavalry can't fire)")
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
        "odds": {"miss": o.miss, "one_stand": o.one, "two_stands": o.two},
    }
    if not odds_only:
        faces = _faces(roll, seed)
        if not roll:
            out["seed"] = seed
        lost = R.fire_stands_lost(sum(faces), needed, total)
        out.update(roll=faces, score=sum(faces) + total, stands_lost=lost, marker=lost > 0)
    show_ruling(out, as_json)


@resolve_app.command("charge")
def resolve_charge(
    rules: str = typer.Option("quick-acw", "--rules"),
    side: str = typer.Option("confederate", help="charging side"),
    leader: int = typer.Option(0, help="attached leader bonus of the charger"),
    marker: bool = typer.Option(False, "--marker"),
    target_side: str = typer.Option("union"),
    target_leader: int = typer.Option(0),
    target_marker: bool = typer.Option(False, "--target-marker"),
    roll: str = typer.Option("", help="charge dice, e.g. 3,4"),
    target_roll: str = typer.Option("", help="stand dice"),
    seed: int | None = typer.Option(
        None, help="dice seed when no faces are given (default: a fresh one, printed)"
    ),
    odds_only: bool = typer.Option(False, "--odds"),
    as_json: bool = typer.Option(False, "--json"),
) -> None:
    """Resolve a charge test and the target's stand test (seed 002 MORALE)."""
    from umpire.rules.quick_acw import rules as R
    from umpire.rules.quick_acw.odds import morale_odds

    _rules(rules)
    seed = dice_seed(seed)
    n_a, ma = R.morale_test(side, leader or None, marker)
    n_d, md = R.morale_test(target_side, target_leader or None, target_marker)
    sa, sd = sum(m.value for m in ma), sum(m.value for m in md)
    out: dict[str, Any] = {
        "table": "002 MORALE",
        "charge_number": n_a,
        "charge_modifiers": [m._asdict() for m in ma],
        "stand_number": n_d,
        "stand_modifiers": [m._asdict() for m in md],
        "odds": {"charge_passes": morale_odds(n_a, sa), "target_stands": morale_odds(n_d, sd)},
    }
    if not odds_only:
        fa = _faces(roll, seed)
        if not roll or not target_roll:
            out["seed"] = seed
        ok = sum(fa) + sa >= n_a
        out.update(charge_roll=fa, charge_passes=ok)
        if ok:
            fd = _faces(target_roll, seed + 1)
            out.update(stand_roll=fd, target_stands=sum(fd) + sd >= n_d)
        else:
            out["result"] = "charger moves half the distance and takes a MM"
    show_ruling(out, as_json)


@resolve_app.command("melee")
def resolve_melee(
    rules: str = typer.Option("quick-acw", "--rules"),
    a: str = typer.Option("confederate,foot,line,4", help="attacker: side,type,formation,stands"),
    b: str = typer.Option("union,foot,line,4", help="defender: side,type,formation,stands"),
    a_mounted: bool = typer.Option(False),
    a_leader: int = typer.Option(0),
    a_uphill: bool = typer.Option(False),
    a_marker: bool = typer.Option(False),
    a_flank: bool = typer.Option(False, help="started behind flank or rear"),
    b_mounted: bool = typer.Option(False),
    b_leader: int = typer.Option(0),
    b_uphill: bool = typer.Option(False),
    b_marker: bool = typer.Option(False),
    b_obstacle: bool = typer.Option(False, help="defending a wall or stream"),
    roll: str = typer.Option(""),
    b_roll: str = typer.Option(""),
    seed: int | None = typer.Option(
        None, help="dice seed when no faces are given (default: a fresh one, printed)"
    ),
    odds_only: bool = typer.Option(False, "--odds"),
    as_json: bool = typer.Option(False, "--json"),
) -> None:
    """Resolve a melee: both scores with every modifier, the difference row, exact odds."""
    from umpire.rules.quick_acw import rules as R
    from umpire.rules.quick_acw.odds import melee_odds

    _rules(rules)
    seed = dice_seed(seed)
    try:
        sa_, ta, fa_, na = a.split(",")
        sb_, tb, fb_, nb = b.split(",")
        fa = R.MeleeFacts(
            sa_,
            ta,
            a_mounted,
            fa_,
            int(na),
            True,
            False,
            a_uphill,
            a_marker,
            a_leader or None,
            a_flank,
        )
        fb = R.MeleeFacts(
            sb_,
            tb,
            b_mounted,
            fb_,
            int(nb),
            False,
            b_obstacle,
            b_uphill,
            b_marker,
            b_leader or None,
            False,
        )
    except ValueError:
        raise IllegalActionError("--a/--b are side,type,formation,stands") from None
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
    if not odds_only:
        ra, rb = _faces(roll, seed), _faces(b_roll, seed + 1)
        if not roll or not b_roll:
            out["seed"] = seed
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
    show_ruling(out, as_json)


def _faces(text: str, seed: int) -> list[int]:
    if text:
        try:
            faces = [int(x) for x in text.split(",")]
        except ValueError:
            raise IllegalActionError(f"dice '{text}' must be like 3,5") from None
        if len(faces) != 2 or not all(1 <= f <= 6 for f in faces):
            raise IllegalActionError(f"dice '{text}' must be two faces 1-6")
        return faces
    from umpire.dice import SeededSource

    return SeededSource(seed).dice(2, 6, "resolve")
