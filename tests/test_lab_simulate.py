"""``umpire simulate``: per-battle seeds on both paths, split invariance, Monte Carlo against
exact odds, storage, and bad input as one line."""

from __future__ import annotations

import json
import math
import sqlite3
import time
from pathlib import Path

import pytest

from umpire.ai import make_policy
from umpire.battle.run import play
from umpire.battle.scenario import load_scenario
from umpire.cli.main import main
from umpire.lab import battle_seed, wilson
from umpire.lab.arms import SHIPPED
from umpire.lab.play import Task, run_task
from umpire.lab.results import list_runs, load_run
from umpire.lab.runner import plan, run, tasks
from umpire.rules.data import Overlay
from umpire.scenarios import Scenario
from umpire.sides import SIDES


def cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def simulate(
    scen: Scenario, n: int, seed: int, workers: int = 1, path: str = "auto", arms: tuple = ()
) -> list[list[dict]]:  # type: ignore[type-arg]
    p = plan(scen, [SHIPPED, *arms], path)
    got: list[list[dict]] = [[{}] * n for _ in p.arms]  # type: ignore[type-arg]

    def keep(arm: int, start: int, recs: list[dict]) -> None:  # type: ignore[type-arg]
        got[arm][start : start + len(recs)] = recs

    run(tasks(p, n, seed, workers), keep, workers=workers)
    return got


def one_turn(name: str) -> Scenario:
    scen = load_scenario(name)
    return scen.model_copy(update={"table": scen.table.model_copy(update={"turns": 1})})


def test_battle_seeds_are_48_bit_and_distinct() -> None:
    """Battle i's seed is a pure function of (S, i): 48 bits, no repeats, none shared by S+1."""
    a = [battle_seed(7, i) for i in range(2000)]
    b = {battle_seed(8, i) for i in range(2000)}
    assert len(set(a)) == 2000 and not set(a) & b
    assert all(0 <= s < 2**48 for s in a) and a == [battle_seed(7, i) for i in range(2000)]


@pytest.mark.parametrize(("name", "n"), [("mcpherson_ridge", 24), ("standard_five_step", 8)])
def test_split_invariance_and_replay(name: str, n: int) -> None:
    """N battles over 1 worker and over 2 give identical records; each is ``umpire battle``'s
    own battle with its seed (winner, turns, losses, dice)."""
    scen = load_scenario(name)
    one = simulate(scen, n, 5, workers=1)[0]
    two = simulate(scen, n, 5, workers=2)[0]
    assert one == two
    assert [r["i"] for r in one] == list(range(n))
    for r in one[:4]:
        res = play(scen, r["seed"], {s: make_policy("ai", r["seed"]) for s in SIDES})
        assert r["seed"] == battle_seed(5, r["i"])
        assert (r["winner"], r["turns"], r["dice"]) == (res.winner, res.turns, len(res.faces))
        assert r["losses"] == res.losses and r["leaders_lost"] == res.leaders_lost
    # a different split of the same battles (one chunk of all, or chunks of three)
    seeds = tuple(battle_seed(5, i) for i in range(n))
    path = one[0]["path"]
    whole = run_task(Task(scen, Overlay(), 0, 0, seeds, path))[2]
    parts = [
        run_task(Task(scen, Overlay(), 0, k, seeds[k : k + 3], path))[2] for k in range(0, n, 3)
    ]
    assert whole == one == [r for p in parts for r in p]


def test_batch_and_scalar_records_agree_battle_by_battle() -> None:
    """The two paths fill every field the same for the same seeds (seed 002, pure)."""
    from tests.test_lab_agreement import numpy_trig_is_libm

    if not numpy_trig_is_libm():
        pytest.skip("numpy's cos/sin differ from the C library's here")
    scen = load_scenario("standard")
    batch = simulate(scen, 40, 11, path="batch")[0]
    scalar = simulate(scen, 40, 11, path="scalar")[0]
    assert {r["path"] for r in batch} == {"batch"} and {r["path"] for r in scalar} == {"scalar"}
    for a, b in zip(batch, scalar, strict=True):
        assert {**a, "path": ""} == {**b, "path": ""}
    assert any(r["broke"]["confederate"] or r["broke"]["union"] for r in batch)


def test_event_frequency_matches_the_exact_odds() -> None:
    """Seed 001 RANDOM EVENTS ("roll a D6 at the beginning of each turn", an event on a 1
    or a 6): in one-turn battles the share with an event falls within the 99.9% Wilson
    interval around the table's exact odds (1/3, from the table itself); and every event is
    one of the 1d20 rows."""
    from umpire.tables import builtin_tables

    table = builtin_tables().get("solo_event_check")
    exact = float(sum(p for row, p in table.row_probabilities() if row.effects.get("event")))
    assert math.isclose(exact, 1 / 3)
    n = 600
    recs = simulate(one_turn("mcpherson_cards"), n, 3)[0]
    fired = sum(1 for r in recs if r["events"])
    assert all(r["turns"] == 1 and sum(r["events"].values()) <= 1 for r in recs)
    lo, hi = wilson(fired, n, z=3.29)
    assert lo <= exact <= hi, (fired / n, exact)


def test_simulate_cli_json_saved_and_loaded(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """--json: rates with intervals, distributions; the run and each battle are in the save
    file, and load_run gives back the very records; the same seed repeats the run."""
    db = str(tmp_path / "u.db")
    code, out, err = cli(
        capsys, "--db", db, "simulate", "mcpherson_ridge", "-n", "60", "--seed", "4", "--json",
        "--workers", "1",
    )  # fmt: skip
    assert code == 0, err
    res = json.loads(out)
    s = res["arms"][0]["summary"]
    assert res["battles"] == 60 and res["seed"] == 4 and res["arms"][0]["path"] == "batch"
    assert sum(v["wins"] for v in s["results"].values()) == 60
    for v in s["results"].values():
        lo, hi = v["ci95"]
        assert 0 <= lo <= v["rate"] <= hi <= 1
    assert sum(s["turns"]["histogram"].values()) == 60
    assert set(s["stands_lost"]) == set(SIDES) == set(s["broke"]) == set(s["leaders_lost"])
    run_id = res["run"]
    with sqlite3.connect(db) as conn:
        got = load_run(conn, run_id)
        assert got.n == 60 and got.seed == 4 and len(got.battles) == 1
        assert [r["seed"] for r in got.battles[0]] == [battle_seed(4, i) for i in range(60)]
        assert got.summary["arms"][0]["summary"] == s
        assert list_runs(conn)[0]["id"] == run_id
    again = json.loads(
        cli(
            capsys,
            "--db",
            db,
            "simulate",
            "mcpherson_ridge",
            "-n",
            "60",
            "--seed",
            "4",
            "--json",
            "--workers",
            "2",
        )[1]
    )
    assert again["arms"][0]["summary"] == s and again["run"] == run_id + 1


def test_simulate_text_and_runs(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """Text: a line per result with its interval, the seed drawn at random; ``umpire runs``."""
    db = str(tmp_path / "u.db")
    code, out, err = cli(capsys, "--db", db, "simulate", "mcpherson_ridge", "-n", "30")
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0].startswith("mcpherson_ridge: 30 battles per arm, AI against AI, seed ")
    assert "drawn at random" in lines[0] and "umpire battle mcpherson_ridge --seed" in lines[1]
    assert any(line.strip().startswith("union wins") and "95% CI" in line for line in lines)
    assert "Saved as lab run 1" in lines[-1]
    code, out, _ = cli(capsys, "--db", db, "runs")
    assert code == 0 and out.split()[0] == "1" and "mcpherson_ridge" in out


def test_an_interrupted_run_is_not_loaded(tmp_path: Path) -> None:
    """A run whose battles are not all in stays incomplete and is refused by load_run."""
    from umpire.errors import UmpireError
    from umpire.lab import results

    conn = sqlite3.connect(tmp_path / "u.db", isolation_level=None)
    rid = results.begin(conn, "standard", 10, 1, [SHIPPED.to_json()], {})
    with pytest.raises(UmpireError, match="did not finish"):
        load_run(conn, rid)
    assert list_runs(conn)[0]["complete"] is False


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (("simulate", "no_such_scenario"), "no scenario 'no_such_scenario'"),
        (("simulate", "standard", "-n", "0"), "-n must be between 1"),
        (("simulate", "standard", "-n", "-3"), "-n must be between 1"),
        (("simulate", "standard", "--seed", "-2"), "--seed must be"),
        (("simulate", "standard", "--workers", "0"), "--workers must be"),
        (("simulate", "standard", "--path", "fast"), "unknown --path"),
        (("simulate", "stone_wall", "--path", "batch"), "no batch simulator"),
        (
            ("simulate", "standard", "--vary", "quick-acw.sides.union.moral=7"),
            "unknown --vary key 'quick-acw.sides.union.moral'",
        ),
        (("simulate", "standard", "--vary", "quick-acw.sides.union.moral=7"), "nearest"),
        (("simulate", "standard", "--vary", "quik-acw.fire.foot=[1]"), "nearest: quick-acw"),
        (("simulate", "standard", "--vary", "skirmish=4"), "unknown --vary key 'skirmish'"),
        (("simulate", "standard", "--vary", "quick-acw.fire=3"), "names a table"),
        (("simulate", "standard", "--vary", "quick-acw.sides.union.morale=x"), "not like"),
        (("simulate", "standard", "--vary", "quick-acw.fire.foot=[4]"), "not like"),
        (("simulate", "standard", "--vary", "quick-acw.melee.rows=[[1, 2]]"), "not like"),
        (("simulate", "standard", "--vary", "combat=nothing"), "unknown rules module"),
        (("simulate", "standard", "--vary", "cards=platoon"), "--vary cards: Input should be"),
        (("simulate", "standard", "--vary", "first=french"), "unknown side 'french'"),
        (
            (
                "simulate",
                "standard",
                "-n",
                "3",
                "--workers",
                "1",
                "--vary",
                'quick-acw.turn.order=["a", "b"]',
            ),
            "are the varied rules consistent?",
        ),
        (("simulate", "standard", "--rules-data", "/no/such/dir"), "--rules-data: no folder"),
    ],
)
def test_bad_input_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, args: tuple[str, ...], needle: str
) -> None:
    """Bad input: exit 2 and one line on stderr, nothing run."""
    code, _out, err = cli(capsys, "--db", str(tmp_path / "u.db"), *args)
    assert code == 2 and err.startswith("umpire: error: ") and err.count("\n") == 1, err
    assert needle in err


def test_unreachable_cluster_is_one_line_within_seconds(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """--cluster at a closed port: one line, exit 2, within about ten seconds."""
    pytest.importorskip("distributed")
    t0 = time.monotonic()
    code, _out, err = cli(
        capsys, "--db", str(tmp_path / "u.db"), "simulate", "mcpherson_ridge", "-n", "5",
        "--cluster", "tcp://127.0.0.1:9",
    )  # fmt: skip
    assert time.monotonic() - t0 < 20
    assert code == 2 and err.count("\n") == 1 and "cannot reach the Dask cluster" in err, err


def test_both_paths_agree_under_a_variant(tmp_path: Path) -> None:
    """Seed 002 MORALE ("USA/CSA 8+/7+") and FIRE (the foot row) varied through the data
    seam: the batch simulator and the scalar engine still play the very same battles, the
    variant changes them, and a --rules-data copy edited the same way plays them too."""
    from tests.test_lab_agreement import numpy_trig_is_libm

    from umpire.lab.arms import parse_rules_data, parse_vary
    from umpire.rules.data import current

    scen = load_scenario("mcpherson_ridge")
    text = "quick-acw.sides.union.morale=10,quick-acw.fire.foot=[5, 9, 0, 0]"
    arm = parse_vary(text, scen, "B")
    batch = simulate(scen, 30, 2, path="batch", arms=(arm,))
    scalar = simulate(scen, 30, 2, path="scalar", arms=(arm,))
    assert not current()  # the overlay is taken off again after the run
    assert batch[1] != batch[0]  # the variant reaches the batch path ...
    assert scalar[1] != scalar[0]  # ... and the scalar engine
    if numpy_trig_is_libm():
        for a, b in zip(batch[1], scalar[1], strict=True):
            assert {**a, "path": ""} == {**b, "path": ""}
    assert main(["rules", "copy", "quick-acw", str(tmp_path / "qc")]) == 0
    rules = tmp_path / "qc" / "rules.toml"
    body = rules.read_text(encoding="utf-8")
    union = body.index("[sides.union]")
    body = body[:union] + body[union:].replace("morale = 8", "morale = 10", 1)
    rules.write_text(body.replace("foot = [4, 8, 0, 0]", "foot = [5, 9, 0, 0]"))
    copy_arm = parse_rules_data(str(tmp_path / "qc"), "C")
    via_copy = simulate(scen, 30, 2, path="batch", arms=(copy_arm,))
    assert via_copy[1] == batch[1]


def test_a_dask_cluster_gives_the_same_records(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """--cluster: a distributed.LocalCluster on loopback plays the same battles as one
    local worker (same N and seed, same records), and the run is stored the same way."""
    distributed = pytest.importorskip("distributed")
    db = str(tmp_path / "u.db")
    args = ["--db", db, "simulate", "mcpherson_ridge", "-n", "40", "--seed", "8", "--json"]
    args += ["--vary", "quick-acw.sides.confederate.morale=6"]
    with distributed.LocalCluster(
        n_workers=2,
        threads_per_worker=1,
        processes=True,
        host="127.0.0.1",
        dashboard_address=None,
    ) as cluster:
        code, out, err = cli(capsys, *args, "--cluster", cluster.scheduler_address)
    assert code == 0, err
    local = json.loads(cli(capsys, *args, "--workers", "1")[1])
    far = json.loads(out)
    assert far["config"]["cluster"] == cluster.scheduler_address
    for a, b in zip(far["arms"], local["arms"], strict=True):
        assert a["summary"] == b["summary"]
    with sqlite3.connect(db) as conn:
        assert load_run(conn, far["run"]).battles == load_run(conn, local["run"]).battles


def test_battle_replays_a_variant_arm(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """Battle i of a --vary arm is ``umpire battle SCENARIO --seed SEED --vary ... --no-save``;
    a variant is never saved (a saved game replays under the shipped rules)."""
    from umpire.lab.arms import parse_vary
    from umpire.rules.data import current

    scen = load_scenario("standard_five_step")
    text = "quick-acw.sides.union.morale=10,first=union"
    shipped, recs = simulate(scen, 2, 6, arms=(parse_vary(text, scen, "B"),))
    assert [r["dice"] for r in shipped] != [r["dice"] for r in recs]
    db = str(tmp_path / "u.db")
    for r in recs:
        code, out, err = cli(
            capsys, "--db", db, "battle", "standard_five_step", "--seed", str(r["seed"]),
            "--no-save", "--json", "--vary", text,
        )  # fmt: skip
        assert code == 0, err
        got = json.loads(out)
        assert (got["winner"], got["turns"], got["dice"]) == (r["winner"], r["turns"], r["dice"])
        assert not current()
    code, _, err = cli(capsys, "--db", db, "battle", "standard", "--seed", "1", "--vary", text)
    assert code == 2 and "--no-save" in err


def test_rules_copy_refuses_a_folder_in_use(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """``umpire rules copy`` writes into a new or empty folder only; unknown module: nearest."""
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "x.txt").write_text("mine")
    code, _, err = cli(capsys, "rules", "copy", "quick-acw", str(tmp_path / "full"))
    assert code == 2 and "not an empty folder" in err and err.count("\n") == 1
    code, _, err = cli(capsys, "rules", "copy", "quick_acw", str(tmp_path / "new"))
    assert code == 2 and "nearest: quick-acw" in err
    code, out, _ = cli(capsys, "rules", "copy", "five-step", str(tmp_path / "new"))
    assert code == 0 and "Copied five-step" in out and (tmp_path / "new" / "rules.toml").is_file()
    assert (tmp_path / "new" / ".umpire-rules").read_text().strip() == "five-step"


@pytest.mark.parametrize("name", ["standard", "stone_wall", "mcpherson_cards"])
def test_every_listed_vary_key_is_taken_at_its_value_now(name: str) -> None:
    """``umpire simulate SCENARIO --keys`` lists only keys that --vary takes: each data value
    and option listed, given back at its value now, parses as an arm."""
    from umpire.lab.arms import parse_vary, vary_keys

    scen = load_scenario(name)
    rows = vary_keys(scen)
    data = [(k, v) for k, v, w in rows if " data (" in w]
    assert len(data) > 20
    for key, now in data + [(k, v) for k, v, w in rows if w.startswith("an option")]:
        parse_vary(f"{key}={now}", scen, "same")


def test_simulate_keys_lists_them(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = cli(capsys, "simulate", "standard", "--keys", "--json")
    assert code == 0
    keys = {r["key"]: r["now"] for r in json.loads(out)}
    assert keys["quick-acw.sides.union.morale"] == "8"  # seed 002 MORALE "USA/CSA 8+/7+"
    assert "combat" in keys


def test_prepare_batch_gets_the_batch_path_ready_and_skips_the_others(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The lab gets a batch simulator ready before its workers start (its kernels compiled
    once); a composition without one (seed 003's stone_wall) has nothing to prepare."""
    from umpire import jit
    from umpire.battle.scenario import load_scenario
    from umpire.lab import prepare_batch

    assert prepare_batch(load_scenario("stone_wall")) is False
    monkeypatch.setattr(jit, "ENABLED", False)
    assert prepare_batch(load_scenario("standard")) is False
    monkeypatch.setattr(jit, "ENABLED", True)
    assert prepare_batch(load_scenario("standard")) is True


def test_without_numba_the_lab_says_so_and_plays_the_scalar_engine(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The batch simulator runs on numba's kernels only (issue 25: no numpy middle layer).
    Where they are off the lab says so in one line and plays the same battles on the scalar
    engine; ``--path batch`` and ``run_batch`` refuse in one line."""
    from umpire import jit
    from umpire.errors import UmpireError
    from umpire.lab import run_batch

    scen = load_scenario("standard")
    want = simulate(scen, 6, 3, path="auto")[0]
    assert {r["path"] for r in want} == {"batch"}
    monkeypatch.setattr(jit, "ENABLED", False)
    got = simulate(scen, 6, 3, path="auto")[0]
    assert {r["path"] for r in got} == {"scalar"}
    assert [{**r, "path": ""} for r in got] == [{**r, "path": ""} for r in want]
    code, _, err = cli(
        capsys, "--db", str(tmp_path / "u.db"), "simulate", "standard", "-n", "3", "--no-save"
    )
    assert code == 0, err
    note = "numba is not available: playing on the scalar engine (the same battles, slower)"
    assert f"umpire: {note}" in err.splitlines()
    code, _, err = cli(capsys, "simulate", "standard", "-n", "3", "--path", "batch", "--no-save")
    assert code != 0 and err.count("\n") == 1 and "--path batch: numba is not available" in err
    with pytest.raises(UmpireError, match="numba is not available: the batch simulator runs"):
        run_batch(scen, 4, 1)


def test_the_fallback_says_why_numba_is_off(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 25: 'where numba cannot run, the lab says so': the reason a user can act on."""
    from umpire import jit

    monkeypatch.setenv("UMPIRE_JIT", "0")
    assert jit.why_off() == "numba is switched off (UMPIRE_JIT=0)"
    monkeypatch.setenv("UMPIRE_JIT", "1")
    assert jit.why_off() is None  # numba is installed in the test environment
    monkeypatch.setattr(jit.sys, "version_info", (3, 12, 0))
    assert jit.why_off() == "numba's kernels need Python 3.11 (this is 3.12)"
