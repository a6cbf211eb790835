"""The web table's cost of finding a route: in-process ASGI requests that the app routes
and answers at once (a forged link's 404, a path that matches nothing), CPU time per
request (``time.process_time``). Issue 25 split ``create_app`` into routers; this holds
the split to the old cost (an included FastAPI router is one more level per request).

Run: .venv/bin/python benchmarks/bench_web_routes.py [--n 4000]
Compare two trees by putting each first on PYTHONPATH in turn, one right after the other.
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
from pathlib import Path
from typing import Any

from umpire.web.app import create_app

PATHS = ("/api/t/nope", "/t/nope/allowance", "/nowhere")
"""The JSON view (the last router), a battle's allowance, and no route at all."""


async def call(app: Any, path: str) -> int:
    """One GET through the whole app (middleware included); its status."""
    status = 0

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: dict[str, Any]) -> None:
        nonlocal status
        if message["type"] == "http.response.start":
            status = message["status"]

    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "GET",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": [(b"host", b"bench")],
        "client": ("127.0.0.1", 1),
        "server": ("bench", 80),
    }
    await app(scope, receive, send)
    return status


async def main(n: int) -> None:
    app = create_app(Path(tempfile.mkdtemp(prefix="umpire-routes-")) / "web.db", "bench")
    for path in PATHS:
        for _ in range(n // 10):
            await call(app, path)
        t = time.process_time()
        for _ in range(n):
            await call(app, path)
        print(f"{path}: {(time.process_time() - t) / n * 1e6:.0f} us/request")


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=4000, help="requests a path")
    asyncio.run(main(ap.parse_args().n))
