"""``umpire report RUN -o FILE``: a stored lab run as one self-contained HTML file whose
numbers are the run's own (issue 11, "umpire report"); bad input is one line, exit 2,
and leaves no file behind."""

from __future__ import annotations

import base64
import re
import sqlite3
from collections import Counter
from pathlib import Path

import pytest

from umpire.cli.main import main
from umpire.lab.results import load_run


@pytest.fixture(scope="module")
def run_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A small A/B run of the standard scenario (batch path, one process) in a save file."""
    db = tmp_path_factory.mktemp("lab") / "lab.db"
    code = main(
        [
            "--db",
            str(db),
            "simulate",
            "standard",
            "-n",
            "80",
            "--seed",
            "11",
            "--workers",
            "1",
            "--vary",
            "quick-acw.sides.union.morale=7",
        ]
    )
    assert code == 0
    return db


def report(db: Path, out: Path, run: str = "latest") -> int:
    return main(["--db", str(db), "report", run, "-o", str(out), "--luck", "0"])


def test_report_holds_the_runs_own_numbers_and_charts(run_db: Path, tmp_path: Path) -> None:
    out = tmp_path / "report.html"
    assert report(run_db, out) == 0
    html = out.read_text(encoding="utf-8")
    conn = sqlite3.connect(run_db)
    run = load_run(conn, 1)
    # win rates: counted here from the stored battles, found in each arm's table
    for k, recs in enumerate(run.battles):
        wins = Counter(r["winner"] for r in recs)
        for side in ("confederate", "union"):
            cell = f"<td>{side} wins</td><td>{wins[side]}</td><td>{100 * wins[side] / 80:.2f}%</td>"
            assert cell in html, (k, side)
    # the A/B table: each difference with its interval and whether it is significant
    diff = run.summary["compare"][0]["win_rate"]["union"]
    assert f"{100 * diff['diff']:+.2f} points" in html
    assert "yes" in html or "no" in html
    # charts are PNGs inside the file; nothing is fetched from elsewhere
    images = re.findall(r'src="data:image/png;base64,([^"]+)"', html)
    assert len(images) >= 6
    assert all(base64.b64decode(i)[:8] == b"\x89PNG\r\n\x1a\n" for i in images)
    assert not re.search(r'(src|href)="(https?:)?//', html)
    # a battle to look at, with the command that plays it again
    shortest = min(run.battles[0], key=lambda r: (r["turns"], r["i"]))
    assert f"umpire battle standard --seed {shortest['seed']} --no-save" in html


def test_report_refuses_bad_input_in_one_line(
    run_db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "r.html"
    for run, target, words in (
        ("99", out, "no lab run 99"),
        ("first", out, "a run is a number or 'latest'"),
        ("1", tmp_path / "missing" / "r.html", "does not exist"),
    ):
        capsys.readouterr()
        assert report(run_db, target, run) == 2
        err = capsys.readouterr().err
        assert words in err and err.count("\n") == 1, err
        assert not target.exists()
    # an interrupted run (never marked complete) is not reported
    conn = sqlite3.connect(run_db)
    conn.execute(
        "INSERT INTO lab_runs(created, scenario, n, seed, arms, config) "
        "VALUES('2026-01-01', 'standard', 10, 1, '[]', '{}')"
    )
    conn.commit()
    rid = conn.execute("SELECT max(id) FROM lab_runs").fetchone()[0]
    assert report(run_db, out, str(rid)) == 2
    assert "did not finish" in capsys.readouterr().err
    assert not out.exists()
    assert not list(tmp_path.glob(".umpire-*"))  # no half-written file left behind


def test_report_of_a_scalar_run_lists_every_event_that_fired(tmp_path: Path) -> None:
    """Seed 001's events (mcpherson_cards, scalar path): each event the battles counted is
    in the report with the share of battles it fired in, and charted."""
    db, out = tmp_path / "lab.db", tmp_path / "cards.html"
    args = ["--db", str(db), "simulate", "mcpherson_cards", "-n", "6", "--seed", "4"]
    assert main([*args, "--workers", "1"]) == 0
    assert report(db, out) == 0
    html = out.read_text(encoding="utf-8")
    run = load_run(sqlite3.connect(db), 1)
    fired = Counter(e for r in run.battles[0] for e, k in r["events"].items() if k)
    assert fired, "no event fired in six battles: pick another seed"
    for name, battles in fired.items():
        assert f"<td>{name}</td><td>{100 * battles / 6:.2f}%</td>" in html, name
    # results, turns, stands lost, leaders lost, events (no side broke: no chart of it)
    assert "<h2>Distributions</h2>" in html and html.count("data:image/png") >= 5


def test_luck_section_replays_batch_battles_on_the_scalar_engine(
    run_db: Path, tmp_path: Path
) -> None:
    """Issue 24, the lab report's luck section: a batch-path run's battles (the shipped rules
    and a variant) played again from their seeds on the scalar engine with the tallies on
    reach the run's records, and the section says how many were played."""
    out = tmp_path / "luck.html"
    assert main(["--db", str(run_db), "report", "latest", "-o", str(out), "--luck", "6"]) == 0
    html = out.read_text(encoding="utf-8")
    assert "<h2>Luck</h2>" in html and "The first 6 battles of each arm" in html
    assert html.count("<td>6 of 80</td>") == 2
    assert html.count("all reached the run&#x27;s record") == 2
