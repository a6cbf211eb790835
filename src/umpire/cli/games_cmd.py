"""``umpire games``: list, show, undo, fork, export, import, verify and end saved games."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Annotated, Any

import typer

from umpire.cli.common import console, open_store, print_json
from umpire.errors import DataFileError, UmpireError
from umpire.paths import is_file

games_app = typer.Typer(no_args_is_help=True)

NameArg = Annotated[str, typer.Argument(help="The game's name.")]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print JSON instead of text.")]


@games_app.command("list")
def list_cmd(as_json: JsonOpt = False) -> None:
    """List saved games."""
    infos = open_store().all()
    if as_json:
        print_json([i.to_json() for i in infos])
        return
    from rich.table import Table

    if not infos:
        console().print("No games saved yet. Start one with 'umpire session new NAME'.")
        return
    table = Table("name", "module", "actions", "dice", "created", "state")
    for i in infos:
        state = "ended" if i.ended else "open"
        table.add_row(i.name, i.module, str(i.actions), i.source_kind, i.created, state)
    console().print(table)


def describe_event(event: dict[str, Any]) -> str:
    """One readable line for a log event (a roll of real dice typed at a table says so)."""
    line = _describe(event)
    typed = any(len(d) > 3 and d[3] == "typed" for d in event.get("draws") or [])
    return f"{line} (real dice, typed)" if typed else line


def _describe(event: dict[str, Any]) -> str:
    kind = event["kind"]
    if kind == "action":
        params = ", ".join(f"{k}={v}" for k, v in event.get("params", {}).items())
        return f"▶ {event['name']}({params})"
    if kind == "roll":
        faces = " ".join(str(g["faces"]) for g in event.get("dice", []))
        return (
            f"  🎲 {event.get('purpose', '')}: {event.get('expr')} → {faces} = {event.get('total')}"
        )
    if kind == "lookup":
        out = event.get("outcome", {})
        steps = []
        for step in event.get("trace", []):
            faces = " ".join(str(g["faces"]) for g in step["roll"]["dice"])
            mod = f" {step['mod']:+d} → {step['modified']}" if step.get("mod") else ""
            steps.append(f"{step['table']} {step['formula']} {faces} = {step['raw']}{mod}")
        spent = " (limit reached: no effect)" if event.get("exhausted") else ""
        return (
            f"  📜 {event.get('purpose', '')}: {'; '.join(steps)} → {out.get('id')}: "
            f"{out.get('text', '')}{spent}"
        )
    if kind == "draw":
        return f"  🂠 {event.get('purpose', '')}: {event.get('card')} ({event.get('left')} left)"
    if kind == "decision":
        return f"  ? [{event['decider']}] {event['prompt']} → {', '.join(event['answer'])}"
    if kind == "change":
        path = ".".join(str(p) for p in event["path"])
        value = "" if event["op"] == "delete" else f" {json.dumps(event.get('value'))[:60]}"
        return f"    {event['op']} {path}{value}"
    if kind == "instruction":
        return f"  ⚑ {event['text']}"
    return f"  {event.get('text', '')}"


@games_app.command("show")
def show_cmd(
    name: NameArg,
    events: Annotated[int, typer.Option("--events", help="How many recent events to show.")] = 30,
    changes: Annotated[bool, typer.Option("--changes", help="Show state changes too.")] = False,
    as_json: JsonOpt = False,
) -> None:
    """Show a game: its dice source, its actions and the end of its log."""
    store = open_store()
    info = store.info(name)
    records = store.records(name)
    head = store.head(name)
    if as_json:
        game = store.load(name, physical=_no_physical)
        print_json(
            {
                **info.to_json(),
                "head": head,
                "state_hash": game.state_hash(),
                "state": game.state,
                "log": [{"no": r.no, "name": r.name, "params": r.params} for r in records],
                "records": store.table_records(name),
            }
        )
        return
    c = console()
    c.print(
        f"[bold]{info.name}[/] — {info.module}, {info.actions} actions, "
        f"{'ended' if info.ended else 'open'}"
    )
    if info.source_kind in ("committed", "joint"):
        c.print(
            f"dice: {info.source_kind}, sha256(seed) = {info.commitment}"
            + (f", seed {info.seed}" if info.revealed else " (seed hidden until the end)")
        )
        if info.source_kind == "joint":
            joint = store.joint_public(name)
            done = {s: "committed" for s, d in joint["commitments"].items() if d}
            done.update({s: "revealed" for s in joint["contributions"]})
            sides = ", ".join(f"{s} {done.get(s, 'waiting')}" for s in joint["sides"])
            c.print(f"joint dice: {joint['phase']}; sides: {sides}")
    else:
        c.print(f"dice: {info.source_kind}" + (f", seed {info.seed}" if info.seed else ""))
    if info.parent:
        c.print(f"forked from {info.parent}")
    c.print(f"chain head after {info.actions} actions: {head}")
    lines = [
        describe_event(e.to_json())
        for r in records
        for e in r.events
        if changes or e.kind != "change"
    ]
    for line in lines[-events:] if events > 0 else lines:
        c.print(line, markup=False)
    # Beside the log: every undo (with the actions and dice it withdrew), real dice switched
    # on or off, refusals: going back is seen, not silent (issue 21).
    from umpire.web.log import record_line

    for rec in store.table_records(name):
        c.print(f"beside the log: {record_line(rec)}", markup=False)


def _no_physical(n: int, sides: int, purpose: str) -> str:
    raise UmpireError("this game uses physical dice; it cannot roll here")


@games_app.command("undo")
def undo_cmd(
    name: NameArg,
    to: Annotated[int | None, typer.Option("--to", help="Keep actions 1..TO.")] = None,
    steps: Annotated[int, typer.Option("--steps", help="How many actions to undo.")] = 1,
) -> None:
    """Undo the last action (or back to any earlier point)."""
    store = open_store()
    info = store.info(name)
    target = to if to is not None else info.actions - steps
    record = {"by": "terminal", "agreed": None, "why": "at the terminal, with the save file"}
    dropped = store.undo(name, target, record)
    console().print(
        f"{name}: undid {dropped} action(s); now at action {target}. The withdrawn actions "
        "and their dice are kept beside the log (games show, export, verify)."
    )


@games_app.command("fork")
def fork_cmd(
    name: NameArg,
    new: Annotated[str, typer.Argument(help="The new game's name.")],
    at: Annotated[int | None, typer.Option("--at", help="Fork after this action.")] = None,
    keep_dice: Annotated[
        bool,
        typer.Option(
            "--keep-dice",
            help="Replay the parent's own committed or joint dice (only from an ended game: "
            "its seed is public). Open (seeded) dice are kept unless --new-dice.",
        ),
    ] = False,
    new_dice: Annotated[
        bool, typer.Option("--new-dice", help="Open (seeded) dice: roll a fresh seed.")
    ] = False,
) -> None:
    """Copy a game, or its first actions, into a new game. A fork of a game with committed
    or joint dice rolls dice of its own from the fork point (reading ``web_fork``), so
    forking a game in play foresees none of its dice; open dice, whose seed is public, and
    typed dice are kept."""
    store = open_store()
    kind = store.info(name).source_kind
    if kind in ("physical", "scripted") or (kind == "seeded" and not new_dice):
        source, keeps = None, True
        how = "keeping its open dice" if kind == "seeded" else "keeping its typed dice"
    elif keep_dice:
        source, keeps = store.fork_source(name, keep_dice=True), True
        how = "replaying the parent's dice as open dice (the parent has ended: its seed is public)"
    else:
        source, keeps = store.fork_source(name), False
        how = "with dice of its own from the fork point"
    upto = store.fork(name, new, at, source=source, keeps_dice=keeps)
    console().print(f"forked {name} at action {upto} into {new}, {how}.")


@games_app.command("export")
def export_cmd(
    name: NameArg,
    output: Annotated[
        str | None, typer.Option("-o", "--output", help="File to write (default: stdout).")
    ] = None,
) -> None:
    """Export a game as one JSON file (written atomically)."""
    data = open_store().export(name)
    text = json.dumps(data, indent=1, ensure_ascii=False) + "\n"
    if output is None:
        typer.echo(text, nl=False)
        return
    atomic_write(Path(output), text)
    console().print(f"exported {name} ({len(data['actions'])} actions) to {output}")


def atomic_write(path: Path, text: str) -> None:
    """Write a file whole or not at all (temporary file, then rename)."""
    path = path.expanduser()
    if path.is_dir():
        raise UmpireError(f"{path} is a directory")
    fd, tmp = tempfile.mkstemp(dir=path.parent if str(path.parent) else ".", prefix=".umpire-")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
        os.replace(tmp, path)
    except OSError as exc:
        Path(tmp).unlink(missing_ok=True)
        raise UmpireError(f"cannot write {path}: {exc.strerror}") from None


def read_export(file: str) -> Any:
    """Read an export file's JSON (nesting bounded before parsing); errors name the file and
    line."""
    from umpire.store.shape import load_json

    path = Path(file)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise DataFileError(f"cannot read: {exc.strerror}", file=file) from None
    except UnicodeDecodeError:
        raise DataFileError("not a text file (an export is UTF-8 JSON)", file=file) from None
    return load_json(text, file)


@games_app.command("import")
def import_cmd(
    file: Annotated[str, typer.Argument(help="An export file.")],
    name: Annotated[str | None, typer.Option("--name", help="Save under this name.")] = None,
) -> None:
    """Import an exported game (refused unless its log replays)."""
    data = read_export(file)
    if not isinstance(data, dict):
        raise DataFileError("not an umpire game export (expected a JSON object)", file=file)
    new = open_store().import_(data, name, file=file)
    console().print(f"imported {file} as {new}.")


@games_app.command("verify")
def verify_cmd(
    game: Annotated[str, typer.Argument(help="A saved game's name or an export file.")],
    head: Annotated[
        str | None,
        typer.Option(
            "--head",
            help="A chain head a player kept (HEX, or HEX@COUNT as 'games end' prints it): "
            "the log must end exactly there.",
        ),
    ] = None,
    parent: Annotated[
        str | None,
        typer.Option(
            "--parent",
            help="A fork's parent (a saved game's name or an export file): checks the dice "
            "before the fork against the parent's seed.",
        ),
    ] = None,
    as_json: JsonOpt = False,
) -> None:
    """Replay a game, check every roll against its seed and its hash chain."""
    from umpire.store import verify_export

    if is_file(game):
        data, file = read_export(game), game
        if not isinstance(data, dict):
            raise DataFileError("not an umpire game export (expected a JSON object)", file=file)
    else:
        data, file = open_store().export(game), None
    parent_data = None
    if parent is not None:
        parent_data = read_export(parent) if is_file(parent) else open_store().export(parent)
        if not isinstance(parent_data, dict):
            raise DataFileError("not an umpire game export (expected a JSON object)", file=parent)
    rep = verify_export(data, file=file, head=head, parent=parent_data)
    if as_json:
        print_json(
            {
                "ok": True,
                "actions": rep.actions,
                "events": rep.events,
                "dice": rep.dice,
                "rolls_checked": rep.rolls_checked,
                "dice_checked": rep.checked,
                "dice_typed": rep.typed,
                "chained": rep.chained,
                "identity": rep.identity,
                "head": rep.head,
                "notes": rep.notes,
                "parts": rep.parts,
                "records": rep.records,
            }
        )
        return
    chain = "the hash chain holds" if rep.chained else "no hash chain stated"
    c = console()
    c.print(
        f"OK: {rep.actions} actions, {rep.events} events; {rep.dice_line()}; "
        f"the log replays to the recorded states; {chain}.",
        markup=False,
    )
    c.print(f"chain head: {rep.head}@{rep.actions}")
    for part in rep.parts:
        c.print(f"checked: {part}", markup=False)
    for line in rep.records:
        c.print(f"beside the log: {line}", markup=False)
    for note in rep.notes:
        c.print(f"note: {note}")


@games_app.command("end")
def end_cmd(name: NameArg) -> None:
    """End a game and reveal its seed, so an export can be verified by anyone."""
    store = open_store()
    info = store.end(name)
    head = store.head(name)
    c = console()
    c.print(
        f"{name} ended. Seed: {info.seed}"
        + (f" (sha256 {info.commitment})" if info.commitment else "")
    )
    c.print(f"{info.actions} actions; chain head {head}")
    c.print(f"Keep it: umpire games verify EXPORT.json --head {head}@{info.actions}")
    if info.actions:  # issue 24: a game ended at the terminal gets its report
        from umpire.cli.aar_cmd import report_at_end

        c.print(report_at_end(store, name), markup=False, soft_wrap=True)


@games_app.command("delete")
def delete_cmd(
    name: NameArg,
    yes: Annotated[bool, typer.Option("--yes", help="Do not ask.")] = False,
) -> None:
    """Delete a game and its log."""
    if not yes and not typer.confirm(f"Delete game '{name}' and its whole log?"):
        raise typer.Abort()
    open_store().delete(name)
    console().print(f"deleted {name}.")
