"""The exact-odds seam: every resolution of every rule module, in one shape.

A rule module lists its resolutions (``umpire.rules.ODDS`` names where): each has a name,
the seed section it implements, typed parameters (choices and ranges, so a command line
or a form can offer them as menus) and a pure function from checked parameters to
:class:`Odds`: the outcomes with exact :class:`~fractions.Fraction` probabilities and
the "why" (the dice, the table rows and the modifiers, each with its source). The core
(``umpire odds``) knows modules only through this shape.
"""

from __future__ import annotations

import importlib
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Literal

from umpire.errors import IllegalActionError, UnknownNameError

Kind = Literal["int", "float", "str", "bool"]
WhyKind = Literal["dice", "row", "modifier", "rule", "note"]


@dataclass(frozen=True)
class Param:
    """One typed parameter of a resolution: its default, legal values and help text."""

    name: str
    kind: Kind
    default: Any
    help: str
    choices: tuple[str, ...] = ()
    lo: float | None = None
    hi: float | None = None

    def check(self, value: Any) -> Any:
        """The value converted to the parameter's kind, or a one-line error."""
        flag = f"--{self.name.replace('_', '-')}"
        try:
            if self.kind == "bool":
                out: Any = value if isinstance(value, bool) else _truth(str(value))
            elif self.kind == "int":
                out = int(value)
            elif self.kind == "float":
                out = float(value)
                if not math.isfinite(out):
                    raise IllegalActionError(f"{flag}: '{value}' is not a finite number")
            else:
                out = str(value)
        except ValueError:
            raise IllegalActionError(f"{flag}: not a {self.kind}: '{value}'") from None
        if self.choices and out not in self.choices:
            raise IllegalActionError(f"{flag}: '{out}' is not one of {', '.join(self.choices)}")
        if self.lo is not None and out < self.lo:
            raise IllegalActionError(f"{flag}: {out} is below {self.lo:g} (the least allowed)")
        if self.hi is not None and out > self.hi:
            raise IllegalActionError(f"{flag}: {out} is above {self.hi:g} (the most allowed)")
        return out

    def legal(self) -> str:
        """The legal values in words, for help and docs."""
        if self.choices:
            return " | ".join(self.choices)
        if self.lo is not None and self.hi is not None:
            return f"{self.lo:g} to {self.hi:g}"
        if self.lo is not None:
            return f"{self.lo:g} or more"
        return self.kind


def _truth(text: str) -> bool:
    low = text.lower()
    if low in ("1", "true", "yes", "on"):
        return True
    if low in ("0", "false", "no", "off"):
        return False
    raise ValueError(text)


@dataclass(frozen=True)
class Why:
    """One reason behind the odds: a die rolled, a table row read, a modifier, a rule."""

    kind: WhyKind
    text: str
    source: str = ""

    def to_json(self) -> dict[str, str]:
        """Plain JSON values."""
        return {"kind": self.kind, "text": self.text, "source": self.source}


@dataclass(frozen=True)
class Outcome:
    """One outcome and its exact probability; ``path`` names each stage of a joint outcome."""

    label: str
    p: Fraction
    path: tuple[str, ...] = ()


@dataclass(frozen=True)
class Odds:
    """The exact distribution of one resolution and why it is what it is."""

    title: str
    outcomes: tuple[Outcome, ...]
    why: tuple[Why, ...]
    params: Mapping[str, Any] = field(default_factory=dict)

    @property
    def total(self) -> Fraction:
        """The sum of the probabilities (exactly 1 for a complete distribution)."""
        return sum((o.p for o in self.outcomes), Fraction(0))

    def to_json(self) -> dict[str, Any]:
        """The distribution (fractions as ``"a/b"``) and the why, as plain JSON values."""
        return {
            "title": self.title,
            "params": dict(self.params),
            "outcomes": [
                {
                    "outcome": o.label,
                    "path": list(o.path) or [o.label],
                    "p": f"{o.p.numerator}/{o.p.denominator}",
                    "percent": round(float(o.p) * 100, 4),
                }
                for o in self.outcomes
            ],
            "total": str(self.total),
            "why": [w.to_json() for w in self.why],
        }


OddsFn = Callable[[Mapping[str, Any]], Odds]


@dataclass(frozen=True)
class Resolution:
    """One ruling whose odds a module can state before the dice."""

    module: str
    name: str
    seed: str
    summary: str
    params: tuple[Param, ...]
    compute: OddsFn

    @property
    def qualified(self) -> str:
        """``module name``, unique across modules."""
        return f"{self.module} {self.name}"

    def checked(self, given: Mapping[str, Any]) -> dict[str, Any]:
        """Every parameter: the given value checked, or its default."""
        known = {p.name for p in self.params}
        extra = sorted(set(given) - known)
        if extra:
            names = ", ".join(p.name for p in self.params) or "none"
            raise UnknownNameError(
                f"{self.qualified}: unknown parameter '{extra[0]}' (known: {names})"
            )
        return {
            p.name: p.check(given[p.name]) if given.get(p.name) is not None else p.default
            for p in self.params
        }

    def odds(self, given: Mapping[str, Any] | None = None) -> Odds:
        """The exact odds for the given parameters (defaults for the rest)."""
        values = self.checked(given or {})
        out = self.compute(values)
        return Odds(out.title, out.outcomes, out.why, values)


def outcomes(dist: Mapping[str, Fraction] | Sequence[tuple[str, Fraction]]) -> tuple[Outcome, ...]:
    """Plain outcomes from ``{label: p}`` (or pairs), in the order given, zeros dropped."""
    items = dist.items() if isinstance(dist, Mapping) else dist
    return tuple(Outcome(k, p) for k, p in items if p)


def joint(paths: Sequence[tuple[tuple[str, ...], Fraction]]) -> tuple[Outcome, ...]:
    """Joint outcomes ``a -> b -> c`` from their stage paths, equal paths merged, in order."""
    merged: dict[tuple[str, ...], Fraction] = {}
    for path, p in paths:
        merged[path] = merged.get(path, Fraction(0)) + p
    return tuple(Outcome(" -> ".join(k), p, k) for k, p in merged.items() if p)


# -- the registry ------------------------------------------------------------------------


def _norm(name: str) -> str:
    return name.strip().lower().replace("_", "-")


def resolutions() -> list[Resolution]:
    """Every resolution of every module present, in registry order."""
    from umpire.rules import ODDS

    out: list[Resolution] = []
    for target in ODDS:
        path, _, attr = target.partition(":")
        try:
            mod = importlib.import_module(path)
        except ModuleNotFoundError as exc:
            if exc.name and path.startswith(exc.name):
                continue  # the module is not installed
            raise
        out.extend(getattr(mod, attr))
    return out


def modules() -> list[str]:
    """The modules that offer odds, in registry order."""
    seen: list[str] = []
    for r in resolutions():
        if r.module not in seen:
            seen.append(r.module)
    return seen


def find(name: str, module: str | None = None) -> Resolution:
    """A resolution by ``module`` and name, or by a name only one module offers."""
    found = resolutions()
    want = _norm(name)
    if module is not None:
        mod = _norm(module)
        if mod not in [_norm(r.module) for r in found]:
            raise UnknownNameError(f"unknown module '{module}' (known: {', '.join(modules())})")
        found = [r for r in found if _norm(r.module) == mod]
    hits = [r for r in found if _norm(r.name) == want]
    if len(hits) == 1:
        return hits[0]
    if hits:
        both = ", ".join(r.qualified for r in hits)
        raise UnknownNameError(f"'{name}' is offered by more than one module: say which ({both})")
    names = ", ".join(r.name if module else r.qualified for r in found)
    raise UnknownNameError(f"unknown resolution '{name}' (known: {names})")


# -- nested tables ---------------------------------------------------------------------


def table_odds(
    title: str,
    table_id: str,
    then: Callable[[Any, Any], str | None] | None = None,
    label: Callable[[Any, Any], str] | None = None,
    notes: Sequence[Why] = (),
) -> Odds:
    """Joint odds of a built-in table and the tables its rows lead on to.

    ``then(table, row)`` names the next table where the nesting is in a module's rules
    (a row's ``ref`` is followed anyway); ``label(table, row)`` words each stage (default:
    the row's text). Equal paths are merged. The why names every table rolled (its dice
    and source) and every row marked ``default`` or ``reading``.
    """
    from umpire.tables import builtin_tables
    from umpire.tables.joint import joint_rows

    tables = builtin_tables()
    paths = joint_rows(tables.get(table_id), then=then, tables=tables)
    word = label or (lambda t, row: str(row.text))
    out = joint([(tuple(word(t, row) for t, row in path), p) for path, p in paths])
    seen_tables: list[Any] = []
    marked: dict[tuple[str, str, str], list[str]] = {}
    for path, _ in paths:
        for t, row in path:
            if t not in seen_tables:
                seen_tables.append(t)
            if row.label is not None:
                ranges = marked.setdefault((t.id, str(row.label), str(row.reason)), [])
                if row.range_text not in ranges:
                    ranges.append(row.range_text)
    why = [Why("dice", f"{t.formula} on {t.name} ({t.id})", t.source) for t in seen_tables]
    why += [
        Why("row", f"{tid} {', '.join(ranges)}: {kind}: {reason}", tid)
        for (tid, kind, reason), ranges in marked.items()
    ]
    return Odds(title, out, (*why, *notes))
