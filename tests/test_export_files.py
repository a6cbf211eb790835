"""Issue 21, "Hard edges for files and expressions": hostile export files to `games import`
and `games verify`, two processes saving into one game, and verify's headline on typed dice.

Each refusal is one line (`umpire: error: FILE: field: what`), exit 2, no traceback, and the
save file is byte for byte what it was (nothing half-stored).
"""

from __future__ import annotations

import copy
import json
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from umpire.cli.main import main
from umpire.dice import CommittedSource, SeededSource, TypedDice
from umpire.engine.game import Game
from umpire.errors import UmpireError
from umpire.store import Store, verify_export
from umpire.store.shape import MAX_DEPTH, too_deep

Data = dict[str, Any]


def _book(path: Path) -> Data:
    """A finished committed dice book with every kind of event: rolls, a table, a random
    pick (a decision), a deck and a draw; exported."""
    store = Store(path)
    game = Game.new("session", {"title": "book"}, CommittedSource(11))
    game.act("roll", {"expr": "2d6+1", "purpose": "fire"})
    game.act("table", {"table": "cwb_union_events"})
    game.act("pick", {"options": ["Hood", "McLaws", "Pickett"], "purpose": "who"})
    game.act("deck", {"name": "box", "cards": ["A", "B", "C"]})
    game.act("draw", {"deck": "box"})
    store.create("book", game)
    store.end("book")
    data: Data = store.export("book")
    store.close()
    return data


@pytest.fixture(scope="module")
def book(tmp_path_factory: pytest.TempPathFactory) -> Data:
    return _book(tmp_path_factory.mktemp("book") / "make.db")


def _dump(db: Path) -> list[str]:
    """The whole save file as SQL (to see that a refusal changed nothing)."""
    if not db.exists():
        return []
    conn = sqlite3.connect(db)
    try:
        return list(conn.iterdump())
    finally:
        conn.close()


def _cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def _refused(err: str, file: Path, needle: str) -> None:
    assert err.startswith(f"umpire: error: {file}"), err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    assert needle in err, err


def test_the_book_has_every_event_kind_and_verifies(book: Data) -> None:
    """The fixture covers the exporter's every event kind (so the mutations below reach all)."""
    kinds = {e["kind"] for a in book["actions"] for e in a["events"]}
    assert kinds >= {"action", "roll", "lookup", "decision", "change", "draw"}
    assert verify_export(book).rolls_checked


def _event(data: Data, kind: str) -> Data:
    event: Data = next(e for a in data["actions"] for e in a["events"] if e["kind"] == kind)
    return event


MUTATIONS: list[tuple[str, Callable[[Data], None], str]] = [
    (
        "a draw that is not [position, sides, faces]",
        lambda d: _event(d, "roll").update(draws=[["a"]]),
        "actions[0].events[1].draws[0]: a draw is [position, sides, [faces]]",
    ),
    ("a draw that is a number", lambda d: _event(d, "roll").update(draws=[5]), "draws[0]"),
    (
        "a face off the die",
        lambda d: _event(d, "roll")["draws"][0][2].__setitem__(0, 7),
        "faces must be a list of whole numbers 1 to 6",
    ),
    (
        "a draw marked other than typed",
        lambda d: _event(d, "roll")["draws"][0].append("forged"),
        'fourth entry can only be "typed"',
    ),
    (
        "a change path starting with a list position",
        lambda d: _event(d, "change").update(path=[0]),
        "path: must start with a key",
    ),
    ("an empty change path", lambda d: _event(d, "change").update(path=[]), "path: must not"),
    (
        "a negative list position",
        lambda d: _event(d, "change").update(path=["history", -1]),
        "a list position >= 0",
    ),
    ("an unknown change", lambda d: _event(d, "change").update(op="zap"), "events[2].op"),
    (
        "an inc of a string",
        lambda d: _event(d, "change").update(op="inc", value="x"),
        "an 'inc' change adds a number",
    ),
    ("an event without kind", lambda d: _event(d, "roll").pop("kind"), "needs its 'kind'"),
    (
        "an unknown event kind",
        lambda d: _event(d, "roll").update(kind="miracle"),
        "unknown event kind 'miracle'",
    ),
    ("an action without events", lambda d: d["actions"][0].update(events=[]), "events"),
    (
        "an action whose first event is not its own",
        lambda d: d["actions"][0]["events"].pop(0),
        "its first event must be its own 'action' event",
    ),
    ("a field no export has", lambda d: d["game"].update(colour="red"), "game.colour"),
    ("a state hash that is no hash", lambda d: d["actions"][0].update(state_hash="zz"), "hash"),
    ("a number as text", lambda d: d["actions"][0].update(no="1"), "actions[0].no"),
    ("a lookup without its trace", lambda d: _event(d, "lookup").pop("trace"), "trace"),
    (
        "a trace modifier that is no number",
        lambda d: _event(d, "lookup")["trace"][0].update(mod="+1"),
        "trace[0].mod",
    ),
    (
        "a decision's answer that is not a list",
        lambda d: _event(d, "decision").update(answer="Hood"),
        "answer",
    ),
    ("an unknown module", lambda d: d["game"].update(module="chess"), "game.module"),
    ("an unknown dice source", lambda d: d["game"].update(source="loaded"), "game.source"),
]


@pytest.mark.parametrize(("what", "mutate", "needle"), MUTATIONS, ids=[m[0] for m in MUTATIONS])
def test_a_malformed_export_is_refused_by_import_and_verify_naming_the_field(
    what: str,
    mutate: Callable[[Data], None],
    needle: str,
    book: Data,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    _private_db: Path,
) -> None:
    """Issue 21: "a malformed `draws` entry crashes verify (and import accepts the file, so it
    sits in the save file); ... a change path like `[0]` crash[es] import. Validate an export's
    whole shape before anything is stored, refuse in one line naming the field." """
    _cli(capsys, "session", "new", "other", "--seed", "1")  # the save file holds a game
    data = copy.deepcopy(book)
    mutate(data)
    bad = tmp_path / "game.json"
    bad.write_text(json.dumps(data))
    before = _dump(_private_db)
    code, _, err = _cli(capsys, "games", "import", str(bad), "--name", "imported")
    assert code == 2, what
    _refused(err, bad, needle)
    assert _dump(_private_db) == before
    code, _, err = _cli(capsys, "games", "verify", str(bad))
    assert code == 2, what
    _refused(err, bad, needle)


def test_deeply_nested_json_is_refused_before_it_is_parsed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], book: Data
) -> None:
    """Issue 21: "deeply nested JSON gives a RecursionError traceback" (import and verify)."""
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000)
    unclosed = tmp_path / "unclosed.json"  # was "bad JSON: maximum recursion depth exceeded"
    unclosed.write_text("[" * 100_000)
    nested = tmp_path / "nested.json"
    data = copy.deepcopy(book)
    data["scenario"]["title"] = json.loads("[" * 500 + "]" * 500)
    nested.write_text(json.dumps(data, indent=1))
    for file in (deep, unclosed, nested):
        for cmd in ("import", "verify"):
            code, _, err = _cli(capsys, "games", cmd, str(file))
            assert code == 2
            _refused(err, file, f"nests deeper than {MAX_DEPTH} levels")
    assert err.startswith(f"umpire: error: {nested}:"), "the line where it goes too deep"


def test_too_deep_counts_brackets_outside_strings() -> None:
    """The depth check ignores brackets inside strings and leaves bad JSON to the parser."""
    assert too_deep('{"a": "[[[[[[[["}', limit=2) is None
    assert too_deep("[[[]]]", limit=3) is None
    assert too_deep("[[[[]]]]", limit=3) == 1
    assert too_deep('[\n[\n"]"\n,[[\n]]]]', limit=3) == 4
    assert too_deep("[[", limit=2) is None  # unbalanced: the parser reports it
    assert too_deep("]]]]]]", limit=2) is None
    assert too_deep("[[[[", limit=2) == 1  # unbalanced but opening more levels than allowed
    assert too_deep('{"a":\n' * 3 + "1", limit=2) == 3
    assert too_deep(r'["\"[[[[[[\\", {}]', limit=2) is None  # escaped quotes, backslashes


def test_a_scenario_the_module_cannot_read_is_refused_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], _private_db: Path
) -> None:
    """Issue 21: "a non-table OOB entry ... crash[es] import" (the Gettysburg module's order
    of battle inside an export's scenario)."""
    assert _cli(capsys, "cwb", "new", "--game", "c", "--seed", "3")[0] == 0
    good = tmp_path / "c.json"
    assert _cli(capsys, "games", "export", "c", "-o", str(good))[0] == 0
    data = json.loads(good.read_text())
    for broken, field in (
        (lambda d: d["scenario"]["oob"]["army"].__setitem__(0, 7), "army[0]: must be a table"),
        (lambda d: d["scenario"]["oob"].update(corps=7), "corps: must be a list of tables"),
        (lambda d: d["scenario"].update(oob=[1]), "order of battle must be a table, not list"),
        (
            lambda d: d["scenario"]["oob"]["division"][0].update(brigades=["x"]),
            "brigades[0]: must be a table, not str",
        ),
    ):
        copied = copy.deepcopy(data)
        broken(copied)
        bad = tmp_path / "oob.json"
        bad.write_text(json.dumps(copied))
        before = _dump(_private_db)
        for cmd in ("import", "verify"):
            code, _, err = _cli(capsys, "games", cmd, str(bad))
            assert code == 2
            _refused(err, bad, "scenario: ")
            assert field in err, err
        assert _dump(_private_db) == before


def test_a_battle_scenario_field_is_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], _private_db: Path
) -> None:
    """A battle export whose scenario breaks the scenario model (a unit's facing of 1e400, a
    count as text): refused in one line naming the scenario's field, nothing stored."""
    from umpire.battle.scenario import load_scenario

    store = Store(tmp_path / "b.db")
    scenario = load_scenario("standard").to_json()
    store.create("b", Game.new("battle", scenario, SeededSource(1)))
    data = store.export("b")
    for field, value, needle in (
        ("stands", '"many"', "scenario.units[0].stands: Input should be a valid integer"),
        ("facing", "1e400", "bad JSON: the number 1e400 is too large"),
    ):
        copied = copy.deepcopy(data)
        copied["scenario"]["units"][0][field] = "@@"
        bad = tmp_path / "battle.json"
        bad.write_text(json.dumps(copied).replace('"@@"', value))
        before = _dump(_private_db)
        for cmd in ("import", "verify"):
            code, _, err = _cli(capsys, "games", cmd, str(bad))
            assert code == 2
            _refused(err, bad, needle)
        assert _dump(_private_db) == before


def _typed_game(db: Path) -> Path:
    store = Store(db)
    game = Game.new("session", {"title": "t"}, CommittedSource(7))
    inner = game.source
    game.source = TypedDice(inner, [6, 6, 6])
    game.act("roll", {"expr": "3d6", "purpose": "charge"})
    game.source = inner
    game.act("roll", {"expr": "2d6", "purpose": "fire"})
    store.create("t", game)
    store.end("t")
    out = db.parent / "typed.json"
    out.write_text(json.dumps(store.export("t")))
    store.close()
    return out


def test_verify_headline_counts_checked_and_typed_dice(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 21: "an export whose committed dice are marked 'typed' ... verifies with the
    headline 'every die matches the seed'. The headline must say how many dice were checked
    and how many were typed"."""
    file = _typed_game(tmp_path / "t.db")
    code, out, err = _cli(capsys, "games", "verify", str(file))
    assert code == 0, err
    headline = out.splitlines()[0]
    assert "every die matches the seed" not in headline
    assert "2 of 5 dice checked against the seed" in headline
    assert "3 typed by hand at the table, NOT checked" in headline
    code, out, _ = _cli(capsys, "games", "verify", str(file), "--json")
    report = json.loads(out)
    assert (report["dice"], report["dice_checked"], report["dice_typed"]) == (5, 2, 3)


def test_verify_headline_without_typed_dice_says_all_checked(
    book: Data, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    file = tmp_path / "book.json"
    file.write_text(json.dumps(book))
    code, out, _ = _cli(capsys, "games", "verify", str(file))
    dice = verify_export(book).dice
    assert code == 0 and f"all {dice} dice checked: every die matches the seed" in out


# -- two processes, one game ---------------------------------------------------------------


def _two(db: Path) -> tuple[Store, Store]:
    """Two real connections to one save file (as two processes have), a game in it."""
    a, b = Store(db), Store(db)
    a.create("g", Game.new("session", {"title": "g"}, SeededSource(1)))
    return a, b


def test_two_players_rolling_into_one_game_the_second_is_refused(tmp_path: Path) -> None:
    """Issue 21: "Two processes rolling into the same game at once: the loser gets an
    sqlite3.IntegrityError traceback. Check inside the write transaction and refuse in one
    line ('the game changed; run it again')". Both load, A saves, then B saves."""
    a, b = _two(tmp_path / "u.db")
    game_a, game_b = a.load("g"), b.load("g")
    a.play("g", game_a, "roll", {"expr": "2d6", "purpose": ""})
    before = _dump(tmp_path / "u.db")
    with pytest.raises(UmpireError, match=r"changed while this ran.*run it again") as exc:
        b.play("g", game_b, "roll", {"expr": "3d6", "purpose": ""})
    assert "\n" not in str(exc.value)
    assert _dump(tmp_path / "u.db") == before
    assert [r.params["expr"] for r in b.records("g")] == ["2d6"]
    # Run again: B loads the game as it now is and its roll is saved after A's.
    b.play("g", b.load("g"), "roll", {"expr": "3d6", "purpose": ""})
    assert [r.params["expr"] for r in a.records("g")] == ["2d6", "3d6"]


def test_an_action_after_another_process_undid_and_replayed_is_refused(tmp_path: Path) -> None:
    """The same count of actions is not enough: B undid A's last roll and rolled another."""
    a, b = _two(tmp_path / "u.db")
    a.play("g", a.load("g"), "roll", {"expr": "2d6", "purpose": ""})
    game_a = a.load("g")
    b.undo("g", 0)
    b.play("g", b.load("g"), "roll", {"expr": "d20", "purpose": ""})
    with pytest.raises(UmpireError, match="changed while this ran"):
        a.play("g", game_a, "roll", {"expr": "3d6", "purpose": ""})
    assert [r.params["expr"] for r in a.records("g")] == ["d20"]


def test_an_action_racing_games_end_is_refused_inside_the_transaction(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 21: "the same for an action racing `games end`". A reads the game as open, then
    B ends it before A's write begins: A's transaction sees it ended and saves nothing."""
    a, b = _two(tmp_path / "u.db")
    game_a = a.load("g")
    stale = a.info("g")
    b.end("g")
    monkeypatch.setattr(a, "info", lambda name: stale)  # whatever A read before, it is stale
    with pytest.raises(UmpireError, match="has ended"):
        a.play("g", game_a, "roll", {"expr": "2d6", "purpose": ""})
    assert b.records("g") == []


def test_two_processes_at_the_cli_the_second_gets_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], _private_db: Path
) -> None:
    """At the terminal: a roll whose game changed between its load and its save (another
    process's roll lands in between) ends in one line, exit 2, nothing saved."""
    from umpire.cli import common

    assert _cli(capsys, "session", "new", "g", "--seed", "2")[0] == 0
    real = Store.load

    def load_then_other_process_rolls(self: Store, name: str, *args: Any, **kw: Any) -> Game:
        game = real(self, name, *args, **kw)
        other = Store(self.path)
        other.play(name, real(other, name), "roll", {"expr": "d6", "purpose": "other"})
        other.close()
        return game

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(Store, "load", load_then_other_process_rolls)
        code, _, err = _cli(capsys, "session", "roll", "g", "2d6")
    assert code == 2
    assert err.startswith("umpire: error: the game 'g' changed while this ran")
    assert err.count("\n") == 1
    assert [r.params["purpose"] for r in common.open_store().records("g")] == ["other"]


# -- property-based: random and mutated files ----------------------------------------------

JSONV = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**6), 10**6) | st.text(max_size=8),
    lambda kids: (
        st.lists(kids, max_size=3) | st.dictionaries(st.text(max_size=6), kids, max_size=3)
    ),
    max_leaves=8,
)


def _paths(value: Any, at: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place in a JSON value (to mutate one)."""
    out = [at]
    if isinstance(value, dict):
        for k, v in value.items():
            out += _paths(v, (*at, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out += _paths(v, (*at, i))
    return out


@st.composite
def mutated(draw: st.DrawFn, base: Data) -> str:
    """The book's export with one to three places replaced, dropped or given an extra key,
    or (sometimes) random JSON or random text."""
    how = draw(st.sampled_from(["mutate"] * 8 + ["json", "text"]))
    if how == "json":
        return json.dumps(draw(JSONV))
    if how == "text":
        return draw(st.text(max_size=40))
    data = copy.deepcopy(base)
    for _ in range(draw(st.integers(1, 3))):
        paths = [p for p in _paths(data) if p]
        path = draw(st.sampled_from(paths))
        parent = data
        for key in path[:-1]:
            parent = parent[key]
        op = draw(st.sampled_from(["replace", "replace", "drop", "extra"]))
        if op == "replace":
            parent[path[-1]] = draw(JSONV)
        elif op == "drop":
            del parent[path[-1]]
        elif isinstance(parent, dict):
            parent[draw(st.text(max_size=5))] = draw(JSONV)
    return json.dumps(data)


@pytest.mark.parametrize("cmd", ["import", "verify"])
@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_random_and_mutated_exports_never_give_a_traceback(
    cmd: str,
    data: st.DataObject,
    book: Data,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    _private_db: Path,
) -> None:
    """Issue 21: random and mutated export files to `games import` and `games verify`: a
    result or a one-line refusal naming the file, never a traceback; the save file is
    unchanged after a refusal."""
    text = data.draw(mutated(book))
    file = tmp_path / "game.json"
    file.write_text(text)
    before = _dump(_private_db)
    args = ["games", cmd, str(file)] + (["--name", "x"] if cmd == "import" else [])
    code, _, err = _cli(capsys, *args)  # anything but an UmpireError escapes and fails here
    if code == 0:
        if cmd == "import":
            Store(_private_db).delete("x")
        return
    assert code == 2
    assert err.startswith(f"umpire: error: {file}"), err
    assert err.count("\n") == 1
    assert _dump(_private_db) == before


def test_parameters_the_rules_choke_on_are_one_line(
    book: Data, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A file whose dice, changes and hashes all hold but whose action parameters make the
    rules fail in any way (here dice notation nested 3,000 deep, a RecursionError before
    issue 21's dice limits): verify's re-execution names the action, in one line."""
    data = copy.deepcopy(book)
    expr = "(" * 3000 + "2d6+1" + ")" * 3000
    data["actions"][0]["params"]["expr"] = expr
    data["actions"][0]["events"][0]["params"]["expr"] = expr
    data["game"].update(identity=None, head=None)
    for action in data["actions"]:
        action["chain"] = None
    bad = tmp_path / "game.json"
    bad.write_text(json.dumps(data))
    code, _, err = _cli(capsys, "games", "verify", str(bad))
    assert code == 2
    _refused(err, bad, "action 1 (roll) does not replay")


# -- property-based: random argument vectors to `games import` --------------------------------

NAMES = st.one_of(
    st.sampled_from(["x", "book", "", " ", "\t", "a/b", "a@3", "\x1b[2J", "é", "x" * 81]),
    st.text(max_size=12),
)


@st.composite
def import_argv(draw: st.DrawFn, files: dict[str, Path]) -> list[str]:
    """``games import`` with a file (a good export, a mangled one, a missing one, a folder,
    random bytes), sometimes ``--name`` and a random name, and sometimes junk words."""
    out = ["games", "import"]
    parts: list[list[str]] = [[str(files[draw(st.sampled_from(sorted(files)))])]]
    for _ in range(draw(st.integers(0, 2))):
        parts.append(["--name", draw(NAMES)])
    for _ in range(draw(st.integers(0, 1))):
        parts.append([draw(st.sampled_from(["--name", "--force", "-n", "--", "--json"]))])
    if draw(st.integers(0, 4)) == 0:
        parts.append([draw(st.text(max_size=6))])
    for part in draw(st.permutations(parts)):
        out += part
    return out


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_random_import_argument_vectors_never_give_a_traceback(
    data: st.DataObject,
    book: Data,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    _private_db: Path,
) -> None:
    """Issue 21, done when: random argument vectors to `games import` (files good and bad,
    names of any text, missing and unknown options): a game imported under a name `games
    list` can show, or one line on stderr with the save file unchanged; never a traceback."""
    good = tmp_path / "good.json"
    good.write_text(json.dumps(book))
    mangled = tmp_path / "mangled.json"
    mangled.write_text(json.dumps({**book, "actions": [{"no": 1}]}))
    noise = tmp_path / "noise.bin"
    noise.write_bytes(bytes(range(256)) * 4)
    files = {"good": good, "mangled": mangled, "noise": noise}
    files.update(missing=tmp_path / "none.json", folder=tmp_path)
    args = data.draw(import_argv(files))
    before = _dump(_private_db)
    code, _, err = _cli(capsys, *args)  # anything but an UmpireError escapes and fails here
    assert code in (0, 2), (args, err)
    if code == 2:
        assert err.startswith("umpire: error: ") and err.count("\n") == 1, (args, err)
        assert _dump(_private_db) == before, args
        return
    store = Store(_private_db)
    try:
        names = store.names()
        assert len(names) == 1, (args, names)
        assert names[0].strip() and names[0].isprintable(), names
        store.delete(names[0])
    finally:
        store.close()


@pytest.mark.parametrize(
    ("name", "shown"),
    [
        (" ", "' '"),
        ("\x1b[2J", r"'\x1b[2J'"),
        ("a\x07b", r"'a\x07b'"),
        ("x" * 300, "'xxxx"),
        ("\xadab", r"'\xadab'"),
    ],
)
def test_a_game_name_that_would_mislead_is_refused_in_one_line(
    name: str, shown: str, book: Data, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A blank name, or one with a control character (an escape sequence would rewrite the
    terminal when `games list` prints it), is refused when a game is made or imported; the
    refusal quotes at most 40 characters of it."""
    file = tmp_path / "book.json"
    file.write_text(json.dumps(book))
    for args in (("games", "import", str(file), "--name", name), ("session", "new", name)):
        code, _, err = _cli(capsys, *args)
        assert code == 2, args
        assert err.startswith("umpire: error: ") and err.count("\n") == 1, err
        assert f"bad game name {shown}" in err and len(err) < len(str(file)) + 160, err
        assert "(use --name)" not in err
