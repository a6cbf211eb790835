"""``umpire battle`` and ``umpire render``.

Plain typer commands; the lead mounts them in ``cli/main.py``. Errors are UmpireErrors
(one line, no traceback) printed by the caller's handler.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import typer

from umpire.cli.common import print_json
from umpire.errors import UmpireError, UnknownNameError
from umpire.paths import is_file
from umpire.sides import SIDES

BATTLE_MODULES = ("battle", "quick_acw")
"""Game module ids of saved battles (``quick_acw``: saves from before the composable engine)."""
POLICIES = ("ai", "easy", "normal", "hard", "random", "human")
"""``ai`` is ``normal``: the shipped AI (issue 23's levels: easy, normal, hard)."""


def _side_list(text: str, option: str) -> list[str]:
    """The sides named in ``option``, matched without regard to case (``--human Union``)."""
    sides = [t.strip().lower() for t in text.split(",") if t.strip()]
    for side in sides:
        if side not in SIDES:
            raise UnknownNameError(f"unknown side '{side}' in {option} (sides: {', '.join(SIDES)})")
    return sides


def assign_players(
    ai: str | None, human: str, random_sides: str, players: list[str] | None = None
) -> dict[str, str]:
    """Which policy plays each side: ``--player SIDE=KIND``, ``--human``, ``--random``, ``--ai``.

    Without ``--ai`` every side not given to another player is played by the AI; with
    ``--ai`` exactly the sides it lists are, and every side must have a player.
    """
    kinds: dict[str, str] = {}

    def give(side: str, kind: str) -> None:
        if kinds.get(side, kind) != kind:
            raise UmpireError(f"the {side} side is given two players ({kinds[side]} and {kind})")
        kinds[side] = kind

    for text in players or []:
        side, eq, kind = text.partition("=")
        if not eq:
            raise UmpireError(f"--player takes SIDE=POLICY, e.g. union=human, not '{text}'")
        (side,) = _side_list(side, "--player") or [""]
        kind = kind.strip().lower()
        if kind not in POLICIES:
            raise UnknownNameError(f"unknown policy '{kind}' (known: {', '.join(POLICIES)})")
        give(side, kind)
    for side in _side_list(human, "--human"):
        give(side, "human")
    for side in _side_list(random_sides, "--random"):
        give(side, "random")
    for side in _side_list(ai or "", "--ai"):
        give(side, "ai")
    for side in SIDES:
        if side not in kinds:
            if ai is not None:
                raise UmpireError(
                    f"no player for the {side} side: name it in --ai, --human or --random"
                )
            kinds[side] = "ai"
    return kinds


def _human(as_json: bool, saved: bool = False) -> Any:
    """The human policy at this terminal: a menu on stdout (stderr with --json).

    A wrong entry is said in one line and asked again, as many times as needed; ``q`` or
    ``quit`` stops. When the game is saved as it goes (``saved``), the player may also type
    ``status`` and ``undo`` at any prompt. ``?`` or ``why N`` says why a menu entry reads as
    it does (the roles' ``explain`` seam), then asks again.
    """
    from umpire.ai.human import HumanPolicy
    from umpire.battle.engine import Battle, Order, Request

    def show(line: str) -> None:
        typer.echo(line, err=as_json)

    class TablePolicy(HumanPolicy):
        """The human policy with ``why``: it keeps the decision it is asked for."""

        at: tuple[Battle, Request] | None = None

        def decide(self, b: Battle, req: Request) -> Order:
            self.at = (b, req)
            return super().decide(b, req)

    def why(words: list[str]) -> None:
        from umpire.battle.roles import KNOWN_LATER, explain

        menu = pol._menu
        if pol.at is None or not menu:
            show("  nothing to explain: no menu is shown")
            return
        b, req = pol.at
        if len(words) == 1:
            picks = list(range(1, len(menu) + 1))
        elif len(words) == 2 and words[1].isascii() and words[1].isdigit():
            picks = [int(words[1][:6])]
        else:
            show("umpire: error: type 'why N' with N a menu number, or '?' for every entry")
            return
        for k in picks:
            if not 1 <= k <= len(menu):
                show(f"umpire: error: why: choose 1 to {len(menu)}, not {k}")
                return
            lines = explain(b, req, menu[k - 1])
            show(f"  {k}. {lines[0]}")
            for line in lines[1:]:
                show(f"     {line.strip()}")
        show("  not yet known for any order: " + ", ".join(KNOWN_LATER))

    def ask(prompt: str) -> str:
        while True:
            try:
                text = input(prompt)
            except EOFError:
                if saved:
                    raise UmpireError(
                        "no order typed (standard input closed); the game is saved as far as "
                        "it went"
                    ) from None
                raise UmpireError("no order typed (standard input closed); nothing saved") from None
            words = text.strip().lower().split()
            if words and words[0] in ("?", "why"):
                why(words)
                continue
            return text

    def status(b: Any) -> None:
        from umpire.cli.battle_view import status_table
        from umpire.cli.common import console

        console().print(status_table(b))

    pol = TablePolicy(ask=ask, show=show, retry=True, status=status, table_words=saved)
    return pol


def battle(
    scenario: str | None = typer.Argument(
        None, help="A scenario file or shipped name (not with --resume)"
    ),
    seed: int | None = typer.Option(
        None,
        "--seed",
        help="The dice seed (same seed, same orders: same battle); default a fresh random "
        "48-bit seed, printed",
    ),
    ai: str | None = typer.Option(
        None, "--ai", help="Sides the AI plays (default: every side no one else plays)"
    ),
    human: str = typer.Option("", "--human", help="Side(s) played at the prompt"),
    random_sides: str = typer.Option("", "--random", help="Side(s) played by the random policy"),
    player: list[str] = typer.Option(
        [],
        "--player",
        help="SIDE=POLICY, POLICY one of easy, normal (= ai), hard, random, human (repeatable)",
    ),
    as_json: bool = typer.Option(False, "--json", help="Print the result as JSON"),
    log: Path | None = typer.Option(None, "--log", help="Write faces, orders and narrative"),
    game: str | None = typer.Option(
        None, "--game", help="Save under this name (default battle-SCENARIO-SEED)"
    ),
    no_save: bool = typer.Option(False, "--no-save", help="Do not save the battle"),
    resume: str | None = typer.Option(
        None, "--resume", help="Play on a saved battle (after undo or fork) to the end"
    ),
    dice: str = typer.Option(
        "seeded",
        "--dice",
        help="seeded (default) or physical: you roll real dice and type the faces; a random "
        "pick among up to 6 is one d6, among more (and every card) a draw you type in",
    ),
    vary: str | None = typer.Option(
        None,
        "--vary",
        help="Play a rule variant, KEY=VALUE,... as 'umpire simulate --vary' (with --no-save): "
        "replays battle i of a simulate arm",
    ),
    rules_data: str | None = typer.Option(
        None, "--rules-data", help="Play a copy of a module's data (as simulate; with --no-save)"
    ),
    explain: bool = typer.Option(
        False, "--explain", help="Say in a line why the AI chose each order (also in --log)"
    ),
) -> None:
    """Play a battle to the end, print the narrative and the result, and save it."""
    from umpire.ai import make_policy
    from umpire.battle.run import play, state_hash
    from umpire.battle.scenario import load_scenario
    from umpire.scenarios import resolve_path

    if dice not in ("seeded", "physical"):
        raise UmpireError(f"unknown --dice '{dice}' (seeded, physical)")
    if resume is not None:
        extra = [
            opt
            for opt, given in (
                ("SCENARIO", scenario is not None),
                ("--seed", seed is not None),
                ("--dice", dice != "seeded"),
                ("--log", log is not None),
                ("--game", game is not None),
                ("--no-save", no_save),
            )
            if given
        ]
        if extra:
            raise UmpireError(
                f"--resume plays on the saved game with its own scenario and dice; "
                f"drop {', '.join(extra)}"
            )
        chosen = ai is not None or bool(human or random_sides or player)
        kinds = assign_players(ai, human, random_sides, player) if chosen else None
        resume_battle(resume, kinds, as_json, explain=explain)
        return
    if scenario is None:
        raise UmpireError("give a SCENARIO to play, or --resume NAME to play on a saved battle")
    if dice == "physical":
        bad = [
            o
            for o, g in (
                ("--seed", seed is not None),
                ("--log", log is not None),
                ("--no-save", no_save),
            )
            if g
        ]
        if bad:
            raise UmpireError(
                f"--dice physical plays a saved game with your dice; drop {', '.join(bad)}"
            )
    fresh_seed = seed is None
    if seed is None:
        import secrets

        seed = secrets.randbits(48)
    if seed < 0:
        raise UmpireError(f"--seed must be a whole number >= 0, got {seed}")
    scen = load_scenario(scenario)
    if vary is not None or rules_data is not None:
        scen = _variant(scen, vary, rules_data, no_save, dice)
    kinds = assign_players(ai, human, random_sides, player)
    name = game or f"battle-{resolve_path(scenario).stem}-{seed}"
    store = None
    if not no_save:
        from umpire.cli.common import open_store

        store = open_store()
        if name in store.names():
            raise UmpireError(
                f"a game named '{name}' already exists (choose another with --game, or --no-save)"
            )
    if dice == "physical" and store is not None:
        # Real dice: every roll is asked for as it comes, every action saved as it is made.
        from umpire.cli.common import ask_cup, ask_faces
        from umpire.dice import PhysicalSource
        from umpire.engine.game import Game
        from umpire.rules import get_module

        name = game or f"battle-{resolve_path(scenario).stem}-table"
        if name in store.names():
            raise UmpireError(f"a game named '{name}' already exists (choose another with --game)")
        table = Game.new(get_module("battle"), scen.to_json(), PhysicalSource(ask_faces, ask_cup))
        store.create(name, table)
        store.add_record(name, "players", {"players": kinds})
        play_stored(store, name, table, kinds, as_json, seed=None, explain=explain)
        return
    if store is not None and log is None and "human" in kinds.values():
        # A person plays: every decision is saved as it is made, so quit, undo and
        # resume work at the prompt (the AI-only fast path saves at the end instead).
        from umpire.battle.game import new_game

        started = new_game(scen, seed)
        store.create(name, started)
        store.add_record(name, "players", {"players": kinds})
        if fresh_seed and not as_json:
            typer.echo(f"Seed {seed} (drawn at random; --seed {seed} plays this battle again)")
        play_stored(store, name, started, kinds, as_json, seed=seed, explain=explain)
        return
    pols: dict[str, Any] = {
        side: _human(as_json) if kind == "human" else make_policy(kind, seed)
        for side, kind in kinds.items()
    }
    if explain:
        from umpire.ai.levels import Explained

        # with a person at the prompt a line is said as the AI decides (before the lines of
        # what its order did); AI against AI, in the narrative
        tell = (lambda line: typer.echo(line, err=as_json)) if "human" in kinds.values() else None
        pols = {
            side: p if kinds[side] == "human" else Explained(p, side, tell)
            for side, p in pols.items()
        }
    from umpire.ai.human import PlayerCommand

    if "human" in kinds.values() and not as_json:  # unsaved: the briefing without a picture
        from umpire.battle.run import new_battle
        from umpire.cli.battle_view import briefing
        from umpire.dice import ScriptedSource

        for line in briefing(new_battle(scen, ScriptedSource([]))):
            typer.echo(line)
        typer.echo(f"  The field: umpire render {scenario} -o field.png draws it")
    # a person at the prompt sees each line as it happens, not all of them at the end
    tell = typer.echo if "human" in kinds.values() and not as_json else None
    try:
        res = play(scen, seed, pols, narrate=not as_json or log is not None, tell=tell)
    except PlayerCommand:
        typer.echo("Quit: the battle stops here, unsaved (--no-save)")
        return
    except UmpireError:
        raise
    except Exception as exc:
        if vary is None and rules_data is None:
            raise  # the shipped rules failing is a bug: keep its traceback
        raise UmpireError(
            f"the variant's battle failed ({type(exc).__name__}: {exc}); "
            "are the varied rules consistent?"
        ) from None
    game_obj = None
    if store is not None:
        from umpire.battle.game import save_game

        game_obj = save_game(scen, seed, res.orders)
        if state_hash(game_obj.state["battle"]) != state_hash(res.state):
            raise UmpireError("internal error: the saved game does not reach the played state")
    saved = name if store is not None else None
    summary = {**res.to_json(), "players": kinds, "game": saved}
    if log is not None:  # written before the save, so a failure leaves no game behind
        from umpire.cli.games_cmd import atomic_write

        text = json.dumps(
            {
                "scenario": scenario,
                "scenario_data": scen.to_json(),
                "seed": seed,
                "faces": res.faces,
                "orders": res.orders,
                "narrative": res.lines,
                "result": summary,
            }
        )
        try:
            atomic_write(log, text)
        except OSError as exc:
            raise UmpireError(f"cannot write {log}: {exc.strerror}") from None
    if store is not None and game_obj is not None:
        store.create(name, game_obj)
        store.add_record(name, "players", {"players": kinds})
    if as_json:
        print_json(summary)
        return
    if fresh_seed:
        typer.echo(f"Seed {seed} (drawn at random; --seed {seed} plays this battle again)")
    if tell is None:
        for line in res.lines:
            typer.echo(line)
    from umpire.battle.game import battle_from
    from umpire.cli.battle_view import result_words

    end = battle_from({"scenario": scen.to_json(), "battle": res.state})
    typer.echo(f"Result: {result_words(end)} (seed {seed})")
    if saved:
        typer.echo(f"Saved as game '{saved}' (umpire games show {saved})")
        _aar(store, saved)


def _variant(scen: Any, vary: str | None, rules_data: str | None, no_save: bool, dice: str) -> Any:
    """Install a rule variant for this process (the lab's arms); the scenario it plays.

    Only unsaved: a saved game replays and verifies under the shipped rules.
    """
    from umpire.lab.arms import parse_rules_data, parse_vary
    from umpire.rules.data import install

    if not no_save or dice != "seeded":
        raise UmpireError("--vary and --rules-data play a variant unsaved: add --no-save")
    overlay = None
    if rules_data is not None:
        overlay = parse_rules_data(rules_data, "variant").overlay
    if vary is not None:
        arm = parse_vary(vary, scen, "variant")
        overlay = arm.overlay if overlay is None else overlay.plus(arm.overlay)
        scen = arm.scenario(scen)
    assert overlay is not None
    install(overlay)
    return scen


def saved_players(store: Any, name: str) -> dict[str, str] | None:
    """Who played each side of a saved battle at the terminal, as last recorded (None when
    no record was kept: a game saved before issue 23, or played on the fast path)."""
    found = None
    for rec in store.table_records(name):
        if rec["kind"] == "players" and isinstance(rec.get("players"), dict):
            found = {str(k): str(v) for k, v in rec["players"].items()}
    return found


def resume_battle(
    name: str, kinds: dict[str, str] | None, as_json: bool, *, explain: bool = False
) -> None:
    """Play a saved battle on from where its log stops, saving each action as it is made.

    Each side goes back to whoever played it (the ``players`` record); ``kinds`` (any of
    --human, --ai, --random, --player given) changes that, and the change is recorded.

    The game is loaded from the store (its dice continue the seeded stream where the log
    stops); each decision is applied as an ``order`` action through ``store.play``, which
    commits it in its own transaction, so an interrupt loses at most the action in
    flight. The narrative is printed as it happens, the result at the end.
    """
    from umpire.cli.common import open_store

    store = open_store()
    info = store.info(name)
    if info.module not in BATTLE_MODULES:
        raise UmpireError(f"game '{name}' is a {info.module} game, not a battle")
    if info.ended:
        raise UmpireError(f"game '{name}' has ended; fork it to play on")
    from umpire.cli.common import ask_cup, ask_faces

    game = store.load(name, physical=ask_faces, draw=ask_cup)
    done = game.state["battle"]
    if done["over"]:
        raise UmpireError(
            f"battle '{name}' is over ({done['winner']} after {done['turn']} turns); "
            f"undo or fork it to play on from an earlier action"
        )
    seed = int(info.seed) if info.source_kind == "seeded" and info.seed is not None else None
    before = saved_players(store, name)
    if kinds is None:
        kinds = before or assign_players(None, "", "")
    if kinds != before:
        store.add_record(name, "players", {"players": kinds})
    if not as_json:
        who = ", ".join(f"{side} {kinds[side]}" for side in SIDES)
        typer.echo(f"Resuming '{name}' after action {len(game.actions)} ({who})")
    play_stored(store, name, game, kinds, as_json, seed=seed, resumed=True, explain=explain)


def play_stored(
    store: Any,
    name: str,
    game: Any,
    kinds: dict[str, str],
    as_json: bool,
    *,
    seed: int | None,
    resumed: bool = False,
    explain: bool = False,
) -> None:
    """Play a saved battle on to its end, committing each action as it is made.

    A person at the prompt sees a status table when a phase of theirs begins, card draws
    and events in bold, and may type ``status``, ``undo`` (back to their previous
    decision) or ``quit`` (stop; ``umpire battle --resume NAME`` plays on).
    """
    from umpire.ai import make_policy
    from umpire.ai.human import PlayerCommand
    from umpire.battle.game import actor_id, final_state, pending
    from umpire.battle.run import state_hash
    from umpire.cli.battle_view import briefing, recap, result_words, show_line, sides_line
    from umpire.cli.common import ask_cup, ask_faces, console

    start = len(game.actions)
    pols: dict[str, Any] = {
        side: _human(as_json, saved=True)
        if kind == "human"
        else make_policy(kind, (seed or 0) + start)
        for side, kind in kinds.items()
    }
    if explain:
        from umpire.ai.levels import Explained

        def tell(line: str) -> None:
            typer.echo(line, err=as_json)

        pols = {
            side: p if kinds[side] == "human" else Explained(p, side, tell)
            for side, p in pols.items()
        }
    c = console()
    persons = "human" in kinds.values()
    since: list[str] = []  # what was said since a person's last order (the enemy's doings)

    def narrate(record: Any) -> None:
        if not as_json:
            for e in record.events:
                if e.kind == "note":
                    text = str(e.data.get("text", ""))
                    show_line(c, text)
                    since.append(text)

    if persons and not as_json:
        view0, _ = pending(game)
        for line in briefing(view0, _picture(view0, store, name) if start == 0 else None):
            typer.echo(line)
        typer.echo(
            "At each prompt: a menu number or an order; '?' or 'why N' says why an entry "
            "reads as it does; status, undo, quit."
        )
    if start == 0:
        try:
            narrate(store.play(name, game, "start", {}))
        except PlayerCommand:
            _quit_saved(name, store.load(name, physical=ask_faces, draw=ask_cup))
            return
    last_turn = 0
    last_phase: tuple[int, int] | None = None
    marks: list[int] = []  # the number of actions before each of a person's decisions
    asked = False  # has a person been asked yet (the recap starts after their first order)
    while True:
        view, req = pending(game)
        if req is None:
            break
        if not as_json and view.state.turn != last_turn:
            last_turn = view.state.turn
            c.rule(f"Turn {last_turn}")
        human = kinds.get(req.side) == "human"
        phase = (view.state.turn, view.state.seq)
        if human and not as_json and phase != last_phase:
            if since and asked:
                for line in recap(view, req.side, since):
                    typer.echo(line)
            c.print(f"[bold]{req.side.title()}: {req.step.replace('_', ' ')}[/]")
            typer.echo(sides_line(view))
        if human:
            since.clear()
            asked = True
        last_phase = phase
        try:
            order = pols[req.side].decide(view, req)
        except PlayerCommand as cmd:
            if cmd.word == "quit":
                _quit_saved(name, game)
                return
            if not marks:
                typer.echo("umpire: nothing of yours to undo yet")
                continue
            to = marks.pop()
            store.undo(name, to)
            game = store.load(name, physical=ask_faces, draw=ask_cup)
            last_phase = None
            typer.echo(f"Undone back to action {to}: your decision again")
            continue
        if human:
            marks.append(len(game.actions))
        params = {"actor": actor_id(view, req), "order": list(order)}
        try:
            narrate(store.play(name, game, "order", params))
        except PlayerCommand:  # q typed at a dice prompt: the action in flight is not saved
            game = store.load(name, physical=ask_faces, draw=ask_cup)
            _quit_saved(name, game)
            return
    st = final_state(game)
    order_ = ("confederate", "union")
    removed = {s: sum(1 for u in st.units if u.side == s and not u.alive) for s in order_}
    summary = {
        "winner": st.winner,
        "turns": st.turn,
        "losses": {"stands": dict(st.losses), "units_removed": removed},
        "seed": seed,
        "dice": game.source.position,
        "state_hash": state_hash(game.state["battle"]),
        "players": kinds,
        "game": name,
        "actions": len(game.actions),
    }
    if resumed:
        summary["resumed_after"] = start
    if as_json:
        print_json(summary)
        return
    typer.echo(f"Result: {result_words(pending(game)[0])} (seed {seed})")
    if resumed:
        typer.echo(
            f"Saved game '{name}': {len(game.actions) - start} actions played on, "
            f"{len(game.actions)} in all (umpire games show {name})"
        )
    else:
        typer.echo(f"Saved as game '{name}' (umpire games show {name})")
    _aar(store, name)


def _aar(store: Any, name: str) -> None:
    """The after-action report of a finished saved battle (issue 24), its path printed
    (``umpire.cli.aar_cmd.report_at_end``)."""
    from umpire.cli.aar_cmd import report_at_end

    if not store.info(name).actions or not battle_over(store, name):
        return
    typer.echo(report_at_end(store, name))


def battle_over(store: Any, name: str) -> bool:
    """Is the saved battle ``name`` over?"""
    from umpire.aar.collect import saved_state

    return bool(saved_state(store, name)["battle"]["over"])


def _picture(b: Any, store: Any, name: str) -> str | None:
    """Draw the field for the briefing (SVG, in ``pictures/`` beside the save file); its
    path, or None when it cannot be written (the briefing goes on without it)."""
    from umpire.battle.render import write

    path = Path(store.path).parent / "pictures" / f"{name}.svg"
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        write(b, path)
    except OSError:
        return None
    return str(path)


def _quit_saved(name: str, game: Any) -> None:
    """A player quit a saved battle: say where it stands and how to play on."""
    typer.echo(
        f"Saved '{name}' after {len(game.actions)} actions; "
        f"play on with: umpire battle --resume {name}"
    )


def _battle_at(source: str, turn: int | None) -> Any:
    """A battle to draw: a --log file, a scenario (its set-up) or a saved game."""
    from umpire.battle.run import new_battle, replay
    from umpire.battle.scenario import load_scenario
    from umpire.dice import ScriptedSource
    from umpire.scenarios import Scenario, shipped

    p = Path(source)
    if p.suffix == ".json" and is_file(p):
        from umpire.cli.games_cmd import read_export

        rec = read_export(source)
        if not isinstance(rec, dict) or not {"scenario", "faces", "orders"} <= rec.keys():
            raise UmpireError(f"{source}: not a battle log written by 'umpire battle --log'")
        if isinstance(rec.get("scenario_data"), dict):
            scen = Scenario.model_validate(rec["scenario_data"])
        else:
            scen = load_scenario(str(rec["scenario"]))
        return replay(scen, rec["faces"], rec["orders"], until_turn=turn)
    if is_file(p) or source in shipped():
        return new_battle(load_scenario(source), ScriptedSource([]))
    from umpire.cli.common import open_store

    store = open_store()
    if source not in store.names():
        raise UnknownNameError(
            f"'{source}' is not a scenario, a battle log or a saved game "
            f"(shipped scenarios: {', '.join(shipped())})"
        )
    info = store.info(source)
    if info.module not in BATTLE_MODULES:
        raise UmpireError(f"game '{source}' is a {info.module} game, not a battle")
    records = store.records(source)
    faces = [f for r in records for e in r.events for d in e.data.get("draws", []) for f in d[2]]
    orders = [[None, *r.params["order"]] for r in records if r.name == "order"]
    scen = Scenario.model_validate(store.scenario(source))
    return replay(scen, faces, orders, until_turn=turn)


def _size(text: str) -> tuple[int, int]:
    """``--size WxH`` in pixels, each 200 to 8000."""
    w, x, h = text.lower().partition("x")
    if not (x and w.isdigit() and h.isdigit()) or not (
        200 <= int(w) <= 8000 and 200 <= int(h) <= 8000
    ):
        raise UmpireError(f"--size takes WxH in pixels, each 200 to 8000 (1200x900), not '{text}'")
    return int(w), int(h)


def render(
    source: str = typer.Argument(..., help="A scenario, a saved battle, or a --log file"),
    turn: int | None = typer.Option(None, "--turn", help="Show the start of this turn"),
    out: Path = typer.Option(..., "-o", "--out", help="FILE.svg or FILE.png"),
    size: str = typer.Option("1200x900", "--size", help="The PNG's size in pixels, WxH"),
) -> None:
    """Draw the battlefield as SVG or PNG: unit names, terrain names, a legend and a scale."""
    from umpire.battle.render import write

    if out.suffix.lower() not in (".svg", ".png"):
        raise UmpireError(f"output must end in .svg or .png, not '{out.suffix}'")
    pixels = _size(size)
    b = _battle_at(source, turn)
    try:
        write(b, out, pixels)
    except OSError as exc:
        raise UmpireError(f"cannot write {out}: {exc.strerror}") from None
    typer.echo(f"wrote {out}")
