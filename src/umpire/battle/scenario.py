"""Load a scenario for play: parse it as data, then check it against its rules.

``umpire.scenarios`` holds the data model and parses the TOML (shape and limits); it sits
below the tactical engine, so the checks that need the engine live here: the rules
compose, unit ids are unique, leaders are known, every unit's formation belongs to its
combat role, and the units stand on the table without overlapping (docs/scenarios.md).
Every caller that plays a scenario loads it through :func:`load_scenario` or
:func:`parse_scenario`; ``umpire.scenarios.parse_scenario_unchecked`` is the data alone.
"""

from __future__ import annotations

import math

import numpy as np

from umpire.battle.compose import compose_for
from umpire.battle.setup import unit_from_spec
from umpire.board.geometry import corners, overlaps
from umpire.errors import DataFileError, UmpireError
from umpire.scenarios import Scenario, locate, parse_scenario_unchecked, resolve_path


def parse_scenario(text: str, file: str = "<scenario>") -> Scenario:
    """Parse, validate and check scenario text; raise DataFileError naming file:line."""
    scen = parse_scenario_unchecked(text, file)
    check_scenario(scen, text, file)
    return scen


def load_scenario(name_or_path: str) -> Scenario:
    """Load and check a scenario file or a shipped scenario by name."""
    path = resolve_path(name_or_path)
    return parse_scenario(path.read_text(encoding="utf-8"), str(path))


def check_scenario(s: Scenario, text: str, file: str) -> None:
    """Semantic checks: the rules compose, unique ids, known leaders, units placed well."""

    try:
        comp = compose_for(s)
        for role in (comp.sequence, comp.combat, comp.status, *comp.events):
            validate = getattr(role, "validate", None)
            if validate is not None:
                validate(s)
    except UmpireError as exc:
        raise DataFileError(f"rules: {exc}", file=file, line=locate(text, ("rules",))) from None
    bases = comp.combat.bases

    ids: set[str] = set()
    lids = {ld.id for ld in s.leaders}
    for i, ld in enumerate(s.leaders):
        if ld.attached and ld.attached not in {u.id for u in s.units}:
            raise DataFileError(
                f"leaders.{i}: attached to unknown unit '{ld.attached}'",
                file=file,
                line=locate(text, ("leaders", i, "attached")),
            )
    built = []
    for i, u in enumerate(s.units):
        if u.id in ids:
            raise DataFileError(
                f"units.{i}: duplicate unit id '{u.id}'",
                file=file,
                line=locate(text, ("units", i, "id")),
            )
        ids.add(u.id)
        if u.leader and u.leader not in lids:
            raise DataFileError(
                f"units.{i}: unknown leader '{u.leader}'",
                file=file,
                line=locate(text, ("units", i, "leader")),
            )
        if u.type != "cavalry" and u.mounted:
            raise DataFileError(
                f"units.{i}: only cavalry can be mounted",
                file=file,
                line=locate(text, ("units", i, "mounted")),
            )
        if u.formation not in comp.combat.formations:
            raise DataFileError(
                f"units.{i}: unknown formation '{u.formation}' for {comp.combat.id} "
                f"({', '.join(comp.combat.formations)})",
                file=file,
                line=locate(text, ("units", i, "formation")),
            )
        if u.type != "artillery" and u.limbered:
            raise DataFileError(
                f"units.{i}: only artillery can be limbered",
                file=file,
                line=locate(text, ("units", i, "limbered")),
            )
        unit = unit_from_spec(i, u, -1, bases)
        for cx, cy in corners(*unit.box()):
            if not (0 <= cx <= s.table.width and 0 <= cy <= s.table.height):
                raise DataFileError(
                    f"units.{i}: unit '{u.id}' is off the table "
                    f'({s.table.width:g}" x {s.table.height:g}")',
                    file=file,
                    line=locate(text, ("units", i, "x")),
                )
        built.append(unit)
    for i, a in enumerate(built):
        others = built[:i]
        if not others:
            continue
        ov = overlaps(
            *a.box(),
            np.array([o.x for o in others]),
            np.array([o.y for o in others]),
            np.array([o.theta for o in others]),
            np.array([o.hw for o in others]),
            np.array([o.hd for o in others]),
        )
        if ov.any():
            j = int(np.argmax(ov))
            raise DataFileError(
                f"units.{i}: unit '{a.id}' overlaps unit '{others[j].id}'",
                file=file,
                line=locate(text, ("units", i)),
            )
    for i, o in enumerate(s.objectives):
        if not (0 <= o.x <= s.table.width and 0 <= o.y <= s.table.height):
            raise DataFileError(
                f"objectives.{i}: objective '{o.name}' is off the table",
                file=file,
                line=locate(text, ("objectives", i)),
            )
    if not math.isfinite(s.table.width * s.table.height):
        raise DataFileError("table size must be finite", file=file)
