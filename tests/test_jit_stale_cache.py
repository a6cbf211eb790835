"""A numba cache index left by older sources (its pickled argument types name a class that
is gone, as after an update that renamed a kernel's bundle) is treated as stale: the kernel
compiles again instead of raising on its first call."""

from __future__ import annotations

import pickle
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from umpire import jit

pytestmark = pytest.mark.skipif(not jit.ENABLED, reason=jit.WHY_OFF or "")

KERNEL = textwrap.dedent(
    """
    from umpire.jit import kernel

    @kernel
    def twice(x):
        return 2 * x

    print(twice(21))
    """
)


def run(folder: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", "import kern"],
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=300,
        env={"PYTHONPATH": f"{folder}:{Path(jit.__file__).parents[1]}", "PATH": "/usr/bin"},
    )


def test_an_index_that_no_longer_unpickles_compiles_again(tmp_path: Path) -> None:
    (tmp_path / "kern.py").write_text(KERNEL, encoding="utf-8")
    first = run(tmp_path)
    assert first.returncode == 0 and first.stdout.strip() == "42", first.stderr[-500:]
    (index,) = (tmp_path / "__pycache__").glob("kern.twice-*.nbi")
    with index.open("rb") as f:
        version = pickle.load(f)
    # the same numba version, then a stamp and overloads naming a class that no longer is
    gone = b"ckern\nGoneBundle\n."  # pickle's GLOBAL opcode: kern.GoneBundle
    index.write_bytes(pickle.dumps(version) + gone)
    with pytest.raises((AttributeError, ModuleNotFoundError)):
        pickle.loads(gone)  # what numba itself unpickles, and raised on, before
    again = run(tmp_path)
    assert again.returncode == 0 and again.stdout.strip() == "42", again.stderr[-500:]
