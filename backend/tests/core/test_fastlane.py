"""The fast lane (`core.fastlane`): which routes may be declared fast, that a fast route behaves like FastAPI's,
that a declared fast route which stops qualifying stops the app from starting, and the query-string models of the
busiest reads. Every other route is plain FastAPI."""

from collections.abc import AsyncIterator, Callable
from typing import Annotated, Any

import httpx
import pytest
from fastapi import Body, Depends, FastAPI, Header, HTTPException, Path, Query, Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.routing import APIRoute, iter_route_contexts
from pydantic import BaseModel

from tradeideas.app import create_app
from tradeideas.core.deps import DbSession
from tradeideas.core.fastlane import FastLaneError, FastRoute, check_fast_routes, fast_router, query_model
from tradeideas.core.routing import DocumentedRoute, api_router
from tradeideas.settings import Settings

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


router = fast_router()


@router.get("/direct", dependencies=[Depends(audited)], response_model=Greeting)
async def direct(user: Annotated[str, Depends(who)], size: Annotated[int, Depends(page_size)]) -> Response:
    return Response(f"{user}:{size}".encode(), media_type="text/plain")


@router.get("/with-parameters/{item}", response_model=Greeting)
async def with_parameters(
    user: Annotated[str, Depends(who)],
    item: Annotated[int, Path()],
    tag: Annotated[str | None, Header(alias="X-Tag")] = None,
    size: Annotated[int, Query(le=50)] = 1,
) -> Response:
    return Response(f"{user}:{item}:{tag}:{size}")


plain_router = api_router()


@plain_router.post("/with-body")
async def with_body(size: Annotated[int, Body()]) -> Response:
    return Response(str(size))


@plain_router.get("/with-model")
async def with_model(user: Annotated[str, Depends(who)]) -> Greeting:
    return Greeting(text=user)


@plain_router.get("/with-cleanup")
async def with_cleanup_route(value: Annotated[int, Depends(with_cleanup)]) -> Response:
    return Response(str(value))


async def returns_model() -> Greeting:
    return Greeting(text="hi")


async def takes_body(size: Annotated[int, Body()]) -> Response:
    return Response(str(size))


async def takes_plain(value: Annotated[int, Depends(plain)]) -> Response:
    return Response(str(value))


async def takes_cleanup(value: Annotated[int, Depends(with_cleanup)]) -> Response:
    return Response(str(value))


async def takes_nested(value: Annotated[int, Depends(nested)]) -> Response:
    return Response(str(value))


async def takes_session(db: DbSession) -> Response:
    return Response(str(db))


@pytest.mark.parametrize(
    ("endpoint", "reason"),
    [
        (returns_model, "its endpoint is not annotated to return a `Response`"),
        (takes_body, "its endpoint takes a body"),
        (takes_plain, "its dependency `plain` is not a plain `async def`"),
        (takes_cleanup, "its dependency `with_cleanup` is not a plain `async def`"),
        (takes_nested, "its dependency `nested` has dependencies of its own"),
        (takes_session, "its dependency `_db_session` is not a plain `async def`"),
    ],
)
def test_a_route_that_does_not_qualify_cannot_be_declared_fast(endpoint: Callable[..., Any], reason: str) -> None:
    """A newcomer who adds `db: DbSession` to a fast route hears about it when the app is built, named, instead of
    the route silently moving to another handler."""
    with pytest.raises(FastLaneError) as refused:
        fast_router(prefix="/api").get("/thing", response_model=Greeting)(endpoint)
    assert str(refused.value) == f"GET /api/thing is declared fast but {reason}; declare it on `api_router`."


def test_a_fast_route_declares_what_it_answers() -> None:
    async def answer() -> Response:
        return Response(b"{}")

    with pytest.raises(FastLaneError, match="GET /bare is declared fast but it declares no `response_model`"):
        fast_router().get("/bare")(answer)

    class Stream(Response):
        media_type = "text/event-stream"

    async def stream() -> Stream:
        return Stream(b"")

    fast_router().get("/stream", response_class=Stream)(stream)  # an event stream documents itself
    with pytest.raises(FastLaneError, match="GET /stream is declared fast but it declares no `response_model`"):
        fast_router().get("/stream")(stream)  # ... when it says so


def test_a_fast_router_included_with_dependencies_stops_the_app_from_starting() -> None:
    app = FastAPI()
    app.include_router(router, prefix="/api", dependencies=[Depends(audited)])
    with pytest.raises(FastLaneError, match=r"GET /api/direct is declared fast but its router was included with"):
        check_fast_routes(app)


def test_the_app_declares_its_fast_routes_and_every_other_is_plain_fastapi(settings: Settings) -> None:
    """The customers' page of ideas, the event stream and the track records are the fast lane (decisions 0054, 0062
    and 0197; the README's route table says so); every other route is FastAPI's own, with FastAPI's handler."""
    app = create_app(settings)
    assert check_fast_routes(app) == [
        "GET /api/trade-ideas",
        "GET /api/events",
        "GET /api/educators/track-records",
        "GET /api/educators/{educator_id:int}/track-record",
    ]
    for context in iter_route_contexts(app.router.routes):
        route = context.original_route
        if isinstance(route, APIRoute) and not isinstance(route, FastRoute):
            assert type(route) in (DocumentedRoute, APIRoute), context.path
            assert type(route).get_route_handler is APIRoute.get_route_handler, context.path


async def test_a_fast_route_runs_its_dependencies_in_order_and_keeps_what_they_set() -> None:
    app = FastAPI()
    app.include_router(router)
    app.include_router(plain_router)
    assert check_fast_routes(app) == ["GET /direct", "GET /with-parameters/{item}"]
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app), base_url="http://test") as client:
        calls.clear()
        r = await client.get("/direct", params={"size": "25"}, headers={"x-user": "ann"})
        assert r.status_code == 200 and r.text == "ann:25"
        assert r.headers["content-type"].startswith("text/plain")
        assert r.headers["content-length"] == "6"
        assert "renewed=yes" in r.headers["set-cookie"]
        assert calls == ["audited /direct", "who", "page_size"]

        calls.clear()
        refused = await client.get("/direct")  # answered by the app's exception handlers, as from any route
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

        # Plain routes: bodies read, models serialised, dependencies closed by FastAPI's handler.
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


def _scope(method: str, path: str) -> dict[str, Any]:
    return {"type": "http", "method": method, "path": path, "root_path": "", "query_string": b"", "headers": []}


def test_the_app_answers_its_fast_routes_in_front_and_everything_else_through_fastapi(settings: Settings) -> None:
    """Decision 0197: the fast routes are picked by their exact path (or their own pattern) before FastAPI's layers;
    any other method or path goes on to FastAPI's router."""
    lane = create_app(settings).front_lane
    assert lane is not None

    def picked(method: str, path: str) -> tuple[str, Any] | None:
        scope = _scope(method, path)
        route = lane.route_for(scope)
        return None if route is None else (route.path, scope.get("path_params"))

    picked_routes = {
        (method, path): picked(method, path)
        for method, path in [
            ("GET", "/api/trade-ideas"),
            ("GET", "/api/events"),
            ("GET", "/api/educators/3/track-record"),
            ("PUT", "/api/trade-ideas"),
            ("POST", "/api/trade-ideas"),
            ("GET", "/api/trade-ideas/1"),
            ("GET", "/api/trade-ideas/"),
            ("GET", "/api/educators/x/track-record"),
            ("GET", "/customer/forex"),
        ]
    }
    assert picked_routes == {
        ("GET", "/api/trade-ideas"): ("/api/trade-ideas", None),
        ("GET", "/api/events"): ("/api/events", None),
        ("GET", "/api/educators/3/track-record"): ("/api/educators/{educator_id:int}/track-record", {"educator_id": 3}),
        ("PUT", "/api/trade-ideas"): None,
        ("POST", "/api/trade-ideas"): None,
        ("GET", "/api/trade-ideas/1"): None,
        ("GET", "/api/trade-ideas/"): None,
        ("GET", "/api/educators/x/track-record"): None,
        ("GET", "/customer/forex"): None,
    }
    assert lane.route_for({**_scope("GET", "/api/trade-ideas"), "root_path": "/app"}) is None


async def test_a_fast_route_answers_in_front_exactly_as_fastapi_would(
    app: FastAPI,
    anon: httpx.AsyncClient,
    customer: httpx.AsyncClient,
    admin: httpx.AsyncClient,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Every answer the lane gives (a page, a record, each kind of refusal) is byte for byte what the same request
    gets through FastAPI's own layers, security headers, request id and stream position included."""
    requests = [
        (anon, "/api/trade-ideas?market=forex"),  # 401
        (customer, "/api/trade-ideas?market=forex&status=active&limit=100"),
        (customer, "/api/trade-ideas?limit=many"),  # 422
        (admin, "/api/trade-ideas?market=forex"),  # 403: not for admins
        (customer, "/api/educators/1/track-record?market=forex"),
        (customer, "/api/educators/99999/track-record"),  # 404
        (anon, "/api/events"),  # 401
        (admin, "/api/events"),  # 403
        (customer, "/api/events?lastEventId=" + "9" * 21),  # 422
    ]

    async def answers() -> list[tuple[int, bytes, list[tuple[str, str]]]]:
        seen = []
        for client, url in requests:
            r = await client.get(url)
            headers = sorted((k, v) for k, v in r.headers.items() if k not in ("x-request-id", "date"))
            assert r.headers["x-request-id"], url
            seen.append((r.status_code, r.content, headers))
        return seen

    in_front = await answers()
    monkeypatch.setattr(app, "front_lane", None)
    through_fastapi = await answers()
    assert [status for status, _, _ in in_front] == [401, 200, 422, 403, 200, 404, 401, 403, 422]
    for (_, url), front, plain in zip(requests, in_front, through_fastapi, strict=True):
        assert front == plain, url
