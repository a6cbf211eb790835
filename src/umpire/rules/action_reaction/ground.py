"""Seed 003 in battle: the ground as 003 reads it: fog in hollows, walls and fences
crossed, terrain dice, the downhill slope and the front of a unit.

Split from ``steps`` (issue 25); the rulings themselves are in ``terrain`` and ``weather``.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, NamedTuple

from umpire.board.crossing import ASK, MISS, crossing
from umpire.board.fmath import hypot as _hypot
from umpire.rules.action_reaction import movement as MV
from umpire.rules.action_reaction import weather as W
from umpire.rules.action_reaction.marks import (
    KEY,
    book,
    fog,
)

if TYPE_CHECKING:
    from umpire.battle.engine import Battle
    from umpire.battle.state import Unit


def hollows(b: Battle) -> tuple[list[int], int]:
    """Reading ``fog_per_hollow``: each board cell's hollow (the connected stretches of low
    ground, level 0; -1 on a hill) and how many there are; made once per setup."""
    key = ("003", "hollows")
    found: tuple[list[int], int] | None = b.setup.kept.get(key)
    if found is not None:
        return found
    board = b.setup.board
    nx, ny = board.nx, board.ny
    level = board.level.ravel().tolist()
    whose = (nx, ny, tuple(level))
    found = _HOLLOWS.get(whose)
    if found is None:
        found = _label_hollows(nx, ny, level)
        if len(_HOLLOWS) >= 8:
            _HOLLOWS.clear()
        _HOLLOWS[whose] = found
    b.setup.kept[key] = found
    return found


_HOLLOWS: dict[tuple[int, int, tuple[int, ...]], tuple[list[int], int]] = {}
""":func:`hollows` by the board's size and levels (a scenario loaded again builds a new
setup with the same ground: the labelling is not made again). Never changed once made."""


def _label_hollows(nx: int, ny: int, level: list[int]) -> tuple[list[int], int]:
    """:func:`hollows` worked out: a flood fill of the level-0 cells, four ways."""
    label = [-1] * (nx * ny)
    n = 0
    for start in range(nx * ny):
        if level[start] != 0 or label[start] >= 0:
            continue
        label[start] = n
        todo = [start]
        while todo:
            k = todo.pop()
            i, j = divmod(k, ny)
            for ii, jj in ((i + 1, j), (i - 1, j), (i, j + 1), (i, j - 1)):
                if 0 <= ii < nx and 0 <= jj < ny:
                    kk = ii * ny + jj
                    if level[kk] == 0 and label[kk] < 0:
                        label[kk] = n
                        todo.append(kk)
        n += 1
    return label, n


def hollow_at(b: Battle, x: float, y: float) -> int:
    """The hollow at (x, y), or -1 on a hill (above the fog, XII.D.1.d)."""
    board = b.setup.board
    i = min(max(int(x / board.cell), 0), board.nx - 1)
    j = min(max(int(y / board.cell), 0), board.ny - 1)
    return hollows(b)[0][i * board.ny + j]


def fog_at(b: Battle, x: float, y: float) -> int:
    """XII.D.1.c-d: the fog's thickness where (x, y) stands: its hollow's card, 0 on a hill."""
    st = b.state.extra.get(KEY)
    if not st or not st.get("fog"):
        return 0
    h = hollow_at(b, x, y)
    if h < 0:
        return 0
    levels: list[int] | None = st.get("fog_hollows")
    return int(st["fog"]) if levels is None or h >= len(levels) else int(levels[h])


def fog_line(b: Battle, u: Unit, t: Unit) -> int:
    """Reading ``fog_per_hollow``: the fog on a line of fire or sight is the thicker of the
    hollows its two ends stand in; a unit on a hill stands in none (a battery on the hill
    pays only the fog of the hollow it fires into)."""
    if not fog(b):
        return 0
    return max(fog_at(b, u.x, u.y), fog_at(b, t.x, t.y))


def clear_field(b: Battle, u: Unit, t: Unit) -> bool:
    """XIII.B.1.c: a smokeless, fog-free field between ``u`` and ``t``."""
    smoke = W.smoke_level(book(b, u)["smoke"], book(b, t)["smoke"])
    return smoke == 0 and fog_line(b, u, t) == 0


def walls_covering(b: Battle, u: Unit, t: Unit) -> list[str]:
    """Reading ``wall_covers_target``: the XVI kinds of the walls on the line of fire from
    ``u`` that stand nearer the target than the firer (they cover it); a unit firing out
    from behind its own wall is not slowed by it."""
    half = _hypot(t.x - u.x, t.y - u.y) / 2
    return [kind for at, kind in walls_on_path(b, u.x, u.y, t.x, t.y) if at > half]


_Wall = tuple[str, float, float, float, float, Any, "tuple[float, float, float, float] | None"]
"""A wall: (XVI kind, x range, y range, shapely line, its ends if it is one straight
segment)."""


def _walls(b: Battle) -> list[_Wall]:
    """The board's walls (:data:`_Wall`), made once per setup."""
    key = ("003", "walls")
    found: list[_Wall] | None = b.setup.kept.get(key)
    if found is None:
        found = []
        for f in b.setup.board.features:
            if f.kind == "wall":
                kind = {"rail": "rail_fence", "worm": "worm_fence"}.get(f.variant, "stone_wall")
                xs = [float(p[0]) for p in f.points]
                ys = [float(p[1]) for p in f.points]
                seg = (xs[0], ys[0], xs[1], ys[1]) if len(xs) == 2 else None
                found.append((kind, min(xs), max(xs), min(ys), max(ys), f.geometry(), seg))
        b.setup.kept[key] = found
    return found


def to_front(b: Battle, u: Unit, x: float, y: float) -> bool:
    """Reading ``by_hand_to_the_front`` (XII.F.8 'Unlimbered By Hand to the Front: The piece
    will move 1 inch to the front'): (x, y) lies ahead of ``u``, within its front arc."""
    from umpire.board.geometry import local

    fwd, lat = local(u.x, u.y, u.theta, x, y)
    return fwd > 0 and math.degrees(math.atan2(abs(lat), fwd)) <= b.geo["fire_arc_degrees"] + 1e-9


class Crossing(NamedTuple):
    """XVI along a path: the movement left for it after every die (``left``, the allowance
    less the deductions, plus the downhill bonus), where the regiment stopped (``stop``, the
    inches along the path to the obstacle whose die exceeded the movement left there, or
    None) and the words for the narrative."""

    left: float
    stop: float | None
    words: list[str]
    why: str = ""  # the stop in words


_PATHS_KEPT = 20000
"""How many straight paths' walls :func:`walls_on_path` keeps per setup (then it starts over)."""


def walls_on_path(b: Battle, x0: float, y0: float, x1: float, y1: float) -> list[tuple[float, str]]:
    """Reading ``walls_and_fences``: (inches along the path, XVI kind) of each wall a straight
    move crosses, nearest first. Kept per setup by the path's ends (the board is fixed; a
    menu, the AI and the step ask the same lines of fire and charge paths again and again):
    do not change the list returned."""
    kept: dict[tuple[float, float, float, float], list[tuple[float, str]]] | None
    kept = b.setup.kept.get(("003", "paths"))
    if kept is None:
        kept = b.setup.kept[("003", "paths")] = {}
    key = (x0, y0, x1, y1)
    found = kept.get(key)
    if found is None:
        if len(kept) >= _PATHS_KEPT:
            kept.clear()
        found = kept[key] = _walls_on_path(b, x0, y0, x1, y1)
    return found


def _walls_on_path(
    b: Battle, x0: float, y0: float, x1: float, y1: float
) -> list[tuple[float, str]]:
    """:func:`walls_on_path` worked out: shapely's ``path.project(path.intersection(wall))``
    for each wall the path meets; a straight wall's by :func:`umpire.board.crossing.crossing`
    (the same float, without shapely), shapely's own where that says ask."""
    lo_x, hi_x = (x0, x1) if x0 < x1 else (x1, x0)
    lo_y, hi_y = (y0, y1) if y0 < y1 else (y1, y0)
    out = []
    line = None
    for kind, ax, bx, ay, by, wall, seg in _walls(b):
        if hi_x < ax or lo_x > bx or hi_y < ay or lo_y > by:
            continue
        if seg is not None:
            at = crossing(x0, y0, x1, y1, seg[0], seg[1], seg[2], seg[3])
            if at == MISS:
                continue
            if at != ASK:
                out.append((at, kind))
                continue
        if line is None:
            import shapely

            line = shapely.LineString([(x0, y0), (x1, y1)])
        if line.intersects(wall):
            out += [(at, kind) for at in _meetings(line, line.intersection(wall))]
    return sorted(out)


def _meetings(line: Any, met: Any) -> list[float]:
    """Reading ``path_along_wall``: the inches along ``line`` where it meets a wall, from
    their intersection ``met``: a point once; a bent wall crossed more than once at each
    crossing; a stretch run along the wall's line once, where the path first touches it
    (shapely cannot project anything but a point)."""
    import shapely

    if met.geom_type == "Point":
        return [float(line.project(met))]
    out: list[float] = []
    for part in getattr(met, "geoms", [met]):
        if part.is_empty:
            continue
        if part.geom_type == "Point":
            out.append(float(line.project(part)))
        else:  # a stretch along the wall: where the path first reaches it
            out.append(min(float(line.project(shapely.Point(c))) for c in part.coords))
    return sorted(set(out))


def terrain_cost(
    b: Battle, u: Unit, x: float, y: float, allow: float, to: Unit | None = None
) -> Crossing:
    """XVI along a move of ``allow`` inches toward (x, y) (a charge: to ``to``'s line), the
    dice rolled now: woodlots and hills first, then the walls and fences in the order met.
    A die that exceeds the movement left stops the regiment: at a wall or fence, the
    movement left is the allowance so far less the inches its front walked to it (XVI.E.1.a,
    F.1; reading ``terrain_stall``); downhill adds its die (XVI.C)."""
    from umpire.rules.action_reaction import terrain as T

    if not MV.deductions_apply(u.type, u.formation, u.mounted, u.limbered):
        return Crossing(allow, None, [])
    left = allow
    words: list[str] = []
    for at, kind in obstacles(b, u, x, y, to):
        die = T.move_die(kind)
        face = None
        if die is not None:
            n, sides = die
            face = b.roll(n, sides, f"{u.name}: {kind.replace('_', ' ')} (movement)")[0]
        if at > 0 and at >= left:
            break  # the movement runs out before this obstacle: it is not reached
        name = kind.replace("_", " ")
        there = max(0.0, left - at)
        going = T.movement(kind, there, face)
        if going.stalled:
            why = f'the {name} costs {going.deduction}", more than the {there:.1f}" left there'
            return Crossing(left, at, words, why)
        if going.left > there:
            words.append(f'{name} gains {going.deduction}"')
        else:
            words.append(f'{name} loses {going.deduction}"')
        left += going.left - there
    return Crossing(left, None, words)


def obstacles(b: Battle, u: Unit, x: float, y: float, to: Unit | None) -> list[tuple[float, str]]:
    """XVI on a move toward (x, y) (a charge: to ``to``'s line): (inches the front walks to
    it, kind) of the woodlots and hills (at once) and each wall or fence, in the order met."""
    board = b.setup.board
    met: list[tuple[float, str]] = []
    if board.path_rough(u.x, u.y, x, y) or board.is_rough(x, y):
        met.append((0.0, "woodlot"))
    h0 = board.height_at(u.x, u.y)
    h1 = board.height_at(to.x, to.y) if to is not None else board.height_at(x, y)
    if h1 != h0:
        met.append((0.0, "uphill" if h1 > h0 else "downhill"))
    return met + [(max(0.0, at - u.hd), k) for at, k in walls_on_path(b, u.x, u.y, x, y)]


def downhill_most(
    b: Battle, u: Unit, x: float, y: float, form: str, mounted: bool, limbered: bool
) -> float:
    """XVI.C 'Down Hill: Movement +D6 Halved': the most a move down to (x, y) may gain (the
    die is rolled as it goes; a move ordered past what it gives stops there)."""
    from umpire.rules.action_reaction import terrain as T

    board = b.setup.board
    if board.height_at(x, y) >= board.height_at(u.x, u.y):
        return 0.0
    if not MV.deductions_apply(u.type, form, mounted, limbered):
        return 0.0
    die = T.move_die("downhill")
    faces = range(1, 2) if die is None else range(1, die[1] + 1)
    return max(float(T.movement("downhill", 0.0, f).left) for f in faces)


def stop_short(b: Battle, u: Unit, x: float, y: float, at: float) -> float:
    """Put ``u`` where its front meets an obstacle ``at`` inches along its move to (x, y)
    (not past it; where that is taken, it stays); the inches it moved."""
    dist = _hypot(x - u.x, y - u.y)
    go = max(0.0, at - u.hd - 0.05)
    if dist <= 1e-9 or go <= 1e-9:
        return 0.0
    f = min(1.0, go / dist)
    nx, ny = u.x + (x - u.x) * f, u.y + (y - u.y) * f
    if not b.free_at(u, nx, ny, u.theta, u.hw, u.hd):
        return 0.0
    b.place(u, nx, ny, u.theta)
    return go
