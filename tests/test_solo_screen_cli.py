"""Solo play worth an evening, the screen (issue 23): a briefing, the sides apart, what the
enemy did, ``why``, the result in words, and a resume that gives the person their side back.

Played on the shipped ``stone_wall`` (seed 003, Action/Reaction) with the Union at the
prompt and seed 5: its first three turns take 18 orders when every one is ``hold`` (the
AI moves first).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from test_acw_cli import feed, run

HOLDS_FOR_THREE_TURNS = 18


def test_briefing_three_turns_why_status_quit_and_resume_keeps_the_side(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 23 'Done when': a terminal test drives a solo battle through the briefing,
    three turns, `why`, `status`, quit and resume (the person keeps their side)."""
    answers = ["why 2", "?", "status", *["hold"] * HOLDS_FOR_THREE_TURNS, "quit"]
    asked = feed(monkeypatch, answers)
    code, out, err = run(capsys, "battle", "stone_wall", "--seed", "5", "--human", "union")
    assert code == 0, err
    assert len(asked) == len(answers)
    # The briefing, before the first order: situation, forces, objectives, victory, the
    # turn limit and a picture of the field saved, its path printed.
    brief = out[: out.index("20th Maine (foot, line) at")]  # the first menu
    assert "Briefing: The stone wall at dawn" in brief and "Situation: A regiment-scale" in brief
    assert "Union, defending (breaks when 50% of its 3 units are lost): 20th Maine" in brief
    assert (
        "Confederate, attacking" in brief and "Texas cavalry squadron (cavalry, 3 stands)" in brief
    )
    assert "The stone wall at (18, 10)" in brief and "end of turn 12 (the turn limit)" in brief
    picture = re.search(r"The field: (\S+\.svg)", brief)
    assert picture is not None and Path(picture.group(1)).is_file()
    assert "20th Maine" in Path(picture.group(1)).read_text()
    # why 2: the allowance and what cut it, from the role (seed 003 XII.F, the fog XII.D).
    allowance = '20th Maine may move 8": 9" in line (XII.F.1.1) less 1" for fog (thickness 1'
    assert allowance + ", XII.D)" in out
    assert "not yet known for any order: the dice themselves" in out
    # ?: every entry explained; a charge's odds said with every modifier known now.
    assert "odds worked out with every modifier known now: the chance a charge makes" in out
    # status: the full table, each side apart.
    assert re.search(r"side\s+.*unit", out) and "Confederate" in out
    # Each side apart in a line at each phase, and what the enemy did before a prompt.
    assert "Confederate: 5 units, 24/24 stands | Union: 3 units, 16/16 stands" in out
    assert "What the enemy did since your last order:\n  " in out
    assert 'order:\n  15th Alabama fires at 20th Maine (9.8"' in out
    # Three turns played, then quit at the first Union prompt of turn 4.
    assert "Turn 3" in out and "Turn 4" in out and "Turn 5" not in out
    assert "play on with: umpire battle --resume battle-stone_wall-5" in out
    # Resume with no player named: the Union is the person's again (not the AI's).
    asked = feed(monkeypatch, ["why 1", "hold", "quit"])
    code, out, err = run(capsys, "battle", "--resume", "battle-stone_wall-5")
    assert code == 0, err
    assert "(confederate ai, union human)" in out
    assert asked and asked[0].startswith("union ") and len(asked) == 3
    assert "Briefing: The stone wall at dawn" in out and "The field:" not in out
    # --human on resume changes it, and the change is kept for the next resume.
    asked = feed(monkeypatch, ["quit"])
    code, out, _ = run(
        capsys, "battle", "--resume", "battle-stone_wall-5", "--human", "confederate"
    )
    assert "(confederate human, union ai)" in out and asked[0].startswith("confederate ")
    code, out, err = run(
        capsys, "battle", "--resume", "battle-stone_wall-5", "--ai", "union,confederate", "--json"
    )
    assert code == 0, err
    assert json.loads(out)["players"] == {"confederate": "ai", "union": "ai"}
    assert run(capsys, "games", "verify", "battle-stone_wall-5")[0] == 0


def test_result_in_words_not_a_dict(capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 23: 'The result in words ("Union holds 3 objectives of 3: Union victory;
    losses 7 stands to 1"), never a Python dict.'"""
    code, out, err = run(capsys, "battle", "stone_wall", "--seed", "5", "--no-save")
    assert code == 0, err
    result = next(line for line in out.splitlines() if line.startswith("Result: "))
    assert "{" not in result and "victory after" in result and "losses: Confederate" in result
    assert "{" not in "\n".join(ln for ln in out.splitlines() if ln.startswith("Turn limit"))
    code, out, err = run(capsys, "battle", "mcpherson_ridge", "--seed", "3", "--no-save")
    result = next(line for line in out.splitlines() if line.startswith("Result: "))
    assert "{" not in result and ("objective points" in result or "army breaks" in result)


def test_readme_lists_every_shipped_scenario() -> None:
    """Issue 23: 'The README lists every shipped scenario (two ship that it does not name).'"""
    from umpire.scenarios import shipped

    readme = (Path(__file__).parents[1] / "README.md").read_text(encoding="utf-8")
    for name in shipped():
        assert f"| `{name}` |" in readme, name


def test_why_says_the_allowance_and_the_modifiers_in_seed_002(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Seed 002 MOVEMENT: 'change formation' costs half a move; FIRE: the number needed
    and each modifier. `?` says them from the quick-acw role's ``explain`` (issue 23:
    'may move 5": 6" less 1" for a formation change')."""
    feed(monkeypatch, [*["?", "1"] * 10, "quit"])
    code, out, err = run(capsys, "battle", "mcpherson_ridge", "--seed", "5", "--human", "union")
    assert code == 0, err
    assert (
        '2nd Wisconsin may move 3" in the open: foot line: 6" open less change of formation '
        "x0.5 (002 MOVEMENT)"
    ) in out
    assert re.search(
        r"needs 11\+ on 2d6 at [0-9.]+\" \(002 FIRE, the range band\), modifiers "
        r"target is artillery -1, Union firing \+1",
        out,
    )
