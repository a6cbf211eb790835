"""``umpire serve``: the web table (FastAPI, Jinja2 and HTMX; live updates by server-sent events).

Two faces on the same operations (``service.Service``): HTML pages and fragments for
people, and a JSON API under ``/api`` for programs and tests. A side's link acts only for
that side; the host's start page needs the key ``umpire serve`` prints. Errors are one
line: 400 bad input, 403 not this seat's to do, 404 a link that opens nothing, 409 a
stale request, 413 an oversized one.
"""

from __future__ import annotations

import asyncio
import secrets
import threading
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates
from pydantic import BaseModel, ConfigDict, Field

from umpire.errors import IllegalActionError, UmpireError
from umpire.web.guard import (
    ODDS_TIMEOUT_COST,
    LimitBody,
    OddsWorker,
    Overloaded,
    RateLimit,
    RateLimited,
    SecurityHeaders,
    TooCostly,
)
from umpire.web.seats import LinkError, host_key
from umpire.web.service import RoleError, Service, StaleError

HERE = Path(__file__).resolve().parent


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


class NewGame(BaseModel):
    """``POST /api/games``: what to start."""

    model_config = ConfigDict(extra="forbid")
    kind: str = Field("battle", max_length=20)
    scenario: str = Field("", max_length=80)
    players: dict[str, str] = Field(default_factory=dict, max_length=4)
    dice: str = Field("committed", max_length=20)
    title: str = Field("", max_length=80)
    seed: int | None = Field(None, ge=0, le=2**63 - 1)
    start: str = Field("", max_length=40)


class OrderIn(BaseModel):
    """``POST /api/t/{token}/order``: a menu pick, a tap on the table, or a unit aimed at."""

    model_config = ConfigDict(extra="forbid")
    at: int = Field(ge=0, le=10_000_000)
    choice: int | None = Field(None, ge=0, le=10_000)
    x: float | None = Field(None, ge=-1000, le=1000)
    y: float | None = Field(None, ge=-1000, le=1000)
    unit: int | None = Field(None, ge=0, le=10_000)
    entropy: str | None = Field(None, max_length=64, description="fresh random hex (joint dice)")


class ActIn(BaseModel):
    """``POST /api/t/{token}/act``: a dice-book action with its parameters."""

    model_config = ConfigDict(extra="forbid")
    at: int = Field(ge=0, le=10_000_000)
    action: str = Field(max_length=20)
    params: dict[str, Any] = Field(default_factory=dict, max_length=20)
    entropy: str | None = Field(None, max_length=64, description="fresh random hex (joint dice)")


class AnswerIn(BaseModel):
    """``POST /api/t/{token}/answer``: the option ids chosen for the waiting question."""

    model_config = ConfigDict(extra="forbid")
    at: int = Field(ge=0, le=10_000_000)
    answer: list[str] = Field(max_length=100)


class FacesIn(BaseModel):
    """``POST /api/t/{token}/faces``: the faces of the real dice the action waits for."""

    model_config = ConfigDict(extra="forbid")
    at: int = Field(ge=0, le=10_000_000)
    faces: list[int] = Field(max_length=200)


class RealDiceIn(BaseModel):
    """``POST /api/t/{token}/real-dice``: this side rolls real dice (or the game's) from now."""

    model_config = ConfigDict(extra="forbid")
    on: bool


class CommitIn(BaseModel):
    """Joint dice, phase one: sha256 hex of this side's secret value's hex text."""

    model_config = ConfigDict(extra="forbid")
    digest: str = Field(max_length=64)


class RevealIn(BaseModel):
    """Joint dice, phase two: the value itself (64 lowercase hex digits)."""

    model_config = ConfigDict(extra="forbid")
    value: str = Field(max_length=64)
    entropy: str | None = Field(None, max_length=64)


class AtIn(BaseModel):
    """A request that changes the game names the state it saw."""

    model_config = ConfigDict(extra="forbid")
    at: int = Field(ge=0, le=10_000_000)


class ConsentIn(BaseModel):
    """``POST /api/t/{token}/undo/answer``: agree to (or refuse) the undo waiting."""

    model_config = ConfigDict(extra="forbid")
    at: int = Field(ge=0, le=10_000_000)
    agree: bool


class RealConsentIn(BaseModel):
    """``POST /api/t/{token}/real-dice/answer``: agree to (or refuse) the other side's real dice."""

    model_config = ConfigDict(extra="forbid")
    agree: bool


class ForkIn(BaseModel):
    """``POST /api/t/{token}/fork``: keep the parent's dice (only from an ended game)."""

    model_config = ConfigDict(extra="forbid")
    keep_dice: bool = False


def warm_modules() -> None:
    """Let every role module that can compute its menus' exact odds ahead (``warm``)."""
    from umpire.rules import role_module, role_module_ids

    for mid in role_module_ids():
        warm = getattr(role_module(mid), "warm", None)
        if callable(warm):
            warm()


def create_app(db: str | Path | None = None, key: str | None = None) -> FastAPI:
    """The app over the save file ``db`` (default: the usual one); ``key`` opens the host's
    start page (default: the one kept in the save file, which ``umpire serve`` prints)."""
    service = Service(db)
    threading.Thread(target=warm_modules, daemon=True, name="warm-odds").start()
    odds_worker = OddsWorker()
    odds_limit = RateLimit()

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        yield
        odds_worker.close()  # the odds process ends with the server

    app = FastAPI(
        lifespan=lifespan,
        title="Umpire web table",
        version="1",
        description="Play and umpire games from a browser: one secret link per side.",
    )
    app.state.service = service
    app.state.key = key or host_key(service.store)
    app.state.odds_worker = odds_worker
    templates = Jinja2Templates(directory=str(HERE / "templates"))
    app.mount("/static", StaticFiles(directory=str(HERE / "static")), name="static")

    app.add_middleware(LimitBody)
    app.add_middleware(SecurityHeaders)  # outermost: a 413 carries the headers too

    def htmx(request: Request) -> bool:
        return request.headers.get("hx-request") == "true"

    def fail(request: Request, exc: UmpireError) -> Response:
        code = status_of(exc)
        msg = exc.message if hasattr(exc, "message") else str(exc)
        if request.url.path.startswith("/api/"):
            return JSONResponse({"error": msg}, code)
        if htmx(request):
            return HTMLResponse(
                f'<p class="error" role="alert">{_esc(msg)}</p>',
                code,
                headers={"HX-Retarget": "#flash", "HX-Reswap": "innerHTML"},
            )
        return templates.TemplateResponse(
            request, "error.html", {"message": msg, "code": code}, status_code=code
        )

    @app.exception_handler(UmpireError)
    async def on_error(request: Request, exc: UmpireError) -> Response:
        return fail(request, exc)

    @app.exception_handler(RequestValidationError)
    async def on_bad_request(request: Request, exc: RequestValidationError) -> Response:
        """A malformed request: its first problem in one line (422)."""
        err = exc.errors()[0] if exc.errors() else {"loc": (), "msg": "malformed request"}
        where = ".".join(str(p) for p in err.get("loc", ()) if p != "body") or "request"
        msg = f"{where}: {err.get('msg', 'malformed')}"
        if request.url.path.startswith("/api/"):
            return JSONResponse({"error": msg}, 422)
        return HTMLResponse(f'<p class="error" role="alert">{_esc(msg)}</p>', 422)

    def check_key(k: str | None) -> None:
        given = (k or "").encode("utf-8", "surrogatepass")
        if not k or not secrets.compare_digest(given, str(app.state.key).encode()):
            raise RoleError("the host's start page needs the key that 'umpire serve' printed")

    # -- pages ------------------------------------------------------------------------------
    @app.get("/", response_class=HTMLResponse)
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

    @app.get("/lobby", response_class=HTMLResponse)
    def lobby(request: Request, key: str | None = None) -> Response:
        """The start page's list of games, with who is connected to each now."""
        check_key(key)
        return templates.TemplateResponse(
            request, "lobby.html", {"games": service.games(), "key": key}
        )

    @app.get("/lobby/events")
    async def lobby_events(key: str | None = None) -> Response:
        """Server-sent events for the start page: ``changed`` when a game changes or a
        page comes or goes."""
        from sse_starlette.sse import EventSourceResponse

        check_key(key)

        async def stream() -> AsyncIterator[dict[str, str]]:
            last = service.lobby
            while True:
                if service.lobby != last:
                    last = service.lobby
                    yield {"event": "changed", "data": str(last)}
                await asyncio.sleep(0.5)

        return EventSourceResponse(stream(), ping=15)

    @app.post("/games", response_class=HTMLResponse)
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

    @app.post("/open/{game}", response_class=HTMLResponse)
    def open_saved(game: str, key: str | None = None) -> Response:
        """Give a game saved at the command line a table, and open the host's page."""
        check_key(key)
        links = service.open_saved(game)
        return RedirectResponse(f"/t/{links['host']}", 303)

    @app.get("/host/{game}", response_class=HTMLResponse)
    def open_host(game: str, key: str | None = None) -> Response:
        """The host's page of a game listed on the start page."""
        check_key(key)
        return RedirectResponse(f"/t/{service.host_link(game)}", 303)

    def page_ctx(token: str) -> dict[str, Any]:
        seat = service.seat(token)
        # The version is read before the view, so a page never claims to be newer than it is.
        version = service.version(seat.game)
        return {"v": service.view(seat), "token": token, "version": version, "boot": service.boot}

    # Routes that look at or play one step of a game are ``async def``: they run on the
    # event loop and take a millisecond or two, where a hop to the thread pool and the
    # fight for the GIL tripled the slowest latencies under load (benchmarks/bench_web.py).
    # Long work (start, fork, verify, export, undo) stays in the thread pool.
    @app.get("/t/{token}", response_class=HTMLResponse)
    async def table_page(request: Request, token: str) -> Response:
        """A seat's page: the table, the decision, the log; it updates itself live."""
        return templates.TemplateResponse(request, "table.html", page_ctx(token))

    def panel(request: Request, token: str) -> Response:
        return templates.TemplateResponse(request, "panel.html", page_ctx(token))

    @app.get("/t/{token}/panel", response_class=HTMLResponse)
    async def panel_fragment(request: Request, token: str) -> Response:
        """The live part of the page (refetched when the game changes)."""
        return panel(request, token)

    async def form_at(request: Request) -> tuple[dict[str, str], int | None]:
        form = {k: str(v) for k, v in (await request.form()).items()}
        try:
            at = int(form["at"]) if "at" in form else None
        except ValueError:
            raise IllegalActionError(f"at: a whole number, not {form['at']!r}") from None
        return form, at

    def num(form: dict[str, str], key: str, kind: type[int] | type[float]) -> Any:
        if form.get(key, "") == "":
            return None
        try:
            return kind(form[key])
        except ValueError:
            raise IllegalActionError(f"{key}: a number, not {form[key]!r}") from None

    @app.post("/t/{token}/order", response_class=HTMLResponse)
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
        return panel(request, token)

    @app.post("/t/{token}/act", response_class=HTMLResponse)
    async def act_form(request: Request, token: str) -> Response:
        """A dice-book action from the page."""
        form, at = await form_at(request)
        seat = service.seat(token)
        action = form.pop("action", "")
        form.pop("at", None)
        entropy = form.pop("entropy", "") or None
        await typed_roll_fits(token, action, form)
        service.act(seat, at, action, dict(form), entropy)
        return panel(request, token)

    @app.post("/t/{token}/answer", response_class=HTMLResponse)
    async def answer_form(request: Request, token: str) -> Response:
        """The answer to a question, from the page's form (checkboxes or one button)."""
        raw = await request.form()
        _, at = await form_at(request)
        chosen = [str(v) for v in raw.getlist("answer")]
        service.answer(service.seat(token), at, chosen)
        return panel(request, token)

    def parse_faces(text: str) -> list[int]:
        parts = text.replace(",", " ").split()
        try:
            return [int(x) for x in parts][:200]
        except ValueError:
            raise IllegalActionError(
                f"faces are whole numbers such as '3 5', not {text!r}"
            ) from None

    @app.post("/t/{token}/faces", response_class=HTMLResponse)
    async def faces_form(request: Request, token: str) -> Response:
        """The faces of real dice typed in the page (``3 5``), or the slip drawn from a cup."""
        form, at = await form_at(request)
        service.faces(service.seat(token), at, parse_faces(form.get("faces", "")))
        return panel(request, token)

    @app.post("/t/{token}/real-dice", response_class=HTMLResponse)
    async def real_dice_form(request: Request, token: str) -> Response:
        """Switch this side to real dice (type the faces) or back to the game's dice."""
        form = {k: str(v) for k, v in (await request.form()).items()}
        service.set_real_dice(service.seat(token), form.get("on", "") in ("1", "true", "on"))
        return panel(request, token)

    @app.post("/t/{token}/commit", response_class=HTMLResponse)
    async def commit_form(request: Request, token: str) -> Response:
        """Joint dice: the page sends its side's commitment (its value stays in the page)."""
        form = {k: str(v) for k, v in (await request.form()).items()}
        service.commit(service.seat(token), form.get("digest", ""))
        return panel(request, token)

    @app.post("/t/{token}/reveal", response_class=HTMLResponse)
    async def reveal_form(request: Request, token: str) -> Response:
        """Joint dice: the page reveals its value once every side has committed."""
        form = {k: str(v) for k, v in (await request.form()).items()}
        service.reveal(service.seat(token), form.get("value", ""), form.get("entropy") or None)
        return panel(request, token)

    def yes(form: dict[str, str], key: str) -> bool:
        return form.get(key, "") in ("1", "true", "on", "yes")

    @app.post("/t/{token}/undo", response_class=HTMLResponse)
    async def undo_form(request: Request, token: str) -> Response:
        """Take back what this seat may take back, or ask the other side to agree."""
        _, at = await form_at(request)
        service.undo(service.seat(token), at)
        return panel(request, token)

    @app.post("/t/{token}/undo/answer", response_class=HTMLResponse)
    async def undo_answer_form(request: Request, token: str) -> Response:
        """Agree to (or refuse) the other side's undo; the asker may take it back."""
        form, at = await form_at(request)
        service.answer_undo(service.seat(token), at, yes(form, "agree"))
        return panel(request, token)

    @app.post("/t/{token}/real-dice/answer", response_class=HTMLResponse)
    async def real_dice_answer_form(request: Request, token: str) -> Response:
        """Agree to (or refuse) the other side's switch to real dice."""
        form = {k: str(v) for k, v in (await request.form()).items()}
        service.answer_real_dice(service.seat(token), yes(form, "agree"))
        return panel(request, token)

    @app.post("/t/{token}/fork", response_class=HTMLResponse)
    async def fork_form(request: Request, token: str) -> Response:
        """The host forks the game to a new table (keeping its dice only once it has ended)."""
        form = {k: str(v) for k, v in (await request.form()).items()}
        seat = service.seat(token)
        keep = yes(form, "keep_dice")
        _, links = await asyncio.to_thread(service.fork, seat, keep)
        return RedirectResponse(f"/t/{links['host']}", 303)

    @app.post("/t/{token}/end", response_class=HTMLResponse)
    async def end_form(request: Request, token: str) -> Response:
        """The host ends the game (the seed is revealed): only with the page's confirmation,
        since it cannot be undone."""
        form = {k: str(v) for k, v in (await request.form()).items()}
        seat = service.seat(token)
        if form.get("confirm") != "end":
            raise IllegalActionError(
                "ending the game cannot be undone: confirm it with 'Yes, end the game'"
            )
        await asyncio.to_thread(service.end, seat)
        return panel(request, token)

    @app.get("/t/{token}/aar")
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

    @app.get("/t/{token}/verify", response_class=HTMLResponse)
    def verify_page(request: Request, token: str) -> Response:
        """Verify the ended game: every die against the revealed seed, and the replay."""
        report = service.verify(service.seat(token))
        return templates.TemplateResponse(request, "verify.html", {"r": report})

    async def odds_of(token: str, expr: str) -> dict[str, Any]:
        """A typed roll's odds: one link's requests rate-limited, the work in the odds process
        under its time cap (``umpire.web.guard``), never on the event loop."""
        service.seat(token)
        odds_limit.take(token)
        try:
            return await asyncio.to_thread(odds_worker.compute, expr[:80])
        except TooCostly:
            odds_limit.charge(token, ODDS_TIMEOUT_COST)  # a link that keeps trying waits
            raise

    async def typed_roll_fits(token: str, action: str, params: dict[str, Any]) -> None:
        """A dice-book roll computes its expression's odds on the event loop (to log them):
        try them first in the odds process, where issue 21's cost estimate refuses a costly
        one at once (400) and the time cap (503) catches whatever the estimate misses."""
        expr = params.get("expr")
        if action == "roll" and isinstance(expr, str) and expr.strip():
            await odds_of(token, expr)

    @app.get("/t/{token}/odds", response_class=HTMLResponse)
    async def odds_fragment(request: Request, token: str, expr: str = "") -> Response:
        """A roll's exact distribution before it is thrown."""
        if not expr.strip():
            service.seat(token)
            return HTMLResponse("")
        o = await odds_of(token, expr)
        return templates.TemplateResponse(request, "odds.html", {"o": o})

    @app.get("/t/{token}/allowance")
    async def allowance(token: str) -> Response:
        """Where the acting unit may move now (an outline in table inches), for the map."""
        return fast(service.allowance(service.seat(token)))

    @app.get("/t/{token}/events")
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

    # -- the JSON API -----------------------------------------------------------------------
    @app.get("/api/scenarios")
    def api_scenarios() -> list[dict[str, str]]:
        """The shipped scenarios a battle can start from."""
        return service.scenarios()

    @app.post("/api/games")
    def api_new_game(body: NewGame, key: str | None = None) -> dict[str, Any]:
        """Start a game; returns its name and one link per role (host, sides, spectator)."""
        check_key(key)
        name, links = service.create(
            body.kind, body.scenario, body.players, body.dice, body.title, body.seed, body.start
        )
        return {"game": name, "links": {role: f"/t/{tok}" for role, tok in links.items()}}

    @app.get("/api/t/{token}")
    async def api_view(token: str) -> Response:
        """What this seat sees (the same as its page)."""
        return fast(service.view(service.seat(token)))

    @app.post("/api/t/{token}/order")
    async def api_order(token: str, body: OrderIn) -> Response:
        """Give a battle order; returns the new view."""
        seat = service.seat(token)
        tap = (body.x, body.y) if body.x is not None and body.y is not None else None
        service.order(seat, body.at, body.choice, tap, body.unit, body.entropy)
        return fast(service.view(seat))

    @app.post("/api/t/{token}/act")
    async def api_act(token: str, body: ActIn) -> Response:
        """Run a dice-book action; returns the new view."""
        seat = service.seat(token)
        await typed_roll_fits(token, body.action, body.params)
        service.act(seat, body.at, body.action, body.params, body.entropy)
        return fast(service.view(seat))

    @app.post("/api/t/{token}/faces")
    async def api_faces(token: str, body: FacesIn) -> Response:
        """Give the faces of the real dice the pending action waits for."""
        seat = service.seat(token)
        service.faces(seat, body.at, body.faces)
        return fast(service.view(seat))

    @app.post("/api/t/{token}/real-dice")
    async def api_real_dice(token: str, body: RealDiceIn) -> Response:
        """This side rolls real dice and types the faces (on), or uses the game's (off)."""
        seat = service.seat(token)
        service.set_real_dice(seat, body.on)
        return fast(service.view(seat))

    @app.post("/api/t/{token}/commit")
    async def api_commit(token: str, body: CommitIn) -> Response:
        """Joint dice, phase one: this side's commitment."""
        seat = service.seat(token)
        service.commit(seat, body.digest)
        return fast(service.view(seat))

    @app.post("/api/t/{token}/reveal")
    async def api_reveal(token: str, body: RevealIn) -> Response:
        """Joint dice, phase two: this side's value (checked against its commitment)."""
        seat = service.seat(token)
        service.reveal(seat, body.value, body.entropy)
        return fast(service.view(seat))

    @app.post("/api/t/{token}/answer")
    async def api_answer(token: str, body: AnswerIn) -> Response:
        """Answer the question waiting for this seat; returns the new view."""
        seat = service.seat(token)
        service.answer(seat, body.at, body.answer)
        return fast(service.view(seat))

    @app.post("/api/t/{token}/undo")
    def api_undo(token: str, body: AtIn) -> dict[str, Any]:
        """Take back what this seat may (``dropped``), or ask the other side (``asked``)."""
        return service.undo(service.seat(token), body.at)

    @app.post("/api/t/{token}/undo/answer")
    def api_undo_answer(token: str, body: ConsentIn) -> dict[str, Any]:
        """Agree to (or refuse) the undo waiting; returns how many actions were dropped."""
        return {"dropped": service.answer_undo(service.seat(token), body.at, body.agree)}

    @app.post("/api/t/{token}/real-dice/answer")
    async def api_real_dice_answer(token: str, body: RealConsentIn) -> Response:
        """Agree to (or refuse) the other side's switch to real dice; returns the view."""
        seat = service.seat(token)
        service.answer_real_dice(seat, body.agree)
        return fast(service.view(seat))

    @app.post("/api/t/{token}/fork")
    def api_fork(token: str, body: ForkIn | None = None) -> dict[str, Any]:
        """The host forks the game to a new table with new links and dice of its own
        (``keep_dice``: the parent's dice, only from an ended game)."""
        keep = body.keep_dice if body is not None else False
        name, links = service.fork(service.seat(token), keep)
        return {"game": name, "links": {role: f"/t/{tok}" for role, tok in links.items()}}

    @app.post("/api/t/{token}/end")
    async def api_end(token: str) -> Response:
        """The host ends the game; the seed is revealed."""
        seat = service.seat(token)
        service.end(seat)
        return fast(service.view(seat))

    @app.get("/api/t/{token}/verify")
    def api_verify(token: str) -> dict[str, Any]:
        """Verify the ended game's export."""
        return service.verify(service.seat(token))

    @app.get("/api/t/{token}/export")
    def api_export(token: str) -> dict[str, Any]:
        """The ended game's export (format umpire-game/1)."""
        return service.export(service.seat(token))

    @app.get("/api/t/{token}/allowance")
    async def api_allowance(token: str) -> Response:
        """Where the acting unit may move now: ``points``, an outline in table inches."""
        return fast(service.allowance(service.seat(token)))

    @app.get("/api/t/{token}/odds")
    async def api_odds(token: str, expr: str) -> dict[str, Any]:
        """A roll's exact distribution (time-capped, at most ``ODDS_PER_MINUTE`` a minute)."""
        return await odds_of(token, expr)

    return app


def fast(obj: Any) -> Response:
    """A JSON response written by ``json.dumps`` at once (a view is a large nested dict; the
    generic encoder walks it in Python, several times slower)."""
    import json

    return Response(json.dumps(obj, separators=(",", ":")), media_type="application/json")


def _esc(text: str) -> str:
    from html import escape

    return escape(text)
