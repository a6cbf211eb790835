"""Property-based tests of the web table's API from its own OpenAPI schema (schemathesis):
no generated request, with a forged link or a real one, makes a server error."""

from __future__ import annotations

import tempfile
from pathlib import Path

import schemathesis
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error

from umpire.web.app import create_app

KEY = "schema-key"
_DB = Path(tempfile.mkdtemp(prefix="umpire-schema-")) / "web.db"
APP = create_app(_DB, KEY)
_client = TestClient(APP)
_links = _client.post(
    f"/api/games?key={KEY}", json={"kind": "battle", "scenario": "stone_wall"}
).json()["links"]
_book = _client.post(f"/api/games?key={KEY}", json={"kind": "book"}).json()["links"]
REAL = [t.removeprefix("/t/") for t in [*_links.values(), *_book.values()]]

schema = schemathesis.openapi.from_asgi("/openapi.json", APP).exclude(path_regex=".*/events$")


@schema.parametrize()
@settings(max_examples=30, deadline=None, suppress_health_check=list(HealthCheck))
def test_no_request_makes_a_server_error(case: schemathesis.Case) -> None:
    """Any request the schema allows (and many it does not) gets an answer, never a 500."""
    if "token" in (case.path_parameters or {}) and case.path_parameters is not None:
        tok = str(case.path_parameters["token"])
        case.path_parameters["token"] = REAL[len(tok) % len(REAL)] if len(tok) % 2 else tok
    if case.query is not None and "key" in case.query and len(str(case.query["key"])) % 2:
        case.query["key"] = KEY
    case.call_and_validate(checks=[not_a_server_error])
