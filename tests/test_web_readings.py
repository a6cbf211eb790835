"""The web table's readings (docs/web.md "Undo and fork", "Real dice"; issue 22) live in
data and are listed by ``umpire rules list``, as the project's rule asks of every default
and reading ("never invent a rule silently")."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from umpire.cli.main import main

DOCS = Path(__file__).resolve().parents[1] / "docs"


def test_every_web_reading_the_docs_name_is_in_the_data() -> None:
    """Each `web_...` reading of docs/web.md and docs/dice-protocol.md has its entry."""
    from umpire.web.readings import readings

    named = set()
    for doc in ("web.md", "dice-protocol.md"):
        text = (DOCS / doc).read_text(encoding="utf-8")
        named |= set(re.findall(r"`(web_[a-z_]+)` \(reading", text))
        named |= set(re.findall(r"readings? `(web_[a-z_]+)`", text))
        named |= set(re.findall(r"`(web_[a-z_]+)`(?:, `(?:web_[a-z_]+)`)*\)", text))
    named.discard("web_host_key")  # the save file's meta row, not a reading
    found = {r.id: r for r in readings()}
    assert {"web_undo", "web_fork", "web_real_dice"} <= named
    assert named <= set(found), named - set(found)
    assert all(r.label == "reading" and r.reason for r in found.values())


def test_rules_list_shows_the_web_tables_readings(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "list"]) == 0
    out = capsys.readouterr().out
    assert "web — the web table's readings" in out
    assert "reading web_undo:" in out and "reading web_real_dice:" in out
    assert main(["rules", "list", "--json"]) == 0
    mods = {m["id"]: m for m in json.loads(capsys.readouterr().out)}
    ids = [d["id"] for d in mods["web"]["defaults"]]
    assert "web_fork" in ids and "web_ai_entropy" in ids
