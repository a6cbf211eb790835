"""Seed 003 artillery (part 5, XI): solid shot, bursts, first fire as a poker hand, and
their exact odds.

Every function is pure: faces in, a ruling out; the ``*_odds`` functions enumerate the
dice exactly (as multisets with their multinomial weights, so 7d10 is 11,440 cases, not
ten million) and return fractions. A d10 shows 0 to 9 (reading ``d10_zero``).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from fractions import Fraction
from functools import cache
from itertools import combinations_with_replacement
from pathlib import Path
from typing import Any, NamedTuple

DATA = Path(__file__).parent / "data"
D10 = tuple(range(10))


@cache
def data() -> dict[str, Any]:
    """The numbers of seed 003 (``data/rules.toml`` through the rules-data seam)."""
    from umpire.rules.data import read

    return read(DATA / "rules.toml")


def multisets(n: int, faces: Sequence[int] = D10) -> Iterator[tuple[tuple[int, ...], Fraction]]:
    """Every sorted roll of ``n`` dice with its exact probability (multinomial weight)."""
    total = len(faces) ** n
    fact = math.factorial(n)
    for combo in combinations_with_replacement(faces, n):
        ways = fact
        for c in Counter(combo).values():
            ways //= math.factorial(c)
        yield combo, Fraction(ways, total)


def distribution(
    n: int, rule: Callable[[tuple[int, ...]], Any], faces: Sequence[int] = D10
) -> dict[Any, Fraction]:
    """The exact distribution of ``rule`` over every roll of ``n`` dice.

    Counts whole ways per sorted roll and divides once at the end (a case burst's 11,440
    rolls in a few ms, where adding fractions took about 50 ms).
    """
    fact = math.factorial(n)
    facts = [math.factorial(k) for k in range(n + 1)]
    counts: dict[Any, int] = {}
    for combo in combinations_with_replacement(faces, n):
        ways = fact
        for c in Counter(combo).values():
            ways //= facts[c]
        key = rule(combo)
        counts[key] = counts.get(key, 0) + ways
    total = len(faces) ** n
    return {k: Fraction(w, total) for k, w in counts.items()}


# -- solid shot (XI.A.1) -------------------------------------------------------------------


def solid_shot_hits(bounce_die: int, hit_dice: Sequence[int]) -> tuple[bool, int]:
    """XI.A.1: an even D10 bounces 2"; the hit dice (1, or 2 if it bounced): even = hit."""
    bounced = bounce_die % 2 == 0
    want = data()["solid_shot"]["dice_bounce" if bounced else "dice_no_bounce"]
    if len(hit_dice) != want:
        raise ValueError(f"solid shot: {want} hit dice, not {len(hit_dice)}")
    return bounced, sum(1 for f in hit_dice if f % 2 == 0)


@cache
def solid_shot_odds() -> dict[int, Fraction]:
    """Exact P(hits) of a solid shot: half bounce (2 dice), half not (1 die); even hits."""
    out: dict[int, Fraction] = {}
    for bounce in D10:
        n = data()["solid_shot"]["dice_bounce" if bounce % 2 == 0 else "dice_no_bounce"]
        for combo, p in multisets(n):
            hits = sum(1 for f in combo if f % 2 == 0)
            out[hits] = out.get(hits, Fraction(0)) + p / 10
    return out


# -- bursts (XI.A.2-3) ---------------------------------------------------------------------


def burst_hits(faces: Sequence[int]) -> int:
    """XI.A.2: remove all 0s and each die with the highest number; the rest are hits
    (reading ``burst_removal``)."""
    rest = [f for f in faces if f != 0]
    if not rest:
        return 0
    top = max(rest)
    return sum(1 for f in rest if f != top)


@cache
def burst_odds(kind: str) -> dict[int, Fraction]:
    """Exact P(hits) of a shell (5d10) or case (7d10) burst."""
    n = data()["burst"][f"{kind}_dice"]
    return distribution(n, burst_hits)


# -- first fire as a poker hand (XI.B) -----------------------------------------------------


class Hand(NamedTuple):
    """A first-fire hand: its category, the ruling, and the long/short call."""

    category: str  # straight, five, four, full_house, three, two_pair, pair, misfire, dud
    result: str  # hit, burst, misfire, dud
    flight: str  # "long", "short", "both" (roll a d6) or ""


def hand_category(faces: Sequence[int]) -> str:
    """The poker category of 5 d10 (reading ``straight_first``, ``misfire_or_dud``)."""
    counts = sorted(Counter(faces).values(), reverse=True)
    distinct = sorted(set(faces))
    if len(distinct) == 5 and distinct[-1] - distinct[0] == 4:
        return "straight"
    if counts[0] == 5:
        return "five"
    if counts[0] == 4:
        return "four"
    if counts[:2] == [3, 2]:
        return "full_house"
    if counts[0] == 3:
        return "three"
    if counts[:2] == [2, 2]:
        return "two_pair"
    if counts[0] == 2:
        return "pair"
    evens = sum(1 for f in faces if f % 2 == 0)
    return "misfire" if evens * 2 > len(faces) else "dud"


RESULT = {
    "straight": "hit",
    "five": "hit",
    "four": "hit",
    "full_house": "burst",
    "three": "burst",
    "two_pair": "burst",
    "pair": "burst",
    "misfire": "misfire",
    "dud": "dud",
}
"""XI.B.1.b.(4): pairs and three of a kind burst; four, five of a kind and straights hit."""


def flight(faces: Sequence[int], consecutive: bool = False) -> str:
    """XI.B.1.b.(5)-(7), XI.C.1: "long", "short", "both" (settle with a d6) or ""."""
    cfg = data()["consecutive_fire" if consecutive else "first_fire"]
    c = Counter(faces)
    long_ = any(c[f] >= 2 for f in cfg["long_pair"])
    short = any(c[f] >= 2 for f in cfg["short_pair"])
    return "both" if long_ and short else "long" if long_ else "short" if short else ""


def first_fire(faces: Sequence[int], consecutive: bool = False) -> Hand:
    """XI.B / XI.C: read 5 d10 as a first- (or consecutive-) fire hand."""
    if len(faces) != 5 or not all(0 <= f <= 9 for f in faces):
        raise ValueError(f"a fire hand is 5 d10 showing 0-9, not {list(faces)}")
    cat = hand_category(faces)
    return Hand(cat, RESULT[cat], flight(faces, consecutive))


def settle_flight(d6: int) -> str:
    """XI.B.1.b.(7): both long and short: even is short, odd is long."""
    return "short" if d6 % 2 == 0 else "long"


def dud_flight(d6: int) -> str:
    """Reading ``dud_short_long``: 1 short, 2 long, otherwise on range."""
    return {1: "short", 2: "long"}.get(d6, "")


def hand_odds() -> dict[str, Fraction]:
    """Exact P(category) of a 5d10 hand."""
    return distribution(5, hand_category)


@cache
def result_odds(consecutive: bool = False) -> dict[tuple[str, str], Fraction]:
    """Exact P(result, flight) of a 5d10 hand (the flight of a 'both' still to settle)."""
    return distribution(5, lambda f: (RESULT[hand_category(f)], flight(f, consecutive)))


def deviation(d6: int) -> str:
    """XI.A.1.a / XI.B.1.a: "1" goes left, "6" goes right, else on line."""
    dev = data()["deviation"]
    return "left" if d6 == dev["left"] else "right" if d6 == dev["right"] else ""


def halved(d6: int) -> int:
    """'1D6 halved' rounds up (reading ``half_rounds_up``)."""
    return (d6 + 1) // 2


# -- canister on the rifle stick (XI.A.4) ---------------------------------------------------


def stick_value(distance: float, stick: str = "rifle") -> int | None:
    """Default ``rifle_stick``: the section's number at ``distance`` inches (None: beyond)."""
    cfg = data()["stick"]
    values: list[int] = cfg[stick]
    section = float(cfg[f"{stick}_section"])
    if distance < 0:
        raise ValueError("a distance is not negative")
    k = int(distance // section) if distance < section * len(values) else len(values)
    if distance == section * len(values):
        k = len(values) - 1  # the stick's far end still counts
    return values[k] if k < len(values) else None


def stick_hits(faces: Sequence[int], value: int, deductions: int) -> int:
    """XI.A.4.a.(2)(b): 'Any number equal to or less than the number on the stick is a hit'
    (after the deductions); a 0 counts as 0."""
    need = value - deductions
    return sum(1 for f in faces if f <= need)


def stick_odds(dice: int, value: int, deductions: int) -> dict[int, Fraction]:
    """Exact P(hits) of ``dice`` d10 on the stick: binomial with p = (need + 1) / 10."""
    need = value - deductions
    p = Fraction(min(10, max(0, need + 1)), 10)
    return {
        k: math.comb(dice, k) * p**k * (1 - p) ** (dice - k)
        for k in range(dice + 1)
        if p**k * (1 - p) ** (dice - k)
    }


def later_stick_odds(dice: int, value: int, deductions: int) -> dict[int, Fraction]:
    """Exact P(hits) of a later canister shot (XI.A.4.b, reading ``canister_later_shot``):
    the accumulating smoke's 1D6 halved, enumerated face by face, adds to ``deductions``."""
    out: dict[int, Fraction] = {}
    for face in range(1, 7):
        for k, p in stick_odds(dice, value, deductions + halved(face)).items():
            out[k] = out.get(k, Fraction(0)) + p / 6
    return dict(sorted(out.items()))
