"""The optional mypyc-compiled engine: where its build lives and whether it may be used.

``python3 tasks.py compile`` copies ``src/`` to ``build/mypyc/src`` and compiles there the
modules the scalar engine's profile names (``benchmarks/build_mypyc.py``); the copy plays
the same battles 2-4x faster. ``umpire simulate`` runs its worker processes on that copy
when it was built from the sources as they are now (a stamp of their digest): a stale build
is never used, so an edited rule is never shadowed by an old compiled one.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from umpire.errors import UmpireError

ENGINES = ("auto", "python", "compiled")
"""``--engine`` values: the compiled build when it is current, pure Python, or the build."""


def root() -> Path | None:
    """The project folder this package runs from (an editable install), else ``None``."""
    top = Path(__file__).resolve().parents[3]
    return top if (top / "pyproject.toml").exists() and (top / "src" / "umpire").is_dir() else None


def build_dir() -> Path | None:
    """``build/mypyc`` of the project folder, where ``tasks.py compile`` builds."""
    top = root()
    return None if top is None else top / "build" / "mypyc"


def digest(src: Path) -> str:
    """One hash of every .py file under ``src`` (relative path and content)."""
    h = hashlib.sha256()
    for p in sorted(src.rglob("*.py")):
        h.update(str(p.relative_to(src)).encode())
        h.update(p.read_bytes())
    return h.hexdigest()


def is_current(out: Path, src: Path) -> bool:
    """Was the build in ``out`` made from ``src`` as it is now (its stamp says so)?"""
    stamp = out / "SOURCES"
    try:
        return stamp.read_text().strip() == digest(src)
    except OSError:
        return False


def current() -> Path | None:
    """The compiled copy's import folder when it is current, else ``None``."""
    top, out = root(), build_dir()
    if top is None or out is None or not is_current(out, top / "src"):
        return None
    return out / "src"


def choose(engine: str, cluster: bool) -> Path | None:
    """The import folder the local workers should run on for ``--engine``; ``None`` is the
    pure-Python package this process runs. A Dask cluster's workers run what they have."""
    if engine not in ENGINES:
        raise UmpireError(f"unknown --engine '{engine}' ({', '.join(ENGINES)})")
    if engine == "python" or (cluster and engine == "auto"):
        return None
    if cluster:
        raise UmpireError("--engine compiled is for the local pool; a --cluster runs its own")
    found = current()
    if found is None and engine == "compiled":
        raise UmpireError(
            "no compiled engine built from these sources: run 'python3 tasks.py compile' "
            "(needs a C compiler)"
        )
    return found
