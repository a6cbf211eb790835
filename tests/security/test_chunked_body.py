"""Attack: a chunked 100 MB body to an order route, with a forged link (issue 22, "No request
can tie up or crash the host": "The 64 KiB limit is checked only against Content-Length: a
chunked 100 MB body to any order route is read whole (memory 118 -> 423 MB) without a valid
token. Count the bytes as they arrive and stop at the limit.")."""

from __future__ import annotations

import socket
import time
from typing import Any

from tests.security.conftest import rss_mb

CHUNK = 64 * 1024
TOTAL = 100 * 1024 * 1024


def send_chunked(base: str, path: str, kind: str = "application/json") -> tuple[str, int]:
    """Send up to 100 MB as chunked transfer encoding; stop as soon as the server answers.
    Returns the status line and how many body bytes had gone out by then."""
    host, port = base.removeprefix("http://").split(":")
    sock = socket.create_connection((host, int(port)), timeout=30)
    sock.sendall(
        f"POST {path} HTTP/1.1\r\nHost: {host}\r\nContent-Type: {kind}\r\n"
        "Transfer-Encoding: chunked\r\n\r\n".encode()
    )
    sock.setblocking(False)
    filler = b"[" if kind == "application/json" else b"a"
    chunk = b"%x\r\n" % CHUNK + filler * CHUNK + b"\r\n"
    sent = 0
    answer = b""
    deadline = time.monotonic() + 60
    while sent < TOTAL and time.monotonic() < deadline:
        try:
            answer += sock.recv(4096)
            if answer:
                break
        except BlockingIOError:
            pass
        try:
            sock.sendall(chunk)
            sent += CHUNK
        except BlockingIOError:
            time.sleep(0.001)
        except (BrokenPipeError, ConnectionResetError):
            break
    sock.setblocking(True)
    sock.settimeout(30)
    if sent >= TOTAL:
        sock.sendall(b"0\r\n\r\n")
    try:
        while b"\r\n" not in answer:
            got = sock.recv(4096)
            if not got:
                break
            answer += got
    except (ConnectionResetError, TimeoutError):
        pass
    sock.close()
    return answer.split(b"\r\n", 1)[0].decode(errors="replace"), sent


def test_a_chunked_100_mb_body_is_refused_early_with_memory_flat(serve: Any) -> None:
    """The body is counted as it arrives: 413 long before 100 MB have gone out, and the
    host's memory stays flat (a forged token: the refusal needs no valid link)."""
    srv = serve()
    before = rss_mb(srv.pid)
    status, sent = send_chunked(srv.base, "/api/t/forged-token/order")
    after = rss_mb(srv.pid)
    assert " 413 " in status + " ", status
    assert sent < 16 * 1024 * 1024, f"{sent} bytes went out before the answer"
    assert after - before < 30, f"memory grew {before:.0f} -> {after:.0f} MB"


def test_the_page_routes_count_chunked_bytes_too(serve: Any) -> None:
    """The form routes of the page (read by ``request.form()``) have the same limit."""
    srv = serve()
    before = rss_mb(srv.pid)
    status, sent = send_chunked(
        srv.base, "/t/forged-token/order", "application/x-www-form-urlencoded"
    )
    assert rss_mb(srv.pid) - before < 30
    assert " 413 " in status + " ", status
    assert sent < 16 * 1024 * 1024
