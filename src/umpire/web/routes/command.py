"""A module table's questions (the Gettysburg assistant's command phase, through the
``AtTable`` seam): the answer a side gives from the page. Its commands go through the dice
book's ``act`` route."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

from umpire.web.routes.context import Web, form_at


def router(web: Web, r: APIRouter | None = None) -> APIRouter:
    """A module table's routes over ``web``, added to ``r`` (else to a router of their own)."""
    r = APIRouter() if r is None else r
    service = web.service

    @r.post("/t/{token}/answer", response_class=HTMLResponse)
    async def answer_form(request: Request, token: str) -> Response:
        """The answer to a question, from the page's form (checkboxes or one button)."""
        raw = await request.form()
        _, at = await form_at(request)
        chosen = [str(v) for v in raw.getlist("answer")]
        service.answer(service.seat(token), at, chosen)
        return web.panel(request, token)

    return r
