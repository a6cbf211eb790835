"""The JSON API under ``/api``, for programs and tests: the same operations as the pages
(``service.Service``), each answering with the seat's new view or a small JSON object;
``/openapi.json`` describes it."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from fastapi.responses import Response
from pydantic import BaseModel, ConfigDict, Field

from umpire.web.routes.context import Web, fast


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


def started(name: str, links: dict[str, str]) -> dict[str, Any]:
    """A new game's answer: its name and one page link per role."""
    return {"game": name, "links": {role: f"/t/{tok}" for role, tok in links.items()}}


def router(web: Web, r: APIRouter | None = None) -> APIRouter:
    """The JSON API's routes over ``web``, added to ``r`` (else to a router of their own)."""
    r = APIRouter() if r is None else r
    service = web.service

    @r.get("/api/scenarios")
    def api_scenarios() -> list[dict[str, str]]:
        """The shipped scenarios a battle can start from."""
        return service.scenarios()

    @r.post("/api/games")
    def api_new_game(body: NewGame, key: str | None = None) -> dict[str, Any]:
        """Start a game; returns its name and one link per role (host, sides, spectator)."""
        web.check_key(key)
        name, links = service.create(
            body.kind, body.scenario, body.players, body.dice, body.title, body.seed, body.start
        )
        return started(name, links)

    @r.get("/api/t/{token}")
    async def api_view(token: str) -> Response:
        """What this seat sees (the same as its page)."""
        return fast(service.view(service.seat(token)))

    @r.post("/api/t/{token}/order")
    async def api_order(token: str, body: OrderIn) -> Response:
        """Give a battle order; returns the new view."""
        seat = service.seat(token)
        tap = (body.x, body.y) if body.x is not None and body.y is not None else None
        service.order(seat, body.at, body.choice, tap, body.unit, body.entropy)
        return fast(service.view(seat))

    @r.post("/api/t/{token}/act")
    async def api_act(token: str, body: ActIn) -> Response:
        """Run a dice-book action; returns the new view."""
        seat = service.seat(token)
        await web.typed_roll_fits(token, body.action, body.params)
        service.act(seat, body.at, body.action, body.params, body.entropy)
        return fast(service.view(seat))

    @r.post("/api/t/{token}/faces")
    async def api_faces(token: str, body: FacesIn) -> Response:
        """Give the faces of the real dice the pending action waits for."""
        seat = service.seat(token)
        service.faces(seat, body.at, body.faces)
        return fast(service.view(seat))

    @r.post("/api/t/{token}/real-dice")
    async def api_real_dice(token: str, body: RealDiceIn) -> Response:
        """This side rolls real dice and types the faces (on), or uses the game's (off)."""
        seat = service.seat(token)
        service.set_real_dice(seat, body.on)
        return fast(service.view(seat))

    @r.post("/api/t/{token}/commit")
    async def api_commit(token: str, body: CommitIn) -> Response:
        """Joint dice, phase one: this side's commitment."""
        seat = service.seat(token)
        service.commit(seat, body.digest)
        return fast(service.view(seat))

    @r.post("/api/t/{token}/reveal")
    async def api_reveal(token: str, body: RevealIn) -> Response:
        """Joint dice, phase two: this side's value (checked against its commitment)."""
        seat = service.seat(token)
        service.reveal(seat, body.value, body.entropy)
        return fast(service.view(seat))

    @r.post("/api/t/{token}/answer")
    async def api_answer(token: str, body: AnswerIn) -> Response:
        """Answer the question waiting for this seat; returns the new view."""
        seat = service.seat(token)
        service.answer(seat, body.at, body.answer)
        return fast(service.view(seat))

    @r.post("/api/t/{token}/undo")
    def api_undo(token: str, body: AtIn) -> dict[str, Any]:
        """Take back what this seat may (``dropped``), or ask the other side (``asked``)."""
        return service.undo(service.seat(token), body.at)

    @r.post("/api/t/{token}/undo/answer")
    def api_undo_answer(token: str, body: ConsentIn) -> dict[str, Any]:
        """Agree to (or refuse) the undo waiting; returns how many actions were dropped."""
        return {"dropped": service.answer_undo(service.seat(token), body.at, body.agree)}

    @r.post("/api/t/{token}/real-dice/answer")
    async def api_real_dice_answer(token: str, body: RealConsentIn) -> Response:
        """Agree to (or refuse) the other side's switch to real dice; returns the view."""
        seat = service.seat(token)
        service.answer_real_dice(seat, body.agree)
        return fast(service.view(seat))

    @r.post("/api/t/{token}/fork")
    def api_fork(token: str, body: ForkIn | None = None) -> dict[str, Any]:
        """The host forks the game to a new table with new links and dice of its own
        (``keep_dice``: the parent's dice, only from an ended game)."""
        keep = body.keep_dice if body is not None else False
        return started(*service.fork(service.seat(token), keep))

    @r.post("/api/t/{token}/end")
    async def api_end(token: str) -> Response:
        """The host ends the game; the seed is revealed."""
        seat = service.seat(token)
        service.end(seat)
        return fast(service.view(seat))

    @r.get("/api/t/{token}/verify")
    def api_verify(token: str) -> dict[str, Any]:
        """Verify the ended game's export."""
        return service.verify(service.seat(token))

    @r.get("/api/t/{token}/export")
    def api_export(token: str) -> dict[str, Any]:
        """The ended game's export (format umpire-game/1)."""
        return service.export(service.seat(token))

    @r.get("/api/t/{token}/allowance")
    async def api_allowance(token: str) -> Response:
        """Where the acting unit may move now: ``points``, an outline in table inches."""
        return fast(service.allowance(service.seat(token)))

    @r.get("/api/t/{token}/odds")
    async def api_odds(token: str, expr: str) -> dict[str, Any]:
        """A roll's exact distribution (time-capped, at most ``ODDS_PER_MINUTE`` a minute)."""
        return await web.odds_of(token, expr)

    return r
