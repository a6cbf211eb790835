"""The dice book's page: its actions (roll, table, pick, deck, draw, shuffle, new day; a
module table's commands come the same way) and a roll's exact odds before it is thrown."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

from umpire.web.routes.context import Web, form_at


def router(web: Web, r: APIRouter | None = None) -> APIRouter:
    """The dice book's routes over ``web``, added to ``r`` (else to a router of their own)."""
    r = APIRouter() if r is None else r
    service = web.service

    @r.post("/t/{token}/act", response_class=HTMLResponse)
    async def act_form(request: Request, token: str) -> Response:
        """A dice-book action from the page."""
        form, at = await form_at(request)
        seat = service.seat(token)
        action = form.pop("action", "")
        form.pop("at", None)
        entropy = form.pop("entropy", "") or None
        await web.typed_roll_fits(token, action, form)
        service.act(seat, at, action, dict(form), entropy)
        return web.panel(request, token)

    @r.get("/t/{token}/odds", response_class=HTMLResponse)
    async def odds_fragment(request: Request, token: str, expr: str = "") -> Response:
        """A roll's exact distribution before it is thrown."""
        if not expr.strip():
            service.seat(token)
            return HTMLResponse("")
        o = await web.odds_of(token, expr)
        return web.templates.TemplateResponse(request, "odds.html", {"o": o})

    return r
