"""``umpire session demo``: a short committed dice-book game, verified at the end.

It starts a saved game with committed dice, rolls what seeds 001, 002 and 004 ask of
players (a morale test, the solo random-event check, a blind card draw for random
movement), ends the game, exports it and verifies every roll against the seed.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Annotated

import typer

from umpire.cli.common import console, open_store, percent, print_events


def session_demo_cmd(
    seed: Annotated[
        int | None, typer.Option("--seed", help="Seed for the committed dice (random if absent).")
    ] = None,
    name: Annotated[str | None, typer.Option("--name", help="Name of the saved game.")] = None,
) -> None:
    """Play a short logged game of dice, tables and cards, then verify it."""
    from umpire.cli.common import make_source
    from umpire.cli.games_cmd import atomic_write
    from umpire.dice import parse
    from umpire.engine import Game
    from umpire.store import verify_export

    c = console()
    store = open_store()
    game_name = name or time.strftime("demo-%Y%m%d-%H%M%S")
    source = make_source(seed, "committed")
    game = Game.new("session", {"title": "Umpire demonstration"}, source)
    store.create(game_name, game)
    c.rule(f"[bold]Umpire demo: {game_name}")
    c.print(f"Save file: {store.path}")
    c.print(f"Committed dice: sha256(seed) = {source.commitment}")

    def step(title: str, action: str, params: dict[str, object]) -> None:
        c.print(f"\n[bold]{title}[/]")
        print_events(store.play(game_name, store.load(game_name), action, params))

    morale = parse("2d6>=8").distribution().probability(True)
    step(
        f"Seed 002 morale: a Union unit must roll 8+ on 2d6 to charge "
        f"(exact odds {morale} = {percent(morale)})",
        "roll",
        {"expr": "2d6>=8", "purpose": "Union charge test (002 MORALE)"},
    )
    try:
        step(
            "Seed 001: is there a random event this turn? (1d6: 1 or 6)",
            "table",
            {"table": "solo_event_check", "purpose": "random event check"},
        )
        step(
            "Seed 001: which side does it strike? (1d6: odd attacker, even defender)",
            "table",
            {"table": "solo_event_side", "purpose": "side struck"},
        )
        step("Seed 001: the d20 event", "table", {"table": "solo_events", "purpose": "solo event"})
    except Exception as exc:  # tables not installed: say so, keep going
        c.print(f"(solo event tables unavailable: {exc})")
    step(
        "Seed 004: put the brigade cards of both sides in one box",
        "deck",
        {
            "name": "box",
            "cards": [
                "Iron Brigade",
                "Stone's",
                "Archer's",
                "Davis's",
                "Cutler's",
                "Brockenbrough's",
            ],
        },
    )
    for i in range(3):
        step(f"Seed 004: draw card {i + 1} blind", "draw", {"deck": "box"})
    step(
        "Seed 000: a division chosen at random",
        "pick",
        {
            "options": ["Wadsworth", "Doubleday", "Robinson"],
            "count": 1,
            "purpose": "corps attack stoppage",
        },
    )

    info = store.end(game_name)
    export = store.export(game_name)
    out = store.path.parent / f"{game_name}.json"
    import json

    atomic_write(Path(out), json.dumps(export, indent=1) + "\n")
    report = verify_export(export)
    c.rule("[bold]Proof")
    c.print(f"Seed revealed: {info.seed}; sha256 matches the commitment.")
    c.print(f"Exported to {out}; verified {report.actions} actions and {report.dice} dice.")
    c.print(f"Look again with: umpire games show {game_name}  |  umpire games verify {out}")
    from umpire.cli.aar_cmd import report_at_end  # issue 24: the report at the end of play

    c.print(report_at_end(store, game_name), markup=False, soft_wrap=True)
