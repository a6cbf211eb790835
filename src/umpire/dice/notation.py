"""Dice notation: parse text such as ``2d6+1>=8`` into an immutable expression tree and roll it.

Grammar (whitespace between tokens is ignored but may not split a number or an operator such
as ``<=``; letters are case-insensitive)::

    expression := sum [compare]                  one comparison of the total, at the top only
    sum        := term (("+" | "-") term)*
    term       := atom (("/" | "//") NUMBER)*    division applies to the atom just before it
    atom       := dice [compare-as-count]        see the counting rule below
                | NUMBER
                | "(" sum [compare-as-count] ")"
    dice       := [NUMBER] "d" NUMBER [("kh" | "kl") [NUMBER]]
    compare    := ("<=" | ">=" | "<" | ">" | "=") ["-"] NUMBER

Meaning:

* ``NdS`` rolls N dice with S sides and adds them; ``dS`` is ``1dS``.
* ``d66`` is a tens d6 and a units d6 (36 outcomes, 11..66), never a 66-sided die;
  ``Nd66`` with N > 1 is an error.
* ``X/K`` divides and ROUNDS UP (``d6/2`` gives 1, 2 or 3: the rules' "1 D6 halved");
  ``X//K`` divides and rounds down. Both bind tighter than ``+``/``-``: ``2d6+1/2`` is
  ``2d6 + (1/2)``; write ``(2d6+1)/2`` to halve the sum. ``d6/2/2`` is ``(d6/2)/2``.
* ``NdSkhK`` keeps the K highest dice, ``NdSklK`` the K lowest (``kh`` alone is ``kh1``).
* Counting rule (successes versus totals): a comparison written DIRECTLY after a bare dice
  group ``NdS`` with N >= 2 (no keep, no division, nothing else in its sum) whose target is a
  face value 1..S COUNTS the dice that satisfy it: ``9d10<=6`` is the number of dice showing
  6 or less. In every other case a comparison compares the TOTAL and gives true/false:
  ``2d6+1>=8``, ``2d6>=8`` (8 is not a face of a d6), ``1d20>=15``, ``(2d6)>=4``.
  Parentheses force the total reading. A count is a term: nothing may follow it unless it is
  parenthesised (``(9d10<=6)+1``, ``(9d10<=6)>=3``).
* At most one comparison of the total per expression, and only at the top level, last.

Limits (a NotationError if exceeded): at most 100 dice in one group, at most 1000 sides,
at most 1000 dice in a whole expression (d66 counts as 2), at least 1 die and 1 side, a keep
count of 1..N, division by 1 or more, numbers at most 1000000, at most 20 levels of nesting
(``MAX_NESTING``: parentheses inside parentheses, or divisions applied one to another; see
``nesting_depth``). The cost of exact odds has its own limit, in ``umpire.dice.distribution``.

The canonical text (``str(expr)``) is lower case without spaces, writes ``d6`` for ``1d6`` and
``kh1`` for ``kh``, keeps only the parentheses that change the meaning, and flattens nested sums:
``parse(str(e)) == e`` for every expression.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Literal, TypeAlias, cast

from umpire.dice.results import DieGroup, RollResult
from umpire.errors import NotationError

if TYPE_CHECKING:
    from umpire.dice.distribution import Distribution
    from umpire.dice.sources import DiceSource

__all__ = [
    "D66",
    "MAX_DICE_PER_GROUP",
    "MAX_DICE_TOTAL",
    "MAX_NESTING",
    "MAX_NUMBER",
    "MAX_SIDES",
    "Const",
    "Count",
    "Dice",
    "DiceExpr",
    "Div",
    "Node",
    "Sum",
    "nesting_depth",
    "parse",
]

MAX_DICE_PER_GROUP = 100
MAX_SIDES = 1000
MAX_DICE_TOTAL = 1000
MAX_NUMBER = 1_000_000
MAX_NESTING = 20
_ECHO = 100  # an error message quotes at most this much of a long expression

CompareOp: TypeAlias = Literal["<=", ">=", "<", ">", "="]
COMPARE_OPS: dict[str, Callable[[int, int], bool]] = {
    "<=": operator.le,
    ">=": operator.ge,
    "<": operator.lt,
    ">": operator.gt,
    "=": operator.eq,
}

Roller: TypeAlias = Callable[["DiceSource", list[DieGroup]], int]


# --------------------------------------------------------------------------- tree


@dataclass(frozen=True, slots=True)
class Const:
    """An integer constant."""

    value: int

    def __str__(self) -> str:
        return str(self.value)


@dataclass(frozen=True, slots=True)
class Dice:
    """``NdS`` summed, optionally keeping the ``keep`` highest (``"kh"``) or lowest (``"kl"``)."""

    count: int
    sides: int
    keep: Literal["kh", "kl"] | None = None
    keep_count: int = 0

    def __str__(self) -> str:
        n = "" if self.count == 1 else str(self.count)
        k = f"{self.keep}{self.keep_count}" if self.keep else ""
        return f"{n}d{self.sides}{k}"

    @property
    def countable(self) -> bool:
        """True if a comparison right after this group would count successes (N >= 2, no keep)."""
        return self.count >= 2 and self.keep is None


@dataclass(frozen=True, slots=True)
class D66:
    """A tens d6 and a units d6 read as 11..66."""

    def __str__(self) -> str:
        return "d66"


@dataclass(frozen=True, slots=True)
class Count:
    """The number of dice of a plain ``NdS`` group whose face satisfies ``op target``."""

    dice: Dice
    op: CompareOp
    target: int

    def __str__(self) -> str:
        return f"{self.dice}{self.op}{self.target}"


@dataclass(frozen=True, slots=True)
class Div:
    """``operand / divisor`` rounded up (``ceil=True``, written ``/``) or down (``//``)."""

    operand: Node
    divisor: int
    ceil: bool = True

    def __str__(self) -> str:
        inner = _text(self.operand)
        if isinstance(self.operand, Sum | Count):
            inner = f"({inner})"
        return f"{inner}{'/' if self.ceil else '//'}{self.divisor}"


@dataclass(frozen=True, slots=True)
class Sum:
    """Signed terms added left to right: ``terms`` is ``((+1, a), (-1, b), ...)``; never nested."""

    terms: tuple[tuple[int, Node], ...]

    def __str__(self) -> str:
        parts = []
        for i, (sign, node) in enumerate(self.terms):
            text = _text(node)
            if isinstance(node, Count | Sum):
                text = f"({text})"
            if i:
                parts.append("+" if sign > 0 else "-")
            elif sign < 0:
                parts.append("-")
            parts.append(text)
        return "".join(parts)


Node: TypeAlias = Const | Dice | D66 | Count | Div | Sum


def _text(node: Node) -> str:
    return node.__str__()


# --------------------------------------------------------------------------- expression


@dataclass(frozen=True, slots=True)
class DiceExpr:
    """A parsed dice expression: ``body``, optionally compared (``op target``) to give a bool.

    Immutable and hashable; ``str()`` is the canonical text and ``DiceExpr.parse(str(e)) == e``.
    """

    body: Node
    op: CompareOp | None = None
    target: int | None = None
    _text: str = field(init=False, repr=False, compare=False, hash=False)
    _roller: Roller = field(init=False, repr=False, compare=False, hash=False)
    _check: Callable[[int, int], bool] | None = field(
        init=False, repr=False, compare=False, hash=False
    )

    def __post_init__(self) -> None:
        if (self.op is None) != (self.target is None):
            raise ValueError("a comparison needs both an operator and a target")
        object.__setattr__(self, "_text", _expr_text(self))
        object.__setattr__(self, "_roller", _compile(self.body))
        object.__setattr__(self, "_check", None if self.op is None else COMPARE_OPS[self.op])

    @staticmethod
    def parse(text: str) -> DiceExpr:
        """Parse dice notation (see the module docstring); raises NotationError."""
        return parse(text)

    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        return f"DiceExpr.parse({self._text!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        return (parse, (self._text,))

    @property
    def is_comparison(self) -> bool:
        """True if the expression compares its total, so rolling it gives a bool."""
        return self.op is not None

    @property
    def dice_count(self) -> int:
        """How many dice one roll draws (d66 counts as 2)."""
        return _dice_count(self.body)

    def roll(self, source: DiceSource) -> RollResult:
        """Roll once, drawing faces from ``source`` term by term, left to right."""
        groups: list[DieGroup] = []
        total = self._roller(source, groups)
        if self._check is not None:
            assert self.target is not None
            return RollResult(self._text, tuple(groups), self._check(total, self.target))
        return RollResult(self._text, tuple(groups), total)

    def distribution(self) -> Distribution:
        """The exact distribution of ``roll()``'s total, computed with icepool (cached)."""
        from umpire.dice.distribution import exact_distribution

        return exact_distribution(self)

    def outcome_values(self) -> tuple[int | bool, ...]:
        """Every total a roll can give, sorted (False before True), without icepool."""
        intervals = _support(self.body)
        if self.op is None:
            return tuple(v for lo, hi in intervals for v in range(lo, hi + 1))
        assert self.target is not None
        check = COMPARE_OPS[self.op]
        values: set[bool] = set()
        for lo, hi in intervals:
            values.add(check(lo, self.target))
            values.add(check(hi, self.target))
            if lo <= self.target <= hi:
                values.add(check(self.target, self.target))
            if len(values) == 2:
                break
        return tuple(sorted(values))

    def explain(self, result: RollResult) -> str:
        """One line showing how ``result`` was reached, e.g. ``2d6+1 → [3, 5] +1 = 9``."""
        text, value = _explain(self.body, iter(result.dice))
        line = f"{self._text} → {text} = {value}"
        if self.op is not None:
            line += f" {self.op} {self.target}: {'true' if result.total else 'false'}"
        return line


def _expr_text(expr: DiceExpr) -> str:
    body = expr.body
    text = _text(body)
    if expr.op is None:
        return text
    assert expr.target is not None
    if isinstance(body, Count) or (
        isinstance(body, Dice) and body.countable and 1 <= expr.target <= body.sides
    ):
        text = f"({text})"
    return f"{text}{expr.op}{expr.target}"


def nesting_depth(expr: DiceExpr | Node) -> int:
    """How many divisions are applied one to the result of another in ``expr``'s tree.

    ``2d6+1`` is 0, ``d6/2`` is 1, ``(d6+1)/2/2`` and ``((d6+1)/2+1)/2`` are 2. The parser refuses
    more than ``MAX_NESTING`` of these, and more than ``MAX_NESTING`` parentheses one inside
    another, so the recursive walks over a tree (here and in icepool) stay shallow.
    """
    node = expr.body if isinstance(expr, DiceExpr) else expr
    if isinstance(node, Div):
        return 1 + nesting_depth(node.operand)
    if isinstance(node, Sum):
        return max(nesting_depth(n) for _, n in node.terms)
    return 0


def _dice_count(node: Node) -> int:
    if isinstance(node, Dice):
        return node.count
    if isinstance(node, D66):
        return 2
    if isinstance(node, Count):
        return node.dice.count
    if isinstance(node, Div):
        return _dice_count(node.operand)
    if isinstance(node, Sum):
        return sum(_dice_count(n) for _, n in node.terms)
    return 0


# --------------------------------------------------------------------------- rolling


def _compile(node: Node) -> Roller:
    """Build a closure that rolls ``node``: the per-roll work is only drawing and adding."""
    if isinstance(node, Const):
        value = node.value

        def const(source: DiceSource, groups: list[DieGroup]) -> int:
            return value

        return const

    if isinstance(node, Dice):
        n, sides, term, k = node.count, node.sides, str(node), node.keep_count
        if node.keep is None:

            def plain(source: DiceSource, groups: list[DieGroup]) -> int:
                faces = tuple(source.dice(n, sides, term))
                groups.append(DieGroup(term, sides, faces, faces))
                return sum(faces)

            return plain
        high = node.keep == "kh"

        def keep(source: DiceSource, groups: list[DieGroup]) -> int:
            faces = tuple(source.dice(n, sides, term))
            kept = tuple(sorted(faces, reverse=high)[:k])
            groups.append(DieGroup(term, sides, faces, kept))
            return sum(kept)

        return keep

    if isinstance(node, D66):

        def d66(source: DiceSource, groups: list[DieGroup]) -> int:
            faces = tuple(source.dice(2, 6, "d66"))
            groups.append(DieGroup("d66", 6, faces, faces))
            return 10 * faces[0] + faces[1]

        return d66

    if isinstance(node, Count):
        n, sides, term, target = node.dice.count, node.dice.sides, str(node), node.target
        test = COMPARE_OPS[node.op]

        def count(source: DiceSource, groups: list[DieGroup]) -> int:
            faces = tuple(source.dice(n, sides, term))
            kept = tuple(f for f in faces if test(f, target))
            groups.append(DieGroup(term, sides, faces, kept))
            return len(kept)

        return count

    if isinstance(node, Div):
        inner, k = _compile(node.operand), node.divisor
        if node.ceil:

            def div_up(source: DiceSource, groups: list[DieGroup]) -> int:
                return -(-inner(source, groups) // k)

            return div_up

        def div_down(source: DiceSource, groups: list[DieGroup]) -> int:
            return inner(source, groups) // k

        return div_down

    parts = [(sign, _compile(n)) for sign, n in node.terms]
    if len(parts) == 2 and parts[0][0] > 0:
        (_, first), (sign2, second) = parts

        def sum2(source: DiceSource, groups: list[DieGroup]) -> int:
            a = first(source, groups)
            return a + second(source, groups) if sign2 > 0 else a - second(source, groups)

        return sum2

    def total(source: DiceSource, groups: list[DieGroup]) -> int:
        acc = 0
        for sign, part in parts:
            acc += part(source, groups) if sign > 0 else -part(source, groups)
        return acc

    return total


def _faces(faces: tuple[int, ...]) -> str:
    return "[" + ", ".join(map(str, faces)) + "]"


def _explain(node: Node, groups: Any) -> tuple[str, int]:
    """Render ``node`` with its dice replaced by the faces drawn; return (text, value)."""
    if isinstance(node, Const):
        return str(node.value), node.value
    if isinstance(node, Dice | D66 | Count):
        group: DieGroup = next(groups)
        if isinstance(node, D66):
            return _faces(group.faces), 10 * group.faces[0] + group.faces[1]
        if isinstance(node, Count):
            n = len(group.kept)
            return f"{_faces(group.faces)} ({n} of {len(group.faces)} {node.op}{node.target})", n
        if node.keep is not None:
            return f"{_faces(group.faces)} keep {_faces(group.kept)}", sum(group.kept)
        return _faces(group.faces), sum(group.faces)
    if isinstance(node, Div):
        text, value = _explain(node.operand, groups)
        if isinstance(node.operand, Sum | Count):
            text = f"({text})"
        k = node.divisor
        value = -(-value // k) if node.ceil else value // k
        return f"{text}{'/' if node.ceil else '//'}{k}", value
    texts = []
    acc = 0
    for i, (sign, term) in enumerate(node.terms):
        text, value = _explain(term, groups)
        acc += value if sign > 0 else -value
        texts.append(text if i == 0 and sign > 0 else f"{'+' if sign > 0 else '-'}{text}")
    return " ".join(texts), acc


# --------------------------------------------------------------------------- support


def _merge(intervals: list[tuple[int, int]]) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    for lo, hi in sorted(intervals):
        if out and lo <= out[-1][1] + 1:
            if hi > out[-1][1]:
                out[-1] = (out[-1][0], hi)
        else:
            out.append((lo, hi))
    return out


def _support(node: Node) -> list[tuple[int, int]]:
    """The exact set of values ``node`` can take, as sorted disjoint closed intervals."""
    if isinstance(node, Const):
        return [(node.value, node.value)]
    if isinstance(node, Dice):
        k = node.keep_count if node.keep else node.count
        return [(k, k * node.sides)]
    if isinstance(node, D66):
        return [(10 * t + 1, 10 * t + 6) for t in range(1, 7)]
    if isinstance(node, Count):
        test = COMPARE_OPS[node.op]
        hits = sum(1 for f in range(1, node.dice.sides + 1) if test(f, node.target))
        n = node.dice.count
        if hits == 0:
            return [(0, 0)]
        return [(n, n)] if hits == node.dice.sides else [(0, n)]
    if isinstance(node, Div):
        k = node.divisor
        if node.ceil:
            return _merge([(-(-lo // k), -(-hi // k)) for lo, hi in _support(node.operand)])
        return _merge([(lo // k, hi // k) for lo, hi in _support(node.operand)])
    acc = [(0, 0)]
    for sign, term in node.terms:
        part = _support(term)
        if sign < 0:
            part = [(-hi, -lo) for lo, hi in reversed(part)]
        acc = _merge([(a + c, b + d) for a, b in acc for c, d in part])
    return acc


# --------------------------------------------------------------------------- parsing

_OPS = ("<=", ">=", "//", "<", ">", "=", "+", "-", "/", "(", ")")


@dataclass(frozen=True, slots=True)
class _Tok:
    kind: str  # "num", "d", "kh", "kl", an operator, or "end"
    text: str
    col: int  # 1-based column in the original text


def _tokenize(text: str) -> list[_Tok]:
    toks: list[_Tok] = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c.isspace():
            i += 1
        elif c.isascii() and c.isdigit():
            j = i
            while j < n and text[j].isascii() and text[j].isdigit():
                j += 1
            toks.append(_Tok("num", text[i:j], i + 1))
            i = j
        elif c in "dD":
            toks.append(_Tok("d", "d", i + 1))
            i += 1
        elif c in "kK" and i + 1 < n and text[i + 1] in "hHlL":
            kind = "k" + text[i + 1].lower()
            toks.append(_Tok(kind, kind, i + 1))
            i += 2
        else:
            for op in _OPS:
                if text.startswith(op, i):
                    toks.append(_Tok(op, op, i + 1))
                    i += len(op)
                    break
            else:
                raise NotationError(f"{text!r}: unexpected {c!r} at column {i + 1}")
    toks.append(_Tok("end", "", n + 1))
    return toks


def _describe(tok: _Tok) -> str:
    return "the end" if tok.kind == "end" else repr(tok.text)


class _Parser:
    """Recursive descent over the tokens; builds the canonical (flattened) tree."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.toks = _tokenize(text)
        self.i = 0
        self.dice = 0
        self.parens = 0  # parentheses open at the current token

    def fail(self, message: str) -> NotationError:
        text = self.text if len(self.text) <= _ECHO else self.text[:_ECHO] + "…"
        return NotationError(f"{text!r}: {message}")

    @property
    def tok(self) -> _Tok:
        return self.toks[self.i]

    def next(self) -> _Tok:
        tok = self.toks[self.i]
        self.i += 1
        return tok

    def number(self, what: str) -> int:
        tok = self.tok
        if tok.kind != "num":
            if tok.kind == "end":
                prev = self.toks[self.i - 1].text
                raise self.fail(f"expression ends after {prev!r} (expected {what})")
            raise self.fail(f"expected {what} at column {tok.col}, found {_describe(tok)}")
        self.i += 1
        digits = tok.text.lstrip("0") or "0"
        if len(digits) > 7 or int(digits) > MAX_NUMBER:
            raise self.fail(
                f"number {tok.text} at column {tok.col} is too large (at most {MAX_NUMBER})"
            )
        return int(digits)

    def parse(self) -> DiceExpr:
        if self.tok.kind == "end":
            raise self.fail("no dice expression (try e.g. 2d6)")
        body, bare = self.sum()
        op: CompareOp | None = None
        target: int | None = None
        if self.tok.kind in COMPARE_OPS:
            cmp_tok = self.tok
            op, target = self.compare()
            if bare is not None and 1 <= target <= bare.sides:
                body = Count(bare, op, target)
                op = target = None
                self.after_count(body, cmp_tok)
            else:
                self.after_total_compare(cmp_tok)
        tok = self.tok
        if tok.kind == ")":
            raise self.fail(f"')' at column {tok.col} has no matching '('")
        if tok.kind != "end":
            raise self.fail(f"unexpected {_describe(tok)} at column {tok.col}")
        if self.dice > MAX_DICE_TOTAL:
            raise self.fail(f"at most {MAX_DICE_TOTAL} dice in one expression, found {self.dice}")
        return DiceExpr(body, op, target)

    def after_count(self, count: Count, cmp_tok: _Tok) -> None:
        tok = self.tok
        if tok.kind in ("end", ")"):
            return
        if tok.kind in COMPARE_OPS or tok.kind in ("+", "-", "/", "//"):
            raise self.fail(
                f"{_describe(tok)} at column {tok.col} follows the success count {count}; "
                f"write ({count}){tok.text}..."
            )

    def after_total_compare(self, cmp_tok: _Tok) -> None:
        tok = self.tok
        if tok.kind in COMPARE_OPS:
            raise self.fail(f"second comparison {tok.text!r} at column {tok.col}; at most one")
        if tok.kind in ("+", "-", "/", "//"):
            raise self.fail(
                f"{tok.text!r} at column {tok.col} after the comparison at column {cmp_tok.col}; "
                "a comparison must come last"
            )

    def compare(self) -> tuple[CompareOp, int]:
        op = cast(CompareOp, self.next().kind)
        negative = False
        if self.tok.kind == "-":
            self.i += 1
            negative = True
        value = self.number("a number to compare with")
        return op, -value if negative else value

    def sum(self) -> tuple[Node, Dice | None]:
        """Parse a sum; also return the dice group if the sum is exactly one bare ``NdS``."""
        terms: list[tuple[int, Node]] = []
        sign = 1
        bare: Dice | None = None
        while True:
            node, single = self.term()
            bare = single if not terms else None
            if isinstance(node, Sum):
                terms.extend((sign * s, n) for s, n in node.terms)
            else:
                terms.append((sign, node))
            tok = self.tok
            if tok.kind not in ("+", "-"):
                break
            bare = None
            self.i += 1
            sign = 1 if tok.kind == "+" else -1
            if self.tok.kind == "end":
                raise self.fail(f"expression ends after {tok.text!r}")
        if len(terms) == 1 and terms[0][0] > 0:
            return terms[0][1], bare
        return Sum(tuple(terms)), None

    def term(self) -> tuple[Node, Dice | None]:
        node, bare = self.atom()
        while self.tok.kind in ("/", "//"):
            tok = self.next()
            if self.tok.kind == "end":
                raise self.fail(f"expression ends after {tok.text!r}")
            col = self.tok.col
            k = self.number(f"a number to divide by after {tok.text!r}")
            if k < 1:
                raise self.fail(f"division by {k} at column {col}; divide by 1 or more")
            node, bare = Div(node, k, tok.kind == "/"), None
            if nesting_depth(node) > MAX_NESTING:
                raise self.fail(
                    f"{tok.text!r} at column {tok.col} divides a result divided {MAX_NESTING} "
                    f"times already; at most {MAX_NESTING} divisions one after another"
                )
        return node, bare

    def atom(self) -> tuple[Node, Dice | None]:
        tok = self.tok
        if tok.kind == "num" and self.toks[self.i + 1].kind == "d":
            count = self.number("a number of dice")
            return self.dice_group(count, tok)
        if tok.kind == "num":
            return Const(self.number("a number")), None
        if tok.kind == "d":
            return self.dice_group(1, tok)
        if tok.kind == "(":
            self.i += 1
            self.parens += 1
            if self.parens > MAX_NESTING:
                raise self.fail(
                    f"'(' at column {tok.col} nests parentheses more than {MAX_NESTING} deep; "
                    f"at most {MAX_NESTING} levels"
                )
            if self.tok.kind == "end":
                raise self.fail(f"expression ends after '(' at column {tok.col}")
            node, bare = self.sum()
            if self.tok.kind in COMPARE_OPS:
                cmp_tok = self.tok
                op, target = self.compare()
                if bare is None or not 1 <= target <= bare.sides:
                    raise self.fail(
                        f"comparison {op}{target} at column {cmp_tok.col} is inside parentheses; "
                        "a comparison of the total is allowed only at the top level"
                    )
                node = Count(bare, op, target)
                self.after_count(node, cmp_tok)
            if self.tok.kind != ")":
                raise self.fail(
                    f"'(' at column {tok.col} is not closed (found {_describe(self.tok)} "
                    f"at column {self.tok.col})"
                )
            self.i += 1
            self.parens -= 1
            return node, None
        if tok.kind == "end":
            raise self.fail(f"expression ends after {self.toks[self.i - 1].text!r}")
        raise self.fail(
            f"expected a number, dice or '(' at column {tok.col}, found {_describe(tok)}"
        )

    def dice_group(self, count: int, start: _Tok) -> tuple[Node, Dice | None]:
        self.i += 1  # the "d"
        sides_tok = self.tok
        if sides_tok.kind != "num":
            where = f"at column {sides_tok.col}"
            if sides_tok.kind != "end":
                where += f", found {_describe(sides_tok)}"
            raise self.fail(f"missing number of sides after 'd' {where}")
        sides = self.number("a number of sides")
        term = self.text[start.col - 1 : sides_tok.col - 1 + len(sides_tok.text)].strip()
        if count < 1:
            raise self.fail(f"a group needs at least 1 die ({term!r} at column {start.col})")
        if sides < 1:
            raise self.fail(f"a die needs at least 1 side ({term!r} at column {start.col})")
        if sides == 66:
            if count > 1:
                raise self.fail(
                    f"d66 is one tens-and-units roll, so {count}d66 is not allowed "
                    f"(column {start.col}); add d66 terms instead"
                )
            if self.tok.kind in ("kh", "kl"):
                raise self.fail(f"d66 cannot keep dice (column {self.tok.col})")
            self.dice += 2
            return D66(), None
        if count > MAX_DICE_PER_GROUP:
            raise self.fail(
                f"at most {MAX_DICE_PER_GROUP} dice in one group ({term!r} at column {start.col})"
            )
        if sides > MAX_SIDES:
            raise self.fail(f"at most {MAX_SIDES} sides on a die ({term!r} at column {start.col})")
        self.dice += count
        if self.tok.kind in ("kh", "kl"):
            keep_tok = self.next()
            k = 1
            if self.tok.kind == "num":
                k = self.number("a keep count")
                if not 1 <= k <= count:
                    raise self.fail(
                        f"{keep_tok.text}{k} at column {keep_tok.col} keeps {k} of {count} dice; "
                        f"keep 1..{count}"
                    )
            keep = cast(Literal["kh", "kl"], keep_tok.kind)
            return Dice(count, sides, keep, k), None
        dice = Dice(count, sides)
        return dice, dice if dice.countable else None


@lru_cache(maxsize=4096)
def parse(text: str) -> DiceExpr:
    """Parse dice notation into a DiceExpr (cached); raises a one-line NotationError."""
    if not isinstance(text, str):
        raise NotationError(f"dice notation must be text, not {type(text).__name__}")
    return _Parser(text).parse()
