"""What keeps one request from tying up or crashing the host (docs/web.md, "Limits").

- ``LimitBody``: a request body is counted as it arrives, whatever its headers claim
  (``Content-Length`` or chunked), and refused at ``MAX_BODY`` bytes (413) before the route
  reads it whole: a chunked 100 MB body costs the host one 64 KiB buffer at most.
- ``SecurityHeaders``: the headers every response carries (a Content-Security-Policy that
  allows only this site's own scripts, styles and connections, no framing, no referrer:
  a link is a secret), and ``Cache-Control: no-store`` on every page but the static files.
- ``OddsWorker``: exact odds of dice notation a person typed, computed in a separate process
  that is killed when it runs past ``ODDS_SECONDS``, so no expression holds the event loop
  or a core after the answer is given up.
- ``RateLimit``: at most ``ODDS_PER_MINUTE`` odds requests per link per minute.
"""

from __future__ import annotations

import subprocess
import threading
import time
from typing import Any

from umpire.errors import UmpireError

MAX_BODY = 64 * 1024
"""The largest request body, in bytes (an order is a few hundred)."""

ODDS_SECONDS = 2.0
"""The time cap of one odds request's computation (a table's rolls take milliseconds)."""

STARTUP_SECONDS = 30.0
"""How long the odds process may take to start (its imports; about a second)."""

ODDS_PER_MINUTE = 60
"""Odds requests one link may make in a minute (the page asks once per pause in typing)."""

ODDS_TIMEOUT_COST = 30
"""What a request cut off by the time cap counts for, in requests, beside itself: a link whose
expressions keep running into the cap is refused after two or three, then gets two a minute
(4 s of a core), not 60."""

CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"
)
"""The page's Content-Security-Policy: its own scripts and styles only (no inline script,
no ``on*=`` attribute, no inline style), requests and live updates to its own host, forms
posted to it, and no page of another site may frame it (clickjacking the end button)."""

HEADERS = [
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
]
NO_STORE = (b"cache-control", b"no-store")
_OURS = {name for name, _ in HEADERS}


async def _send_413(send: Any) -> None:
    body = b'{"error":"request too large (at most %d KiB)"}' % (MAX_BODY // 1024)
    await send(
        {
            "type": "http.response.start",
            "status": 413,
            "headers": [
                (b"content-type", b"application/json"),
                (b"connection", b"close"),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


class LimitBody:
    """Refuse a body over ``MAX_BODY`` bytes (413, one line): at once when its
    ``Content-Length`` says so, else by counting the bytes as the route reads them. A plain
    ASGI layer, cheaper than an HTTP middleware on every request."""

    def __init__(self, app: Any, limit: int = MAX_BODY):
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        size = dict(scope.get("headers") or []).get(b"content-length")
        if size is not None and (not size.isdigit() or int(size) > self.limit):
            await _send_413(send)
            return
        seen = 0
        started = refused = False

        async def counted() -> Any:
            nonlocal seen, refused
            if refused:
                return {"type": "http.disconnect"}
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.limit:
                    # Answer now and tell the route the client has gone: it reads no more.
                    refused = True
                    if not started:
                        await _send_413(send)
                    return {"type": "http.disconnect"}
            return message

        async def watch(message: Any) -> None:
            nonlocal started
            if refused:
                return  # the 413 has been sent: what the route answers goes nowhere
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, counted, watch)
        except Exception:
            if not refused:
                raise


class SecurityHeaders:
    """Add ``HEADERS`` to every response, and ``Cache-Control: no-store`` to every one but
    the static files (pages, fragments and API answers carry links and the start page's
    key: a shared computer's cache must not keep them)."""

    def __init__(self, app: Any):
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        store = not str(scope.get("path", "")).startswith("/static/")

        async def add(message: Any) -> None:
            if message["type"] == "http.response.start":
                ours = _OURS | ({b"cache-control"} if store else set())
                headers = [h for h in message.get("headers", []) if h[0].lower() not in ours]
                headers.extend(HEADERS)
                if store:
                    headers.append(NO_STORE)
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, add)


class RateLimited(UmpireError):
    """Too many requests from one link in a minute (429)."""


class Overloaded(UmpireError):
    """A computation ran past its time cap, or the host is busy with others (503)."""


class TooCostly(Overloaded):
    """The computation itself ran past its time cap (503; its link is charged for it)."""


class RateLimit:
    """At most ``per_minute`` requests per key in any minute (a token bucket per key: a
    burst of up to ``per_minute`` at once, then one more each ``60 / per_minute`` s)."""

    def __init__(self, per_minute: int = ODDS_PER_MINUTE, clock: Any = time.monotonic):
        self.per_minute = per_minute
        self.clock = clock
        self._buckets: dict[str, tuple[float, float]] = {}
        self._lock = threading.Lock()

    def take(self, key: str) -> None:
        """Count one request for ``key``, or raise ``RateLimited`` (nothing is counted)."""
        now = self.clock()
        rate = self.per_minute / 60.0
        with self._lock:
            left, then = self._buckets.get(key, (float(self.per_minute), now))
            left = min(float(self.per_minute), left + (now - then) * rate)
            if left < 1.0:
                self._buckets[key] = (left, now)
                wait = (1.0 - left) / rate
                raise RateLimited(
                    f"too many odds requests from this link: at most {self.per_minute} a "
                    f"minute; try again in {wait:.0f} s"
                )
            self._buckets[key] = (left - 1.0, now)
            self._forget(now)

    def charge(self, key: str, requests: float) -> None:
        """Count ``requests`` more against ``key`` (a costly request), down to a minute's
        worth of debt at most."""
        now = self.clock()
        rate = self.per_minute / 60.0
        with self._lock:
            left, then = self._buckets.get(key, (float(self.per_minute), now))
            left = min(float(self.per_minute), left + (now - then) * rate)
            self._buckets[key] = (max(-float(self.per_minute), left - requests), now)

    def _forget(self, now: float) -> None:
        """Forget the keys idle for two minutes (full again by now), past 10,000 keys."""
        if len(self._buckets) > 10_000:
            cutoff = now - 120.0
            for k in [k for k, (_, t) in self._buckets.items() if t < cutoff]:
                del self._buckets[k]


def _odds_loop() -> None:
    """The worker process (``python -m umpire.web.guard``): one JSON line in (an expression),
    one out (its odds, or the one-line error)."""
    import json
    import sys

    from umpire.web.book_table import odds

    def say(obj: Any) -> None:
        sys.stdout.write(json.dumps(obj, separators=(",", ":")) + "\n")
        sys.stdout.flush()

    say(["ready", None])  # the imports are done: the time cap counts from here
    for line in sys.stdin:
        try:
            say(["ok", odds(str(json.loads(line)))])
        except UmpireError as exc:
            say(["error", exc.message if hasattr(exc, "message") else str(exc)])
        except Exception as exc:  # a bug in the library must not kill the worker silently
            say(["error", f"cannot compute these odds: {type(exc).__name__}"])


class OddsWorker:
    """Exact odds in a process of their own: one computation at a time, each cut off at
    ``seconds`` (the process is killed and a fresh one started for the next request), so a
    costly expression never runs on the host's event loop, nor on after its answer.

    ``compute`` blocks: call it in a thread (``asyncio.to_thread``)."""

    def __init__(self, seconds: float = ODDS_SECONDS):
        self.seconds = seconds
        self._lock = threading.Lock()
        self._proc: subprocess.Popen[bytes] | None = None

    def _line(self, proc: subprocess.Popen[bytes], seconds: float) -> Any:
        """The worker's next answer, or None when it is not there within ``seconds``."""
        import json
        import select

        assert proc.stdout is not None
        ready, _, _ = select.select([proc.stdout], [], [], seconds)
        if not ready:
            return None
        line = proc.stdout.readline()
        if not line:
            raise EOFError
        return json.loads(line)

    def _start(self) -> subprocess.Popen[bytes]:
        import sys

        proc = subprocess.Popen(
            [sys.executable, "-m", "umpire.web.guard"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )
        self._proc = proc
        got = self._line(proc, STARTUP_SECONDS)
        if not got or got[0] != "ready":
            self._stop()
            raise Overloaded("the odds could not be computed: try again")
        return proc

    def _stop(self) -> None:
        proc, self._proc = self._proc, None
        if proc is not None:
            proc.kill()
            proc.wait(5)
            for f in (proc.stdin, proc.stdout):
                if f is not None:
                    f.close()

    def compute(self, expr: str) -> dict[str, Any]:
        """The odds of ``expr`` (``book_table.odds``), or a one-line error."""
        import json

        if not self._lock.acquire(timeout=self.seconds):
            raise Overloaded("the host is busy computing other odds: try again in a moment")
        try:
            proc = self._proc
            if proc is None or proc.poll() is not None:
                self._stop()
                proc = self._start()
            assert proc.stdin is not None
            proc.stdin.write(json.dumps(expr).encode() + b"\n")
            proc.stdin.flush()
            got = self._line(proc, self.seconds)
            if got is None:
                self._stop()
                raise TooCostly(
                    f"these odds take too long to compute (more than {self.seconds:g} s): "
                    "try fewer or smaller dice"
                )
            kind, value = got
        except (EOFError, OSError, ValueError):
            self._stop()
            raise Overloaded("the odds could not be computed: try again") from None
        finally:
            self._lock.release()
        if kind == "error":
            from umpire.errors import IllegalActionError

            raise IllegalActionError(str(value))
        out: dict[str, Any] = value
        return out

    def close(self) -> None:
        """Stop the worker process (the app's shutdown)."""
        with self._lock:
            self._stop()


if __name__ == "__main__":
    _odds_loop()
