"""``umpire cwb``: the Gettysburg command-phase assistant (Seed 000 random events).

Each command is one logged, undoable action on a saved game (``umpire games undo|fork|
export`` work on it). ``phase`` rolls the phasing side's random events and prints every
roll with its exact odds as it happens, then what the players must now do on the map.
Without ``--game`` a command uses the cwb game played most recently and says which.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from datetime import UTC, datetime
from fractions import Fraction
from pathlib import Path
from typing import Annotated, Any

import typer

from umpire.engine import Decision, Option, PromptPolicy
from umpire.engine.decisions import PickFn
from umpire.errors import UmpireError
from umpire.rules.ruling import console, kit, print_json, to_jsonable
from umpire.sides import SIDES_UNION_FIRST

cwb_app = typer.Typer(no_args_is_help=True)
order_app = typer.Typer(no_args_is_help=True)
cwb_app.add_typer(order_app, name="order", help="Orders: issue, arrive, accept, roll, cancel.")

GameOpt = Annotated[
    str | None,
    typer.Option("--game", help="The saved game's name (default: the cwb game played last)."),
]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print JSON.")]
PolicyOpt = Annotated[
    str,
    typer.Option(
        "--policy",
        help="Who answers the choices: prompt (the players, at the terminal) or random.",
    ),
]


# ------------------------------------------------------------------ which game
def pick_game(store: Any, game: str | None) -> tuple[str, bool]:
    """(name, chosen for the user): the game named, else the open cwb game played last.

    "Played last" is the newest action (or creation) in the save file; with several open cwb
    games and none played within ``recent_hours``, the user is asked for ``--game``.
    """
    if game:
        return game, False
    from umpire.rules.cwb_events import load_params

    rows = store.last_played("cwb_events")
    if not rows:
        raise UmpireError("no open cwb game: start one with `umpire cwb new --game NAME`")
    if len(rows) == 1:
        return rows[0][0], True
    name, when = rows[0]
    hours = float(load_params().get("recent_hours", 12))
    try:
        age = datetime.now(UTC) - datetime.fromisoformat(when)
    except ValueError:
        age = None
    if age is None or age.total_seconds() > hours * 3600:
        names = ", ".join(sorted(r[0] for r in rows))
        raise UmpireError(
            f"several cwb games are open ({names}) and none was played in the last "
            f"{hours:g} hours: name one with --game"
        )
    return name, True


def _say_game(name: str, chosen: bool, as_json: bool) -> None:
    if not chosen:
        return
    line = f"game '{name}' (the cwb game played last)"
    if as_json:
        sys.stderr.write(line + "\n")
    else:
        console().print(line, markup=False, style="dim")


# ------------------------------------------------------------------ questions at the table
class TablePolicy(PromptPolicy):
    """A person at the table: long lists asked by corps, then division; answers about the map
    given before are offered first as "same as before" (reading ``short_lists``)."""

    def __init__(self, state: dict[str, Any], ask: Callable[[str], str] | None = None):
        # a wrong entry is asked again as often as needed; q or quit stops the command
        super().__init__(table_ask(ask), tries=sys.maxsize)
        self.state = state
        from umpire.rules.cwb_events.state import param

        self.limit = int(param(state, "prompt_list_max"))

    def choose(self, decision: Decision, pick: PickFn) -> list[str]:
        """Offer the remembered answer, else narrow long lists by group before choosing."""
        memo = self._memory(decision)
        if memo is not None:
            ids, at = memo
            names = ", ".join(str(o) for o in decision.options if o.id in ids) or "none"
            again = Decision(
                decision.decider,
                f"{decision.prompt} Last answered {at}:",
                (Option("same", f"same as before: {names}"), Option("changed", "it has changed")),
                1,
                decision.purpose,
            )
            if super().choose(again, pick) == ["same"]:
                return ids
        for _ in range(self._tries):
            answer = self._narrow(decision, list(decision.options), 0, pick)
            if answer is not None:
                return answer
        return super().choose(decision, pick)

    def _memory(self, decision: Decision) -> tuple[list[str], str] | None:
        if not decision.allow_fewer:
            return None
        memo = self.state.get("memory", {}).get(decision.purpose)
        if not isinstance(memo, dict):
            return None
        ids = [o.id for o in decision.options]
        return [i for i in memo.get("answer", []) if i in ids], str(memo.get("at", ""))

    def _narrow(
        self, decision: Decision, opts: list[Option], depth: int, pick: PickFn
    ) -> list[str] | None:
        """Ask for the groups holding the answer until the list is short; None: start again."""
        from umpire.rules.cwb_events.state import groups_of

        want = min(decision.pick, len(opts))
        if len(opts) <= self.limit:
            return self._final(decision, opts, pick)
        paths = [groups_of(self.state, o.id) for o in opts]
        if any(len(p) <= depth for p in paths):
            return self._final(decision, opts, pick)
        groups: dict[str, list[Option]] = {}
        for o, p in zip(opts, paths, strict=True):
            groups.setdefault(p[depth][1], []).append(o)
        if len(groups) == 1:
            return self._narrow(decision, opts, depth + 1, pick)
        kind = paths[0][depth][0]
        plural = "corps" if kind == "corps" else "divisions"
        labels = list(groups)
        many = decision.allow_fewer
        note = (
            "(choose every one that has any; none is allowed)"
            if many
            else (f"(the {plural} holding your choice{'s' if want > 1 else ''})")
        )
        ask = Decision(
            decision.decider,
            f"{decision.prompt} — first, which {plural}? {note}",
            tuple(Option(f"{lab} ({len(groups[lab])})") for lab in labels),
            len(labels) if many else min(want, len(labels)),
            decision.purpose,
            allow_fewer=True,
        )
        chosen = super().choose(ask, pick)
        if not chosen and many:
            return []
        by_id = {f"{lab} ({len(groups[lab])})": lab for lab in labels}
        members = [o for i in chosen for o in groups[by_id[i]]]
        if not many and len(members) < want:
            print(f"  those hold only {len(members)}; {want} are needed: choose again")
            return None
        return self._narrow(decision, members, depth + 1, pick)

    def _final(self, decision: Decision, opts: list[Option], pick: PickFn) -> list[str]:
        n = len(opts) if decision.allow_fewer else min(decision.pick, len(opts))
        sub = Decision(
            decision.decider,
            decision.prompt,
            tuple(opts),
            n,
            decision.purpose,
            decision.allow_fewer,
        )
        return super().choose(sub, pick)


def _policies(policy: str, state: dict[str, Any]) -> dict[str, Any]:
    from umpire.engine import RandomPolicy

    if policy == "prompt":
        return {s: TablePolicy(state) for s in SIDES_UNION_FIRST}
    if policy == "random":
        return {s: RandomPolicy() for s in SIDES_UNION_FIRST}
    raise UmpireError(f"unknown policy '{policy}' (prompt, random)")


def _side(side: str) -> str:
    from umpire.rules.cwb_events.state import check_side

    return check_side(side)


# ------------------------------------------------------------------ showing the log
def _frac(text: str) -> str:
    num, _, den = text.partition("/")
    p = Fraction(int(num), int(den or 1))
    return f"{p.numerator}/{p.denominator} = {float(p) * 100:.2f}%"


def describe(event: dict[str, Any]) -> str | None:
    """One line for a log event, with the exact odds of each roll; None to skip it."""
    kind = event["kind"]
    if kind == "lookup":
        out = event.get("outcome", {})
        parts = []
        for step in event.get("trace", []):
            faces = " ".join(str(g["faces"]) for g in step["roll"]["dice"])
            parts.append(
                f"{step['formula']} {faces} = {step['raw']} → {step['row']} (P {_frac(step['p'])})"
            )
        return f"🎲 {event.get('purpose', '')}: {'; '.join(parts)}: {out.get('text', '')}"
    if kind == "roll":
        faces = " ".join(str(g["faces"]) for g in event.get("dice", []))
        expr = str(event.get("expr"))
        purpose = str(event.get("purpose", ""))
        if purpose.startswith("random pick") and expr.startswith("d") and "(one d6:" not in purpose:
            return None  # a d{n} pick: shown with its decision
        return f"🎲 {purpose}: {expr} {faces} = {event.get('total')}"
    if kind == "draw":
        how = event.get("how", "drawn")
        of = int(event.get("left", 0)) + 1
        return f"🥣 {event.get('purpose', '')}: {how} → {event.get('card')} (1 of {of})"
    if kind == "decision":
        n = len(event["options"])
        answer = ", ".join(event["answer"]) or "none"
        if event["decider"] == "random":
            odds = f" (each of {n}: P 1/{n})" if event.get("pick", 1) == 1 else ""
            return f"🎲 at random: {event['prompt']} → {answer}{odds}"
        return f"?  [{event['decider']}] {event['prompt']} → {answer}"
    if kind == "instruction":
        return f"⚑ {event['text']}"
    if kind == "note":
        return f"   {event['text']}"
    return None


def _show(events: list[Any]) -> None:
    c = console()
    for event in events:
        line = describe(event.to_json())
        if line is not None:
            c.print(line, markup=False, style="bold" if line.startswith("⚑") else None)


def _print(record: Any, as_json: bool, shown: int = 0) -> None:
    if as_json:
        print_json(record.to_json())
        return
    _show(record.events[1 + shown :])


After = Callable[[Any, str, Any, set[str]], None]


def _run(
    game: str | None,
    action: str,
    params: dict[str, Any],
    policy: str = "prompt",
    as_json: bool = False,
    after: After | None = None,
) -> Any:
    """Load, run one action (showing its rolls as they happen), save, and return its record.

    ``after(store, name, game, effect ids before)`` runs once the action is saved.
    """
    from umpire.engine.context import watching

    store = kit().open_store()
    name, chosen = pick_game(store, game)
    loaded = store.load(name, physical=kit().ask_faces, draw=kit().ask_cup)
    if loaded.module.id != "cwb_events":
        raise UmpireError(f"game '{name}' is a {loaded.module.id} game, not a cwb game")
    _say_game(name, chosen, as_json)
    loaded.policies = _policies(policy, loaded.state)
    before = {str(e.get("id")) for e in loaded.state["effects"]}
    shown = [0]

    def watch(events: list[Any]) -> None:
        shown[0] += len(events)
        _show(events)

    try:
        if as_json:
            record = store.play(name, loaded, action, params)
        else:
            with watching(watch):
                record = store.play(name, loaded, action, params)
    except UmpireError:
        if shown[0]:
            console().print("   (the action stopped: nothing above was saved)", markup=False)
        raise
    _print(record, as_json, shown[0])
    if after is not None:
        after(store, name, loaded, before)
    return record


# ------------------------------------------------------------------ commands
@cwb_app.command("new")
def new_cmd(
    game: Annotated[str, typer.Option("--game", help="The saved game's name.")] = "cwb",
    seed: Annotated[int | None, typer.Option("--seed", help="Seed for seeded dice.")] = None,
    dice: Annotated[
        str,
        typer.Option(
            "--dice",
            help="seeded (default), committed or physical (you roll; picks by d6 or a cup).",
        ),
    ] = "seeded",
    date: Annotated[str, typer.Option("--date", help='Start date, e.g. "July 1".')] = "July 1",
    time: Annotated[str, typer.Option("--time", help='Start time, e.g. "14:00".')] = "05:00",
    oob: Annotated[
        Path | None, typer.Option("--oob", help="Your own order of battle (oob.toml format).")
    ] = None,
    maps: Annotated[
        Path | None, typer.Option("--maps", help="Your own map layout (maps.toml format).")
    ] = None,
) -> None:
    """Start a Gettysburg game (July 1-3 1863) with both orders of battle."""
    from umpire.engine import Game
    from umpire.rules.cwb_events import default_scenario
    from umpire.rules.cwb_events.clock import parse_date, parse_time, stamp
    from umpire.rules.cwb_events.hexes import MapLayout

    start = stamp(parse_date(date) * 1440 + parse_time(time))
    source = kit().make_source(seed, dice)
    scenario = default_scenario(start, oob)
    if maps is not None:
        scenario["maps"] = MapLayout.load(maps).to_json()
    g = Game.new("cwb_events", scenario, source)
    kit().open_store().create(game, g)
    c = console()
    side = g.state["clock"]["side"]
    c.print(f"cwb game '{game}' started at {start}, {side.capitalize()} player turn.")
    if dice == "committed":
        c.print(f"commitment sha256(seed) = {source.commitment}")
    elif dice == "seeded":
        c.print(f"seed {source.seed}")
    else:
        c.print(
            "physical dice: you roll and type the faces; a random pick among up to 6 is one "
            "d6, among more a draw from a cup."
        )


def _pending(st: dict[str, Any], before: set[str]) -> list[dict[str, Any]]:
    """Effects made by the last action that wait for the players' record."""
    out = []
    for e in st["effects"]:
        if e.get("id") in before or not e.get("id"):
            continue
        if (e["kind"] == "random_movement" and not e["regiments"]) or (
            e["kind"] == "friendly_fire" and e["checks"] is None
        ):
            out.append(e)
    return out


QUIT = ("q", "quit")


def table_ask(ask: Callable[[str], str] | None = None) -> Callable[[str], str]:
    """The prompt of the cwb table: ``q`` or ``quit`` stops the command (nothing is saved)."""
    read = ask or input

    def asked(prompt: str) -> str:
        text = read(prompt)
        if text.strip().lower() in QUIT:
            raise UmpireError("quit at the prompt: this action was not saved")
        return text

    return asked


def _ask_until(prompt: str, check: Callable[[str], Any]) -> Any:
    """Ask until the answer passes ``check`` (a wrong entry is said and asked again, as often as
    needed); Enter returns None (record later); q or quit stops the command."""
    ask = table_ask()
    while True:
        text = ask(prompt).strip()
        if not text:
            return None
        try:
            return check(text)
        except UmpireError as exc:
            print(f"  {exc}; try again (Enter to record later, q to quit)")


def _regiments(count: int) -> Callable[[str], list[str]]:
    def check(text: str) -> list[str]:
        names = [r.strip() for r in text.split(";") if r.strip()]
        if not 1 <= len(names) <= count:
            raise UmpireError(f"name 1 to {count} regiments separated by ';', not {len(names)}")
        if len({n.lower() for n in names}) != len(names):
            raise UmpireError("a regiment is named twice")
        return names

    return check


def _stragglers(text: str) -> int:
    if not text.isdigit():
        raise UmpireError(f"stragglers must be a whole number 0 or more, not '{text}'")
    return int(text)


def _morale(results: list[str]) -> Callable[[str], str]:
    def check(text: str) -> str:
        if text.isdigit() and 0 < int(text) <= len(results):
            return results[int(text) - 1]
        if text.lower() in results:
            return text.lower()
        menu = ", ".join(f"{i} {r}" for i, r in enumerate(results, 1))
        raise UmpireError(f"unknown morale result '{text}' (results: {menu})")

    return check


def _ask_records(store: Any, name: str, game: Any, effects: list[dict[str, Any]]) -> None:
    """Right after the phase: the mover names the regiments, the owner gives Friendly Fire's
    checks (each a saved action; Enter leaves it for `cwb moved` / `cwb checks`; a wrong entry
    is asked again; q or quit stops asking)."""
    from umpire.rules.cwb_events.state import param, unit_label

    c = console()
    for e in effects:
        try:
            if e["kind"] == "random_movement":
                regiments = _ask_until(
                    f"[{e['mover']}] {e['id']}: which {e['count']} {e['side']} regiments moved? "
                    "(names separated by ';', Enter to record later): ",
                    _regiments(int(e["count"])),
                )
                if regiments is None:
                    continue
                rec = store.play(name, game, "moved", {"effect": e["id"], "regiments": regiments})
            else:
                st = game.state
                who = unit_label(st, e["unit"])
                stragglers = _ask_until(
                    f"[{e['side']}] {e['id']}: stragglers lost by {who} (a flank attack's check; "
                    "a number, Enter to record later): ",
                    _stragglers,
                )
                if stragglers is None:
                    continue
                results = [str(r) for r in param(st, "morale_results")]
                menu = ", ".join(f"{i} {r}" for i, r in enumerate(results, 1))
                morale = _ask_until(
                    f"[{e['side']}] {e['id']}: morale check result ({menu}): ", _morale(results)
                )
                if morale is None:
                    continue
                rec = store.play(
                    name,
                    game,
                    "checks",
                    {"effect": e["id"], "stragglers": stragglers, "morale": morale},
                )
        except EOFError:
            return
        except UmpireError as exc:
            cmd = "moved" if e["kind"] == "random_movement" else "checks"
            c.print(
                f"   not recorded ({exc}); record it with `umpire cwb {cmd} {e['id']} ...`",
                markup=False,
            )
            if str(exc).startswith("quit at the prompt"):
                return
            continue
        _print(rec, False)


@cwb_app.command("phase")
def phase_cmd(
    side: Annotated[
        str | None,
        typer.Option("--side", help="union or confederate (default: whose player turn it is)."),
    ] = None,
    game: GameOpt = None,
    policy: PolicyOpt = "prompt",
    as_json: JsonOpt = False,
) -> None:
    """Roll and resolve the phasing side's random events (last step of its Command Phase)."""
    params: dict[str, Any] = {"side": _side(side)} if side else {}

    def records(store: Any, name: str, loaded: Any, before: set[str]) -> None:
        pending = _pending(loaded.state, before)
        if pending:
            _ask_records(store, name, loaded, pending)

    interactive = policy == "prompt" and not as_json
    _run(game, "phase", params, policy, as_json, records if interactive else None)


@cwb_app.command("next")
def next_cmd(
    skip_events: Annotated[
        bool,
        typer.Option(
            "--skip-events",
            help="End the player turn without rolling its random events (the log says so).",
        ),
    ] = False,
    game: GameOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Advance the clock to the next player turn (after this turn's random events are rolled)."""
    _run(game, "next", {"skip_events": True} if skip_events else {}, "random", as_json)


@cwb_app.command("clock")
def clock_cmd(
    date: Annotated[str, typer.Option("--date", help='e.g. "July 2".')],
    time: Annotated[str, typer.Option("--time", help='e.g. "11:00".')],
    side: Annotated[str, typer.Option("--side", help="Whose player turn.")] = "confederate",
    game: GameOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Set the clock forward to a later turn (to catch up with the table; back is `games undo`)."""
    _run(game, "clock_set", {"date": date, "time": time, "side": _side(side)}, "random", as_json)


@cwb_app.command("moved")
def moved_cmd(
    effect: Annotated[str, typer.Argument(help="The random movement's effect id, e.g. e3.")],
    regiments: Annotated[list[str], typer.Argument(help="The regiments moved (one or two).")],
    game: GameOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Record which regiments a random movement moved (seed 000: up to 3 hexes each)."""
    _run(game, "moved", {"effect": effect, "regiments": list(regiments)}, "random", as_json)


@cwb_app.command("checks")
def checks_cmd(
    effect: Annotated[str, typer.Argument(help="The Friendly Fire's effect id, e.g. e2.")],
    stragglers: Annotated[int, typer.Option("--stragglers", help="Stragglers lost.")] = 0,
    morale: Annotated[
        str, typer.Option("--morale", help="Morale check result, e.g. 'no effect'.")
    ] = "no effect",
    game: GameOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Record Friendly Fire's straggler and morale checks (made as for a flank attack)."""
    params = {"effect": effect, "stragglers": stragglers, "morale": morale}
    _run(game, "checks", params, "random", as_json)


# ------------------------------------------------------------------ status
def _commander_name(st: dict[str, Any], lid: str | None) -> str:
    """A command's commander for status: only a leader in play commands (a leader not yet
    arrived, withdrawn or lost is shown as such, never as the commander)."""
    if not lid or lid not in st["leaders"]:
        return "-"
    ld = st["leaders"][lid]
    if ld["status"] != "active":
        why = "not yet arrived" if ld["status"] == "waiting" else str(ld["status"])
        return f"none in play ({ld['name']}: {why})"
    return str(ld["name"]) + ("" if ld["permanent"] else " (replacement)")


def _status(st: dict[str, Any]) -> dict[str, Any]:
    from umpire.rules.cwb_events.book import describe_effect
    from umpire.rules.cwb_events.clock import stamp
    from umpire.rules.cwb_events.event_kit import LIMITS
    from umpire.rules.cwb_events.state import (
        command_label,
        corps_label,
        leader_label,
        panic_row,
        stoppage_count,
        stopped_now,
        today,
        usage,
        wrecked_infantry,
    )

    def label(lid: str | None) -> str:
        if not lid:
            return "-"
        if lid in st["leaders"]:
            return leader_label(st, lid)
        return str(lid)

    orders = []
    for o in st["orders"].values():
        orders.append({**o, "from": label(o["issuer"]), "to": label(o["recipient"])})
    out: dict[str, Any] = {
        "time": stamp(int(st["clock"]["minute"])),
        "player_turn": st["clock"]["side"],
        "random_events_rolled": st["clock"]["phase_done"],
        "game_over": st["game_over"],
        "sides": {},
        "orders": [o for o in orders if o["status"] not in ("cancelled", "done")],
        "all_orders": orders,
        "effects": st["effects"],
        "in_force": [],
        "usage": st["usage"],
        "limits": [],
        "longstreet": st["longstreet"],
        "buford": st["buford"],
    }
    for key, event, side, per_day, most in LIMITS:
        used = usage(st, key, day=per_day)
        out["limits"].append(
            {
                "key": key,
                "event": event,
                "side": side,
                "used": used,
                "most": most,
                "per": f"day ({today(st)})" if per_day else "game",
            }
        )
    in_force = out["in_force"]
    for e in st["effects"]:
        in_force.append(
            {
                "id": e.get("id", "-"),
                "side": e["side"],
                "text": describe_effect(st, e),
                "until": e.get("until", "the end of this player turn"),
            }
        )
    for side in SIDES_UNION_FIRST:
        p = st["panic"][side]
        if p["panicked"]:
            retreats = [o["id"] for o in st["orders"].values() if o.get("panic")]
            in_force.append(
                {
                    "id": "panic",
                    "side": side,
                    "text": f"Army Panic since {p['at']}: no attack orders from the army "
                    "commander (initiative attacks allowed); retreat orders "
                    + (", ".join(retreats) or "none")
                    + "; the game ends when the army has left the map",
                    "until": "the end of the game",
                }
            )
    for cid, c in st["corps"].items():
        if stopped_now(st, cid):
            in_force.append(
                {
                    "id": "stop",
                    "side": c["side"],
                    "text": f"{corps_label(st, cid)} stopped by Corps Attack Stoppage: no attack "
                    "order for it can be accepted",
                    "until": "the next turn",
                }
            )
    for o in st["orders"].values():
        if o["kind"] == "loose_cannon" and o["status"] == "accepted":
            in_force.append(
                {
                    "id": o["id"],
                    "side": o["side"],
                    "text": f"Loose Cannon order to {label(o['recipient'])}",
                    "until": "the end of this player turn",
                }
            )
    if st["longstreet"]["mps"]:
        in_force.append(
            {
                "id": "mps",
                "side": "confederate",
                "text": f"Longstreet has {st['longstreet']['mps']} accumulated MPs",
                "until": "the end of this player turn",
            }
        )
    for side in SIDES_UNION_FIRST:
        leaders = {
            post: [
                {
                    "id": lid,
                    "name": ld["name"],
                    "label": leader_label(st, lid),
                    "command": ld["command"],
                    "rating": ld["rating"],
                    "replacement": not ld["permanent"],
                    "hex": ld["hex"],
                }
                for lid, ld in st["leaders"].items()
                if ld["side"] == side and ld["post"] == post and ld["status"] == "active"
            ]
            for post in ("army", "corps", "division")
        }
        row, shift, why = panic_row(st, side)
        out["sides"][side] = {
            "army_commander": st["armies"][side]["commander"],
            "leaders": leaders,
            "brigade_leaders_in_play": sum(
                1
                for ld in st["leaders"].values()
                if ld["side"] == side and ld["post"] == "brigade" and ld["status"] == "active"
            ),
            "casualties": [
                {
                    "id": lid,
                    "name": ld["name"],
                    "label": f"{ld['name']} (" + command_label(st, ld["post"], ld["command"]) + ")",
                    "post": ld["original_post"],
                    "command": ld["command"],
                    "status": ld["status"],
                    "at": ld.get("lost_at"),
                    "replaced_by": ld.get("replaced"),
                    "replaced_by_label": label(ld.get("replaced")),
                }
                for lid, ld in st["leaders"].items()
                if ld["side"] == side and ld["status"] in ("wounded", "killed", "arrested")
            ],
            "corps": {
                cid: {
                    "label": corps_label(st, cid),
                    "commander": c["commander"],
                    "commander_label": label(c["commander"]),
                    "commander_name": _commander_name(st, c["commander"]),
                    "attack_orders": c["attack_orders"],
                    "stopped": c["stopped"],
                    "stopped_now": stopped_now(st, cid),
                    "lost_commander_modifier": c["lost_commander"],
                    **dict(
                        zip(
                            ("stoppage_count", "stoppage_words"),
                            stoppage_count(st, cid),
                            strict=True,
                        )
                    ),
                }
                for cid, c in st["corps"].items()
                if c["side"] == side
            },
            "wrecked_infantry_divisions": wrecked_infantry(st, side),
            "panic": {**st["panic"][side], "row": row, "shift": shift, "why": why},
            "units_in_play": sum(
                1 for u in st["units"].values() if u["side"] == side and u["status"] == "in_play"
            ),
            "units_placed": sum(
                1
                for u in st["units"].values()
                if u["side"] == side and u["status"] == "in_play" and u["hex"]
            ),
        }
    return out


@cwb_app.command("status")
def status_cmd(game: GameOpt = None, as_json: JsonOpt = False) -> None:
    """Leaders (and who replaced the lost), orders, limits used, effects in force, panic."""
    from rich.table import Table

    store = kit().open_store()
    name, chosen = pick_game(store, game)
    g = store.load(name, physical=kit().ask_faces, draw=kit().ask_cup)
    if g.module.id != "cwb_events":
        raise UmpireError(f"game '{name}' is a {g.module.id} game, not a cwb game")
    _say_game(name, chosen, as_json)
    s = _status(g.state)
    if as_json:
        print_json(to_jsonable(s))
        return
    c = console()
    head = f"{name}: {s['time']}, {s['player_turn'].capitalize()} player turn"
    head += " (random events rolled)" if s["random_events_rolled"] else ""
    c.print(head + (f" — GAME OVER: {s['game_over']}" if s["game_over"] else ""), markup=False)
    for side, d in s["sides"].items():
        p = d["panic"]
        army = d["leaders"]["army"][0]["label"] if d["leaders"]["army"] else "-"
        c.print(
            f"\n{side.upper()}: army commander {army}; "
            f"wrecked infantry divisions {', '.join(d['wrecked_infantry_divisions']) or 'none'}; "
            f"panic {'YES since ' + str(p['at']) if p['panicked'] else 'no'} "
            f"(row {p['row']}: {p['why']}); units in play {d['units_in_play']} "
            f"({d['units_placed']} placed)",
            markup=False,
        )
        t = Table("command", "commander", "attack orders", "stopped", "stoppage check counts")
        for cs in d["corps"].values():
            stop = "this turn" if cs["stopped_now"] else "yes" if cs["stopped"] else "-"
            t.add_row(
                cs["label"],
                cs["commander_name"],
                ", ".join(cs["attack_orders"]) or "-",
                stop,
                f"{cs['stoppage_count']} ({cs['stoppage_words']})",
            )
        c.print(t)
        if d["casualties"]:
            t = Table("leader lost", "status", "when", "replaced by", title=f"{side} leaders lost")
            for x in d["casualties"]:
                t.add_row(x["label"], x["status"], x["at"] or "-", x["replaced_by_label"])
            c.print(t)
    if s["all_orders"]:
        t = Table("order", "side", "from", "to", "kind", "status", "note", title="orders")
        for o in s["all_orders"]:
            note = []
            if o.get("pending_delay"):
                note.append(f"+{o['pending_delay']} on arrival")
            if o.get("drag"):
                note.append(
                    "divisions accepted: "
                    + (", ".join(o["drag"]["committed"]) or "none")
                    + " of "
                    + ", ".join(o["drag"]["divisions"])
                )
            if o.get("panic"):
                note.append("Army Panic")
            t.add_row(
                o["id"], o["side"], o["from"], o["to"], o["kind"], o["status"], "; ".join(note)
            )
        c.print(t)
    t = Table("event", "side", "used", "limit", title="limits")
    for lim in s["limits"]:
        t.add_row(lim["event"], lim["side"], str(lim["used"]), f"{lim['most']} a {lim['per']}")
    c.print(t)
    if s["in_force"]:
        t = Table("id", "side", "in force", "until", title="effects in force")
        for e in s["in_force"]:
            t.add_row(e["id"], e["side"], e["text"], e["until"])
        c.print(t)
    else:
        c.print("effects in force: none", markup=False)


# ------------------------------------------------------------------ orders
@order_app.command("issue")
def order_issue_cmd(
    issuer: Annotated[str, typer.Option("--from", help="Issuing leader (id or command).")],
    recipient: Annotated[str, typer.Option("--to", help="Receiving leader (id or command).")],
    side: Annotated[
        str | None, typer.Option("--side", help="union or confederate (default: the issuer's).")
    ] = None,
    kind: Annotated[
        str, typer.Option("--kind", help="move, attack, defend, retreat, ...")
    ] = "move",
    arrive: Annotated[
        str | None, typer.Option("--arrive", help='Arrival turn, e.g. "July 2 14:20".')
    ] = None,
    status: Annotated[
        str | None, typer.Option("--status", help="Record as A, D1-D6 or Dt (already arrived).")
    ] = None,
    text: Annotated[str, typer.Option("--text", help="What the order says.")] = "",
    game: GameOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Write an order (in transit unless --status is given)."""
    params: dict[str, Any] = {
        "issuer": issuer,
        "recipient": recipient,
        "kind": kind,
        "text": text,
    }
    if side:
        params["side"] = _side(side)
    if arrive:
        params["arrive"] = arrive
    if status:
        params["status"] = status
    _run(game, "order_issue", params, "random", as_json)


@order_app.command("arrive")
def order_arrive_cmd(
    order: Annotated[str, typer.Argument(help="Order id, e.g. o3.")],
    result: Annotated[str, typer.Argument(help="Acceptance result rolled: A, D1-D6 or Dt.")],
    game: GameOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """An order in transit arrives; record the acceptance result rolled at the table."""
    _run(game, "order_arrive", {"order": order, "result": result}, "random", as_json)


OrderArg = Annotated[str, typer.Argument(help="Order id.")]
DivisionOpt = Annotated[
    str | None,
    typer.Option(
        "--division",
        help="Accepting under Drags his Feet: the division; rolling: the one to commit on a "
        "success.",
    ),
]


def _order_step(name: str, action: str, doc: str) -> None:
    """Register ``umpire cwb order NAME ORDER [--division D]``: one ``action`` on an order,
    naming the division it concerns when there is one (accept and roll)."""

    def command(
        order: OrderArg,
        division: DivisionOpt = None,
        game: GameOpt = None,
        policy: PolicyOpt = "prompt",
        as_json: JsonOpt = False,
    ) -> None:
        params: dict[str, Any] = {"order": order}
        if division:
            params["division"] = division
        _run(game, action, params, policy, as_json)

    command.__doc__ = doc
    command.__name__ = f"order_{name}_cmd"
    order_app.command(name)(command)


_order_step(
    "accept",
    "order_accept",
    "Mark an order accepted (or one more division of a Drags-his-Feet order).",
)
_order_step(
    "roll", "order_roll", "Roll a delayed order's acceptance (1d6 >= n for Dn; once per turn)."
)


@order_app.command("cancel")
def order_cancel_cmd(
    order: Annotated[str, typer.Argument(help="Order id.")],
    game: GameOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Cancel an order."""
    _run(game, "order_cancel", {"order": order}, "random", as_json)


# ------------------------------------------------------------------ the book
@cwb_app.command("wreck")
def wreck_cmd(
    division: Annotated[str, typer.Argument(help="Division id, e.g. H/1 or 1/I.")],
    undo: Annotated[
        bool, typer.Option("--undo", help="The division is no longer wrecked.")
    ] = False,
    game: GameOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Mark a division wrecked (it counts for the Panic Check if infantry)."""
    _run(game, "wreck", {"division": division, "undo": undo}, "random", as_json)


@cwb_app.command("place")
def place_cmd(
    unit: Annotated[str, typer.Argument(help="Unit id (L/H/1) or leader id (longstreet).")],
    hex_id: Annotated[str, typer.Argument(metavar="HEX", help="Hex id, e.g. A43.01.")],
    game: GameOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Place or move a unit or leader on a hex (eligibility is then computed)."""
    _run(game, "place", {"unit": unit, "hex": hex_id}, "random", as_json)


@cwb_app.command("unplace")
def unplace_cmd(
    unit: Annotated[str, typer.Argument(help="Unit or leader id.")],
    game: GameOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Forget a unit's or leader's position."""
    _run(game, "place", {"unit": unit, "hex": None}, "random", as_json)


@cwb_app.command("enter")
def enter_cmd(
    unit: Annotated[str, typer.Argument(help="Unit id or division id.")],
    game: GameOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """A unit (or a whole division) enters play now."""
    _run(game, "enter", {"unit": unit}, "random", as_json)


@cwb_app.command("exit")
def exit_cmd(
    unit: Annotated[str, typer.Argument(help="Unit id.")],
    game: GameOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """A unit leaves the map (after panic the game ends when the whole army has left)."""
    _run(game, "exit", {"unit": unit}, "random", as_json)


@cwb_app.command("leader-loss")
def leader_loss_cmd(
    leader: Annotated[str, typer.Argument(help="Leader id (or the command he leads).")],
    status: Annotated[
        str, typer.Option("--status", help="wounded, killed or arrested.")
    ] = "wounded",
    game: GameOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """A leader lost at the table (combat); his post is filled by the succession rules."""
    _run(game, "leader_loss", {"leader": leader, "status": status}, "random", as_json)


@cwb_app.command("army-left")
def army_left_cmd(
    side: Annotated[str, typer.Option("--side", help="union or confederate.")],
    game: GameOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Declare that a panicked army has left the map: the game ends."""
    _run(game, "army_left", {"side": _side(side)}, "random", as_json)
