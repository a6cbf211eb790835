"""``umpire lab battles``: many AI-against-AI battles of one scenario with the batch simulator.

Heavy modules (numpy, rich) are imported inside the command so ``umpire roll`` stays fast.
"""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from umpire.errors import UmpireError

lab_app = typer.Typer(no_args_is_help=True)


@lab_app.command("battles")
def battles_cmd(
    scenario: Annotated[str, typer.Argument(help="A scenario file or shipped name")],
    n: Annotated[int, typer.Option("--n", help="How many battles")] = 10000,
    seed: Annotated[
        int | None,
        typer.Option("--seed", help="The dice seed (default: a fresh random 48-bit seed)"),
    ] = None,
    batch: Annotated[int, typer.Option("--batch", help="Battles played at once")] = 0,
    as_json: Annotated[bool, typer.Option("--json", help="Print the result as JSON")] = False,
) -> None:
    """Play N battles AI against AI at once; win rates with 95% intervals, turns, losses."""
    import secrets

    from umpire.cli.common import print_json
    from umpire.lab import BATCH, simulate
    from umpire.scenarios import load_scenario, resolve_path

    if n < 1 or n > 10_000_000:
        raise UmpireError(f"--n must be between 1 and 10000000, got {n}")
    if batch < 0:
        raise UmpireError(f"--batch must be a whole number >= 1, got {batch}")
    if seed is not None and seed < 0:
        raise UmpireError(f"--seed must be a whole number >= 0, got {seed}")
    scen = load_scenario(scenario)
    run_seed = secrets.randbits(48) if seed is None else seed
    size = batch or min(BATCH, n)
    name = resolve_path(scenario).stem
    show = not as_json and n > size and sys.stderr.isatty()
    if show:
        from rich.progress import Progress

        with Progress(transient=True) as bar:
            task = bar.add_task(f"{name}: {n} battles", total=n)
            summary = simulate(
                scen, n, run_seed, batch=size, name=name, on_finish=lambda k: bar.advance(task, k)
            )
    else:
        summary = simulate(scen, n, run_seed, batch=size, name=name)
    if as_json:
        print_json(summary.to_json())
        return
    typer.echo(
        f"{name}: {n} battles, AI against AI, seed {run_seed}"
        + (" (drawn at random; --seed plays them again)" if seed is None else "")
    )
    labels = (*summary.sides, "draw")
    for k, side in enumerate(labels):
        p, lo, hi = summary.win_rate(k)
        what = "draws" if k == 2 else f"{side} wins"
        typer.echo(f"  {what:17s} {summary.wins[k]:7d}  {p:7.2%}  (95% CI {lo:.2%} - {hi:.2%})")
    lo, hi = summary.mean_ci(summary.turns_mean, summary.turns_sd)
    typer.echo(f"  turns        mean {summary.turns_mean:.3f}  (95% CI {lo:.3f} - {hi:.3f})")
    for i, side in enumerate(summary.sides):
        lo, hi = summary.mean_ci(summary.lost_mean[i], summary.lost_sd[i])
        typer.echo(
            f"  {side:12s} stands lost {summary.lost_mean[i]:.2f} (95% CI {lo:.2f} - {hi:.2f}),"
            f" units removed {summary.removed_mean[i]:.2f}"
        )
    rate = n / summary.seconds if summary.seconds else float("inf")
    typer.echo(
        f"  {summary.seconds:.2f} s, {rate:.0f} battles/s, {summary.dice} dice "
        f"({summary.dice / summary.seconds:,.0f} dice/s)"
    )
