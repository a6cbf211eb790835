"""The after-action report opened in Debian's chromium (issue 24) with the network closed:
every request that is not the file itself is aborted and none may be attempted; the maps
and charts are inline SVG; a screenshot goes to ``test-artifacts/``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from umpire.cli.main import main

pytestmark = pytest.mark.browser


def test_aar_opens_offline_with_maps_and_charts(
    tmp_path: Path, browser: Any, artifacts: Path
) -> None:
    db, out = tmp_path / "g.db", tmp_path / "report.html"
    assert (
        main(["--db", str(db), "battle", "standard_five_step", "--seed", "5", "--game", "b"]) == 0
    )
    assert main(["--db", str(db), "aar", "b", "-o", str(out)]) == 0
    ctx = browser.new_context(viewport={"width": 1100, "height": 1400})
    outside: list[str] = []
    ctx.route(
        "**/*",
        lambda route: (
            route.continue_()
            if route.request.url == out.as_uri()
            else (outside.append(route.request.url), route.abort())
        ),
    )
    page = ctx.new_page()
    page.goto(out.as_uri())
    page.wait_for_load_state("load")
    body = page.inner_text("body")
    for words in ("Luck", "Decisive moments", "Charts", "The story", "The proof"):
        assert words in body
    assert " was expected " in body and "% of games" in body
    maps = page.eval_on_selector_all(".map svg", "els => els.map(e => e.getBBox().width)")
    charts = page.eval_on_selector_all(".chart svg", "els => els.length")
    assert len(maps) >= 5 and all(w > 100 for w in maps), maps
    assert charts == 3
    assert outside == []
    artifacts.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(artifacts / "aar.png"))
    ctx.close()
