"""The designer's question "what modifier makes this 50%?": ``umpire odds ... --solve PARAM``.

For one resolution with exact odds (``umpire.rules.odds``), the other parameters fixed,
:func:`solve` finds the integer value of ``PARAM`` whose exact chance of an outcome is
nearest a target, with the chances of the values either side. A parameter with a legal
range of at most :data:`SCAN_MAX` values (every one shipped) is scanned value by value, so
the answer is exact whatever the shape of the chance; a wider or unbounded one is searched
by bisection over :data:`WINDOW` (its bounds where it has them), which assumes the chance
moves one way as the parameter grows (a modifier's does) and says so. On a tie (two values
as near, or a run of values with the same chance) the value nearest the parameter's
default wins: the least change from the usual case.

An outcome is named by its label, or by one stage or a run of stages of a joint outcome
(``charge goes in`` counts every outcome ``charge goes in -> ...``); its chance is the sum
over the outcomes it names.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from umpire.errors import UmpireError, UnknownNameError
from umpire.rules.odds import Odds, Outcome, Resolution

SCAN_MAX = 4096
"""Legal ranges up to this many values are scanned whole (exact whatever the shape)."""
WINDOW = 1_000_000
"""An unbounded side of a parameter is searched up to this far from its default."""
SEP = " -> "


@dataclass(frozen=True, slots=True)
class Solution:
    """The value nearest the target, the chances around it, and how it was found."""

    resolution: Resolution
    param: str
    outcome: str
    target: Fraction
    value: int
    chances: tuple[tuple[int, Fraction], ...]
    """(value, chance) of the value found and of its legal neighbours, in order."""
    fixed: Mapping[str, Any]
    """The other parameters, as checked (their defaults where not given)."""
    lo: int
    hi: int
    method: str
    """``scan`` (every legal value) or ``bisection`` (a monotone chance assumed)."""
    flat: bool
    """The chance is the same at every value tried: PARAM does not move it."""

    @property
    def chance(self) -> Fraction:
        """The chance at the value found."""
        return dict(self.chances)[self.value]

    def to_json(self) -> dict[str, Any]:
        """Plain JSON values (fractions as ``"a/b"``)."""
        r = self.resolution
        return {
            "module": r.module,
            "name": r.name,
            "solve": self.param,
            "outcome": self.outcome,
            "target": float(self.target),
            "value": self.value,
            "p": _frac(self.chance),
            "percent": round(float(self.chance) * 100, 4),
            "values": [
                {"value": v, "p": _frac(p), "percent": round(float(p) * 100, 4)}
                for v, p in self.chances
            ],
            "params": dict(self.fixed),
            "searched": [self.lo, self.hi],
            "method": self.method,
            "flat": self.flat,
        }


def _frac(p: Fraction) -> str:
    return f"{p.numerator}/{p.denominator}"


def _key(text: str) -> str:
    return " ".join(text.lower().split())


def _stages(o: Outcome) -> tuple[str, ...]:
    return tuple(_key(s) for s in (o.path or (o.label,)))


def named(odds: Odds, outcome: str) -> tuple[bool, Fraction]:
    """(does the name match any outcome, the chance of the outcomes it names): a label, a
    stage or a run of stages of a joint outcome; case and spacing do not matter."""
    want = tuple(_key(s) for s in outcome.split(SEP.strip()))
    want = tuple(w for w in want if w) or (_key(outcome),)
    hit, p = False, Fraction(0)
    for o in odds.outcomes:
        path = _stages(o)
        k = len(want)
        if _key(o.label) == _key(outcome) or any(
            path[i : i + k] == want for i in range(len(path) - k + 1)
        ):
            hit, p = True, p + o.p
    return hit, p


def known_outcomes(seen: list[Odds]) -> list[str]:
    """Every stage of the outcomes seen (a plain outcome's label is its one stage), in the
    order the odds list them, once each."""
    out: list[str] = []
    for odds in seen:
        for o in odds.outcomes:
            for s in o.path or (o.label,):
                if s not in out:
                    out.append(s)
    return out


def int_param(r: Resolution, name: str) -> Any:
    """The integer parameter ``name`` of ``r`` (``-`` and ``_`` alike), or a one-line error
    naming the integer parameters it has."""
    want = name.strip().lstrip("-").replace("-", "_")
    ints = [p for p in r.params if p.kind == "int"]
    for p in r.params:
        if p.name == want:
            if p.kind != "int":
                raise UmpireError(
                    f"--solve {name}: {r.qualified}'s --{p.name.replace('_', '-')} is a "
                    f"{p.kind} parameter, not an integer ({_ints(r, ints)})"
                )
            return p
    raise UnknownNameError(f"--solve {name}: not a parameter of {r.qualified} ({_ints(r, ints)})")


def _ints(r: Resolution, ints: list[Any]) -> str:
    if not ints:
        return f"{r.qualified} has no integer parameter to solve for"
    return "integer parameters: " + ", ".join(p.name.replace("_", "-") for p in ints)


def check_target(target: float) -> Fraction:
    """The target chance as an exact fraction, or a one-line error outside 0..1."""
    if not 0.0 <= target <= 1.0:  # NaN fails too
        raise UmpireError(f"--target {target:g}: a chance between 0 and 1 (0.5 is 50%)")
    return Fraction(target).limit_denominator(10**12)


def solve(
    r: Resolution,
    param: str,
    given: Mapping[str, Any] | None = None,
    target: float = 0.5,
    outcome: str | None = None,
) -> Solution:
    """The integer value of ``param`` whose chance of ``outcome`` (default: the first stage
    of the first outcome at the given parameters) is nearest ``target``; on a tie the value
    nearest PARAM's default (the least change), then the smaller. ``given``: the other
    parameters (defaults for the rest; a value given for ``param`` itself is dropped: it is
    what is searched over)."""
    p = int_param(r, param)
    goal = check_target(target)
    fixed = {k: v for k, v in (given or {}).items() if k != p.name}
    r.checked(fixed)  # unknown or bad parameters: their own one-line errors
    cache: dict[int, Odds] = {}

    def odds(v: int) -> Odds:
        hit = cache.get(v)
        if hit is None:
            hit = cache[v] = r.odds({**fixed, p.name: v})
        return hit

    if outcome is None:
        first = odds(int(p.default)).outcomes
        if not first:
            raise UmpireError(f"{r.qualified} has no outcomes to solve for")
        outcome = first[0].path[0] if first[0].path else first[0].label
    lo = int(p.lo) if p.lo is not None else int(p.default) - WINDOW
    hi = int(p.hi) if p.hi is not None else int(p.default) + WINDOW
    if lo > hi:
        raise UmpireError(f"--solve {param}: {r.qualified}'s --{p.name} has no legal value")

    def chance(v: int) -> Fraction:
        return named(odds(v), outcome)[1]

    if hi - lo + 1 <= SCAN_MAX:
        method = "scan"
        values = list(range(lo, hi + 1))
        home = int(p.default)
        best = min(values, key=lambda v: (abs(chance(v) - goal), abs(v - home), v))
    else:
        method = "bisection"
        home = min(max(int(p.default), lo), hi)
        best = _toward(chance, _bisect(chance, lo, hi, goal, home), home)
    tried = sorted(cache)
    if not any(named(cache[v], outcome)[0] for v in tried):
        names = known_outcomes([cache[v] for v in tried])
        shown = ", ".join(f"'{s}'" for s in names[:40])
        more = f" and {len(names) - 40} more" if len(names) > 40 else ""
        raise UnknownNameError(
            f"--outcome '{outcome}': not an outcome of {r.qualified} (known: {shown}{more}; "
            "or stages joined by ' -> ')"
        )
    around = [v for v in (best - 1, best, best + 1) if lo <= v <= hi]
    flat = len({chance(v) for v in tried}) == 1
    return Solution(
        r,
        p.name,
        outcome,
        goal,
        best,
        tuple((v, chance(v)) for v in around),
        {k: v for k, v in odds(best).params.items() if k != p.name},
        lo,
        hi,
        method,
        flat,
    )


def _toward(chance: Callable[[int], Fraction], best: int, home: int) -> int:
    """Along a plateau of equal chance (a monotone chance's ties lie side by side), the value
    nearest ``home``: the tie rule of the scan, found by halving."""
    c = chance(best)
    if chance(home) == c:
        return home
    x, y = best, home  # x on the plateau, y off it
    while abs(y - x) > 1:
        m = (x + y) // 2
        if chance(m) == c:
            x = m
        else:
            y = m
    return x


def _bisect(chance: Callable[[int], Fraction], lo: int, hi: int, goal: Fraction, home: int) -> int:
    """The value nearest ``goal`` of a chance assumed monotone on ``lo..hi``: the ends when
    the goal lies beyond them, else the crossing found by halving and its neighbour."""
    a, b = chance(lo), chance(hi)
    rising = b >= a
    if a == b or (goal <= a if rising else goal >= a):
        return lo
    if goal >= b if rising else goal <= b:
        return hi

    def past(v: int) -> bool:  # at or beyond the goal, going from lo to hi
        c = chance(v)
        return c >= goal if rising else c <= goal

    x, y = lo, hi  # x short of the goal, y at or past it
    while y - x > 1:
        m = (x + y) // 2
        if past(m):
            y = m
        else:
            x = m
    return min((x, y), key=lambda v: (abs(chance(v) - goal), abs(v - home), v))
