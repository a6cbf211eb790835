"""The web table in a real browser: Debian's chromium driven by Playwright (never a
downloaded browser). Two browser contexts play a battle, one per side; the other side's
page updates live; a cross-side action is refused on the page; a phone-sized screen fits.
Screenshots go to ``test-artifacts/`` (or ``$UMPIRE_ARTIFACTS``)."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tests.browser.conftest import serve_app

KEY = "browser-key"

pytestmark = pytest.mark.browser

ARTIFACTS = Path(os.environ.get("UMPIRE_ARTIFACTS", Path(__file__).parents[2] / "test-artifacts"))


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The app on a loopback port, in a thread, for the module's tests."""
    with serve_app(tmp_path_factory.mktemp("web") / "web.db", KEY) as port:
        yield f"http://127.0.0.1:{port}"


def new_battle(server: str, **body: Any) -> dict[str, str]:
    import httpx

    body.setdefault("kind", "battle")
    body.setdefault("scenario", "stone_wall")
    r = httpx.post(f"{server}/api/games", params={"key": KEY}, json=body, timeout=30)
    assert r.status_code == 200, r.text
    links: dict[str, str] = r.json()["links"]
    return links


def shot(page: Any, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def at(page: Any) -> int:
    return int(page.get_attribute("#panel", "data-at"))


def test_two_sides_play_several_turns_in_two_browsers(server: str, browser: Any) -> None:
    """Each side in its own browser context; every order is a click on the page; the other
    side's page follows without a reload (server-sent events)."""
    links = new_battle(server)
    ctx = {s: browser.new_context(viewport={"width": 1280, "height": 900}) for s in links}
    pages = {s: ctx[s].new_page() for s in ("union", "confederate")}
    for s, page in pages.items():
        page.goto(server + links[s])
        page.wait_for_selector("#panel")
    shot(pages["confederate"], "battle-start-confederate")
    clicks = 0
    turn_text = ""
    for _ in range(120):
        mine = [s for s, p in pages.items() if p.get_attribute("#panel", "data-my-turn") == "1"]
        if not mine:
            break  # the battle is over (or waiting on nobody)
        side = mine[0]
        other = "union" if side == "confederate" else "confederate"
        page = pages[side]
        before = at(page)
        buttons = page.locator("button.choice")
        # a real order now and then (the first on the menu), else hold
        pick = buttons.nth(0) if clicks % 3 == 0 else buttons.last
        pick.click()
        page.wait_for_function(
            f"() => Number(document.querySelector('#panel').dataset.at) > {before}"
        )
        # the other side's page updates by itself
        pages[other].wait_for_function(
            f"() => Number(document.querySelector('#panel').dataset.at) > {before}", timeout=10_000
        )
        clicks += 1
        turn_text = page.inner_text(".bar")
        if "Turn 3" in turn_text:
            break
    assert clicks >= 10, clicks
    assert "Turn 3" in turn_text, turn_text
    shot(pages["union"], "battle-turn-3-union")
    log = pages["union"].inner_text(".log")
    assert "order" in log
    for c in ctx.values():
        c.close()


def test_a_tap_on_the_table_moves_a_unit(server: str, browser: Any) -> None:
    links = new_battle(server)
    page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    page.goto(server + links["confederate"])
    page.wait_for_selector("#map svg g.unit.acting")
    acting = page.locator("#map svg g.unit.acting polygon")
    box = acting.bounding_box()
    before = at(page)
    # just below the acting unit (toward the enemy): a move of about an inch
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] + 12)
    page.wait_for_function(f"() => Number(document.querySelector('#panel').dataset.at) > {before}")
    assert "moves" in page.inner_text(".log") or "terrain" in page.inner_text(".log")


def test_a_cross_side_action_is_refused_on_the_page(server: str, browser: Any) -> None:
    links = new_battle(server)
    page = browser.new_context().new_page()
    page.goto(server + links["union"])  # the confederates move first
    page.wait_for_selector("#panel")
    assert page.get_attribute("#panel", "data-my-turn") == "0"
    n = at(page)
    page.evaluate(
        "([url, at]) => htmx.ajax('POST', url, {values: {at: at, choice: 0}, target: '#panel'})",
        [links["union"] + "/order", n],
    )
    page.wait_for_selector("#flash .error")
    assert "confederate side's decision" in page.inner_text("#flash")
    shot(page, "refused-cross-side")
    assert at(page) == n


def test_a_phone_sized_screen_fits(server: str, browser: Any) -> None:
    links = new_battle(server)
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    page = ctx.new_page()
    page.goto(server + links["confederate"])
    page.wait_for_selector("button.choice")
    wide = page.evaluate("document.documentElement.scrollWidth")
    assert wide <= 390 + 1, wide  # no sideways scrolling
    shot(page, "battle-phone")
    page.goto(f"{server}/?key={KEY}")
    shot(page, "host-start-phone")
    assert page.evaluate("document.documentElement.scrollWidth") <= 391


def test_a_cwb_command_phase_with_a_decision_answered_in_the_page(
    server: str, browser: Any
) -> None:
    """Seed 000 at July 2 14:00 (seed 26): the Confederate player rolls the random events in
    the page; Friendly Fire asks the Union player, whose open page shows the question by
    itself; the answer is chosen in the page and the phase completes on both pages."""
    links = new_battle(server, kind="cwb", dice="seeded", seed=26, start="July 2 14:00")
    conf = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    union = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    conf.goto(server + links["confederate"])
    union.goto(server + links["union"])
    union.wait_for_selector("#panel")
    conf.click("button.command")
    conf.wait_for_selector("text=Waiting for the union player's answer")
    union.wait_for_selector("form.answer select", timeout=10_000)  # arrived live
    shot(union, "cwb-question-union-phone")
    options = union.locator("form.answer select option")
    assert options.count() > 10
    second = options.nth(1).get_attribute("value")
    union.select_option("form.answer select", second)
    union.click("form.answer button")
    union.wait_for_function("() => document.querySelector('#panel').dataset.at === '1'")
    conf.wait_for_function("() => document.querySelector('#panel').dataset.at === '1'")
    assert f"union chose {second}" in union.inner_text(".log")
    assert "End the player turn" in conf.inner_text("#panel")
    shot(conf, "cwb-after-answer-confederate")


def test_joint_dice_each_browser_gives_its_value_and_the_battle_starts(
    server: str, browser: Any
) -> None:
    """Joint dice (docs/dice-protocol.md): each side's page commits to a secret value kept
    in the browser, reveals it once both have committed (the host checks it against the
    commitment: the page's SHA-256 agrees with Python's), and the battle starts; every
    order then carries fresh entropy from the browser, logged with the action."""
    import hashlib

    links = new_battle(server, dice="joint")
    pages = {}
    for side in ("confederate", "union"):
        pages[side] = browser.new_context().new_page()
        pages[side].goto(server + links[side])
    assert (
        pages["union"].evaluate("window.umpireSha256('abc')") == hashlib.sha256(b"abc").hexdigest()
    )
    conf = pages["confederate"]
    conf.wait_for_selector("button.choice", timeout=15_000)
    before = at(conf)
    conf.locator("button.choice").last.click()
    conf.wait_for_function(f"() => Number(document.querySelector('#panel').dataset.at) > {before}")
    import httpx

    view = httpx.get(server + "/api" + links["host"], timeout=30).json()
    assert view["dice"]["joint"]["ready"]
    stored = {
        s: pages[s].evaluate(f"localStorage.getItem('umpire-joint:{view['game']}:{s}')")
        for s in pages
    }
    assert view["dice"]["joint"]["contributions"] == stored  # the values the browsers kept
    # the page checked that the action logged for its order carries the entropy it sent
    conf.wait_for_function("() => Number(document.body.dataset.entropyChecked || 0) >= 1")
    assert conf.evaluate("document.body.dataset.entropyAlarm") is None
    shot(conf, "joint-dice-started")


def test_joint_dice_page_notices_entropy_the_host_changed(server: str, browser: Any) -> None:
    """docs/dice-protocol.md "What the web page must do", 4: the page checks that the
    entropy logged with its action is the one it sent. Here the request is altered on its
    way (as a dishonest host would log other entropy): the page raises its alarm."""
    import re

    links = new_battle(server, dice="joint")
    pages = {s: browser.new_context().new_page() for s in ("confederate", "union")}
    for side, page in pages.items():
        page.goto(server + links[side])
    conf = pages["confederate"]
    conf.wait_for_selector("button.choice", timeout=15_000)

    def swap_entropy(route: Any) -> None:
        body = re.sub(r"entropy=[0-9a-f]+", "entropy=" + "ab" * 32, route.request.post_data)
        route.continue_(post_data=body)

    conf.route(re.compile(r".*/t/[^/]+/order$"), swap_entropy)
    before = at(conf)
    conf.locator("button.choice").last.click()
    conf.wait_for_function(f"() => Number(document.querySelector('#panel').dataset.at) > {before}")
    conf.wait_for_selector("#entropy-alarm:not([hidden])", timeout=10_000)
    assert "the host changed" in conf.inner_text("#entropy-alarm")
    assert conf.evaluate("document.body.dataset.entropyChecked") is None
    shot(conf, "joint-dice-entropy-alarm")


def _host_joint(server: str, links: dict[str, str]) -> dict[str, Any]:
    import httpx

    joint: dict[str, Any] = httpx.get(server + "/api" + links["host"], timeout=30).json()["dice"][
        "joint"
    ]
    return joint


def _until(check: Any, what: str, seconds: float = 15) -> None:
    end = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < end, f"timed out waiting until {what}"
        time.sleep(0.1)


def test_a_page_whose_live_feed_connects_late_still_hears_what_it_missed(
    server: str, browser: Any
) -> None:
    """The live feed starts from the version the page showed: here the confederate page's
    feed is held back until the union page has committed and revealed its joint-dice value
    (docs/dice-protocol.md), as on a loaded machine or a phone that lost its network. Once
    the feed connects it announces the change at once, the page reveals, and the battle
    starts (a feed that began from the newest version would never tell it)."""
    import re

    links = new_battle(server, dice="joint")
    conf = browser.new_context().new_page()
    held: list[Any] = []
    conf.route(re.compile(r".*/t/[^/]+/events.*"), lambda route: held.append(route))
    conf.goto(server + links["confederate"])
    _until(lambda: _host_joint(server, links)["commitments"].get("confederate"), "it commits")
    union = browser.new_context().new_page()
    union.goto(server + links["union"])
    _until(lambda: "union" in _host_joint(server, links)["contributions"], "union reveals")
    assert conf.get_attribute("#panel", "data-joint-phase") == "commit"  # it heard nothing yet
    assert held, "the page never asked for its live feed"
    for route in held:
        route.continue_()
    conf.wait_for_selector("button.choice", timeout=15_000)
    assert _host_joint(server, links)["ready"]


def test_a_late_answer_never_replaces_a_newer_panel(server: str, browser: Any) -> None:
    """Answers can cross on the network: a refetch that left before an order but arrives
    after it would show the old state. The page keeps the newer panel and drops the late one."""
    import re

    import httpx

    links = new_battle(server)
    old_panel = httpx.get(server + links["confederate"] + "/panel", timeout=30).text
    pages = {s: browser.new_context().new_page() for s in ("confederate", "union")}
    for side, page in pages.items():
        page.goto(server + links[side])
    side = next(s for s, p in pages.items() if p.get_attribute("#panel", "data-my-turn") == "1")
    page = pages[side]
    stale = (
        old_panel
        if side == "confederate"
        else httpx.get(server + links[side] + "/panel", timeout=30).text
    )
    before = at(page)
    page.locator("button.choice").last.click()
    page.wait_for_function(f"() => Number(document.querySelector('#panel').dataset.at) > {before}")
    version = page.get_attribute("#panel", "data-version")
    page.route(
        re.compile(r".*/t/[^/]+/panel$"),
        lambda route: route.fulfill(status=200, content_type="text/html", body=stale),
    )
    # A refetch asked for while the feed's own refetch for the order is on its way is let go
    # by htmx when that one replaces the panel; ask again until one comes back (stale).
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    dropped = "() => Number(document.body.dataset.staleDropped || 0) >= 1"
    for _ in range(10):
        page.evaluate("htmx.trigger(document.getElementById('panel'), 'sse:changed')")
        try:
            page.wait_for_function(dropped, timeout=3_000)
            break
        except PlaywrightTimeout:
            continue
    assert page.evaluate(dropped), "no late answer came back to the page"
    assert page.get_attribute("#panel", "data-version") == version
    assert at(page) > before


def test_the_live_feed_resumes_from_the_last_event_id_a_browser_sends_back(server: str) -> None:
    """A reconnecting EventSource sends back the id of the last event it heard; the feed
    announces at once every change made since then, with the new version as its id."""
    import httpx

    links = new_battle(server, dice="joint")
    page = httpx.get(server + links["confederate"], timeout=30).text
    since = int(page.split("/events?since=", 1)[1].split('"', 1)[0])
    httpx.post(server + links["confederate"] + "/commit", data={"digest": "ab" * 32}, timeout=30)
    for headers in ({"Last-Event-ID": str(since)}, {}):
        url = server + links["union"] + "/events" + ("" if headers else f"?since={since}")
        with httpx.stream("GET", url, headers=headers, timeout=10) as feed:
            lines = []
            for line in feed.iter_lines():
                lines.append(line)
                if line.startswith("data:"):
                    break
        assert "event: changed" in lines
        assert f"id: {since + 1}" in lines
