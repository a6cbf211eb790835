"""Quick ACW keeps its results through the composable engine (issue: one tactical engine).

``tests/data/quick_acw_battles.json`` holds, for seeds 0..149 (scripted AI) and 0..49
(random policy) of both shipped scenarios, each battle's winner, turns, stands lost,
number of dice and digests of its faces, orders and final state. It was first recorded
with the engine before it was made composable (commit 8faa45d), and the composable
engine gave the very same 400 battles (commits 1a0714d to 3e14a1a). It was recorded
again once, when a charger blocked at its first step stopped turning into a base that
overlapped a friend (a rules fix: 55 of the 400 battles changed). The same seeds must
give the same battles.

Regenerate (only for a deliberate rules change, said in the commit):
``PYTHONPATH=src python tests/test_composition_identity.py``.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from umpire.ai import make_policy
from umpire.battle.run import play, state_hash
from umpire.battle.scenario import load_scenario

BEFORE = json.loads((Path(__file__).parent / "data" / "quick_acw_battles.json").read_text())


def digest(obj: object) -> str:
    return hashlib.sha256(json.dumps(obj, separators=(",", ":")).encode()).hexdigest()[:16]


def battle_row(name: str, kind: str, seed: int) -> list[object]:
    """The recorded row of one battle: players, seed, result and digests."""
    scen = load_scenario(name)
    pols = {"union": make_policy(kind, seed), "confederate": make_policy(kind, seed + 1000)}
    res = play(scen, seed, pols)
    return [
        kind,
        seed,
        res.winner,
        res.turns,
        res.losses["confederate"],
        res.losses["union"],
        len(res.faces),
        digest(res.faces),
        digest(res.orders),
        state_hash(res.state)[:16],
    ]


@pytest.mark.parametrize("name", sorted(BEFORE))
def test_same_seeds_same_battles(name: str) -> None:
    for row in BEFORE[name]:
        kind, seed = row[0], row[1]
        got = battle_row(name, kind, seed)
        assert got == row, f"{name} {kind} seed {seed} differs from the recorded battle"


def test_a_battle_saved_before_the_composable_engine_loads_verifies_and_plays_on(
    tmp_path: Path,
) -> None:
    """An export written by the engine before it was composable (module ``quick_acw``,
    61 actions of McPherson's Ridge, seed 5) still verifies, imports, and plays on."""
    from umpire.battle.game import pending
    from umpire.store import verify_export
    from umpire.store.sqlite import Store

    export = json.loads(
        (Path(__file__).parent / "data" / "battle_saved_before_composition.json").read_text()
    )
    assert export["game"]["module"] == "quick_acw"
    report = verify_export(export)
    assert report.actions == 61 and report.rolls_checked
    store = Store(tmp_path / "u.db")
    store.import_(export, "old")
    game = store.load("old")
    view, req = pending(game)
    assert req is not None
    order = make_policy("ai").decide(view, req)
    store.play("old", game, "order", {"order": list(order)})
    assert len(game.actions) == 62


if __name__ == "__main__":
    rows = {name: [battle_row(name, r[0], r[1]) for r in BEFORE[name]] for name in BEFORE}
    (Path(__file__).parent / "data" / "quick_acw_battles.json").write_text(
        "{\n"
        + ",\n".join(
            f"{json.dumps(k)}: [\n" + ",\n".join(json.dumps(r) for r in v) + "\n]"
            for k, v in rows.items()
        )
        + "\n}\n"
    )
