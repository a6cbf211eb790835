"""The lab's report opened in Debian's chromium (issue 11): every chart loads from inside
the file, with the network closed; a screenshot goes to ``test-artifacts/``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from umpire.cli.main import main

pytestmark = pytest.mark.browser


def test_report_opens_in_chromium_with_every_chart(
    tmp_path: Path, browser: Any, artifacts: Path
) -> None:
    db, out = tmp_path / "lab.db", tmp_path / "report.html"
    args = ["--db", str(db), "simulate", "standard", "-n", "40", "--seed", "3", "--workers", "1"]
    assert main([*args, "--vary", "quick-acw.sides.confederate.morale=8"]) == 0
    assert main(["--db", str(db), "report", "latest", "-o", str(out)]) == 0
    ctx = browser.new_context(viewport={"width": 1100, "height": 900})
    outside: list[str] = []
    ctx.route(
        "**/*",
        lambda route: (
            route.continue_()
            if route.request.url.startswith("file:")
            else (outside.append(route.request.url), route.abort())
        ),
    )
    page = ctx.new_page()
    page.goto(out.as_uri())
    page.wait_for_load_state("load")
    sizes = page.eval_on_selector_all("img.chart", "els => els.map(e => e.naturalWidth)")
    assert len(sizes) >= 6 and all(w > 100 for w in sizes), sizes
    assert "Variants against the shipped rules" in page.inner_text("body")
    assert outside == []
    artifacts.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(artifacts / "lab-report.png"), full_page=True)
    ctx.close()
