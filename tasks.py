#!/usr/bin/env python3
"""Set-up and tasks for Umpire, with nothing but Python 3.11 on the machine.

    python3 tasks.py demo    # make .venv, install, and play the main job
    python3 tasks.py test    # make .venv, install, and run every check and test

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


def run(*cmd: str | Path, check: bool = True) -> int:
    """Run a command in the project folder; stop on failure when ``check``."""
    print("+", " ".join(str(c) for c in cmd), flush=True)
    code = subprocess.call([str(c) for c in cmd], cwd=ROOT)
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
            sudo = [] if os.geteuid() == 0 else ["sudo"]
            run(*sudo, "apt-get", "install", "-y", "-qq", "python3-venv", check=False)
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
    sudo = [] if os.geteuid() == 0 else ["sudo"]
    run(*sudo, "apt-get", "update", "-qq", check=False)
    run(*sudo, "apt-get", "install", "-y", "-qq", "chromium", check=False)


def demo(args: list[str]) -> None:
    """The main job: play a game on the default embedded SQLite save file."""
    ensure_venv()
    sys.exit(run(BIN / "umpire", "demo", *args, check=False))


def test(args: list[str]) -> None:
    """Lint, type-check and run every test; pytest's 'no tests ran' (5) is a failure."""
    ensure_venv()
    if (ROOT / "tests" / "browser").exists():
        ensure_chromium()
    run(BIN / "ruff", "check", "src", "tests", "benchmarks")
    run(BIN / "ruff", "format", "--check", "src", "tests", "benchmarks")
    run(BIN / "mypy", "--strict", "src")
    run(BIN / "lint-imports")
    code = run(BIN / "pytest", "-q", "-n", "2", *args, check=False)
    if code == 5:
        print("pytest ran no tests: that is a failure", flush=True)
        sys.exit(1)
    sys.exit(code)


def main() -> None:
    """Dispatch ``demo`` or ``test``."""
    tasks = {"demo": demo, "test": test}
    if len(sys.argv) < 2 or sys.argv[1] not in tasks:
        sys.exit(f"usage: python3 tasks.py {{{'|'.join(tasks)}}} [args...]")
    tasks[sys.argv[1]](sys.argv[2:])


if __name__ == "__main__":
    main()
