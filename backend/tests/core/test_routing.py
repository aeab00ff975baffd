"""The route class every router uses (which routes take the direct handler, and that it behaves like FastAPI's), and
the query-string models of the busiest reads."""

from collections.abc import AsyncIterator
from typing import Annotated

import httpx
import pytest
from fastapi import APIRouter, Body, Depends, FastAPI, Header, HTTPException, Path, Query, Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.routing import APIRoute
from pydantic import BaseModel

from tradeideas.app import ROUTERS
from tradeideas.core.deps import query_model
from tradeideas.core.routing import AppRoute

calls: list[str] = []


async def who(request: Request, response: Response) -> str:
    calls.append("who")
    if request.headers.get("x-user") is None:
        raise HTTPException(401, "Authentication required")
    response.set_cookie("renewed", "yes")
    return request.headers["x-user"]


async def page_size(request: Request) -> int:
    calls.append("page_size")
    return int(request.query_params.get("size", "10"))


async def audited(request: Request) -> None:
    calls.append(f"audited {request.url.path}")


def plain(request: Request) -> int:  # a plain function: FastAPI runs it in a thread
    return 1


async def with_cleanup() -> AsyncIterator[int]:
    yield 1


async def nested(size: Annotated[int, Depends(page_size)]) -> int:
    return size


class Greeting(BaseModel):
    text: str


router = APIRouter(route_class=AppRoute)


@router.get("/direct", dependencies=[Depends(audited)])
async def direct(user: Annotated[str, Depends(who)], size: Annotated[int, Depends(page_size)]) -> Response:
    return Response(f"{user}:{size}".encode(), media_type="text/plain")


@router.get("/with-parameters/{item}")
async def with_parameters(
    user: Annotated[str, Depends(who)],
    item: Annotated[int, Path()],
    tag: Annotated[str | None, Header(alias="X-Tag")] = None,
    size: Annotated[int, Query(le=50)] = 1,
) -> Response:
    return Response(f"{user}:{item}:{tag}:{size}")


@router.post("/with-body")
async def with_body(size: Annotated[int, Body()]) -> Response:
    return Response(str(size))


@router.get("/with-model")
async def with_model(user: Annotated[str, Depends(who)]) -> Greeting:
    return Greeting(text=user)


@router.get("/with-plain")
async def with_plain(value: Annotated[int, Depends(plain)]) -> Response:
    return Response(str(value))


@router.get("/with-cleanup")
async def with_cleanup_route(value: Annotated[int, Depends(with_cleanup)]) -> Response:
    return Response(str(value))


@router.get("/with-nested")
async def with_nested(value: Annotated[int, Depends(nested)]) -> Response:
    return Response(str(value))


def _route(path: str) -> AppRoute:
    found = next(route for route in router.routes if isinstance(route, AppRoute) and route.path == path)
    return found


def test_only_routes_made_of_request_only_dependencies_and_returning_a_response_are_direct() -> None:
    assert _route("/direct").direct and _route("/with-parameters/{item}").direct
    for path in ("/with-body", "/with-model", "/with-plain", "/with-cleanup", "/with-nested"):
        assert not _route(path).direct, path


def test_the_busiest_read_and_the_event_stream_take_the_direct_handler() -> None:
    """A customer's page of ideas is answered from memory: FastAPI's general handler would cost more than the
    answer. An event stream keeps every layer it passed through for as long as it stays open. A dependency or
    parameter that FastAPI's handler would be needed for would silently lose that; this test says so instead."""
    routes = [route for router in ROUTERS for route in router.routes]
    assert all(isinstance(route, AppRoute) for route in routes if isinstance(route, APIRoute))
    for path in ("/api/trade-ideas", "/api/events"):
        route = next(
            route for route in routes if isinstance(route, AppRoute) and route.path == path and route.methods == {"GET"}
        )
        assert route.direct, path


async def test_a_direct_route_runs_its_dependencies_in_order_and_keeps_what_they_set() -> None:
    app = FastAPI()
    app.include_router(router)
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app), base_url="http://test") as client:
        calls.clear()
        r = await client.get("/direct", params={"size": "25"}, headers={"x-user": "ann"})
        assert r.status_code == 200 and r.text == "ann:25"
        assert r.headers["content-type"].startswith("text/plain")
        assert r.headers["content-length"] == "6"
        assert "renewed=yes" in r.headers["set-cookie"]
        assert calls == ["audited /direct", "who", "page_size"]

        calls.clear()
        refused = await client.get("/direct")
        assert refused.status_code == 401 and refused.json() == {"detail": "Authentication required"}
        assert calls == ["audited /direct", "who"]  # nothing after the dependency that refused

        # Parameters are validated by FastAPI's own function, after the dependencies, with every error reported.
        ann = {"x-user": "ann"}
        found = await client.get("/with-parameters/7", params={"size": "3"}, headers={**ann, "x-tag": "t"})
        assert found.text == "ann:7:t:3"
        assert (await client.get("/with-parameters/7", headers=ann)).text == "ann:7:None:1"
        wrong = await client.get("/with-parameters/x", params={"size": "99"}, headers=ann)
        assert wrong.status_code == 422
        assert [error["loc"] for error in wrong.json()["detail"]] == [["path", "item"], ["query", "size"]]
        assert (await client.get("/with-parameters/x")).status_code == 401  # refused before its parameters

        # Routes that need FastAPI's handler keep it: bodies read, models serialised, dependencies closed.
        assert (await client.post("/with-body", json=5)).text == "5"
        assert (await client.get("/with-model", headers={"x-user": "bo"})).json() == {"text": "bo"}
        assert (await client.get("/with-cleanup")).text == "1"


class Filters(BaseModel, frozen=True):
    market: str | None = None
    limit: int = 20


class Loose(BaseModel):
    limit: int = 20


async def test_a_frozen_query_model_is_parsed_once_per_query_string() -> None:
    parse, parameters = query_model(Filters)
    assert [p["name"] for p in parameters["parameters"]] == ["market", "limit"]
    first = await parse(_request(b"market=forex&limit=5"))
    again = await parse(_request(b"market=forex&limit=5"))
    assert first == Filters(market="forex", limit=5) and again is first  # found by identity as a cache key
    assert await parse(_request(b"limit=5&market=forex")) == first
    with pytest.raises(RequestValidationError) as refused:
        await parse(_request(b"limit=many"))
    assert refused.value.errors()[0]["loc"] == ("query", "limit")
    with pytest.raises(RequestValidationError):  # refused again: invalid queries are not remembered
        await parse(_request(b"limit=many"))
    junk = b"market=forex&" + b"x=" + b"y" * 600
    assert await parse(_request(junk)) is not await parse(_request(junk))  # long strings are not kept

    parse_loose, _ = query_model(Loose)  # a mutable model is never shared between requests
    assert await parse_loose(_request(b"limit=3")) is not await parse_loose(_request(b"limit=3"))


def _request(query: bytes) -> Request:
    return Request({"type": "http", "method": "GET", "path": "/", "query_string": query, "headers": []})


async def test_what_no_route_answers_and_what_a_route_refuses_is_answered_alike(anon: httpx.AsyncClient) -> None:
    """Refusals come from different places (no route, a method the route does not take, the direct list route's
    own dependency); each is the app's error body with the security headers and a request id."""
    answers = {
        "no route": (await anon.get("/api/no-such-thing"), 404, "not_found"),
        "wrong method": (await anon.put("/api/trade-ideas", json={}), 405, "method_not_allowed"),
        "signed out": (await anon.get("/api/trade-ideas", params={"market": "forex"}), 401, "unauthorized"),
    }
    for name, (r, status, code) in answers.items():
        assert (r.status_code, r.json()["code"]) == (status, code), name
        assert "frame-ancestors 'none'" in r.headers["content-security-policy"], name
        assert r.headers["cache-control"] == "no-store" and r.headers["x-request-id"], name
    assert answers["wrong method"][0].headers["allow"] == "GET, POST"
