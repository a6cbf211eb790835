"""The web table's route table, pinned (issue 25, "The rest of the house": ``create_app``
becomes routers per kind of page with no change of behaviour): every URL with its method,
endpoint (and so its OpenAPI operationId), whether it runs on the event loop, what it
answers, its query parameters and its JSON body, as the OpenAPI schema and the routers say.

A route added, dropped, renamed or moved to the thread pool must change this table."""

from __future__ import annotations

import inspect
import re

import pytest
from fastapi import FastAPI
from fastapi.routing import APIRoute
from fastapi.testclient import TestClient

from umpire.web.app import ROUTERS, create_app

# method, path, endpoint, async or sync, 200's media (html or json), query parameters
# ("?": optional), JSON body (its schema; "?": optional). Sorted by path, then method.
ROUTES = """
GET   /                                index                  sync   html  key?    -
POST  /api/games                       api_new_game           sync   json  key?    NewGame
GET   /api/scenarios                   api_scenarios          sync   json  -       -
GET   /api/t/{token}                   api_view               async  json  -       -
POST  /api/t/{token}/act               api_act                async  json  -       ActIn
GET   /api/t/{token}/allowance         api_allowance          async  json  -       -
POST  /api/t/{token}/answer            api_answer             async  json  -       AnswerIn
POST  /api/t/{token}/commit            api_commit             async  json  -       CommitIn
POST  /api/t/{token}/end               api_end                async  json  -       -
GET   /api/t/{token}/export            api_export             sync   json  -       -
POST  /api/t/{token}/faces             api_faces              async  json  -       FacesIn
POST  /api/t/{token}/fork              api_fork               sync   json  -       ForkIn|null?
GET   /api/t/{token}/odds              api_odds               async  json  expr    -
POST  /api/t/{token}/order             api_order              async  json  -       OrderIn
POST  /api/t/{token}/real-dice         api_real_dice          async  json  -       RealDiceIn
POST  /api/t/{token}/real-dice/answer  api_real_dice_answer   async  json  -       RealConsentIn
POST  /api/t/{token}/reveal            api_reveal             async  json  -       RevealIn
POST  /api/t/{token}/undo              api_undo               sync   json  -       AtIn
POST  /api/t/{token}/undo/answer       api_undo_answer        sync   json  -       ConsentIn
GET   /api/t/{token}/verify            api_verify             sync   json  -       -
POST  /games                           new_game_form          async  html  key?    -
GET   /host/{game}                     open_host              sync   html  key?    -
GET   /lobby                           lobby                  sync   html  key?    -
GET   /lobby/events                    lobby_events           async  json  key?    -
POST  /open/{game}                     open_saved             sync   html  key?    -
GET   /t/{token}                       table_page             async  html  -       -
GET   /t/{token}/aar                   aar_file               sync   json  -       -
POST  /t/{token}/act                   act_form               async  html  -       -
GET   /t/{token}/allowance             allowance              async  json  -       -
POST  /t/{token}/answer                answer_form            async  html  -       -
POST  /t/{token}/commit                commit_form            async  html  -       -
POST  /t/{token}/end                   end_form               async  html  -       -
GET   /t/{token}/events                events                 async  json  since?  -
POST  /t/{token}/faces                 faces_form             async  html  -       -
POST  /t/{token}/fork                  fork_form              async  html  -       -
GET   /t/{token}/odds                  odds_fragment          async  html  expr?   -
POST  /t/{token}/order                 order_form             async  html  -       -
GET   /t/{token}/panel                 panel_fragment         async  html  -       -
POST  /t/{token}/real-dice             real_dice_form         async  html  -       -
POST  /t/{token}/real-dice/answer      real_dice_answer_form  async  html  -       -
POST  /t/{token}/reveal                reveal_form            async  html  -       -
POST  /t/{token}/undo                  undo_form              async  html  -       -
POST  /t/{token}/undo/answer           undo_answer_form       async  html  -       -
GET   /t/{token}/verify                verify_page            sync   html  -       -
"""

TABLE = [tuple(line.split()) for line in ROUTES.strip().splitlines()]


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> FastAPI:
    return create_app(tmp_path_factory.mktemp("routes") / "web.db", "routes-key")


def operation_id(name: str, path: str, method: str) -> str:
    """FastAPI's operationId for an endpoint (``generate_unique_id``)."""
    return re.sub(r"\W", "_", f"{name}{path}") + "_" + method.lower()


def test_the_openapi_schema_lists_every_route_as_pinned(app: FastAPI) -> None:
    """Paths, methods, operationIds, media, query parameters and bodies, as before the
    routers were split out of ``create_app``."""
    seen = []
    for path, ops in app.openapi()["paths"].items():
        for method, op in ops.items():
            ok = op["responses"]["200"].get("content", {})
            media = "html" if "text/html" in ok else "json"
            params = op.get("parameters", [])
            assert sorted(p["name"] for p in params if p["in"] == "path") == sorted(
                re.findall(r"\{(\w+)\}", path)
            )
            query = ",".join(
                p["name"] + ("" if p.get("required") else "?") for p in params if p["in"] == "query"
            )
            body = op.get("requestBody")
            shape = "-"
            if body is not None:
                schema = body["content"]["application/json"]["schema"]
                refs = [schema] if "$ref" in schema else schema["anyOf"]
                shape = "|".join(
                    r.get("$ref", r.get("type", "")).removeprefix("#/components/schemas/")
                    for r in refs
                ) + ("" if body.get("required") else "?")
            row = (method.upper(), path, op["operationId"], media, query or "-", shape)
            seen.append(row)
    want = [(m, p, operation_id(n, p, m), media, q, b) for m, p, n, _, media, q, b in TABLE]
    assert sorted(seen) == sorted(want)


def test_the_routers_hold_every_route_once_each_sync_or_async_as_pinned(app: FastAPI) -> None:
    """Each router module's routes together are the table: none twice, and the ones that
    play a step on the event loop (``async def``) still do."""
    web = app.state.web
    seen = []
    for module in ROUTERS:
        for route in module.router(web).routes:
            assert isinstance(route, APIRoute)
            kind = "async" if inspect.iscoroutinefunction(route.endpoint) else "sync"
            seen.extend((m, route.path, route.name, kind) for m in route.methods)
    assert len(seen) == len(set(seen))
    assert sorted(seen) == sorted(row[:4] for row in TABLE)
    # ...and they sit on the app's own router, not an included one (a level more for every
    # request to search: benchmarks/RESULTS.md, "Issue 25: web routers").
    flat = [(m, r.path) for r in app.routes if isinstance(r, APIRoute) for m in r.methods]
    assert sorted(flat) == sorted(row[:2] for row in TABLE)


def test_the_schema_bodies_and_title_are_as_pinned(app: FastAPI) -> None:
    schema = app.openapi()
    assert schema["info"] == {
        "title": "Umpire web table",
        "description": "Play and umpire games from a browser: one secret link per side.",
        "version": "1",
    }
    assert sorted(schema["components"]["schemas"]) == [
        "ActIn",
        "AnswerIn",
        "AtIn",
        "CommitIn",
        "ConsentIn",
        "FacesIn",
        "ForkIn",
        "HTTPValidationError",
        "NewGame",
        "OrderIn",
        "RealConsentIn",
        "RealDiceIn",
        "RevealIn",
        "ValidationError",
    ]


def test_the_schema_pages_and_static_files_are_served(app: FastAPI) -> None:
    """The routes outside the schema: ``/openapi.json`` and the static files (no
    ``no-store`` on those: the browser may keep them). ``/docs`` and ``/redoc`` are not
    served: their CDN scripts do not fit the page's Content-Security-Policy (issue 22)."""
    c = TestClient(app)
    assert c.get("/openapi.json").status_code == 200
    r = c.get("/static/table.css")
    assert r.status_code == 200 and "no-store" not in r.headers.get("cache-control", "")
    assert c.get("/static/nothing.css").status_code == 404
