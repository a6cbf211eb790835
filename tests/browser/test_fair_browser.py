"""Issue 22 in a real browser (Debian's chromium through Playwright): a side asks to undo a
fire order that rolled dice, the other side's page is told live and agrees by a click, and
both pages show the record; then real dice are asked for and agreed the same way.
Screenshots go to ``test-artifacts/`` (or ``$UMPIRE_ARTIFACTS``)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tests.browser.conftest import serve_app

KEY = "fair-browser-key"

pytestmark = pytest.mark.browser

ARTIFACTS = Path(os.environ.get("UMPIRE_ARTIFACTS", Path(__file__).parents[2] / "test-artifacts"))


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The app on a loopback port, in a thread, for the module's tests."""
    with serve_app(tmp_path_factory.mktemp("web") / "web.db", KEY) as port:
        yield f"http://127.0.0.1:{port}"


def fire_order(server: str, links: dict[str, str]) -> str:
    """Play both sides over the API until a side's fire order rolls dice; returns the side."""
    import httpx

    for _ in range(80):
        for side in ("confederate", "union"):
            v = httpx.get(f"{server}/api{links[side]}", timeout=30).json()
            choices = v["table"]["choices"]
            if not choices:
                continue
            fire = [c["i"] for c in choices if c["kind"] == "fire"]
            body = {"at": v["at"], "choice": fire[0] if fire else choices[0]["i"]}
            after = httpx.post(f"{server}/api{links[side]}/order", json=body, timeout=30).json()
            if fire and any(line["kind"] == "roll" for line in after["log"][0]["lines"]):
                return side
    raise AssertionError("no fire order")


def fits(page: Any, what: str) -> None:
    """Issue 22: no page scrolls sideways at 360 px, these cards on it too."""
    wide = page.evaluate("() => document.documentElement.scrollWidth")
    assert wide <= 360, f"the page with {what} is {wide} px wide in a 360 px screen"


def test_undo_and_real_dice_are_asked_announced_and_agreed_in_the_pages(
    server: str, browser: Any
) -> None:
    import httpx

    body = {"kind": "battle", "scenario": "stone_wall", "dice": "committed"}
    links = httpx.post(f"{server}/api/games", params={"key": KEY}, json=body).json()["links"]
    side = fire_order(server, links)
    other = "union" if side == "confederate" else "confederate"
    ctx = {s: browser.new_context(viewport={"width": 360, "height": 740}) for s in (side, other)}
    pages = {s: ctx[s].new_page() for s in ctx}
    for s, page in pages.items():
        page.goto(server + links[s])
        page.wait_for_selector("#panel")
    at = int(pages[side].get_attribute("#panel", "data-at"))
    pages[side].click("text=ask to undo")
    pages[other].wait_for_selector("#undo-request", timeout=10_000)  # live, no reload
    assert pages[other].get_attribute("#panel", "data-my-turn") == "1"
    assert "asks to take back 1 action" in pages[other].inner_text("#undo-request")
    fits(pages[other], "the undo request")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    pages[other].screenshot(path=str(ARTIFACTS / "fair-undo-asked.png"), full_page=True)
    pages[other].click("text=agree to the undo")
    for page in pages.values():
        page.wait_for_function(f"() => document.querySelector('#panel').dataset.at === '{at - 1}'")
        page.wait_for_selector(".record-undo")
        assert f"{other} agreed" in page.inner_text(".records")
        fits(page, "the undo record")
    pages[side].screenshot(path=str(ARTIFACTS / "fair-undo-recorded.png"), full_page=True)
    pages[side].click("text=ask to roll real dice")
    pages[other].wait_for_selector("#real-request", timeout=10_000)
    fits(pages[other], "the real-dice request")
    pages[other].click("#real-request >> text=agree")
    for page in pages.values():
        page.wait_for_selector(".real-on")
        assert f"the {side} player rolls real dice" in page.inner_text(".real-on")
    for c in ctx.values():
        c.close()
