"""Issue 22 in a real browser (Debian's chromium through Playwright): the pages work under
their Content-Security-Policy with no violation (a battle table, a dice-book table with its
odds, the end-of-game confirmation), and the page's SHA-256 gives the standard test vectors
both by ``crypto.subtle`` (a secure context: loopback) and by the vendored js-sha256 (plain
http under another name, where ``crypto.subtle`` is missing). Screenshots go to
``test-artifacts/``."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tests.browser.conftest import ARGS, CHROMIUM, serve_app

KEY = "csp-browser-key"
LAN = "umpire-lan.test"
"""A name mapped to loopback inside the browser only: a plain-http origin that is not a
secure context, as a table on the LAN is (no DNS, no traffic off this machine)."""

VECTORS = {
    "": "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
    "abc": "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
    "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq": (
        "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
    ),
}
"""FIPS 180-2 / NIST examples: the empty string, "abc" and the 448-bit message."""

pytestmark = pytest.mark.browser

ARTIFACTS = Path(os.environ.get("UMPIRE_ARTIFACTS", Path(__file__).parents[2] / "test-artifacts"))

WATCH = """
window.__violations = [];
document.addEventListener("securitypolicyviolation", function (e) {
  window.__violations.push(e.violatedDirective + " " + (e.blockedURI || "inline"));
});
"""


@pytest.fixture(scope="module")
def port(tmp_path_factory: pytest.TempPathFactory) -> Iterator[int]:
    """The app on a loopback port, in a thread, for the module's tests."""
    with serve_app(tmp_path_factory.mktemp("web-csp") / "web.db", KEY) as port:
        yield port


def new_game(base: str, **body: Any) -> dict[str, str]:
    import httpx

    r = httpx.post(f"{base}/api/games", params={"key": KEY}, json=body, timeout=30)
    assert r.status_code == 200, r.text
    links: dict[str, str] = r.json()["links"]
    return links


class Watched:
    """A page whose CSP violations and console errors are kept."""

    def __init__(self, browser: Any, **ctx: Any):
        self.context = browser.new_context(**ctx)
        self.context.add_init_script(WATCH)
        self.page = self.context.new_page()
        self.console: list[str] = []
        self.failed: list[str] = []
        self.page.on("console", self._console)
        self.page.on("response", self._response)

    def _console(self, m: Any) -> None:
        # a failed load is checked by its response (below), where its address is known
        if m.type in ("error", "warning") and not m.text.startswith("Failed to load resource"):
            self.console.append(m.text)

    def _response(self, r: Any) -> None:
        # a bare fragment opened as a page has no icon link: the browser's guess may 404
        if r.status >= 400 and not r.url.endswith("/favicon.ico"):
            self.failed.append(f"{r.status} {r.url}")

    def violations(self) -> list[str]:
        found: list[str] = self.page.evaluate("window.__violations || []")
        csp_console = [m for m in self.console if "Content Security Policy" in m]
        return found + csp_console

    def shot(self, name: str) -> None:
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        self.page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def at(page: Any) -> int:
    return int(page.get_attribute("#panel", "data-at"))


def test_a_battle_table_plays_under_the_csp(port: int, browser: Any) -> None:
    """Orders by menu and by a tap on the map, the other side's page live, the host's page:
    no CSP violation and no console error on any of them."""
    base = f"http://127.0.0.1:{port}"
    links = new_game(base, kind="battle", scenario="stone_wall")
    pages = {s: Watched(browser, viewport={"width": 1280, "height": 900}) for s in links}
    for s, w in pages.items():
        w.page.goto(base + links[s])
        w.page.wait_for_selector("#panel")
    for _ in range(6):
        mine = [
            s
            for s in ("union", "confederate")
            if pages[s].page.get_attribute("#panel", "data-my-turn") == "1"
        ]
        if not mine:
            break
        page = pages[mine[0]].page
        before = at(page)
        page.locator("button.choice").last.click()
        page.wait_for_function(
            f"() => Number(document.querySelector('#panel').dataset.at) > {before}"
        )
        other = pages["union" if mine[0] == "confederate" else "confederate"].page
        other.wait_for_function(
            f"() => Number(document.querySelector('#panel').dataset.at) > {before}", timeout=10_000
        )
    pages["confederate"].shot("csp-battle-confederate")
    pages["host"].page.reload()
    pages["host"].page.wait_for_selector("#panel")
    for s, w in pages.items():
        assert w.violations() == [], (s, w.violations())
        assert w.console == [] and w.failed == [], (s, w.console, w.failed)


def test_a_dice_book_with_its_odds_and_the_end_confirmation(port: int, browser: Any) -> None:
    """The dice book: the odds fragment as the expression is typed, a roll, a deck; the
    host's "end the game" asks first and says it cannot be undone; all with no violation."""
    base = f"http://127.0.0.1:{port}"
    links = new_game(base, kind="book", dice="committed")
    book = Watched(browser, viewport={"width": 390, "height": 844})
    page = book.page
    page.goto(base + links["table"])
    page.wait_for_selector("#odds .odds")  # the odds of the default 2d6, fetched on load
    page.fill("input[name=expr]", "3d6")
    page.press("input[name=expr]", "End")  # the page asks on keyup, as a person types
    page.wait_for_function("() => document.querySelector('#odds strong').textContent === '3d6'")
    assert "10.50" in page.inner_text("#odds")
    assert page.locator("#odds meter.chance").count() == 16
    before = at(page)
    page.get_by_role("button", name="Roll", exact=True).click()
    page.wait_for_function(f"() => Number(document.querySelector('#panel').dataset.at) > {before}")
    page.wait_for_timeout(1000)  # let the live refetch land before typing into the new panel
    page.fill("input[name=name]", "activation")
    page.fill("input[name=cards]", "Union, Union, Confederate")
    before = at(page)
    page.get_by_role("button", name="Make the deck").click()
    page.wait_for_function(f"() => Number(document.querySelector('#panel').dataset.at) > {before}")
    page.wait_for_timeout(1000)  # the live feed's refetch of the panel follows the answer
    page.wait_for_selector("#odds .odds")  # the new panel asks for its odds again
    book.shot("csp-dice-book-phone")
    # the odds route alone, as a page
    odds = Watched(browser)
    odds.page.goto(base + links["table"] + "/odds?expr=2d6%2B1")
    assert "mean 8.00" in odds.page.inner_text("body")

    host = Watched(browser, viewport={"width": 390, "height": 844})
    host.page.goto(base + links["host"])
    host.page.click("details.end-game summary")
    assert "cannot be undone" in host.page.inner_text("details.end-game")
    host.shot("csp-end-game-confirm")
    host.page.get_by_role("button", name="Yes, end the game").click()
    host.page.wait_for_selector(".bar .ended")
    page.wait_for_selector(".bar .ended", timeout=10_000)  # the book's page follows live
    for w in (book, odds, host):
        assert w.violations() == [], w.violations()
        assert w.console == [] and w.failed == [], (w.console, w.failed)


def test_sha256_by_crypto_subtle_in_a_secure_context(port: int, browser: Any) -> None:
    """On loopback the page is a secure context: its SHA-256 is the browser's own
    (crypto.subtle.digest), and it and the vendored js-sha256 give the standard vectors."""
    base = f"http://127.0.0.1:{port}"
    links = new_game(base, kind="book")
    w = Watched(browser)
    w.page.goto(base + links["spectator"])
    assert w.page.evaluate("window.isSecureContext") is True
    assert w.page.evaluate("window.umpireSha256.path()") == "crypto.subtle"
    for text, digest in VECTORS.items():
        assert w.page.evaluate("t => window.umpireSha256(t)", text) == digest, text
        assert w.page.evaluate("t => window.sha256(t)", text) == digest, text
    assert w.violations() == []


def test_sha256_by_the_vendored_code_on_plain_http_and_joint_dice_start(
    port: int, browser: Any
) -> None:
    """Under a LAN-like name on plain http the page is not a secure context (no
    crypto.subtle): it uses the vendored js-sha256, which gives the standard vectors, and
    a joint-dice battle starts there (each side's commitment accepted by the host)."""
    base = f"http://{LAN}:{port}"
    links = new_game(f"http://127.0.0.1:{port}", kind="battle", scenario="stone_wall", dice="joint")
    args = [*ARGS, f"--host-resolver-rules=MAP {LAN} 127.0.0.1"]
    b = browser.browser_type.launch(executable_path=CHROMIUM, args=args)
    if True:
        try:
            sides = {s: Watched(b) for s in ("union", "confederate")}
            for s, w in sides.items():
                w.page.goto(base + links[s])
            page = sides["union"].page
            assert page.evaluate("window.isSecureContext") is False
            assert page.evaluate("!!(window.crypto && window.crypto.subtle)") is False
            assert page.evaluate("window.umpireSha256.path()") == "js-sha256"
            for text, digest in VECTORS.items():
                assert page.evaluate("t => window.umpireSha256(t)", text) == digest, text
            sides["confederate"].page.wait_for_selector("button.choice", timeout=45_000)
            sides["confederate"].shot("csp-joint-dice-plain-http")
            for s, w in sides.items():
                assert w.violations() == [], (s, w.violations())
        finally:
            b.close()
