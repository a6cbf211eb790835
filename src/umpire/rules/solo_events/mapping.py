"""Seed 001's terms on the host rules: ``data/mapping.toml`` and the shipped event table.

Rules-notes 001: "each term maps onto that set's nearest mechanism, and the mapping is
written down in the module's data". The loader reads that mapping, joins it to the 20
rows of ``umpire/data/tables/solo_events.toml`` (ids, texts, who chooses, which troop
type) and checks it: every event mapped, every effect a known unit effect, every label
in ``data/labels.toml``, and (once the composition is known) every troop type one of
the combat module's. A bad entry is a :class:`DataFileError` naming file and line.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Collection, Iterable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from umpire.battle.effects import KEYS as FX_KEYS
from umpire.battle.effects import FxKey, fx_key
from umpire.errors import DataFileError

DATA = Path(__file__).parent / "data"
MAPPING = DATA / "mapping.toml"
LABELS = DATA / "labels.toml"

ADDITIVE = frozenset(
    {"fire_mod", "melee_mod", "charge_mod", "canister_mod", "reaction_fire_mod", "extra_die"}
)
"""Numeric effects: an event adds to what the unit has (and gives it back at turn end)."""

ACTS = (
    "commander_rides",
    "move_forward",
    "move_back",
    "disorder",
    "recover",
    "recovery_two_dice",
    "army_morale",
)
"""The actions this module carries out itself (``events.SoloEvents``)."""

WHEN = ("", "reaction")
"""When an event's ``act`` is carried out: when it is rolled, or in the player's reaction
phase (the sequence's ``reaction`` point, default ``reaction_phase``)."""

SPECIAL_UNITS = ("", "in_charge_range")
"""Eligibility words of the table that are not troop types: any unit, a unit able to charge."""


@dataclass(frozen=True, slots=True)
class Event:
    """One of the 20 events: the table's row joined to its host mapping."""

    id: str
    number: int
    name: str
    text: str
    chooser: str
    unit: str
    fx: tuple[tuple[FxKey, Any], ...]
    act: str
    label: str
    when: str = ""
    """"" (when rolled) or ``reaction`` (in the player's reaction phase)."""


@dataclass(frozen=True, slots=True)
class HostMapping:
    """Seed 001 on the host: troop types, numbers, the terms and the 20 events."""

    types: dict[str, str]
    recovery_needs: int
    urgent_bw: float
    leader_move: float
    loss_dice: tuple[int, int]
    terms: dict[str, tuple[str, str]]
    events: dict[str, Event]
    path: str

    def host_type(self, word: str) -> str:
        """The host's troop type for one of 001's troop words."""
        return self.types.get(word, word)

    def by_number(self, number: int) -> Event:
        """The event of a d20 face."""
        return next(e for e in self.events.values() if e.number == number)


def line_of(text: str, section: str, key: str | None = None) -> int | None:
    """The line of ``key`` in TOML table ``[section]`` (of the header when key is None)."""
    current = ""
    for no, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        m = re.match(r"^\[([^\[\]]+)\]", line)
        if m:
            current = m.group(1).strip()
            if key is None and current == section:
                return no
            continue
        if key is not None and current == section and re.match(rf"^{re.escape(key)}\s*=", line):
            return no
    return None


def _table_rows() -> list[tuple[str, int, str, dict[str, Any]]]:
    """(id, d20 face, text, effects) of each row of the shipped ``solo_events`` table."""
    from umpire.tables import builtin_tables

    table = builtin_tables().get("solo_events")
    return [(r.id, r.lo, r.text, dict(r.effects)) for r in table.rows]


def _label_ids() -> set[str]:
    from umpire.rules.labels import load_labels

    return {lab.id for lab in load_labels(LABELS)}


def load_mapping(
    path: Path = MAPPING,
    known_types: Collection[str] | None = None,
    *,
    rows: Iterable[tuple[str, int, str, dict[str, Any]]] | None = None,
    labels: Collection[str] | None = None,
) -> HostMapping:
    """Read and check a mapping file; ``known_types``: the combat module's troop types.

    The shipped file is read through the rules-data seam (``umpire.rules.data``)."""
    from umpire.rules import data as seam

    given, path = path, seam.source(path) if path == MAPPING else path
    file = str(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise DataFileError(f"cannot read: {exc.strerror}", file=file) from None
    try:
        raw: dict[str, Any] = tomllib.loads(text)
        if given == MAPPING:
            raw = seam.apply(MAPPING, raw)
    except tomllib.TOMLDecodeError as exc:
        m = re.search(r"line (\d+)", str(exc))
        raise DataFileError(
            f"bad TOML: {str(exc).split(' (at')[0]}", file=file, line=int(m.group(1)) if m else None
        ) from None

    def fail(message: str, section: str, key: str | None = None) -> DataFileError:
        return DataFileError(message, file=file, line=line_of(text, section, key))

    for section in ("types", "numbers", "terms", "events"):
        if not isinstance(raw.get(section), dict):
            raise DataFileError(f"missing table [{section}]", file=file)
    label_ids = set(_label_ids() if labels is None else labels)

    types: dict[str, str] = {}
    for word, host in raw["types"].items():
        if not isinstance(host, str) or not host:
            raise fail(f"seed 001's '{word}' must map to a troop type name", "types", word)
        if known_types is not None and host not in known_types:
            raise fail(
                f"seed 001's '{word}' maps to troop type '{host}', which the combat module "
                f"lacks (it has: {', '.join(sorted(known_types))})",
                "types",
                word,
            )
        types[str(word)] = host

    nums = raw["numbers"]
    try:
        needs = int(nums["recovery_needs"])
        urgent = float(nums["urgent_bw"])
        leader_move = float(nums["leader_move"])
        loss = str(nums["army_morale_loss"])
    except KeyError as exc:
        raise fail(f"[numbers] lacks {exc}", "numbers") from None
    except (TypeError, ValueError) as exc:
        raise fail(f"[numbers]: {exc}", "numbers") from None
    if not 1 <= needs <= 6:
        raise fail("recovery_needs must be a face of a d6 (1-6)", "numbers", "recovery_needs")
    if urgent < 0 or leader_move < 0:
        raise fail("distances must not be negative", "numbers")
    m = re.fullmatch(r"(\d+)d(\d+)", loss)
    if not m or int(m.group(1)) < 1 or int(m.group(2)) < 1:
        raise fail(
            f"army_morale_loss '{loss}' must be dice such as 1d3", "numbers", "army_morale_loss"
        )
    loss_dice = (int(m.group(1)), int(m.group(2)))

    terms: dict[str, tuple[str, str]] = {}
    for term, entry in raw["terms"].items():
        if not isinstance(entry, dict) or not entry.get("host") or not entry.get("label"):
            raise fail(f"term '{term}' needs host and label", "terms", term)
        if entry["label"] not in label_ids:
            raise fail(f"term '{term}': unknown label '{entry['label']}'", "terms", term)
        terms[str(term)] = (str(entry["host"]), str(entry["label"]))

    table = list(_table_rows() if rows is None else rows)
    mapped = raw["events"]
    events: dict[str, Event] = {}
    for eid, number, row_text, effects in table:
        entry = mapped.get(eid)
        if not isinstance(entry, dict):
            raise fail(f"event '{eid}' (001 event {number}) is not mapped", "events")
        unit = str(effects.get("unit", ""))
        if unit not in SPECIAL_UNITS and unit not in types:
            raise fail(f"event '{eid}' names troop '{unit}', which [types] does not map", "types")
        act = str(entry.get("act", ""))
        if act and act not in ACTS:
            raise fail(
                f"event '{eid}': unknown act '{act}' (known: {', '.join(ACTS)})", "events", eid
            )
        when = str(entry.get("when", ""))
        if when not in WHEN or (when and not act):
            raise fail(
                f"event '{eid}': when = '{when}' must be 'reaction' (with an act) or absent",
                "events",
                eid,
            )
        fx = entry.get("fx", {})
        if not isinstance(fx, dict) or not (fx or act):
            raise fail(f"event '{eid}' needs fx or act", "events", eid)
        fx_items: list[tuple[FxKey, Any]] = []
        for name, value in fx.items():
            key = fx_key(name)  # the one vocabulary: umpire.battle.effects.FxKey
            if key is None:
                raise fail(
                    f"event '{eid}': unknown unit effect '{name}' (known: {', '.join(FX_KEYS)})",
                    "events",
                    eid,
                )
            if not _fx_value_ok(key, value):
                raise fail(f"event '{eid}': bad value {value!r} for '{key}'", "events", eid)
            fx_items.append((key, value))
        label = str(entry.get("label", ""))
        if label and label not in label_ids:
            raise fail(f"event '{eid}': unknown label '{label}'", "events", eid)
        name, _, rest = row_text.partition(": ")
        events[eid] = Event(
            eid,
            number,
            name.strip(),
            rest.strip() or row_text,
            str(effects.get("chooser", "none")),
            unit,
            tuple(sorted(fx_items)),
            act,
            label,
            when,
        )
    stray = sorted(set(mapped) - set(events))
    if stray:
        raise fail(f"event '{stray[0]}' is not in the solo_events table", "events", stray[0])
    return HostMapping(
        types,
        needs,
        urgent,
        leader_move,
        loss_dice,
        terms,
        events,
        file,
    )


def _fx_value_ok(key: str, value: Any) -> bool:
    """A number for a modifier, harder/easier for terrain, true (or a count) for a flag."""
    if key in ADDITIVE:
        return isinstance(value, int) and not isinstance(value, bool)
    if key == "terrain":
        return value in ("harder", "easier")
    return value is True or (isinstance(value, int) and not isinstance(value, bool) and value > 0)


@cache
def shipped() -> HostMapping:
    """The shipped mapping (not yet checked against a combat module's troop types)."""
    return load_mapping(MAPPING)
