"""``umpire report RUN``: one self-contained HTML file of a stored lab run.

Everything is inside the file (charts as PNG data, no scripts, no links out), so a
designer can mail it or open it offline. What it shows comes from the run as stored
(``umpire.lab.results``): the summary ``umpire simulate`` printed, with charts drawn from
the same numbers and from the per-battle records.
"""

from __future__ import annotations

import base64
import io
from html import escape
from typing import TYPE_CHECKING, Any

from umpire.lab.results import Run

if TYPE_CHECKING:
    from umpire.lab.luck import ArmLuck

__all__ = ["render"]

COLOURS = ("#4a5a8c", "#b5651d", "#5a8c4a", "#8c4a7a", "#7a7a7a", "#3f8c8c")
"""One colour per arm (shipped rules first)."""


def _png(fig: Any) -> str:
    """A matplotlib figure as an ``<img>`` holding its PNG (the figure is closed)."""
    import matplotlib.pyplot as plt

    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=110, bbox_inches="tight")
    plt.close(fig)
    data = base64.b64encode(buf.getvalue()).decode("ascii")
    return f'<img class="chart" alt="chart" src="data:image/png;base64,{data}">'


def _pct(x: float) -> str:
    return f"{100 * x:.2f}%"


def _ci(ci: list[float], pct: bool = False, sign: bool = False) -> str:
    """A 95% interval as text: percentages or plain numbers, signed for differences."""
    lo, hi = ci
    if pct:
        fmt = "+.2f" if sign else ".2f"
        return f"{100 * lo:{fmt}}% to {100 * hi:{fmt}}%"
    fmt = "+.3f" if sign else ".3f"
    return f"{lo:{fmt}} to {hi:{fmt}}"


def _table(head: list[str], rows: list[list[str]], cls: str = "") -> str:
    """An HTML table; cells are escaped here."""
    h = "".join(f"<th>{escape(c)}</th>" for c in head)
    body = "".join("<tr>" + "".join(f"<td>{escape(c)}</td>" for c in r) + "</tr>" for r in rows)
    return f'<table class="{cls}"><thead><tr>{h}</tr></thead><tbody>{body}</tbody></table>'


def _outcomes(arms: list[dict[str, Any]]) -> list[str]:
    first = arms[0]["summary"]["results"]
    return list(first)


def _win_chart(arms: list[dict[str, Any]]) -> str:
    """Each outcome's rate per arm, with its 95% interval as an error bar."""
    import matplotlib.pyplot as plt

    names = _outcomes(arms)
    fig, ax = plt.subplots(figsize=(7, 3.2))
    width = 0.8 / len(arms)
    for k, arm in enumerate(arms):
        res = arm["summary"]["results"]
        xs = [j + (k - (len(arms) - 1) / 2) * width for j in range(len(names))]
        rates = [100 * res[n]["rate"] for n in names]
        err = [
            [100 * (res[n]["rate"] - res[n]["ci95"][0]) for n in names],
            [100 * (res[n]["ci95"][1] - res[n]["rate"]) for n in names],
        ]
        ax.bar(xs, rates, width, yerr=err, capsize=3, label=arm["label"], color=_colour(k))
    ax.set_xticks(range(len(names)), [("draws" if n == "draw" else f"{n} wins") for n in names])
    ax.set_ylabel("% of battles")
    ax.set_title("Results with 95% intervals")
    ax.legend(fontsize=8)
    return _png(fig)


def _colour(k: int) -> str:
    return COLOURS[k % len(COLOURS)]


def _hist_chart(
    title: str,
    xlabel: str,
    panels: list[tuple[str, list[tuple[str, dict[str, int]]]]],
    ylabel: str = "% of battles",
) -> str:
    """Side-by-side bars of whole-number distributions: one panel per side (or one in
    all), one series per arm, each as a share of its battles."""
    import matplotlib.pyplot as plt
    from matplotlib.ticker import MaxNLocator

    fig, axes = plt.subplots(1, len(panels), figsize=(7 if len(panels) == 1 else 10, 3))
    for ax, (name, series) in zip(axes if len(panels) > 1 else [axes], panels, strict=True):
        values = sorted({int(v) for _, h in series for v in h})
        ax.set_title(f"{title}: {name}" if name else title)
        if not values:
            ax.text(0.5, 0.5, "none", ha="center", transform=ax.transAxes)
            continue
        width = 0.8 / len(series)
        for k, (label, hist) in enumerate(series):
            total = sum(hist.values()) or 1
            xs = [v + (k - (len(series) - 1) / 2) * width for v in values]
            ys = [100 * hist.get(str(v), 0) / total for v in values]
            ax.bar(xs, ys, width, label=label, color=_colour(k))
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.set_xlabel(xlabel)
        ax.set_ylabel(ylabel)
        ax.legend(fontsize=7)
    return _png(fig)


def _events_chart(arms: list[dict[str, Any]]) -> str:
    """The share of battles each counted event fired in, per arm, with Wilson intervals."""
    import matplotlib.pyplot as plt

    names = sorted({e for a in arms for e in a["summary"].get("events") or {}})
    fig, ax = plt.subplots(figsize=(7, 0.32 * len(names) * len(arms) + 1.2))
    height = 0.8 / len(arms)
    for k, arm in enumerate(arms):
        ev = arm["summary"].get("events") or {}
        ys = [j + (k - (len(arms) - 1) / 2) * height for j in range(len(names))]
        rates = [100 * ev[n]["rate"] if n in ev else 0.0 for n in names]
        lo = [100 * (ev[n]["rate"] - ev[n]["ci95"][0]) if n in ev else 0.0 for n in names]
        hi = [100 * (ev[n]["ci95"][1] - ev[n]["rate"]) if n in ev else 0.0 for n in names]
        ax.barh(ys, rates, height, xerr=[lo, hi], capsize=2, label=arm["label"], color=_colour(k))
    ax.set_yticks(range(len(names)), [n.split(":", 1)[-1] for n in names])
    ax.invert_yaxis()
    ax.set_xlabel("% of battles it happened in (95% interval)")
    ax.set_title("Events")
    ax.legend(fontsize=7)
    return _png(fig)


def _forest(rows: list[tuple[str, float, list[float], bool]], title: str, pct: bool) -> str:
    """Each difference B - A as a point with its 95% interval; the zero line marks no change."""
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 0.45 * len(rows) + 1.2))
    scale = 100 if pct else 1
    for y, (_label, diff, ci, sig) in enumerate(reversed(rows)):
        colour = "#b22222" if sig else "#555555"
        ax.errorbar(
            scale * diff,
            y,
            xerr=[[scale * (diff - ci[0])], [scale * (ci[1] - diff)]],
            fmt="o",
            color=colour,
            capsize=3,
        )
    ax.axvline(0, color="black", linewidth=0.8)
    ax.set_yticks(range(len(rows)), [r[0] for r in reversed(rows)])
    ax.set_xlabel("B - A" + (" (percentage points)" if pct else ""))
    ax.set_title(title + " (red: significant)")
    return _png(fig)


def _arm_section(k: int, arm: dict[str, Any], sides: list[str]) -> str:
    s = arm["summary"]
    out = [f'<h3><span class="swatch" style="background:{_colour(k)}"></span>']
    out.append(
        f"{'AB'[k] if k < 2 else k}: {escape(arm['label'])} ({escape(arm['path'])} path)</h3>"
    )
    if arm.get("settings") or arm.get("rules_data"):
        out.append(
            "<p>Settings: <code>"
            + escape(", ".join([*arm.get("settings", []), *map(str, arm.get("rules_data", []))]))
            + "</code></p>"
        )
    rows = []
    for name, r in s["results"].items():
        what = "draws" if name == "draw" else f"{name} wins"
        rows.append([what, str(r["wins"]), _pct(r["rate"]), _ci(r["ci95"], pct=True)])
    out.append(_table(["result", "battles", "rate", "95% interval"], rows))
    rows = [
        ["turns", f"{s['turns']['mean']:.3f}", f"{s['turns']['sd']:.3f}", _ci(s["turns"]["ci95"])]
    ]
    for key, label in (
        ("stands_lost", "stands lost"),
        ("units_removed", "units removed"),
        ("leaders_lost", "leaders lost"),
    ):
        for side in sides:
            d = s[key][side]
            rows.append([f"{side} {label}", f"{d['mean']:.3f}", f"{d['sd']:.3f}", _ci(d["ci95"])])
    out.append(_table(["measure", "mean", "sd", "95% interval of the mean"], rows))
    rows = []
    for side in sides:
        b = s["broke"][side]
        turns = ", ".join(
            f"turn {t}: {c}" for t, c in sorted(b["turn"].items(), key=lambda x: int(x[0]))
        )
        rows.append(
            [side, str(b["battles"]), _pct(b["rate"]), _ci(b["ci95"], pct=True), turns or "-"]
        )
    out.append(_table(["side", "broke in", "rate", "95% interval", "the turn it broke"], rows))
    events = s.get("events") or {}
    if events:
        rows = []
        for name, e in sorted(events.items()):
            rows.append(
                [
                    name,
                    _pct(e["rate"]) if "rate" in e else "",
                    _ci(e["ci95"], pct=True) if "ci95" in e else "",
                    f"{e['mean']:.3f}" if "mean" in e else "",
                ]
            )
        out.append(_table(["event", "battles it fired in", "95% interval", "mean times"], rows))
    return "\n".join(out)


def _compare_section(c: dict[str, Any], arms: list[dict[str, Any]], sides: list[str]) -> str:
    a, b = arms[c["a"]], arms[c["b"]]
    out = [f"<h3>{escape(b['label'])} against {escape(a['label'])} (B - A)</h3>"]
    rate_rows: list[tuple[str, float, list[float], bool]] = []
    mean_rows: list[tuple[str, float, list[float], bool]] = []
    table: list[list[str]] = []

    def add(label: str, d: dict[str, Any], pct: bool) -> None:
        (rate_rows if pct else mean_rows).append((label, d["diff"], d["ci95"], d["significant"]))
        value = f"{100 * d['diff']:+.2f} points" if pct else f"{d['diff']:+.3f}"
        fa = _pct(d["a"]) if pct else f"{d['a']:.3f}"
        fb = _pct(d["b"]) if pct else f"{d['b']:.3f}"
        table.append(
            [
                label,
                fa,
                fb,
                value,
                _ci(d["ci95"], pct=pct, sign=True),
                "yes" if d["significant"] else "no",
                _ci(d["paired_ci95"], pct=pct, sign=True) if "paired_ci95" in d else "",
            ]
        )

    for name, d in c["win_rate"].items():
        add("draw rate" if name == "draw" else f"{name} win rate", d, True)
    for side, d in c.get("broke_rate", {}).items():
        add(f"{side} broke", d, True)
    add("turns", c["turns"], False)
    for key, label in (
        ("stands_lost", "stands lost"),
        ("units_removed", "units removed"),
        ("leaders_lost", "leaders lost"),
    ):
        for side in sides:
            if side in c.get(key, {}):
                add(f"{side} {label}", c[key][side], False)
    out.append(
        _table(
            ["measure", "A", "B", "B - A", "95% interval", "significant", "paired by seed"],
            table,
            "compare",
        )
    )
    out.append(_forest(rate_rows, "Rates, B - A with 95% intervals", pct=True))
    out.append(_forest(mean_rows, "Means, B - A with 95% intervals", pct=False))
    return "\n".join(out)


CSS = """
body{font-family:system-ui,sans-serif;max-width:60rem;margin:1rem auto;padding:0 1rem;
color:#222;background:#faf8f2}
h1{font-size:1.5rem}h2{margin-top:2rem;border-bottom:1px solid #ccc}
table{border-collapse:collapse;margin:.6rem 0 1rem;font-size:.9rem}
td,th{border-bottom:1px solid #ddd;padding:.25rem .6rem;text-align:left}
th{background:#eee}img.chart{max-width:100%;display:block;margin:.5rem 0}
.swatch{display:inline-block;width:.9rem;height:.9rem;margin-right:.4rem}
code{background:#eee;padding:0 .2rem}.meta td:first-child{font-weight:600}
"""


def render(run: Run, luck: list[ArmLuck] | None = None, luck_cmd: str = "") -> str:
    """The whole report of a complete run, as one HTML document; ``luck``: each arm's
    replayed battles for the luck section (:func:`umpire.lab.luck.run_luck`; None leaves
    it out and ``luck_cmd`` says how to have it)."""
    import matplotlib

    matplotlib.use("Agg")
    summary = run.summary
    arms: list[dict[str, Any]] = summary["arms"]
    sides = [n for n in _outcomes(arms) if n != "draw"]
    title = f"Lab run {run.id}: {run.scenario}, {run.n} battles per arm"
    meta = [
        ["scenario", run.scenario],
        ["battles per arm", str(run.n)],
        ["arms", "; ".join(a["label"] for a in arms)],
        ["run seed", str(run.seed)],
        ["battle seeds", str(run.config.get("seed_rule", ""))],
        ["replay one battle", str(run.config.get("replay", ""))],
        ["paths", ", ".join(str(p) for p in run.config.get("paths", []))],
        ["workers", str(run.config.get("cluster") or run.config.get("workers", ""))],
        ["time", f"{run.seconds:.2f} s ({summary.get('battles_per_second', 0):.0f} battles/s)"],
        ["created", run.created],
    ]
    parts = [
        "<!doctype html><html lang='en'><head><meta charset='utf-8'>",
        "<meta name='viewport' content='width=device-width, initial-scale=1'>",
        f"<title>{escape(title)}</title><style>{CSS}</style></head><body>",
        f"<h1>{escape(title)}</h1>",
        _table(["", ""], meta, "meta"),
        "<h2>Who won</h2>",
        _win_chart(arms),
    ]
    if summary.get("compare"):
        parts.append("<h2>Variants against the shipped rules</h2>")
        parts.append(
            "<p>Rates: Newcombe's interval; means: Welch's interval; significant when the "
            "interval excludes 0. The arms play the same seeds, so the interval paired by "
            "seed is shown beside (docs/lab.md).</p>"
        )
        parts.extend(_compare_section(c, arms, sides) for c in summary["compare"])
    parts.append("<h2>Distributions</h2>")
    hist = [(a["label"], a["summary"]["turns"]["histogram"]) for a in arms]
    parts.append(_hist_chart("Turns played", "turn", [("", hist)]))
    for key, label in (("stands_lost", "Stands lost"), ("leaders_lost", "Leaders lost")):
        panels = [
            (side, [(a["label"], a["summary"][key][side]["histogram"]) for a in arms])
            for side in sides
        ]
        parts.append(_hist_chart(label, label.lower(), panels))
    panels = [
        (side, [(a["label"], a["summary"]["broke"][side]["turn"]) for a in arms]) for side in sides
    ]
    if any(h for _, series in panels for _, h in series):
        parts.append(
            _hist_chart("The turn it broke", "turn", panels, "% of the battles it broke in")
        )
    else:
        parts.append("<p>No side broke in any battle (each ended at its last turn).</p>")
    if any(a["summary"].get("events") for a in arms):
        parts.append(_events_chart(arms))
    parts.append(_luck_section(run, arms, sides, luck, luck_cmd))
    parts.append("<h2>Each arm</h2>")
    parts.extend(_arm_section(k, a, sides) for k, a in enumerate(arms))
    parts.append("<h2>Battles to look at</h2>")
    parts.append(_battles(run))
    parts.append("</body></html>")
    return "\n".join(parts)


def _battles(run: Run) -> str:
    """A few battles of the shipped arm worth replaying: the longest and shortest, the
    bloodiest, and each side's narrowest win, with the command that plays each again."""
    recs = run.battles[0] if run.battles else []
    if not recs:
        return "<p>No battles stored.</p>"
    replay = str(run.config.get("replay", "umpire battle --seed SEED"))

    def total(r: dict[str, Any]) -> int:
        return int(sum(r["losses"].values()))

    picks = [
        ("the shortest", min(recs, key=lambda r: (r["turns"], r["i"]))),
        ("the longest", max(recs, key=lambda r: (r["turns"], -r["i"]))),
        ("the bloodiest", max(recs, key=lambda r: (total(r), -r["i"]))),
    ]
    rows = [
        [
            what,
            str(r["i"]),
            r["winner"],
            str(r["turns"]),
            str(total(r)),
            replay.replace("SEED", str(r["seed"])),
        ]
        for what, r in picks
    ]
    return _table(["which", "battle", "winner", "turns", "stands lost", "play it again"], rows)


def _quantile(xs: list[int], q: float) -> int:
    """The ``q`` quantile of whole numbers (the nearest rank: a value that occurred)."""
    ys = sorted(xs)
    return ys[min(len(ys) - 1, max(0, int(q * len(ys) + 0.5) - 1))] if ys else 0


def _margin(r: dict[str, Any]) -> int:
    """The union's margin in one battle: the Confederate stands lost less the Union's."""
    return int(r["losses"]["confederate"]) - int(r["losses"]["union"])


def _wins(w: int, n: int) -> str:
    from umpire.lab import wilson

    if not n:
        return "-"
    lo, hi = wilson(w, n)
    return f"{w} of {n} ({100 * w / n:.0f}%, 95% interval {100 * lo:.0f}%-{100 * hi:.0f}%)"


def _luck_section(
    run: Run,
    arms: list[dict[str, Any]],
    sides: list[str],
    luck: list[ArmLuck] | None,
    luck_cmd: str,
) -> str:
    """Luck (issue 24): the spread the dice alone give (every battle of an arm has the same
    rules and AI, only the seed differs) and, from a replayed sample, how often the side
    whose dice ran above their expectation won."""
    out = ["<h2>Luck</h2>"]
    out.append(
        "<p>Within an arm every battle has the same rules and the same AI; only the seed "
        "differs. So the spread of its results is the spread the dice alone produce.</p>"
    )
    rows = []
    for k, recs in enumerate(run.battles):
        if not recs:
            continue
        m = [_margin(r) for r in recs]
        mean = sum(m) / len(m)
        sd = (sum((x - mean) ** 2 for x in m) / max(1, len(m) - 1)) ** 0.5
        row = [arms[k]["label"], f"{mean:+.2f}", f"{sd:.2f}"]
        row.append(f"{_quantile(m, 0.05):+d} to {_quantile(m, 0.95):+d}")
        for side in sides:
            lost = [int(r["losses"][side]) for r in recs]
            row.append(f"{_quantile(lost, 0.05)} to {_quantile(lost, 0.95)}")
        rows.append(row)
    out.append(
        _table(
            [
                "arm",
                "union margin, mean",
                "sd",
                "middle 90% of battles",
                *[f"{s} stands lost, middle 90%" for s in sides],
            ],
            rows,
            "luck",
        )
    )
    out.append(
        "<p>The union margin is the Confederate stands lost less the Union's (above 0: the "
        "Union came off better); the middle 90% runs from the 5th to the 95th percentile of "
        "the arm's battles.</p>"
    )
    hists = []
    for k, recs in enumerate(run.battles):
        h: dict[str, int] = {}
        for r in recs:
            h[str(_margin(r))] = h.get(str(_margin(r)), 0) + 1
        hists.append((arms[k]["label"], h))
    out.append(
        _hist_chart("Union margin (stands), same rules, other seeds", "margin", [("", hists)])
    )
    if luck is None:
        out.append(
            "<p>Who the dice favoured is left out of this report: "
            f"<code>{escape(luck_cmd or 'umpire report RUN --luck 200')}</code> replays a "
            "sample of each arm's battles to measure it.</p>"
        )
        return "\n".join(out)
    sample = max((len(a.replayed) + len(a.differed) for a in luck), default=0)
    out.append(
        f"<h3>Whose dice ran above their expectation</h3><p>The first {sample} battles of "
        "each arm (by index) were played again on the scalar engine from their seeds with "
        "every roll's exact odds kept (the same battles, die for die). A side's luck in a "
        "battle is the mean of the percentiles of its kinds of score (fire hits, tests "
        "passed, melee dice, ...) in their exact distributions, weighted by their rolls: 50 "
        "is average dice, above 50 its dice ran above their expectation (reading "
        "<code>luck_side</code>, docs/lab.md). Draws and battles of equal luck are left out "
        "of the luckier side's share.</p>"
    )
    rows = []
    for a in luck:
        won, n = a.lucky_won()
        note = ""
        if a.failed:
            note = f"not replayed: {a.failed}"
        elif a.differed:
            shown = ", ".join(map(str, a.differed[:8])) + (" ..." if len(a.differed) > 8 else "")
            many = len(a.differed) != 1
            note = (
                f"{len(a.differed)} replayed battle{'s' if many else ''} did not reach the "
                f"run's record and {'are' if many else 'is'} left out: {shown}"
            )
        row = [a.label, f"{len(a.replayed)} of {a.battles}", _wins(won, n)]
        for side in sides:
            wa, na, wb, nb = a.above_won(side)
            row.append(f"above: won {_wins(wa, na)}; below: won {_wins(wb, nb)}")
        rows.append([*row, note or "all reached the run's record"])
    out.append(
        _table(
            [
                "arm",
                "battles replayed",
                "the luckier side won",
                *[f"{s}: its dice above / below expectation" for s in sides],
                "checked",
            ],
            rows,
            "luck",
        )
    )
    out.append(_luck_chart(luck))
    return "\n".join(out)


def _luck_chart(luck: list[ArmLuck]) -> str:
    """Each replayed battle: the union's luck less the Confederates' against the union
    margin, one colour per arm."""
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 3.6))
    for k, a in enumerate(luck):
        pts = [
            (float(lk["union"]) - float(lk["confederate"]), _margin(rec))
            for rec, lk in a.replayed
            if lk["union"] is not None and lk["confederate"] is not None
        ]
        ax.scatter(
            [x for x, _ in pts],
            [y for _, y in pts],
            s=10,
            alpha=0.6,
            label=a.label,
            color=_colour(k),
        )
    ax.axhline(0, color="black", linewidth=0.6)
    ax.axvline(0, color="black", linewidth=0.6)
    ax.set_xlabel("union luck less confederate luck (percentile points)")
    ax.set_ylabel("union margin (stands)")
    ax.set_title("The dice against the result, replayed battles")
    ax.legend(fontsize=7)
    return _png(fig)
