"""What an after-action report says, gathered from a saved game (issue 24).

A tactical battle is replayed from its log (the faces in order and the orders, as
``umpire.battle.run.replay`` does) with the luck tallies switched on (``Battle.luck``) and
an observer around every step: the map at the end of each turn, the units' paths, the
strength of each side, the losses by cause and the leaders lost. The replay must reach the
saved state exactly, or the report is refused. A Gettysburg command-phase game (seed 000)
and a dice book are read from their logs: every roll and table look-up carries its exact
odds there. Nothing here knows a rule module (import-linter).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from umpire.dice.luck import Luck, Tally, dist_of, luck_of, tail
from umpire.errors import UmpireError
from umpire.sides import SIDES_UNION_FIRST


@dataclass(slots=True)
class Moment:
    """One outcome by its exact odds: the action it happened in (1-based, as ``umpire
    games show`` numbers them), the turn, the order, what was rolled and its chance."""

    action: int
    turn: str
    order: str
    purpose: str
    faces: tuple[int, ...]
    outcome: str
    chance: Fraction
    side: str = ""
    swing: float | None = None
    """The change in ``side``'s win chance the roll made (see :data:`SwingFn`)."""


@dataclass(slots=True)
class TurnStory:
    """One turn (a battle's turn, a game day's hour, a book's action): its lines and map."""

    title: str
    lines: list[str] = field(default_factory=list)
    svg: str = ""


@dataclass(slots=True)
class Report:
    """Everything the report shows; ``kind`` is ``battle``, ``cwb`` or ``book``."""

    name: str
    module: str
    kind: str
    title: str
    result: str
    turns: list[TurnStory] = field(default_factory=list)
    strength: dict[str, list[tuple[int, int]]] = field(default_factory=dict)
    """Per side: (turn, stands on the table) at the start and the end of every turn."""
    losses: dict[str, dict[str, int]] = field(default_factory=dict)
    """Per side: stands lost by cause (fire, melee, rout, other)."""
    leaders: dict[str, list[tuple[int, int]]] = field(default_factory=dict)
    """Per side: (turn, leaders lost so far)."""
    events: dict[str, dict[str, int]] = field(default_factory=dict)
    """cwb and book: per side (or table), how often each event or result came up."""
    orders: list[tuple[str, str, str, str]] = field(default_factory=list)
    """cwb: each order's life (id, side, from, to/state)."""
    leader_losses: list[tuple[str, str, str]] = field(default_factory=list)
    """cwb: (when, side, who) for every leader lost."""
    timeline: list[tuple[str, str, str]] = field(default_factory=list)
    """cwb: (when, side, event) for every event rolled, in order (the days' chart)."""
    moments: list[Moment] = field(default_factory=list)
    luck: list[Luck] = field(default_factory=list)
    tallies: list[Tally] = field(default_factory=list)
    average: str = ""
    """Battles: whether the result would likely have changed with average dice (see
    :data:`AverageFn`); empty when not measured."""
    proof: dict[str, Any] = field(default_factory=dict)


SwingFn = Callable[[str, Moment], float | None]
"""The win-chance swing of a moment (the game's name, the moment): the change in the
moment's side's win chance when play goes on from the position after the roll's action
rather than before it (``umpire simulate --from GAME@ACTION``), or None. The lab provides
it (:func:`umpire.lab.playon.swing`); the report knows only this shape."""


AverageFn = Callable[[str], str | None]
"""The "with average dice" line of a saved battle (the game's name): battles played from
its start on fresh dice, the winner's share among those in which both sides' dice ran near
average (``umpire.lab.luck.average_line``). The lab provides it; the report knows only this
shape."""


def collect(
    store: Any,
    name: str,
    *,
    swing: SwingFn | None = None,
    swings: int = 5,
    average: AverageFn | None = None,
) -> Report:
    """The report of the saved game ``name`` (its module decides which kind); ``swing``
    measures the win-chance swing of the actions of the least likely moments, ``swings``
    distinct actions at most, and ``average`` the "with average dice" line of a battle
    (each left out when None: they play hundreds of battles)."""
    info = store.info(name)
    if info.module in ("battle", "quick_acw"):
        rep = _battle(store, name)
    elif info.module == "cwb_events":
        rep = _cwb(store, name)
    elif info.module == "session":
        rep = _book(store, name)
    else:
        raise UmpireError(f"no after-action report for a {info.module} game ('{name}')")
    rep.luck = luck_of(rep.tallies)
    rep.moments.sort(key=lambda m: (m.chance, m.action))
    rep.moments = rep.moments[:10]
    if swing is not None:
        # a swing is the action's (all its dice): each action played on once, for the
        # least likely moments of the first ``swings`` distinct actions
        measured: dict[tuple[int, str], float | None] = {}
        for m in rep.moments:
            key = (m.action, m.side)
            if key not in measured:
                if len(measured) >= swings:
                    continue
                measured[key] = swing(name, m)
            m.swing = measured[key]
    if average is not None and rep.kind == "battle":
        rep.average = average(name) or ""
    rep.proof = _proof(store, name)
    return rep


def _no_dice(*args: Any) -> Any:
    """A report reads a game and never rolls: a physical game's prompt is never asked."""
    raise UmpireError("an after-action report does not roll dice")


def saved_state(store: Any, name: str) -> Any:
    """The saved game's state (any dice source, real dice at a table too: nothing is asked)."""
    return store.load(name, physical=_no_dice, draw=_no_dice).state


def _proof(store: Any, name: str) -> dict[str, Any]:
    info = store.info(name)
    head = store.head(name)
    return {
        "source": info.source_kind,
        "seed": info.public_seed(),
        "commitment": info.commitment,
        "head": head,
        "actions": info.actions,
        "verify": (
            f"umpire games export {name} -o {name}.json && "
            f"umpire games verify {name}.json --head {head}@{info.actions}"
        ),
    }


def _faces(records: list[Any]) -> list[int]:
    return [
        int(f) for r in records for e in r.events for d in e.data.get("draws", []) for f in d[2]
    ]


# -- a tactical battle -------------------------------------------------------------------


def _cause(name: str, kind: str) -> str:
    """What a step's losses are put down to: its name says (fire, melee; a move that
    ends in contact is a charge)."""
    low = name.lower()
    if "fire" in low or kind == "fire" or "artillery" in low:
        return "fire"
    if any(w in low for w in ("melee", "charge", "hand", "move")):
        return "melee"
    return "other"


class _Watch:
    """The report's observer around every step (``Battle.watch``): losses by cause, the
    turn boundaries (map, strength, leaders) and the units' paths."""

    def __init__(
        self, rep: Report, render: Callable[[Any, dict[int, list[tuple[float, float]]]], str]
    ):
        self.rep = rep
        self.render = render
        self.turn = 0
        self.before: list[tuple[int, bool]] = []
        self.paths: dict[int, list[tuple[float, float]]] = {}
        self.nlines = 0

    def begin(self, b: Any) -> None:
        st = b.state
        if st.turn != self.turn:
            self.close(b)
            self.turn = st.turn
            self.paths = {u.i: [(u.x, u.y)] for u in st.units if u.alive}
        self.before = [(u.stands, u.alive) for u in st.units]

    def end(self, b: Any, side: str, name: str, kind: str, actor: Any, order: Any) -> None:
        cause = _cause(name, kind)
        for (was, alive), u in zip(self.before, b.state.units, strict=True):
            if not alive:
                continue
            lost = self.rep.losses.setdefault(u.side, {})
            if was > u.stands:
                lost[cause] = lost.get(cause, 0) + was - u.stands
            if not u.alive and u.stands > 0:
                lost["rout"] = lost.get("rout", 0) + u.stands
            path = self.paths.setdefault(u.i, [(u.x, u.y)])
            if path[-1] != (u.x, u.y):
                path.append((u.x, u.y))

    def close(self, b: Any) -> None:
        """The end of turn ``self.turn``: its lines, its map, the strength and leaders."""
        if self.turn == 0:
            self._count(b, 0)
            return
        story = TurnStory(f"Turn {self.turn}", list(b.lines[self.nlines :]))
        self.nlines = len(b.lines)
        story.svg = self.render(b, self.paths).replace(
            f'<text x="4" y="12">Turn {b.state.turn}',
            f'<text x="4" y="12">End of turn {self.turn}',
            1,
        )
        self.rep.turns.append(story)
        self._count(b, self.turn)

    def _count(self, b: Any, turn: int) -> None:
        st = b.state
        for s in SIDES_UNION_FIRST:
            stands = sum(u.stands for u in st.units if u.side == s and u.alive)
            self.rep.strength.setdefault(s, []).append((turn, stands))
            gone = sum(1 for ld in st.leaders if ld.side == s and not ld.alive)
            self.rep.leaders.setdefault(s, []).append((turn, gone))


def _battle(store: Any, name: str) -> Report:
    from umpire.battle.game import battle_from
    from umpire.battle.run import new_battle
    from umpire.dice import ScriptedSource
    from umpire.scenarios import Scenario

    records = store.records(name)
    scen = Scenario.model_validate(store.scenario(name))
    b = new_battle(scen, ScriptedSource(_faces(records)), narrate=True)
    rep = Report(name, store.info(name).module, "battle", scen.name, "")
    b.luck = []
    watch = _Watch(rep, _map)
    b.watch = watch
    acts: list[int] = []  # per tally: the action it came in
    orders: list[str] = []  # per action: what was ordered
    try:
        for r in records:
            if r.name == "start":
                b.next_request()
                orders.append("the battle begins")
            elif r.name == "order":
                req = b.next_request()
                if req is None:
                    raise UmpireError(f"'{name}': an order after the end of the battle")
                order = list(r.params.get("order") or [])
                words = _order_words(b, req, order)
                b.apply(req, tuple(order))
                orders.append(words)
                b.next_request()
            else:
                raise UmpireError(f"'{name}': cannot replay its action '{r.name}'")
            acts.extend([r.no] * (len(b.luck) - len(acts)))
    except (IndexError, ValueError) as e:
        raise UmpireError(f"'{name}': its log does not replay ({e})") from None
    saved = battle_from(saved_state(store, name)).state.to_json()
    if b.state.to_json() != saved:
        raise UmpireError(f"'{name}': the replay of its log does not reach its saved state")
    watch.close(b)
    st = b.state
    if st.over:
        from umpire.battle.words import result_words

        rep.result = result_words(b)
    else:
        rep.result = f"not finished: saved at turn {st.turn}"
    rep.tallies = list(b.luck)
    for t, act in zip(b.luck, acts, strict=True):
        rep.moments.append(
            Moment(
                act,
                f"Turn {t.turn}",
                orders[act - 1] if 0 < act <= len(orders) else "",
                t.purpose,
                t.faces,
                f"{t.kind}: {t.score}",
                tail(t.dist, t.score),
                t.side,
            )
        )
    return rep


def _order_words(b: Any, req: Any, order: list[Any]) -> str:
    """The order as its menu words ("1st MN fires at 8th AL (56% to hit)"), else its ids."""
    from umpire.battle.game import actor_id
    from umpire.battle.menus import offered

    text = ""
    try:
        for c in offered(b, req):
            if list(c.order) == order:
                text = c.text
                break
    except Exception:  # a menu that cannot be worked out here: the plain words instead
        text = ""
    who = actor_id(b, req)
    if ":" in who:  # a step's own decision (an event's): its point, not the module's id
        who = who.rpartition(":")[2].replace("_", " ")
    if req.kind in ("move", "fire"):
        who = b.state.units[req.actor].name
    elif req.kind == "leader":
        who = b.state.leaders[req.actor].name
    if not text:
        text = " ".join(str(x) for x in order)
    return f"{req.side.title()}: {who}: {text}"


def _map(b: Any, paths: dict[int, list[tuple[float, float]]]) -> str:
    """The field as battle/render.py draws it, with each unit's path this turn beneath."""
    from umpire.battle.render import COLOURS, svg

    scale = 12.0
    text = svg(b, scale)
    h = b.setup.board.height
    lines = []
    for i, pts in paths.items():
        if len(pts) < 2:
            continue
        u = b.state.units[i]
        col = COLOURS.get(u.side, (0, 0, 0))
        pp = " ".join(f"{x * scale:.1f},{(h - y) * scale:.1f}" for x, y in pts)
        lines.append(
            f'<polyline points="{pp}" fill="none" stroke="rgb{col}" stroke-width="2" '
            'stroke-dasharray="5,3" opacity="0.8"/>'
        )
    parts = text.split("\n")
    # over the terrain and under the units: before the first unit's base (render.svg draws
    # the field, terrain, objectives, then the bases with their thin black edge)
    at = next((k for k, p in enumerate(parts) if 'stroke-width="0.5"' in p), 3)
    return "\n".join([*parts[:at], *lines, *parts[at:]])


# -- a Gettysburg command-phase game and a dice book --------------------------------------


def _side_of(purpose: str) -> str:
    low = purpose.lower()
    for s in SIDES_UNION_FIRST:
        if low.startswith(s) or f" {s} " in f" {low} ":
            return s
    return "table"


def _roll_tally(data: dict[str, Any], side: str) -> Tally | None:
    """A logged roll as a tally: its total (or pass) against the expression's exact odds."""
    from umpire.dice import parse
    from umpire.dice.distribution import check_odds_cost, exact_distribution

    try:
        expr = parse(str(data["expr"]))
        check_odds_cost(expr)  # a costly expression is left out, not worked at for minutes
        d = exact_distribution(expr)
    except Exception:  # an expression too costly or odd for exact odds: left out
        return None
    total = data.get("total")
    weights = {int(v): p for v, p in d}
    faces = tuple(f for g in data.get("dice", []) for f in g.get("faces", []))
    kind = "passes" if d.is_comparison else "dice totals"
    return Tally(
        side,
        kind,
        int(bool(total)) if d.is_comparison else int(total or 0),
        dist_of(weights),
        str(data.get("purpose", "")),
        faces,
    )


def _log_moments(rep: Report, records: list[Any], label: Callable[[Any], str]) -> None:
    """Every roll and look-up of a log: tallies, moments (their exact odds) and the story."""
    for r in records:
        story = TurnStory(label(r))
        for e in r.events:
            d = e.data
            if e.kind in ("say", "note"):
                story.lines.append(str(d.get("text", "")))
            elif e.kind == "roll":
                side = _side_of(str(d.get("purpose", "")))
                # a random pick (a d``n`` naming one of n) is no one's luck, nor a moment
                pick = r.name == "pick" or str(d.get("purpose", "")).startswith("random pick")
                t = None if pick else _roll_tally(d, side)
                faces = tuple(f for g in d.get("dice", []) for f in g.get("faces", []))
                story.lines.append(
                    f"{d.get('purpose', '')}: {d.get('expr')} rolled "
                    f"{' '.join(map(str, faces))} = {d.get('total')}"
                )
                if t is not None:
                    rep.tallies.append(t)
                    p = tail(t.dist, t.score)
                    rep.moments.append(
                        Moment(
                            r.no,
                            story.title,
                            r.name,
                            t.purpose,
                            faces,
                            f"{d.get('expr')} = {d.get('total')}",
                            p,
                            side,
                        )
                    )
            elif e.kind == "lookup":
                side = _side_of(str(d.get("purpose", "")))
                out = d.get("outcome") or {}
                text = str(out.get("text") or out.get("id") or "")
                ev = rep.events.setdefault(side, {})
                ev[text] = ev.get(text, 0) + 1
                faces = tuple(
                    f
                    for tr in d.get("trace", [])
                    for g in (tr.get("roll") or {}).get("dice", [])
                    for f in g.get("faces", [])
                )
                story.lines.append(f"{d.get('purpose', '')}: {' '.join(map(str, faces))}: {text}")
                ps = [Fraction(str(tr["p"])) for tr in d.get("trace", []) if tr.get("p")]
                if ps:
                    rep.moments.append(
                        Moment(
                            r.no,
                            story.title,
                            r.name,
                            str(d.get("purpose", "")),
                            faces,
                            text,
                            math.prod(ps, start=Fraction(1)),
                            side,
                        )
                    )
            elif e.kind == "draw":
                story.lines.append(
                    f"{d.get('purpose', '')}: {d.get('card')} ({d.get('left')} left)"
                )
        if story.lines:
            rep.turns.append(story)


def _cwb(store: Any, name: str) -> Report:
    records = store.records(name)
    st = saved_state(store, name) or {}
    hist = [h for h in st.get("history") or [] if isinstance(h, dict)]
    last = str(hist[-1].get("at", "")) if hist else "the start"
    rep = Report(
        name,
        "cwb_events",
        "cwb",
        "Gettysburg, July 1-3 1863 (command phase)",
        f"last events at {last}" + ("; the game is over" if st.get("game_over") else ""),
    )
    scen = store.scenario(name) or {}  # the game's start (``cwb new --date --time``)
    start = scen.get("start") or (scen.get("clock") or {}).get("start") or "July 1"
    clock = {"at": str(start)}

    def label(r: Any) -> str:
        """The clock the action ran at (the history's stamp, or the clock's own note)."""
        for e in r.events:
            d = e.data
            v = d.get("value")
            if e.kind == "change" and d.get("path") == ["history"] and isinstance(v, dict):
                clock["at"] = str(v.get("at", clock["at"]))
                break
            text = str(d.get("text", "")) if e.kind == "note" else ""
            if text.startswith("Now: "):
                clock["at"] = text[5:].split(",")[0]
        return f"{clock['at']}: {r.name.replace('_', ' ')} (action {r.no})"

    _log_moments(rep, records, label)
    rep.events = {}
    for h in hist:  # seed 000's events rolled, per side (the module's own history)
        ev = rep.events.setdefault(str(h.get("side", "")), {})
        key = str(h.get("event", ""))
        ev[key] = ev.get(key, 0) + 1
        rep.timeline.append((str(h.get("at", "")), str(h.get("side", "")), key))
    for oid, o in (st.get("orders") or {}).items():
        if isinstance(o, dict):
            rep.orders.append(
                (
                    str(oid),
                    str(o.get("side", "")),
                    str(o.get("issued_at", "")),
                    f"{o.get('status', '')}"
                    + (f" (arrived {_at(o['arrived_at'])})" if o.get("arrived_at") else ""),
                )
            )
    for ld in (st.get("leaders") or {}).values():
        if isinstance(ld, dict) and ld.get("lost_at"):
            rep.leader_losses.append(
                (str(ld["lost_at"]), str(ld.get("side", "")), str(ld.get("name", "")))
            )
    return rep


def _at(when: Any) -> str:
    """A seed 000 time as the module's stamps read ("July 2 14:00"): the state keeps some
    as minutes from July 1 00:00 (an order's arrival)."""
    if isinstance(when, int):
        tod = when % 1440
        return f"July {when // 1440 + 1} {tod // 60:02d}:{tod % 60:02d}"
    return str(when)


def _book(store: Any, name: str) -> Report:
    records = store.records(name)
    state = saved_state(store, name) or {}
    rep = Report(
        name,
        "session",
        "book",
        str(state.get("title") or f"Dice book {name}"),
        f"{len(records)} entries",
    )
    _log_moments(rep, records, lambda r: f"Entry {r.no} ({r.name})")
    return rep


__all__ = ["AverageFn", "Moment", "Report", "SwingFn", "TurnStory", "collect", "saved_state"]
