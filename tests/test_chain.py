"""Exported games that cannot be shortened unnoticed: counts, the hash chain, kept heads.

Issue "Exported games that cannot be shortened unnoticed": each forgery below is caught
by ``verify`` (with ``--head`` where only the head a player kept can catch it), naming
its place in the log; any single edit of an export either fails to load, fails to
verify, or leaves the game unchanged; old exports without a chain verify as before.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from umpire.dice import CommittedSource
from umpire.engine.chain import heads, identity
from umpire.engine.game import Game
from umpire.errors import UmpireError, VerifyError
from umpire.store import verify_export
from umpire.store.sqlite import Store


def committed_export(tmp_path: Path) -> dict[str, Any]:
    """The issue's game: a committed dice book, three rolls and a pick, ended."""
    store = Store(tmp_path / "c.db")
    store.create("x", Game.new("session", {"title": "x"}, CommittedSource(987654321)))
    for expr in ("2d6", "3d6", "d20"):
        store.play("x", store.load("x"), "roll", {"expr": expr})
    store.play("x", store.load("x"), "pick", {"options": ["a", "b", "c"], "count": 1})
    store.end("x")
    return store.export("x")


@pytest.fixture
def export(tmp_path: Path) -> dict[str, Any]:
    return committed_export(tmp_path)


def rechain(data: dict[str, Any]) -> dict[str, Any]:
    """A forger's finishing touch: recompute the chain, the head and the count to match."""
    g = data["game"]
    start = identity(g["module"], data["scenario"], g["source"], g["commitment"])
    links = heads(start, data["actions"])
    for action, link in zip(data["actions"], links, strict=True):
        action["chain"] = link
    for no, action in enumerate(data["actions"], 1):
        action["no"] = no
    g["identity"] = start
    g["head"] = links[-1] if links else start
    g["actions"] = len(data["actions"])
    return data


def kept(data: dict[str, Any]) -> str:
    """The head a player wrote down at the end: HEX@COUNT."""
    return f"{data['game']['head']}@{data['game']['actions']}"


def test_the_honest_export_verifies_against_its_head(export: dict[str, Any]) -> None:
    rep = verify_export(export, head=kept(export))
    assert rep.chained and rep.rolls_checked and rep.actions == 4
    assert rep.head == export["game"]["head"] == export["actions"][-1]["chain"]


def test_deleted_last_action_is_caught_by_the_count(export: dict[str, Any]) -> None:
    """The issue's report: the last action deleted used to verify 'OK: 3 actions'."""
    bad = copy.deepcopy(export)
    del bad["actions"][-1]
    with pytest.raises(VerifyError, match="says 4 actions but its log holds 3"):
        verify_export(bad)


def test_complete_forgery_of_a_shorter_log_is_caught_by_the_kept_head(
    export: dict[str, Any],
) -> None:
    """Deleting the last action and fixing the count and the chain: only the head catches it."""
    head = kept(export)
    bad = rechain(copy.deepcopy(export))
    del bad["actions"][-1]
    rechain(bad)
    verify_export(bad)  # self-consistent: without the head nothing is wrong
    with pytest.raises(VerifyError, match=r"shortened: it holds 3 actions.*after action 4"):
        verify_export(bad, head=head)


def test_extended_log_is_caught_by_the_kept_head(tmp_path: Path) -> None:
    store = Store(tmp_path / "e.db")
    store.create("y", Game.new("session", {"title": "y"}, CommittedSource(5)))
    store.play("y", store.load("y"), "roll", {"expr": "2d6"})
    head = f"{store.head('y')}@1"
    store.play("y", store.load("y"), "roll", {"expr": "2d6"})
    with pytest.raises(VerifyError, match="extended: it matches your head after action 1"):
        verify_export(store.export("y"), head=head)
    with pytest.raises(VerifyError, match="extended"):
        verify_export(store.export("y"), head=head.split("@")[0])


@pytest.mark.parametrize(
    ("forge", "needle"),
    [
        # a face, with its total changed to match (the dice check names the event)
        ("face", r"tampered roll at log event \d+ \(action 2"),
        # a total alone (re-execution gives another log)
        ("total", "action 1"),
        # a decision answer
        ("answer", "action 4"),
        # a deleted middle action, count fixed
        ("delete_middle", "action 2"),
        # an inserted action (a copy of the first), count fixed
        ("insert", "action 2"),
        # two swapped actions
        ("swap", "action 2"),
        # another scenario (title) under the same log
        ("scenario", "another game|replayed state differs|chain"),
        # the count alone
        ("count", "says 5 actions but its log holds 4"),
        # another seed with its own commitment: the dice no longer follow
        ("seed", r"tampered roll at log event \d+ \(action 1"),
    ],
)
def test_each_forgery_is_caught_with_its_place(
    export: dict[str, Any], forge: str, needle: str
) -> None:
    import hashlib

    bad = copy.deepcopy(export)
    acts = bad["actions"]
    if forge == "face":
        roll = acts[1]["events"][1]
        old = roll["draws"][0][2][0]
        new = 1 if old != 1 else 2
        roll["draws"][0][2][0] = new
        roll["dice"][0]["faces"][0] = new
        roll["dice"][0]["kept"] = sorted(roll["dice"][0]["faces"], reverse=True)
        roll["total"] += new - old
    elif forge == "total":
        acts[0]["events"][1]["total"] += 1
    elif forge == "answer":
        dec = next(e for e in acts[3]["events"] if e["kind"] == "decision")
        dec["answer"] = [o for o in dec["options"] if o not in dec["answer"]][:1]
    elif forge == "delete_middle":
        del acts[1]
        bad["game"]["actions"] = 3
        for no, a in enumerate(acts, 1):
            a["no"] = no
    elif forge == "insert":
        acts.insert(1, copy.deepcopy(acts[0]))
        bad["game"]["actions"] = 5
        for no, a in enumerate(acts, 1):
            a["no"] = no
    elif forge == "swap":
        acts[1], acts[2] = acts[2], acts[1]
        for no, a in enumerate(acts, 1):
            a["no"] = no
    elif forge == "scenario":
        bad["scenario"]["title"] = "another game"
    elif forge == "count":
        bad["game"]["actions"] = 5
    elif forge == "seed":
        bad["game"]["seed"] = "1"
        bad["game"]["commitment"] = hashlib.sha256(b"1").hexdigest()
    with pytest.raises(VerifyError, match=needle):
        verify_export(bad)


def test_changed_scenario_with_a_recomputed_chain_is_caught_by_the_head(
    export: dict[str, Any],
) -> None:
    """Moving the log onto another scenario and rechaining: the identity, so the head, differs."""
    bad = copy.deepcopy(export)
    bad["scenario"]["title"] = "another game"
    rechain(bad)
    with pytest.raises(VerifyError):
        verify_export(bad, head=kept(export))


def test_old_exports_without_a_chain_verify_and_say_so(export: dict[str, Any]) -> None:
    old = copy.deepcopy(export)
    for key in ("identity", "head"):
        del old["game"][key]
    for a in old["actions"]:
        del a["chain"]
    rep = verify_export(old)
    assert not rep.chained
    assert any("carries no hash chain" in n for n in rep.notes)
    assert rep.head == export["game"]["head"]  # the head is computed from the content
    path = Path(__file__).parent / "data" / "battle_saved_before_composition.json"
    rep = verify_export(json.loads(path.read_text()))
    assert not rep.chained and rep.actions == 61


METADATA = {("game", "name"), ("game", "created"), ("game", "parent")}
"""Fields that do not change the game (its name in a store, when it was made, its parent)."""


def leaves(obj: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every path to a scalar in a JSON value."""
    if isinstance(obj, dict):
        return [p for k, v in obj.items() for p in leaves(v, (*path, k))]
    if isinstance(obj, list):
        return [p for i, v in enumerate(obj) for p in leaves(v, (*path, i))]
    return [path]


def mutate(value: Any, k: int) -> Any:
    """Another value of a related kind."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + (k % 5) - 2 or value + 3
    if isinstance(value, float):
        return value * 1.5 + 1.0
    if isinstance(value, str):
        return value[:-1] if k % 2 and value else value + "x"
    return "x"


_EXPORT: dict[str, Any] = {}


def base_export(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    if not _EXPORT:
        _EXPORT.update(committed_export(tmp_path_factory.mktemp("chain")))
    return _EXPORT


@settings(
    max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=st.data())
def test_any_single_edit_fails_or_changes_nothing(
    tmp_path_factory: pytest.TempPathFactory, data: st.DataObject
) -> None:
    """Hypothesis: one edit anywhere in the export's JSON either fails to load with a clear
    error, fails verification, or leaves the game unchanged (metadata only)."""
    base = base_export(tmp_path_factory)
    paths = [p for p in leaves(base) if p[:2] not in METADATA]
    path = data.draw(st.sampled_from(paths))
    k = data.draw(st.integers(0, 9))
    bad = copy.deepcopy(base)
    node = bad
    for part in path[:-1]:
        node = node[part]
    new = mutate(node[path[-1]], k)
    if new == node[path[-1]]:
        return
    node[path[-1]] = new
    with pytest.raises(UmpireError):
        verify_export(bad)


def test_cli_end_prints_the_head_and_verify_checks_it(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """The issue's session at the CLI: end prints the head and count; show the current head;
    verify --head HEX@N catches the shortened export, and a malformed head is one line."""
    from test_acw_cli import one_line_error, run

    assert run(capsys, "session", "new", "x", "--dice", "committed")[0] == 0
    for expr in ("2d6", "3d6", "d20"):
        assert run(capsys, "session", "roll", "x", expr)[0] == 0
    code, out, _ = run(capsys, "games", "show", "x")
    assert code == 0 and "chain head after 3 actions: " in out
    code, out, _ = run(capsys, "games", "end", "x")
    assert code == 0
    head = out.split("--head ")[1].split()[0]
    assert "@3" in head and "3 actions; chain head " in out
    path = tmp_path / "x.json"
    assert run(capsys, "games", "export", "x", "-o", str(path))[0] == 0
    code, out, err = run(capsys, "games", "verify", str(path), "--head", head)
    assert code == 0, err
    assert "the hash chain holds" in out and "is the one you kept" in out
    assert out.count("note: ") == 1  # each note once
    data = rechain(json.loads(path.read_text()))
    del data["actions"][-1]
    path.write_text(json.dumps(rechain(data)))
    code, out, err = run(capsys, "games", "verify", str(path), "--head", head)
    one_line_error(code, out, err, "shortened: it holds 2 actions")
    code, out, err = run(capsys, "games", "verify", str(path), "--head", "abc")
    one_line_error(code, out, err, "--head wants 64 hex digits")
