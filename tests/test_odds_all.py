"""``umpire odds``: every resolution of every module, exact, against brute force.

Each brute-force test enumerates the faces of the dice (ordered rolls) through the module's
own rules functions, not its odds functions, and names the seed and section it checks.
"""

from __future__ import annotations

import contextlib
import itertools
import json
from collections.abc import Iterable
from fractions import Fraction

import pytest

from umpire.cli.main import main
from umpire.errors import UmpireError, UnknownNameError
from umpire.rules.odds import Odds, find, resolutions
from umpire.tables import builtin_tables

D6 = range(1, 7)
D10 = range(10)


def dist(odds: Odds) -> dict[str, Fraction]:
    return {o.label: o.p for o in odds.outcomes}


def tally(items: Iterable[tuple[str, Fraction]]) -> dict[str, Fraction]:
    out: dict[str, Fraction] = {}
    for k, p in items:
        out[k] = out.get(k, Fraction(0)) + p
    return {k: p for k, p in out.items() if p}


# -- every resolution ------------------------------------------------------------------


ALL = resolutions()


def test_every_module_offers_odds() -> None:
    assert {r.module for r in ALL} == {
        "quick-acw",
        "action-reaction",
        "sequence-cards",
        "cwb-events",
        "solo-events",
    }
    names = {r.qualified for r in ALL}
    for want in (
        "quick-acw fire",
        "quick-acw charge",
        "quick-acw stand",
        "quick-acw melee",
        "quick-acw leader-loss",
        "action-reaction artillery",
        "action-reaction poker-hand",
        "action-reaction h2h",
        "action-reaction reaction",
        "action-reaction terrain",
        "action-reaction charge-distance",
        "sequence-cards status",
        "cwb-events events",
        "solo-events events",
    ):
        assert want in names


@pytest.mark.parametrize("r", ALL, ids=[r.qualified for r in ALL])
def test_every_resolution_sums_to_exactly_one(r: object) -> None:
    from umpire.rules.odds import Resolution

    assert isinstance(r, Resolution)
    odds = r.odds()
    assert odds.total == 1
    assert all(isinstance(o.p, Fraction) and o.p > 0 for o in odds.outcomes)
    assert len({o.label for o in odds.outcomes}) == len(odds.outcomes)
    assert odds.why and all(w.text for w in odds.why)
    assert r.seed[:3] in ("000", "001", "002", "003", "004")
    for p in r.params:  # every choice of every menu computes too
        for c in p.choices:
            with contextlib.suppress(UmpireError):  # a combination the rules refuse
                assert r.odds({p.name: c}).total == 1


def test_bad_parameters_are_one_line_errors() -> None:
    with pytest.raises(UmpireError, match="above 12"):
        find("h2h").odds({"attacker": 13})
    with pytest.raises(UmpireError, match="not one of"):
        find("fire", "quick-acw").odds({"firer": "cavalry"})
    with pytest.raises(UnknownNameError, match="more than one module"):
        find("fire")
    with pytest.raises(UnknownNameError, match="unknown resolution"):
        find("fireball")
    with pytest.raises(UnknownNameError, match="unknown parameter"):
        find("h2h").odds({"pieces": 3})


@pytest.mark.parametrize("value", ["nan", "inf", "-inf"])
def test_a_float_parameter_refuses_what_is_not_a_finite_number(
    value: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """A NaN passes every min/max test: it is refused by name, at the API and the CLI (seed
    002 FIRE reads the range in inches; 'nan' inches is no range)."""
    with pytest.raises(UmpireError, match="not a finite number"):
        find("fire", "quick-acw").odds({"range": value})
    assert main(["odds", "quick-acw", "fire", "--range", value]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "'--range'" in err and "not a finite number" in err, err


# -- seed 002 (quick_acw) --------------------------------------------------------------


@pytest.mark.parametrize(
    "params",
    [
        {},
        {"range": 1.5, "firer": "dismounted_cavalry", "marker": True, "cover": True},
        {
            "firer": "artillery",
            "range": 20,
            "side": "union",
            "target": "cavalry",
            "target_mounted": True,
        },
    ],
)
def test_002_fire_matches_brute_force(params: dict[str, object]) -> None:
    """Seed 002 FIRE: 2d6 + modifiers against the table; 8 over the need costs two stands."""
    from umpire.rules.quick_acw import rules as R

    v = find("fire", "quick-acw").checked(params)
    needed = R.fire_needed(str(v["firer"]), float(v["range"]))
    assert needed is not None
    facts = R.FireFacts(
        str(v["side"]),
        str(v["firer"]),
        str(v["formation"]),
        bool(v["marker"]),
        str(v["target"]),
        bool(v["target_mounted"]),
        str(v["target_formation"]),
        bool(v["cover"]),
    )
    mod = sum(m.value for m in R.fire_modifiers(facts))
    names = {0: "no hit", 1: "1 stand lost", 2: "2 stands lost"}
    brute = tally(
        (names[R.fire_stands_lost(a + b, needed, mod)], Fraction(1, 36))
        for a, b in itertools.product(D6, D6)
    )
    assert dist(find("fire", "quick-acw").odds(params)) == brute


def test_002_charge_and_stand_match_brute_force() -> None:
    """Seed 002 MORALE (USA/CSA 8+/7+, leader adds, MM -1) and the charge paragraph."""
    odds = dist(find("charge").odds({"leader": 2, "target_marker": True}))
    brute: dict[str, Fraction] = {}
    for a, b, c, d in itertools.product(D6, D6, D6, D6):
        p = Fraction(1, 6**4)
        if a + b + 2 < 7:  # CSA charges on 7+, leader +2
            k = "charge fails -> moves 1/2 the distance, takes a MM"
        elif c + d - 1 >= 8:  # USA stands on 8+, MM -1
            k = "charge goes in -> target stands: melee"
        else:
            k = "charge goes in -> target runs: retreats, takes a MM"
        brute[k] = brute.get(k, Fraction(0)) + p
    assert odds == brute
    stand = dist(find("stand").odds({"mounted_cavalry": True}))
    assert stand["stands"] == Fraction(15, 36)  # 2d6 >= 8
    # runs, then 3D6" for mounted cavalry: 3" only on 1,1,1
    assert stand['runs -> retreats 3" and takes a MM'] == Fraction(21, 36) / 216


def test_002_melee_matches_brute_force() -> None:
    """Seed 002 MELEE: 2d6 + modifiers a side; the difference table's row."""
    from umpire.rules.quick_acw import rules as R

    params = {"a_stands": 3, "b_stands": 5, "a_uphill": True, "b_marker": True}
    odds = find("melee").odds(params)
    ta = 3 + 1 + 1  # stands, uphill, Confederates attacking
    tb = 5 - 2  # stands, Morale Marker
    brute: dict[tuple[str, int, int], Fraction] = {}
    for a, b, c, d in itertools.product(D6, D6, D6, D6):
        diff = a + b + ta - (c + d + tb)
        row = R.melee_row(diff)
        side = "attacker wins" if diff > 0 else "defender wins" if diff < 0 else "tie"
        key = (side, row.low, row.high)
        brute[key] = brute.get(key, Fraction(0)) + Fraction(1, 6**4)
    got: dict[tuple[str, int, int], Fraction] = {}
    for o in odds.outcomes:
        side, band = o.path[0], o.path[1].removeprefix("difference ")
        lo, _, hi = band.rstrip("+").partition("-")
        key = (side, int(lo), 99 if band.endswith("+") else int(hi or lo))
        got[key] = o.p
    assert got == brute


def test_002_leader_loss_by_hand() -> None:
    """Seed 002: 'roll one die: 5-6 that leader is killed or captured'."""
    assert dist(find("leader-loss").odds())["killed or captured"] == Fraction(1, 3)


# -- seed 003 (action_reaction) --------------------------------------------------------


def test_003_bursts_and_solid_shot_match_brute_force() -> None:
    """Seed 003 XI.A.1 (solid shot) and XI.A.2 (a shell's 5d10 burst)."""
    from umpire.rules.action_reaction import artillery as A

    shell = tally(
        (f"{A.burst_hits(f)} hit{'s' if A.burst_hits(f) != 1 else ''}", Fraction(1, 10**5))
        for f in itertools.product(D10, repeat=5)
    )
    assert dist(find("artillery").odds({"round": "shell"})) == shell
    solid: dict[str, Fraction] = {}
    for bounce, x, y in itertools.product(D10, D10, D10):
        dice = [x, y] if bounce % 2 == 0 else [x]
        hits = A.solid_shot_hits(bounce, dice)[1]
        key = f"{hits} hit{'s' if hits != 1 else ''}"
        solid[key] = solid.get(key, Fraction(0)) + Fraction(1, 1000)
    assert dist(find("artillery").odds({"round": "solid-shot"})) == solid


def test_003_canister_by_hand() -> None:
    """Seed 003 XI.A.4: 9 d10 on the rifle stick; at or under its number less deductions."""
    from umpire.rules.action_reaction import artillery as A

    value = A.stick_value(7.0)
    assert value is not None
    p = Fraction(value - 2 + 1, 10)
    odds = dist(find("artillery").odds({"round": "canister", "range": 7, "deductions": 2}))
    assert odds["9 hits"] == p**9
    assert odds["0 hits"] == (1 - p) ** 9


def test_003_poker_hand_matches_brute_force() -> None:
    """Seed 003 XI.B: five d10 as a poker hand, with the long and short pairs."""
    from umpire.rules.action_reaction import artillery as A
    from umpire.rules.action_reaction.resolutions import FLIGHTS, HAND_LABELS

    hands: dict[str, Fraction] = {}
    results: dict[str, Fraction] = {}
    for f in itertools.product(D10, repeat=5):
        h = A.first_fire(f)
        p = Fraction(1, 10**5)
        hands[HAND_LABELS[h.category]] = hands.get(HAND_LABELS[h.category], Fraction(0)) + p
        k = f"{h.result} -> {FLIGHTS[h.flight]}"
        results[k] = results.get(k, Fraction(0)) + p
    assert dist(find("poker-hand").odds({"show": "hand"})) == hands
    assert dist(find("poker-hand").odds()) == results


@pytest.mark.parametrize(("n", "m"), [(1, 1), (3, 2), (2, 4), (3, 3)])
def test_003_hand_to_hand_matches_brute_force(n: int, m: int) -> None:
    """Seed 003 XIV.A.3: pair sorted dice; unpaired dice hit only above the lowest."""
    from umpire.rules.action_reaction.melee import strike

    hits: dict[str, Fraction] = {}
    loser: dict[str, Fraction] = {}
    names = {
        "defender": "the defender backs (attacker wins)",
        "attacker": "the attacker backs (defender wins)",
        "": "neither (equal hits)",
    }
    p = Fraction(1, 6 ** (n + m))
    for faces in itertools.product(D6, repeat=n + m):
        s = strike(faces[:n], faces[n:])
        k = f"attacker hits {s.attacker_hits} -> defender hits {s.defender_hits}"
        hits[k] = hits.get(k, Fraction(0)) + p
        loser[names[s.loser]] = loser.get(names[s.loser], Fraction(0)) + p
    r = find("h2h")
    assert dist(r.odds({"attacker": n, "defender": m, "show": "hits"})) == hits
    assert dist(r.odds({"attacker": n, "defender": m})) == loser


def test_003_hand_to_hand_twelve_a_side_is_exact() -> None:
    """Seed 003 XIV: 12 against 12, exact: it sums to 1 and is symmetric between sides."""
    odds = dist(find("h2h").odds({"attacker": 12, "defender": 12}))
    assert sum(odds.values()) == 1
    assert odds["the defender backs (attacker wins)"] == odds["the attacker backs (defender wins)"]


def test_003_reaction_matches_brute_force() -> None:
    """Seed 003 XIII.A.2 (reading cheer_and_hear) and XIII.B.1's d10 list, no officers."""
    from umpire.rules.action_reaction import melee as M

    brute: dict[str, Fraction] = {}
    for cheer, hear, face in itertools.product(D10, D10, D10):
        p = Fraction(1, 1000)
        if not M.reacts(cheer, hear, False):
            k = "does not react until struck"
        else:
            what, inches = M.reaction(face)
            name = (
                "does nothing (a 10)"
                if what == "none"
                else (f'{what} {inches}"' if inches else what)
            )
            k = f"reacts -> {name}" + (" -> gives way" if inches else "")
        brute[k] = brute.get(k, Fraction(0)) + p
    assert dist(find("reaction").odds({"officers": 0})) == brute
    # three officers: each wins half the untied contests, so one of three holds 7/8
    odds = dist(find("reaction").odds({"officers": 3, "clear_field": True}))
    assert odds['reacts -> retreat 9" -> an officer holds it'] == Fraction(1, 10) * Fraction(7, 8)


def test_003_terrain_and_charge_distance_by_hand() -> None:
    """Seed 003 XVI.B (uphill: 1D6 halved) and XII.H (an infantry column adds 1d10, 0-9)."""
    up = dist(find("terrain").odds({"kind": "uphill", "left": 2}))
    assert up == {"stalled": Fraction(1, 3), '0" left': Fraction(1, 3), '1" left': Fraction(1, 3)}
    wall = dist(find("terrain").odds({"kind": "stone_wall", "what": "fire"}))
    assert wall == {f"-{k} on the stick": Fraction(1, 6) for k in range(1, 7)}
    col = dist(find("charge-distance").odds({"formation": "column", "move": 9}))
    assert col == {f'+{k}" (reaches {9 + k}")': Fraction(1, 10) for k in range(10)}


def test_003_infantry_fire_matches_brute_force() -> None:
    """Seed 003 infantry fire (default infantry_fire) on the stick; XVII.A column double."""
    from umpire.rules.action_reaction import fire as F

    brute = tally(
        (f"{(h := F.infantry_hits(f, 12, 1))} hits, {2 * h} lost", Fraction(1, 1000))
        for f in itertools.product(D10, repeat=3)
    )
    got = find("fire", "action-reaction").odds(
        {"pieces": 3, "distance": 12, "deductions": 1, "formation": "column"}
    )
    assert dist(got) == brute


# -- seed 004 (sequence_cards) ---------------------------------------------------------


@pytest.mark.parametrize(("prior", "again"), [("none", False), ("shaken", True), ("route", False)])
def test_004_status_matches_brute_force(prior: str, again: bool) -> None:
    """Seed 004 EFFECT: the margin's rung (default fire_margin_effects), escalated."""
    from umpire.rules.sequence_cards.ladder import effect_for_margin, escalate, ladder
    from umpire.rules.sequence_cards.resolutions import _word

    lad = ladder()
    before = "" if prior == "none" else prior
    brute: dict[str, Fraction] = {}
    for a, b in itertools.product(D6, D6):
        margin = a + b + 1 - 8
        if margin < 0:
            k = f"miss -> stays {_word(before)}"
        else:
            inc = effect_for_margin(margin, lad)
            k = f"hit: {_word(inc)} -> {_word(escalate(before, inc, again, lad))}"
        brute[k] = brute.get(k, Fraction(0)) + Fraction(1, 36)
    got = find("status").odds({"needed": 8, "modifier": 1, "prior": prior, "again": again})
    assert dist(got) == brute


def test_004_status_by_hand() -> None:
    """Seed 004 EFFECT, no prior status: 2d6 vs 7, a margin 0-1 is Stop (7 or 8)."""
    odds = dist(find("status").odds())
    assert odds["miss -> stays no marker"] == Fraction(15, 36)
    assert odds["hit: Stop (stop) -> Stop (stop)"] == Fraction(11, 36)


# -- seeds 000 and 001: nested tables --------------------------------------------------


def _d66() -> list[int]:
    return [10 * a + b for a, b in itertools.product(D6, D6)]


@pytest.mark.parametrize(("side", "row"), [("union", 0), ("confederate", 3), ("union", 12)])
def test_000_events_match_brute_force(side: str, row: int) -> None:
    """Seed 000, Checking for Random Events: the event, then the Leader Table and its
    casualty roll, Arrest level (Union), Friendly Fire and its half step, or Panic."""
    ts = builtin_tables()
    ev, lead, panic = (ts.get(f"cwb_{side}_{k}") for k in ("events", "leader", "panic"))
    cas = {"army_casualty": "cwb_army_casualty"} | dict.fromkeys(
        ("corps_loss", "division_loss", "brigade_loss"), "cwb_leader_casualty"
    )
    brute: dict[str, Fraction] = {}

    def add(path: list[str], p: Fraction) -> None:
        k = " -> ".join(path)
        brute[k] = brute.get(k, Fraction(0)) + p

    for a, b in itertools.product(D6, D6):
        p0 = Fraction(1, 36)
        r = ev.lookup(a + b)
        e = r.effects["event"]
        if e == "panic_check":
            for v in _d66():
                band = int(panic.lookup(v).effects["band"])
                add([r.text, "panic" if band <= row else "no panic"], p0 / 36)
        elif e == "consult_leader":
            for v in _d66():
                lr = lead.lookup(v)
                le = lr.effects["event"]
                p1 = p0 / 36
                if le in cas:
                    for f in D6:
                        add([r.text, lr.text, ts.get(cas[le]).lookup(f).text], p1 / 6)
                elif le == "arrest" and side == "union":
                    for f in D6:
                        add(
                            [r.text, lr.text, ts.get("cwb_union_arrest_level").lookup(f).text],
                            p1 / 6,
                        )
                elif le == "friendly_fire":
                    for c, d in itertools.product(D6, D6):
                        fr = ts.get("cwb_friendly_fire").lookup(c + d)
                        if int(fr.effects["halves"]) % 2:
                            for f in D6:
                                half = ts.get("cwb_half_step").lookup(f).text
                                add([r.text, lr.text, fr.text, half], p1 / 36 / 6)
                        else:
                            add([r.text, lr.text, fr.text], p1 / 36)
                else:
                    add([r.text, lr.text], p1)
        else:
            add([r.text], p0)
    odds = find("events", "cwb-events").odds({"side": side, "panic_row": row})
    assert odds.total == 1
    assert dist(odds) == brute


def test_000_nested_leader_casualty_by_hand() -> None:
    """Seed 000: Consult Leader Table (3, 4 or 7 on 2d6), 11 on d66 (Meade), 6 on 1d6."""
    odds = dist(find("events", "cwb-events").odds({"side": "union"}))
    killed = "Consult Leader Table -> Meade is a Casualty -> Killed"
    assert odds[killed] == Fraction(2 + 3 + 6, 36) * Fraction(1, 36) * Fraction(1, 6)


def test_001_events_match_brute_force() -> None:
    """Seed 001 RANDOM EVENTS: a D6 (1 or 6: an event), a D6 (odd attacker), a D20."""
    ts = builtin_tables()
    brute: dict[str, Fraction] = {}
    for check, side, num in itertools.product(D6, D6, range(1, 21)):
        p = Fraction(1, 6 * 6 * 20)
        if not ts.get("solo_event_check").lookup(check).effects["event"]:
            k = "no event"
        else:
            who = "attacker" if side % 2 else "defender"
            row = ts.get("solo_events").lookup(num)
            k = f"an event -> affects the {who} -> {num} {row.text.split(':')[0]}"
        brute[k] = brute.get(k, Fraction(0)) + p
    odds = dist(find("events", "solo-events").odds())
    assert odds == brute
    assert odds["no event"] == Fraction(2, 3)


# -- the command -------------------------------------------------------------------------


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_list_names_every_resolution(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "odds", "list", "--json")
    assert code == 0
    listed = {(d["module"], d["name"]) for d in json.loads(out)}
    assert listed == {(r.module, r.name) for r in ALL}


def test_cli_table_json_and_png(capsys: pytest.CaptureFixture[str], tmp_path: object) -> None:
    code, out, _ = run(capsys, "odds", "quick-acw", "fire", "--range", "4", "--cover")
    assert code == 0
    assert "1 stand lost" in out and "why:" in out and "target in cover" in out
    code, out, _ = run(capsys, "odds", "action-reaction", "h2h", "--attacker", "12", "--json")
    data = json.loads(out)
    assert code == 0 and data["total"] == "1" and data["seed"].startswith("003 XIV")
    assert sum(Fraction(o["p"]) for o in data["outcomes"]) == 1
    png = f"{tmp_path}/chart.png"
    code, out, _ = run(capsys, "odds", "cwb-events", "events", "--png", png)
    assert code == 0
    with open(png, "rb") as fh:
        assert fh.read(8) == b"\x89PNG\r\n\x1a\n"


def test_cli_dice_notation_old_and_new(capsys: pytest.CaptureFixture[str]) -> None:
    for args in (("odds", "2d6", "--json"), ("odds", "dice", "2d6", "--json")):
        code, out, _ = run(capsys, *args)
        assert code == 0 and json.loads(out)["expr"] == "2d6"


def test_cli_bare_name_when_only_one_module_has_it(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "odds", "poker-hand", "--json")
    assert code == 0 and json.loads(out)["module"] == "action-reaction"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("odds", "fireball"), "unknown resolution 'fireball'"),
        (("odds", "fire"), "more than one module"),
        (("odds", "action-reaction", "h2h", "--attacker", "13"), "--attacker"),
        (("odds", "quick-acw", "fire", "--range", "20"), "cannot fire"),
        (("odds", "sequence-cards", "status", "--dice", "2d6>=7"), "comparison"),
    ],
)
def test_cli_errors_are_one_line(
    capsys: pytest.CaptureFixture[str], args: tuple[str, ...], message: str
) -> None:
    code, _, err = run(capsys, *args)
    assert code == 2
    assert message in err
    assert len(err.strip().splitlines()) == 1
