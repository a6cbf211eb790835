"""Shared by the attack scripts: ``umpire serve`` in its own process on a free loopback port
(as a host runs it), so that memory, CPU and the event loop are measured as they really are.
Every server is stopped at the end of its test; nothing leaves this machine."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest


def free_port() -> int:
    """A free TCP port on 127.0.0.1."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class Server:
    """One ``umpire serve`` process; ``start`` again after ``stop`` is a restart."""

    def __init__(self, db: Path, *args: str):
        self.db = db
        self.args = list(args)
        self.proc: subprocess.Popen[str] | None = None
        self.base = ""
        self.printed = ""

    def start(self, *extra: str) -> Server:
        port = free_port()
        exe = Path(sys.executable).with_name("umpire")
        cmd = [str(exe), "serve", "--db", str(self.db), "--port", str(port), *self.args, *extra]
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        self.proc = subprocess.Popen(
            cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env
        )
        self.base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 60
        while True:
            assert self.proc.poll() is None, "umpire serve stopped at start"
            assert time.monotonic() < deadline, "umpire serve did not start in 60 s"
            try:
                httpx.get(self.base + "/api/scenarios", timeout=2)
                break
            except httpx.TransportError:
                time.sleep(0.1)
        assert self.proc.stdout is not None
        self.printed = self.proc.stdout.readline() + self.proc.stdout.readline()
        return self

    @property
    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)
        self.proc = None


@pytest.fixture
def serve(tmp_path: Path) -> Iterator[Any]:
    """``serve(*args)``: a started server over a fresh save file (stopped after the test)."""
    started: list[Server] = []

    def make(*args: str, db: Path | None = None) -> Server:
        srv = Server(db or tmp_path / "table.db", *args)
        started.append(srv)
        return srv.start()

    yield make
    for srv in started:
        srv.stop()


def family(pid: int) -> list[int]:
    """A process and its children (Linux /proc)."""
    pids = [pid]
    children = Path(f"/proc/{pid}/task/{pid}/children")
    if children.exists():
        pids += [int(p) for p in children.read_text().split()]
    return pids


def rss_mb(pid: int) -> float:
    """The resident memory of a process and its children, in MB (Linux /proc)."""
    total = 0.0
    for p in family(pid):
        try:
            for line in Path(f"/proc/{p}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1]) / 1024
        except FileNotFoundError:
            continue
    return total


def new_game(base: str, key: str, **body: Any) -> dict[str, str]:
    """Start a game through the API; its links by role."""
    r = httpx.post(f"{base}/api/games?key={key}", json=body, timeout=30)
    assert r.status_code == 200, r.text
    links: dict[str, str] = r.json()["links"]
    return links
