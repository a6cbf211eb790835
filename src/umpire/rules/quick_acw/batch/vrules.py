"""The rules of seed 002 as vectorised functions: one numpy call answers many battles.

Every number is read from the same rules data as the scalar engine
(``umpire.rules.quick_acw.rules.Rules``, loaded from ``data/rules.toml``); each function
repeats the scalar function it names, and ``tests/test_lab_rules.py`` checks them
against each other on random inputs. Codes: sides in TURN ORDER (0 Confederate,
1 Union), types 0 foot / 1 cavalry / 2 artillery, formations 0 line / 1 column, fire
classes 0 foot / 1 dismounted cavalry / 2 artillery (-1 cannot fire), changes 0 none /
1 formation (also limber) / 2 mount or dismount.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

import numpy as np
from numpy.typing import NDArray

from umpire.rules.quick_acw import odds
from umpire.rules.quick_acw.rules import Rules, rules

I = NDArray[np.signedinteger[Any]]  # noqa: E741
F = NDArray[np.float64]
B = NDArray[np.bool_]

TYPES = ("foot", "cavalry", "artillery")
FORMS = ("line", "column")
FIRE_CLASSES = ("foot", "dismounted_cavalry", "artillery")
MOVE_KEYS = (
    "foot_line",
    "foot_column",
    "cavalry_line",
    "cavalry_column",
    "artillery_limbered",
    "artillery_unlimbered",
)
FOOT, CAV, ART = 0, 1, 2
LINE, COLUMN = 0, 1
NO_CHANGE, FORMATION, MOUNT = 0, 1, 2


@dataclass(frozen=True, slots=True, eq=False)
class Tables:
    """The numbers of one ``Rules`` object as arrays indexed by the codes above."""

    r: Rules
    sides: tuple[str, ...]
    morale: I  # per side
    move_open: F  # per move key
    move_rough: F
    move_rout: F
    cost_formation: float
    cost_mount: float
    cost_command: float
    cost_leader: float
    bands: F
    fire_table: I  # (fire class, band)
    max_range: F  # per fire class
    margin: int
    fire_mods: dict[str, int]
    melee_mods: dict[str, int]
    melee_rows: I  # (|difference| 0..cap, 4): win loss, win retreat, lose loss, lose retreat
    morale_marker: int
    failed_charge_fraction: float
    leader_loss_on: int
    removal_fraction: float
    base_w: F  # per type
    base_d: F
    leader_open: float
    leader_rough: float
    geometry: dict[str, float]


@cache
def tables(r: Rules | None = None) -> Tables:
    """The arrays of a rules object (the built-in seed 002 rules by default), built once."""
    r = r or rules()
    bands = np.array(r.fire_bands, dtype=float)
    fire_table = np.array([r.fire_table[k] for k in FIRE_CLASSES], dtype=np.int64)
    max_range = np.array(
        [
            max([b for b, n in zip(r.fire_bands, row, strict=True) if n] or [0.0])
            for row in fire_table
        ]
    )
    cap = max(row.high if row.high < 99 else row.low for row in r.melee_rows) + 1
    rows = np.zeros((cap + 1, 4), dtype=np.int64)
    for d in range(cap + 1):
        for row in r.melee_rows:
            if row.low <= d <= row.high:
                rows[d] = (row.win_loss, row.win_retreat, row.lose_loss, row.lose_retreat)
                break
        else:  # pragma: no cover - the data covers every difference
            raise ValueError(f"melee table has no row for difference {d}")
    return Tables(
        r,
        r.order,
        np.array([r.sides[s].morale for s in r.order], dtype=np.int64),
        np.array([r.movement[k].open for k in MOVE_KEYS]),
        np.array([r.movement[k].rough for k in MOVE_KEYS]),
        np.array([r.movement[k].rout for k in MOVE_KEYS]),
        r.costs["formation_change"],
        r.costs["mount_dismount"],
        r.costs["out_of_command"],
        r.costs["leader_lost"],
        bands,
        fire_table,
        max_range,
        r.two_stand_margin,
        dict(r.fire_mods),
        dict(r.melee_mods),
        rows,
        r.morale_marker,
        r.failed_charge_fraction,
        r.leader_loss_on,
        r.removal_fraction,
        np.array([r.bases[t][0] for t in TYPES]),
        np.array([r.bases[t][1] for t in TYPES]),
        r.movement["leader"].open,
        r.movement["leader"].rough,
        dict(r.geometry),
    )


# -- troop classes and movement -------------------------------------------------------


def fire_class(utype: I, mounted: B, limbered: B) -> I:
    """The FIRE table row, -1 if the unit cannot fire (``rules.fire_class``).

    Seed 002 FIRE: "Mounted cavalry can't fire"; default ``limbered_no_fire``.
    """
    out = np.where(utype == FOOT, 0, np.where(utype == CAV, 1, 2))
    cannot = ((utype == CAV) & mounted) | ((utype == ART) & limbered)
    return np.where(cannot, -1, out)


def move_key(utype: I, form: I, mounted: B, limbered: B) -> I:
    """The MOVEMENT table row (``rules.move_key``): "Foot" includes dismounted cavalry."""
    foot = np.where(form == COLUMN, 1, 0)
    cav = np.where(form == COLUMN, 3, 2)
    art = np.where(limbered, 4, 5)
    return np.where(utype == ART, art, np.where((utype == CAV) & mounted, cav, foot))


def move_inches(t: Tables, key: I, rough: B, in_command: B, leader_lost: B, change: I) -> F:
    """Seed 002 MOVEMENT, COMMAND and LEADERS: the inches a move may cover.

    As ``rules.move_inches``: the factors multiply in the same order (reading
    ``half_rates_multiply``), so the floats are the same.
    """
    factor = np.where(rough, t.move_rough[key], 1.0)
    factor = factor * np.where(in_command, 1.0, t.cost_command)
    factor = factor * np.where(leader_lost, t.cost_leader, 1.0)
    factor = factor * np.where(
        change == FORMATION,
        1.0 - t.cost_formation,
        np.where(change == MOUNT, 1.0 - t.cost_mount, 1.0),
    )
    out: F = t.move_open[key] * factor
    return out


def rout_distance(t: Tables, utype: I, mounted: B | None = None, limbered: B | None = None) -> F:
    """Seed 002 MOVEMENT ROUT: the ROUT column of each unit's row (``rules.rout_distance``):
    12" foot and dismounted cavalry, 24" mounted cavalry, 12" limbered artillery, 0 unlimbered
    (it limbers in place). ``mounted``/``limbered``: True where not given."""
    yes = np.ones(np.shape(utype), dtype=bool)
    m = yes if mounted is None else mounted
    lim = yes if limbered is None else limbered
    out: F = t.move_rout[move_key(utype, np.full(np.shape(utype), LINE), m, lim)]
    return out


def base_size(t: Tables, utype: I, form: I, stands: I) -> tuple[F, F]:
    """(half frontage, half depth) of bases (``state.base_size``, default ``stand_sizes``)."""
    w, d = t.base_w[utype], t.base_d[utype]
    n = np.maximum(stands, 1)
    col = (utype != ART) & (form == COLUMN)
    return np.where(col, w / 2, n * w / 2), np.where(col, n * d / 2, d / 2)


# -- fire ---------------------------------------------------------------------------------


def range_band(t: Tables, distance: F) -> I:
    """The FIRE column of each range, -1 beyond (reading ``range_bands_upper_bounds``)."""
    band = np.searchsorted(t.bands + 1e-9, distance, side="left")
    return np.where(band >= len(t.bands), -1, band)


def band_place(t: Tables, band: I) -> I:
    """A FIRE column's place in order of range: the column itself, beyond the last = after
    the last (``range_band`` says -1)."""
    out: I = np.where(band < 0, len(t.bands), band)
    return out


@cache
def fire_runs(t: Tables) -> tuple[I, I]:
    """Per fire class and :func:`band_place`: the score needed (0 none), and the number
    of the run of equal scores it lies in (in order of range), so a range known only to
    lie between two places has one answer where both places share their run."""
    need = np.zeros((len(t.fire_table), len(t.bands) + 1), dtype=np.int64)
    need[:, : len(t.bands)] = t.fire_table
    run = np.zeros(need.shape, dtype=np.int64)
    run[:, 1:] = np.cumsum(need[:, 1:] != need[:, :-1], axis=1)
    return need, run


def fire_needed(t: Tables, fc: I, distance: F) -> I:
    """Seed 002 FIRE table: the 2d6 score needed, 0 for "no fire" (``rules.fire_needed``)."""
    band = range_band(t, distance)
    out = t.fire_table[np.maximum(fc, 0), np.maximum(band, 0)]
    return np.where((band < 0) | (fc < 0), 0, out)


def fire_modifier(
    t: Tables,
    firer_side: I,
    fc: I,
    firer_form: I,
    firer_marker: B,
    target_type: I,
    target_mounted: B,
    target_form: I,
    target_cover: B,
) -> I:
    """Seed 002 FIRE "Die Roll Modifiers", summed (``rules.fire_modifiers``)."""
    m = t.fire_mods
    union = t.sides.index("union")
    total = np.where(target_cover, m["target_cover"], 0)
    total = total + np.where(target_type == ART, m["target_artillery"], 0)
    total = total + np.where(
        (target_type == CAV) & ~target_mounted, m["target_dismounted_cavalry"], 0
    )
    total = total + np.where(firer_marker, m["firer_marker"], 0)
    total = total + np.where(firer_side == union, m["union_firing"], 0)
    total = total + np.where(
        (target_type == FOOT) & (target_form == COLUMN), m["target_foot_column"], 0
    )
    total = total + np.where((target_type == CAV) & target_mounted, m["target_mounted_cavalry"], 0)
    out: I = total + np.where((fc <= 1) & (firer_form == LINE), m["firer_line"], 0)
    return out


@cache
def fire_modifier_table(t: Tables) -> I:
    """:func:`fire_modifier` over every combination of its codes, flat in the order of
    :func:`fire_modifier_of`'s index (576 sums, so a shot's modifier is one look-up)."""
    g = np.indices((2, 3, 2, 2, 3, 2, 2, 2)).reshape(8, -1)
    out: I = fire_modifier(
        t, g[0], g[1], g[2], g[3].astype(bool), g[4], g[5].astype(bool), g[6], g[7].astype(bool)
    )
    return out


def fire_modifier_of(
    t: Tables,
    firer_side: I,
    fc: I,
    firer_form: I,
    firer_marker: B,
    target_type: I,
    target_mounted: B,
    target_form: I,
    target_cover: B,
) -> I:
    """:func:`fire_modifier` by look-up in :func:`fire_modifier_table` (the same sums)."""
    i = (firer_side * 3 + fc) * 2 + firer_form
    i = (i * 2 + firer_marker) * 3 + target_type
    i = ((i * 2 + target_mounted) * 2 + target_form) * 2 + target_cover
    out: I = fire_modifier_table(t)[i]
    return out


def fire_stands_lost(t: Tables, roll: I, needed: I, mod: I) -> I:
    """Seed 002 FIRE: a hit costs one stand; beating the need by 8 or more costs two."""
    score = roll + mod
    return np.where(score < needed, 0, np.where(score - needed >= t.margin, 2, 1))


# -- morale, removal, leaders --------------------------------------------------------------


def morale(t: Tables, side: I, bonus: I, marker: B) -> tuple[I, I]:
    """Seed 002 MORALE: (the 2d6 number, the modifier: leader bonus, -1 with a MM).

    As ``rules.morale_test``; ``bonus`` is 0 where no leader is attached.
    """
    return t.morale[side], bonus + np.where(marker, t.morale_marker, 0)


def is_removed(t: Tables, stands: I, stands0: I) -> B:
    """Seed 002: "reduced to less than 1/2 of its original stands is removed"."""
    out: B = stands < stands0 * t.removal_fraction
    return out


def leader_lost(t: Tables, face: I) -> B:
    """Seed 002 LEADERS: an attached leader is lost on 5-6 of 1d6."""
    out: B = face >= t.leader_loss_on
    return out


# -- melee ----------------------------------------------------------------------------------


def melee_modifier(
    t: Tables,
    side: I,
    utype: I,
    mounted: B,
    form: I,
    stands: I,
    attacking: B,
    obstacle: B,
    uphill: B,
    marker: B,
    bonus: I,
    flank: B,
) -> I:
    """Seed 002 MELEE "Add" list plus the stands fighting, summed (``rules.melee_modifiers``)."""
    m = t.melee_mods
    conf = t.sides.index("confederate")
    total = stands + np.where(
        (utype == CAV) & mounted & attacking, m["mounted_cavalry_attacking"], 0
    )
    total = total + np.where(obstacle & ~attacking, m["defending_wall_or_stream"], 0)
    total = total + np.where((utype == FOOT) & (form == COLUMN), m["infantry_column"], 0)
    total = total + bonus
    total = total + np.where(uphill, m["uphill"], 0)
    total = total + np.where((side == conf) & attacking, m["confederates_attacking"], 0)
    total = total + np.where(marker, m["marker"], 0)
    out: I = total + np.where(flank & attacking, stands, 0)
    return out


def melee_row(t: Tables, difference: I) -> tuple[I, B, I, B]:
    """Seed 002 MELEE difference table: (win loss, win retreats, lose loss, lose retreats)."""
    row = t.melee_rows[np.minimum(np.abs(difference), len(t.melee_rows) - 1)]
    return row[..., 0], row[..., 1].astype(bool), row[..., 2], row[..., 3].astype(bool)


# -- exact odds as look-up tables ---------------------------------------------------------

ES_LO, ES_HI = -20, 40
"""Range of ``needed - modifier`` in the expected-stands table (beyond: the ends)."""
CH_LO, CH_HI = 2, 13
"""Range of a morale roll's ``number - modifier`` (2d6 >= 2 always, >= 13 never)."""
CH_DIFF = 24
"""Melee modifier differences are clipped to +-24 (2d6 - 2d6 spans only +-10)."""


@cache
def expected_stands_table(r: Rules | None = None) -> F:
    """``odds.expected_stands(needed, mod)`` for ``needed - mod`` in ES_LO..ES_HI.

    The odds depend only on the difference, so the floats are the AI's own.
    """
    r = r or rules()
    return np.array([odds.expected_stands(x, 0, r) for x in range(ES_LO, ES_HI + 1)])


def expected_stands(needed: I, mod: I, r: Rules | None = None) -> F:
    """Seed 002 FIRE exact expected stands lost, for many shots at once."""
    table = expected_stands_table(r)
    out: F = table[np.minimum(np.maximum(needed - mod, ES_LO), ES_HI) - ES_LO]
    return out


@cache
def charge_table() -> F:
    """``odds.charge_favourable`` over (charge need, stand need, melee difference).

    P(charge passes) and P(stands) depend on ``number - modifier`` only, the melee on
    the difference of the two modifiers only; the exact fractions are those the scalar
    AI converts, so the floats are equal.
    """
    n = CH_HI - CH_LO + 1
    out = np.zeros((n, n, 2 * CH_DIFF + 1))
    for a in range(n):
        for d in range(n):
            for k in range(2 * CH_DIFF + 1):
                out[a, d, k] = odds.charge_favourable(a + CH_LO, 0, d + CH_LO, 0, k - CH_DIFF, 0)
    return out


def charge_favourable(a_need: I, d_need: I, diff: I) -> F:
    """Exact P(a charge drives the enemy off), as ``odds.charge_favourable``."""
    out: F = charge_table()[
        np.minimum(np.maximum(a_need, CH_LO), CH_HI) - CH_LO,
        np.minimum(np.maximum(d_need, CH_LO), CH_HI) - CH_LO,
        np.minimum(np.maximum(diff, -CH_DIFF), CH_DIFF) + CH_DIFF,
    ]
    return out
