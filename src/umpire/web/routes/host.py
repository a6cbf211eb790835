"""The host's pages (the start page needs the key ``umpire serve`` prints): the start page,
its list of games, new games from its form, and opening a game's table."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from umpire.web.routes.context import Web


def router(web: Web, r: APIRouter | None = None) -> APIRouter:
    """The start page's routes over ``web``, added to ``r`` (else to a router of their own)."""
    r = APIRouter() if r is None else r
    service, templates, check_key = web.service, web.templates, web.check_key

    @r.get("/", response_class=HTMLResponse)
    def index(request: Request, key: str | None = None) -> Response:
        """The host's start page: new games and the games with a table."""
        check_key(key)
        return templates.TemplateResponse(
            request,
            "index.html",
            {
                "scenarios": service.scenarios(),
                "games": service.games(),
                "saved": service.saved(),
                "key": key,
            },
        )

    @r.get("/lobby", response_class=HTMLResponse)
    def lobby(request: Request, key: str | None = None) -> Response:
        """The start page's list of games, with who is connected to each now."""
        check_key(key)
        return templates.TemplateResponse(
            request, "lobby.html", {"games": service.games(), "key": key}
        )

    @r.post("/games", response_class=HTMLResponse)
    async def new_game_form(request: Request, key: str | None = None) -> Response:
        """Start a game from the start page's form; open the host's page."""
        check_key(key)
        form = await request.form()
        players = {s: str(form.get(f"player_{s}", "human")) for s in ("union", "confederate")}
        _, links = service.create(
            str(form.get("kind", "battle")),
            str(form.get("scenario", "")),
            players,
            str(form.get("dice", "committed")),
            str(form.get("title", "")),
            start=str(form.get("start", ""))[:40],
        )
        return RedirectResponse(f"/t/{links['host']}", 303)

    @r.post("/open/{game}", response_class=HTMLResponse)
    def open_saved(game: str, key: str | None = None) -> Response:
        """Give a game saved at the command line a table, and open the host's page."""
        check_key(key)
        links = service.open_saved(game)
        return RedirectResponse(f"/t/{links['host']}", 303)

    @r.get("/host/{game}", response_class=HTMLResponse)
    def open_host(game: str, key: str | None = None) -> Response:
        """The host's page of a game listed on the start page."""
        check_key(key)
        return RedirectResponse(f"/t/{service.host_link(game)}", 303)

    return r
