"""``umpire cwb``: the Gettysburg command-phase assistant (Seed 000 random events).

Each command is one logged, undoable action on a saved game (``umpire games undo|fork|
export`` work on it). ``phase`` rolls the phasing side's random events and prints every
roll with its exact odds and what the players must now do on the map.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Annotated, Any

import typer

from umpire.cli.common import console, make_source, open_store, print_json, to_jsonable
from umpire.errors import UmpireError

cwb_app = typer.Typer(no_args_is_help=True)
order_app = typer.Typer(no_args_is_help=True)
cwb_app.add_typer(order_app, name="order", help="Orders: issue, arrive, accept, roll, cancel.")

GameOpt = Annotated[str, typer.Option("--game", help="The saved game's name.")]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print JSON.")]
PolicyOpt = Annotated[
    str,
    typer.Option(
        "--policy",
        help="Who answers the choices: prompt (the players, at the terminal) or random.",
    ),
]
SIDES = ("union", "confederate")


def _policies(policy: str) -> dict[str, Any]:
    from umpire.engine import PromptPolicy, RandomPolicy

    if policy == "prompt":
        return {s: PromptPolicy() for s in SIDES}
    if policy == "random":
        return {s: RandomPolicy() for s in SIDES}
    raise UmpireError(f"unknown policy '{policy}' (prompt, random)")


def _side(side: str) -> str:
    from umpire.rules.cwb_events.state import check_side

    return check_side(side)


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
        if purpose.startswith("random pick") and expr.startswith("d"):
            return None  # shown with its decision
        return f"🎲 {purpose}: {expr} {faces} = {event.get('total')}"
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


def _print(record: Any, as_json: bool) -> None:
    if as_json:
        print_json(record.to_json())
        return
    c = console()
    for event in record.events[1:]:
        line = describe(event.to_json())
        if line is not None:
            c.print(line, markup=False, style="bold" if line.startswith("⚑") else None)


def _run(
    game: str, action: str, params: dict[str, Any], policy: str = "prompt", as_json: bool = False
) -> Any:
    from umpire.cli.common import ask_faces

    store = open_store()
    loaded = store.load(game, policies=_policies(policy), physical=ask_faces)
    if loaded.module.id != "cwb_events":
        raise UmpireError(f"game '{game}' is a {loaded.module.id} game, not a cwb game")
    record = store.play(game, loaded, action, params)
    _print(record, as_json)
    return record


@cwb_app.command("new")
def new_cmd(
    game: GameOpt = "cwb",
    seed: Annotated[int | None, typer.Option("--seed", help="Seed for seeded dice.")] = None,
    dice: Annotated[
        str, typer.Option("--dice", help="seeded (default), committed or physical.")
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
    scenario = default_scenario(start, oob)
    if maps is not None:
        scenario["maps"] = MapLayout.load(maps).to_json()
    source = make_source(seed, dice)
    g = Game.new("cwb_events", scenario, source)
    open_store().create(game, g)
    c = console()
    side = g.state["clock"]["side"]
    c.print(f"cwb game '{game}' started at {start}, {side.capitalize()} player turn.")
    if dice == "committed":
        c.print(f"commitment sha256(seed) = {source.commitment}")
    elif dice == "seeded":
        c.print(f"seed {source.seed}")


@cwb_app.command("phase")
def phase_cmd(
    side: Annotated[str, typer.Option("--side", help="union or confederate.")],
    game: GameOpt = "cwb",
    policy: PolicyOpt = "prompt",
    as_json: JsonOpt = False,
) -> None:
    """Roll and resolve the phasing side's random events (last step of its Command Phase)."""
    _run(game, "phase", {"side": _side(side)}, policy, as_json)


@cwb_app.command("next")
def next_cmd(game: GameOpt = "cwb", as_json: JsonOpt = False) -> None:
    """Advance the clock to the next player turn (arrivals come on by themselves)."""
    _run(game, "next", {}, "random", as_json)


@cwb_app.command("clock")
def clock_cmd(
    date: Annotated[str, typer.Option("--date", help='e.g. "July 2".')],
    time: Annotated[str, typer.Option("--time", help='e.g. "11:00".')],
    side: Annotated[str, typer.Option("--side", help="Whose player turn.")] = "confederate",
    game: GameOpt = "cwb",
    as_json: JsonOpt = False,
) -> None:
    """Set the clock to a turn (to catch up with the table)."""
    _run(game, "clock_set", {"date": date, "time": time, "side": _side(side)}, "random", as_json)


def _status(st: dict[str, Any]) -> dict[str, Any]:
    from umpire.rules.cwb_events.clock import stamp
    from umpire.rules.cwb_events.state import panic_row, wrecked_infantry

    out: dict[str, Any] = {
        "time": stamp(int(st["clock"]["minute"])),
        "player_turn": st["clock"]["side"],
        "random_events_rolled": st["clock"]["phase_done"],
        "game_over": st["game_over"],
        "sides": {},
        "orders": [o for o in st["orders"].values() if o["status"] not in ("cancelled", "done")],
        "effects": st["effects"],
        "usage": st["usage"],
        "longstreet": st["longstreet"],
        "buford": st["buford"],
    }
    for side in SIDES:
        leaders = {
            post: [
                {
                    "id": lid,
                    "name": ld["name"],
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
                    "post": ld["original_post"],
                    "command": ld["command"],
                    "status": ld["status"],
                }
                for lid, ld in st["leaders"].items()
                if ld["side"] == side and ld["status"] in ("wounded", "killed", "arrested")
            ],
            "corps": {
                cid: {
                    "commander": c["commander"],
                    "attack_orders": c["attack_orders"],
                    "stopped": c["stopped"],
                    "lost_commander_modifier": c["lost_commander"],
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
def status_cmd(game: GameOpt = "cwb", as_json: JsonOpt = False) -> None:
    """Leaders, orders, counters of limited events, and panic."""
    from rich.table import Table

    g = open_store().load(game)
    if g.module.id != "cwb_events":
        raise UmpireError(f"game '{game}' is a {g.module.id} game, not a cwb game")
    s = _status(g.state)
    if as_json:
        print_json(to_jsonable(s))
        return
    c = console()
    head = f"{s['time']}, {s['player_turn'].capitalize()} player turn"
    head += " (random events rolled)" if s["random_events_rolled"] else ""
    c.print(head + (f" — GAME OVER: {s['game_over']}" if s["game_over"] else ""), markup=False)
    st = g.state
    for side, d in s["sides"].items():
        p = d["panic"]
        c.print(
            f"\n{side.upper()}: army commander {d['army_commander']}; "
            f"wrecked infantry divisions {d['wrecked_infantry_divisions'] or 'none'}; "
            f"panic {'YES since ' + str(p['at']) if p['panicked'] else 'no'} "
            f"(row {p['row']}: {p['why']}); units in play {d['units_in_play']} "
            f"({d['units_placed']} placed)",
            markup=False,
        )
        t = Table("corps", "commander", "attack orders", "stopped", "lost-cdr modifier")
        for cid, cs in d["corps"].items():
            cmd = cs["commander"]
            name = st["leaders"][cmd]["name"] if cmd else "-"
            if cmd and not st["leaders"][cmd]["permanent"]:
                name += " (replacement)"
            t.add_row(
                cid,
                name,
                ", ".join(cs["attack_orders"]) or "-",
                "yes" if cs["stopped"] else "-",
                "yes" if cs["lost_commander_modifier"] else "-",
            )
        c.print(t)
        if d["casualties"]:
            c.print(
                "  casualties: "
                + "; ".join(f"{x['name']} ({x['command']}) {x['status']}" for x in d["casualties"]),
                markup=False,
            )
    if s["orders"]:
        t = Table("order", "side", "from", "to", "kind", "status", "note")
        for o in s["orders"]:
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
            t.add_row(
                o["id"],
                o["side"],
                o["issuer"],
                o["recipient"],
                o["kind"],
                o["status"],
                "; ".join(note),
            )
        c.print(t)
    for e in s["effects"]:
        c.print(f"effect: Ambush! on {e['unit']} ({e['side']}, {e['at']})", markup=False)
    c.print(f"limits used: {to_jsonable(s['usage'])}", markup=False)


@order_app.command("issue")
def order_issue_cmd(
    side: Annotated[str, typer.Option("--side", help="union or confederate.")],
    issuer: Annotated[str, typer.Option("--from", help="Issuing leader (id or command).")],
    recipient: Annotated[str, typer.Option("--to", help="Receiving leader (id or command).")],
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
    game: GameOpt = "cwb",
    as_json: JsonOpt = False,
) -> None:
    """Write an order (in transit unless --status is given)."""
    params: dict[str, Any] = {
        "side": _side(side),
        "issuer": issuer,
        "recipient": recipient,
        "kind": kind,
        "text": text,
    }
    if arrive:
        params["arrive"] = arrive
    if status:
        params["status"] = status
    _run(game, "order_issue", params, "random", as_json)


@order_app.command("arrive")
def order_arrive_cmd(
    order: Annotated[str, typer.Argument(help="Order id, e.g. o3.")],
    result: Annotated[str, typer.Argument(help="Acceptance result rolled: A, D1-D6 or Dt.")],
    game: GameOpt = "cwb",
    as_json: JsonOpt = False,
) -> None:
    """An order in transit arrives; record the acceptance result rolled at the table."""
    _run(game, "order_arrive", {"order": order, "result": result}, "random", as_json)


@order_app.command("accept")
def order_accept_cmd(
    order: Annotated[str, typer.Argument(help="Order id.")],
    division: Annotated[
        str | None, typer.Option("--division", help="Under Drags his Feet: the division.")
    ] = None,
    game: GameOpt = "cwb",
    policy: PolicyOpt = "prompt",
    as_json: JsonOpt = False,
) -> None:
    """Mark an order accepted (or one more division of a Drags-his-Feet order)."""
    params: dict[str, Any] = {"order": order}
    if division:
        params["division"] = division
    _run(game, "order_accept", params, policy, as_json)


@order_app.command("roll")
def order_roll_cmd(
    order: Annotated[str, typer.Argument(help="Order id.")],
    division: Annotated[
        str | None, typer.Option("--division", help="Division to commit on a success.")
    ] = None,
    game: GameOpt = "cwb",
    policy: PolicyOpt = "prompt",
    as_json: JsonOpt = False,
) -> None:
    """Roll a delayed order's acceptance (1d6 >= n for Dn; once per turn)."""
    params: dict[str, Any] = {"order": order}
    if division:
        params["division"] = division
    _run(game, "order_roll", params, policy, as_json)


@order_app.command("cancel")
def order_cancel_cmd(
    order: Annotated[str, typer.Argument(help="Order id.")],
    game: GameOpt = "cwb",
    as_json: JsonOpt = False,
) -> None:
    """Cancel an order."""
    _run(game, "order_cancel", {"order": order}, "random", as_json)


@cwb_app.command("wreck")
def wreck_cmd(
    division: Annotated[str, typer.Argument(help="Division id, e.g. H/1 or 1/I.")],
    undo: Annotated[
        bool, typer.Option("--undo", help="The division is no longer wrecked.")
    ] = False,
    game: GameOpt = "cwb",
    as_json: JsonOpt = False,
) -> None:
    """Mark a division wrecked (it counts for the Panic Check if infantry)."""
    _run(game, "wreck", {"division": division, "undo": undo}, "random", as_json)


@cwb_app.command("place")
def place_cmd(
    unit: Annotated[str, typer.Argument(help="Unit id (L/H/1) or leader id (longstreet).")],
    hex_id: Annotated[str, typer.Argument(metavar="HEX", help="Hex id, e.g. A43.01.")],
    game: GameOpt = "cwb",
    as_json: JsonOpt = False,
) -> None:
    """Place or move a unit or leader on a hex (eligibility is then computed)."""
    _run(game, "place", {"unit": unit, "hex": hex_id}, "random", as_json)


@cwb_app.command("unplace")
def unplace_cmd(
    unit: Annotated[str, typer.Argument(help="Unit or leader id.")],
    game: GameOpt = "cwb",
    as_json: JsonOpt = False,
) -> None:
    """Forget a unit's or leader's position."""
    _run(game, "place", {"unit": unit, "hex": None}, "random", as_json)


@cwb_app.command("enter")
def enter_cmd(
    unit: Annotated[str, typer.Argument(help="Unit id or division id.")],
    game: GameOpt = "cwb",
    as_json: JsonOpt = False,
) -> None:
    """A unit (or a whole division) enters play now."""
    _run(game, "enter", {"unit": unit}, "random", as_json)


@cwb_app.command("exit")
def exit_cmd(
    unit: Annotated[str, typer.Argument(help="Unit id.")],
    game: GameOpt = "cwb",
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
    game: GameOpt = "cwb",
    as_json: JsonOpt = False,
) -> None:
    """A leader lost at the table (combat); his post is filled by the succession rules."""
    _run(game, "leader_loss", {"leader": leader, "status": status}, "random", as_json)


@cwb_app.command("army-left")
def army_left_cmd(
    side: Annotated[str, typer.Option("--side", help="union or confederate.")],
    game: GameOpt = "cwb",
    as_json: JsonOpt = False,
) -> None:
    """Declare that a panicked army has left the map: the game ends."""
    _run(game, "army_left", {"side": _side(side)}, "random", as_json)
