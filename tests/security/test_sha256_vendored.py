"""Attack surface: the page's own SHA-256 (issue 22, "No request can tie up or crash the
host": "The page computes SHA-256 with its own hand-written code ... Use
``crypto.subtle.digest`` wherever the page is a secure context, and elsewhere a vendored,
widely used implementation with its licence").

A side's joint-dice commitment is the SHA-256 its page computes; a wrong digest there
breaks the commit-reveal (docs/dice-protocol.md). This script checks what ships: the page's
script hashes only through ``crypto.subtle.digest`` or the vendored js-sha256, whose file is
byte for byte upstream's 0.11.1 (github.com/emn178/js-sha256, ``src/sha256.js``) with its
MIT licence beside it. The standard vectors are checked by both paths in chromium:
``tests/browser/test_web_security_browser.py`` (``test_sha256_by_crypto_subtle_...`` and
``test_sha256_by_the_vendored_code_...``).
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

import umpire.web

STATIC = Path(umpire.web.__file__).resolve().parent / "static"
TEMPLATES = STATIC.parent / "templates"

UPSTREAM_0_11_1 = "2db6c8e554fbee14672368a0d7551a8ddd841ee96c91526eb7987a0179cfc717"
"""SHA-256 of js-sha256 v0.11.1's ``src/sha256.js`` as tagged upstream (compared with a
copy of the repository on 2026-11-27)."""


def test_the_vendored_sha256_is_upstreams_file_with_its_licence() -> None:
    vendored = (STATIC / "sha256.js").read_bytes()
    assert hashlib.sha256(vendored).hexdigest() == UPSTREAM_0_11_1
    licence = (STATIC / "sha256-LICENSE.txt").read_text(encoding="utf-8")
    assert "MIT License" in licence and "Chen, Yi-Cyuan" in licence


def test_the_page_hashes_by_crypto_subtle_or_the_vendored_code_only() -> None:
    """No hand-written SHA-256 in the page's own script (the old one rotated words with
    ``>>>`` in table.js); a secure context uses the browser's own digest."""
    table = (STATIC / "table.js").read_text(encoding="utf-8")
    assert 'crypto.subtle.digest("SHA-256"' in table and "isSecureContext" in table
    assert "window.sha256(" in table
    for path in STATIC.glob("*.js"):
        if path.name in ("sha256.js", "htmx.min.js", "htmx-sse.js"):
            continue  # vendored, each with its licence
        text = path.read_text(encoding="utf-8")
        assert ">>>" not in text and not re.search(r"0x428a2f98|1116352408", text), path.name
    base = (TEMPLATES / "base.html").read_text(encoding="utf-8")
    assert base.index("/static/sha256.js") < base.index("/static/table.js")
