"""Attack on the host's own use: yesterday's start page gives 403 after a restart (issue 22:
"The host key changes at every start of `umpire serve`, so yesterday's start page gives 403:
keep it in the save file (with a command to show it or make a new one).")."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx


def umpire(*args: str) -> str:
    exe = Path(sys.executable).with_name("umpire")
    out = subprocess.run(
        [str(exe), *args], capture_output=True, text=True, timeout=120, env=dict(os.environ)
    )
    assert out.returncode == 0, out.stdout + out.stderr
    return out.stdout


def start_page(printed: str) -> str:
    """The start page's path and query as ``umpire serve`` printed it."""
    return "/?key=" + printed.split("/?key=")[1].split()[0]


def test_the_start_page_survives_a_restart(serve: Any, tmp_path: Path) -> None:
    """The page printed by the first start still opens after a restart on the same file."""
    db = tmp_path / "kept.db"
    first = serve(db=db)
    page = start_page(first.printed)
    assert httpx.get(first.base + page, timeout=30).status_code == 200
    first.stop()
    second = serve(db=db)
    assert start_page(second.printed) == page
    assert httpx.get(second.base + page, timeout=30).status_code == 200


def test_host_key_shows_the_key_and_makes_a_new_one(serve: Any, tmp_path: Path) -> None:
    """``umpire host-key`` shows the key the server prints; ``--new`` replaces it, and after
    a restart the old start page is refused (403) and the new one opens."""
    db = tmp_path / "rotated.db"
    first = serve(db=db)
    old = start_page(first.printed)
    first.stop()
    assert old.removeprefix("/?key=") in umpire("host-key", "--db", str(db))
    made = umpire("host-key", "--db", str(db), "--new")
    new = made.split("key=")[1].split()[0]
    assert new != old.removeprefix("/?key=")
    second = serve(db=db)
    assert start_page(second.printed) == "/?key=" + new
    assert httpx.get(second.base + old, timeout=30).status_code == 403
    assert httpx.get(second.base + "/?key=" + new, timeout=30).status_code == 200
