"""Live updates by server-sent events (sse-starlette): the start page's ``changed`` when a
game or its presence changes, and a seat's ``changed`` when its game does."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

from fastapi import APIRouter, Request
from fastapi.responses import Response

from umpire.web.routes.context import Web


def router(web: Web, r: APIRouter | None = None) -> APIRouter:
    """The event streams over ``web``, added to ``r`` (else to a router of their own)."""
    r = APIRouter() if r is None else r
    service = web.service

    @r.get("/lobby/events")
    async def lobby_events(key: str | None = None) -> Response:
        """Server-sent events for the start page: ``changed`` when a game changes or a
        page comes or goes."""
        from sse_starlette.sse import EventSourceResponse

        web.check_key(key)

        async def stream() -> AsyncIterator[dict[str, str]]:
            last = service.lobby
            while True:
                if service.lobby != last:
                    last = service.lobby
                    yield {"event": "changed", "data": str(last)}
                await asyncio.sleep(0.5)

        return EventSourceResponse(stream(), ping=15)

    @r.get("/t/{token}/events")
    async def events(request: Request, token: str, since: int | None = None) -> Response:
        """Server-sent events: ``changed`` whenever the game changes.

        A stream starts from the version the page showed (``since``, or on a reconnect the
        ``Last-Event-ID`` the browser sends back), so a change made while the page was
        loading, or while a phone was off the network, is announced at once, not lost."""
        from sse_starlette.sse import EventSourceResponse

        seat = service.seat(token)
        resumed = request.headers.get("last-event-id", "")
        start = int(resumed) if resumed.isdigit() else since

        async def stream() -> AsyncIterator[dict[str, str]]:
            last = service.version(seat.game) if start is None else start
            service.arrive(seat)  # the host's start page shows who is connected now
            try:
                while True:
                    now = service.version(seat.game)
                    if now != last:
                        last = now
                        yield {"event": "changed", "data": str(now), "id": str(now)}
                    await asyncio.sleep(0.25)
            finally:
                service.leave(seat)

        return EventSourceResponse(stream(), ping=15)

    return r
