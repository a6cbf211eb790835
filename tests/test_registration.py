"""One registration point per rule module (issue 25, "The rest of the house").

A rule module declares itself once, in its package's ``module.toml`` (umpire.rules reads
it: ``REGISTRY``, ``ROLE_REGISTRY``, ``COMMANDS``, ``RESOLVERS``, ``ODDS``,
``TABLE_MODULES`` and the conformance suite's compositions). pyproject.toml cannot read
Python, so these tests hold its import contracts to the registrations and say what to
paste when they differ.
"""

from __future__ import annotations

import importlib
import tomllib
from pathlib import Path

import pytest

from umpire.rules import (
    MODULE_PACKAGES,
    RULES,
    SPECS,
    ModuleSpec,
    get_module,
    read_spec,
    role_module,
)

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = sorted(f"umpire.rules.{p}" for p in MODULE_PACKAGES)


def _contracts() -> dict[str, dict[str, object]]:
    raw = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    return {c["type"]: c for c in raw["tool"]["importlinter"]["contracts"]}


def _paste(key: str, names: list[str]) -> str:
    lines = "".join(f'    "{n}",\n' for n in names)
    return f"{key} = [\n{lines}]"


def test_every_package_under_rules_with_code_registers_itself() -> None:
    """A subpackage of umpire.rules is a rule module: it is listed in MODULE_PACKAGES and
    has a module.toml, else it is not loaded, listed or checked."""
    found = sorted(p.parent.name for p in RULES.glob("*/__init__.py"))
    unlisted = [p for p in found if p not in MODULE_PACKAGES]
    assert unlisted == [], f"add {unlisted} to umpire.rules.MODULE_PACKAGES"
    missing = [p for p in MODULE_PACKAGES if not (RULES / p / "module.toml").is_file()]
    assert missing == [], f"write src/umpire/rules/<package>/module.toml for {missing}"


def test_pyproject_forbids_the_core_every_registered_module() -> None:
    """The 'seams' contract forbids the core, AI, lab and CLI every registered module."""
    got = _contracts()["forbidden"]["forbidden_modules"]
    assert got == PACKAGES, "in pyproject.toml's forbidden contract write\n" + _paste(
        "forbidden_modules", PACKAGES
    )


def test_pyproject_keeps_every_registered_module_independent() -> None:
    """The independence contract names every registered module (they import no other)."""
    got = _contracts()["independence"]["modules"]
    assert got == PACKAGES, "in pyproject.toml's independence contract write\n" + _paste(
        "modules", PACKAGES
    )


def test_pyproject_layers_put_every_registered_module_in_the_rule_module_layer() -> None:
    """The layers contract (docs/design.md, "Layers (issue 25)") has one layer of every
    rule module, between ai and battle."""
    layers = _contracts()["layers"]["layers"]
    assert isinstance(layers, list)
    want = " | ".join(PACKAGES)
    at = layers.index("umpire.ai") + 1
    assert layers[at] == want, (
        f'in pyproject.toml\'s layers contract, the layer after "umpire.ai" is\n    "{want}",'
    )
    assert layers[at + 1] == "umpire.battle"


def test_every_registered_place_loads_and_is_what_it_says() -> None:
    """Each place a module.toml names imports, and a module's id is the id registered."""
    for spec in SPECS:
        for mid in spec.games:
            assert get_module(mid).id == mid
        for rid in spec.roles:
            assert role_module(rid).id == rid
        places = [t for t, _ in spec.commands.values()] + [*spec.resolvers, *spec.odds]
        for target in places:
            path, _, attr = target.partition(":")
            assert hasattr(importlib.import_module(path), attr), target
        assert set(spec.tables.values()) <= set(spec.games), spec.package


def test_a_bad_registration_names_its_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A misspelt key or a place without ':ATTRIBUTE' is refused, naming module.toml."""
    from umpire import rules
    from umpire.errors import DataFileError

    (tmp_path / "x").mkdir()
    monkeypatch.setattr(rules, "RULES", tmp_path)
    (tmp_path / "x" / "module.toml").write_text('role = {a = "roles:MODULE"}\n')
    with pytest.raises(DataFileError, match=r"module.toml.*unknown keys role"):
        read_spec("x")
    (tmp_path / "x" / "module.toml").write_text('[roles]\na = "roles.MODULE"\n')
    with pytest.raises(DataFileError, match="is not 'submodule:ATTRIBUTE'"):
        read_spec("x")
    (tmp_path / "x" / "module.toml").write_text('odds = [":ODDS"]\n[roles]\na = "roles:M"\n')
    assert read_spec("x") == ModuleSpec(
        "x", roles={"a": "umpire.rules.x.roles:M"}, odds=("umpire.rules.x:ODDS",)
    )


def test_the_worked_example_in_engine_api_is_a_registration_read_spec_accepts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """docs/engine-api.md, "Registering a rule module": the example file is what it says."""
    import re

    from umpire import rules

    doc = (ROOT / "docs" / "engine-api.md").read_text(encoding="utf-8")
    m = re.search(r"```toml\n(# src/umpire/rules/night_march/module.toml\n.*?)```", doc, re.S)
    assert m is not None
    (tmp_path / "night_march").mkdir()
    (tmp_path / "night_march" / "module.toml").write_text(m.group(1))
    monkeypatch.setattr(rules, "RULES", tmp_path)
    spec = read_spec("night_march")
    assert spec.roles == {"night-march": "umpire.rules.night_march:MODULE"}
    assert spec.commands["night"][0] == "umpire.rules.night_march.cli:night_app"
    assert spec.conformance == {"002+005": '[rules]\nevents = ["night-march"]'}
