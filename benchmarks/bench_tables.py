"""Roll-table loading time against the number of rows (issue 21): it must grow linearly.

Builds a table file of 500, 1000, 2000 and 4000 rows (one result per row, with text,
effects and every fourth row labelled) and times ``parse_table_text`` on it, best of
``--repeat``. The formula's exact distribution is computed once before timing (it is cached
per formula; the 4000-row formula is over the exact-odds limit, so the script lifts that
limit for itself), so the figures are the loader's own work. Prints seconds, microseconds
per row and the ratio of each size's time to the previous one (2.0 is linear).

Run: PYTHONPATH=src .venv/bin/python benchmarks/bench_tables.py [--repeat R] [--sizes 500,1000]
"""

from __future__ import annotations

import argparse
import time

FORMULAS = {
    500: "d500",
    1000: "d1000",
    2000: "d1000+d1000+d2",
    4000: "d1000+d1000+d1000+d1000+d4",
}


def table_text(rows: int) -> str:
    """A table file with ``rows`` rows covering its formula's results one each."""
    formula = FORMULAS[rows]
    lo = {500: 1, 1000: 1, 2000: 3, 4000: 5}[rows]
    out = [
        "[[table]]",
        f'id = "big{rows}"',
        f'name = "A table of {rows} rows"',
        f'formula = "{formula}"',
        'source = "benchmark"',
        "",
    ]
    for i in range(rows):
        out += [
            "[[table.row]]",
            f'range = "{lo + i}"',
            f'id = "r{i}"',
            f'text = "result {lo + i}"',
            f'effects = {{ kind = "k{i % 7}", n = {i} }}',
        ]
        if i % 4 == 0:
            out += ['label = "default"', 'reason = "a filled gap"']
        out.append("")
    return "\n".join(out)


def main() -> None:
    """Print load seconds per size and the ratios."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--sizes", default="500,1000,2000,4000")
    args = ap.parse_args()
    import umpire.dice.distribution as distribution
    from umpire.tables.loader import parse_table_text
    from umpire.tables.model import formula_outcomes

    if hasattr(distribution, "MAX_ODDS_COST"):
        distribution.MAX_ODDS_COST = 10**12  # time the loader, not the formula's odds
    sizes = [int(s) for s in args.sizes.split(",")]
    prev = None
    print(f"{'rows':>6s} {'seconds':>9s} {'us/row':>9s} {'ratio':>7s}")
    for n in sizes:
        text = table_text(n)
        formula_outcomes(FORMULAS[n])
        best = float("inf")
        for _ in range(args.repeat):
            t = time.perf_counter()
            (table,) = parse_table_text(text, file=f"big{n}.toml")
            best = min(best, time.perf_counter() - t)
        assert len(table.rows) == n
        ratio = "" if prev is None else f"{best / prev:7.2f}"
        print(f"{n:6d} {best:9.3f} {best / n * 1e6:9.1f} {ratio}", flush=True)
        prev = best


if __name__ == "__main__":
    main()
