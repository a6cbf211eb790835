"""``umpire roll`` without typer: the shared roll-and-print step and a fast path for the CLI.

Typer builds pydantic adapters for every parameter (about 100 ms); a console entry point can
call ``fast_roll(sys.argv[1:])`` first and fall back to the typer app when it returns None.
"""

from __future__ import annotations

import json
import secrets
import sys
from collections.abc import Sequence

from umpire.dice.notation import parse
from umpire.dice.sources import SeededSource
from umpire.errors import UmpireError

__all__ = ["fast_roll", "roll_and_print"]

SEED_BITS = 48
"""Seeds drawn for ``umpire roll`` without ``--seed`` are short enough to type back in."""


def roll_and_print(expr: str, seed: int | None, json_out: bool) -> None:
    """Roll ``expr`` once from a SeededSource and print one line (or JSON with the seed)."""
    expression = parse(expr)
    if seed is None:
        seed = secrets.randbits(SEED_BITS)
    elif seed < 0:
        raise UmpireError(f"--seed must be 0 or more, not {seed}")
    result = expression.roll(SeededSource(seed))
    if json_out:
        text = json.dumps({**result.to_json(), "seed": seed}, indent=2, ensure_ascii=False)
        sys.stdout.write(text + "\n")
    else:
        sys.stdout.write(f"{expression.explain(result)}   (seed {seed})\n")


def fast_roll(argv: Sequence[str]) -> int | None:
    """Run ``roll EXPR [--seed N] [--json]`` directly and return the exit code; None when
    ``argv`` is anything else (``--help``, other commands, odd options) so typer handles it."""
    if not argv or argv[0] != "roll":
        return None
    expr: str | None = None
    seed_text: str | None = None
    json_out = False
    args = list(argv[1:])
    i = 0
    while i < len(args):
        arg = args[i]
        if arg == "--json":
            json_out = True
        elif arg == "--seed" and i + 1 < len(args):
            seed_text = args[i + 1]
            i += 1
        elif arg.startswith("--seed="):
            seed_text = arg.removeprefix("--seed=")
        elif arg.startswith("-") or expr is not None:
            return None
        else:
            expr = arg
        i += 1
    if expr is None:
        return None
    seed: int | None = None
    if seed_text is not None:
        try:
            seed = int(seed_text)
        except ValueError:
            return None
    try:
        roll_and_print(expr, seed, json_out)
    except UmpireError as error:
        sys.stderr.write(f"umpire: error: {error}\n")
        return error.exit_code
    return 0
