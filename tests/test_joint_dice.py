"""Joint dice (docs/dice-protocol.md): the host commits to a seed, each side commits to and then
reveals a value, and each action's browser entropy keys its dice; verify checks all of it."""

from __future__ import annotations

import hashlib
import json
import sqlite3
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from umpire.dice import JointSource, SeededSource
from umpire.engine import Game
from umpire.errors import DiceSourceError, UmpireError, UnknownNameError, VerifyError
from umpire.store import Store, verify_export

SIDES = ("union", "confederate")
SEED = 0x1234_5678_9ABC_DEF0_1122_3344_5566_7788
VALUES = {"union": "a1" * 32, "confederate": "c0" * 32}
ENTROPY = ["e1" * 32, "e2" * 16, "0123456789abcdef" * 4, "ab" * 20]


# -- the documented derivation, re-implemented with hashlib alone -------------------------
def reference_face(
    seed_text: str, values: Mapping[str, str], entropy: str, index: int, sides: int
) -> int:
    """docs/dice-protocol.md, "The derivation", written out again without umpire."""
    text = "umpire-joint-v1\n" + seed_text + "\n"
    text += "".join(f"{side}:{values[side]}\n" for side in sorted(values)) + entropy
    key = hashlib.sha256(text.encode("ascii")).digest()
    block = hashlib.blake2b(
        (index // 8).to_bytes(8, "little"), digest_size=64, key=key, person=b"umpire-dice-v1"
    ).digest()
    word = int.from_bytes(block[8 * (index % 8) : 8 * (index % 8) + 8], "little")
    return 1 + word % sides


def digest(value: str) -> str:
    return hashlib.sha256(value.encode("ascii")).hexdigest()


def ready_source(
    seed: int = SEED, values: Mapping[str, str] = VALUES, position: int = 0
) -> JointSource:
    return JointSource(
        list(values),
        seed,
        position,
        commitments={s: digest(v) for s, v in values.items()},
        contributions=values,
    )


def one_line(exc: pytest.ExceptionInfo[BaseException]) -> str:
    text = str(exc.value)
    assert "\n" not in text and text
    return text


# -- the source in memory -----------------------------------------------------------------
def test_phases_and_public_view() -> None:
    source = JointSource(SIDES, SEED)
    assert source.commitment == hashlib.sha256(str(SEED).encode()).hexdigest()
    assert source.phase == "commit" and source.waiting() == list(SIDES)
    source.commit("confederate", digest(VALUES["confederate"]).upper())  # any case is taken
    assert source.commitments == {"confederate": digest(VALUES["confederate"])}
    assert source.waiting() == ["union"]
    source.commit("union", digest(VALUES["union"]))
    assert source.phase == "reveal" and not source.ready
    source.contribute("union", VALUES["union"])
    view = source.public()
    assert view["contributions"] == {"union": VALUES["union"]}
    assert view["waiting"] == ["confederate"] and view["phase"] == "reveal"
    source.contribute("confederate", VALUES["confederate"])
    assert source.ready and source.public()["ready"] is True
    assert str(SEED) not in json.dumps(source.public()) and str(SEED) not in repr(source)
    assert source.reveal() == SEED


@pytest.mark.parametrize(
    ("step", "match"),
    [
        (lambda s: s.commit("yankees", digest("x")), "unknown side 'yankees'"),
        (lambda s: s.commit("union", digest("x")), "side 'union' has already committed"),
        (lambda s: s.commit("confederate", "abc"), "a commitment is a sha256 hex digest"),
        (lambda s: s.commit("confederate", "g" * 64), "a commitment is a sha256 hex digest"),
        (lambda s: s.contribute("union", VALUES["union"]), "cannot reveal its value yet"),
        (lambda s: s.contribute("rebels", VALUES["union"]), "unknown side 'rebels'"),
    ],
)
def test_refusals_in_the_commit_phase(step: Any, match: str) -> None:
    source = JointSource(SIDES, SEED, commitments={"union": digest(VALUES["union"])})
    before = source.public()
    with pytest.raises(DiceSourceError, match=match) as exc:
        step(source)
    one_line(exc)
    assert source.public() == before


@pytest.mark.parametrize(
    ("step", "match"),
    [
        (lambda s: s.commit("confederate", digest("x")), "has already committed"),
        (lambda s: s.contribute("union", "ab" * 31), "a value is 64 lowercase hex digits"),
        (lambda s: s.contribute("union", VALUES["union"].upper()), "64 lowercase hex"),
        (lambda s: s.contribute("union", "zz" * 32), "64 lowercase hex"),
        (lambda s: s.contribute("union", 7), "64 lowercase hex"),
        (lambda s: s.contribute("union", "22" * 32), "does not match its commitment"),
        (lambda s: s.contribute("confederate", VALUES["confederate"]), "already revealed"),
    ],
)
def test_refusals_in_the_reveal_phase(step: Any, match: str) -> None:
    source = JointSource(
        SIDES,
        SEED,
        commitments={s: digest(v) for s, v in VALUES.items()},
        contributions={"confederate": VALUES["confederate"]},
    )
    before = source.public()
    with pytest.raises(DiceSourceError, match=match) as exc:
        step(source)
    one_line(exc)
    assert source.public() == before


@pytest.mark.parametrize(
    ("sides", "match"),
    [
        ((), "at least one side"),
        (("union", "union"), "must differ"),
        (("Union",), "a side's name"),
        (("a:b",), "a side's name"),
        (("",), "a side's name"),
        (("x" * 41,), "a side's name"),
    ],
)
def test_bad_sides_are_refused(sides: tuple[str, ...], match: str) -> None:
    with pytest.raises(DiceSourceError, match=match) as exc:
        JointSource(sides)
    one_line(exc)


def test_dice_wait_for_every_value_and_the_entropy() -> None:
    source = JointSource(SIDES, SEED, commitments={"union": digest(VALUES["union"])})
    source.begin(ENTROPY[0])
    with pytest.raises(DiceSourceError, match="waiting for confederate to commit") as exc:
        source.dice(2, 6, "fire")
    one_line(exc)
    source.commit("confederate", digest(VALUES["confederate"]))
    source.contribute("union", VALUES["union"])
    with pytest.raises(DiceSourceError, match="confederate to reveal its value"):
        source.dice(2, 6)
    source.contribute("confederate", VALUES["confederate"])
    source.begin(None)
    with pytest.raises(DiceSourceError, match="without the browser's entropy") as exc:
        source.dice(2, 6, "fire")
    assert "for 'fire'" in one_line(exc)
    assert source.position == 0  # a refused request draws nothing
    source.begin(ENTROPY[0])
    assert len(source.dice(2, 6)) == 2 and source.position == 2


@pytest.mark.parametrize(
    "bad", ["", "ab" * 15, "a" * 31, "a" * 65, "AB" * 16, "xy" * 16, " " + "a" * 32, 12]
)
def test_malformed_entropy_is_refused(bad: Any) -> None:
    source = ready_source()
    with pytest.raises(DiceSourceError, match="entropy must be 32 to 64 lowercase hex") as exc:
        source.begin(bad)
    one_line(exc)


hexes = st.text("0123456789abcdef", min_size=64, max_size=64)
entropies = st.text("0123456789abcdef", min_size=32, max_size=64)
side_names = st.from_regex(r"[a-z0-9][a-z0-9_-]{0,8}", fullmatch=True)


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**256 - 1),
    values=st.dictionaries(side_names, hexes, min_size=1, max_size=4),
    entropy=entropies,
    start=st.integers(0, 40),
    draws=st.lists(st.tuples(st.integers(0, 11), st.integers(1, 1000)), max_size=6),
)
def test_stream_is_the_documented_derivation(
    seed: int,
    values: dict[str, str],
    entropy: str,
    start: int,
    draws: list[tuple[int, int]],
) -> None:
    source = ready_source(seed, values, start)
    source.begin(entropy)
    pos = start
    for n, sides in draws:
        faces = source.dice(n, sides)
        assert faces == [
            reference_face(str(seed), values, entropy, pos + k, sides) for k in range(n)
        ]
        pos += n
    assert source.position == pos
    # The same stream, as a seeded source keyed by the action's key, and one die at a time.
    if draws:
        n, sides = draws[0]
        want = [reference_face(str(seed), values, entropy, start + k, sides) for k in range(n)]
        got = [JointSource.face_at(seed, values, entropy, start + k, sides) for k in range(n)]
        assert got == want


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 2**128),
    union=hexes,
    confederate=hexes,
    entropy=entropies,
    which=st.sampled_from(["seed", "union", "confederate", "entropy"]),
    flip=st.integers(0, 63),
)
def test_changing_any_one_input_changes_the_dice(
    seed: int, union: str, confederate: str, entropy: str, which: str, flip: int
) -> None:
    def faces(s: int, u: str, c: str, e: str) -> list[int]:
        source = ready_source(s, {"union": u, "confederate": c})
        source.begin(e)
        return source.dice(8, 1_000_000)

    def other(text: str) -> str:
        i = flip % len(text)
        return text[:i] + ("1" if text[i] == "0" else "0") + text[i + 1 :]

    base = faces(seed, union, confederate, entropy)
    changed = {
        "seed": lambda: faces(seed + 1, union, confederate, entropy),
        "union": lambda: faces(seed, other(union), confederate, entropy),
        "confederate": lambda: faces(seed, union, other(confederate), entropy),
        "entropy": lambda: faces(seed, union, confederate, other(entropy)),
    }[which]()
    assert changed != base


def test_each_action_has_its_own_stream() -> None:
    game = Game.new("session", {}, ready_source())
    one = game.act("roll", {"expr": "4d6"}, entropy=ENTROPY[0])
    two = game.act("roll", {"expr": "4d6"}, entropy=ENTROPY[1])
    assert one.events[0].data["entropy"] == ENTROPY[0] and one.entropy == ENTROPY[0]
    assert one.events[1].data["draws"] == [
        [0, 6, [reference_face(str(SEED), VALUES, ENTROPY[0], k, 6) for k in range(4)]]
    ]
    assert two.events[1].data["draws"] == [
        [4, 6, [reference_face(str(SEED), VALUES, ENTROPY[1], 4 + k, 6) for k in range(4)]]
    ]


# -- Game.act -----------------------------------------------------------------------------
def test_act_records_entropy_only_for_sources_that_take_it() -> None:
    plain = Game.new("session", {}, SeededSource(5))
    with_entropy = Game.new("session", {}, SeededSource(5))
    a = plain.act("roll", {"expr": "2d6"})
    b = with_entropy.act("roll", {"expr": "2d6"}, entropy=ENTROPY[0])
    assert a.to_json() == b.to_json() and "entropy" not in b.events[0].data
    assert b.entropy is None
    with pytest.raises(DiceSourceError, match="entropy must be"):
        plain.act("roll", {"expr": "2d6"}, entropy="not hex")
    assert len(plain.actions) == 1 and plain.source.position == 2


def test_act_without_entropy_changes_nothing() -> None:
    game = Game.new("session", {}, ready_source())
    game.act("roll", {"expr": "2d6"}, entropy=ENTROPY[0])
    state = game.state_hash()
    with pytest.raises(DiceSourceError, match="without the browser's entropy"):
        game.act("roll", {"expr": "2d6"})  # the last action's entropy is never reused
    with pytest.raises(DiceSourceError, match="entropy must be"):
        game.act("roll", {"expr": "2d6"}, entropy="E" * 64)
    assert game.state_hash() == state and len(game.actions) == 1
    assert game.source.position == 2
    record = game.act("roll", {"expr": "d6"}, entropy=ENTROPY[1])
    assert record.events[1].data["draws"][0][0] == 2


def test_an_action_without_dice_needs_no_entropy() -> None:
    game = Game.new("session", {}, JointSource(SIDES, SEED))  # not even ready
    record = game.act("new_day", {})
    assert "entropy" not in record.events[0].data


def test_truncated_game_continues_the_stream() -> None:
    game = Game.new("session", {}, ready_source())
    for e in ENTROPY[:3]:
        game.act("roll", {"expr": "3d6"}, entropy=e)
    back = game.truncated(1)
    assert isinstance(back.source, JointSource) and back.source.position == 3
    assert back.source.entropy is None
    record = back.act("roll", {"expr": "3d6"}, entropy=ENTROPY[1])
    assert record.events[1].data["draws"] == game.actions[1].events[1].data["draws"]


# -- the store ----------------------------------------------------------------------------
def new_joint(store: Store, name: str = "j", *, ready: bool = True) -> Game:
    game = Game.new("session", {"title": name}, JointSource(SIDES, SEED))
    store.create(name, game)
    if ready:
        for side in SIDES:
            store.joint_commit(name, side, digest(VALUES[side]))
        for side in SIDES:
            store.joint_contribute(name, side, VALUES[side])
    return game


def rows(store: Store, name: str) -> list[tuple[Any, ...]]:
    return store.conn.execute(
        "SELECT ord, side, commitment, contribution FROM joint_sides WHERE game = ? ORDER BY ord",
        (name,),
    ).fetchall()


def test_store_phases(tmp_path: Path) -> None:
    store = Store(tmp_path / "s.db")
    new_joint(store, ready=False)
    public = store.joint_public("j")
    assert public == {
        "game": "j",
        "commitment": hashlib.sha256(str(SEED).encode()).hexdigest(),
        "sides": list(SIDES),
        "commitments": {"union": None, "confederate": None},
        "contributions": {},
        "phase": "commit",
        "waiting": list(SIDES),
        "ready": False,
        "seed": None,
    }
    after = store.joint_commit("j", "union", digest(VALUES["union"]))
    assert after["commitments"]["union"] == digest(VALUES["union"])
    assert after["waiting"] == ["confederate"]
    store.joint_commit("j", "confederate", digest(VALUES["confederate"]))
    assert store.joint_contribute("j", "confederate", VALUES["confederate"])["contributions"] == {
        "confederate": VALUES["confederate"]
    }
    last = store.joint_contribute("j", "union", VALUES["union"])
    assert last["ready"] and last["phase"] == "ready" and last["waiting"] == []
    game = Store(tmp_path / "s.db").load("j")
    assert isinstance(game.source, JointSource) and game.source.ready


def test_store_refusals_change_nothing(tmp_path: Path) -> None:
    store = Store(tmp_path / "s.db")
    new_joint(store, ready=False)
    store.create("plain", Game.new("session", {}, SeededSource(1)))
    store.joint_commit("j", "union", digest(VALUES["union"]))
    cases: list[tuple[Any, type[Exception], str]] = [
        (lambda: store.joint_commit("nope", "union", digest("x")), UnknownNameError, "nope"),
        (lambda: store.joint_commit("plain", "union", digest("x")), UmpireError, "joint dice"),
        (lambda: store.joint_public("plain"), UmpireError, "does not use joint dice"),
        (lambda: store.joint_commit("j", "rebels", digest("x")), UmpireError, "unknown side"),
        (lambda: store.joint_commit("j", "union", digest("x")), UmpireError, "already"),
        (lambda: store.joint_commit("j", "confederate", "12"), UmpireError, "sha256 hex"),
        (lambda: store.joint_contribute("j", "union", VALUES["union"]), UmpireError, "yet"),
    ]
    for step, kind, match in cases:
        before = (store.joint_public("j"), rows(store, "j"))
        with pytest.raises(kind, match=match) as exc:
            step()
        one_line(exc)
        assert (store.joint_public("j"), rows(store, "j")) == before
    store.joint_commit("j", "confederate", digest(VALUES["confederate"]))
    for step, match in [
        (lambda: store.joint_contribute("j", "union", "33" * 32), "does not match"),
        (lambda: store.joint_contribute("j", "union", "3" * 63), "64 lowercase hex"),
        (lambda: store.joint_contribute("j", "south", VALUES["union"]), "unknown side"),
    ]:
        before = (store.joint_public("j"), rows(store, "j"))
        with pytest.raises(UmpireError, match=match) as exc:
            step()
        one_line(exc)
        assert (store.joint_public("j"), rows(store, "j")) == before
    store.joint_contribute("j", "union", VALUES["union"])
    with pytest.raises(UmpireError, match="already revealed"):
        store.joint_contribute("j", "union", VALUES["union"])
    store.end("j")
    before = rows(store, "j")
    with pytest.raises(UmpireError, match="has ended") as exc:
        store.joint_contribute("j", "confederate", VALUES["confederate"])
    one_line(exc)
    assert rows(store, "j") == before


def test_no_value_is_public_before_every_side_committed(tmp_path: Path) -> None:
    store = Store(tmp_path / "s.db")
    new_joint(store, ready=False)
    store.joint_commit("j", "union", digest(VALUES["union"]))
    # Even a value that got into the file somehow is not shown while a side has not committed.
    store.conn.execute(
        "UPDATE joint_sides SET contribution = ? WHERE game = 'j' AND side = 'union'",
        (VALUES["union"],),
    )
    public = store.joint_public("j")
    assert VALUES["union"] not in json.dumps(public) and public["contributions"] == {}


def test_the_seed_stays_secret_until_the_end(tmp_path: Path) -> None:
    store = Store(tmp_path / "s.db")
    new_joint(store)
    for e in ENTROPY[:2]:
        store.play("j", store.load("j"), "roll", {"expr": "2d6"}, entropy=e)
    secret = str(SEED)
    for shown in (store.joint_public("j"), store.info("j").to_json(), store.export("j")):
        assert secret not in json.dumps(shown)
    ended = store.end("j")
    assert ended.to_json()["seed"] == secret
    assert store.joint_public("j")["seed"] == secret
    assert store.export("j")["game"]["seed"] == secret


def play_and_export(tmp_path: Path, end: bool = True) -> dict[str, Any]:
    store = Store(tmp_path / "x.db")
    new_joint(store)
    store.play("j", store.load("j"), "roll", {"expr": "3d6"}, entropy=ENTROPY[0])
    store.play("j", store.load("j"), "pick", {"options": ["a", "b", "c"]}, entropy=ENTROPY[1])
    store.play("j", store.load("j"), "roll", {"expr": "2d6+1"}, entropy=ENTROPY[2])
    if end:
        store.end("j")
    return store.export("j")


def test_export_verifies(tmp_path: Path) -> None:
    data = play_and_export(tmp_path)
    assert data["joint"] == {
        "sides": [
            {"side": s, "commitment": digest(VALUES[s]), "contribution": VALUES[s]} for s in SIDES
        ]
    }
    assert [a["events"][0]["entropy"] for a in data["actions"]] == ENTROPY[:3]
    report = verify_export(data)
    assert report.rolls_checked and report.dice == 3 + 1 + 2 and report.chained
    # Every die, recomputed from the export alone with the documented derivation.
    seed_text = data["game"]["seed"]
    values = {s["side"]: s["contribution"] for s in data["joint"]["sides"]}
    for action in data["actions"]:
        entropy = action["events"][0]["entropy"]
        for event in action["events"]:
            for pos, sides, faces in event.get("draws", []):
                assert faces == [
                    reference_face(seed_text, values, entropy, pos + k, sides)
                    for k in range(len(faces))
                ]


def test_before_the_end_rolls_are_not_checked(tmp_path: Path) -> None:
    data = play_and_export(tmp_path, end=False)
    assert data["game"]["seed"] is None
    report = verify_export(data)
    assert not report.rolls_checked and "not revealed" in report.notes[0]


def tampered(data: dict[str, Any]) -> dict[str, Any]:
    copied: dict[str, Any] = json.loads(json.dumps(data))
    return copied


def test_verify_catches_tampering(tmp_path: Path) -> None:
    data = play_and_export(tmp_path)
    # A die changed (faces, and the total the rules would make of it).
    bad = tampered(data)
    roll = bad["actions"][0]["events"][1]
    face = roll["draws"][0][2][1]
    roll["draws"][0][2][1] = 1 if face != 1 else 2
    with pytest.raises(VerifyError, match=r"tampered roll at log event 2 \(action 1") as exc:
        verify_export(bad)
    assert "die 1" in one_line(exc)
    # An action's entropy changed: its dice are no longer the ones it gives.
    bad = tampered(data)
    bad["actions"][2]["events"][0]["entropy"] = "f" * 64
    with pytest.raises(VerifyError, match=r"tampered roll at .* \(action 3") as exc:
        verify_export(bad)
    assert "the action's entropy give" in one_line(exc)
    # An entropy removed, or malformed.
    bad = tampered(data)
    del bad["actions"][1]["events"][0]["entropy"]
    with pytest.raises(VerifyError, match=r"action 2 .* without the browser's entropy"):
        verify_export(bad)
    bad["actions"][1]["events"][0]["entropy"] = "xyz"
    with pytest.raises(VerifyError, match="action 2: an action's entropy must be") as exc:
        verify_export(bad)
    one_line(exc)
    # A side's value that is not the one it committed to.
    bad = tampered(data)
    bad["joint"]["sides"][1]["contribution"] = "99" * 32
    with pytest.raises(VerifyError, match="side 'confederate': the value does not match") as exc:
        verify_export(bad)
    one_line(exc)
    # A side's value and commitment both replaced: the dice no longer follow.
    bad = tampered(data)
    bad["joint"]["sides"][0] = {
        "side": "union",
        "commitment": digest("99" * 32),
        "contribution": "99" * 32,
    }
    with pytest.raises(VerifyError, match="tampered roll at log event 2"):
        verify_export(bad)
    # A host's seed that is not the one it committed to.
    bad = tampered(data)
    bad["game"]["seed"] = str(SEED + 1)
    with pytest.raises(VerifyError, match="does not match the commitment") as exc:
        verify_export(bad)
    one_line(exc)


@pytest.mark.parametrize(
    ("edit", "match"),
    [
        (lambda d: d.pop("joint"), "without its joint record"),
        (lambda d: d["joint"]["sides"].pop(), "tampered roll"),
        (lambda d: d["joint"]["sides"][0].update(commitment=None), "never committed"),
        (lambda d: d["joint"]["sides"][0].update(side="Union"), "malformed: a side's name"),
        (lambda d: d["joint"]["sides"][0].update(contribution=None), "before every side"),
        (lambda d: d["joint"].update(extra=1), "not an umpire game export: joint.extra"),
    ],
)
def test_verify_refuses_a_broken_joint_record(edit: Any, match: str, tmp_path: Path) -> None:
    bad = tampered(play_and_export(tmp_path))
    edit(bad)
    with pytest.raises(UmpireError, match=match) as exc:
        verify_export(bad)
    one_line(exc)


def test_other_kinds_take_no_joint_record_and_no_entropy(tmp_path: Path) -> None:
    store = Store(tmp_path / "s.db")
    store.create("s", Game.new("session", {}, SeededSource(3)))
    store.play("s", store.load("s"), "roll", {"expr": "2d6"}, entropy=ENTROPY[0])
    data = store.export("s")
    assert set(data) == {"format", "game", "scenario", "actions"}
    assert "entropy" not in data["actions"][0]["events"][0]
    verify_export(data)
    bad = tampered(data)
    bad["joint"] = {"sides": []}
    with pytest.raises(VerifyError, match="only joint dice have one"):
        verify_export(bad)
    bad = tampered(data)
    bad["actions"][0]["events"][0]["entropy"] = ENTROPY[0]
    with pytest.raises(VerifyError, match="only joint dice take one"):
        verify_export(bad)


def test_undo_and_fork_continue_the_stream(tmp_path: Path) -> None:
    store = Store(tmp_path / "s.db")
    new_joint(store)
    first = [
        store.play("j", store.load("j"), "roll", {"expr": "2d6"}, entropy=e) for e in ENTROPY[:3]
    ]
    assert store.fork("j", "k", at=1) == 1
    assert store.joint_public("k")["contributions"] == VALUES
    again = store.play("k", store.load("k"), "roll", {"expr": "2d6"}, entropy=ENTROPY[1])
    assert again.events[1].data["draws"] == first[1].events[1].data["draws"]
    fresh = store.play("k", store.load("k"), "roll", {"expr": "2d6"}, entropy=ENTROPY[3])
    assert fresh.events[1].data["draws"] == [
        [4, 6, [reference_face(str(SEED), VALUES, ENTROPY[3], 4 + k, 6) for k in range(2)]]
    ]
    store.undo("j", 2)
    redo = store.play("j", store.load("j"), "roll", {"expr": "2d6"}, entropy=ENTROPY[2])
    assert redo.events[1].data["draws"] == first[2].events[1].data["draws"]
    for name in ("j", "k"):
        store.end(name)
        assert verify_export(store.export(name)).rolls_checked
    store.delete("k")
    assert rows(store, "k") == []


def test_import_round_trip(tmp_path: Path) -> None:
    data = play_and_export(tmp_path, end=False)
    seed = str(SEED)
    # The host's own file holds the seed; an export, and so an import, never before the end.
    other = Store(tmp_path / "other.db")
    assert other.import_(data, name="copy") == "copy"
    assert other.joint_public("copy")["contributions"] == VALUES
    assert seed not in json.dumps(other.export("copy"))
    with pytest.raises(UmpireError, match="without the host's seed") as exc:
        other.load("copy")
    one_line(exc)
    ended = play_and_export(tmp_path / "b")
    other.import_(ended, name="done")
    assert other.export("done")["joint"] == ended["joint"]
    assert verify_export(other.export("done")).rolls_checked
    bad = tampered(ended)
    del bad["joint"]
    with pytest.raises(VerifyError, match="without its joint record"):
        other.import_(bad, name="bad")
    assert "bad" not in other.names()


def test_an_old_save_file_gains_the_joint_table(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    conn = sqlite3.connect(path)
    conn.executescript(
        """
        CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
        INSERT INTO meta VALUES('schema', '1');
        CREATE TABLE games(name TEXT PRIMARY KEY, module TEXT NOT NULL, scenario TEXT NOT NULL,
            source_kind TEXT NOT NULL, seed TEXT, commitment TEXT,
            revealed INTEGER NOT NULL DEFAULT 0, ended INTEGER NOT NULL DEFAULT 0,
            parent TEXT, created TEXT NOT NULL);
        CREATE TABLE actions(game TEXT NOT NULL REFERENCES games(name) ON DELETE CASCADE,
            no INTEGER NOT NULL, name TEXT NOT NULL, params TEXT NOT NULL,
            state_hash TEXT NOT NULL, created TEXT NOT NULL, PRIMARY KEY(game, no));
        CREATE TABLE events(game TEXT NOT NULL, action_no INTEGER NOT NULL,
            idx INTEGER NOT NULL, kind TEXT NOT NULL, data TEXT NOT NULL,
            PRIMARY KEY(game, action_no, idx));
        """
    )
    conn.close()
    store = Store(path)
    store.create("s", Game.new("session", {}, SeededSource(1)))
    store.play("s", store.load("s"), "roll", {"expr": "2d6"})
    new_joint(store)
    store.play("j", store.load("j"), "roll", {"expr": "2d6"}, entropy=ENTROPY[0])
    schema = store.conn.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()[0]
    assert schema == "3" and len(rows(store, "j")) == 2  # joint_sides, then table_records
    store.close()
    assert Store(path).load("j").source.position == 2


def test_games_show_tells_the_phase(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from umpire.cli.main import main

    store = Store()
    new_joint(store, ready=False)
    store.joint_commit("j", "union", digest(VALUES["union"]))
    assert main(["games", "show", "j"]) == 0
    out = capsys.readouterr().out
    assert "joint dice: commit; sides: union committed, confederate waiting" in out
    assert "seed hidden until the end" in out and str(SEED) not in out


# -- the protocol's documentation ---------------------------------------------------------
DOC = Path(__file__).resolve().parents[1] / "docs" / "dice-protocol.md"


def test_the_documented_test_vector() -> None:
    from umpire.dice import joint_key

    text = DOC.read_text(encoding="utf-8")
    values = {"union": "a1" * 32, "confederate": "c0" * 32}
    key = joint_key(12345, values, "e1" * 32).hex()
    d6 = " ".join(str(JointSource.face_at(12345, values, "e1" * 32, p, 6)) for p in range(10))
    d20 = " ".join(str(JointSource.face_at(12345, values, "e1" * 32, p, 20)) for p in range(10))
    flat = " ".join(text.split())
    assert key in flat and hashlib.sha256(b"12345").hexdigest() in flat
    assert f"the faces `{d6}`" in flat and f"(as d20s: `{d20}`)" in flat
    assert d6.split() == [str(reference_face("12345", values, "e1" * 32, p, 6)) for p in range(10)]


def test_the_documented_hand_check_runs(tmp_path: Path) -> None:
    import subprocess
    import sys

    text = DOC.read_text(encoding="utf-8")
    script = text.split("## Verifying an export by hand")[1].split("```python\n")[1]
    check = tmp_path / "check_joint.py"
    check.write_text(script.split("```")[0], encoding="utf-8")
    data = play_and_export(tmp_path)
    good = tmp_path / "good.json"
    good.write_text(json.dumps(data), encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-I", str(check), str(good)], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("OK: 6 dice")
    bad = tampered(data)
    roll = bad["actions"][2]["events"][1]
    roll["draws"][0][2][0] = 1 if roll["draws"][0][2][0] != 1 else 2
    (tmp_path / "bad.json").write_text(json.dumps(bad), encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-I", str(check), str(tmp_path / "bad.json")],
        capture_output=True,
        text=True,
    )
    assert done.returncode != 0 and "action 3, die 4: tampered" in done.stderr
