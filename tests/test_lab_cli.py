"""``umpire lab battles``: the batch simulator at the command line."""

from __future__ import annotations

import json

import pytest

from umpire.cli.main import main


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_lab_battles_json(capsys: pytest.CaptureFixture[str]) -> None:
    """--json: win rates with 95% intervals, turns and losses per side; the same seed repeats."""
    code, out, err = run(
        capsys,
        "lab",
        "battles",
        "mcpherson_ridge",
        "--n",
        "150",
        "--seed",
        "4",
        "--batch",
        "64",
        "--json",
    )
    assert code == 0, err
    res = json.loads(out)
    assert res["battles"] == 150 and res["seed"] == 4 and res["batch"] == 64
    results = res["results"]
    assert sum(v["wins"] for v in results.values()) == 150
    for v in results.values():
        lo, hi = v["ci95"]
        assert 0 <= lo <= v["rate"] <= hi <= 1
    assert res["turns"]["ci95"][0] <= res["turns"]["mean"] <= res["turns"]["ci95"][1] <= 8
    assert set(res["stands_lost"]) == {"confederate", "union"}
    assert res["dice"] > 0 and "SeededSource" in res["dice_source"]
    again = json.loads(
        run(
            capsys,
            "lab",
            "battles",
            "mcpherson_ridge",
            "--n",
            "150",
            "--seed",
            "4",
            "--batch",
            "64",
            "--json",
        )[1]
    )
    assert again["results"] == results and again["stands_lost"] == res["stands_lost"]


def test_lab_battles_text_with_a_random_seed(capsys: pytest.CaptureFixture[str]) -> None:
    """Text: one line per result with its interval, the seed drawn at random and printed."""
    code, out, err = run(capsys, "lab", "battles", "mcpherson_ridge", "--n", "60")
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0].startswith("mcpherson_ridge: 60 battles, AI against AI, seed ")
    assert "drawn at random" in lines[0]
    assert any(line.strip().startswith("union wins") and "95% CI" in line for line in lines)
    assert any("turns" in line for line in lines) and "battles/s" in lines[-1]


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (("lab", "battles", "no_such_scenario"), "no scenario 'no_such_scenario'"),
        (("lab", "battles", "standard", "--n", "0"), "--n must be"),
        (("lab", "battles", "standard", "--seed", "-2"), "--seed must be"),
        (("lab", "battles", "standard", "--batch", "-1"), "--batch must be"),
    ],
)
def test_lab_bad_input_one_line(
    capsys: pytest.CaptureFixture[str], args: tuple[str, ...], needle: str
) -> None:
    """Bad input: exit 2 and one line on stderr."""
    code, _out, err = run(capsys, *args)
    assert code == 2 and err.startswith("umpire: error: ") and err.count("\n") == 1, err
    assert needle in err
