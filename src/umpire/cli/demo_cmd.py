"""``umpire demo``: the main job — a whole battle, saved, verified and drawn.

Two scripted AI generals fight the standard scenario under the quick ACW rules (seed
002). The battle is saved in the default SQLite file, every roll is checked against the
seed by replaying the saved log, and the final field is drawn as an SVG picture.
"""

from __future__ import annotations

import secrets
from typing import Annotated

import typer

from umpire.cli.common import console, open_store


def demo_cmd(
    seed: Annotated[
        int | None, typer.Option("--seed", help="The dice seed (random and printed if absent).")
    ] = None,
    scenario: Annotated[
        str, typer.Option("--scenario", help="A shipped scenario name or a scenario file.")
    ] = "standard",
    name: Annotated[str | None, typer.Option("--game", help="Name of the saved game.")] = None,
) -> None:
    """Play a whole battle AI against AI, save it, verify every roll, and draw the field."""
    from umpire.cli.main import app
    from umpire.store import verify_export

    if seed is None:
        seed = secrets.randbits(32)
    store = open_store()
    game = name or f"demo-{scenario}-{seed}"
    c = console()
    c.rule(f"[bold]Umpire demo: {scenario}, seed {seed}")
    app(args=["battle", scenario, "--seed", str(seed), "--game", game], standalone_mode=False)
    c.rule("[bold]Proof")
    report = verify_export(store.export(game))
    c.print(
        f"Saved as '{game}' in {store.path}: {report.actions} actions, {report.dice} dice; "
        "replayed from the log, every die matches the seed."
    )
    picture = store.path.parent / f"{game}.svg"
    app(args=["render", game, "-o", str(picture)], standalone_mode=False)
    c.print(
        f"Next: umpire games show {game}  |  umpire games undo {game}  |  "
        f"umpire render {game} --turn 3 -o turn3.svg"
    )
