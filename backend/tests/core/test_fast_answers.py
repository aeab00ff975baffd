"""Every fast route answers what its OpenAPI document promises: the bytes it sends validate against the declared
response model's JSON schema, for each kind of reader and page it serves, with the caches on and off. A fast route
that is added without requests here fails the first test."""

import re
from typing import Any

import httpx
import jsonschema_rs
import orjson
import pytest
from fastapi import FastAPI

from tradeideas.core.deps import component_of
from tradeideas.core.fastlane import check_fast_routes
from tradeideas.ideas.cache import IdeaCache
from tradeideas.trackrecords.cache import TrackRecordCache

# Per fast route, the requests that exercise it: who asks (a fixture) and what.
FAST_ROUTE_REQUESTS: dict[str, list[tuple[str, str]]] = {
    "GET /api/trade-ideas": [
        ("customer", "/api/trade-ideas?market=forex&status=active&limit=100"),  # with NEW flags
        ("customer", "/api/trade-ideas?market=crypto&status=completed&limit=5"),  # history, a next cursor
        ("customer", "/api/trade-ideas?status=closed&ideaType=leverage&educatorId=1"),
        # A track record's selection: its completed ideas follow the time frame and period too (issue #25).
        ("customer", "/api/trade-ideas?status=closed&educatorId=1&market=forex&timeFrame=4h&since=2020-01-01"),
        ("educator_a", "/api/trade-ideas?market=forex&status=active"),  # no flags
        ("educator_a", "/api/trade-ideas?limit=2"),  # every market and status
    ],
    "GET /api/educators/track-records": [("customer", "/api/educators/track-records")],
    "GET /api/educators/{educator_id:int}/track-record": [
        ("customer", "/api/educators/1/track-record"),
        ("educator_a", "/api/educators/2/track-record?market=forex&ideaType=leverage&timeFrame=4h&since=2020-01-01"),
    ],
}


def _response_schema(openapi: dict[str, Any], route: str) -> jsonschema_rs.Draft202012Validator:
    method, path = route.split(" ", 1)
    path = re.sub(r":\w+}", "}", path)  # a route's converter ({educator_id:int}) is not part of the documented path
    schema = openapi["paths"][path][method.lower()]["responses"]["200"]["content"]["application/json"]["schema"]
    # The schema's references point into the document's components: validate inside a document that has them.
    return jsonschema_rs.Draft202012Validator({**schema, "components": openapi["components"]})


# Fast routes that answer an event stream, not JSON: their frames are checked by `tests/realtime`.
FAST_STREAMS = ["GET /api/events"]


def test_every_fast_route_is_checked_here(app: FastAPI) -> None:
    assert sorted(check_fast_routes(app)) == sorted([*FAST_ROUTE_REQUESTS, *FAST_STREAMS])


@pytest.mark.parametrize("caches", ["on", "off"])
async def test_what_a_fast_route_sends_validates_against_its_openapi_schema(
    app: FastAPI,
    customer: httpx.AsyncClient,
    educator_a: httpx.AsyncClient,
    caches: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    clients = {"customer": customer, "educator_a": educator_a}
    openapi = app.openapi()
    if caches == "off":
        monkeypatch.setattr(component_of(app, IdeaCache), "usable", lambda: False)
        monkeypatch.setattr(component_of(app, TrackRecordCache), "usable", lambda: False)
    for route, requests in FAST_ROUTE_REQUESTS.items():
        validator = _response_schema(openapi, route)
        for who, url in requests:
            answer = await clients[who].get(url)
            assert answer.status_code == 200, (url, answer.text[:200])
            body = orjson.loads(answer.content)
            errors = [f"{error.instance_path}: {error.message}" for error in validator.iter_errors(body)]
            assert errors == [], (who, url)
            checked = body["items"] if isinstance(body, dict) and "items" in body else body  # a page, or a record
            assert checked, (who, url)
