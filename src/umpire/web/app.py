"""``umpire serve``: the web table (FastAPI, Jinja2 and HTMX; live updates by server-sent events).

Two faces on the same operations (``service.Service``): HTML pages and fragments for
people, and a JSON API under ``/api`` for programs and tests. A side's link acts only for
that side; the host's start page needs the key ``umpire serve`` prints. Errors are one
line: 400 bad input, 403 not this seat's to do, 404 a link that opens nothing, 409 a
stale request, 413 an oversized one.

``create_app`` assembles the app: the shared things (``routes.context.Web``), the
middleware, the error handlers, the static files and the routes of ``umpire.web.routes``
(one router a kind of page).
"""

from __future__ import annotations

import threading
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.types import ASGIApp

from umpire.errors import UmpireError
from umpire.web.guard import LimitBody, OddsWorker, Overloaded, RateLimited, SecurityHeaders
from umpire.web.routes import api, battle, book, command, host, live, seat
from umpire.web.routes.context import Web, esc
from umpire.web.seats import LinkError, host_key
from umpire.web.service import RoleError, Service, StaleError

HERE = Path(__file__).resolve().parent

ROUTERS = (host, live, seat, battle, book, command, api)
"""The route modules, each with ``router(web)``, in the order the app tries them."""


def status_of(exc: UmpireError) -> int:
    """The HTTP status for an error a user caused."""
    if isinstance(exc, LinkError):
        return 404
    if isinstance(exc, RoleError):
        return 403
    if isinstance(exc, StaleError):
        return 409
    if isinstance(exc, RateLimited):
        return 429
    if isinstance(exc, Overloaded):
        return 503
    return 400


def htmx(request: Request) -> bool:
    """Whether the request is a fragment fetched by HTMX."""
    return request.headers.get("hx-request") == "true"


async def on_error(request: Request, exc: UmpireError) -> Response:
    """An error a user caused, in one line: JSON under ``/api``, the page's flash for HTMX,
    else the error page."""
    code = status_of(exc)
    msg = exc.message if hasattr(exc, "message") else str(exc)
    if request.url.path.startswith("/api/"):
        return JSONResponse({"error": msg}, code)
    if htmx(request):
        return HTMLResponse(
            f'<p class="error" role="alert">{esc(msg)}</p>',
            code,
            headers={"HX-Retarget": "#flash", "HX-Reswap": "innerHTML"},
        )
    web: Web = request.app.state.web
    return web.templates.TemplateResponse(
        request, "error.html", {"message": msg, "code": code}, status_code=code
    )


async def on_bad_request(request: Request, exc: RequestValidationError) -> Response:
    """A malformed request: its first problem in one line (422)."""
    err = exc.errors()[0] if exc.errors() else {"loc": (), "msg": "malformed request"}
    where = ".".join(str(p) for p in err.get("loc", ()) if p != "body") or "request"
    msg = f"{where}: {err.get('msg', 'malformed')}"
    if request.url.path.startswith("/api/"):
        return JSONResponse({"error": msg}, 422)
    return HTMLResponse(f'<p class="error" role="alert">{esc(msg)}</p>', 422)


def warm_modules() -> None:
    """Let every role module that can compute its menus' exact odds ahead (``warm``)."""
    from umpire.rules import role_module, role_module_ids

    for mid in role_module_ids():
        warm = getattr(role_module(mid), "warm", None)
        if callable(warm):
            warm()


class _App(FastAPI):
    """FastAPI with ``SecurityHeaders`` outside everything, Starlette's error layer too: a
    bug's 500 carries the headers as every other response does (issue 22)."""

    def build_middleware_stack(self) -> ASGIApp:
        return SecurityHeaders(super().build_middleware_stack())


def create_app(db: str | Path | None = None, key: str | None = None) -> FastAPI:
    """The app over the save file ``db`` (default: the usual one); ``key`` opens the host's
    start page (default: the one kept in the save file, which ``umpire serve`` prints)."""
    service = Service(db)
    threading.Thread(target=warm_modules, daemon=True, name="warm-odds").start()
    odds_worker = OddsWorker()

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        yield
        odds_worker.close()  # the odds process ends with the server

    app = _App(
        lifespan=lifespan,
        title="Umpire web table",
        version="1",
        description="Play and umpire games from a browser: one secret link per side.",
        docs_url=None,  # Swagger UI and ReDoc load from a CDN with inline script: the
        redoc_url=None,  # CSP blocks them (guard.CSP); /openapi.json describes the API
    )
    web = Web(service, key or host_key(service.store), odds_worker)
    app.state.web = web
    app.state.service = service
    app.state.key = web.key
    app.state.odds_worker = odds_worker
    app.mount("/static", StaticFiles(directory=str(HERE / "static")), name="static")

    app.add_middleware(LimitBody)  # inside SecurityHeaders (_App): a 413 carries them too

    app.exception_handler(UmpireError)(on_error)
    app.exception_handler(RequestValidationError)(on_bad_request)

    # Each router's routes go straight onto the app's own router: an included router is
    # one more level that every request searches (50-90 us a request on this machine).
    for module in ROUTERS:
        module.router(web, app.router)
    return app
