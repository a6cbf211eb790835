"""What every table's page does, whatever its kind: the page and its live panel, real dice
(typed faces, the switch and its consent), joint dice (commit, reveal), undo and its
consent, the host's fork and end, the after-action report and the verification.

Routes that look at or play one step of a game are ``async def``: they run on the event
loop and take a millisecond or two, where a hop to the thread pool and the fight for the
GIL tripled the slowest latencies under load (benchmarks/bench_web.py). Long work (start,
fork, verify, export, undo) stays in the thread pool.
"""

from __future__ import annotations

import asyncio

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from umpire.errors import IllegalActionError
from umpire.web.routes.context import Web, form_at, form_of, yes


def router(web: Web, r: APIRouter | None = None) -> APIRouter:
    """A seat's page and the forms every kind of table shares, over ``web``, added to
    ``r`` (else to a router of their own)."""
    r = APIRouter() if r is None else r
    service, templates, panel = web.service, web.templates, web.panel

    @r.get("/t/{token}", response_class=HTMLResponse)
    async def table_page(request: Request, token: str) -> Response:
        """A seat's page: the table, the decision, the log; it updates itself live."""
        return templates.TemplateResponse(request, "table.html", web.page_ctx(token))

    @r.get("/t/{token}/panel", response_class=HTMLResponse)
    async def panel_fragment(request: Request, token: str) -> Response:
        """The live part of the page (refetched when the game changes)."""
        return panel(request, token)

    @r.post("/t/{token}/faces", response_class=HTMLResponse)
    async def faces_form(request: Request, token: str) -> Response:
        """The faces of real dice typed in the page (``3 5``), or the slip drawn from a cup."""
        form, at = await form_at(request)
        service.faces(service.seat(token), at, form.get("faces", "")[:2000])
        return panel(request, token)

    @r.post("/t/{token}/real-dice", response_class=HTMLResponse)
    async def real_dice_form(request: Request, token: str) -> Response:
        """Switch this side to real dice (type the faces) or back to the game's dice."""
        form = await form_of(request)
        service.set_real_dice(service.seat(token), form.get("on", "") in ("1", "true", "on"))
        return panel(request, token)

    @r.post("/t/{token}/commit", response_class=HTMLResponse)
    async def commit_form(request: Request, token: str) -> Response:
        """Joint dice: the page sends its side's commitment (its value stays in the page)."""
        form = await form_of(request)
        service.commit(service.seat(token), form.get("digest", ""))
        return panel(request, token)

    @r.post("/t/{token}/reveal", response_class=HTMLResponse)
    async def reveal_form(request: Request, token: str) -> Response:
        """Joint dice: the page reveals its value once every side has committed."""
        form = await form_of(request)
        service.reveal(service.seat(token), form.get("value", ""), form.get("entropy") or None)
        return panel(request, token)

    @r.post("/t/{token}/undo", response_class=HTMLResponse)
    async def undo_form(request: Request, token: str) -> Response:
        """Take back what this seat may take back, or ask the other side to agree."""
        _, at = await form_at(request)
        service.undo(service.seat(token), at)
        return panel(request, token)

    @r.post("/t/{token}/undo/answer", response_class=HTMLResponse)
    async def undo_answer_form(request: Request, token: str) -> Response:
        """Agree to (or refuse) the other side's undo; the asker may take it back."""
        form, at = await form_at(request)
        service.answer_undo(service.seat(token), at, yes(form, "agree"))
        return panel(request, token)

    @r.post("/t/{token}/real-dice/answer", response_class=HTMLResponse)
    async def real_dice_answer_form(request: Request, token: str) -> Response:
        """Agree to (or refuse) the other side's switch to real dice."""
        form = await form_of(request)
        service.answer_real_dice(service.seat(token), yes(form, "agree"))
        return panel(request, token)

    @r.post("/t/{token}/fork", response_class=HTMLResponse)
    async def fork_form(request: Request, token: str) -> Response:
        """The host forks the game to a new table (keeping its dice only once it has ended)."""
        form = await form_of(request)
        seat = service.seat(token)
        keep = yes(form, "keep_dice")
        _, links = await asyncio.to_thread(service.fork, seat, keep)
        return RedirectResponse(f"/t/{links['host']}", 303)

    @r.post("/t/{token}/end", response_class=HTMLResponse)
    async def end_form(request: Request, token: str) -> Response:
        """The host ends the game (the seed is revealed): only with the page's confirmation,
        since it cannot be undone."""
        form = await form_of(request)
        seat = service.seat(token)
        if form.get("confirm") != "end":
            raise IllegalActionError(
                "ending the game cannot be undone: confirm it with 'Yes, end the game'"
            )
        await asyncio.to_thread(service.end, seat)
        return panel(request, token)

    @r.get("/t/{token}/aar")
    def aar_file(token: str) -> Response:
        """The after-action report of a game that is over, as a file to keep (one
        self-contained HTML file, issue 24; its inline style is not this page's)."""
        seat = service.seat(token)
        text = service.aar(seat)
        return Response(
            text,
            media_type="text/html; charset=utf-8",
            headers={"Content-Disposition": f'attachment; filename="{seat.game}-aar.html"'},
        )

    @r.get("/t/{token}/verify", response_class=HTMLResponse)
    def verify_page(request: Request, token: str) -> Response:
        """Verify the ended game: every die against the revealed seed, and the replay."""
        report = service.verify(service.seat(token))
        return templates.TemplateResponse(request, "verify.html", {"r": report})

    return r
