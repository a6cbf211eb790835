"""Issue 24, the luck core: each roll's tally (side, kind, score, exact distribution) and
the per-side sums, checked by brute force against the faces of small battles."""

from __future__ import annotations

import itertools
import re
from fractions import Fraction

import pytest

from umpire.ai import make_policy
from umpire.battle.run import new_battle, play
from umpire.battle.scenario import load_scenario
from umpire.dice import ScriptedSource
from umpire.dice.luck import Tally, bernoulli, by_faces, convolve, dist_of, luck_of, mean


def _brute(tallies: list[Tally]) -> tuple[Fraction, Fraction, Fraction]:
    """(expectation, P(total < observed), P(total == observed)) over every combination of
    the rolls' outcomes: the plain product, no convolution."""
    obs = sum(t.score for t in tallies)
    exp, below, at = Fraction(0), Fraction(0), Fraction(0)
    for combo in itertools.product(*(t.dist for t in tallies)):
        p = Fraction(1)
        for _, q in combo:
            p *= q
        s = sum(v for v, _ in combo)
        exp += p * s
        if s < obs:
            below += p
        elif s == obs:
            at += p
    return exp, below, at


def test_convolution_against_enumeration() -> None:
    """The exact total of three different rolls equals the enumeration of their outcomes."""
    ts = [
        Tally("union", "hits", 1, by_faces(2, 6, lambda f: int(f[0] + f[1] >= 9))),
        Tally("union", "hits", 2, dist_of({0: 1, 1: 2, 2: 1})),
        Tally("union", "hits", 0, bernoulli(Fraction(1, 3))),
    ]
    (lk,) = luck_of(ts)
    exp, below, at = _brute(ts)
    assert (lk.expected, lk.below, lk.at, lk.observed, lk.rolls) == (exp, below, at, 3, 3)
    assert sum(p for _, p in convolve(t.dist for t in ts)) == 1
    assert mean(by_faces(2, 6, sum)) == 7


def test_sentence_words_the_issue_example() -> None:
    """Issue 24: "the Union's fire hit 31 times where 24.6 was expected: luckier than 93%"."""
    ts = [Tally("union", "fire hits", 1, bernoulli(Fraction(1, 2))) for _ in range(4)]
    (lk,) = luck_of(ts)
    assert lk.below == Fraction(15, 16)  # 0..3 heads of 4 fair coins: all but 1/16
    assert lk.percentile == 100 * (Fraction(15, 16) + Fraction(1, 32))  # ties split
    assert lk.sentence() == (
        "Union's fire hits: 4 where 2.0 was expected (4 rolls): luckier than 94% of games"
    )
    assert (
        luck_of([Tally("both", "events rolled", 0, bernoulli(Fraction(1, 3)))])[0]
        .sentence()
        .startswith("Both sides' events rolled: 0 where 0.3")
    )


NEEDS = re.compile(r"needs (\d+)\+, modifiers ([+-]\d+)")
STICK = re.compile(r"d10 per piece, hits on (-?\d+) or less")


def _battle_tallies(name: str, seed: int) -> tuple[list[Tally], list[int]]:
    scen = load_scenario(name)
    r = play(scen, seed, {s: make_policy("ai", 1) for s in ("union", "confederate")})
    b = new_battle(scen, ScriptedSource(list(r.faces)))
    b.luck = []
    it = iter(r.orders)
    while (req := b.next_request()) is not None:
        b.apply(req, tuple(next(it)[1:]))
    assert b.state.to_json() == r.state  # noting luck changes nothing
    return b.luck, r.faces


@pytest.mark.parametrize("name", ["standard_five_step", "stone_wall", "mcpherson_cards"])
def test_tallies_follow_the_faces(name: str) -> None:
    """Every tally carries the faces of the roll it read, which are the battle's own, in
    order; seed 002's tests and seed 001's check are recomputed from those faces and the
    purpose line (2d6 + modifiers against the number; 1d6 showing 1 or 6)."""
    tallies, faces = _battle_tallies(name, 3)
    assert tallies
    joined = " ".join(map(str, faces))
    for t in tallies:
        assert " ".join(map(str, t.faces)) in joined
        assert sum(p for _, p in t.dist) == 1
        assert any(s == t.score for s, _ in t.dist)
        m = NEEDS.search(t.purpose)
        if t.kind == "tests passed" and m and len(t.faces) == 2:
            need, mod = int(m[1]), int(m[2])
            assert t.score == int(sum(t.faces) + mod >= need)
            wins = sum(1 for a in range(1, 7) for c in range(1, 7) if a + c + mod >= need)
            assert dict(t.dist).get(1, Fraction(0)) == Fraction(wins, 36)
        if t.kind == "events rolled":
            assert t.score == int(t.faces[0] in (1, 6))
            assert dict(t.dist)[1] == Fraction(1, 3)
        m = STICK.search(t.purpose)
        if t.kind == "fire hits" and m and len(t.faces) <= 4:
            # seed 003 XI.A.4: "equal to or less than the number on the stick" (a 10 reads 0)
            need = int(m[1])
            assert t.score == sum(1 for f in t.faces if f % 10 <= need)
            assert t.dist == by_faces(
                len(t.faces), 10, lambda fs, need=need: sum(1 for f in fs if f % 10 <= need)
            )


def test_battle_luck_against_brute_force() -> None:
    """The per-side sums of a small battle's first tallies equal the plain enumeration."""
    tallies, _ = _battle_tallies("standard_five_step", 3)
    for lk in luck_of(tallies):
        mine = [t for t in tallies if (t.side, t.kind) == (lk.side, lk.kind)][:6]
        (small,) = luck_of(mine)
        assert (small.expected, small.below, small.at) == _brute(mine)
