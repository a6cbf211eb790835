"""The shape of an export file (format ``umpire-game/1``), checked whole before anything uses it.

``umpire games import`` and ``umpire games verify`` read files from anyone. Every field the
exporter (:meth:`umpire.store.sqlite.Store.export`, the events of
:mod:`umpire.engine.context`) writes is described here, with its type and range, so a
malformed file is refused in one line naming the field (``actions[3].events[2].path: must
start with a key``) before a row is written or a rule is run; the raw JSON is kept as it was
for the hash chain and the save. The nesting of the JSON text is bounded before it is
parsed (:func:`load_json`), so no file can exhaust the parser's recursion.
"""

from __future__ import annotations

import json
import math
import re
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    PrivateAttr,
    ValidationError,
    field_validator,
    model_validator,
)

from umpire.engine.events import CHANGE_OPS, EVENT_KINDS
from umpire.errors import DataFileError

MAX_DEPTH = 64
"""How deeply an export's JSON may nest (arrays and objects). A real export nests about 12
deep (a battle's state changes); the limit stays far below the parser's recursion limit."""

SOURCES = ("seeded", "committed", "joint", "physical", "scripted")
"""The dice sources a saved game can have (``umpire.dice``; ``scripted`` only in tests)."""

_HEX64 = r"^[0-9a-f]{64}$"


class _Shape(BaseModel):
    """Exactly these fields, of exactly these JSON types (no coercion: ``"1"`` is no number)."""

    model_config = ConfigDict(extra="forbid", strict=True)


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _draw(v: Any) -> Any:
    """A draw: ``[position, sides, [faces]]``, or with ``"typed"`` after (real dice typed in)."""
    if not isinstance(v, list) or len(v) not in (3, 4):
        raise ValueError('a draw is [position, sides, [faces]] (or with "typed" after)')
    pos, sides, faces = v[:3]
    if not _is_int(pos) or pos < 0:
        raise ValueError(f"its position must be a whole number >= 0, not {pos!r:.40}")
    if not _is_int(sides) or sides < 1:
        raise ValueError(f"its number of sides must be a whole number >= 1, not {sides!r:.40}")
    if not isinstance(faces, list) or not all(_is_int(f) and 1 <= f <= sides for f in faces):
        raise ValueError(f"its faces must be a list of whole numbers 1 to {sides}")
    if len(v) == 4 and v[3] != "typed":
        raise ValueError(f'its fourth entry can only be "typed", not {v[3]!r:.40}')
    return v


def _path(v: list[Any]) -> list[Any]:
    """A change's path: a key of the state first, then keys and list positions."""
    if not v:
        raise ValueError("must not be empty")
    if not isinstance(v[0], str):
        raise ValueError("must start with a key (a string): the state is an object")
    for p in v:
        if not (isinstance(p, str) or (_is_int(p) and p >= 0)):
            raise ValueError(f"each step is a key or a list position >= 0, not {p!r:.40}")
    return v


Draw = Annotated[Any, AfterValidator(_draw)]
Num = Annotated[int, Field(ge=0)]


class DieGroupShape(_Shape):
    """One dice term of a roll (``DieGroup.to_json``)."""

    term: str
    sides: Annotated[int, Field(ge=1)]
    faces: list[int]
    kept: list[int]


class RollShape(_Shape):
    """A roll's result (``RollResult.to_json``)."""

    expr: str
    dice: list[DieGroupShape]
    total: int | bool


class RowShape(_Shape):
    """A table row found (``Row.to_json``)."""

    id: str
    range: str = ""
    text: str
    effects: dict[str, Any] = {}
    ref: str | None = None
    limit: dict[str, int] | None = None
    label: str | None = None
    reason: str | None = None


class TraceShape(_Shape):
    """One roll on one table (``TraceStep.to_json``)."""

    table: str
    formula: str
    roll: RollShape
    raw: int
    modified: int
    mod: int
    shift: int = 0
    row: str = ""
    range: str = ""
    p: str = ""


class ActionEvent(_Shape):
    """The first event of every action: its name, parameters and (joint dice) entropy."""

    kind: Literal["action"]
    name: str
    params: dict[str, Any]
    entropy: str | None = None
    at_table: bool = False
    by: str | None = None


class RollEvent(_Shape):
    """A dice roll (``Context.roll``)."""

    kind: Literal["roll"]
    purpose: str
    expr: str
    dice: list[DieGroupShape]
    total: int | bool
    draws: list[Draw]


class LookupEvent(_Shape):
    """A roll on a table, with every nested step (``Context.table``)."""

    kind: Literal["lookup"]
    purpose: str
    table: str
    outcome: RowShape
    trace: list[TraceShape]
    exhausted: bool = False
    note: str | None = None
    draws: list[Draw]


class DrawEvent(_Shape):
    """A card drawn, or a slip from a cup at the table (``Context.draw``, a table pick)."""

    kind: Literal["draw"]
    purpose: str
    card: str
    left: Num
    how: str = ""
    cup: list[str] = []
    draws: list[Draw]


class DecisionEvent(_Shape):
    """A decision and its answer (``Context.decide``)."""

    kind: Literal["decision"]
    decider: str
    policy: str
    prompt: str
    purpose: str
    options: list[str]
    pick: Num
    answer: list[str]


class ChangeEvent(_Shape):
    """A change of the state: the only way a state changes (``apply_change``)."""

    kind: Literal["change"]
    op: Literal["set", "inc", "append", "remove", "delete"]
    path: Annotated[list[Any], AfterValidator(_path)]
    value: Any = None

    @model_validator(mode="after")
    def _value(self) -> ChangeEvent:
        if self.op != "delete" and "value" not in self.model_fields_set:
            raise ValueError(f"a '{self.op}' change needs a value")
        if self.op == "inc" and not (
            isinstance(self.value, int | float) and not isinstance(self.value, bool)
        ):
            raise ValueError("an 'inc' change adds a number")
        return self


class TextEvent(_Shape):
    """A narrative line or an instruction to the players."""

    kind: Literal["note", "instruction"]
    text: str


EventShape = Annotated[
    ActionEvent | RollEvent | LookupEvent | DrawEvent | DecisionEvent | ChangeEvent | TextEvent,
    Field(discriminator="kind"),
]
assert set(EVENT_KINDS) == {"action", "roll", "lookup", "draw", "decision", "change", "note"} | {
    "instruction"
}
assert CHANGE_OPS == ("set", "inc", "append", "remove", "delete")


class ForkShape(_Shape):
    """A fork's record (docs/dice-protocol.md, "Undo, forks and real dice"): the parent, the
    action and the parent's chain head it was forked at, and the dice it took over."""

    model_config = ConfigDict(extra="allow", strict=True)
    parent: str
    at: Annotated[int, Field(ge=0)]
    head: Annotated[str, Field(pattern=_HEX64)] | None = None


class ExportRecord(_Shape):
    """A record kept beside the log (an undo, a switch to real dice): its kind, the number
    of actions the log held after it, and what it says (docs/web.md)."""

    model_config = ConfigDict(extra="allow", strict=True)
    at: Annotated[int, Field(ge=0)]
    kind: str
    created: str | None = None


class ExportGame(_Shape):
    """The ``game`` object of an export."""

    name: str
    module: str
    source: Literal["seeded", "committed", "joint", "physical", "scripted"]
    seed: Annotated[str, Field(max_length=100)] | None = None
    commitment: Annotated[str, Field(pattern=_HEX64)] | None = None
    revealed: bool = False
    ended: bool = False
    parent: str | None = None
    created: str
    actions: Num = 0
    identity: Annotated[str, Field(pattern=_HEX64)] | None = None
    head: Annotated[str, Field(pattern=_HEX64)] | None = None
    fork: dict[str, Any] | None = None
    """A fork's record as the file holds it (hashed into the chain's identity as it is),
    its shape checked against :class:`ForkShape`."""

    @field_validator("fork")
    @classmethod
    def _fork(cls, v: dict[str, Any] | None) -> dict[str, Any] | None:
        if v is not None:
            try:
                ForkShape.model_validate(v)
            except ValidationError as exc:
                raise ValueError(first_error(exc)) from None
        return v

    @model_validator(mode="after")
    def _seed(self) -> ExportGame:
        if self.source == "seeded" and self.seed is not None and not _decimal(self.seed):
            raise ValueError("a seeded game's seed is a whole number in decimal")
        return self


def _decimal(text: str) -> bool:
    return text.isascii() and text.isdigit() and len(text) <= 80


class ExportAction(_Shape):
    """One action of an export: the action event first, then what it did."""

    no: Annotated[int, Field(ge=1)]
    name: str
    params: dict[str, Any]
    state_hash: Annotated[str, Field(pattern=_HEX64)]
    events: Annotated[list[EventShape], Field(min_length=1)]
    chain: Annotated[str, Field(pattern=_HEX64)] | None = None

    @model_validator(mode="after")
    def _head(self) -> ExportAction:
        first = self.events[0]
        if not isinstance(first, ActionEvent) or (first.name, first.params) != (
            self.name,
            self.params,
        ):
            raise ValueError("its first event must be its own 'action' event (same name, params)")
        if any(isinstance(e, ActionEvent) for e in self.events[1:]):
            raise ValueError("only its first event is an 'action' event")
        return self


class ExportJointSide(_Shape):
    """One side of joint dice: its commitment and its revealed value (``None`` until given)."""

    side: str
    commitment: str | None = None
    contribution: str | None = None


class ExportJoint(_Shape):
    """The ``joint`` record of an export of a joint-dice game (docs/dice-protocol.md)."""

    sides: list[ExportJointSide]


class ExportShape(_Shape):
    """A whole exported game (format ``umpire-game/1``); ``joint`` only for joint dice."""

    format: str
    game: ExportGame
    scenario: dict[str, Any]
    actions: list[ExportAction]
    joint: ExportJoint | None = None
    records: list[ExportRecord] | None = None
    _raw: list[dict[str, Any]] = PrivateAttr(default_factory=list)

    @property
    def raw_actions(self) -> list[dict[str, Any]]:
        """The actions exactly as the file holds them (hashed and saved as they are: a
        model's dump would add defaults and change the hash chain)."""
        return self._raw


def where(loc: tuple[int | str, ...]) -> str:
    """A pydantic location as a path into the file: ``actions[3].events[0].path``."""
    out = ""
    prev: int | str | None = None
    for p in loc:
        if isinstance(p, int):
            out += f"[{p}]"
        elif prev is not None and isinstance(prev, int) and p in EVENT_KINDS:
            pass  # the tag pydantic adds for the kind of event it tried
        elif p.startswith("function-"):
            pass
        else:
            out += f".{p}" if out else p
        prev = p
    return out


def first_error(exc: ValidationError) -> str:
    """The first problem of a validation, as ``field: what is wrong`` (one line)."""
    err = exc.errors()[0]
    path = where(tuple(err["loc"]))
    kind = err["type"]
    msg = str(err["msg"]).removeprefix("Value error, ").removeprefix("Assertion failed, ")
    if kind == "union_tag_invalid":
        msg = f"unknown event kind {err['input'].get('kind')!r:.40} ({', '.join(EVENT_KINDS)})"
    elif kind == "union_tag_not_found":
        msg = "an event needs its 'kind'"
    elif kind == "extra_forbidden":
        msg = "no such field here"
    return f"{path}: {msg}" if path else msg


_ESCAPE = re.compile(r"\\.", re.S)
_STRING = re.compile(r'"[^"]*"')
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_PAIR = re.compile(r"\[\]|\{\}")
_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]', re.S)


def too_deep(text: str, limit: int = MAX_DEPTH) -> int | None:
    """The line where the JSON ``text`` nests deeper than ``limit``, else None.

    Escapes and then strings are set aside (an escape outside a string is no JSON: the
    parser reports it), then innermost ``[]``/``{}`` pairs are removed ``limit`` times (each
    pass a C-speed regex over the brackets): what is left nests deeper. Unbalanced brackets
    are left to the parser to report, unless they open more than ``limit`` levels (``[`` a
    hundred thousand times, never closed: the parser would run out of stack first).
    """
    s = _NOT_BRACKET.sub("", _STRING.sub("", _ESCAPE.sub("", text)))
    unbalanced = False
    for _ in range(limit):
        if not s:
            return None
        t = _PAIR.sub("", s)
        if t == s:  # unbalanced: too deep only if it opens more than limit levels
            if s.count("[") + s.count("{") <= limit:
                return None
            unbalanced = True
            break
        s = t
    else:
        if not _PAIR.search(s):
            return None
    depth = 0
    for m in _TOKEN.finditer(text):
        c = m.group()
        if c in "[{":
            depth += 1
            if depth > limit:
                return text.count("\n", 0, m.start()) + 1
        elif c in "]}":
            depth -= 1
    return None if unbalanced else 1


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"the number {text[:40]} is too large (not finite)")
    return value


def load_json(text: str, file: str) -> Any:
    """Parse an export's text: nesting bounded first, no NaN or Infinity, errors name file:line."""
    line = too_deep(text)
    if line is not None:
        raise DataFileError(
            f"the JSON nests deeper than {MAX_DEPTH} levels (an export nests about 12)",
            file=file,
            line=line,
        )
    try:
        return json.loads(text, parse_constant=_no_constant, parse_float=_finite)
    except json.JSONDecodeError as exc:
        raise DataFileError(f"bad JSON: {exc.msg}", file=file, line=exc.lineno) from None
    except (ValueError, RecursionError) as exc:  # NaN, a number of more than 4,300 digits
        raise DataFileError(f"bad JSON: {str(exc).splitlines()[0][:120]}", file=file) from None


def check_shape(data: Any, file: str | None = None) -> ExportShape:
    """Validate a whole export; refuse in one line naming the first bad field."""
    if not isinstance(data, dict):
        raise DataFileError("not an umpire game export (expected a JSON object)", file=file)
    try:
        shape = ExportShape.model_validate(data)
    except ValidationError as exc:
        raise DataFileError(f"not an umpire game export: {first_error(exc)}", file=file) from None
    shape._raw = list(data["actions"])
    return shape
