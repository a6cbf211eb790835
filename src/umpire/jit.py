"""Just-in-time compiled kernels (numba) for the batch simulator's hot loops.

The batch simulator answers every battle at once with numpy; where a step is a loop
with early exits (a unit trying its destinations, a firer looking for a target he can
see), numpy pays for every element of every mask, and a compiled loop pays only for
the work done. :func:`kernel` compiles such a loop with numba when it can be imported
(``ENABLED``); otherwise, or with ``UMPIRE_JIT=0`` in the environment, the caller keeps
its numpy form, which plays the same battles (``tests/test_lab_agreement.py`` runs
both). :func:`twin` gives numba's copy of a plain module the scalar engine also runs
(issue 25: one source for both engines). numba's own ``math.hypot`` may differ from
Python's in the last bit, so kernels use :data:`hypot`, numba's copy of
``umpire.board.numeric.hypot`` (CPython 3.11's algorithm, which the mypyc build compiles
too; tested bit for bit).
"""

from __future__ import annotations

import importlib.util
import os
import sys
import types
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

Fn = TypeVar("Fn", bound=Callable[..., Any])


def why_off() -> str | None:
    """Why kernels are not compiled here, in words a user can act on, or None where they are:
    switched off (``UMPIRE_JIT=0``), a Python whose ``math.hypot`` is not 3.11's
    (:func:`hypot` is that algorithm), or numba not installed."""
    if os.environ.get("UMPIRE_JIT", "1") == "0":
        return "numba is switched off (UMPIRE_JIT=0)"
    if sys.version_info[:2] != (3, 11):
        major, minor = sys.version_info[0], sys.version_info[1]
        return f"numba's kernels need Python 3.11 (this is {major}.{minor})"
    try:
        import numba  # noqa: F401
    except ImportError:  # an optional speed-up: the scalar engine plays the same battles
        return "numba is not available (not installed)"
    return None


def _numba() -> Any:
    """The numba module, or None where :func:`why_off` gives a reason."""
    if why_off() is not None:
        return None
    import numba

    _tolerate_old_caches()
    return numba


def _tolerate_old_caches() -> None:
    """Treat a cache index that no longer unpickles as stale, so the kernel compiles again.

    numba reads a kernel's cache index (beside its source) before it compares the source's
    stamp; the index pickles the argument types, so after an update that renamed or removed
    a record class (a kernel's bundle) the first call raised instead of recompiling. Only
    the unpickling is guarded: a fresh or a current index loads as before."""
    try:
        from numba.core.caching import IndexDataCacheFile
    except ImportError:  # pragma: no cover - another numba layout: its own behaviour
        return
    load: Callable[[Any], Any] = IndexDataCacheFile._load_index
    if getattr(load, "_umpire_tolerant", False):
        return

    def tolerant(self: Any) -> Any:
        try:
            return load(self)
        except Exception:  # an index written by other sources: stale, compile again
            return {}

    tolerant._umpire_tolerant = True  # type: ignore[attr-defined]
    IndexDataCacheFile._load_index = tolerant  # type: ignore[method-assign]


WHY_OFF: str | None = why_off()
"""Why kernels are off here (None where they are on): said by the lab when it falls back."""
_NB = _numba()
ENABLED: bool = _NB is not None
"""Are kernels compiled (numba importable and not switched off)?"""


def kernel(fn: Fn) -> Fn:
    """Compile ``fn`` in nopython mode, cached beside its source, when ``ENABLED``;
    else return it as it is (callers use their numpy form instead of calling it)."""
    if _NB is None:
        return fn
    out: Fn = _NB.njit(cache=True, nogil=True)(fn)
    return out


def inline(fn: Fn) -> Fn:
    """:func:`kernel` for small helpers that are inlined into the kernels calling them."""
    if _NB is None:
        return fn
    out: Fn = _NB.njit(cache=True, inline="always")(fn)
    return out


_TWINS: dict[str, types.ModuleType] = {}


def twin(module: types.ModuleType) -> Any:
    """numba's copy of a plain module (issue 25: one source for both engines), or the
    module itself when numba is off.

    The copy is the module's ``.py`` source loaded again under another name (from the
    file, so it works when the mypyc build's ``.so`` is what ``import`` finds), with each
    of its own functions replaced in its globals by ``njit(cache=True)`` of it: the
    functions call one another's compiled forms, and so do the kernels that call them.
    numba caches them beside the source like any kernel. Not ``inline="always"``: inlining
    in numba's own IR at every call site doubled the kernels' first compile (60 to 129 s of
    CPU), while plain calls halved it (29 s) and run as fast (LLVM inlines what pays;
    benchmarks/RESULTS.md, issue 25). The scalar engine imports the module itself
    (interpreted, or compiled by mypyc)."""
    if _NB is None:
        return module
    got = _TWINS.get(module.__name__)
    if got is None:
        file = module.__file__
        assert file is not None, module
        path = Path(file).with_name(module.__name__.rpartition(".")[2] + ".py")
        name = module.__name__ + "__numba"
        spec = importlib.util.spec_from_file_location(name, path)
        assert spec is not None and spec.loader is not None, path
        got = importlib.util.module_from_spec(spec)
        sys.modules[name] = got
        spec.loader.exec_module(got)
        for key, value in list(vars(got).items()):
            if isinstance(value, types.FunctionType) and value.__module__ == name:
                setattr(got, key, _NB.njit(cache=True)(value))
        _TWINS[module.__name__] = got
    return got


# numba's own ``math.hypot`` may differ from Python's in the last bit: kernels call this
# one, numba's copy of the scalar engine's (CPython 3.11's algorithm, written once in
# ``umpire.board.numeric``). Imported last: ``umpire.board`` does not import this module.
from umpire.board import numeric as _numeric  # noqa: E402

hypot: Callable[[float, float], float] = twin(_numeric).hypot
"""``math.hypot(x, y)`` bit for bit, for kernels (``umpire.board.numeric.hypot``)."""
