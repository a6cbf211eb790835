"""Build the optional mypyc-compiled copy of umpire for the scalar engine (issue 11).

``python3 tasks.py compile`` runs this. The pure-Python package in ``src/`` stays what the
tests, the CLI and the web server run; ``umpire simulate`` runs its workers on the copy
when it is current (``umpire.lab.compiled``).
This script copies ``src/`` to ``build/mypyc/src/`` and compiles there, in place, the
modules the profile of the scalar engine names (the battle loop, board geometry, the
rule modules' steps and menus, the AI): ``PYTHONPATH=build/mypyc/src`` then plays the
same battles faster (``bench_scalar.py --compiled`` checks that the copy is current, and
``tests/test_scalar_golden.py`` can be run against it). Nothing in ``src/`` is touched,
so a stale build never shadows an edited module.

Needs a C compiler and mypy's mypyc (a development dependency already).

Run: .venv/bin/python benchmarks/build_mypyc.py [--jobs N]
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

from umpire.lab.compiled import digest, is_current

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "build" / "mypyc"
STAMP = OUT / "SOURCES"
"""The digest of the sources the copy was built from (``umpire.lab.compiled.is_current``)."""

HOT = [
    "umpire/battle/engine.py",
    "umpire/battle/state.py",
    "umpire/battle/victory.py",
    "umpire/battle/effects.py",
    "umpire/battle/run.py",
    "umpire/battle/menus.py",
    "umpire/battle/orders.py",
    "umpire/battle/setup.py",
    "umpire/board/fmath.py",
    "umpire/board/numeric.py",
    "umpire/board/geometry.py",
    "umpire/board/terrain.py",
    "umpire/board/crossing.py",
    "umpire/dice/stream.py",
    "umpire/sides.py",
    "umpire/ai/odds_ai.py",
    "umpire/ai/per_rules.py",
    "umpire/rules/quick_acw/steps.py",
    "umpire/rules/quick_acw/losses.py",
    "umpire/rules/quick_acw/reach.py",
    "umpire/rules/quick_acw/menu.py",
    "umpire/rules/quick_acw/ai.py",
    "umpire/rules/quick_acw/odds.py",
    "umpire/rules/sequence_cards/sequence.py",
    "umpire/rules/sequence_cards/status.py",
    "umpire/rules/sequence_cards/ladder.py",
    "umpire/rules/quick_acw/rules.py",
    "umpire/rules/quick_acw/numeric.py",
    "umpire/rules/action_reaction/steps.py",
    "umpire/rules/action_reaction/marks.py",
    "umpire/rules/action_reaction/ground.py",
    "umpire/rules/action_reaction/moving.py",
    "umpire/rules/action_reaction/firing.py",
    "umpire/rules/action_reaction/charging.py",
    "umpire/rules/action_reaction/officers.py",
    "umpire/rules/action_reaction/h2h.py",
    "umpire/rules/action_reaction/melee.py",
    "umpire/rules/action_reaction/artillery.py",
    "umpire/rules/action_reaction/fire.py",
    "umpire/rules/action_reaction/movement.py",
    "umpire/rules/action_reaction/terrain.py",
    "umpire/rules/action_reaction/menu.py",
    "umpire/rules/action_reaction/menu_odds.py",
    "umpire/rules/action_reaction/weather.py",
    "umpire/rules/action_reaction/ammo.py",
    "umpire/rules/solo_events/events.py",
]
"""The modules compiled: where the pyinstrument profiles of the six shipped scenarios
spend their time (benchmarks/RESULTS.md); ``umpire.battle.setup`` since the third pass
(the setup's fields are read in every move test: a compiled dataclass reads them natively);
``umpire.ai.per_rules`` since the fourth (every decision passes through ``PerRules.decide``);
``umpire.board.fmath`` (``math.hypot`` written out, called natively) and
``umpire.dice.stream`` (the seeded dice stream the fast path's ``Recorder`` draws from)
since the fifth; ``umpire.board.numeric`` (issue 25: the board's hot rules, whose source
the batch simulator's kernels compile with numba too) since it was written;
``umpire.rules.quick_acw.numeric`` (seed 002's rules written once, the same way) with it;
seed 003's menus (``action_reaction.menu``, ``menu_odds``, ``weather``) since issue 25's
profile of stone_wall (69% of the run, all of it interpreted).
Not ``umpire.battle.roles`` (rule modules
subclass its ``AutoStep`` and ``FixedTurn``, and an interpreted class cannot subclass a
compiled one; compiling it and the role modules gained nothing measurable) nor
``umpire.dice.sources`` (the engine's context subclasses ``DiceSource``)."""


def current() -> bool:
    """Is the compiled copy built from the sources in ``src/`` as they are now?"""
    return is_current(OUT, ROOT / "src")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="C compiler jobs")
    ap.add_argument("--if-stale", action="store_true", help="do nothing when the copy is current")
    args = ap.parse_args()
    if args.if_stale and current():
        print(f"the compiled engine in {OUT / 'src'} is current")
        return
    t0 = time.perf_counter()
    stamp = digest(ROOT / "src")  # of the sources copied: an edit during the build is stale
    if OUT.exists():
        shutil.rmtree(OUT)
    shutil.copytree(ROOT / "src", OUT / "src", ignore=shutil.ignore_patterns("__pycache__", "*.so"))
    mypyc = Path(sys.executable).with_name("mypyc")
    env = {**os.environ, "MYPYC_OPT_LEVEL": "3", "MAX_JOBS": str(args.jobs)}
    print(f"compiling {len(HOT)} modules with mypyc (a minute or two)...", flush=True)
    done = subprocess.run(
        [str(mypyc), "--config-file", str(ROOT / "pyproject.toml"), *HOT],
        cwd=OUT / "src",
        env=env,
        capture_output=True,
        text=True,
    )
    if done.returncode != 0:  # the compiler's own words, then stop; no stamp is written
        sys.stderr.write(done.stdout[-20000:] + done.stderr[-20000:])
        sys.exit(f"mypyc failed (exit {done.returncode}); the compiled engine is not built")
    print(f"compiled {len(HOT)} modules into {OUT / 'src'} in {time.perf_counter() - t0:.0f} s")
    prepare_kernels()
    STAMP.write_text(stamp + "\n")  # last: a build that fails is never current


WARM = (
    "from umpire.lab import prepare_batch; from umpire.battle.scenario import load_scenario; "
    "prepare_batch(load_scenario('standard'))"
)
"""Played on the build: the batch simulator's numba kernels, compiled and cached for the
build's own copies of their modules (numba's cache is kept per source file), so that the
lab's workers on the build load them ready."""


def prepare_kernels() -> None:
    """Compile the build's numba kernels now (a minute the first time), not in each worker."""
    t0 = time.perf_counter()
    env = {**os.environ, "PYTHONPATH": str(OUT / "src")}
    done = subprocess.run([sys.executable, "-c", WARM], env=env, capture_output=True, text=True)
    if done.returncode != 0:
        sys.stderr.write(done.stdout[-20000:] + done.stderr[-20000:])
        sys.exit(f"the build's batch simulator failed to start (exit {done.returncode})")
    print(f"the build's batch-simulator kernels ready in {time.perf_counter() - t0:.0f} s")


if __name__ == "__main__":
    main()
