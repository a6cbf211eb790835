"""The after-action report as ONE self-contained HTML file (issue 24).

No network: the maps are inline SVG (``battle/render.py``'s drawing), the charts inline SVG
made by matplotlib, the style inline; no script, no font, no link leaves the file.
"""

from __future__ import annotations

import io
import os
import tempfile
from html import escape
from pathlib import Path
from typing import Any

from umpire.aar.collect import Report
from umpire.dice.luck import Luck
from umpire.errors import UmpireError

CSS = """
body{font-family:Georgia,serif;max-width:1100px;margin:1em auto;padding:0 1em;color:#222;
background:#fbf8f1}
h1{font-size:1.7em;margin-bottom:.1em}h2{border-bottom:2px solid #8a6d3b;margin-top:1.6em}
.sub{color:#555;margin-top:0}.luck li{margin:.3em 0}table{border-collapse:collapse;
font-size:.92em}td,th{border:1px solid #ccc;padding:3px 6px;text-align:left;vertical-align:top}
th{background:#eee5d3}.map svg,.chart svg{max-width:100%;height:auto}
.charts{display:flex;flex-wrap:wrap;gap:1em}.chart{flex:1 1 480px}
.turn{margin:.8em 0;padding:.4em .8em;background:#fff;border:1px solid #ddd}
.turn pre{white-space:pre-wrap;font-size:.85em;margin:.3em 0}code{font-size:.9em}
.proof{background:#fff;border:1px solid #ccc;padding:.6em;word-break:break-all}
.bar{display:inline-block;height:.8em;background:#8a6d3b;vertical-align:middle}
"""


def _pct(x: float) -> str:
    return f"{x * 100:.1f}%" if x >= 0.001 else f"1 in {round(1 / x):,}" if x > 0 else "0"


def _chart(draw: Any, title: str) -> str:
    """A matplotlib figure drawn by ``draw(ax)``, as inline SVG text."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6.0, 3.2), dpi=100)
    try:
        draw(ax)
        ax.set_title(title, fontsize=11)
        fig.tight_layout()
        buf = io.StringIO()
        fig.savefig(buf, format="svg", metadata={"Date": None})
    finally:
        plt.close(fig)
    text = buf.getvalue()
    return text[text.index("<svg") :]  # the XML prologue and doctype are not HTML


SIDE_COLOUR = {"union": "#2b4c9b", "confederate": "#8f8f8f", "table": "#8a6d3b", "both": "#555"}


def _charts(rep: Report) -> list[str]:
    out: list[str] = []
    if rep.kind == "battle":

        def strength(ax: Any) -> None:
            for side, pts in rep.strength.items():
                ax.plot(
                    [t for t, _ in pts],
                    [s for _, s in pts],
                    marker="o",
                    label=side_words(side),
                    color=SIDE_COLOUR.get(side),
                )
            ax.set_xlabel("turn")
            ax.set_ylabel("stands on the table")
            ax.legend()

        out.append(_chart(strength, "Strength of each side"))

        def losses(ax: Any) -> None:
            causes = ["fire", "melee", "rout", "other"]
            sides = list(rep.losses) or ["union", "confederate"]
            w = 0.8 / max(1, len(sides))
            for k, side in enumerate(sides):
                vals = [rep.losses.get(side, {}).get(c, 0) for c in causes]
                ax.bar(
                    [i + k * w for i in range(len(causes))],
                    vals,
                    w,
                    label=side_words(side),
                    color=SIDE_COLOUR.get(side),
                )
            ax.set_xticks([i + w * (len(sides) - 1) / 2 for i in range(len(causes))], causes)
            ax.set_ylabel("stands lost")
            _integers(ax)
            ax.legend()

        out.append(_chart(losses, "Losses by cause"))

        def leaders(ax: Any) -> None:
            for side, pts in rep.leaders.items():
                ax.step(
                    [t for t, _ in pts],
                    [n for _, n in pts],
                    where="post",
                    label=side_words(side),
                    color=SIDE_COLOUR.get(side),
                )
            ax.set_xlabel("turn")
            ax.set_ylabel("leaders lost")
            _integers(ax)
            ax.legend()

        out.append(_chart(leaders, "Leaders lost"))
    if rep.events:

        def events(ax: Any) -> None:
            names = sorted({k for ev in rep.events.values() for k in ev})
            sides = list(rep.events)
            w = 0.8 / max(1, len(sides))
            for k, side in enumerate(sides):
                ax.barh(
                    [i + k * w for i in range(len(names))],
                    [rep.events[side].get(n, 0) for n in names],
                    w,
                    label=side_words(side),
                    color=SIDE_COLOUR.get(side),
                )
            ax.set_yticks(
                [i + w * (len(sides) - 1) / 2 for i in range(len(names))],
                [n.replace("_", " ")[:28] for n in names],
                fontsize=7,
            )
            ax.set_xlabel("times")
            _integers(ax, "x")
            ax.legend()

        out.append(_chart(events, "Events rolled" if rep.kind == "cwb" else "Results rolled"))
    if rep.kind == "cwb":
        stamps = list(
            dict.fromkeys([w for w, _, _ in rep.timeline] + [w for w, _, _ in rep.leader_losses])
        )

        def days(ax: Any) -> None:
            for side in ("union", "confederate"):
                n, xs, ys = 0, [0], [0]
                for w, s, _ in rep.timeline:
                    if s == side:
                        n += 1
                        xs.append(stamps.index(w) + 1)
                        ys.append(n)
                ax.step(
                    xs,
                    ys,
                    where="post",
                    label=f"{side_words(side)} events",
                    color=SIDE_COLOUR.get(side),
                )
                lost = sorted(stamps.index(w) + 1 for w, s, _ in rep.leader_losses if s == side)
                if lost:
                    ax.step(
                        [0, *lost],
                        list(range(len(lost) + 1)),
                        where="post",
                        ls="--",
                        label=f"{side_words(side)} leaders lost",
                        color=SIDE_COLOUR.get(side),
                    )
            step = max(1, len(stamps) // 6)
            ax.set_xticks(range(1, len(stamps) + 1, step), stamps[::step], fontsize=7, rotation=20)
            ax.set_ylabel("so far")
            _integers(ax)
            ax.legend(fontsize=7)

        out.append(_chart(days, "Over the days: events rolled and leaders lost"))
    return out


def _integers(ax: Any, axis: str = "y") -> None:
    """Whole numbers only on a count's axis."""
    from matplotlib.ticker import MaxNLocator

    (ax.yaxis if axis == "y" else ax.xaxis).set_major_locator(MaxNLocator(integer=True))


SIDE_WORDS = {"table": "Neither side", "both": "Both sides"}
"""How a side that is not an army is named: rolls whose purpose names no side ("table")."""


def side_words(side: str) -> str:
    """A side's name in the report."""
    return SIDE_WORDS.get(side, side.title())


def _luck(lk: Luck) -> str:
    width = int(lk.percentile)
    return (
        f"<li>{escape(lk.sentence(side_words(lk.side)))} "
        f"<span class=bar style='width:{width}px'></span> "
        f"<small>(percentile {lk.percentile:.0f})</small></li>"
    )


def render(rep: Report) -> str:
    """The whole report as HTML text."""
    p: list[str] = [
        "<!DOCTYPE html><html lang=en><head><meta charset=utf-8>",
        "<meta name=viewport content='width=device-width, initial-scale=1'>",
        f"<title>After-action report: {escape(rep.title)}</title><style>{CSS}</style></head><body>",
        f"<h1>After-action report: {escape(rep.title)}</h1>",
        f"<p class=sub>Game <b>{escape(rep.name)}</b> ({escape(rep.module)}): "
        f"{escape(rep.result)}</p>",
        "<h2>Luck</h2>",
    ]
    if rep.luck:
        p.append(
            "<p>What each side's dice gave against their exact expectation, and where "
            "that falls among all the games the same rolls could have given.</p>"
        )
        p.append("<ul class=luck>" + "".join(_luck(lk) for lk in rep.luck) + "</ul>")
    elif rep.kind == "battle":
        p.append("<p>No roll of this game carries its exact odds.</p>")
    else:  # seed 000's tables and a book's look-ups: rows neither good nor bad for a side
        p.append(
            "<p>No roll of this game is good or bad for a side in itself: its tables' rows "
            "are counted in the charts and ranked by their exact odds below.</p>"
        )
    if rep.kind == "battle":
        from umpire.dice.luck import side_luck

        each = [(s, x) for s, x in side_luck(rep.tallies).items() if x is not None]
        if each:
            p.append(
                "<p>Each side's luck in one number (the mean of its percentiles above, "
                "weighted by rolls; 50 is average dice): "
                + ", ".join(f"{escape(side_words(s))} {x:.0f}" for s, x in each)
                + "</p>"
            )
        p.append(
            f"<p class=average>{escape(rep.average)}</p>"
            if rep.average
            else "<p class=average>With average dice: <small>not measured: "
            f"<code>umpire aar {escape(rep.name)}</code> plays battles from the start to "
            "measure whether the result would likely have changed</small></p>"
        )
    p.append("<h2>Decisive moments</h2>")
    if rep.moments:
        battle = rep.kind == "battle"  # only a battle has a win chance to play on for
        p.append(
            "<p>The least likely outcomes, by their exact odds"
            + ("" if battle else " (no winner to play on for: no win-chance swing)")
            + ".</p><table><tr><th>when</th>"
            "<th>action</th><th>order</th><th>roll</th><th>faces</th><th>outcome</th>"
            "<th>chance</th>" + ("<th>win-chance swing</th>" if battle else "") + "</tr>"
        )
        measured = any(m.swing is not None for m in rep.moments)
        for k, m in enumerate(rep.moments):
            swing = "" if m.swing is None else f"{m.swing * 100:+.0f} points ({m.side})"
            unmeasured = ""
            if not measured and k < 5 and m.side:  # written without playing on
                unmeasured = (
                    f"<small>not measured: <code>umpire aar {escape(rep.name)}</code> "
                    "plays on to measure it</small>"
                )
            p.append(
                f"<tr><td>{escape(m.turn)}</td><td>{m.action}</td><td>{escape(m.order)}</td>"
                f"<td>{escape(m.purpose)}</td><td>{' '.join(map(str, m.faces))}</td>"
                f"<td>{escape(m.outcome)}</td><td>{_pct(float(m.chance))} "
                f"<small>({m.chance.numerator}/{m.chance.denominator})</small></td>"
                + (f"<td>{escape(swing) or unmeasured}</td>" if battle else "")
                + "</tr>"
            )
        p.append("</table>")
    else:
        p.append("<p>No roll to rank.</p>")
    charts = _charts(rep)
    if charts:
        p.append("<h2>Charts</h2><div class=charts>")
        p += [f"<div class=chart>{c}</div>" for c in charts]
        p.append("</div>")
    if rep.orders:
        p.append(
            "<h2>The orders' lives</h2><table><tr><th>order</th><th>side</th>"
            "<th>issued</th><th>now</th></tr>"
        )
        p += [
            f"<tr><td>{escape(a)}</td><td>{escape(b)}</td><td>{escape(c)}</td>"
            f"<td>{escape(d)}</td></tr>"
            for a, b, c, d in rep.orders
        ]
        p.append("</table>")
    if rep.kind == "cwb":
        p.append("<h2>Leaders lost</h2>")
        if rep.leader_losses:
            p.append(
                "<ul>"
                + "".join(
                    f"<li>{escape(w)}: {escape(n)} ({escape(s)})</li>"
                    for w, s, n in rep.leader_losses
                )
                + "</ul>"
            )
        else:
            p.append("<p>None.</p>")
    p.append("<h2>The story</h2>")
    for t in rep.turns:
        p.append(f"<div class=turn><h3>{escape(t.title)}</h3>")
        if t.lines:
            p.append("<pre>" + escape("\n".join(t.lines)) + "</pre>")
        if t.svg:
            p.append(f"<div class=map>{t.svg}</div>")
        p.append("</div>")
    pr = rep.proof
    p.append("<h2>The proof</h2><div class=proof>")
    p.append(
        f"<p>Dice: {escape(str(pr.get('source')))}; seed: "
        f"{escape(str(pr.get('seed') or 'not revealed'))}; commitment: "
        f"<code>{escape(str(pr.get('commitment') or 'none'))}</code></p>"
    )
    p.append(
        f"<p>Chain head after {pr.get('actions')} actions: "
        f"<code>{escape(str(pr.get('head')))}</code></p>"
    )
    p.append(
        f"<p>To verify: <code>{escape(str(pr.get('verify')))}</code> (re-executes every "
        "action, checks every die against the seed and the chain against this head; "
        "see docs/verification.md).</p></div>"
    )
    p.append("</body></html>\n")
    return "\n".join(p)


def write(text: str, path: Path) -> None:
    """Write ``text`` to ``path`` whole or not at all (a temp file beside it, renamed); a
    folder that is missing or not writable is a one-line error."""
    path = Path(path).expanduser()
    if path.is_dir():
        raise UmpireError(f"{path} is a directory")
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        raise UmpireError(f"{path}: the folder {folder} does not exist")
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
    except OSError as exc:
        raise UmpireError(f"cannot write {path}: {exc.strerror}") from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
        mask = os.umask(0)
        os.umask(mask)
        os.chmod(tmp, 0o666 & ~mask)  # an ordinary file, not mkstemp's private one
        os.replace(tmp, path)
    except OSError as exc:
        Path(tmp).unlink(missing_ok=True)
        raise UmpireError(f"cannot write {path}: {exc.strerror}") from None
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def report_file(store: Any, name: str, path: Path, swing: Any = None, average: Any = None) -> Path:
    """Collect, render and write the report of game ``name`` to ``path`` (``swing``: the
    decisive moments' win-chance swing, a :data:`umpire.aar.collect.SwingFn`; ``average``:
    the "with average dice" line, an :data:`umpire.aar.collect.AverageFn`)."""
    from umpire.aar.collect import collect

    write(render(collect(store, name, swing=swing, average=average)), path)
    return path
