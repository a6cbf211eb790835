"""Issue 25, "the rest of the house": a battle changes its state through change operations
that keep the caches current and, on the saved path, log each change as it is made.

The Battle's operations (``place``, ``reshape``, ``take_off``, ``record``, ``restore``)
forget the cached answers they spoil, so a module need not; a saved battle logs a unit or
a leader through the action's context when an operation touches it (no diff of the whole
state at the end for them); games saved before, whose changes are all at the end of each
action, still verify.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from umpire.ai import make_policy
from umpire.battle.engine import Battle, Recorder
from umpire.battle.game import save_game
from umpire.battle.run import new_battle, play
from umpire.battle.scenario import load_scenario
from umpire.dice import SeededSource
from umpire.engine.game import VerifyError

OLD_SAVE = Path(__file__).parent / "data" / "battle_saved_before_composition.json"


def battle(name: str = "standard", seed: int = 3, decisions: int = 60) -> Battle:
    """A battle some decisions in, its caches warm (contacts, ranges, sight)."""
    scen = load_scenario(name)
    pols = {"union": make_policy("ai"), "confederate": make_policy("ai")}
    b = new_battle(scen, Recorder(SeededSource(seed)))
    for _ in range(decisions):
        req = b.next_request()
        assert req is not None
        b.apply(req, pols[req.side].decide(b, req))
    for u in b.state.units:
        if u.alive:
            b.touching(u)
    return b


class Log:
    """A journal that keeps what it is told (the saved path's, without a context)."""

    def __init__(self) -> None:
        self.seen: list[tuple[str, int]] = []

    def unit(self, u: Any) -> None:
        self.seen.append(("unit", u.i))

    def leader(self, ld: Any) -> None:
        self.seen.append(("leader", ld.i))


def test_reshape_and_take_off_keep_the_caches_current() -> None:
    """Issue 25: "caches are cleared by the engine, not by each module": a stand lost, a
    change of formation and a removal through the operations leave no stale cache (the
    engine's ``caches-current`` invariant), where the same writes made directly do."""
    b = battle()
    u = next(u for u in b.state.units if u.alive and u.stands > 2 and u.type == "foot")
    b.reshape(u, stands=u.stands - 1)
    assert b.stale() == []
    b.reshape(u, formation="column" if u.formation != "column" else "line")
    assert b.stale() == []
    v = next(v for v in b.state.units if v.alive and v.side != u.side and b.touching(v) == [])
    b.take_off(u)
    assert not u.alive and b.stale() == []
    assert all(ld.attached != u.i for ld in b.state.leaders)
    # the same change made behind the engine's back is caught by the invariant
    v.stands -= 1
    v.resize()
    assert b.stale() != []


def test_reshape_is_the_module_sequence_it_replaces() -> None:
    """``b.reshape(u, stands=n)`` is ``u.stands = n; u.resize(); b.changed(u)`` (quick ACW's
    lose_stands): the same base, the same cached answers afterwards."""
    a, c = battle(), battle()
    ua = next(u for u in a.state.units if u.alive and u.stands > 2)
    uc = c.state.units[ua.i]
    a.reshape(ua, stands=ua.stands - 1)
    uc.stands -= 1
    uc.resize()
    c.changed(uc)
    assert a.state.to_json() == c.state.to_json()
    assert a.versions() == c.versions()
    assert [a.touching(u) for u in a.state.units] == [c.touching(u) for u in c.state.units]


def test_the_operations_log_through_the_journal_only_on_the_saved_path() -> None:
    """A move, a reshape, a removal and a recorded flag are each logged once as made (with
    the leader that rides with a unit); the fast path has no journal and logs nothing."""
    b = battle()
    assert b.journal is None
    b.place(b.state.units[0], b.state.units[0].x, b.state.units[0].y)  # no journal: no error
    log = Log()
    b.journal = log
    u = next(u for u in b.state.units if u.alive and u.stands > 2)
    b.reshape(u, stands=u.stands - 1)
    u.marker = True
    b.record(u)
    assert log.seen == [("unit", u.i), ("unit", u.i)]
    led = next((ld for ld in b.state.leaders if ld.alive and ld.attached >= 0), None)
    if led is not None:
        w = b.state.units[led.attached]
        log.seen.clear()
        b.place(w, w.x, w.y)
        assert log.seen == [("leader", led.i), ("unit", w.i)]


def test_restore_undoes_a_trial_and_logs_what_it_put_back() -> None:
    """``restore`` puts a snapshot back with every cache forgotten (solo events' would-break
    trial); on the saved path it logs the units and leaders it changed back."""
    b = battle()
    snap = b.state.to_json()
    u = next(u for u in b.state.units if u.alive and u.stands > 2)
    b.reshape(u, stands=1)
    log = Log()
    b.journal = log
    b.restore(snap)
    assert b.state.to_json() == snap and b.stale() == []
    assert log.seen == [("unit", u.i)]


def saved(seed: int = 3) -> Any:
    """A standard battle saved through the engine (the saved-game path)."""
    scen = load_scenario("standard")
    pols = {"union": make_policy("ai"), "confederate": make_policy("ai")}
    res = play(scen, seed, pols)
    return save_game(scen, seed, res.orders), res


def test_the_saved_path_logs_changes_as_they_are_made() -> None:
    """Issue 25: "one path from action to log to state": a unit's change is logged when the
    operation makes it, before the action's later rolls (no longer all at its end); the
    saved game ends in the fast path's state and re-executes with no note."""
    game, res = saved()
    early = 0
    for a in game.actions:
        kinds = [e.kind for e in a.events]
        if "change" in kinds and "roll" in kinds[kinds.index("change") :]:
            early += 1
    assert early >= 5
    from umpire.battle.game import final_state

    assert final_state(game).to_json() == res.state
    assert game.reexecute() == []


def test_a_game_saved_before_issue_25_still_verifies() -> None:
    """An export made before the change operations (every change at the end of each
    action) verifies: re-execution logs them as made, the rolls, choices and states agree,
    and the report says so in one note."""
    from umpire.store import verify_export

    report = verify_export(json.loads(OLD_SAVE.read_text()))
    assert report.actions == 61 and report.rolls_checked
    assert any("log their changes in an earlier form" in n for n in report.notes)


def test_the_earlier_form_is_accepted_only_where_the_state_agrees() -> None:
    """The tolerance is for the form only: a new log moved into the earlier form verifies;
    one whose logged changes are not those the action makes is refused (its state's hash
    differs), and one with a change moved before a roll is not taken for the earlier form."""
    from umpire.engine.events import Event

    game, _ = saved()
    a = next(
        a
        for a in game.actions
        if "change" in (k := [e.kind for e in a.events])
        and "roll" in k[k.index("change") :]
        and "note" not in k[: k.index("change")]
    )
    head, rest = a.events[0], a.events[1:]
    # the earlier form: every change after the last roll and decision, notes last
    moved = (
        [e for e in rest if e.kind not in ("change", "note")]
        + [e for e in rest if e.kind == "change"]
        + [e for e in rest if e.kind == "note"]
    )
    a.events[:] = [head, *moved]
    notes = game.reexecute()
    assert any("1 action log their changes in an earlier form" in n for n in notes)
    # the same form with one unit's last change dropped: the state differs, refused
    changes = [i for i, e in enumerate(a.events) if e.kind == "change"]
    last_unit = next(
        i for i in reversed(changes) if a.events[i].data["path"][:2] == ["battle", "units"]
    )
    del a.events[last_unit]
    with pytest.raises(VerifyError):
        game.reexecute(hashes=False)
    # a change before a roll that is not where the action makes it: not the earlier form
    game2, _ = saved()
    a2 = game2.actions[a.no - 1]
    evs = a2.events[1:]
    first_roll = next(i for i, e in enumerate(evs) if e.kind == "roll")
    last_change = max(i for i, e in enumerate(evs) if e.kind == "change")
    if last_change > first_roll:
        ch = evs.pop(last_change)
        evs.insert(first_roll, Event(ch.kind, ch.data))
        a2.events[1:] = evs
        with pytest.raises(VerifyError):
            game2.reexecute(hashes=False)
