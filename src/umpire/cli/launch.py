"""The console entry point: ``umpire roll`` takes a fast path, everything else typer.

Typer and its pydantic adapters cost about 100 ms to import; a player rolling dice at
the table should not wait for them. ``fast_roll`` handles exactly ``roll EXPR [--seed N]
[--json]`` and returns None for anything else, which the full app then answers.
"""

from __future__ import annotations

import sys


def main() -> int:
    """Run ``umpire`` with the command-line arguments; return the exit code."""
    args = sys.argv[1:]
    if args[:1] == ["roll"]:
        from umpire.dice.quickroll import fast_roll

        code = fast_roll(args)
        if code is not None:
            return code
    from umpire.cli.main import main as full

    return full(args)


if __name__ == "__main__":
    sys.exit(main())
