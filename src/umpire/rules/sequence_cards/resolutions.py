"""Seed 004's status effects for ``umpire odds``: the rung a fire roll puts a unit on.

The host's fire roll (2d6 against a number, as seed 002's) is beaten by a margin; the
margin picks the rung (default ``fire_margin_effects``) and the unit's status escalates
(seed 004 EFFECT, reading ``escalation``). Pure: the ladder's data and the dice.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from umpire.errors import IllegalActionError
from umpire.rules.odds import Odds, Param, Resolution, Why, joint
from umpire.rules.sequence_cards.ladder import effect_for_margin, escalate, ladder

MODULE = "sequence-cards"


def _word(status: str) -> str:
    lad = ladder()
    return f"{lad.words.get(status, status)} ({status})" if status else "no marker"


def _status(v: Mapping[str, Any]) -> Odds:
    """004 EFFECT: a hit's margin picks the rung; a second effect in a turn, or any on a
    unit Retreated or Routed, is the next worse."""
    from umpire.dice import parse

    lad = ladder()
    expr = parse(str(v["dice"]))
    if expr.is_comparison:
        raise IllegalActionError(f"--dice: a total is needed, not a comparison ({expr})")
    needed, mod = int(v["needed"]), int(v["modifier"])
    prior = "" if v["prior"] == "none" else str(v["prior"])
    again = bool(v["again"])
    paths: list[tuple[tuple[str, ...], Fraction]] = []
    for total, p in expr.distribution():
        margin = int(total) + mod - needed
        if margin < 0:
            paths.append((("miss", f"stays {_word(prior)}"), Fraction(p)))
            continue
        incoming = effect_for_margin(margin, lad)
        new = escalate(prior, incoming, again, lad)
        stage = f"hit: {_word(incoming)}"
        paths.append(((stage, _word(new)), Fraction(p)))
    order = {"miss": -1, **{f"hit: {_word(s)}": lad.rank(s) for s in lad.order}}
    paths.sort(key=lambda kv: order[kv[0][0]])
    bands = ", ".join(f"{lo}+ {lad.words.get(s, s)}" for lo, s in lad.bands)
    why = [
        Why("dice", f"{expr} {mod:+d} against {needed} (the host's fire roll)", "host fire"),
        Why(
            "row", f"the margin picks the rung: {bands}", "004 EFFECT (default fire_margin_effects)"
        ),
        Why(
            "rule",
            f"now {_word(prior)}"
            + ("; already hit this turn" if again else "; not yet hit this turn")
            + ": a second effect in a turn, or any effect on a unit Retreated or Routed, "
            "gives the next worse than the worse of the two",
            "004 EFFECT (reading escalation)",
        ),
    ]
    return Odds("004 status effect of a fire roll", joint(paths), tuple(why))


RESOLUTIONS: tuple[Resolution, ...] = (
    Resolution(
        MODULE,
        "status",
        "004 EFFECT (status markers)",
        "the status a fire roll leaves a unit in: Stop, Shaken, Retreat, Lose, Route",
        (
            Param("dice", "str", "2d6", "the host's fire dice"),
            Param("needed", "int", 7, "the score needed to hit", lo=-20, hi=60),
            Param("modifier", "int", 0, "the fire roll's modifiers", lo=-20, hi=20),
            Param("prior", "str", "none", "the unit's status now", ("none", *ladder().order)),
            Param("again", "bool", False, "the unit was already hit this turn"),
        ),
        _status,
    ),
)
