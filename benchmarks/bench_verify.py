"""Verify time against game length: ``umpire games verify`` must grow linearly with the log.

Builds one long game of each kind in a scratch save file -- a dice book (``session``) of
rolls, table lookups and random picks; a Gettysburg book (``cwb_events``) of each player
turn's random events, moves on the map and ``next``; a standard AI battle (``battle``, as
long as the battle lasts) -- forks it at three lengths, and times for each fork
``verify_export(store.export(name))`` (best of ``--repeat``) and the CLI, ``umpire games
verify NAME`` in a child process (once; its start-up is included). Prints seconds, ms per
action, and the ratio of ms per action at the longest length to the shortest: linear
verification gives about 1, the old quadratic one a ratio that grows with the length.

``--sha`` adds, for the longest game of each kind, the bytes of canonical JSON that SHA-256
must read to check every action's recorded state hash (the sum of the states' sizes) and
the time SHA-256 alone takes for them on this machine: that part is quadratic by the hash's
definition (one SHA-256 over the whole state), see docs/verification.md.

Run: PYTHONPATH=src .venv/bin/python benchmarks/bench_verify.py [--lengths 250 1000 4000]
     [--battle-lengths 100 200 400] [--only session,cwb,battle] [--repeat R] [--no-cli] [--sha]
"""

from __future__ import annotations

import argparse
import hashlib
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from umpire.dice import SeededSource
from umpire.engine import Game, RandomPolicy
from umpire.engine.events import canonical_json, copy_state
from umpire.store import Store, verify_export


def session_game(n: int) -> Game:
    """A dice book of ``n`` actions: rolls, table lookups and random picks, all kept in its
    history (the state grows with every action)."""
    game = Game.new("session", {"title": "bench"}, SeededSource(1))
    for i in range(n):
        if i % 10 == 9:
            game.act("table", {"table": "cwb_union_events", "purpose": f"events {i}"})
        elif i % 10 == 4:
            game.act("pick", {"options": ["Buford", "Reynolds", "Howard"], "purpose": f"who {i}"})
        else:
            game.act("roll", {"expr": ("2d6", "d66", "3d6+1")[i % 3], "purpose": f"roll {i}"})
    return game


def cwb_game(n: int, seed: int = 3) -> Game:
    """A Gettysburg book game of ``n`` actions (or to its end): each player turn rolls its
    random events, moves a dozen units and goes on (its history grows with every turn)."""
    from umpire.rules.cwb_events import MODULE, default_scenario

    rng = random.Random(seed)
    pols = {"union": RandomPolicy(), "confederate": RandomPolicy()}
    game = Game.new(MODULE, default_scenario("July 1 05:00"), SeededSource(seed), pols)
    while len(game.actions) < n and not game.state["game_over"]:
        st = game.state
        side = st["clock"]["side"]
        units = [
            u for u, d in st["units"].items() if d["status"] == "in_play" and d["side"] == side
        ]
        game.act("phase", {"side": side})
        for _ in range(12):
            if units and len(game.actions) < n:
                hex_ = f"A{rng.randint(1, 26):02d}.{rng.randint(1, 20):02d}"
                game.act("place", {"unit": rng.choice(units), "hex": hex_})
        if len(game.actions) < n:
            game.act("next")
    return game


def battle_game(n: int) -> Game:
    """The standard scenario, AI against AI (seed 1): a whole battle (its state is bounded)."""
    from umpire.ai import make_policy
    from umpire.battle.game import play_game
    from umpire.battle.scenario import load_scenario

    pols = {"union": make_policy("ai"), "confederate": make_policy("ai")}
    return play_game(load_scenario("standard"), 1, pols)


BUILDERS = {"session": session_game, "cwb": cwb_game, "battle": battle_game}


def time_verify(store: Store, name: str, repeat: int) -> float:
    """Best seconds of ``verify_export(store.export(name))``."""
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        verify_export(store.export(name))
        best = min(best, time.perf_counter() - t0)
    return best


def time_cli(db: Path, name: str) -> float:
    """Seconds of ``umpire games verify NAME`` in a child process (start-up included)."""
    code = "import sys; from umpire.cli.launch import main; sys.exit(main())"
    env = {**os.environ, "UMPIRE_DB": str(db)}
    t0 = time.perf_counter()
    subprocess.run(
        [sys.executable, "-c", code, "games", "verify", name],
        env=env,
        check=True,
        stdout=subprocess.DEVNULL,
    )
    return time.perf_counter() - t0


def sha_share(store: Store, name: str) -> tuple[int, float]:
    """(bytes of all the states' canonical JSON, seconds SHA-256 alone takes for them)."""
    from umpire.rules import get_module

    info = store.info(name)
    module = get_module(info.module)
    state = copy_state(module.initial_state(copy_state(store.scenario(name))))
    total = 0
    biggest = b""
    for _ in Game.replay_steps(state, store.records(name)):
        biggest = canonical_json(state).encode()
        total += len(biggest)
    t0 = time.perf_counter()
    done = 0
    while done < total:
        hashlib.sha256(biggest).hexdigest()
        done += len(biggest)
    return total, (time.perf_counter() - t0) * total / done


def run(kind: str, lengths: list[int], args: argparse.Namespace, tmp: Path) -> None:
    db = tmp / f"{kind}.db"
    store = Store(db)
    t0 = time.perf_counter()
    game = BUILDERS[kind](max(lengths))
    store.create(kind, game)
    built = time.perf_counter() - t0
    total = len(game.actions)
    size = len(canonical_json(game.state))
    print(f"\n{kind}: built {total} actions in {built:.1f} s; final state {size / 1024:.0f} KiB")
    print(f"{'actions':>8} {'verify s':>9} {'ms/action':>10} {'CLI s':>7}")
    rows: list[tuple[int, float]] = []
    store.fork(kind, f"{kind}-warm", min(lengths[0], total))
    verify_export(store.export(f"{kind}-warm"))  # load the module, fill its caches
    for n in lengths:
        if n > total:
            print(f"{n:>8}  (the game ends after {total} actions)")
            continue
        name = f"{kind}-{n}"
        store.fork(kind, name, n)
        secs = time_verify(store, name, args.repeat)
        cli = f"{time_cli(db, name):7.2f}" if args.cli else "      -"
        rows.append((n, secs))
        print(f"{n:>8} {secs:9.3f} {secs / n * 1000:10.3f} {cli}")
    if len(rows) >= 2:
        (n0, s0), (n1, s1) = rows[0], rows[-1]
        print(
            f"ratio of ms/action, {n1} against {n0} actions: {(s1 / n1) / (s0 / n0):.2f} "
            f"(linear: about 1; quadratic: about {n1 / n0:.0f})"
        )
    if args.sha:
        hashed, secs = sha_share(store, f"{kind}-{rows[-1][0]}")
        print(
            f"SHA-256 of every state of the {rows[-1][0]}-action game: {hashed / 1e6:.0f} MB, "
            f"{secs:.3f} s of the verify time (quadratic by the hash's definition)"
        )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--lengths", type=int, nargs="+", default=[250, 1000, 4000])
    ap.add_argument("--battle-lengths", type=int, nargs="+", default=[100, 200, 400])
    ap.add_argument("--only", default="session,cwb,battle", help="kinds of game, comma-separated")
    ap.add_argument("--repeat", type=int, default=3, help="timed runs of verify; the best is kept")
    ap.add_argument("--no-cli", dest="cli", action="store_false", help="do not time the CLI")
    ap.add_argument("--sha", action="store_true", help="measure SHA-256's share (slow)")
    args = ap.parse_args()
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} cpus; verify best of {args.repeat}")
    with tempfile.TemporaryDirectory() as tmp:
        for kind in args.only.split(","):
            lengths = args.battle_lengths if kind == "battle" else args.lengths
            run(kind, sorted(lengths), args, Path(tmp))


if __name__ == "__main__":
    main()
