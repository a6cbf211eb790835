"""Issue 25, "Kernels take one bundle of arrays (a structured array or a small typed record
of arrays), not 40 parameters": no numba kernel takes more than 8 parameters, and the batch
simulator stays within its size (read from the sources, no kernel compiled).

The kernels are the functions under ``@jit.kernel`` or ``@jit.inline`` (``umpire.jit``);
what they read comes in the records of ``batch/arrays.py`` (``Bases``, ``Units``,
``Scene``, ``Poses``, ``Forms``, ...), ``kboard.Board`` and ``kgeom.Box``. The plain
numeric functions numba compiles through ``jit.twin`` (``board/numeric.py``,
``quick_acw/numeric.py``) are the scalar engine's own source, floats in and numbers out,
and are not kernels in this sense.
"""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src" / "umpire"
MAX_PARAMS = 8
BATCH_LINES = 2500  # issue 25: the batch simulator with everything only it uses
FILE_LINES = 1200  # issue 25: no source file over this


def _is_kernel(fn: ast.FunctionDef) -> bool:
    """Is ``fn`` compiled by numba as a kernel (``@jit.kernel``, ``@jit.inline``, ``njit``)?"""
    for d in fn.decorator_list:
        name = ast.unparse(d.func if isinstance(d, ast.Call) else d)
        if name.rpartition(".")[2] in ("kernel", "inline", "njit", "jit"):
            return True
    return False


def _params(fn: ast.FunctionDef) -> int:
    a = fn.args
    extra = (a.vararg is not None) + (a.kwarg is not None)
    return len(a.posonlyargs) + len(a.args) + len(a.kwonlyargs) + extra


def kernels() -> list[tuple[str, int]]:
    """(module:function, parameters) of every kernel in the package."""
    out = []
    for path in sorted(SRC.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.FunctionDef) and _is_kernel(node):
                out.append((f"{path.relative_to(SRC)}:{node.name}", _params(node)))
    return out


def test_kernels_take_bundles_not_long_parameter_lists() -> None:
    """Issue 25 (one implementation of each rule): "Kernels take one bundle of arrays ...,
    not 40 parameters": every kernel takes at most 8."""
    found = kernels()
    assert len(found) >= 30, found  # the decorators were recognised
    over = [f"{name} takes {n} parameters" for name, n in found if n > MAX_PARAMS]
    assert not over, f"kernels over {MAX_PARAMS} parameters (bundle them): {over}"


def test_the_check_counts_what_it_must() -> None:
    """The counter sees a kernel's parameters of every kind and ignores plain functions."""
    tree = ast.parse(
        "@jit.kernel\ndef k(a, b, /, c, *d, e, **f): pass\n"
        "@jit.inline\ndef i(a): pass\n"
        "def plain(a, b, c, d, e, f, g, h, i, j): pass\n"
    )
    fns = [n for n in tree.body if isinstance(n, ast.FunctionDef)]
    assert [(f.name, _is_kernel(f), _params(f)) for f in fns] == [
        ("k", True, 6),
        ("i", True, 1),
        ("plain", False, 10),
    ]


def test_batch_simulator_and_files_within_their_size() -> None:
    """Issue 25 goals: the batch simulator with everything only it uses (``batch/*.py`` and
    the board's kernels ``board/k*.py``) at most 2,500 lines; no source file over 1,200."""
    batch = [*(SRC / "rules" / "quick_acw" / "batch").glob("*.py"), *(SRC / "board").glob("k*.py")]
    lines = sum(len(p.read_text().splitlines()) for p in batch)
    assert lines <= BATCH_LINES, f"the batch simulator is {lines} lines"
    big = {
        str(p.relative_to(SRC)): n
        for p in SRC.rglob("*.py")
        if (n := len(p.read_text().splitlines())) > FILE_LINES
    }
    assert not big, big
