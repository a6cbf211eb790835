"""``umpire odds MODULE NAME --solve PARAM --target T [--outcome NAME]`` (issue 24, "In the
laboratory": "what modifier makes this 50%?"), checked against a brute-force scan of the
parameter's legal values for every integer parameter of every module with exact odds."""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Any

import pytest

from umpire.cli.main import main
from umpire.lab import solve as S
from umpire.rules.odds import Odds, Param, Resolution, find, outcomes, resolutions

CASES = [(r, p) for r in resolutions() for p in r.params if p.kind == "int"]


def cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def brute(
    r: Resolution, param: str, stage: str, target: Fraction, fixed: dict[str, Any] | None = None
) -> tuple[int, Fraction]:
    """Every legal value tried: the one whose chance of outcomes starting with ``stage`` (or
    labelled so) is nearest ``target``; on a tie the nearest the default, then the smaller."""
    p = next(q for q in r.params if q.name == param)
    home = int(p.default)
    best: tuple[tuple[Fraction, int, int], int, Fraction] | None = None
    for v in range(int(p.lo), int(p.hi) + 1):  # type: ignore[arg-type]
        c = brute_chance(r, param, v, stage, fixed)
        key = (abs(c - target), abs(v - home), v)
        if best is None or key < best[0]:
            best = (key, v, c)
    assert best is not None
    return best[1], best[2]


def brute_chance(
    r: Resolution, param: str, v: int, stage: str, fixed: dict[str, Any] | None = None
) -> Fraction:
    """The chance of the outcomes whose first stage (or label) is ``stage``, summed."""
    outs = r.odds({**(fixed or {}), param: v}).outcomes
    return sum((o.p for o in outs if stage in ((o.path or (o.label,))[0], o.label)), Fraction(0))


def test_every_module_with_exact_odds_and_an_integer_parameter_is_covered() -> None:
    """At least one resolution of each module that has exact odds and integer parameters."""
    assert {r.module for r, _ in CASES} >= {
        "quick-acw",
        "action-reaction",
        "sequence-cards",
        "cwb-events",
    }


@pytest.mark.parametrize(("r", "p"), CASES, ids=[f"{r.qualified}:{p.name}" for r, p in CASES])
@pytest.mark.parametrize("target", [Fraction(1, 2), Fraction(1, 5), Fraction(9, 10)])
def test_solve_is_the_brute_force_scan(r: Resolution, p: Param, target: Fraction) -> None:
    """Issue 24: 'the integer value of PARAM whose chance of OUTCOME is nearest the target,
    with the chances of the values either side': equal to trying every legal value, for the
    first stage of every outcome the default parameters give."""
    stages = {(o.path or (o.label,))[0] for o in r.odds({}).outcomes}
    for stage in sorted(stages)[:6]:
        got = S.solve(r, p.name, {}, float(target), stage)
        value, chance = brute(r, p.name, stage, got.target)
        assert (got.value, got.chance) == (value, chance), stage
        around = [v for v in (value - 1, value, value + 1) if p.lo <= v <= p.hi]  # type: ignore[operator]
        assert [v for v, _ in got.chances] == around
        for v, c in got.chances:
            assert c == brute_chance(r, p.name, v, stage)


@pytest.mark.parametrize(
    ("module", "name", "param", "outcome"),
    [
        ("sequence-cards", "status", "needed", "miss"),
        ("sequence-cards", "status", "modifier", "miss"),
        ("action-reaction", "fire", "pieces", "0 hits"),
        ("action-reaction", "h2h", "attacker", "the defender backs (attacker wins)"),
        ("quick-acw", "melee", "a_stands", "attacker wins"),
    ],
)
def test_bisection_agrees_with_the_scan_where_the_chance_moves_one_way(
    monkeypatch: pytest.MonkeyPatch, module: str, name: str, param: str, outcome: str
) -> None:
    """The search used for wide or unbounded ranges finds the scan's answer on monotone
    chances (a modifier's, a count of pieces or stands)."""
    r = find(name, module)
    for target in (0.05, 0.3, 0.5, 0.77, 0.99):
        want = S.solve(r, param, {}, target, outcome)
        monkeypatch.setattr(S, "SCAN_MAX", 1)
        got = S.solve(r, param, {}, target, outcome)
        monkeypatch.undo()
        assert got.method == "bisection" and want.method == "scan"
        assert (got.value, got.chances) == (want.value, want.chances), target


def two_d6(values: Any) -> Odds:
    """2d6 + modifier against 8: pass or fail (a test resolution, unbounded modifier)."""
    mod = int(values["modifier"])
    ways = sum(1 for a in range(1, 7) for b in range(1, 7) if a + b + mod >= 8)
    p = Fraction(ways, 36)
    return Odds("2d6+mod vs 8", outcomes({"pass": p, "fail": 1 - p}), ())


def test_an_unbounded_parameter_is_searched_in_a_wide_window() -> None:
    """A parameter with no range is searched by bisection up to WINDOW from its default:
    the answer equals a scan of -20..20 (outside it the chance is 0 or 1)."""
    r = Resolution(
        "test", "roll", "none", "2d6", (Param("modifier", "int", 0, "a modifier"),), two_d6
    )
    for target in (0.5, 0.1, 0.0, 1.0, 0.99):
        got = S.solve(r, "modifier", {}, target, "pass")
        assert got.method == "bisection" and got.lo == -S.WINDOW and got.hi == S.WINDOW
        want = Fraction(target)

        def key(v: int, want: Fraction = want) -> tuple[Fraction, int, int]:
            c = two_d6({"modifier": v}).outcomes[0]
            p = c.p if c.label == "pass" else Fraction(0)
            return (abs(p - want), abs(v), v)

        # outside -20..20 the chance is 0 or 1: the plateaus' ends nearest 0 are inside
        assert got.value == min(range(-20, 21), key=key), target


def test_cli_text_and_json(capsys: pytest.CaptureFixture[str]) -> None:
    """The answer in words (the value, its chance, the values either side, how it was
    searched) and as JSON."""
    code, out, err = cli(
        capsys, "odds", "sequence-cards", "status", "--solve", "modifier", "--outcome", "miss"
    )
    assert code == 0, err
    assert "--modifier 0 gives 'miss' 41.67% (5/12), the nearest to 50.00%" in out
    assert "--modifier -1" in out and "--modifier 1 " in out and "every value -20 to 20" in out
    code, out, err = cli(
        capsys, "odds", "quick-acw", "charge", "--solve", "leader", "--target", "0.7",
        "--outcome", "charge goes in", "--target-leader", "1", "--json",
    )  # fmt: skip
    assert code == 0, err
    data = json.loads(out)
    assert data["solve"] == "leader" and data["params"]["target_leader"] == 1
    r = find("charge", "quick-acw")
    value, chance = brute(r, "leader", "charge goes in", Fraction(7, 10), {"target_leader": 1})
    assert (data["value"], data["p"]) == (value, f"{chance.numerator}/{chance.denominator}")
    code, out, err = cli(capsys, "odds", "quick-acw", "fire", "--target", "cavalry")
    assert code == 0, err  # fire's own --target (the unit fired at) keeps its name


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["quick-acw", "charge", "--solve", "marker"], "is a bool parameter, not an integer"),
        (["quick-acw", "charge", "--solve", "nope"], "not a parameter of quick-acw charge"),
        (["quick-acw", "fire", "--solve", "range"], "has no integer parameter"),
        (["quick-acw", "charge", "--solve", "leader", "--outcome", "zzz"], "known: 'charge fails'"),
        (["quick-acw", "charge", "--solve", "leader", "--target", "1.5"], "between 0 and 1"),
        (["quick-acw", "charge", "--solve", "leader", "--target", "-0.1"], "between 0 and 1"),
        (["quick-acw", "charge", "--target", "0.2"], "go with --solve PARAM"),
        (["quick-acw", "fire", "--solve-target", "0.2"], "go with --solve PARAM"),
    ],
)
def test_bad_input_is_one_line(
    capsys: pytest.CaptureFixture[str], args: list[str], words: str
) -> None:
    """PARAM not an integer parameter, an unknown OUTCOME (the known ones listed), a target
    outside 0..1: one line, exit 2, no traceback."""
    code, _, err = cli(capsys, "odds", *args)
    assert code == 2 and words in err and err.count("\n") == 1, err
