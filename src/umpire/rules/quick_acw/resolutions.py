"""Seed 002's resolutions for ``umpire odds``: fire, charge, stand, melee and leader loss.

Each is a pure function from checked parameters to exact odds (``umpire.rules.odds``),
built on the math of :mod:`umpire.rules.quick_acw.odds` and the rules functions of
:mod:`umpire.rules.quick_acw.rules`, with the modifiers and table rows as the "why".
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from fractions import Fraction
from functools import cache
from typing import Any

from umpire.errors import IllegalActionError
from umpire.rules.odds import Odds, Outcome, Param, Resolution, Why, joint, outcomes
from umpire.rules.quick_acw import rules as R
from umpire.rules.quick_acw.odds import dist, fire_odds, morale_odds, p_at_least
from umpire.sides import SIDES

MODULE = "quick-acw"
FIRERS = ("foot", "dismounted_cavalry", "artillery")


@cache
def _raw() -> dict[str, Any]:
    """The raw ``data/rules.toml`` (for the dice names the Rules record does not keep)."""
    out: dict[str, Any] = tomllib.loads((R.DATA / "rules.toml").read_text(encoding="utf-8"))
    return out


def _mods(mods: list[R.Mod], who: str = "") -> list[Why]:
    head = f"{who}: " if who else ""
    return [Why("modifier", f"{head}{m.value:+d} {m.text}", m.source) for m in mods]


def _fire(v: Mapping[str, Any]) -> Odds:
    """002 FIRE: 2d6 + modifiers against the table's number; 8 over costs two stands."""
    r = R.rules()
    firer, distance = str(v["firer"]), float(v["range"])
    needed = R.fire_needed(firer, distance, r)
    if needed is None:
        raise IllegalActionError(f'{firer} cannot fire at {distance:g}" (002 FIRE: no fire)')
    band = R.range_band(distance, r)
    assert band is not None
    low = 0.0 if band == 0 else r.fire_bands[band - 1]
    facts = R.FireFacts(
        str(v["side"]),
        firer,
        str(v["formation"]),
        bool(v["marker"]),
        str(v["target"]),
        bool(v["target_mounted"]),
        str(v["target_formation"]),
        bool(v["cover"]),
    )
    mods = R.fire_modifiers(facts, r)
    total = sum(m.value for m in mods)
    o = fire_odds(needed, total, r)
    two = needed + r.two_stand_margin
    why = [
        Why("dice", f"{_raw()['fire']['dice']} rolled by the firer", "002 FIRE"),
        Why(
            "row",
            f'FIRE table row {firer}, range {low:g}-{r.fire_bands[band]:g}": {needed}+ to hit',
            "002 FIRE (reading range_bands_upper_bounds)",
        ),
        *_mods(mods),
        Why(
            "rule",
            f"a score of {needed}+ costs the target one stand, {two}+ two stands "
            f"(2d6 {total:+d}: {needed - total}+ and {two - total}+ on the dice)",
            "002 FIRE",
        ),
    ]
    outs = outcomes([("no hit", o.miss), ("1 stand lost", o.one), ("2 stands lost", o.two)])
    return Odds(f'002 fire: {firer} at {distance:g}"', outs, tuple(why))


def _stand_paths(p: Fraction, cavalry: bool) -> list[tuple[tuple[str, ...], Fraction]]:
    """The stand test's joint outcomes: stands, or runs the retreat dice's inches."""
    expr = _raw()["morale"]["retreat_dice_cavalry" if cavalry else "retreat_dice"]
    out: list[tuple[tuple[str, ...], Fraction]] = [(("stands",), p)]
    for inches, q in dist(str(expr)):
        out.append((("runs", f'retreats {inches}" and takes a MM'), (1 - p) * q))
    return out


def _test(v: Mapping[str, Any], pre: str = "") -> tuple[int, list[R.Mod], int]:
    number, mods = R.morale_test(
        str(v[f"{pre}side"]), int(v[f"{pre}leader"]) or None, bool(v[f"{pre}marker"])
    )
    return number, mods, sum(m.value for m in mods)


def _charge(v: Mapping[str, Any]) -> Odds:
    """002 MORALE and the charge paragraph: the charge test, then the target's stand test."""
    n_a, ma, sa = _test(v)
    n_d, md, sd = _test(v, "target_")
    go, stand = morale_odds(n_a, sa), morale_odds(n_d, sd)
    dice = _raw()["morale"]["dice"]
    why = [
        Why("dice", f"{dice} for the charge test, then {dice} for the target's stand", "002"),
        Why("row", f"{v['side']} charge number {n_a}+", "002 MORALE (USA/CSA 8+/7+)"),
        *_mods(ma, "charger"),
        Why("row", f"{v['target_side']} stands on {n_d}+", "002 MORALE"),
        *_mods(md, "target"),
        Why(
            "rule",
            "a failed charge moves 1/2 the distance and takes a MM; a target that fails to "
            'stand retreats 2D6" (3D6" mounted cavalry) and takes a MM',
            "002 MORALE (charge paragraph)",
        ),
    ]
    paths: list[tuple[tuple[str, ...], Fraction]] = [
        (("charge fails", "moves 1/2 the distance, takes a MM"), 1 - go),
        (("charge goes in", "target stands: melee"), go * stand),
        (("charge goes in", "target runs: retreats, takes a MM"), go * (1 - stand)),
    ]
    return Odds("002 charge: the charge test and the stand", joint(paths), tuple(why))


def _stand(v: Mapping[str, Any]) -> Odds:
    """002 MORALE "Receive Charge": stand, or run 2D6" (3D6" mounted cavalry) and take a MM."""
    n, mods, s = _test(v)
    cav = bool(v["mounted_cavalry"])
    retreat = _raw()["morale"]["retreat_dice_cavalry" if cav else "retreat_dice"]
    why = [
        Why("dice", f"{_raw()['morale']['dice']} for the stand test", "002 MORALE"),
        Why("row", f"{v['side']} stands on {n}+", "002 MORALE (USA/CSA 8+/7+)"),
        *_mods(mods),
        Why("dice", f"{retreat} inches of retreat when it runs", "002 charge paragraph"),
    ]
    out = joint(_stand_paths(morale_odds(n, s), cav))
    return Odds("002 stand: receiving a charge", out, tuple(why))


def _melee_facts(v: Mapping[str, Any], pre: str, attacking: bool) -> R.MeleeFacts:
    return R.MeleeFacts(
        str(v[f"{pre}side"]),
        str(v[f"{pre}type"]),
        bool(v[f"{pre}mounted"]),
        str(v[f"{pre}formation"]),
        int(v[f"{pre}stands"]),
        attacking,
        bool(v.get(f"{pre}obstacle", False)),
        bool(v[f"{pre}uphill"]),
        bool(v[f"{pre}marker"]),
        int(v[f"{pre}leader"]) or None,
        bool(v.get(f"{pre}flank", False)),
    )


def _loss(who: str, n: int, retreat: bool) -> str:
    lost = f"{who} loses {n} stand{'s' if n != 1 else ''}" if n else f"{who} loses none"
    return lost + (" and retreats" if retreat else "")


def _melee(v: Mapping[str, Any]) -> Odds:
    """002 MELEE: both roll 2d6 plus modifiers; the difference table gives the losses."""
    r = R.rules()
    ma = R.melee_modifiers(_melee_facts(v, "a_", True), r)
    mb = R.melee_modifiers(_melee_facts(v, "b_", False), r)
    ta, tb = sum(m.value for m in ma), sum(m.value for m in mb)
    d = dist(str(_raw()["melee"]["dice"]))
    paths: list[tuple[tuple[str, ...], Fraction]] = []
    for row in r.melee_rows:  # in table order, attacker wins first
        for winner in ("attacker", "defender", "tie"):
            p = Fraction(0)
            for x, px in d:
                for y, py in d:
                    diff = x + ta - (y + tb)
                    side = "attacker" if diff > 0 else "defender" if diff < 0 else "tie"
                    if side == winner and row.low <= abs(diff) <= row.high:
                        p += px * py
            if not p:
                continue
            if row.high >= 99:
                band = f"difference {row.low}+"
            elif row.high == row.low:
                band = f"difference {row.low}"
            else:
                band = f"difference {row.low}-{row.high}"
            if winner == "tie":
                res = (
                    f"{_loss('attacker', row.win_loss, row.win_retreat)}; "
                    f"{_loss('defender', row.lose_loss, row.lose_retreat)}"
                )
                paths.append((("tie", band, res), p))
                continue
            loser = "defender" if winner == "attacker" else "attacker"
            res = (
                f"{_loss(winner, row.win_loss, row.win_retreat)}; "
                f"{_loss(loser, row.lose_loss, row.lose_retreat)}"
            )
            paths.append(((f"{winner} wins", band, res), p))
    order = {"attacker wins": 0, "tie": 1, "defender wins": 2}
    paths.sort(key=lambda kv: order[kv[0][0]])
    why = [
        Why("dice", f"{_raw()['melee']['dice']} a side", "002 MELEE"),
        *_mods(ma, "attacker"),
        *_mods(mb, "defender"),
        Why(
            "rule",
            f"scores 2d6 {ta:+d} against 2d6 {tb:+d}; the difference picks the row of the "
            'MELEE table ("#": retreat 2D6", 3D6" cavalry, then a MM)',
            "002 MELEE",
        ),
    ]
    return Odds("002 melee", joint(paths), tuple(why))


def _leader_loss(v: Mapping[str, Any]) -> Odds:
    """002 "If any leader is attached to a unit that loses a stand, roll one die: 5-6"."""
    r = R.rules()
    dice = str(_raw()["leaders"]["loss_dice"])
    lost = p_at_least(dice, r.leader_loss_on)
    why = [
        Why("dice", f"{dice} when the leader's unit loses a stand", "002 LEADERS"),
        Why("row", f"{r.leader_loss_on}+: the leader is killed or captured", "002"),
        Why(
            "rule",
            "a lost leader is not replaced; all his units move 1/2 rate for the rest of the battle",
            "002 LEADERS",
        ),
    ]
    outs = (
        Outcome("killed or captured", lost),
        Outcome("unhurt", 1 - lost),
    )
    return Odds("002 leader loss", outs, tuple(why))


def _side(name: str, default: str, what: str) -> Param:
    return Param(name, "str", default, what, SIDES)


def _morale_params(pre: str, side: str, what: str) -> tuple[Param, ...]:
    return (
        _side(f"{pre}side", side, f"{what}'s side"),
        Param(f"{pre}leader", "int", 0, f"{what}'s attached leader bonus (0: none)", lo=0, hi=3),
        Param(f"{pre}marker", "bool", False, f"{what} has a Morale Marker"),
    )


def _melee_params(pre: str, who: str, side: str) -> tuple[Param, ...]:
    out = (
        _side(f"{pre}side", side, f"the {who}'s side"),
        Param(f"{pre}type", "str", "foot", f"the {who}'s troops", R.TYPES),
        Param(f"{pre}mounted", "bool", False, f"the {who} is mounted cavalry"),
        Param(f"{pre}formation", "str", "line", f"the {who}'s formation", R.FORMATIONS),
        Param(f"{pre}stands", "int", 4, f"the {who}'s stands fighting", lo=1, hi=12),
        Param(f"{pre}leader", "int", 0, f"the {who}'s attached leader bonus", lo=0, hi=3),
        Param(f"{pre}uphill", "bool", False, f"the {who} is uphill of the enemy"),
        Param(f"{pre}marker", "bool", False, f"the {who} has a Morale Marker"),
    )
    if pre == "a_":
        return (*out, Param("a_flank", "bool", False, "attack from flank or rear"))
    return (*out, Param("b_obstacle", "bool", False, "the defender holds a wall or stream"))


RESOLUTIONS: tuple[Resolution, ...] = (
    Resolution(
        MODULE,
        "fire",
        "002 FIRE",
        "one fire roll: no hit, one stand or two",
        (
            Param("firer", "str", "foot", "the FIRE table row", FIRERS),
            Param("range", "float", 6.0, "inches to the target", lo=0, hi=30),
            _side("side", "confederate", "the firing side"),
            Param("formation", "str", "line", "the firer's formation", R.FORMATIONS),
            Param("marker", "bool", False, "the firer has a Morale Marker"),
            Param("target", "str", "foot", "the target's troops", R.TYPES),
            Param("target_mounted", "bool", False, "the target is mounted cavalry"),
            Param("target_formation", "str", "line", "the target's formation", R.FORMATIONS),
            Param("cover", "bool", False, "the target is in cover"),
        ),
        _fire,
    ),
    Resolution(
        MODULE,
        "charge",
        "002 MORALE, charge paragraph",
        "the charge test, then the target's stand test",
        (
            *_morale_params("", "confederate", "the charger"),
            *_morale_params("target_", "union", "the target"),
        ),
        _charge,
    ),
    Resolution(
        MODULE,
        "stand",
        "002 MORALE (Receive Charge)",
        "the stand test of a charged unit, and its retreat when it runs",
        (
            *_morale_params("", "union", "the charged unit"),
            Param("mounted_cavalry", "bool", False, 'mounted cavalry (runs 3D6")'),
        ),
        _stand,
    ),
    Resolution(
        MODULE,
        "melee",
        "002 MELEE",
        "one melee: who wins and each side's losses and retreats",
        (
            *_melee_params("a_", "attacker", "confederate"),
            *_melee_params("b_", "defender", "union"),
        ),
        _melee,
    ),
    Resolution(
        MODULE,
        "leader-loss",
        "002 LEADERS (leader casualties)",
        "an attached leader when his unit loses a stand",
        (),
        _leader_loss,
    ),
)
