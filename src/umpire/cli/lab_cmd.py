"""``umpire simulate`` and ``umpire runs``: Monte Carlo of whole battles, and the runs kept.

Heavy modules (numpy, rich, dask) are imported inside the commands so ``umpire roll``
stays fast.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Annotated, Any

import typer

from umpire.errors import UmpireError

MAX_N = 1_000_000
"""Battles per arm at most: every record is kept in memory for the summary (~1 kB each)."""


def simulate_cmd(
    scenario: Annotated[
        str | None,
        typer.Argument(help="A scenario file or shipped name (not with --from)"),
    ] = None,
    n: Annotated[int, typer.Option("-n", "--n", help="Battles per arm")] = 1000,
    seed: Annotated[
        int | None,
        typer.Option("--seed", help="The run's seed (default: a fresh random 48-bit seed)"),
    ] = None,
    workers: Annotated[
        int | None,
        typer.Option("--workers", help="Local worker processes (default: one per core)"),
    ] = None,
    cluster: Annotated[
        str | None,
        typer.Option("--cluster", help="A Dask scheduler address (tcp://HOST:PORT)"),
    ] = None,
    vary: Annotated[
        list[str] | None,
        typer.Option(
            "--vary",
            help="A rule variant compared with the shipped rules: KEY=VALUE,... (repeatable; "
            "keys in docs/lab.md)",
        ),
    ] = None,
    rules_data: Annotated[
        list[str] | None,
        typer.Option(
            "--rules-data",
            help="A folder made by 'umpire rules copy MODULE DIR' (or MODULE=DIR), edited: "
            "compared with the shipped rules (repeatable)",
        ),
    ] = None,
    path: Annotated[
        str, typer.Option("--path", help="auto (batch where it applies), batch or scalar")
    ] = "auto",
    engine: Annotated[
        str,
        typer.Option(
            "--engine",
            help="auto (the compiled engine when 'python3 tasks.py compile' built it from "
            "these sources), python or compiled",
        ),
    ] = "auto",
    player: Annotated[
        list[str] | None,
        typer.Option(
            "--player",
            help="SIDE=POLICY, POLICY one of easy, normal (= ai), hard, random (repeatable); "
            "any but normal plays on the scalar engine",
        ),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the result as JSON")] = False,
    no_save: Annotated[
        bool, typer.Option("--no-save", help="Do not keep the run in the save file")
    ] = False,
    keys: Annotated[
        bool,
        typer.Option(
            "--keys", help="List every --vary key this scenario's rules take, with its value now"
        ),
    ] = False,
    from_: Annotated[
        str | None,
        typer.Option(
            "--from",
            help="GAME@ACTION: play the N battles on from a saved battle's position after "
            "ACTION actions instead of the opening ('what if'). ACTION: N (actions played, "
            "0 = the start, as 'games undo --to' counts them), tT (the first decision of turn "
            "T) or last. Fresh dice per battle from --seed, never the game's own; on the "
            "scalar engine; the game is not changed and the run is not kept",
        ),
    ] = None,
) -> None:
    """Play N battles AI against AI per arm; win rates and distributions with 95% intervals,
    and each variant's differences from the shipped rules. With --from GAME@ACTION: each
    side's win chance playing on from a saved position."""
    import secrets

    from umpire.battle.scenario import load_scenario
    from umpire.lab import battle_seed
    from umpire.lab.arms import SHIPPED, parse_rules_data, parse_vary
    from umpire.lab.compiled import choose
    from umpire.lab.runner import default_workers, plan, tasks
    from umpire.scenarios import resolve_path

    if n < 1 or n > MAX_N:
        raise UmpireError(f"-n must be between 1 and {MAX_N}, got {n}")
    if seed is not None and seed < 0:
        raise UmpireError(f"--seed must be a whole number >= 0, got {seed}")
    if workers is not None and workers < 1:
        raise UmpireError(f"--workers must be at least 1, got {workers}")
    if path not in ("auto", "batch", "scalar"):
        raise UmpireError(f"unknown --path '{path}' (auto, batch, scalar)")
    if cluster is not None and workers is not None:
        raise UmpireError("--workers is for the local pool; a --cluster has its own workers")
    built = choose(engine, cluster is not None)
    if from_ is not None:
        extra = [
            opt
            for opt, given in (
                ("SCENARIO", scenario is not None),
                ("--vary", bool(vary)),
                ("--rules-data", bool(rules_data)),
                ("--keys", keys),
                ("--path batch", path == "batch"),
            )
            if given
        ]
        if extra:
            raise UmpireError(
                f"--from plays on a saved battle under its own scenario and the shipped rules "
                f"on the scalar engine; drop {', '.join(extra)}"
            )
        simulate_from(from_, n, seed, workers, cluster, built, parse_players(player or []), as_json)
        return
    if scenario is None:
        raise UmpireError("give a SCENARIO to simulate, or --from GAME@ACTION to play on")
    scen = load_scenario(scenario)
    name = resolve_path(scenario).stem
    if keys:
        show_keys(scen, name, as_json)
        return
    arms = [SHIPPED]
    for text in vary or []:
        arms.append(parse_vary(text, scen, f"vary {text}"))
    for folder in rules_data or []:
        arms.append(parse_rules_data(folder, f"rules-data {folder}"))
    players = parse_players(player or [])
    p = plan(scen, arms, path, players)
    run_seed = secrets.randbits(48) if seed is None else seed
    k = workers or (1 if cluster else default_workers())
    todo = tasks(p, n, run_seed, k, players)
    config = {
        "workers": None if cluster else k,
        "cluster": cluster,
        "path": path,
        "paths": list(p.paths),
        "engine": "python" if built is None else f"compiled ({built})",
        "chunks": len(todo),
        "seed_rule": "battle i: umpire.lab.battle_seed(seed, i), 48 bits of SHA-256",
        "replay": f"umpire battle {scenario} --seed SEED --no-save"
        + "".join(f" --player {s}={k}" for s, k in players),
        "players": {s: k for s, k in players},
    }
    if p.note is not None and not as_json:
        sys.stderr.write(f"umpire: {p.note}\n")
    if players and not as_json:
        who = ", ".join(f"{s}={k}" for s, k in players)
        sys.stderr.write(
            f"umpire: {who}: playing on the scalar engine (the batch simulator plays only "
            "the shipped AI)\n"
        )
    store = None
    run_id = None
    if not no_save:
        from umpire.cli.common import open_store
        from umpire.lab import results

        store = open_store()
        run_id = results.begin(store.conn, name, n, run_seed, [a.to_json() for a in arms], config)
    try:
        if "batch" in p.paths and built is None:
            _prepare(scen, quiet=as_json)
        records, seconds = _play(
            todo, len(arms), n, name, k, cluster, built, store, run_id, as_json
        )
    except KeyboardInterrupt:
        kept = f"lab run {run_id} is kept as incomplete" if run_id is not None else "nothing kept"
        sys.stderr.write(f"umpire: interrupted; {kept}\n")
        raise SystemExit(130) from None
    out = report(name, n, run_seed, p, records, seconds, config)
    if store is not None and run_id is not None:
        from umpire.lab import results

        results.finish(store.conn, run_id, seconds, out)
    out["run"] = run_id
    if as_json:
        from umpire.rules.ruling import print_json

        print_json(out)
        return
    show(out, seed is None, battle_seed(run_seed, 0))


def simulate_from(
    text: str,
    n: int,
    seed: int | None,
    workers: int | None,
    cluster: str | None,
    built: Any,
    players: list[tuple[str, str]],
    as_json: bool,
) -> None:
    """``simulate --from GAME@ACTION``: N battles on from a saved position, each side's win
    chance with its 95% interval (:func:`umpire.lab.playon.play_on`)."""
    import secrets

    from umpire.cli.common import open_store
    from umpire.lab.playon import load_position, parse_from, play_on
    from umpire.lab.runner import default_workers

    name, action = parse_from(text)
    pos = load_position(open_store(), name, action)
    run_seed = secrets.randbits(48) if seed is None else seed
    k = workers or (1 if cluster else default_workers())
    label = f"{name}@{pos.at}"
    if not as_json:
        sys.stderr.write(
            "umpire: playing on from a saved position on the scalar engine (the batch "
            "simulator starts only from a scenario's opening)\n"
        )
    try:
        with progress_bar(label, n, quiet=as_json) as tick:
            res = play_on(
                pos, None, n, run_seed, players, k, cluster=cluster, engine=built, progress=tick
            )
    except KeyboardInterrupt:
        sys.stderr.write("umpire: interrupted; nothing kept\n")
        raise SystemExit(130) from None
    out = res.to_json()
    out["config"] = {
        "workers": None if cluster else k,
        "cluster": cluster,
        "engine": "python" if built is None else f"compiled ({built})",
    }
    if as_json:
        from umpire.rules.ruling import print_json

        print_json(out)
        return
    show_from(out, seed is None)


@contextmanager
def progress_bar(name: str, total: int, quiet: bool) -> Iterator[Callable[[int], None]]:
    """A progress bar on standard error (battles/s, time left) told the battles done so far;
    nothing when quiet or not at a terminal."""
    if quiet or not sys.stderr.isatty():
        yield lambda done: None
        return
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeRemainingColumn,
    )

    t0 = time.perf_counter()
    with Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[rate]} battles/s"),
        TextColumn("time left"),
        TimeRemainingColumn(),
        console=Console(stderr=True),
        transient=True,
    ) as bar:
        task = bar.add_task(name, total=total, rate="-")

        def tick(done: int) -> None:
            secs = time.perf_counter() - t0
            bar.update(task, completed=done, rate=f"{done / secs:,.0f}" if secs else "-")

        yield tick


def summary_lines(s: dict[str, Any], tails: dict[str, str]) -> None:
    """A run's summary in lines (``simulate`` and ``simulate --from`` alike): each result
    with its interval, the turns, and each side's losses followed by ``tails[side]``."""
    echo = typer.echo
    for o, v in s["results"].items():
        what = "draws" if o == "draw" else f"{o} wins"
        echo(f"  {what:17s} {v['wins']:7d}  {v['rate']:7.2%}  {_pct(*v['ci95'])}")
    t = s["turns"]
    lo, hi = t["ci95"]
    echo(f"  turns            mean {t['mean']:.2f} (95% CI {lo:.2f} - {hi:.2f})")
    for side in ("confederate", "union"):
        lost, rem, ld = (s["stands_lost"][side], s["units_removed"][side], s["leaders_lost"][side])
        echo(
            f"  {side:12s} stands lost {lost['mean']:.2f} (95% CI {lost['ci95'][0]:.2f} - "
            f"{lost['ci95'][1]:.2f}), units removed {rem['mean']:.2f}, leaders lost "
            f"{ld['mean']:.2f}{tails.get(side, '')}"
        )


def _broke(br: dict[str, Any]) -> str:
    """'; broke in 51.5% (t1: 1, ...)': how often and when a side's army broke."""
    turns = ", ".join(f"t{t_}: {c}" for t_, c in br["turn"].items()) or "never"
    return f"; broke in {br['rate']:.1%} ({turns})"


def show_from(out: dict[str, Any], fresh: bool) -> None:
    """A --from result in words, as ``umpire simulate`` says a run's."""
    echo = typer.echo
    players = out["players"]
    who = (
        " against ".join(f"{s} {players.get(s, 'normal')}" for s in ("confederate", "union"))
        if players
        else "AI against AI"
    )
    from umpire.lab.playon import where_words

    where = where_words(out["at"], out["actions"], out["turn"], out["to_act"])
    echo(
        f"{out['game']}@{out['at']}: {out['battles']} battles played on from {where}, {who}, "
        f"seed {out['seed']}" + (" (drawn at random; --seed plays them again)" if fresh else "")
    )
    echo("  each battle on fresh dice: battle i's seed is umpire.lab.battle_seed(seed, i)")
    s = out["summary"]
    summary_lines(s, dict.fromkeys(s["stands_lost"], " (whole battle, the played part too)"))
    rate = out["battles_per_second"] or 0.0
    engine = out["config"].get("engine", "python").split(" ")[0]
    echo(
        f"  {out['seconds']:.2f} s, {rate:,.0f} battles/s, {s['dice']:,} dice, {engine} "
        "engine (scalar); the saved game is unchanged"
    )


SIM_POLICIES = ("ai", "easy", "normal", "hard", "random")
"""Policies ``simulate --player`` takes: the AI's levels and random (no person at a Monte Carlo)."""


def parse_players(texts: list[str]) -> list[tuple[str, str]]:
    """``--player SIDE=POLICY`` as (side, policy) pairs, the shipped AI's sides left out
    (``ai`` and ``normal`` are it); a wrong entry is a one-line error naming it."""
    from umpire.sides import SIDES

    kinds: dict[str, str] = {}
    for text in texts:
        side, eq, kind = text.partition("=")
        side, kind = side.strip().lower(), kind.strip().lower()
        if not eq:
            raise UmpireError(f"--player takes SIDE=POLICY, e.g. union=hard, not '{text}'")
        if side not in SIDES:
            raise UmpireError(f"unknown side '{side}' in --player (sides: {', '.join(SIDES)})")
        if kind == "human":
            raise UmpireError(
                "--player human: simulate plays AI against AI; a person plays with 'umpire battle'"
            )
        if kind not in SIM_POLICIES:
            raise UmpireError(
                f"unknown policy '{kind}' in --player (known: {', '.join(SIM_POLICIES)})"
            )
        kind = "ai" if kind == "normal" else kind
        if kinds.get(side, kind) != kind:
            raise UmpireError(f"the {side} side is given two players ({kinds[side]} and {kind})")
        kinds[side] = kind
    return [(s, k) for s, k in sorted(kinds.items()) if k != "ai"]


def _prepare(scen: Any, quiet: bool) -> None:
    """Get the batch simulator ready in this process before the workers start: its
    compiled kernels are compiled once (about a minute, the first time) and cached, so
    every worker loads them ready instead of compiling them too."""
    from umpire.lab import prepare_batch

    if quiet or not sys.stderr.isatty():
        prepare_batch(scen)
        return
    from rich.console import Console

    with Console(stderr=True).status("readying the batch kernels (first run: about a minute)"):
        prepare_batch(scen)


def _play(
    todo: Any,
    arms: int,
    n: int,
    name: str,
    workers: int,
    cluster: str | None,
    engine: Any,
    store: Any,
    run_id: int | None,
    quiet: bool,
) -> tuple[list[list[Any]], float]:
    """Run every chunk with a progress bar (battles/s, time left); records per arm in order."""
    from umpire.lab.runner import run

    got: list[list[Any]] = [[None] * n for _ in range(arms)]

    def keep(arm: int, start: int, recs: list[Any]) -> None:
        got[arm][start : start + len(recs)] = recs
        if store is not None and run_id is not None:
            from umpire.lab import results

            results.add(store.conn, run_id, arm, recs)

    t0 = time.perf_counter()
    done = [0]
    with progress_bar(name, n * arms, quiet) as told:

        def tick(arm: int, start: int, recs: list[Any]) -> None:
            keep(arm, start, recs)
            done[0] += len(recs)
            told(done[0])

        run(todo, tick, workers=workers, cluster=cluster, engine=engine)
    return got, time.perf_counter() - t0


def _who(out: dict[str, Any]) -> str:
    """Who plays: 'AI against AI', or each side's policy when one is not the shipped AI."""
    players = out.get("config", {}).get("players") or {}
    if not players:
        return "AI against AI"
    from umpire.sides import SIDES

    return " against ".join(f"{s} {players.get(s, 'normal')}" for s in SIDES)


def report(
    name: str,
    n: int,
    seed: int,
    p: Any,
    records: list[list[Any]],
    seconds: float,
    config: dict[str, Any],
) -> dict[str, Any]:
    """The run's result as JSON: each arm's summary, each variant against the shipped rules."""
    from umpire.lab.stats import compare, summarise

    arms = []
    for k, arm in enumerate(p.arms):
        arms.append({**arm.to_json(), "path": p.paths[k], "summary": summarise(records[k])})
    dice = sum(a["summary"]["dice"] for a in arms)
    total = n * len(arms)
    return {
        "scenario": name,
        "battles": n,
        "seed": seed,
        "arms": arms,
        "compare": [
            {"a": 0, "b": k, **compare(records[0], records[k])} for k in range(1, len(arms))
        ],
        "seconds": seconds,
        "battles_per_second": total / seconds if seconds else None,
        "dice": dice,
        "dice_per_second": dice / seconds if seconds else None,
        "config": config,
    }


def _paired(d: dict[str, Any], fmt: str) -> str:
    lo, hi = d["paired_ci95"]
    if lo != lo:  # NaN: the arms did not play the same seeds
        return ""
    return f"  [paired {lo:+{fmt}} - {hi:+{fmt}}{' *' if d['paired_significant'] else ''}]"


def _pct(lo: float, hi: float) -> str:
    return f"(95% CI {lo:.2%} - {hi:.2%})"


def show(out: dict[str, Any], fresh: bool, first: int) -> None:
    """The result in words: per arm the outcomes and distributions; then the differences."""
    echo = typer.echo
    echo(
        f"{out['scenario']}: {out['battles']} battles per arm, {_who(out)}, seed {out['seed']}"
        + (" (drawn at random; --seed plays them again)" if fresh else "")
    )
    echo(f"  battle i has its own seed (battle 0: umpire battle {out['scenario']} --seed {first})")
    letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    for k, arm in enumerate(out["arms"]):
        s = arm["summary"]
        echo(f"{letters[k % 26]}: {arm['label']} ({arm['path']} path)")
        summary_lines(s, {side: _broke(br) for side, br in s["broke"].items()})
        if s["events"]:
            top = sorted(s["events"].items(), key=lambda kv: -kv[1]["battles"])[:8]
            echo(
                "  events (share of battles): "
                + ", ".join(f"{key.split(':')[-1]} {v['rate']:.1%}" for key, v in top)
            )
    for c in out["compare"]:
        b = letters[c["b"] % 26]
        echo(
            f"{b} - A: differences with 95% intervals (* significant: the interval excludes 0; "
            "paired by seed in brackets)"
        )
        for o, d in c["win_rate"].items():
            what = "draw rate" if o == "draw" else f"{o} win rate"
            echo(
                f"  {what:28s} {d['diff']:+8.2%}  (95% CI {d['ci95'][0]:+.2%} - "
                f"{d['ci95'][1]:+.2%}){' *' if d['significant'] else ''}{_paired(d, '.2%')}"
            )
        for side, d in c["broke_rate"].items():
            echo(
                f"  {side + ' broke':28s} {d['diff']:+8.2%}  (95% CI {d['ci95'][0]:+.2%} - "
                f"{d['ci95'][1]:+.2%}){' *' if d['significant'] else ''}{_paired(d, '.2%')}"
            )
        for key, d in c["event_rate"].items():
            if d["significant"] or d["paired_significant"]:
                echo(
                    f"  {key.split(':')[-1] + ' fired':28s} {d['diff']:+8.2%}  (95% CI "
                    f"{d['ci95'][0]:+.2%} - {d['ci95'][1]:+.2%}){' *' if d['significant'] else ''}"
                    f"{_paired(d, '.2%')}"
                )
        rows = [("turns", c["turns"])]
        for key in ("stands_lost", "units_removed", "leaders_lost"):
            rows += [(f"{side} {key.replace('_', ' ')}", c[key][side]) for side in c[key]]
        for what, d in rows:
            echo(
                f"  {what:28s} {d['diff']:+8.3f}  (95% CI {d['ci95'][0]:+.3f} - "
                f"{d['ci95'][1]:+.3f}){' *' if d['significant'] else ''}{_paired(d, '.3f')}"
            )
    rate = out["battles_per_second"] or 0.0
    dps = out["dice_per_second"] or 0.0
    engine = out["config"].get("engine", "python").split(" ")[0]
    echo(
        f"  {out['seconds']:.2f} s, {rate:,.0f} battles/s, {out['dice']:,} dice ({dps:,.0f} dice/s)"
        f", {engine} engine"
    )
    if out.get("run") is not None:
        echo(f"Saved as lab run {out['run']} (umpire runs)")


def runs_cmd(
    as_json: Annotated[bool, typer.Option("--json", help="Print the runs as JSON")] = False,
) -> None:
    """The lab runs kept in the save file, newest first."""
    from umpire.cli.common import open_store
    from umpire.lab.results import list_runs

    rows = list_runs(open_store().conn)
    if as_json:
        from umpire.rules.ruling import print_json

        print_json(rows)
        return
    if not rows:
        typer.echo("No lab runs yet (umpire simulate SCENARIO -n N)")
    for r in rows:
        state = "" if r["complete"] else "  (interrupted)"
        echo_arms = "; ".join(r["arms"])
        typer.echo(
            f"{r['id']:5d}  {r['created']}  {r['scenario']}  n={r['n']}  seed={r['seed']}  "
            f"[{echo_arms}]{state}"
        )


def show_keys(scen: Any, name: str, as_json: bool) -> None:
    """The --vary keys of a scenario as a table (or JSON): key, value now, what it is."""
    from umpire.lab.arms import vary_keys

    rows = vary_keys(scen)
    if as_json:
        from umpire.rules.ruling import print_json

        print_json([{"key": k, "now": v, "what": w} for k, v, w in rows])
        return
    from rich.table import Table

    from umpire.rules.ruling import console

    table = Table(
        title=f"--vary keys of {name} (umpire simulate {name} --vary KEY=VALUE,...)",
        title_justify="left",
    )
    for col in ("key", "now", "what"):
        table.add_column(col, overflow="fold")
    for row in rows:
        table.add_row(*row)
    console().print(table, markup=False)
