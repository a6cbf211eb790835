"""``umpire rules``: the rule modules, what each provides, and its labelled defaults."""

from __future__ import annotations

from typing import Annotated

import typer

from umpire.cli.common import console, print_json
from umpire.paths import exists

rules_app = typer.Typer(no_args_is_help=True)


@rules_app.command("list")
def list_cmd(
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
    brief: Annotated[bool, typer.Option("--brief", help="Modules only, no defaults.")] = False,
) -> None:
    """Every rules module, what it provides, and every default and reading it uses."""
    from umpire.ai.personality import labels
    from umpire.battle.roles import ROLES
    from umpire.rules import all_modules
    from umpire.web.readings import readings

    mods = all_modules()
    ai_name = "the AI's personality per side (issue 23; a scenario may set it per side)"
    web_name = "the web table's readings (issue 22; docs/web.md)"
    if as_json:
        ai_entry: dict[str, object] = {
            "id": "ai",
            "name": ai_name,
            "seed": None,
            "provides": ["personality"],
            "options": {},
            "defaults": labels(),
        }
        print_json(
            [
                {
                    "id": m.id,
                    "name": m.name,
                    "seed": m.seed,
                    "provides": list(m.provides),
                    "options": dict(getattr(m, "options", {})),
                    "defaults": [d.to_json() for d in m.defaults()],
                }
                for m in mods
            ]
            + [ai_entry]
            + [
                {
                    "id": "web",
                    "name": web_name,
                    "seed": None,
                    "provides": [],
                    "options": {},
                    "defaults": [d.to_json() for d in readings()],
                }
            ]
        )
        return
    c = console()
    for m in mods:
        roles = [r for r in m.provides if r in ROLES] if hasattr(m, "role") else []
        what = f"roles: {', '.join(roles)}" if roles else f"provides: {', '.join(m.provides)}"
        c.print(f"[bold]{m.id}[/] — {m.name} (seed {m.seed}); {what}")
        for name, text in dict(getattr(m, "options", {})).items():
            c.print(f"  option [rules.options] {name}: {text}", markup=False, highlight=False)
        if brief:
            continue
        for d in m.defaults():
            c.print(
                f"  [{'yellow' if d.label == 'default' else 'cyan'}]{d.label}[/] {d.id}: {d.text}"
            )
            c.print(f"      why: {d.reason}" + (f"  ({d.source})" if d.source else ""))
    c.print(f"[bold]ai[/] — {ai_name}")
    if not brief:
        for a in labels():
            c.print(f"  [yellow]default[/] {a['id']}: {a['text']}")
            c.print(f"      why: {a['reason']}  ({a['source']})")
    c.print(f"[bold]web[/] — {web_name}")
    if not brief:
        for d in readings():
            c.print(f"  [cyan]{d.label}[/] {d.id}: {d.text}")
            c.print(f"      why: {d.reason}  ({d.source})")


@rules_app.command("copy")
def copy_cmd(
    module: Annotated[str, typer.Argument(help="A role module id (quick-acw, five-step, ...)")],
    folder: Annotated[str, typer.Argument(help="A new or empty folder for the copy")],
) -> None:
    """Copy a module's data files to FOLDER to edit; ``umpire simulate --rules-data FOLDER``
    then compares the edited rules with the shipped ones."""
    import shutil
    from pathlib import Path

    from umpire.errors import UmpireError
    from umpire.rules.data import MARKER, data_dir

    src = data_dir(module)
    dst = Path(folder)
    if exists(dst) and (not dst.is_dir() or any(dst.iterdir())):
        raise UmpireError(f"'{folder}' exists and is not an empty folder")
    try:
        dst.mkdir(parents=True, exist_ok=True)
        names = []
        for p in sorted(src.glob("*.toml")):
            shutil.copyfile(p, dst / p.name)
            names.append(p.name)
        (dst / MARKER).write_text(module + "\n", encoding="utf-8")
    except OSError as exc:
        raise UmpireError(f"cannot write {folder}: {exc.strerror}") from None
    typer.echo(
        f"Copied {module}'s data ({', '.join(names)}) to {folder}; edit them, then "
        f"umpire simulate SCENARIO --rules-data {folder}"
    )
