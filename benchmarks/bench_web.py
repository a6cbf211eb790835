"""A bounded load run of the web table on loopback: N concurrent games, each acting through
the HTTP API (look at the game, then give an order), as two players at a table would.

Each player looks at its page, thinks (``--think`` seconds on average, drawn uniformly
between half and one and a half of it, seeded), and gives an order; ``--think 0`` hammers
the server with no pause at all (a stress run, not a table). Goal: p99 order latency
<= 50 ms with 0 errors at 50 games (each game's first two orders are not timed: they
fill the server's caches of exact odds, once per process). Prints p50, p90, p99 and the
worst latency of the orders, the error count, and the orders per second.

Run: .venv/bin/python benchmarks/bench_web.py [--games 50] [--actions 20] [--think 1.0]
"""

from __future__ import annotations

import argparse
import asyncio
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

KEY = "bench"
GOAL_MS = 50.0
WARM = 2
"""Orders of each game not timed: the server computes each kind of exact odds once."""


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def serve(db: Path) -> tuple[str, subprocess.Popen[bytes]]:
    """``umpire serve`` in its own process on a free loopback port, as a host would run it
    (the load comes from this process, so the two do not share one interpreter)."""
    port = _port()
    exe = Path(sys.executable).with_name("umpire")
    cmd = [str(exe), "serve", "--db", str(db), "--port", str(port), "--key", KEY]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    for _ in range(300):
        try:
            httpx.get(base + "/api/scenarios", timeout=1)
            break
        except httpx.TransportError:
            time.sleep(0.05)
    return base, proc


async def player(
    c: httpx.AsyncClient,
    link: dict[str, str],
    actions: int,
    think: float,
    seed: int,
    lat: list[float],
    errors: list[str],
) -> None:
    """One game's two players: the side to act looks, thinks, then orders (the first on the
    menu, else the last), repeated; each side through its own link."""
    import random

    rng = random.Random(seed)
    for k in range(actions):
        if think:
            await asyncio.sleep(rng.uniform(0.5 * think, 1.5 * think))
        v = (await c.get("/api" + link["spectator"])).json()
        waiting = v["table"]["waiting"]
        if v["table"]["over"] or waiting is None:
            break
        mine = "/api" + link[waiting["side"]]
        v = (await c.get(mine)).json()
        choices = v["table"]["choices"]
        pick = choices[0]["i"] if k % 2 == 0 else choices[-1]["i"]
        t0 = time.perf_counter()
        r = await c.post(mine + "/order", json={"at": v["at"], "choice": pick})
        if k >= WARM:  # the first orders of a game fill the server's caches of exact odds
            lat.append((time.perf_counter() - t0) * 1000)
        if r.status_code != 200:
            errors.append(f"{r.status_code} {r.text[:100]}")


async def load(
    base: str, links: list[dict[str, str]], args: argparse.Namespace
) -> tuple[list[float], list[str], float]:
    """Every game's players at once on one event loop (the client adds little delay)."""
    lat: list[float] = []
    errors: list[str] = []
    limits = httpx.Limits(max_connections=len(links) + 10)
    async with httpx.AsyncClient(base_url=base, timeout=30, limits=limits) as c:
        t0 = time.perf_counter()
        await asyncio.gather(
            *(
                player(c, link, args.actions, args.think, k, lat, errors)
                for k, link in enumerate(links)
            )
        )
        wall = time.perf_counter() - t0
    return lat, errors, wall


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=50)
    ap.add_argument("--actions", type=int, default=20, help="orders per game")
    ap.add_argument("--scenario", default="stone_wall")
    ap.add_argument("--think", type=float, default=1.0, help="mean seconds between orders")
    args = ap.parse_args()
    db = Path(tempfile.mkdtemp(prefix="umpire-bench-web-")) / "web.db"
    base, proc = serve(db)
    links = []
    with httpx.Client(base_url=base, timeout=60) as c:
        for _ in range(args.games):
            r = c.post(
                f"/api/games?key={KEY}",
                json={"kind": "battle", "scenario": args.scenario},
            )
            r.raise_for_status()
            links.append(r.json()["links"])
    lat, errors, wall = asyncio.run(load(base, links, args))
    proc.terminate()
    proc.wait(timeout=10)
    lat.sort()
    q = statistics.quantiles(lat, n=100)
    print(
        f"{args.games} concurrent games of {args.scenario}, {len(lat)} orders over HTTP, "
        f"think {args.think:g} s"
    )
    print(
        f"order latency p50 {q[49]:.1f} ms, p90 {q[89]:.1f} ms, p99 {q[98]:.1f} ms, "
        f"worst {lat[-1]:.1f} ms"
    )
    print(f"errors {len(errors)}; {len(lat) / wall:.0f} orders/s (each with two looks)")
    print(f"p99 against the goal of {GOAL_MS:.0f} ms: {q[98] / GOAL_MS:.2f}")
    for e in errors[:5]:
        print("  error:", e)


if __name__ == "__main__":
    main()
