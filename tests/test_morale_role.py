"""The morale test is a role of its own (issue 25: "a morale or any other test that a module
may replace is a seam of its own, not a method of the combat role").

Seed 002 MORALE ("Charge or Receive Charge": 2d6 against 8+ / 7+) and seed 003's contest of
officers and men (XII.A, which stands in for a morale test) fill the ``morale`` role; the
combat and status code asks ``b.comp.morale``, so a scenario's ``[rules] morale = "..."``
swaps the test without forking the combat module.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import TYPE_CHECKING, Any

import pytest

from umpire.ai import make_policy
from umpire.battle.compose import CompositionError, compose, compose_for, spec_of
from umpire.battle.run import play
from umpire.battle.scenario import load_scenario
from umpire.rules import ROLE_REGISTRY, role_module
from umpire.scenarios import RulesTable

if TYPE_CHECKING:
    from umpire.battle.engine import Battle
    from umpire.battle.roles import RulesSpec
    from umpire.battle.state import Unit
    from umpire.rules.labels import Labelled

ASKED: list[str] = []


class CoinMorale:
    """A test double: the unit passes on 4-6 of one d6, whatever the purpose."""

    id = "coin"

    def test(self, b: Battle, u: Unit, purpose: str) -> bool:
        ASKED.append(purpose)
        face = b.roll(1, 6, f"{u.name}: {purpose} by the coin (1d6)")[0]
        if b.narrate:
            b.say(f"  {u.name} {purpose}: the coin shows {face}")
        return face >= 4

    def pass_odds(self, b: Battle, u: Unit, purpose: str) -> Fraction:
        return Fraction(1, 2)


class CoinModule:
    """A role module that fills only the morale role."""

    id = "coin"
    name = "a coin for a morale test"
    seed = "-"
    provides = ("morale",)
    options: Mapping[str, str] = {}

    def defaults(self) -> list[Labelled]:
        return []

    def role(self, kind: str, spec: RulesSpec) -> Any:
        assert kind == "morale"
        return CoinMorale()

    def needs(self, kind: str) -> Mapping[str, tuple[frozenset[str], str]]:
        return {}


COIN = CoinModule()


@pytest.fixture
def coin(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(ROLE_REGISTRY, "coin", f"{__name__}:COIN")
    ASKED.clear()


def _with(name: str, **rules: Any) -> Any:
    scen = load_scenario(name)
    base = spec_of(scen.rules)
    table = RulesTable(
        sequence=base.sequence,
        combat=base.combat,
        status=base.status,
        first=base.first or None,
        options=dict(base.options),
        **rules,
    )
    return scen.model_copy(update={"rules": table})


def _ai() -> dict[str, Any]:
    return {"union": make_policy("ai"), "confederate": make_policy("ai")}


def _random(seed: int) -> dict[str, Any]:
    """Random orders: they charge whenever a charge is offered now and then."""
    return {
        "union": make_policy("random", seed=seed),
        "confederate": make_policy("random", seed=seed + 100),
    }


def test_each_combat_module_fills_the_morale_role_with_its_own_test() -> None:
    """Unnamed, the morale role is the combat module's: seed 002 MORALE for quick-acw (and
    004's sequences over it), seed 003 XII.A's contest for action-reaction."""
    assert compose_for(load_scenario("standard")).morale.id == "quick-acw"
    assert compose_for(load_scenario("standard_five_step")).morale.id == "quick-acw"
    assert compose_for(load_scenario("stone_wall")).morale.id == "action-reaction"


def test_seed002_charge_and_stand_tests_ask_the_morale_role_a_scenario_names(coin: None) -> None:
    """Seed 002 charge paragraph ('a charge test', 'the target must test morale to stand'):
    with ``morale = "coin"`` the quick-acw combat rolls the coin, not 2d6, and says so."""
    scen = _with("standard", morale="coin")
    comp = compose_for(scen)
    assert comp.morale.id == "coin"
    assert role_module("quick-acw").batch(comp) is None  # type: ignore[attr-defined]
    lines: list[str] = []
    for seed in range(6):
        res = play(scen, seed, _random(seed), narrate=True)
        lines += res.lines
        if "charge test" in ASKED and "stand test" in ASKED:
            break
    assert "charge test" in ASKED and "stand test" in ASKED
    assert any("charge test: the coin shows" in line for line in lines)
    assert not any("charge test: rolled" in line for line in lines)  # 002's 2d6 line


def test_seed002_charge_menu_quotes_the_named_morale_tests_odds(coin: None) -> None:
    """The charge menu's 'goes in' is the named test's exact odds (the coin's 1/2)."""
    from umpire.battle.run import new_battle
    from umpire.dice import SeededSource
    from umpire.rules.quick_acw import menu as M
    from umpire.rules.quick_acw import reach as RCH

    b = new_battle(_with("standard", morale="coin"), SeededSource(1))
    units = b.state.units
    for u in units:
        for v in units:
            if u.side != v.side:
                u.x, u.y = v.x, v.y - 6.0
                offer = M.charge_offer(b, u, v)
                if offer is not None:
                    assert RCH.charge_option(b, u, v) is not None
                    assert offer.odds["goes_in"] == 0.5
                    return
    pytest.fail("no charge offered")


def test_seed003_contests_ask_the_morale_role_a_scenario_names() -> None:
    """Seed 003 XII.A (the officers contest the men to rally or hold a unit): with
    ``morale = "quick-acw"`` the action-reaction battle rolls seed 002's 2d6 test instead."""
    scen = _with("stone_wall", morale="quick-acw")
    assert compose_for(scen).morale.id == "quick-acw"
    lines: list[str] = []
    for seed in range(4):
        lines += play(scen, seed, _ai(), narrate=True).lines
    assert any(": rolled " in line and " vs 8+" in line for line in lines), lines[:40]
    assert not any("against the men (2d10)" in line or "the men win" in line for line in lines)


def test_seed003_contest_needs_seed003s_officers() -> None:
    """Seed 003 XII.A's contest sets a unit's officers against its men: only 003's combat
    keeps officers, so naming it under seed 002's combat is refused in one line."""
    spec = spec_of({"sequence": "quick-acw", "combat": "quick-acw", "morale": "action-reaction"})
    with pytest.raises(CompositionError, match="morale 'action-reaction' cannot run with combat"):
        compose(spec)
