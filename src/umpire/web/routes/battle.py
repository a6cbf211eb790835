"""A battle's page: its orders (a menu pick, a tap on the table or on a unit) and the acting
unit's move allowance for the map."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

from umpire.web.routes.context import Web, fast, form_at, num


def router(web: Web, r: APIRouter | None = None) -> APIRouter:
    """A battle's routes over ``web``, added to ``r`` (else to a router of their own)."""
    r = APIRouter() if r is None else r
    service = web.service

    @r.post("/t/{token}/order", response_class=HTMLResponse)
    async def order_form(request: Request, token: str) -> Response:
        """A battle order from the page (menu button, tap on the table or on a unit)."""
        form, at = await form_at(request)
        seat = service.seat(token)
        x, y = num(form, "x", float), num(form, "y", float)
        tap = (x, y) if x is not None and y is not None else None
        service.order(
            seat,
            at,
            num(form, "choice", int),
            tap,
            num(form, "unit", int),
            form.get("entropy") or None,
        )
        return web.panel(request, token)

    @r.get("/t/{token}/allowance")
    async def allowance(token: str) -> Response:
        """Where the acting unit may move now (an outline in table inches), for the map."""
        return fast(service.allowance(service.seat(token)))

    return r
