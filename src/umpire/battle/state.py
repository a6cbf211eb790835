"""The compact, mutable battle state: plain objects with ``__slots__``.

The fast path mutates these directly; the saved-game path serialises them to the JSON
state of the engine (``to_json``/``load_json`` round-trip exactly, floats included).
What a rule module keeps beyond the core fields (a status on the ladder, this turn's
event effects, the card deck) lives in the ``extra`` dicts of a unit and of the state,
written to JSON only when not empty, so a module that keeps nothing there leaves the
JSON form as it always was.
"""

from __future__ import annotations

import copy
import math
from collections.abc import Mapping
from typing import Any

from umpire.board.numeric import base_half

Bases = Mapping[str, tuple[float, float]]
"""Stand width and depth in inches per troop type (the combat module's data)."""


def json_copy(v: Any, memo: dict[int, Any] | None = None) -> Any:
    """``copy.deepcopy`` of a unit's or the state's ``extra`` (the same values, a container
    met twice copied once, as deepcopy does), with dicts, lists and plain values copied
    directly: the result of every battle copies each unit's ``extra``."""
    t = type(v)
    if t is str or t is int or t is float or t is bool or v is None:
        return v
    if t is not dict and t is not list:
        return copy.deepcopy(v, memo)
    if memo is None:
        memo = {}
    hit = memo.get(id(v))
    if hit is not None:
        return hit
    if t is dict:
        d: dict[Any, Any] = {}
        memo[id(v)] = d
        for k, x in v.items():
            d[json_copy(k, memo)] = json_copy(x, memo)
        return d
    out: list[Any] = []
    memo[id(v)] = out
    for x in v:
        out.append(json_copy(x, memo))
    return out


UNIT_JSON_FIELDS = (
    "formation",
    "mounted",
    "limbered",
    "stands",
    "marker",
    "x",
    "y",
    "theta",
    "alive",
    "moved",
    "charged",
    "in_command",
    "leader_lost",
)
"""A unit's mutable fields, in the order of its JSON form (one list serves both ways)."""


class Unit:
    """One unit on the table: troop type, formation, stands, marker, base and facing."""

    __slots__ = (
        "alive",
        "bases",
        "charged",
        "extra",
        "formation",
        "hd",
        "hw",
        "i",
        "id",
        "in_command",
        "leader",
        "leader_lost",
        "limbered",
        "marker",
        "mounted",
        "moved",
        "name",
        "side",
        "stands",
        "stands0",
        "theta",
        "type",
        "x",
        "y",
    )

    def __init__(
        self,
        i: int,
        uid: str,
        name: str,
        side: str,
        utype: str,
        formation: str,
        stands: int,
        x: float,
        y: float,
        theta: float,
        *,
        mounted: bool = False,
        limbered: bool = False,
        leader: int = -1,
        stands0: int | None = None,
        bases: Bases,
    ):
        self.i = i
        self.id = uid
        self.name = name
        self.side = side
        self.type = utype
        self.formation = formation
        self.mounted = mounted
        self.limbered = limbered
        self.stands = stands
        self.stands0 = stands if stands0 is None else stands0
        self.marker = False
        self.leader = leader
        self.x = x
        self.y = y
        self.theta = theta
        self.alive = True
        self.moved = False
        self.charged = False
        self.in_command = True
        self.leader_lost = False
        self.extra: dict[str, Any] = {}  # a rule module's own fields (JSON when not empty)
        self.bases = bases
        self.hw = 0.0
        self.hd = 0.0
        self.resize()

    def resize(self, bases: Bases | None = None) -> None:
        """Recompute the base from type, formation and stands (stand sizes from the combat)."""
        self.hw, self.hd = base_size(self.type, self.formation, self.stands, bases or self.bases)

    def box(self) -> tuple[float, float, float, float, float]:
        """(x, y, theta, hw, hd) for the geometry functions."""
        return self.x, self.y, self.theta, self.hw, self.hd

    def label(self) -> str:
        """A short human label: name and formation."""
        f = self.formation
        if self.type == "cavalry":
            f += ", mounted" if self.mounted else ", dismounted"
        if self.type == "artillery":
            f = "limbered" if self.limbered else "unlimbered"
        return f"{self.name} ({self.type}, {f})"

    def to_json(self, own: bool = True) -> list[Any]:
        """The mutable fields as a flat list (fixed order), then ``extra`` if not empty (a
        copy; ``own=False``: the unit's own, for a battle that ends here)."""
        out = [getattr(self, f) for f in UNIT_JSON_FIELDS]
        if self.extra:
            out.append(json_copy(self.extra) if own else self.extra)
        return out

    def load_json(self, v: list[Any]) -> None:
        """Restore the fields written by :meth:`to_json`."""
        n = len(UNIT_JSON_FIELDS)
        for f, x in zip(UNIT_JSON_FIELDS, v[:n], strict=True):
            setattr(self, f, x)
        self.extra = json_copy(v[n]) if len(v) > n else {}  # = deepcopy, faster
        self.resize()


def base_size(utype: str, formation: str, stands: int, bases: Bases) -> tuple[float, float]:
    """(half frontage, half depth) of a unit's base: stands side by side, in column one deep."""
    w, d = bases[utype]
    return base_half(w, d, stands, utype != "artillery" and formation == "column")


class Leader:
    """A leader: bonus, command radius, position, the unit he is attached to (or -1)."""

    __slots__ = ("alive", "attached", "bonus", "i", "id", "name", "radius", "side", "x", "y")

    def __init__(
        self,
        i: int,
        lid: str,
        name: str,
        side: str,
        bonus: int,
        radius: float,
        x: float,
        y: float,
        attached: int = -1,
    ):
        self.i = i
        self.id = lid
        self.name = name
        self.side = side
        self.bonus = bonus
        self.radius = radius
        self.x = x
        self.y = y
        self.attached = attached
        self.alive = True

    def to_json(self) -> list[Any]:
        """The mutable fields as a flat list."""
        return [self.x, self.y, self.attached, self.alive]

    def load_json(self, v: list[Any]) -> None:
        """Restore the fields written by :meth:`to_json`."""
        self.x, self.y, self.attached, self.alive = v


class Objective:
    """A point worth ``points`` to the side that holds it at the end."""

    __slots__ = ("name", "points", "radius", "x", "y")

    def __init__(self, name: str, x: float, y: float, radius: float, points: int):
        self.name = name
        self.x = x
        self.y = y
        self.radius = radius
        self.points = points


class State:
    """Everything that changes during a battle, plus the cursor into the sequence."""

    __slots__ = (
        "actors",
        "contacts",
        "extra",
        "leaders",
        "losses",
        "over",
        "pos",
        "seq",
        "turn",
        "units",
        "winner",
    )

    def __init__(self, units: list[Unit], leaders: list[Leader]):
        self.units = units
        self.leaders = leaders
        self.turn = 1
        self.seq = 0  # index into the flattened per-turn sequence
        self.pos = -1  # index into ``actors``; -1 = the step has not begun
        self.actors: list[int] = []
        self.contacts: list[list[int]] = []  # [charger, target, flank] from this move step
        self.over = False
        self.winner = ""
        self.losses: dict[str, int] = {}
        self.extra: dict[str, Any] = {}  # the roles' own state (JSON when not empty)

    def to_json(self, own: bool = True) -> dict[str, Any]:
        """The whole mutable state as JSON. ``own=False`` hands the roles' ``extra`` over
        uncopied: for the result of a battle that is dropped at once (copying it costs a
        few per cent of a fast battle)."""
        out: dict[str, Any] = {
            "turn": self.turn,
            "seq": self.seq,
            "pos": self.pos,
            "actors": list(self.actors),
            "contacts": [list(c) for c in self.contacts],
            "over": self.over,
            "winner": self.winner,
            "losses": dict(self.losses),
            "units": [u.to_json(own) for u in self.units],
            "leaders": [ld.to_json() for ld in self.leaders],
        }
        if self.extra:
            out["extra"] = json_copy(self.extra) if own else self.extra
        return out

    def load_json(self, s: dict[str, Any]) -> None:
        """Restore from :meth:`to_json` output (units and leaders must already exist)."""
        self.turn = s["turn"]
        self.seq = s["seq"]
        self.pos = s["pos"]
        self.actors = list(s["actors"])
        self.contacts = [list(c) for c in s["contacts"]]
        self.over = s["over"]
        self.winner = s["winner"]
        self.losses = dict(s["losses"])
        self.extra = json_copy(s.get("extra", {}))  # = copy.deepcopy, faster (hard's forks)
        for u, v in zip(self.units, s["units"], strict=True):
            u.load_json(list(v))
        for ld, v in zip(self.leaders, s["leaders"], strict=True):
            ld.load_json(list(v))


def deg(theta: float) -> float:
    """Radians to degrees in [0, 360)."""
    return math.degrees(theta) % 360.0
