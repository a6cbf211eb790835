"""Seed 003 (Action/Reaction) rule modules: officers (XII.A-C, XVII.B), fog and smoke
(XII.D-E), movement (XII.F), infantry fire and the fire reactions (XV, XVII.A, XVII.D) and
ammunition (XI.A); each ruling against the seed's text, exact odds against brute-force
enumeration or a hand computation, bad input as one-line errors, and the table commands
``umpire resolve rally | fog | infantry-fire | officer-loss --rules action-reaction``.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from fractions import Fraction
from itertools import product
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from umpire.errors import UmpireError
from umpire.rules.action_reaction import ammo as AM
from umpire.rules.action_reaction import fire as F
from umpire.rules.action_reaction import melee as M
from umpire.rules.action_reaction import movement as MV
from umpire.rules.action_reaction import officers as O
from umpire.rules.action_reaction import weather as W
from umpire.rules.action_reaction.artillery import DATA, data
from umpire.rules.labels import load_labels

D10 = range(10)


def one_line(exc: pytest.ExceptionInfo[UmpireError], *needles: str) -> None:
    """A library error is one line and names what was wrong."""
    text = str(exc.value)
    assert "\n" not in text, text
    for needle in needles:
        assert needle in text, text


# -- officers (XII.A-C, XVII.B) ----------------------------------------------------------------


def test_contest_higher_wins_xii_a_2() -> None:
    """003 XII.A.1-2: 'The higher number wins'; a tie is rolled again (reading contest_tie);
    over the 100 pairs of two d10 (0-9): 45 officer, 45 men, 10 ties."""
    assert O.contest(7, 3) == "officer"
    assert O.contest(0, 9) == "men"
    assert O.contest(4, 4) == "tie"
    counts = Counter(O.contest(o, m) for o in D10 for m in D10)
    assert counts == {"officer": 45, "men": 45, "tie": 10}
    assert O.contest_odds() == {k: Fraction(v, 100) for k, v in counts.items()}
    assert O.officer_wins_odds() == Fraction(1, 2)
    with pytest.raises(UmpireError) as exc:
        O.contest(10, 3)
    one_line(exc, "a d10 shows 0 to 9, not 10")


@pytest.mark.parametrize("officers", [0, 1, 2, 3, 5])
def test_rally_odds_any_officer_rallies_xii_a_3(officers: int) -> None:
    """003 XII.A.3 with reading any_officer_rallies: officers contest in turn, ties rolled
    again, the unit rallies when one wins. Brute force: P(n) over the 100 pairs solves
    P(n) = (45 + 45 P(n-1) + 10 P(n)) / 100, P(0) = 0; by hand 1 - (1/2)**n."""
    p = Fraction(0)
    for _ in range(officers):
        win = sum(1 for o in D10 for m in D10 if O.contest(o, m) == "officer")
        men = sum(1 for o in D10 for m in D10 if O.contest(o, m) == "men")
        tie = 100 - win - men
        p = (win + men * p) / Fraction(100 - tie)
    assert O.rally_odds(officers) == p == 1 - Fraction(1, 2) ** officers
    assert O.rally_odds(3) == Fraction(7, 8)


def test_rally_odds_refuses_a_negative_count_xii_a() -> None:
    """003 XII.A.1: 'for each officer': a count of officers is 0 or more."""
    with pytest.raises(UmpireError) as exc:
        O.rally_odds(-1)
    one_line(exc, "officers, not -1")


def test_officer_wounds_xvii_b_1() -> None:
    """003 XVII.B.1 'Officers are checked for wounds immediately', default officer_wounds:
    1d6 even is a hit, then 1d20 >= 15 removes him; P = 1/2 x 6/20 = 3/20 (enumerated)."""
    assert [O.officer_hit(f) for f in range(1, 7)] == [False, True] * 3
    assert [f for f in range(1, 21) if O.officer_removed(f)] == [15, 16, 17, 18, 19, 20]
    gone = sum(
        1 for h in range(1, 7) for w in range(1, 21) if O.officer_hit(h) and O.officer_removed(w)
    )
    assert O.officer_loss_odds() == Fraction(gone, 120) == Fraction(3, 20)
    with pytest.raises(UmpireError) as exc:
        O.officer_removed(21)
    one_line(exc, "a d20 shows 1 to 20, not 21")
    with pytest.raises(UmpireError) as exc:
        O.officer_hit(0)
    one_line(exc, "a d6 shows 1 to 6, not 0")


def test_officers_lost_odds_xvii_b_1() -> None:
    """003 XVII.B.1: each officer checked on his own dice; the distribution of officers
    removed equals enumeration of every (d6, d20) of two officers; by hand (17/20)**3."""
    faces = [(h, w) for h in range(1, 7) for w in range(1, 21)]
    want: dict[int, Fraction] = {}
    for a, b in product(faces, repeat=2):
        k = sum(O.officer_hit(h) and O.officer_removed(w) for h, w in (a, b))
        want[k] = want.get(k, Fraction(0)) + Fraction(1, len(faces) ** 2)
    assert O.officers_lost_odds(2) == want
    assert O.officers_lost_odds(3)[0] == Fraction(17, 20) ** 3
    assert O.officers_lost_odds(0) == {0: 1}


def test_senior_captain_xii_c() -> None:
    """003 XII.C.2-4: 'Roll 1 D10. Even restores the officer'; odd does not: P = 1/2."""
    assert [O.senior_captain(f) for f in D10] == [True, False] * 5
    assert O.senior_captain_odds() == Fraction(1, 2)


# -- fog and smoke (XII.D-E) -------------------------------------------------------------------


def test_fog_thickness_xii_d_1() -> None:
    """003 XII.D.1.1: 'Roll 1 D6. The resulting number is the thickness of the fog with 6
    being the thickest'; the limit 0..6 is data ([weather] fog_max)."""
    assert [W.fog_thickness(f) for f in range(1, 7)] == [1, 2, 3, 4, 5, 6]
    assert W.FOG_MAX == data()["weather"]["fog_max"] == 6
    with pytest.raises(UmpireError) as exc:
        W.fog_thickness(7)
    one_line(exc, "not 7")


def test_thinning_xii_d_2_and_e_2() -> None:
    """003 XII.D.2 and E.2 (reading smoke_thins): 'Even reduces the fog number by 1. Odd
    means the fog does not change'; never below 0."""
    assert [W.thins(f) for f in D10] == [True, False] * 5
    assert W.next_level(3, 4) == 2 and W.next_level(3, 5) == 3
    assert W.next_level(0, 2) == 0
    with pytest.raises(UmpireError) as exc:
        W.next_level(-1, 2)
    one_line(exc, "0 or more, not -1")


@pytest.mark.parametrize(("level", "turns"), [(0, 2), (2, 1), (3, 3), (6, 4)])
def test_level_odds_equal_brute_force_xii_d_2(level: int, turns: int) -> None:
    """003 XII.D.2 / E.2: the exact level after ``turns`` turn starts equals enumeration of
    every sequence of d10s; by hand, 2 after one turn: 1 or 2, one half each."""
    want: dict[int, Fraction] = {}
    for faces in product(D10, repeat=turns):
        lv = level
        for f in faces:
            lv = W.next_level(lv, f)
        want[lv] = want.get(lv, Fraction(0)) + Fraction(1, 10**turns)
    assert W.level_odds(level, turns) == want
    assert W.level_odds(2, 1) == {1: Fraction(1, 2), 2: Fraction(1, 2)}


@settings(max_examples=60, deadline=None)
@given(
    level=st.integers(0, 6),
    faces=st.lists(st.integers(0, 9), max_size=12),
    turns=st.integers(0, 8),
)
def test_levels_stay_in_range_xii_d(level: int, faces: list[int], turns: int) -> None:
    """003 XII.D-E: a fog level never rises and stays within 0..6; its exact distribution
    sums to 1 over levels between level - turns (at least 0) and level."""
    lv = level
    for f in faces:
        nxt = W.next_level(lv, f)
        assert 0 <= nxt <= lv <= W.FOG_MAX
        lv = nxt
    dist = W.level_odds(level, turns)
    assert sum(dist.values()) == 1
    assert all(max(0, level - turns) <= k <= level for k in dist)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.one_of(st.just("fire"), st.integers(0, 9)), max_size=30))
def test_smoke_markers_stay_within_the_cap_xii_e_1(events: list[str | int]) -> None:
    """003 XII.E.1 'Every time a unit fires place a smoke marker', default smoke_cap: the
    markers on one unit stay within 0..6 whatever the fires and thinning rolls."""
    markers = 0
    for e in events:
        markers = W.add_smoke(markers) if e == "fire" else W.next_level(markers, int(e))
        assert 0 <= markers <= W.SMOKE_MAX == data()["battle"]["smoke_cap"] == 6


def test_fog_deductions_xii_d_1_b() -> None:
    """003 XII.D.1.b 'The thickness determines the firing deduction and the movement
    deduction', default fog_deductions: one stick point and one inch a level."""
    assert [W.fog_deductions(k) for k in range(7)] == [(k, float(k)) for k in range(7)]
    with pytest.raises(UmpireError) as exc:
        W.fog_deductions(7)
    one_line(exc, "0 to 6, not 7")


def test_smoke_on_a_line_of_fire_xii_e_1() -> None:
    """003 XII.E.1.1 'If 2 units fire at each other, each gets a smoke marker which increases
    the level to 2' (reading smoke_on_line); default smoke_deduction: 1 a level."""
    firer = W.add_smoke(0)
    target = W.add_smoke(0)
    assert W.smoke_level(firer, target) == 2
    assert [W.smoke_deduction(k) for k in range(4)] == [0, 1, 2, 3]
    assert W.add_smoke(W.SMOKE_MAX) == W.SMOKE_MAX
    with pytest.raises(UmpireError):
        W.smoke_level(-1, 0)


# -- movement (XII.F) ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("troop", "formation", "mounted", "limbered", "inches"),
    [
        ("foot", "line", False, False, 9),  # F.1.1
        ("foot", "column", False, False, 12),  # F.1.2
        ("foot", "skirmish", False, False, 12),  # F.3.1
        ("cavalry", "line", True, False, 26),  # F.2.1
        ("cavalry", "column", True, False, 36),  # F.2.2
        ("cavalry", "line", False, False, 12),  # F.3.1: dismounted
        ("artillery", "line", False, True, 26),  # F.4.1
        ("artillery", "column", False, True, 36),  # F.4.2
        ("artillery", "line", False, False, 1),  # F.8.1: unlimbered, by hand
        ("officer", "line", True, False, 36),  # F.2.4
        ("officer", "line", False, False, 12),  # F.3.1
    ],
)
def test_movement_rates_xii_f(
    troop: str, formation: str, mounted: bool, limbered: bool, inches: float
) -> None:
    """003 XII.F.1-4, 8 (reading movement_troops): inches a turn less deductions."""
    assert MV.rate(troop, formation, mounted, limbered) == inches


def test_movement_costs_xii_f() -> None:
    """003 XII.F.1.3-4, 2.3, 5-7, 9 (reading movement_costs): prone 0, standing up 5,
    dismounting/mounting 2, limbering/unlimbering/fixing prolonge 14, into/from battery 12,
    both 26 = 14 + 12, changing front 0, prolonge to the rear 7, with fixing 21 = 14 + 7."""
    want = {
        "prone": 0, "stand_up": 5, "mount": 2, "dismount": 2, "limber": 14, "unlimber": 14,
        "fix_prolonge": 14, "into_battery": 12, "from_battery": 12, "battery": 12,
        "limber_and_battery": 26, "unlimber_into_battery": 26, "limber_from_battery": 26,
        "change_front": 0, "prolonge_rear": 7, "prolonge_with_fixing": 21,
    }  # fmt: skip
    assert {a: MV.cost(a) for a in MV.actions()} == want
    assert MV.cost("limber_and_battery") == MV.cost("limber") + MV.cost("battery")
    assert MV.cost("prolonge_with_fixing") == MV.cost("fix_prolonge") + MV.cost("prolonge_rear")


def test_movement_bad_input_xii_f() -> None:
    """003 XII.F: an unknown action, troop or formation is a one-line error naming the
    known ones."""
    with pytest.raises(UmpireError) as exc:
        MV.cost("gallop")
    one_line(exc, "unknown movement action 'gallop'", "stand_up", "into_battery")
    with pytest.raises(UmpireError) as exc:
        MV.rate("dragoon", "line")
    one_line(exc, "unknown troop type 'dragoon' (foot, cavalry, artillery, officer)")
    with pytest.raises(UmpireError) as exc:
        MV.rate("foot", "square")
    one_line(exc, "unknown formation 'square'")


def test_deductions_apply_xii_f_3() -> None:
    """003 XII.F.3: 'Skirmishers, Dismounted Cavalry, Dismounted Officers, Artillery Crew
    Serving a Gun ... Move 12 inches without deductions'."""
    assert MV.deductions_apply("foot", "line", False)
    assert MV.deductions_apply("foot", "column", False)
    assert not MV.deductions_apply("foot", "skirmish", False)
    assert MV.deductions_apply("cavalry", "line", True)
    assert not MV.deductions_apply("cavalry", "line", False)
    assert not MV.deductions_apply("officer", "line", False)
    assert MV.deductions_apply("artillery", "line", False)  # limbered unless told
    assert not MV.deductions_apply("artillery", "line", False, limbered=False)


# -- infantry fire, reactions and the addenda (XV, XVII) ------------------------------------------


def test_infantry_hits_on_the_rifle_stick() -> None:
    """Default infantry_fire (rules-notes 003): one d10 a piece; at 10" the rifle stick
    reads 6; with 1 deduction 0-5 hit; the musket stick is 6" long."""
    assert F.infantry_hits([0, 5, 6, 9], 10, 1) == 2
    assert F.infantry_hits([0, 1, 2], 27, 0) == 2  # the far end reads 1
    assert F.infantry_hits([0, 9], 2, 0, stick="musket") == 1  # 2": 4 on the musket stick
    assert F.infantry_hits([0, 1], 1, 9) == 1  # 9 less 9: a 0 still hits (a 0 counts as 0)
    assert F.infantry_hits([0, 0], 1, 10) == 0  # deductions past the number: nothing hits
    assert F.stick_length("rifle") == 27 and F.stick_length("musket") == 6


def test_infantry_fire_bad_input() -> None:
    """Default infantry_fire: beyond the stick there is no fire (a one-line error naming the
    distance and the stick's length); a face off the d10; an unknown stick."""
    with pytest.raises(UmpireError) as exc:
        F.infantry_hits([1, 2], 30, 0)
    one_line(exc, '30" is beyond the rifle stick (27")')
    with pytest.raises(UmpireError) as exc:
        F.infantry_odds(3, 7, 0, stick="musket")
    one_line(exc, '7" is beyond the musket stick (6")')
    with pytest.raises(UmpireError) as exc:
        F.infantry_hits([10], 3, 0)
    one_line(exc, "a d10 shows 0 to 9, not 10")
    with pytest.raises(UmpireError) as exc:
        F.infantry_hits([1], 3, 0, stick="bow")
    one_line(exc, "unknown stick 'bow' (musket, rifle)")


@pytest.mark.parametrize(
    ("pieces", "distance", "deductions"), [(1, 0, 0), (3, 10, 1), (3, 25, 0), (2, 4, 9)]
)
def test_infantry_odds_equal_brute_force(pieces: int, distance: float, deductions: int) -> None:
    """Default infantry_fire: the exact P(hits) equals enumeration of every roll."""
    want: dict[int, Fraction] = {}
    for roll in product(D10, repeat=pieces):
        k = F.infantry_hits(roll, distance, deductions)
        want[k] = want.get(k, Fraction(0)) + Fraction(1, 10**pieces)
    assert F.infantry_odds(pieces, distance, deductions) == want


def test_column_loses_double_xvii_a() -> None:
    """003 XVII.A: 'Units in Column Lose Double Casualties' (reading column_double)."""
    assert F.losses(3, "column") == 6
    assert F.losses(3, "line") == 3
    assert F.losses(0, "column") == 0


def test_fire_reactions_xv() -> None:
    """003 XV.1-3 (reading fire_reactions): skirmish fire: facings; infantry fire: none for a
    unit in reaction, the d6 list for a column, else the d10 list; artillery fire: the d6
    list even for a unit in reaction (XV.3's reference is the d6 list of XV.2.(3))."""
    assert F.fire_reaction("skirmish", "line", False) == "facing"
    assert F.fire_reaction("infantry", "line", True) == ""
    assert F.fire_reaction("infantry", "column", True) == ""
    assert F.fire_reaction("infantry", "column", False) == "d6"
    assert F.fire_reaction("infantry", "line", False) == "d10"
    for formation, in_reaction in product(("line", "column"), (False, True)):
        assert F.fire_reaction("artillery", formation, in_reaction) == "d6"
    with pytest.raises(UmpireError) as exc:
        F.fire_reaction("arrows", "line", False)
    one_line(exc, "unknown kind of fire 'arrows'")


def test_collision_reaction_xvii_d() -> None:
    """003 XVII.D 'roll 1 D10 for a reaction' (default collision_reaction): the d10 list of
    XIII.B.1: 1 retreat 9", 10 (a 0) nothing, odd withdraw 3", even fire."""
    assert [F.collision_reaction(f) for f in D10] == [M.reaction(f) for f in D10]
    assert F.collision_reaction(1) == ("retreat", 9)
    assert F.collision_reaction(0) == ("none", 0)
    with pytest.raises(UmpireError):
        F.collision_reaction(10)


# -- ammunition (XI.A) ---------------------------------------------------------------------------


def test_ammunition_per_gun_xi_a() -> None:
    """003 XI.A.1-4: 'yellow: 16 per gun', 'blue: 8 per gun', 'green: 4 per gun', 'red: 4
    per gun' (reading ammunition_per_gun)."""
    battery = AM.full(3)
    assert battery == [{"solid_shot": 16, "shell": 8, "case": 4, "canister": 4}] * 3
    assert AM.KINDS == ("solid_shot", "shell", "case", "canister")
    assert [AM.left(battery, k) for k in AM.KINDS] == [48, 24, 12, 12]
    assert AM.full(0) == []


def test_spending_ammunition_xi_a() -> None:
    """003 XI.A: a round fired comes off its gun (a new list, the old one unchanged);
    'Solid Shot/Bolt/Dud' is one round; an unknown type, a gun with none left and a gun the
    battery lacks are one-line errors."""
    battery = AM.full(2)
    after = AM.spend(battery, 1, "canister")
    assert battery[1]["canister"] == 4 and after[1]["canister"] == 3
    assert AM.left(after, "canister") == 7
    assert AM.spend(battery, 0, "bolt")[0]["solid_shot"] == 15
    assert AM.left(battery, "dud") == 32
    for _ in range(4):
        after = AM.spend(after, 0, "case")
    with pytest.raises(UmpireError) as exc:
        AM.spend(after, 0, "case")
    one_line(exc, "gun 1 has no case left")
    with pytest.raises(UmpireError) as exc:
        AM.spend(battery, 0, "grape")
    assert str(exc.value) == "unknown ammunition type 'grape' (solid_shot, shell, case, canister)"
    with pytest.raises(UmpireError) as exc:
        AM.spend(battery, 2, "shell")
    one_line(exc, "no gun 3: the battery has 2")


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 1), st.sampled_from(AM.KINDS)), max_size=60))
def test_ammunition_never_negative_xi_a(shots: list[tuple[int, str]]) -> None:
    """003 XI.A: whatever is fired, every count stays 0..its full load; a gun out of a kind
    refuses it."""
    battery = AM.full(2)
    for gun, kind in shots:
        try:
            battery = AM.spend(battery, gun, kind)
        except UmpireError:
            assert battery[gun][kind] == 0
    for g in battery:
        for k in AM.KINDS:
            assert 0 <= g[k] <= data()["ammunition"][k]


def test_every_label_cited_exists() -> None:
    """The defaults and readings the five modules cite are in data/labels.toml, each with
    its text, reason and source."""
    labels = {lab.id: lab for lab in load_labels(DATA / "labels.toml")}
    src = Path(O.__file__).parent
    cited: set[str] = set()
    for name in ("officers", "weather", "movement", "fire", "ammo"):
        text = (src / f"{name}.py").read_text(encoding="utf-8")
        cited |= set(re.findall(r"(?:default|reading)s? ``(\w+)``", text))
    assert len(cited) >= 15
    missing = cited - set(labels)
    assert not missing, missing
    assert all(labels[c].text and labels[c].reason and labels[c].source for c in cited)


# -- the table commands ------------------------------------------------------------------------


def test_resolve_rally_at_the_cli(capsys: pytest.CaptureFixture[str]) -> None:
    """003 XII.A: `umpire resolve rally --rules action-reaction --officers 3 --faces "3 3, 2
    5, 7 1"`: a tie rolled again, the men beat officer 1, officer 2 wins: it rallies; P 7/8.
    Rolled on a fresh seed, printed; bad faces are one line, exit 2."""
    from test_acw_cli import one_line_error, run

    args = ["resolve", "rally", "--rules", "action-reaction", "--officers", "3"]
    code, out, err = run(capsys, *args, "--faces", "3 3, 2 5, 7 1", "--json")
    assert code == 0, err
    res = json.loads(out)
    assert len(res["contests"]) == 3 and "tie" in res["contests"][0]
    assert res["result"] == "the unit rallies (officer 2)"
    assert res["odds"] == {"rallies": "7/8", "routs": "1/8"}
    code, out, err = run(capsys, *args, "--faces", "1 2, 1 2, 1 2")
    assert code == 0 and "routs the distance it did on the previous turn" in out
    code, out, err = run(capsys, *args, "--faces", "1 2", "--reaction", "--json")
    assert json.loads(out)["result"] == "undecided: officer 2 rolls next"
    seeds = set()
    for _ in range(2):
        code, out, err = run(capsys, *args, "--json")
        assert code == 0, err
        res = json.loads(out)
        seeds.add(res["seed"])
        assert res["contests"]
    assert len(seeds) == 2
    code, out, err = run(capsys, *args, "--faces", "7 1 2")
    one_line_error(code, out, err, "the dice go in pairs")
    code, out, err = run(capsys, *args, "--faces", "7 11")
    one_line_error(code, out, err, "11 is outside 0..9")
    code, out, err = run(capsys, *args, "--faces", "7 1, 2 3")
    one_line_error(code, out, err, "decided by pair 1; 1 more given")


def test_resolve_fog_at_the_cli(capsys: pytest.CaptureFixture[str]) -> None:
    """003 XII.D-E: the exact fog after two turns from 3 (1/4, 1/2, 1/4); a thinning roll; a
    new fog's thickness with its deductions; smoke; an impossible level is one line."""
    from test_acw_cli import one_line_error, run

    code, out, err = run(capsys, "resolve", "fog", "--level", "3", "--turns", "2", "--json")
    assert code == 0, err
    assert json.loads(out)["odds"] == {"fog 1": "1/4", "fog 2": "1/2", "fog 3": "1/4"}
    code, out, err = run(capsys, "resolve", "fog", "--level", "2", "--roll", "4", "--json")
    res = json.loads(out)
    assert (res["thins"], res["level"]) == (True, 1)
    assert res["deductions"] == {"fire": "-1 on the stick", "movement": '-1"'}
    code, out, err = run(capsys, "resolve", "fog", "--roll", "5", "--json")
    res = json.loads(out)
    assert res["thickness"] == 5 and sum(Fraction(v) for v in res["odds"].values()) == 1
    code, out, err = run(capsys, "resolve", "fog", "--json")
    assert code == 0 and "seed" in json.loads(out)
    code, out, err = run(capsys, "resolve", "fog", "--smoke", "--level", "2", "--roll", "3")
    assert code == 0 and "level: 2" in out
    code, out, err = run(capsys, "resolve", "fog", "--level", "9")
    one_line_error(code, out, err, "--level: fog is 0 to 6, not 9")
    code, out, err = run(capsys, "resolve", "fog", "--smoke", "--level", "7")
    one_line_error(code, out, err, "--level: smoke is 0 to 6, not 7")


def test_resolve_infantry_fire_at_the_cli(capsys: pytest.CaptureFixture[str]) -> None:
    """Default infantry_fire and 003 XVII.A: four pieces at 10" with 1 deduction against a
    column: faces 0 5 6 9 give 2 hits, no piece lost yet (default hits_per_piece: 3 hits a
    piece, as the battle counts them; issue 21), 3 hits 2 pieces; the odds sum to 1; beyond
    the stick and an unknown formation are one line, exit 2."""
    from test_acw_cli import one_line_error, run

    args = ["resolve", "infantry-fire", "--rules", "action-reaction", "--pieces", "4"]
    code, out, err = run(
        capsys, *args, "--distance", "10", "--deductions", "1", "--formation", "column",
        "--faces", "0 5 6 9", "--json",
    )  # fmt: skip
    assert code == 0, err
    res = json.loads(out)
    assert (res["stick"], res["hits_on_target"]) == (6, 2)
    assert res["target_losses"].startswith("the target loses 0 pieces (2 hits;")
    assert res["reaction"].startswith("1d6")
    assert sum(Fraction(v) for v in res["odds"].values()) == 1
    assert res["odds"]["2 hits, 0 pieces lost"] == "216/625"  # C(4,2) (3/5)^2 (2/5)^2
    assert res["odds"]["3 hits, 2 pieces lost"] == "216/625"  # C(4,3) (3/5)^3 (2/5)
    code, out, err = run(capsys, *args, "--distance", "5", "--json")
    assert code == 0 and len(json.loads(out)["roll"]) == 4
    code, out, err = run(capsys, *args, "--distance", "30")
    one_line_error(code, out, err, '30" is beyond the rifle stick (27")')
    code, out, err = run(capsys, *args, "--distance", "5", "--formation", "square")
    one_line_error(code, out, err, "unknown formation 'square'")
    code, out, err = run(capsys, *args, "--distance", "5", "--faces", "1 2")
    one_line_error(code, out, err, "--faces: got 2 faces in '1 2' (expected 4 faces")


def test_resolve_officer_loss_at_the_cli(capsys: pytest.CaptureFixture[str]) -> None:
    """003 XVII.B and XII.C (default officer_wounds): two officers both removed (4 then 17,
    6 then 20); with none left the senior captain's 8 restores one; P(one removed) 3/20."""
    from test_acw_cli import one_line_error, run

    args = ["resolve", "officer-loss", "--rules", "action-reaction"]
    code, out, err = run(capsys, *args, "--faces", "4 17, 6 20", "--captain", "8", "--json")
    assert code == 0, err
    res = json.loads(out)
    assert (res["officers"], res["removed"], res["left"]) == (2, 2, 0)
    assert res["captain"] == "8: the senior captain takes command"
    assert res["p_one_removed"] == "3/20"
    assert res["odds"] == {"0 removed": "289/400", "1 removed": "51/200", "2 removed": "9/400"}
    code, out, err = run(capsys, *args, "--faces", "3, 2 14, 5", "--json")
    res = json.loads(out)
    assert res["removed"] == 0 and "wounded, stays" in res["checks"][1]
    code, out, err = run(capsys, *args, "--json")
    res = json.loads(out)
    assert code == 0 and "seed" in res and len(res["checks"]) == 3
    code, out, err = run(capsys, *args, "--faces", "3 12")
    one_line_error(code, out, err, "a d20 only after an even d6")
    code, out, err = run(capsys, *args, "--officers", "3", "--faces", "3, 5")
    one_line_error(code, out, err, "--faces: 3 officers, not 2")


def test_resolve_terrain_at_the_cli_xvi(capsys: pytest.CaptureFixture[str]) -> None:
    """003 XVI.F 'Stone wall: Movement deduction, roll 1D10. Firing deduction, roll 1D6'
    and XVI.C downhill (1D6 halved added): with 6" left, a stone wall stalls the regiment on
    7, 8, 9 and the 0 (10): 4 in 10 by hand; the faces typed give the trace; a die a
    terrain does not roll and an unknown terrain are one line, exit 2."""
    from test_acw_cli import one_line_error, run

    base = ["resolve", "terrain", "--rules", "action-reaction"]
    code, out, err = run(
        capsys, *base, "stone_wall", "--left", "6", "--face", "4", "--fire-face", "5", "--json"
    )
    assert code == 0, err
    res = json.loads(out)
    assert (res["left"], res["stalled"], res["fire_deduction"]) == (2.0, False, 5)
    assert res["odds"]["stalled"] == "2/5"
    assert sum(Fraction(v) for v in res["odds"].values()) == 1
    code, out, err = run(capsys, *base, "stone_wall", "--left", "6", "--face", "0", "--json")
    assert json.loads(out)["stalled"] is True  # a 0 on the d10 reads 10, more than 6
    code, out, err = run(capsys, *base, "downhill", "--left", "6", "--face", "5", "--json")
    res = json.loads(out)
    assert (res["left"], res["deduction"]) == (9.0, "+3")  # 5 halved rounds up to 3
    assert res["movement"] == 'gains 3"'  # issue 20: a terrain loss or gain in words
    assert res["odds"] == {'7" left': "1/3", '8" left': "1/3", '9" left': "1/3"}
    code, out, err = run(capsys, *base, "stone_wall", "--left", "6", "--json")
    assert code == 0 and "seed" in json.loads(out)  # rolled on a fresh seed, printed
    code, out, err = run(capsys, *base, "woodlot", "--left", "6", "--face", "3")
    one_line_error(code, out, err, "--face: woodlot rolls no movement die")
    code, out, err = run(capsys, *base, "marsh", "--left", "6")
    one_line_error(code, out, err, "unknown terrain 'marsh'")
