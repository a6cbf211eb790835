"""``umpire odds``: the exact odds of every resolution of every module, or of dice notation.

``umpire odds list`` names every resolution; ``umpire odds MODULE NAME [--param ...]``
shows one as a table (outcome, fraction, percentage, a bar), its "why" (the dice, rows
and modifiers), ``--json`` or ``--png FILE`` (a matplotlib bar chart). ``umpire odds dice
EXPR`` (and the older ``umpire odds EXPR``) is the odds of dice notation. The commands
of the modules are built from their parameters on demand (``umpire.rules.odds``), so
nothing of a module loads until it is asked for.
"""

from __future__ import annotations

import inspect
from collections.abc import Sequence
from enum import Enum
from typing import Annotated, Any

import typer
import typer.main
from typer.core import TyperGroup

from umpire.cli.common import print_json
from umpire.cli.dice_cmd import odds_cmd
from umpire.errors import UmpireError, UnknownNameError

_BAR_WIDTH = 30


def _norm(name: str) -> str:
    return name.strip().lower().replace("_", "-")


class OddsGroup(TyperGroup):
    """The ``odds`` group: its own commands, one group per module, and dice notation."""

    def list_commands(self, ctx: Any) -> list[str]:
        """``dice``, ``list``, then the modules that offer odds."""
        from umpire.rules.odds import modules

        return [*super().list_commands(ctx), *modules()]

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        """A command of the group, a module's group, or a resolution only one module has."""
        found = super().get_command(ctx, cmd_name)
        if found is not None:
            return found
        from umpire.rules import odds as O

        for module in O.modules():
            if _norm(module) == _norm(cmd_name):
                return module_group(module)
        try:
            return resolution_command(O.find(cmd_name))
        except UnknownNameError:
            return None

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        """Read ``umpire odds 2d6+1`` as ``umpire odds dice 2d6+1`` (the older form)."""
        if args and not args[0].startswith("-") and self.get_command(ctx, args[0]) is None:
            if not any(c.isdigit() for c in args[0]):
                from umpire.rules.odds import find

                find(args[0])  # a word, not dice: say which resolutions there are
            args = ["dice", *args]
        return super().parse_args(ctx, args)


odds_app = typer.Typer(
    cls=OddsGroup,
    no_args_is_help=True,
    help="Exact odds before the dice: 'umpire odds list' names every resolution of every "
    "module (e.g. 'umpire odds quick-acw fire --range 6'); 'umpire odds dice 2d6+1' (or "
    "'umpire odds 2d6+1') gives the odds of dice notation.",
)
odds_app.command("dice")(odds_cmd)


@odds_app.command("list")
def list_cmd(
    json_out: Annotated[bool, typer.Option("--json", help="Print the list as JSON.")] = False,
) -> None:
    """Every resolution of every module: its name, seed section and parameters."""
    from umpire.rules.odds import resolutions

    found = resolutions()
    if json_out:
        print_json(
            [
                {
                    "module": r.module,
                    "name": r.name,
                    "seed": r.seed,
                    "summary": r.summary,
                    "params": [
                        {
                            "name": p.name,
                            "kind": p.kind,
                            "default": p.default,
                            "legal": p.legal(),
                            "help": p.help,
                        }
                        for p in r.params
                    ],
                }
                for r in found
            ]
        )
        return
    from rich.table import Table

    from umpire.cli.common import console

    table = Table(title="umpire odds MODULE NAME [--param VALUE ...]", title_justify="left")
    for col in ("resolution", "seed section", "what (parameters: --help)"):
        table.add_column(col)
    for r in found:
        table.add_row(r.qualified, r.seed, r.summary)
    console().print(table, markup=False)


def module_app(module: str) -> typer.Typer:
    """A typer app of one module's resolutions, one command each."""
    from umpire.rules.odds import resolutions

    mine = [r for r in resolutions() if r.module == module]
    app = typer.Typer(
        no_args_is_help=True,
        add_completion=False,
        help=f"Exact odds of {module}'s resolutions: "
        + ", ".join(f"{r.name} ({r.seed})" for r in mine)
        + ".",
    )
    for r in mine:
        app.command(r.name, help=f"{r.summary} ({r.seed}).")(resolution_function(r))
    return app


def module_group(module: str) -> Any:
    """The command group of one module (built on demand)."""
    return typer.main.get_group(module_app(module))


def resolution_command(r: Any) -> Any:
    """The command of one resolution (for a name only one module offers)."""
    app = typer.Typer(add_completion=False)
    app.command(r.name, help=f"{r.summary} ({r.seed}).")(resolution_function(r))
    return typer.main.get_command(app)


def _annotation(p: Any) -> Any:
    """``Annotated[type, typer.Option(...)]`` for one parameter, with its legal values."""
    flag = "--" + p.name.replace("_", "-")
    if p.kind == "bool":
        return Annotated[
            bool, typer.Option(f"{flag}/--no-{flag[2:]}", help=f"{p.help}.", show_default=True)
        ]
    help_text = f"{p.help} [{p.legal()}]"
    if p.choices:
        choice = Enum(p.name, [(c, c) for c in p.choices], type=str)  # type: ignore[misc]
        return Annotated[choice, typer.Option(flag, help=help_text, case_sensitive=False)]
    if p.kind == "float":  # the parameter's own check: a NaN passes a min/max range test
        return Annotated[float, typer.Option(flag, help=help_text, callback=_checked(p))]
    kind = {"int": int}.get(p.kind, str)
    return Annotated[kind, typer.Option(flag, help=help_text, min=p.lo, max=p.hi)]


def _checked(p: Any) -> Any:
    """A typer callback: the value as ``p.check`` reads it, or its one-line refusal."""

    def check(value: float) -> Any:
        try:
            return p.check(value)
        except UmpireError as exc:
            raise typer.BadParameter(str(exc).partition(": ")[2] or str(exc)) from None

    return check


def resolution_function(r: Any) -> Any:
    """A function typer can mount: its signature is the resolution's parameters."""

    def run(**kwargs: Any) -> None:
        as_json = bool(kwargs.pop("as_json"))
        png = kwargs.pop("png")
        solve = kwargs.pop("solve_param", None)
        target = kwargs.pop("solve_target", None)
        outcome = kwargs.pop("solve_outcome", None)
        given = {k: v.value if isinstance(v, Enum) else v for k, v in kwargs.items()}
        if solve is None:
            if target is not None or outcome is not None:
                raise UmpireError("--target (--solve-target) and --outcome go with --solve PARAM")
            show(r.odds(given), r, as_json=as_json, png=png)
            return
        if png:
            raise UmpireError("--png draws one distribution; drop it with --solve")
        from umpire.lab.solve import solve as solve_for

        found = solve_for(r, solve, given, 0.5 if target is None else target, outcome)
        show_solution(found, as_json=as_json)

    kw = inspect.Parameter.KEYWORD_ONLY
    params = [
        inspect.Parameter(
            p.name,
            kw,
            default=p.default,
            annotation=_annotation(p),
        )
        for p in r.params
    ]
    params.append(
        inspect.Parameter(
            "as_json",
            kw,
            default=False,
            annotation=Annotated[
                bool, typer.Option("--json", help="Print the distribution and why as JSON.")
            ],
        )
    )
    params.append(
        inspect.Parameter(
            "png",
            kw,
            default=None,
            annotation=Annotated[
                str | None,
                typer.Option(
                    "--png", metavar="FILE", help="Also write the distribution as a bar chart."
                ),
            ],
        )
    )
    params += _solve_params(r)
    run.__signature__ = inspect.Signature(params)  # type: ignore[attr-defined]
    run.__doc__ = f"{r.summary} ({r.seed})."
    return run


def _solve_params(r: Any) -> list[inspect.Parameter]:
    """``--solve PARAM``, ``--target`` and ``--outcome``: the designer's question (issue 24)."""
    from umpire.lab.solve import SCAN_MAX, WINDOW

    ints = [p.name.replace("_", "-") for p in r.params if p.kind == "int"]
    taken = {"--" + p.name.replace("_", "-") for p in r.params}
    # a resolution's own --target (quick-acw fire's target unit) keeps its name: there the
    # chance wanted is --solve-target only
    targets = [f for f in ("--target", "--solve-target") if f not in taken]
    kw = inspect.Parameter.KEYWORD_ONLY
    return [
        inspect.Parameter(
            "solve_param",
            kw,
            default=None,
            annotation=Annotated[
                str | None,
                typer.Option(
                    "--solve",
                    metavar="PARAM",
                    help="Find the integer value of PARAM ("
                    + (", ".join(ints) or "this resolution has none")
                    + ") whose chance of --outcome is nearest --target, with the values either "
                    f"side; the other parameters as given. A legal range of up to {SCAN_MAX} "
                    "values is scanned whole; a wider or unbounded one is searched by "
                    f"bisection up to {WINDOW:,} from the default, assuming the chance moves "
                    "one way with PARAM. On a tie, the value nearest PARAM's default.",
                ),
            ],
        ),
        inspect.Parameter(
            "solve_target",
            kw,
            default=None,
            annotation=Annotated[
                float | None,
                typer.Option(*targets, help="With --solve: the chance wanted, 0 to 1 [0.5]"),
            ],
        ),
        inspect.Parameter(
            "solve_outcome",
            kw,
            default=None,
            annotation=Annotated[
                str | None,
                typer.Option(
                    "--outcome",
                    metavar="NAME",
                    help="With --solve: an outcome, or a stage of a joint one ('charge goes "
                    "in'); default the first listed",
                ),
            ],
        ),
    ]


def show_solution(s: Any, *, as_json: bool) -> None:
    """A --solve answer: the value found, its chance and its neighbours' (or JSON)."""
    r = s.resolution
    if as_json:
        print_json({"seed": r.seed, **s.to_json()})
        return
    from umpire.cli.common import console

    out = console()
    flag = "--" + s.param.replace("_", "-")
    out.print(
        f"{r.qualified} ({r.seed}): {flag} {s.value} gives '{s.outcome}' "
        f"{float(s.chance):.2%} ({s.chance.numerator}/{s.chance.denominator}), the nearest "
        f"to {float(s.target):.2%}",
        markup=False,
    )
    for v, p in s.chances:
        mark = "->" if v == s.value else "  "
        gap = float(p - s.target) * 100
        out.print(
            f"  {mark} {flag} {v:<4d} {float(p):8.2%}  {p!s:>9s}  ({gap:+.2f} points)",
            markup=False,
        )
    shown = " ".join(_flag(k, v) for k, v in s.fixed.items())
    how = (
        f"every value {s.lo} to {s.hi} tried"
        if s.method == "scan"
        else f"bisection over {s.lo} to {s.hi} (the chance assumed to move one way)"
    )
    out.print(f"searched: {how}; other parameters: {shown or 'none'}", markup=False)
    if s.flat:
        out.print(f"note: {flag} does not change the chance of '{s.outcome}'", markup=False)


def show(odds: Any, r: Any, *, as_json: bool, png: str | None) -> None:
    """Print the odds as a table with bars and the why, or JSON; write the PNG if asked."""
    if png:
        write_png(odds, png)
    if as_json:
        data = {"module": r.module, "name": r.name, "seed": r.seed, **odds.to_json()}
        if png:
            data["png"] = png
        print_json(data)
        return
    from rich.table import Table

    from umpire.cli.common import console

    out = console()
    table = Table(title=f"{odds.title} ({r.seed})", title_justify="left")
    table.add_column("outcome")
    table.add_column("%", justify="right")
    table.add_column("p", justify="right", overflow="fold")
    table.add_column("", justify="left")
    top = max((o.p for o in odds.outcomes), default=0) or 1
    for o in odds.outcomes:
        bar = "█" * round(_BAR_WIDTH * o.p / top)
        table.add_row(o.label, f"{float(o.p) * 100:.2f}", str(o.p), bar)
    out.print(table, markup=False)
    shown = " ".join(_flag(k, v) for k, v in odds.params.items())
    out.print(f"total {odds.total}; parameters: {shown or 'none'}", markup=False)
    out.print("why:", markup=False)
    for w in odds.why:
        src = f"  [{w.source}]" if w.source else ""
        out.print(f"  {w.kind:<8} {w.text}{src}", markup=False)
    if png:
        out.print(f"chart written to {png}", markup=False)


def _flag(name: str, value: Any) -> str:
    flag = "--" + name.replace("_", "-")
    if isinstance(value, bool):
        return flag if value else f"--no-{flag[2:]}"
    return f"{flag} {value:g}" if isinstance(value, float) else f"{flag} {value}"


def write_png(odds: Any, path: str) -> None:
    """A horizontal bar chart of the distribution (matplotlib's Agg backend, no display)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    labels: Sequence[str] = [o.label for o in odds.outcomes]
    values = [float(o.p) * 100 for o in odds.outcomes]
    height = min(40.0, 1.2 + 0.32 * len(labels))
    width = min(16.0, 6.0 + 0.06 * max((len(s) for s in labels), default=0))
    fig, ax = plt.subplots(figsize=(width, height))
    try:
        y = list(range(len(labels)))
        ax.barh(y, values, color="#4a6fa5")
        ax.set_yticks(y, labels, fontsize=8)
        ax.invert_yaxis()
        ax.set_xlabel("probability (%)")
        ax.set_xlim(0, max(values, default=1.0) * 1.18)
        ax.set_title(odds.title, fontsize=10)
        for yi, v in zip(y, values, strict=True):
            ax.text(v, yi, f" {v:.2f}%", va="center", fontsize=7)
        fig.tight_layout()
        try:
            fig.savefig(path, format="png", dpi=100)
        except OSError as exc:
            raise UmpireError(f"cannot write the chart to '{path}': {exc.strerror}") from None
    finally:
        plt.close(fig)
