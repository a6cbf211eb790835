"""Issue 24, luck in the lab: the lab report's luck section (``umpire report --luck N``) and
the after-action report's "whether the result would likely have changed with average dice
(from the lab)".

The numbers are recounted here by brute force: each battle played again on its own, its
tallies collected by a plain loop, each side's total per kind distributed by a naive sum
over every outcome (not ``umpire.dice.luck.convolve``), the mid-rank percentiles weighted
by rolls (reading ``luck_side``), and the counts made again.
"""

from __future__ import annotations

import sqlite3
import statistics
from collections.abc import Mapping, Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from umpire.ai import make_policy
from umpire.battle.engine import Recorder
from umpire.battle.game import battle_from
from umpire.battle.run import new_battle, play
from umpire.battle.scenario import load_scenario
from umpire.cli.main import main
from umpire.dice import SeededSource
from umpire.dice.luck import Tally
from umpire.lab import battle_seed, wilson
from umpire.lab.luck import AVERAGE_BAND, average_dice, average_seed
from umpire.lab.results import load_run
from umpire.store import Store

SIDES = ("confederate", "union")


def _tallies(
    scen: Any, seed: int, state: Mapping[str, Any] | None = None
) -> tuple[str, list[Tally]]:
    """One battle with the tallies on, by a plain loop: (winner, tallies)."""
    rec = Recorder(SeededSource(seed))
    b = battle_from(dict(state), rec) if state is not None else new_battle(scen, rec)
    b.luck = []
    pols = {s: make_policy("ai", seed) for s in SIDES}
    while (req := b.next_request()) is not None:
        b.apply(req, pols[req.side].decide(b, req))
    return b.state.winner, list(b.luck)


def _brute_luck(tallies: Sequence[Tally]) -> dict[str, float | None]:
    """Each side's luck recounted: per kind the total's distribution by a naive sum, its
    mid-rank percentile, the rolls-weighted mean over kinds (events left out)."""
    groups: dict[tuple[str, str], list[Tally]] = {}
    for t in tallies:
        if t.side in SIDES and not t.kind.startswith("events"):
            groups.setdefault((t.side, t.kind), []).append(t)
    acc = {s: [0.0, 0] for s in SIDES}
    for (side, _), ts in groups.items():
        dist = {0: Fraction(1)}
        for t in ts:
            nxt: dict[int, Fraction] = {}
            for a, p in dist.items():
                for b, q in t.dist:
                    nxt[a + b] = nxt.get(a + b, Fraction(0)) + p * q
            dist = nxt
        obs = sum(t.score for t in ts)
        pct = float(
            (sum((p for v, p in dist.items() if v < obs), Fraction(0)) + dist.get(obs, 0) / 2) * 100
        )
        acc[side][0] += pct * len(ts)
        acc[side][1] += len(ts)
    return {s: (w / n if n else None) for s, (w, n) in acc.items()}


def _wins(w: int, n: int) -> str:
    lo, hi = wilson(w, n)
    return f"{w} of {n} ({100 * w / n:.0f}%, 95% interval {100 * lo:.0f}%-{100 * hi:.0f}%)"


@pytest.fixture(scope="module")
def lab_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A small scalar-path run of Stone Wall (seed 003's tallies), shipped and a variant."""
    db = tmp_path_factory.mktemp("luck") / "lab.db"
    args = ["--db", str(db), "simulate", "stone_wall", "-n", "14", "--seed", "5"]
    assert main([*args, "--workers", "1", "--vary", "action-reaction.battle.smoke_cap=2"]) == 0
    return db


def test_lab_report_luck_section_against_a_brute_force_recount(
    lab_db: Path, tmp_path: Path
) -> None:
    """Issue 24 'The lab report gains a luck section: for each arm, how often the side whose
    dice ran above their expectation won, and the spread of results that the dice alone
    produce': every count in the section recounted from battles played again here."""
    from umpire.lab.arms import parse_vary
    from umpire.rules.data import Overlay, install

    out = tmp_path / "r.html"
    assert main(["--db", str(lab_db), "report", "latest", "-o", str(out), "--luck", "9"]) == 0
    html = out.read_text(encoding="utf-8")
    assert "<h2>Luck</h2>" in html and "The first 9 battles of each arm" in html
    run = load_run(sqlite3.connect(lab_db), 1)
    scen = load_scenario("stone_wall")
    overlays = [Overlay(), parse_vary("action-reaction.battle.smoke_cap=2", scen, "v").overlay]
    try:
        for k, recs in enumerate(run.battles):
            install(overlays[k])
            # the spread the dice alone give: every battle of the arm
            margin = [r["losses"]["confederate"] - r["losses"]["union"] for r in recs]
            assert f"<td>{statistics.mean(margin):+.2f}</td>" in html
            assert f"<td>{statistics.stdev(margin):.2f}</td>" in html
            lucky = [0, 0]
            above = {s: [0, 0, 0, 0] for s in SIDES}
            for rec in recs[:9]:
                res = play(scen, rec["seed"], {s: make_policy("ai", rec["seed"]) for s in SIDES})
                assert (res.winner, res.turns) == (rec["winner"], rec["turns"])
                winner, tallies = _tallies(scen, rec["seed"])
                assert winner == rec["winner"]
                lk = _brute_luck(tallies)
                c, u = lk["confederate"], lk["union"]
                assert c is not None and u is not None
                if c != u and winner in SIDES:
                    lucky[1] += 1
                    lucky[0] += winner == ("confederate" if c > u else "union")
                for s in SIDES:
                    x = lk[s]
                    assert x is not None
                    if x > 50:
                        above[s][0] += winner == s
                        above[s][1] += 1
                    elif x < 50:
                        above[s][2] += winner == s
                        above[s][3] += 1
            row = f"<td>9 of 14</td><td>{_wins(*lucky)}</td>"
            assert row in html, (k, row)
            for s in SIDES:
                wa, na, wb, nb = above[s]
                cell = f"above: won {_wins(wa, na) if na else '-'}; below: won " + (
                    _wins(wb, nb) if nb else "-"
                )
                assert cell in html, (k, s, cell)
    finally:
        install(Overlay())
    assert html.count("all reached the run&#x27;s record") == 2


def test_a_replay_that_differs_is_left_out_and_said(lab_db: Path, tmp_path: Path) -> None:
    """A battle whose replay does not reach the run's record is said and skipped; without
    --luck the report names the command that measures it."""
    db = tmp_path / "copy.db"
    with sqlite3.connect(lab_db) as src, sqlite3.connect(db) as conn:
        src.backup(conn)
        conn.execute("UPDATE lab_battles SET turns = turns + 1 WHERE run = 1 AND arm = 0 AND i = 2")
    out = tmp_path / "r.html"
    assert main(["--db", str(db), "report", "1", "-o", str(out), "--luck", "4"]) == 0
    html = out.read_text(encoding="utf-8")
    assert "<td>3 of 14</td>" in html
    assert "1 replayed battle did not reach the run&#x27;s record and is left out: 2" in html
    assert main(["--db", str(db), "report", "1", "-o", str(out), "--luck", "0"]) == 0
    html = out.read_text(encoding="utf-8")
    assert "<h2>Luck</h2>" in html and "<code>umpire report 1 --luck 200</code>" in html
    assert "Whose dice ran above" not in html


def test_with_average_dice_line_against_a_recount(tmp_path: Path) -> None:
    """Issue 24 luck: 'whether the result would likely have changed with average dice (from
    the lab)': battles played from the saved battle's start on fresh dice, those in which
    each side's luck lies in the band kept, the winner's share among them; `umpire aar`
    prints it, the report at the end of play names the command instead."""
    db = tmp_path / "g.db"
    assert main(["--db", str(db), "battle", "stone_wall", "--seed", "11", "--game", "w"]) == 0
    auto = (tmp_path / "reports" / "w.html").read_text()
    assert "With average dice: <small>not measured: <code>umpire aar w</code>" in auto
    store = Store(db)
    got = average_dice(store, "w", 24)
    assert got is not None
    from umpire.lab.playon import load_position

    state = load_position(store, "w", 0).state
    kept: list[str] = []
    lo, hi = AVERAGE_BAND
    for i in range(24):
        seed = battle_seed(average_seed("w"), i)
        winner, tallies = _tallies(None, seed, state)
        lk = _brute_luck(tallies)
        assert got.lucks[i][0] == winner
        assert all(abs(float(got.lucks[i][1][s] or 0) - float(lk[s] or 0)) < 1e-9 for s in SIDES)
        if all(lk[s] is not None and lo <= float(lk[s] or 0) <= hi for s in SIDES):
            kept.append(winner)
    assert kept == got.average and kept, "no battle with average dice: pick another game"
    won = sum(1 for w in kept if w == got.winner)
    line = got.sentence()
    assert f"the {got.winner.title()} wins {100 * won / len(kept):.0f}% of {len(kept)} such" in line
    assert "between the 35th and 65th percentile" in line
    out = tmp_path / "w.html"
    args = ["--db", str(db), "aar", "w", "-o", str(out), "--battles", "0", "--average", "24"]
    assert main(args) == 0
    html = out.read_text()
    from umpire.aar.collect import collect

    own = _brute_luck(collect(store, "w").tallies)
    words = ", ".join(f"{s.title()} {own[s]:.0f}" for s in SIDES if own[s] is not None)
    assert f"weighted by rolls; 50 is average dice): {words}</p>" in html
    assert f"<p class=average>{line.replace(chr(39), '&#x27;')}</p>" in html
