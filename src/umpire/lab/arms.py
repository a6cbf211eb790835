"""The arms of a run: the shipped rules, and each variant ``--vary`` or ``--rules-data`` names.

A ``--vary`` text is ``KEY=VALUE,KEY=VALUE,...`` (commas inside brackets belong to the
value). A key is one of

- ``MODULE.path.in.its.data`` (``quick-acw.sides.union.morale``, ``quick-acw.fire.foot``,
  ``quick-acw.fire.foot.2``, ``solo-events.mapping.numbers.urgent_bw``): a value in a
  module's data files, through the rules-data seam (``umpire.rules.data``);
- a role of the scenario's ``[rules]`` (``sequence``, ``combat``, ``status``, ``events``)
  or one of its fields (``first``, ``attacker``, ``cards``): a module swapped;
- an option of a module in use (``skirmish_fields=4``): ``[rules.options]``.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from umpire.errors import UmpireError
from umpire.rules.data import Overlay, UnknownKeyError, dir_overlay, parse_value, resolve_key
from umpire.scenarios import Scenario

ROLE_KEYS = ("sequence", "combat", "status", "events")
FIELD_KEYS = ("first", "attacker", "cards")
BLANK: dict[str, Any] = {
    "sequence": "quick-acw",
    "combat": "quick-acw",
    "status": "",
    "first": None,
    "attacker": None,
    "cards": "brigade",
}
"""What an empty value (``status=``) sets: the ``[rules]`` table's own default."""


@dataclass(frozen=True, slots=True)
class Arm:
    """One arm of a run: a label, the settings as typed, the data overlay, the [rules]."""

    label: str
    settings: tuple[str, ...] = ()
    overlay: Overlay = field(default_factory=Overlay)
    rules: tuple[tuple[str, Any], ...] | None = None
    """The scenario's ``[rules]`` table as this arm plays it (None: as the scenario has it)."""

    def scenario(self, scen: Scenario) -> Scenario:
        """The scenario as this arm plays it."""
        if self.rules is None:
            return scen
        from umpire.scenarios import RulesTable

        return scen.model_copy(update={"rules": RulesTable(**dict(self.rules))})

    def to_json(self) -> dict[str, Any]:
        """What the run stores about the arm (enough to play it again)."""
        return {
            "label": self.label,
            "settings": list(self.settings),
            "data": [[d, f, ".".join(k), v] for d, f, k, v in self.overlay.values],
            "rules_data": [list(p) for p in self.overlay.dirs],
            "rules": dict(self.rules) if self.rules is not None else None,
        }


SHIPPED = Arm("shipped rules")


def split_settings(text: str) -> list[str]:
    """``a=1,b=[1, 2],c="x, y"`` -> ``["a=1", "b=[1, 2]", 'c="x, y"']`` (brackets and
    quotes keep their commas)."""
    out: list[str] = []
    cur: list[str] = []
    depth = 0
    quote = ""
    for ch in text:
        if quote:
            quote = "" if ch == quote else quote
        elif ch in "\"'":
            quote = ch
        elif ch in "[{":
            depth += 1
        elif ch in "]}":
            depth -= 1
        if ch == "," and depth == 0 and not quote:
            out.append("".join(cur).strip())
            cur = []
        else:
            cur.append(ch)
    out.append("".join(cur).strip())
    return [s for s in out if s]


def _rules_dict(scen: Scenario) -> dict[str, Any]:
    from umpire.battle.compose import spec_of

    spec = spec_of(scen.rules)
    return {
        "sequence": spec.sequence,
        "combat": spec.combat,
        "status": spec.status,
        "events": list(spec.events),
        "first": spec.first or None,
        "attacker": spec.attacker or None,
        "cards": spec.cards,
        "options": dict(spec.options),
        **({"morale": spec.morale} if spec.morale else {}),
    }


def _options_known(rules: dict[str, Any]) -> dict[str, str]:
    from umpire.battle.compose import check, spec_of
    from umpire.rules import role_module

    known: dict[str, str] = {}
    for role, mid in check(spec_of(rules)):
        known.update(role_module(mid).options)
        del role
    return known


def parse_vary(text: str, scen: Scenario, label: str) -> Arm:
    """The arm a ``--vary`` text names (every key checked; one line naming a bad one)."""
    settings = split_settings(text)
    if not settings:
        raise UmpireError("--vary needs KEY=VALUE (e.g. quick-acw.sides.union.morale=7)")
    rules = _rules_dict(scen)
    touched_rules = False
    values: list[tuple[str, str, tuple[str, ...], Any]] = []
    options: list[tuple[str, str]] = []
    for item in settings:
        key, eq, raw = item.partition("=")
        key, raw = key.strip(), raw.strip()
        if not eq or not key:
            raise UmpireError(f"--vary takes KEY=VALUE, not '{item}'")
        if key in ROLE_KEYS or key in FIELD_KEYS:
            touched_rules = True
            if key == "events":
                words = [
                    w.strip().strip("'\"") for w in raw.strip("[]").replace("+", ",").split(",")
                ]
                rules["events"] = [w for w in words if w and w != "none"]
            else:
                rules[key] = raw or BLANK[key]
            continue
        if "." in key:
            value = parse_value(raw)
            folder, name, path = resolve_key(key, value)
            values.append((folder, name, path, value))
            continue
        options.append((key, raw))
    if options:
        touched_rules = True
        known = _options_known(rules)
        for key, raw in options:
            if key not in known:
                words = [*ROLE_KEYS, *FIELD_KEYS, *known]
                close = difflib.get_close_matches(key, words, n=3, cutoff=0.5)
                near = f" (nearest: {', '.join(close)})" if close else ""
                raise UnknownKeyError(
                    f"unknown --vary key '{key}': not MODULE.path (a data value), a role, "
                    f"a [rules] field or an option of the modules in use{near}"
                )
            rules["options"][key] = parse_value(raw)
    if touched_rules:
        from pydantic import ValidationError

        from umpire.battle.compose import check, spec_of
        from umpire.scenarios import RulesTable

        check(spec_of(rules))
        try:
            RulesTable(**rules)
        except ValidationError as exc:
            err = exc.errors()[0]
            where = ".".join(str(x) for x in err["loc"])
            raise UmpireError(f"--vary {where}: {err['msg']}") from None
    return Arm(
        label,
        tuple(settings),
        Overlay((), tuple(values)),
        tuple(sorted(rules.items())) if touched_rules else None,
    )


def parse_rules_data(path: str, label: str) -> Arm:
    """The arm of a ``--rules-data`` folder (a module's data files, edited)."""
    return Arm(label, (f"rules-data={path}",), dir_overlay(path))


def vary_keys(scen: Scenario) -> list[tuple[str, str, str]]:
    """Every ``--vary`` key a scenario's rules take, as (key, its value now, what it is): the
    roles and fields of ``[rules]``, the options of the modules in use, and every value in
    those modules' data files (``labels.toml`` holds texts, not numbers: left out)."""
    import json

    from umpire.battle.compose import check, spec_of
    from umpire.rules import role_module, role_module_ids
    from umpire.rules.data import data_dir, shipped_values

    rules = _rules_dict(scen)
    out = []
    for role in ROLE_KEYS:
        fill = [m for m in role_module_ids() if role in role_module(m).provides]
        now = rules[role]
        shown = ", ".join(now) or "none" if isinstance(now, list) else str(now or "(default)")
        out.append((role, shown, f"the module in this role: {', '.join(fill)}"))
    out += [(k, str(rules[k]), "a field of the scenario's [rules]") for k in FIELD_KEYS]
    in_use = list(dict.fromkeys(mid for _, mid in check(spec_of(rules))))
    for mid in in_use:
        for name, text in role_module(mid).options.items():
            now = rules["options"].get(name, "(default)")
            out.append((name, str(now), f"an option of {mid}: {text}"))
    folders: set[Path] = set()  # five-step and card-draw share one folder
    for mid in in_use:
        if data_dir(mid) in folders:
            continue
        folders.add(data_dir(mid))
        for key, value, name in shipped_values(mid):
            out.append((key, json.dumps(value), f"{mid} data ({name})"))
    return out
