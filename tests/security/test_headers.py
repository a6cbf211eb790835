"""Attack: frame the page, sniff a type, leak a link in a Referer, read a token page from a
shared cache, run injected inline script (issue 22, "No request can tie up or crash the
host": "Security headers on every response: a Content-Security-Policy that fits the page (no
inline script, or hashes), `frame-ancestors 'none'`, `Referrer-Policy: no-referrer` (links
are secrets), `X-Content-Type-Options: nosniff`, `Cache-Control: no-store` on token pages.")."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from umpire.web.app import create_app

KEY = "headers-test-key"


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """A client and the links of a battle and a dice book."""
    db = tmp_path_factory.mktemp("headers") / "web.db"
    with TestClient(create_app(db, KEY)) as c:
        battle = c.post(f"/api/games?key={KEY}", json={"kind": "battle", "scenario": "stone_wall"})
        book = c.post(f"/api/games?key={KEY}", json={"kind": "book"})
        yield c, battle.json()["links"], book.json()["links"]


def csp_of(headers: Any) -> dict[str, str]:
    policy = headers.get("content-security-policy", "")
    return {d.split()[0]: d for d in (x.strip() for x in policy.split(";")) if d}


def responses(site: Any) -> list[tuple[str, Any]]:
    """One response of every kind: pages, fragments, the API, errors, a refused body."""
    c, battle, book = site
    b, k = battle["union"], book["table"]
    return [
        ("start page", c.get(f"/?key={KEY}")),
        ("start page, wrong key", c.get("/?key=wrong")),
        ("battle page", c.get(b)),
        ("battle host page", c.get(battle["host"])),
        ("book page", c.get(k)),
        ("panel fragment", c.get(b + "/panel")),
        ("odds fragment", c.get(k + "/odds", params={"expr": "2d6"})),
        ("api view", c.get("/api" + b)),
        ("api odds", c.get("/api" + k + "/odds", params={"expr": "3d6"})),
        ("api 404", c.get("/api/t/forged")),
        ("page 404", c.get("/t/forged")),
        ("422", c.post("/api" + b + "/order", json={"at": "x"})),
        ("413", c.post("/api" + b + "/order", content=b"[" * (65 * 1024))),
        ("static", c.get("/static/table.js")),
    ]


def test_every_response_carries_the_security_headers(site: Any) -> None:
    """CSP with frame-ancestors 'none' and no inline script, nosniff, no-referrer."""
    for what, r in responses(site):
        csp = csp_of(r.headers)
        assert csp.get("frame-ancestors") == "frame-ancestors 'none'", what
        assert csp.get("default-src") == "default-src 'none'", what
        assert csp.get("script-src") == "script-src 'self'", what  # no inline, no eval
        assert "unsafe" not in r.headers["content-security-policy"], what
        assert r.headers.get("x-content-type-options") == "nosniff", what
        assert r.headers.get("referrer-policy") == "no-referrer", what


def test_token_pages_are_never_stored(site: Any) -> None:
    """Every answer but the static files says no-store (links and the key are secrets)."""
    for what, r in responses(site):
        if what == "static":
            assert r.headers.get("cache-control") != "no-store"
        else:
            assert r.headers.get("cache-control") == "no-store", what


def test_the_pages_hold_no_inline_script_style_or_handler(site: Any) -> None:
    """What the CSP forbids is not in the pages: every script has a src, no on*= handler,
    no style attribute (a style attribute would be a violation under style-src 'self')."""
    for what, r in responses(site):
        if "text/html" not in r.headers.get("content-type", ""):
            continue
        html = r.text
        for tag in re.findall(r"<script\b[^>]*>", html, re.I):
            assert "src=" in tag, (what, tag)
        assert not re.search(r"<script\b[^>]*>\s*[^<\s]", html, re.I), what
        assert not re.search(r"\son[a-z]+\s*=", html, re.I), what
        assert not re.search(r"\sstyle\s*=", html, re.I), what
        assert "<style" not in html, what


def test_the_templates_hold_no_inline_script() -> None:
    """The same in the templates themselves, for pages the test above does not open."""
    import umpire.web

    here = Path(umpire.web.__file__).resolve().parent / "templates"
    for path in here.glob("*.html"):
        text = path.read_text()
        assert not re.search(r"<script\b(?![^>]*\bsrc=)", text, re.I), path.name
        assert not re.search(r"\son[a-z]+\s*=", text, re.I), path.name
        assert not re.search(r"\sstyle\s*=", text, re.I), path.name


def test_an_unexpected_error_carries_the_security_headers_too(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """'Security headers on every response': a bug's 500 comes from Starlette's outermost
    error layer, which ran outside the headers (no CSP, no no-store, no nosniff)."""
    from umpire.web.service import Service

    c = TestClient(create_app(tmp_path / "w.db", KEY), raise_server_exceptions=False)
    links = c.post(f"/api/games?key={KEY}", json={"kind": "book"}).json()["links"]

    def bug(self: Service, seat: Any) -> Any:
        raise RuntimeError("a bug")

    monkeypatch.setattr(Service, "view", bug)
    for path in ("/api" + links["table"], links["table"]):
        r = c.get(path)
        assert r.status_code == 500, path
        assert csp_of(r.headers).get("frame-ancestors") == "frame-ancestors 'none'", path
        assert r.headers.get("x-content-type-options") == "nosniff", path
        assert r.headers.get("referrer-policy") == "no-referrer", path
        assert r.headers.get("cache-control") == "no-store", path


def test_no_page_loads_script_or_style_from_another_site(site: Any) -> None:
    """'A Content-Security-Policy that fits the page': FastAPI's ``/docs`` and ``/redoc``
    pages load Swagger UI and ReDoc from a CDN with an inline script, which the policy
    blocks (a blank page; without the policy, a third party's script on the table's host).
    They are not served; ``/openapi.json`` describes the API."""
    c, _, _ = site
    for url in ("/docs", "/redoc", "/docs/oauth2-redirect"):
        r = c.get(url)
        assert r.status_code == 404, url
        assert "cdn.jsdelivr.net" not in r.text, url
    assert c.get("/openapi.json").json()["paths"]
