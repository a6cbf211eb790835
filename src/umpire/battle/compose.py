"""Compose a scenario's rules: which module fills each role, checked at load.

A scenario's ``[rules]`` table names a module per role (``sequence``, ``combat``,
``status``, ``morale``, ``events``); a plain string such as ``rules = "quick_acw"`` names
one module for every role it provides. The status role, when not named, is the sequence
module's own if it has one (seed 004's ladder goes with its sequences), else the combat
module's; the morale role, when not named, is the combat module's.
A combination that cannot work is refused with one line naming both modules and why.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from umpire.battle.roles import ROLES, Composition, RoleModule, RulesSpec
from umpire.errors import UmpireError
from umpire.rules.data import on_change

if TYPE_CHECKING:
    from umpire.scenarios import Scenario


class CompositionError(UmpireError):
    """A scenario's rules name an unknown module, a missing role or an impossible mix."""


LEGACY = {"quick_acw": "quick-acw"}
"""Old module ids that scenarios and saves still use."""


def spec_of(rules: Any) -> RulesSpec:
    """A :class:`RulesSpec` from a scenario's ``rules`` value (a string or a table)."""
    if isinstance(rules, str):
        mid = LEGACY.get(rules, rules)
        mod = _module(mid, "rules")
        roles: dict[str, Any] = {
            r: mid for r in ("sequence", "combat", "status") if r in mod.provides
        }
        if "events" in mod.provides and not roles:
            roles["events"] = (mid,)
        return RulesSpec(**roles)
    data = rules if isinstance(rules, dict) else rules.model_dump()

    def named(role: str, default: str) -> str:
        mid = str(data.get(role) or default)
        return LEGACY.get(mid, mid)

    return RulesSpec(
        sequence=named("sequence", "quick-acw"),
        combat=named("combat", "quick-acw"),
        status=named("status", ""),
        events=tuple(data.get("events") or ()),
        first=data.get("first") or "",
        attacker=data.get("attacker") or "",
        cards=data.get("cards") or "brigade",
        options=tuple(sorted((data.get("options") or {}).items())),
        morale=named("morale", ""),
    )


def _module(mid: str, role: str) -> RoleModule:
    from umpire.rules import role_module, role_module_ids

    try:
        return role_module(mid)
    except KeyError:
        where = "" if role == "rules" else f" for {role}"
        raise CompositionError(
            f"unknown rules module '{mid}'{where} (known: {', '.join(role_module_ids())})"
        ) from None


def _filled(spec: RulesSpec) -> list[tuple[str, str]]:
    """(role, module id) for every role the spec fills, status resolved."""
    seq = _module(spec.sequence, "sequence")
    combat = _module(spec.combat, "combat")
    status = spec.status
    if not status:
        status = seq.id if "status" in seq.provides else combat.id
    out = [("sequence", seq.id), ("combat", combat.id), ("status", status)]
    out.append(("morale", spec.morale or combat.id))
    out += [("events", e) for e in spec.events]
    return out


def check(spec: RulesSpec) -> list[tuple[str, str]]:
    """Refuse an impossible composition with one line; return (role, module id) pairs."""
    filled = _filled(spec)
    seen_events: set[str] = set()
    for role, mid in filled:
        mod = _module(mid, role)
        if role not in mod.provides:
            raise CompositionError(
                f"{mid} provides no {role} role (it provides: {', '.join(mod.provides)})"
            )
        if role == "events":
            if mid in seen_events:
                raise CompositionError(f"events module '{mid}' is named twice")
            seen_events.add(mid)
    by_role: dict[str, list[str]] = {}
    for role, mid in filled:
        by_role.setdefault(role, []).append(mid)
    for role, mid in filled:
        for other, (allowed, why) in _module(mid, role).needs(role).items():
            for have in by_role.get(other, []):
                if allowed and have not in allowed:
                    raise CompositionError(
                        f"{role} '{mid}' cannot run with {other} '{have}': {why}"
                    )
            if allowed and other not in by_role:
                raise CompositionError(f"{role} '{mid}' needs {other} from {', '.join(allowed)}")
    known: dict[str, str] = {}
    for role, mid in filled:
        known.update(_module(mid, role).options)
    for name, _value in spec.options:
        if name not in known:
            have = ", ".join(sorted(known)) or "none"
            raise CompositionError(
                f"unknown rules option '{name}': no module in use reads it (options: {have})"
            )
    for side in (spec.first, spec.attacker):
        if side and side not in ("union", "confederate"):
            raise CompositionError(f"unknown side '{side}' (sides: confederate, union)")
    return filled


_CACHE: dict[tuple[Any, ...], Composition] = {}
on_change(_CACHE.clear)  # the roles hold their module's data: rebuilt when it is varied


def compose(spec: RulesSpec) -> Composition:
    """The composition for ``spec`` (checked; built once per distinct spec)."""
    key = spec.key()
    hit = _CACHE.get(key)
    if hit is not None:
        return hit
    filled = check(spec)
    modules = {mid: _module(mid, role) for role, mid in filled}
    objs: dict[str, Any] = {}
    events: list[Any] = []
    for role, mid in filled:
        obj = modules[mid].role(role, spec)
        if role == "events":
            events.append(obj)
        else:
            objs[role] = obj
    comp = Composition(
        spec, objs["sequence"], objs["combat"], objs["status"], events, modules, objs["morale"]
    )
    for obj in [objs["sequence"], objs["combat"], objs["status"], objs["morale"], *events]:
        bind = getattr(obj, "bind", None)
        if bind is not None:
            bind(comp)
    _CACHE[key] = comp
    return comp


def compose_for(s: Scenario) -> Composition:
    """The composition a scenario names."""
    return compose(spec_of(s.rules))


__all__ = ["ROLES", "CompositionError", "check", "compose", "compose_for", "spec_of"]
