"""Seed 003 (Action/Reaction): artillery rounds, first fire as a poker hand, hand-to-hand,
reactions; each ruling against the seed's text and its exact odds against brute force.

Sections: XI.A (rounds), XI.B-C (first and consecutive fire), XIII (reaction to a
charge), XIV (hand-to-hand), XV.2 (reaction to infantry fire).
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from itertools import product

import pytest

from umpire.rules.action_reaction import artillery as A
from umpire.rules.action_reaction import melee as M


def test_line_example_xiv_a_3_a() -> None:
    """XIV.A.3.a: attacker 6 5 4 3 2 1 against the defender's 6 6 4 4 2 2 2 (seven dice,
    rules-notes 003): 'The attacker has 4 hits and lost the melee'; the defender no loss."""
    s = M.strike([6, 5, 4, 3, 2, 1], [6, 6, 4, 4, 2, 2, 2])
    assert s == M.Strike(attacker_hits=0, defender_hits=4, loser="attacker")


def test_column_example_xiv_b_c() -> None:
    """XIV.B.c: attacker 6 4 3 1 against 5 5 2: 'The attacker's 1 does not matter because
    the attacker's 3 caused a hit'; 'If the extra number had been a 3 or higher, the
    defender would have taken an extra hit'."""
    assert M.strike([6, 4, 3, 1], [5, 5, 2]) == M.Strike(2, 1, "defender")
    assert M.strike([6, 4, 3, 3], [5, 5, 2]) == M.Strike(3, 1, "defender")
    assert M.column_dice(5) == (4, 3)  # the front piece and its two neighbours; one more


def test_equal_hits_end_the_strikes() -> None:
    """Rules-notes 003: equal hits, or none, and neither side backs."""
    assert M.strike([3, 3], [3, 3]).loser == ""
    assert M.strike([6, 1], [5, 2]).loser == ""


@pytest.mark.parametrize(("n", "m"), [(1, 1), (2, 3), (3, 2), (3, 4)])
def test_strike_odds_equal_brute_force(n: int, m: int) -> None:
    """The exact hand-to-hand distribution equals enumeration of every ordered roll."""
    want: dict[M.Strike, Fraction] = {}
    total = 6 ** (n + m)
    for roll in product(range(1, 7), repeat=n + m):
        s = M.strike(roll[:n], roll[n:])
        want[s] = want.get(s, Fraction(0)) + Fraction(1, total)
    assert M.strike_odds(n, m) == want


def test_hand_categories_against_all_100000_rolls() -> None:
    """XI.B.1.b: the exact category odds equal the count over all 100,000 rolls of 5d10."""
    counts = Counter(A.hand_category(roll) for roll in product(range(10), repeat=5))
    want = {k: Fraction(v, 100_000) for k, v in counts.items()}
    assert A.hand_odds() == want
    # by hand: a straight is one of 6 runs (0-4 .. 5-9) in any order: 6 x 5! / 10^5
    assert want["straight"] == Fraction(6 * 120, 100_000)
    assert want["five"] == Fraction(10, 100_000)


def test_first_fire_rulings() -> None:
    """XI.B.1.b.(1)-(7) with the readings straight_first, misfire_or_dud, pairs_go_long_short."""
    assert A.first_fire([3, 4, 5, 6, 7]) == A.Hand("straight", "hit", "")
    assert A.first_fire([1, 1, 4, 6, 8]) == A.Hand("pair", "burst", "long")
    assert A.first_fire([0, 0, 3, 5, 7]) == A.Hand("pair", "burst", "short")
    assert A.first_fire([0, 0, 1, 1, 5]) == A.Hand("two_pair", "burst", "both")
    assert A.first_fire([0, 2, 4, 7, 9]).result == "misfire"  # no match, mostly even
    assert A.first_fire([1, 3, 5, 6, 8]).result == "dud"  # no match, mostly odd
    assert A.first_fire([2, 2, 2, 2, 7]).result == "hit"
    # consecutive fire (XI.C.1): pairs of 1s and 2s long, 9s and 0s short
    assert A.first_fire([2, 2, 5, 6, 7], consecutive=True).flight == "long"
    assert A.first_fire([9, 9, 5, 6, 7], consecutive=True).flight == "short"
    assert A.settle_flight(4) == "short" and A.settle_flight(3) == "long"
    assert A.dud_flight(1) == "short" and A.dud_flight(2) == "long" and A.dud_flight(5) == ""
    with pytest.raises(ValueError, match="5 d10"):
        A.first_fire([1, 2, 3])


def test_bursts_xi_a_2_and_3() -> None:
    """XI.A.2: 'Remove all 0s and each die with the highest number. The remaining dice are
    hits'; exact odds against brute force (shell) and a hand computation (case)."""
    assert A.burst_hits([0, 7, 7, 3, 5]) == 2
    assert A.burst_hits([0, 0, 0, 0, 0]) == 0
    counts = Counter(A.burst_hits(r) for r in product(range(10), repeat=5))
    assert A.burst_odds("shell") == {k: Fraction(v, 100_000) for k, v in counts.items()}
    case = A.burst_odds("case")
    assert sum(case.values()) == 1
    # no hit: every nonzero die shows one value v (or all show 0)
    tenth, fifth = Fraction(1, 10), Fraction(2, 10)
    assert case[0] == tenth**7 + 9 * (fifth**7 - tenth**7)


def test_solid_shot_xi_a_1() -> None:
    """XI.A.1: even D10 bounces (2 hit dice) else 1; even numbers are hits. By hand:
    P(0) = 1/2 x 1/2 + 1/2 x 1/4, P(1) = 1/2 x 1/2 + 1/2 x 1/2, P(2) = 1/2 x 1/4."""
    assert A.solid_shot_hits(4, [2, 7]) == (True, 1)
    assert A.solid_shot_hits(3, [8]) == (False, 1)
    assert A.solid_shot_odds() == {0: Fraction(3, 8), 1: Fraction(1, 2), 2: Fraction(1, 8)}
    with pytest.raises(ValueError):
        A.solid_shot_hits(3, [2, 2])


def test_deviation_and_halving() -> None:
    """XI.A.1.a: '1' goes left, '6' goes right; 1D6 halved rounds up (1, 2 or 3)."""
    assert [A.deviation(f) for f in range(1, 7)] == ["left", "", "", "", "", "right"]
    assert [A.halved(f) for f in range(1, 7)] == [1, 1, 2, 2, 3, 3]


def test_reaction_lists_xiii_b_and_xv_2() -> None:
    """XIII.B.1.(1): 1 retreat 9", 10 (a 0) nothing, odd withdraw 3", even fire;
    XV.2.(3): a column: 1-2 withdraw, 3 prone, 4-5 retreat 9", 6 nothing."""
    assert [M.reaction(f)[0] for f in range(10)] == [
        "none", "retreat", "fire", "withdraw", "fire",
        "withdraw", "fire", "withdraw", "fire", "withdraw",
    ]  # fmt: skip
    assert M.reaction(1) == ("retreat", 9) and M.reaction(3) == ("withdraw", 3)
    assert M.reaction_odds() == {
        "none": Fraction(1, 10),
        "retreat": Fraction(1, 10),
        "fire": Fraction(4, 10),
        "withdraw": Fraction(4, 10),
    }
    assert [M.column_reaction(f)[0] for f in range(1, 7)] == [
        "withdraw", "withdraw", "prone", "retreat", "retreat", "none",
    ]  # fmt: skip


def test_cheer_and_hear_xiii() -> None:
    """Reading cheer_and_hear: P(react) is 1 on a clear field, else P(cheer) x P(hear) = 1/4
    (checked by enumeration of the two d10s)."""
    for clear in (True, False):
        n = sum(M.reacts(c, h, clear) for c in range(10) for h in range(10))
        assert Fraction(n, 100) == M.reacts_odds(clear)


@pytest.mark.parametrize(("n", "m"), [(1, 1), (1, 8), (8, 1), (2, 3), (5, 7), (6, 6)])
def test_fast_hand_to_hand_odds_equal_the_enumeration(n: int, m: int) -> None:
    """XIV.A: the dynamic programme over faces (h2h.py) gives exactly the distribution of
    the multiset enumeration (itself checked against every ordered roll above)."""
    from umpire.rules.action_reaction import h2h

    want: dict[tuple[int, int], Fraction] = {}
    for s, p in M.strike_odds(n, m).items():
        key = (s.attacker_hits, s.defender_hits)
        want[key] = want.get(key, Fraction(0)) + p
    assert h2h.strike_distribution(n, m) == want


def test_hand_to_hand_odds_up_to_twelve_a_side() -> None:
    """Twelve a side: the distribution sums to one, the counts are whole rolls of 6**24,
    and the loser odds are symmetric when both sides roll as many dice."""
    from umpire.rules.action_reaction import h2h

    counts = h2h.strike_counts(12, 12)
    assert int(counts.sum()) == 6**24
    odds = h2h.loser_odds(12, 12)
    assert sum(odds.values()) == 1 and odds["attacker"] == odds["defender"]
    with pytest.raises(ValueError, match="1 to 12 dice"):
        h2h.strike_counts(13, 2)


def test_resolve_hand_to_hand_at_the_cli(capsys: pytest.CaptureFixture[str]) -> None:
    """Issue example: `umpire resolve hand-to-hand --rules action-reaction --attacker
    "6 5 4 3 2 1" --defender "6 6 4 4 2 2 2" --json` prints the hits and the loser; without
    faces it rolls on a fresh seed, printed; bad faces are one line, exit 2."""
    import json

    from test_acw_cli import one_line_error, run

    code, out, err = run(
        capsys,
        "resolve",
        "hand-to-hand",
        "--rules",
        "action-reaction",
        "--attacker",
        "6 5 4 3 2 1",
        "--defender",
        "6 6 4 4 2 2 2",
        "--json",
    )
    assert code == 0, err
    res = json.loads(out)
    assert (
        res["hits_by_attacker_on_defender"],
        res["hits_by_defender_on_attacker"],
        res["loser"],
    ) == (0, 4, "attacker")
    assert res["attacker_losses"].startswith("the attacker loses 1 piece (4 hits")
    assert sum(Fraction(v) for v in res["odds"].values()) == 1
    seeds = set()
    for _ in range(2):
        code, out, err = run(
            capsys, "resolve", "hand-to-hand", "--attacker-pieces", "4", "--defender-pieces", "5",
            "--json",
        )  # fmt: skip
        assert code == 0, err
        seeds.add(json.loads(out)["seed"])
    assert len(seeds) == 2
    code, out, err = run(capsys, "resolve", "hand-to-hand", "--attacker", "7 1", "--defender", "2")
    one_line_error(code, out, err, "--attacker: 7 is outside 1..6")
    code, out, err = run(capsys, "resolve", "burst", "--ammunition", "grape")
    one_line_error(code, out, err, "unknown ammunition 'grape'")
    code, out, err = run(capsys, "resolve", "first-fire", "--roll", "1 2 3", "--json")
    one_line_error(code, out, err, "--roll: got 3 faces in '1 2 3' (expected 5 faces")
    code, out, err = run(capsys, "resolve", "first-fire", "--rules", "quick-acw")
    one_line_error(code, out, err, "unknown rules 'quick-acw'")


def test_canister_on_the_rifle_stick_xi_a_4() -> None:
    """XI.A.4.a: 9 d10 on the rifle stick (default rifle_stick: 9 at 0-3" down to 1 at
    24-27"); 'Any number equal to or less than the number on the stick is a hit'."""
    assert [A.stick_value(d) for d in (0, 2.9, 3, 26.9, 27)] == [9, 9, 8, 1, 1]
    assert A.stick_value(27.5) is None
    assert A.stick_hits([0, 1, 2, 3, 4, 5, 6, 7, 8], 6, 1) == 6
    # the exact odds equal enumeration of every roll (3 dice for speed)
    want: dict[int, Fraction] = {}
    for roll in product(range(10), repeat=3):
        k = A.stick_hits(roll, 6, 1)
        want[k] = want.get(k, Fraction(0)) + Fraction(1, 1000)
    assert A.stick_odds(3, 6, 1) == want


def test_charge_dice_xii_h() -> None:
    """XII.H.3-5: infantry 1d6 a stand in line, 1d10 in column; mounted cavalry 2d6 a stand,
    3d6 in column; 'No other pieces may charge'; dice from the centre out, descending."""
    assert M.charge_dice("infantry", "line", 4) == [(1, 6)] * 4
    assert M.charge_dice("infantry", "column", 4) == [(1, 10)]
    assert M.charge_dice("cavalry", "line", 2) == [(2, 6)] * 2
    assert M.charge_dice("cavalry", "column", 3) == [(3, 6)]
    with pytest.raises(ValueError, match="no other pieces may charge"):
        M.charge_dice("artillery", "line", 2)
    placed = M.centre_out([3, 6, 1, 5, 4])
    mid = len(placed) // 2
    assert placed[mid] == 6
    assert placed[:mid] == sorted(placed[:mid]) and placed[mid:] == sorted(
        placed[mid:], reverse=True
    )


def test_artillery_and_charges_at_the_cli(capsys: pytest.CaptureFixture[str]) -> None:
    """Bad input the issue names: canister beyond its stick, a charge by artillery, an
    unknown ammunition type: one line each, exit 2."""
    import json

    from test_acw_cli import one_line_error, run

    code, out, err = run(capsys, "resolve", "canister", "--range", "30")
    one_line_error(code, out, err, 'canister reaches 27" (the rifle stick), not 30"')
    code, out, err = run(capsys, "resolve", "charge-distance", "--troops", "artillery")
    one_line_error(code, out, err, "no other pieces may charge")
    code, out, err = run(capsys, "resolve", "solid-shot", "--roll", "4 2", "--json")
    one_line_error(code, out, err, "solid shot: 2 hit dice, not 1")
    args = ["canister", "--range", "10", "--roll", "0 1 2 3 4 5 6 7 8", "--deductions", "1"]
    code, out, err = run(capsys, "resolve", *args, "--json")
    assert code == 0, err
    res = json.loads(out)
    assert res["stick"] == 6 and res["hits_on_target"] == 6
    assert sum(Fraction(v) for v in res["odds"].values()) == 1


def test_terrain_xvi() -> None:
    """XVI: woodlots -1 movement and fire; uphill D6 halved off, downhill on, -1 fire; rail
    fence 1d6 off and -1 fire; a worm fence 1d6 off; a stone wall 1d10 off and 1d6 off fire;
    'If the number exceeds the amount of movement left, the regiment may not move'."""
    from umpire.rules.action_reaction import terrain as T

    assert T.movement("woodlot", 6) == T.Going(5, False, 1)
    assert T.movement("uphill", 6, 5) == T.Going(3, False, 3)  # 5 halved, rounded up
    assert T.movement("downhill", 6, 2) == T.Going(7, False, 1)
    assert T.movement("worm_fence", 4, 5) == T.Going(0.0, True, 5)
    assert T.movement("worm_fence", 4, 3) == T.Going(1, False, 3)
    assert T.movement("stone_wall", 9, 0) == T.Going(0.0, True, 10)  # a 0 reads as 10
    assert T.fire_deduction("woodlot") == 1 and T.fire_deduction("stone_wall", 4) == 4
    # exact stall odds by the die: a worm fence with 4" left stalls on 5 or 6
    assert T.stall_odds("worm_fence", 4) == Fraction(2, 6)
    assert T.stall_odds("stone_wall", 4) == Fraction(6, 10)  # 5, 6, 7, 8, 9 and 0 (10)
    assert T.stall_odds("woodlot", 0.5) == 1
    with pytest.raises(ValueError, match="unknown terrain 'swamp'"):
        T.movement("swamp", 6)
