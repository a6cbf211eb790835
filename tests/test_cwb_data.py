"""Seed 000 data: hex geometry, the order of battle, the clock, tables and labelled defaults."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from umpire.errors import DataFileError, UnknownNameError
from umpire.rules.cwb_events import MODULE, default_scenario, initial_state, load_params
from umpire.rules.cwb_events.army_events import longstreet_group
from umpire.rules.cwb_events.clock import Clock, parse_stamp, stamp
from umpire.rules.cwb_events.hexes import MapLayout
from umpire.rules.cwb_events.oob import build_roster, load_raw
from umpire.tables import builtin_tables

LAYOUT = MapLayout.load()


def test_hex_parse_round_trip() -> None:
    """Seed 000 names hexes like A43.01 (map letter, column, row)."""
    assert str(LAYOUT.parse("A43.01")) == "A43.01"
    assert LAYOUT.normal("a43.01") == "A43.01"


@pytest.mark.parametrize(
    ("a", "b", "d"),
    [
        ("A10.10", "A10.10", 0),
        ("A10.10", "A10.11", 1),
        ("A10.10", "A11.10", 1),  # column 11 (odd) is half a hex higher than column 10
        ("A10.10", "A11.11", 1),
        ("A10.10", "A11.09", 2),
        ("A11.10", "A12.10", 1),
        ("A11.10", "A12.09", 1),
        ("A10.10", "A14.10", 4),
        ("A10.10", "A10.18", 8),
        ("A56.01", "B01.01", 1),  # across the A|B join
        ("A01.35", "C01.01", 1),  # across the A/C join
        ("A56.35", "D01.01", 1),
        ("A55.35", "D01.01", 2),
    ],
)
def test_hex_distance(a: str, b: str, d: int) -> None:
    """Even-q flat-topped columns; distances are symmetric and cross sheet joins."""
    assert LAYOUT.distance(a, b) == d
    assert LAYOUT.distance(b, a) == d


@pytest.mark.parametrize("bad", ["Z01.01", "A99.01", "A01.99", "A1.1", "43.01", ""])
def test_bad_hex(bad: str) -> None:
    """An unknown hex is a one-line UnknownNameError."""
    with pytest.raises(UnknownNameError) as exc:
        LAYOUT.parse(bad)
    assert "\n" not in str(exc.value)


def test_odd_col_offset_refused(tmp_path: Path) -> None:
    """Sheets joined at an odd column offset would break the column parity."""
    p = tmp_path / "maps.toml"
    p.write_text("[sheet.A]\ncolumns = 10\nrows = 10\ncol_offset = 3\nrow_offset = 0\n")
    with pytest.raises(DataFileError) as exc:
        MapLayout.load(p)
    assert str(exc.value).startswith(f"{p}:1:")


def test_oob_both_armies_to_brigades_and_batteries() -> None:
    """Both armies down to brigades and batteries, with the seed's unit names."""
    raw, file, text = load_raw()
    r = build_roster(raw, file, text)
    units = r["units"]
    assert "L/H/1" in units and units["L/H/1"]["leader"] == "law"
    assert "Bachman/Arty/H/1" in units
    assert "M/1" in r["divisions"] and "H/1" in r["divisions"]
    assert "Meredith/1/I" in units
    for side in ("union", "confederate"):
        kinds = {u["kind"] for u in units.values() if u["side"] == side}
        assert {"brigade", "battery", "hq", "supply"} <= kinds
    assert r["armies"]["union"]["commander"] == "meade"
    assert r["armies"]["confederate"]["commander"] == "lee"
    brig = [ld for ld in r["leaders"].values() if ld["post"] == "brigade"]
    assert all(isinstance(ld["rating"], str) and "-" in ld["rating"] for ld in brig)
    assert len([u for u in units.values() if u["kind"] == "brigade"]) > 90


def test_oob_ratings_labelled_default() -> None:
    """Ratings are our defaults: labelled so in the data, with a reason."""
    raw, _, _ = load_raw()
    assert raw["labels"]["ratings"]["label"] == "default"
    assert raw["labels"]["ratings"]["reason"]


def test_oob_bad_file_names_file_and_line(tmp_path: Path) -> None:
    """A broken order of battle is a DataFileError with file and line."""
    _raw, _, text = load_raw()
    bad = text.replace('rating = "2-3" }, name = "Iron Brigade"', "rating = 7 }")
    p = tmp_path / "oob.toml"
    p.write_text(bad)
    raw2, file, text2 = load_raw(p)
    with pytest.raises(DataFileError) as exc:
        build_roster(raw2, file, text2)
    assert "meredith" in str(exc.value) and f"{p}:" in str(exc.value)


def test_longstreet_group_exact() -> None:
    """Seed 000: Longstreet, I Corps HQ and Supply, M/1, H/1 minus L/H/1 and Bachman/Arty/H/1."""
    st = initial_state(default_scenario("July 1 05:00"))
    leaders, units = longstreet_group(st)
    assert "longstreet" in leaders and "mclaws" in leaders and "hood" in leaders
    assert "law" not in leaders
    assert {"HQ/1", "Supply/1", "K/M/1", "R/H/1", "Latham/Arty/H/1", "Manly/Arty/M/1"} <= set(units)
    assert "L/H/1" not in units and "Bachman/Arty/H/1" not in units
    assert not any(u.endswith("/P/1") for u in units)
    assert load_params()["longstreet_entry_hex"] == "A43.01"


def test_clock_days_and_turns() -> None:
    """The clock runs July 1-3 with 20-minute day and 1-hour night turns (labelled default)."""
    clock = Clock.from_data(Clock.load())
    turns = clock.turns()
    assert stamp(turns[0]) == "July 1 05:00"
    assert stamp(turns[-1]) == "July 3 19:40"
    assert stamp(clock.next_turn(parse_stamp("July 1 19:40"))) == "July 1 20:00"
    assert stamp(clock.next_turn(parse_stamp("July 1 20:00"))) == "July 1 21:00"
    assert stamp(clock.next_turn(parse_stamp("July 2 04:00"))) == "July 2 05:00"
    assert parse_stamp("July 1 2:00 PM") == parse_stamp("July 1 14:00")
    with pytest.raises(UnknownNameError):
        clock.check(parse_stamp("July 1 14:05"))


def test_tables_exact_odds() -> None:
    """The seed's tables with the labelled gaps: 2d6 result 2 and d66 result 11 filled."""
    ts = builtin_tables()
    ev = dict((r.id, p) for r, p in ts.get("cwb_union_events").row_probabilities())
    assert ev["panic_check_2"] == Fraction(1, 36) and ev["panic_check"] == Fraction(1, 36)
    assert ts.get("cwb_union_events").row("panic_check_2").label is not None
    lt = dict((r.id, p) for r, p in ts.get("cwb_confederate_leader").row_probabilities())
    assert lt["army_casualty"] == Fraction(1, 36)
    assert lt["brigade_loss"] == Fraction(8, 36)  # 26-36, 41 in d66
    assert lt["friendly_fire"] == Fraction(5, 36)
    assert sum(lt.values()) == 1
    conf = ts.get("cwb_confederate_events")
    assert conf.lookup(5).id == "longstreet_right" and conf.lookup(9).id == "drag_feet"


def test_defaults_listed() -> None:
    """Every gap and reading of rules-notes 000 is a labelled entry with a reason."""
    ids = {d.id: d for d in MODULE.defaults()}
    for want in (
        "re_result_2",
        "leader_result_11",
        "panic_table",
        "order_states",
        "loose_cannon",
        "stoppage_modifier",
        "friendly_fire_table",
        "leader_ratings",
        "phasing_side_rolls",
        "ambush_pick",
        "sickles_decline",
        "buford_schedule",
        "longstreet_variable_roll",
        "drag_feet",
        "loss_nominations",
        "arrest_no_candidate",
        "panic_ratings",
        "random_movement",
        "hex_geometry",
    ):
        assert want in ids, want
    assert all(d.reason and d.label in ("default", "reading") for d in ids.values())
