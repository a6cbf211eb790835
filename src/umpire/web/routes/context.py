"""What the routers of one web app share (:class:`Web`), and the small readers of forms and
writers of answers they all use."""

from __future__ import annotations

import asyncio
import json
import secrets
from html import escape
from pathlib import Path
from typing import Any

from fastapi import Request
from fastapi.responses import Response
from fastapi.templating import Jinja2Templates

from umpire.errors import IllegalActionError
from umpire.web.guard import ODDS_TIMEOUT_COST, OddsWorker, RateLimit, TooCostly
from umpire.web.service import RoleError, Service

TEMPLATES = Path(__file__).resolve().parent.parent / "templates"


class Web:
    """One app's table service, page templates, host key and odds process (with its rate
    limit): made once by ``create_app`` and handed to every router."""

    def __init__(self, service: Service, key: str, odds_worker: OddsWorker) -> None:
        self.service = service
        self.key = key
        self.odds_worker = odds_worker
        self.odds_limit = RateLimit()
        self.templates = Jinja2Templates(directory=str(TEMPLATES))

    def check_key(self, k: str | None) -> None:
        """Refuse (403) a start-page request without the host's key."""
        given = (k or "").encode("utf-8", "surrogatepass")
        if not k or not secrets.compare_digest(given, str(self.key).encode()):
            raise RoleError("the host's start page needs the key that 'umpire serve' printed")

    def page_ctx(self, token: str) -> dict[str, Any]:
        """What a seat's page and its panel show."""
        service = self.service
        seat = service.seat(token)
        # The version is read before the view, so a page never claims to be newer than it is.
        version = service.version(seat.game)
        return {"v": service.view(seat), "token": token, "version": version, "boot": service.boot}

    def panel(self, request: Request, token: str) -> Response:
        """The live part of a seat's page, as every form that changes the game answers."""
        return self.templates.TemplateResponse(request, "panel.html", self.page_ctx(token))

    async def odds_of(self, token: str, expr: str) -> dict[str, Any]:
        """A typed roll's odds: one link's requests rate-limited, the work in the odds process
        under its time cap (``umpire.web.guard``), never on the event loop."""
        self.service.seat(token)
        self.odds_limit.take(token)
        try:
            return await asyncio.to_thread(self.odds_worker.compute, expr[:80])
        except TooCostly:
            self.odds_limit.charge(token, ODDS_TIMEOUT_COST)  # a link that keeps trying waits
            raise

    async def typed_roll_fits(self, token: str, action: str, params: dict[str, Any]) -> None:
        """A dice-book roll computes its expression's odds on the event loop (to log them):
        try them first in the odds process, where issue 21's cost estimate refuses a costly
        one at once (400) and the time cap (503) catches whatever the estimate misses."""
        expr = params.get("expr")
        if action == "roll" and isinstance(expr, str) and expr.strip():
            await self.odds_of(token, expr)


async def form_of(request: Request) -> dict[str, str]:
    """A page's form, each value as text."""
    return {k: str(v) for k, v in (await request.form()).items()}


async def form_at(request: Request) -> tuple[dict[str, str], int | None]:
    """A page's form and the game version it saw (``at``), for a form that changes the game."""
    form = await form_of(request)
    try:
        at = int(form["at"]) if "at" in form else None
    except ValueError:
        raise IllegalActionError(f"at: a whole number, not {form['at']!r}") from None
    return form, at


def num(form: dict[str, str], key: str, kind: type[int] | type[float]) -> Any:
    """A form's number (None when the field is empty or missing)."""
    if form.get(key, "") == "":
        return None
    try:
        return kind(form[key])
    except ValueError:
        raise IllegalActionError(f"{key}: a number, not {form[key]!r}") from None


def yes(form: dict[str, str], key: str) -> bool:
    """A form's checkbox or yes/no button."""
    return form.get(key, "") in ("1", "true", "on", "yes")


def fast(obj: Any) -> Response:
    """A JSON response written by ``json.dumps`` at once (a view is a large nested dict; the
    generic encoder walks it in Python, several times slower)."""
    return Response(json.dumps(obj, separators=(",", ":")), media_type="application/json")


def esc(text: str) -> str:
    """Text made safe to put in a page."""
    return escape(text)
