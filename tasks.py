#!/usr/bin/env python3
"""Set-up and tasks for Umpire, with nothing but Python 3.11 on the machine.

    python3 tasks.py demo    # make .venv, install, and play the main job
    python3 tasks.py test    # make .venv, install, and run every check and test
    python3 tasks.py compile # optional: build the mypyc-compiled engine for umpire simulate

The virtual environment is (re)installed when pyproject.toml changes.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
STAMP = VENV / ".installed"


def run(*cmd: str | Path, check: bool = True, env: dict[str, str] | None = None) -> int:
    """Run a command in the project folder (with ``env`` added); stop on failure when ``check``."""
    print("+", *(f"{k}={v}" for k, v in (env or {}).items()), *cmd, flush=True)
    code = subprocess.call([str(c) for c in cmd], cwd=ROOT, env={**os.environ, **(env or {})})
    if check and code != 0:
        sys.exit(code)
    return code


def ensure_venv() -> None:
    """Create .venv and install the project with its dev extras, when needed."""
    want = hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()
    if STAMP.exists() and STAMP.read_text().strip() == want:
        return
    if sys.version_info < (3, 11):  # noqa: UP036 (tasks.py may run on an old python3)
        sys.exit("Umpire needs Python 3.11 or newer")
    if not (BIN / "python").exists():
        print(f"creating {VENV}", flush=True)
        try:
            venv.EnvBuilder(with_pip=True).create(VENV)
        except (OSError, subprocess.CalledProcessError):
            # Debian's python3 keeps ensurepip in a separate package.
            shutil.rmtree(VENV, ignore_errors=True)
            apt_install("python3-venv")
            venv.EnvBuilder(with_pip=True).create(VENV)
    run(BIN / "python", "-m", "pip", "install", "--quiet", "--upgrade", "pip")
    run(BIN / "python", "-m", "pip", "install", "--quiet", "-e", ".[dev]")
    STAMP.write_text(want + "\n")


def ensure_chromium() -> None:
    """Install Debian's chromium for the browser tests when it is missing."""
    if shutil.which("chromium") or Path("/usr/bin/chromium").exists():
        return
    if shutil.which("apt-get") is None:
        print("note: no chromium and no apt-get: browser tests will be skipped", flush=True)
        return
    apt_install("chromium")


def apt_install(package: str) -> None:
    """Install one of Debian's packages (as root, or through sudo); a failure is left to
    the caller's next check."""
    sudo = [] if os.geteuid() == 0 else ["sudo"]
    run(*sudo, "apt-get", "update", "-qq", check=False)
    run(*sudo, "apt-get", "install", "-y", "-qq", package, check=False)


def demo(args: list[str]) -> None:
    """The main job: play a game on the default embedded SQLite save file."""
    ensure_venv()
    sys.exit(run(BIN / "umpire", "demo", *args, check=False))


def test(args: list[str]) -> None:
    """Lint, type-check and run every test, then the battle checks again on the compiled
    engine (built when stale); pytest arguments run the first pass only, with them."""
    ensure_venv()
    if (ROOT / "tests" / "browser").exists():
        ensure_chromium()
    run(BIN / "ruff", "check", "src", "tests", "benchmarks")
    run(BIN / "ruff", "format", "--check", "src", "tests", "benchmarks")
    run(BIN / "mypy", "--strict", "src")
    run(BIN / "lint-imports")
    pytest(*args)
    if args:
        return
    # The compiled engine that umpire simulate runs when it is built: the same battles.
    if not compile_engine([]):
        print("note: no C compiler: the compiled engine's checks are skipped", flush=True)
        return
    build = ROOT / "build" / "mypyc" / "src"
    pytest(*COMPILED_TESTS, env={"PYTHONPATH": str(build), "UMPIRE_EXPECT_COMPILED": "1"})


COMPILED_TESTS = [
    "tests/test_compiled_engine.py",
    "tests/test_scalar_golden.py",
    "tests/test_scalar_shortcuts.py",
    "tests/test_composition_identity.py",
    "tests/test_lab_agreement.py",
    "tests/test_crossing.py",
]
"""What ``test`` runs again on the compiled engine: it must play every battle the same
(and work out a wall's crossing to shapely's float: mypyc's arithmetic, not Python's)."""


def pytest(*args: str, env: dict[str, str] | None = None) -> None:
    """Run pytest on two cores; stop on failure. 'No tests ran' (exit 5) is a failure."""
    opts = ["-q", "-n", "2", "-p", "no:cacheprovider"]
    code = run(BIN / "pytest", *opts, *args, check=False, env=env)
    if code == 5:
        print("pytest ran no tests: that is a failure", flush=True)
        sys.exit(1)
    if code != 0:
        sys.exit(code)


def ensure_compiler() -> None:
    """Install Debian's gcc for the compiled engine when there is no C compiler."""
    if shutil.which("cc") or shutil.which("gcc") or shutil.which("apt-get") is None:
        return
    apt_install("gcc")


def compile_engine(args: list[str]) -> bool:
    """Build the optional mypyc-compiled engine that ``umpire simulate`` then runs on
    (nothing to do when it is current); ``False`` when there is no C compiler to be had."""
    ensure_venv()
    ensure_compiler()
    if not (shutil.which("cc") or shutil.which("gcc")):
        return False
    run(BIN / "python", ROOT / "benchmarks" / "build_mypyc.py", "--if-stale", *args)
    return True


def main() -> None:
    """Dispatch ``demo``, ``test`` or ``compile``."""
    tasks = {"demo": demo, "test": test, "compile": compile_engine}
    if len(sys.argv) < 2 or sys.argv[1] not in tasks:
        sys.exit(f"usage: python3 tasks.py {{{'|'.join(tasks)}}} [args...]")
    tasks[sys.argv[1]](sys.argv[2:])


if __name__ == "__main__":
    main()
