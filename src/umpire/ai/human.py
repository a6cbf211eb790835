"""The human policy at the CLI: a numbered menu of the legal orders with their odds.

Each decision shows the unit (or leader), then every legal order the combat role
offers, in words with its exact odds ("fire at 26th NC, 5.6", needs 8+: 72% hit");
type its number. Free orders stay possible for those who want them: ``hold``, ``move
X Y [FACING_DEG] [CHANGE]``, ``charge UNIT``, ``rout``, ``turn``, ``fire UNIT`` or
``leader X Y [UNIT]``. An illegal order is refused with its one-line reason and asked
again, as many times as needed (``retry``, the CLI's way; ``retry=False`` lets a script
stop at the first); ``q`` or ``quit`` stops at any prompt.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from umpire.battle import orders as od
from umpire.battle.engine import Battle, Order, Request
from umpire.battle.roles import Choice, offered
from umpire.errors import IllegalActionError, UmpireError

FREE = "or type: hold | move X Y [FACING] [CHANGE] | charge UNIT | fire UNIT | leader X Y [UNIT]"
TABLE_WORDS = ("quit", "undo", "status", "help")
"""Words a player at the table may type at any prompt, when the game is saved as it goes."""

QUIT_WORDS = ("q", "quit")
"""What stops the battle at any prompt, saved or not (issue 21: 'q and quit both quit')."""


class PlayerCommand(Exception):
    """A player typed ``quit`` or ``undo``: the CLI's play loop acts on it."""

    def __init__(self, word: str):
        super().__init__(word)
        self.word = word


class HumanPolicy:
    """Asks a person on standard input."""

    kind = "human"

    def __init__(
        self,
        ask: Callable[[str], str] = input,
        show: Callable[[str], None] = print,
        *,
        retry: bool = True,
        status: Callable[[Battle], None] | None = None,
        table_words: bool = False,
    ):
        self.ask = ask
        self.show = show
        self.retry = retry
        self.status = status  # shows the status table on "status"
        self.table_words = table_words  # quit / undo / status / help at the prompt
        self._menu: list[Choice] = []

    def header(self, b: Battle, req: Request) -> str:
        """Who is asked, where it stands and its state."""
        if req.kind == "leader":
            ld = b.state.leaders[req.actor]
            return f"{ld.name} (leader) at ({ld.x:.1f}, {ld.y:.1f})"
        u = b.state.units[req.actor]
        mark = b.status.label(u)
        return (
            f"{u.label()} at ({u.x:.1f}, {u.y:.1f}) facing {math.degrees(u.theta) % 360:.0f}, "
            f"{u.stands}/{u.stands0} stands" + (f", {mark}" if mark else "")
        )

    def options(self, b: Battle, req: Request) -> list[str]:
        """What the actor may do now: a numbered menu with exact odds."""
        self._menu = offered(b, req)
        lines = [self.header(b, req)]
        lines += [f"  {k}. {c.text}" for k, c in enumerate(self._menu, 1)]
        if req.kind in ("leader", "move", "fire"):
            lines.append(f"  {FREE}")
        if self.table_words:
            lines.append("  (status | undo | quit | help)")
        return lines

    def decide(self, b: Battle, req: Request) -> Order:
        """Prompt until a legal order is chosen or typed."""
        for line in self.options(b, req):
            self.show(line)
        ids = {u.id: u.i for u in b.state.units}
        while True:
            text = self.ask(f"{req.side} {req.step} [1-{len(self._menu)}]> ").strip().split()
            if len(text) == 1 and text[0].lower() in QUIT_WORDS:
                raise PlayerCommand("quit")
            if self.table_words and len(text) == 1 and text[0] in TABLE_WORDS:
                word = text[0]
                if word == "status" and self.status is not None:
                    self.status(b)
                elif word == "help":
                    self.show(
                        "  type a number from the menu, or an order; 'status' shows every unit, "
                        "'undo' takes back your last decision, 'quit' stops (the game is saved)"
                    )
                elif word in ("quit", "undo"):
                    raise PlayerCommand(word)
                continue
            try:
                if len(text) == 1 and text[0].isascii() and text[0].isdigit():
                    k = int(text[0]) if len(text[0]) <= 6 else 0
                    if not 1 <= k <= len(self._menu):
                        raise IllegalActionError(f"choose 1 to {len(self._menu)}, not {k}")
                    return self._menu[k - 1].order
                if text and text[0].isascii() and text[0].isdigit():
                    raise IllegalActionError(f"type one number from 1 to {len(self._menu)}")
                if req.kind not in ("leader", "move", "fire"):
                    raise IllegalActionError(f"choose a number from 1 to {len(self._menu)}")
                facing = b.state.units[req.actor].theta if req.kind != "leader" else 0.0
                order = parse_order(text, ids, facing)
                b.comp.combat.check(b, req, order)
                return order
            except UmpireError as exc:
                if not self.retry:
                    raise
                self.show(f"umpire: error: {exc}")


def parse_order(words: list[str], ids: dict[str, int], facing: float = 0.0) -> Order:
    """Turn typed words into an order record (unit ids to indexes); a move without a
    facing keeps ``facing`` (the unit's own)."""
    if not words:
        raise IllegalActionError("type an order, e.g. 'hold'")
    kind = words[0]
    try:
        if kind == "hold":
            return od.HOLD
        if kind == "rout":
            return od.ROUT
        if kind == "turn":
            return od.TURN
        if kind in ("fire", "charge"):
            if words[1] not in ids:
                raise IllegalActionError(f"no unit '{words[1]}'")
            t = ids[words[1]]
            return od.FireAt("fire", t) if kind == "fire" else od.Charge("charge", t)
        if kind == "move":
            x, y = _number(words[1]), _number(words[2])
            th = math.radians(_number(words[3])) if len(words) > 3 else facing
            return od.Move("move", x, y, th, words[4] if len(words) > 4 else "")
        if kind == "leader":
            att = ids[words[3]] if len(words) > 3 else -1
            return od.Leader("leader", _number(words[1]), _number(words[2]), att)
    except (IndexError, ValueError, KeyError):
        raise IllegalActionError(f"cannot read order '{' '.join(words)[:60]}'") from None
    raise IllegalActionError(
        f"unknown order '{kind[:20]}' (a menu number, hold, move, charge, fire, leader, rout, "
        "turn; q quits)"
    )


def _number(word: str) -> float:
    """A typed coordinate or facing: a finite number (``nan`` and ``inf`` are refused)."""
    value = float(word)
    if not math.isfinite(value) or abs(value) > 1e6:
        raise IllegalActionError(f"'{word[:20]}' is not a place on the table")
    return value
