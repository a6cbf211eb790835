"""Issue 21, "Hard edges for files and expressions": dice notation's nesting limit and the
cost limit of exact odds, checked before any work, refused in one line everywhere (the
library, ``umpire odds dice`` and the web table's dice book).

The issue's text: "500 nested parentheses crash the parser; `umpire odds dice 100d1000`
runs for minutes, `6d666` 49 s, `10d1000kh3` crashes inside icepool with RecursionError."
"""

from __future__ import annotations

import sys
from datetime import timedelta

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from umpire.dice import parse
from umpire.dice.distribution import MAX_ODDS_COST, check_odds_cost, odds_cost
from umpire.dice.notation import MAX_NESTING, nesting_depth
from umpire.errors import IllegalActionError, NotationError, UmpireError


def _one_line_refusal(exc: BaseException, *fragments: str) -> str:
    message = str(exc)
    assert "\n" not in message
    assert len(message) < 300
    for fragment in fragments:
        assert fragment in message, message
    return message


def test_issue21_500_nested_parentheses_refused_in_one_line() -> None:
    """'500 nested parentheses crash the parser': now a NotationError naming the limit."""
    text = "(" * 500 + "d6" + ")" * 500
    with pytest.raises(NotationError) as info:
        parse(text)
    _one_line_refusal(info.value, f"more than {MAX_NESTING} deep", "column 21")


def test_issue21_nesting_limit_is_exact() -> None:
    """20 levels of parentheses or divisions parse; the 21st is refused."""
    deep = "(" * MAX_NESTING + "d6+1" + ")" * MAX_NESTING
    assert str(parse(deep)) == "d6+1"
    with pytest.raises(NotationError):
        parse("(" + deep + ")")
    twenty = parse("d6" + "/2" * MAX_NESTING)
    assert nesting_depth(twenty) == MAX_NESTING
    with pytest.raises(NotationError) as info:
        parse("d6" + "/2" * (MAX_NESTING + 1))
    _one_line_refusal(info.value, f"at most {MAX_NESTING} divisions")
    assert nesting_depth(parse("((d6+1)/2+1)/2")) == 2


@pytest.mark.parametrize(
    "text", ["100d1000", "6d666", "10d1000kh3", "2d1000kh1", "d1000+d1000+d1000+d1000"]
)
def test_issue21_costly_exact_odds_refused_before_any_work(text: str) -> None:
    """'100d1000 runs for minutes, 6d666 49 s, 10d1000kh3 RecursionError': refused at once."""
    expr = parse(text)  # rolling them stays allowed
    assert odds_cost(expr) > MAX_ODDS_COST
    with pytest.raises(NotationError) as info:
        expr.distribution()
    _one_line_refusal(info.value, repr(text), f"{MAX_ODDS_COST:,}")


def test_issue21_allowed_odds_are_still_exact() -> None:
    """The everyday expressions keep their exact odds under the limit."""
    for text in ("2d6", "4d6kh3", "2d20kh1", "d66", "9d10<=6", "100d6", "(2d6+1)/2>=4"):
        expr = parse(text)
        assert odds_cost(expr) <= MAX_ODDS_COST
        check_odds_cost(expr)
        assert sum(p for _, p in expr.distribution().outcomes) == 1


def test_issue21_kept_dice_with_many_faces_need_no_deep_stack() -> None:
    """'10d1000kh3 crashes inside icepool with RecursionError': icepool's pools recurse once
    per face; the odds get room for that, so an allowed pool never hits the limit."""
    import traceback

    expr = parse("2d180kh1")
    assert odds_cost(expr) <= MAX_ODDS_COST
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(len(traceback.extract_stack()) + 120)  # a caller already deep
    try:
        dist = expr.distribution()
    finally:
        sys.setrecursionlimit(old)
    assert dist.max == 180 and dist.min == 1


def test_issue21_umpire_odds_dice_refuses_in_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    """`umpire odds dice 6d666`: exit 2 and one line naming the expression and the limit."""
    from umpire.cli.main import main

    assert main(["odds", "dice", "6d666"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("umpire: error: '6d666': exact odds")
    assert f"{MAX_ODDS_COST:,}" in err
    assert main(["odds", "dice", "(" * 30 + "d6" + ")" * 30]) == 2
    assert "at most 20 levels" in capsys.readouterr().err


def test_issue21_web_table_uses_the_same_limits() -> None:
    """The web table's dice book refuses the same expressions, in one line, before logging."""
    from umpire.web.book_table import odds, params_for

    for text in ("6d666", "(" * 25 + "d6" + ")" * 25):
        with pytest.raises(IllegalActionError) as info:
            params_for("roll", {"expr": text})
        _one_line_refusal(info.value, "roll: ")
    with pytest.raises(IllegalActionError):
        odds("10d1000kh3")
    assert odds("2d6")["rows"][0]["value"] == 2


_ATOM = st.one_of(
    st.integers(0, 12).map(str),
    st.builds(
        lambda n, s, k: f"{n}d{s}{k}",
        st.sampled_from(["", "1", "2", "3", "6", "10", "30", "100", "101"]),
        st.sampled_from(["1", "2", "6", "10", "20", "66", "100", "300", "1000", "1001", "0"]),
        st.sampled_from(["", "", "kh", "kl1", "kh3", "kl2"]),
    ),
)


def _expressions() -> st.SearchStrategy[str]:
    def extend(inner: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
        return st.one_of(
            st.builds(lambda a, op, b: f"{a}{op}{b}", inner, st.sampled_from("+-"), inner),
            st.builds(lambda a: f"({a})", inner),
            st.builds(lambda a, d: f"{a}{d}", inner, st.sampled_from(["/2", "//3", "/1"])),
            st.builds(
                lambda a, c: f"{a}{c}", inner, st.sampled_from([">=8", "<=6", "=6", "<3", ">-1"])
            ),
        )

    structured = st.recursive(_ATOM, extend, max_leaves=12)
    noise = st.text(alphabet="0123456789dDkhl+-/()<>= ", max_size=40)
    deep = st.integers(15, 600).map(lambda n: "(" * n + "d6" + ")" * n)
    return st.one_of(structured, structured, noise, deep)


@settings(
    max_examples=80,
    deadline=timedelta(seconds=15),
    suppress_health_check=[HealthCheck.too_slow],
)
@given(_expressions())
def test_issue21_random_expressions_parse_and_odds_or_refuse(text: str) -> None:
    """Random notation: a value or a one-line NotationError; allowed odds are computed (each
    example has a deadline), refused ones are refused before icepool runs. Never a
    RecursionError or a hang."""
    try:
        expr = parse(text)
    except NotationError as exc:
        _one_line_refusal(exc)
        return
    assert nesting_depth(expr) <= MAX_NESTING
    if odds_cost(expr) > MAX_ODDS_COST:
        with pytest.raises(NotationError) as info:
            expr.distribution()
        _one_line_refusal(info.value, "exact odds")
        return
    try:
        dist = expr.distribution()
    except UmpireError as exc:  # pragma: no cover - no other refusal is expected
        pytest.fail(f"{text!r}: unexpected refusal {exc}")
    assert sum(p for _, p in dist.outcomes) == 1


def test_issue21_a_pick_among_too_many_options_names_the_options(
    capsys: pytest.CaptureFixture[str], _private_db: object
) -> None:
    """A pick rolls one die with a side per option: more options than a die has sides
    (docs/dice.md, at most 1000) is refused in the words of a pick, not of a die the player
    never typed ('d1001': at most 1000 sides); nothing is saved, and 1000 still picks."""
    from umpire.cli.main import main

    assert main(["session", "new", "b", "--seed", "1"]) == 0
    capsys.readouterr()
    many = [str(i) for i in range(1, 1002)]
    assert main(["session", "pick", "b", *many]) == 2
    err = capsys.readouterr().err
    assert err == (
        "umpire: error: a pick is among at most 1000 options, not 1001 (for more, make a deck "
        "and draw from it)\n"
    )
    assert main(["session", "pick", "b", *many[:1000]]) == 0
    assert "random pick" in capsys.readouterr().out
