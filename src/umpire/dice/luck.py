"""Luck: what each side's dice gave against their exact expectation (issue 24).

A ruling that rolls may say what the roll meant and for whom: a :class:`Tally` names the
side the score favours, the kind of score (``hits``, ``passes``, ``events``, ...), the
score the roll gave and the score's exact distribution (from the module's exact odds).
:func:`luck_of` sums the tallies per side and kind: the observed total, its expectation,
the exact distribution of the total (the convolution of the per-roll distributions, the
rolls being independent) and where the observed total falls in it ("luckier than 93% of
games"). Everything is exact (integers over a common denominator, then fractions).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

__all__ = [
    "Dist",
    "Luck",
    "Tally",
    "bernoulli",
    "by_faces",
    "chance",
    "convolve",
    "dist_of",
    "luck_of",
    "mean",
    "side_luck",
    "tail",
]

Dist = tuple[tuple[int, Fraction], ...]
"""A score's exact distribution: ``(score, probability)`` pairs, scores ascending, each
probability above 0, summing to 1."""


@dataclass(frozen=True, slots=True)
class Tally:
    """What one roll meant: ``score`` for ``side`` (higher is better for that side) of
    ``kind``, with its exact distribution ``dist``; the roll's purpose line and faces, and
    the turn (the report finds the action it came in by replaying the log)."""

    side: str
    kind: str
    score: int
    dist: Dist
    purpose: str = ""
    faces: tuple[int, ...] = ()
    turn: int = 0

    def to_json(self) -> dict[str, object]:
        """A plain JSON object (probabilities as ``"n/d"`` strings)."""
        return {
            "side": self.side,
            "kind": self.kind,
            "score": self.score,
            "dist": [[s, f"{p.numerator}/{p.denominator}"] for s, p in self.dist],
            "purpose": self.purpose,
            "faces": list(self.faces),
            "turn": self.turn,
        }


def dist_of(weights: Mapping[int, int | Fraction]) -> Dist:
    """A :data:`Dist` from weights per score (counts or probabilities), normalised; zero
    weights are dropped."""
    total = sum(Fraction(w) for w in weights.values())
    if total <= 0:
        raise ValueError("a distribution needs some weight")
    return tuple((s, Fraction(w) / total) for s, w in sorted(weights.items()) if w)


def bernoulli(p: Fraction) -> Dist:
    """Score 1 with chance ``p``, else 0 (a pass, a hit, an event)."""
    return dist_of({0: 1 - p, 1: p})


def by_faces(n: int, sides: int, score: Callable[[tuple[int, ...]], int]) -> Dist:
    """The exact distribution of ``score(faces)`` over every throw of ``n``d``sides`` (faces
    1..sides), by enumeration: a module's own ruling function gives the score."""
    counts: dict[int, int] = {}
    for faces in itertools.product(range(1, sides + 1), repeat=n):
        s = score(faces)
        counts[s] = counts.get(s, 0) + 1
    return dist_of(counts)


def mean(d: Dist) -> Fraction:
    """The expectation of a distribution."""
    return sum((p * s for s, p in d), Fraction(0))


def chance(d: Dist, score: int) -> Fraction:
    """P(score) under ``d`` (0 if the score cannot happen)."""
    for s, p in d:
        if s == score:
            return p
    return Fraction(0)


def tail(d: Dist, score: int) -> Fraction:
    """How unlikely ``score`` is under ``d``: the chance of this score or one further from
    the middle on its side, min(P(X >= score), P(X <= score)) (a hit at 1 in 12 gives 1/12,
    a miss at 11 in 12 gives 11/12): the decisive moments are ranked by it."""
    hi = sum((p for s, p in d if s >= score), Fraction(0))
    lo = sum((p for s, p in d if s <= score), Fraction(0))
    return min(hi, lo)


def _ints(d: Dist) -> tuple[dict[int, int], int]:
    """``d`` as integer weights over one denominator (exact convolution without gcds)."""
    den = 1
    for _, p in d:
        den = den * p.denominator // math.gcd(den, p.denominator)
    return {s: p.numerator * (den // p.denominator) for s, p in d}, den


def _convolve_ints(
    a: dict[int, int], da: int, b: dict[int, int], db: int
) -> tuple[dict[int, int], int]:
    out: dict[int, int] = {}
    for sa, wa in a.items():
        for sb, wb in b.items():
            out[sa + sb] = out.get(sa + sb, 0) + wa * wb
    return out, da * db


def convolve(dists: Iterable[Dist]) -> Dist:
    """The exact distribution of the sum of independent scores."""
    acc: dict[int, int] = {0: 1}
    den = 1
    for d in dists:
        w, dd = _ints(d)
        acc, den = _convolve_ints(acc, den, w, dd)
        g = 0
        for v in acc.values():
            g = math.gcd(g, v)
        g = math.gcd(g, den)
        if g > 1:  # keep the integers small
            acc = {s: v // g for s, v in acc.items()}
            den //= g
    return tuple((s, Fraction(v, den)) for s, v in sorted(acc.items()) if v)


@dataclass(frozen=True, slots=True)
class Luck:
    """One side's luck in one kind of score: ``rolls`` tallies, the ``observed`` total, its
    ``expected`` value, the exact distribution of the total, P(total < observed) (``below``:
    the share of games it beats) and P(total == observed) (``at``)."""

    side: str
    kind: str
    rolls: int
    observed: int
    expected: Fraction
    dist: Dist
    below: Fraction
    at: Fraction

    @property
    def percentile(self) -> float:
        """Mid-rank percentile in 0..100: 50 is exactly average luck."""
        return float((self.below + self.at / 2) * 100)

    def sentence(self, side_name: str | None = None) -> str:
        """ "The Union's fire hits: 31 where 24.6 was expected (40 rolls): luckier than 93% of
        games": the share of games whose total is strictly below (above, when unlucky), the
        side of the middle chosen by the mid-rank percentile. A count that is neither good
        nor bad for a side (``events ...``: an event may help or hurt) is said as more or
        fewer than in that share of games."""
        who = side_name or ("Both sides" if self.side == "both" else self.side.title())
        exp = float(self.expected)
        pct = self.percentile
        neutral = self.kind.startswith("events")
        if pct > 50:
            share = _share(self.below)
            verdict = (
                f"more than in {share} of games" if neutral else f"luckier than {share} of games"
            )
        elif pct < 50:
            share = _share(1 - self.below - self.at)
            verdict = (
                f"fewer than in {share} of games" if neutral else f"unluckier than {share} of games"
            )
        else:
            verdict = "exactly average"
        poss = "'" if who.endswith("s") else "'s"
        return (
            f"{who}{poss} {self.kind}: {self.observed} where {exp:.1f} was expected "
            f"({self.rolls} roll{'s' if self.rolls != 1 else ''}): {verdict}"
        )

    def to_json(self) -> dict[str, object]:
        """A plain JSON object."""
        return {
            "side": self.side,
            "kind": self.kind,
            "rolls": self.rolls,
            "observed": self.observed,
            "expected": float(self.expected),
            "below": float(self.below),
            "at": float(self.at),
            "percentile": self.percentile,
        }


def _share(p: Fraction) -> str:
    """A share of games in words: "93%", or "99.5%" and more without rounding up to all."""
    x = float(p) * 100
    return f"{x:.0f}%" if x < 99.5 else f"{x:.1f}%" if x < 99.95 else "99.9%"


def luck_of(tallies: Sequence[Tally]) -> list[Luck]:
    """Per side and kind (in order of first appearance): observed total, expectation, the
    exact distribution of the total and where the observed total falls in it."""
    groups: dict[tuple[str, str], list[Tally]] = {}
    for t in tallies:
        groups.setdefault((t.side, t.kind), []).append(t)
    out = []
    for (side, kind), ts in groups.items():
        total = convolve(t.dist for t in ts)
        obs = sum(t.score for t in ts)
        below = sum((p for s, p in total if s < obs), Fraction(0))
        out.append(
            Luck(
                side,
                kind,
                len(ts),
                obs,
                sum((mean(t.dist) for t in ts), Fraction(0)),
                total,
                below,
                chance(total, obs),
            )
        )
    return out


def side_luck(
    tallies: Sequence[Tally], sides: Sequence[str] = ("confederate", "union")
) -> dict[str, float | None]:
    """Each side's luck in one game as one number (reading ``luck_side``, docs/lab.md): the
    mean of the mid-rank percentiles of its kinds of score, each weighted by its rolls (50
    is average dice; kinds of different sizes on one scale). Counts that are neither good
    nor bad (``events ...``) and tallies of no side in ``sides`` are left out; a side with
    no tallied roll has None."""
    acc: dict[str, list[float]] = {s: [0.0, 0.0] for s in sides}
    for lk in luck_of(tallies):
        if lk.side not in acc or lk.kind.startswith("events"):
            continue
        acc[lk.side][0] += lk.percentile * lk.rolls
        acc[lk.side][1] += lk.rolls
    return {s: (w / n if n else None) for s, (w, n) in acc.items()}
