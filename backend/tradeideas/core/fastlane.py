"""The fast lane: the few routes that skip FastAPI's general request handler, and everything they need
(decision record 0054). Every other route is plain FastAPI.

A route joins the lane by being declared on a `fast_router` (its routes are `FastRoute`s). It stays a FastAPI
route in every other way: included with `include_router`, matched by FastAPI's router, wrapped by FastAPI's
`request_response` (exit stacks, the app's exception handlers), documented in OpenAPI. Only the function that
turns the request into the endpoint's call is shorter: FastAPI's handler reads and parses bodies, solves a tree of
dependencies with a per-request cache and serialises what the endpoint returns; a fast route's inputs are at most
`async def` dependencies that take the request (and the response they may set cookies on) plus path, query,
header and cookie parameters, and its endpoint returns its `Response` (JSON bytes encoded from the route's declared
`response_model`) itself, so awaiting each dependency, validating the parameters with FastAPI's own function and
awaiting the endpoint is the whole job.

A declared fast route that no longer qualifies (a newcomer adds `db: DbSession`, or includes its router with extra
dependencies) stops the app from starting, with an error naming the route and the reason, instead of silently
changing how it is served: `FastRoute.get_route_handler` refuses at declaration, `check_fast_routes` at start-up.

In front (decision 0197): the app's `FrontLane` answers the fast routes before FastAPI's own layers (Starlette's
error and exception middleware, FastAPI's exit stack, its router and `request_response`), through the same middleware
the app declares (`app.user_middleware`, rebuilt once) and the app's own exception handlers. A fast route is the
busiest answer (a cached page of ideas) or the longest-lived one (an event stream): FastAPI's layers cost the cached
page half of its CPU, and keep their frames on every open stream's stack for as long as it lasts.
"""

import inspect
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

from fastapi import APIRouter, FastAPI, Request
from fastapi.dependencies.models import Dependant
from fastapi.dependencies.utils import request_params_to_args
from fastapi.exceptions import RequestValidationError
from fastapi.routing import iter_route_contexts
from lru import LRU
from pydantic import BaseModel, ValidationError
from starlette.responses import Response
from starlette.routing import Match
from starlette.types import ASGIApp, Receive, Scope, Send

from tradeideas.core.routing import DocumentedRoute, router_conventions

Handler = Callable[[Request], Coroutine[Any, Any, Response]]


class FastLaneError(RuntimeError):
    """A route declared fast does not qualify: raised while the app is built, so it never starts that way."""


class FastRoute(DocumentedRoute):
    """A route of a `fast_router`: served by `direct_handler`, or refused at declaration."""

    def get_route_handler(self) -> Handler:
        reason = why_not_fast(self.dependant, self.response_model, self.response_class)
        if reason is not None:
            raise FastLaneError(f"{describe(self)} is declared fast but {reason}; declare it on `api_router`.")
        return direct_handler(self.dependant)


def fast_router(**kwargs: Any) -> APIRouter:
    """An `APIRouter` (same arguments, the app's conventions) whose routes are fast. Keep it for the routes whose
    speed matters most, and list each one in the README's route table."""
    return APIRouter(**router_conventions(FastRoute), **kwargs)


def describe(route: Any) -> str:
    return f"{' '.join(sorted(route.methods or ()))} {route.path}"


def check_fast_routes(app: FastAPI) -> list[str]:
    """Every fast route as included in `app`, checked as it is served: an inclusion that adds dependencies (which
    the direct handler would not run) is refused. Returns the fast routes, as 'GET /path', for the log and tests."""
    fast: list[str] = []
    for context in iter_route_contexts(app.router.routes):
        route = context.original_route
        if not isinstance(route, FastRoute):
            continue
        served: Dependant = context.dependant
        declared = [sub.call for sub in route.dependant.dependencies]
        if [sub.call for sub in served.dependencies] != declared:
            raise FastLaneError(f"{describe(context)} is declared fast but its router was included with dependencies")
        fast.append(describe(context))
    return fast


# ---------------------------------------------------------------- which routes qualify, and their handler


def _extra_inputs(dependant: Dependant, *, parameters: bool) -> str | None:
    """What FastAPI's handler would have to read, solve or clean up for this dependant, if anything."""
    kinds = {
        "a body": dependant.body_params,
        "a websocket": dependant.websocket_param_name,
        "the connection": dependant.http_connection_param_name,
        "background tasks": dependant.background_tasks_param_name,
        "security scopes": dependant.security_scopes_param_name or dependant.own_oauth_scopes,
    }
    if not parameters:
        kinds["parameters"] = (
            dependant.path_params or dependant.query_params or dependant.header_params or dependant.cookie_params
        )
    return next((f"takes {kind}" for kind, present in kinds.items() if present), None)


def _returns_response(call: Callable[..., Any]) -> bool:
    annotation = inspect.signature(call).return_annotation
    return inspect.isclass(annotation) and issubclass(annotation, Response)


EVENT_STREAM = "text/event-stream"


def _streams_events(endpoint: Callable[..., Any], response_class: Any) -> bool:
    """The route answers with an event stream: it declares its own streaming `response_class` and returns one (FastAPI's
    default class, never an endpoint's annotation, fails the first test)."""
    annotation = inspect.signature(endpoint).return_annotation
    return annotation is response_class and getattr(response_class, "media_type", None) == EVENT_STREAM


def why_not_fast(dependant: Dependant, response_model: Any, response_class: Any = None) -> str | None:
    """Why the route cannot be served by `direct_handler`, or None when it can."""
    endpoint = dependant.call
    if endpoint is None or not inspect.iscoroutinefunction(endpoint):
        return "its endpoint is not `async def`"
    if not _returns_response(endpoint):
        return "its endpoint is not annotated to return a `Response`"
    if response_model is None and not _streams_events(endpoint, response_class):
        return (
            "it declares no `response_model` (what its bytes are encoded from and documented as) and answers no "
            "event stream"
        )
    extra = _extra_inputs(dependant, parameters=True) or (dependant.response_param_name and "takes the response")
    if extra:
        return f"its endpoint {extra}"
    seen: list[Callable[..., Any]] = []
    for sub in dependant.dependencies:
        call = sub.call
        name = getattr(call, "__name__", repr(call))
        if call is None or not inspect.iscoroutinefunction(call):
            # a generator (`yield`, e.g. a database session) or a plain function FastAPI would run in a thread
            return f"its dependency `{name}` is not a plain `async def`"
        if sub.dependencies:
            return f"its dependency `{name}` has dependencies of its own"
        extra = _extra_inputs(sub, parameters=False)
        if extra:
            return f"its dependency `{name}` {extra}"
        if call in seen:
            return f"its dependency `{name}` is repeated (FastAPI would solve it once)"
        seen.append(call)
    return None


class _SideResponse(Response):
    """What a dependency that takes the response sets headers and cookies on (a renewed session cookie): only
    its headers are kept, added to the endpoint's response. Made on every request, so it skips the body and
    header setup a full `Response` does."""

    def __init__(self) -> None:
        self.raw_headers = []


def direct_handler(dependant: Dependant) -> Handler:
    """A handler that awaits the route's dependencies in order, validates its parameters and awaits the endpoint.
    What it raises goes to the app's exception handlers through FastAPI's `request_response`, as from any route."""
    endpoint = dependant.call
    assert endpoint is not None
    steps = [(sub.name, sub.call, sub.request_param_name, sub.response_param_name) for sub in dependant.dependencies]
    request_name = dependant.request_param_name
    parameters = [
        (fields, where)
        for fields, where in (
            (dependant.path_params, "path_params"),
            (dependant.query_params, "query_params"),
            (dependant.header_params, "headers"),
            (dependant.cookie_params, "cookies"),
        )
        if fields
    ]

    async def handle(request: Request) -> Response:
        values: dict[str, Any] = {}
        # Headers and cookies a dependency sets (a renewed session cookie), added to whatever the endpoint returns.
        side: Response | None = None
        for name, call, takes_request, takes_response in steps:
            arguments: dict[str, Any] = {}
            if takes_request:
                arguments[takes_request] = request
            if takes_response:
                side = side or _SideResponse()
                arguments[takes_response] = side
            value = await call(**arguments)  # type: ignore[misc]
            if name is not None:
                values[name] = value
        if parameters:
            errors: list[Any] = []
            for fields, where in parameters:
                found, wrong = request_params_to_args(fields, getattr(request, where))
                values.update(found)
                errors += wrong
            if errors:
                raise RequestValidationError(errors)
        if request_name:
            values[request_name] = request
        response = await endpoint(**values)
        if not isinstance(response, Response):
            raise TypeError(f"{endpoint.__qualname__} must return a Response")
        if side is not None and side.raw_headers:
            response.raw_headers.extend((key, value) for key, value in side.raw_headers if key != b"content-length")
        return response

    return handle


# ---------------------------------------------------------------- in front of FastAPI's own layers


class FrontLane:
    """The app's fast routes, answered in front of FastAPI's own layers (see the module's text, decision 0197).

    `route_for` picks a request's fast route (an exact method and path, or the route's own pattern for a path with
    parameters), or None: everything else goes to FastAPI as before. `serve` runs the request through the app's
    declared middleware, built again here from `app.user_middleware` (the same classes and arguments, in the same
    order: request id, security headers, metrics, drain counting, proxy headers, body limits, compression), then the
    route's handler; what the handler raises is answered by the app's exception handler for its type. An error no
    handler takes goes on to the app's edge, which answers 500 as it does for any route.
    """

    def __init__(self, app: FastAPI) -> None:
        self._app = app
        self._exact: dict[tuple[str, str], FastRoute] = {}
        self._patterns: list[FastRoute] = []
        self._handlers: dict[int, Handler] = {}  # by the route's id: FastAPI's routes are not hashable
        for context in iter_route_contexts(app.router.routes):
            route = context.original_route
            if not isinstance(route, FastRoute):
                continue
            if context.path != route.path:
                raise FastLaneError(f"{describe(context)} is declared fast but its router was included with a prefix")
            self._handlers[id(route)] = route.get_route_handler()
            if route.param_convertors:
                self._patterns.append(route)
                continue
            for method in route.methods or ():
                if (method, route.path) in self._exact:
                    raise FastLaneError(f"{describe(context)} is declared fast twice")
                self._exact[(method, route.path)] = route
        # Exceptions that reach Starlette's own error middleware (`Exception`, 500) are left to the app's edge.
        self._exception_handlers = {
            kind: handler
            for kind, handler in app.exception_handlers.items()
            if isinstance(kind, type) and kind is not Exception
        }
        stack: ASGIApp = self._answer
        for middleware, args, kwargs in reversed(app.user_middleware):
            stack = middleware(stack, *args, **kwargs)
        self._stack = stack

    def route_for(self, scope: Scope) -> FastRoute | None:
        if scope.get("root_path"):
            return None  # served under a prefix: FastAPI's router knows how to strip it
        route = self._exact.get((scope["method"], scope["path"]))
        if route is not None or not self._patterns:
            return route
        for candidate in self._patterns:
            match, child = candidate.matches(scope)
            if match is Match.FULL:
                scope["path_params"] = child["path_params"]
                return candidate
        return None

    def serve(self, route: FastRoute, scope: Scope, receive: Receive, send: Send) -> Any:
        scope["app"] = self._app
        scope["route"] = route  # what the edge counts the request by (`path_format`), as FastAPI's router sets it
        scope.setdefault("path_params", {})
        return self._stack(scope, receive, send)

    async def _answer(self, scope: Scope, receive: Receive, send: Send) -> None:
        response = await self._response(scope, receive, send)
        # The request and what the handler read from it are gone by now: an event stream, answered for as long as
        # its client stays, keeps only this frame.
        await response(scope, receive, send)

    async def _response(self, scope: Scope, receive: Receive, send: Send) -> Response:
        request = Request(scope, receive, send)
        try:
            return await self._handlers[id(scope["route"])](request)
        except Exception as exc:
            handlers = self._exception_handlers
            handler = next((handlers[kind] for kind in type(exc).__mro__ if kind in handlers), None)
            if handler is None:
                raise
            answer = handler(request, exc)
            return await answer if inspect.isawaitable(answer) else answer


# ---------------------------------------------------------------- the query string as one model

M = TypeVar("M", bound=BaseModel)
QUERY_MEMO_ENTRIES = 256
QUERY_MEMO_MAX_BYTES = 512


def query_model(model: type[M]) -> tuple[Callable[[Request], Coroutine[Any, Any, M]], dict[str, Any]]:
    """A dependency that validates a route's query string as one pydantic model, and the OpenAPI text of
    its parameters (pass it as the route's `openapi_extra`).

    For the busiest reads: FastAPI validates declared query parameters one by one and re-inspects each
    annotation on every request, which costs several times one model validation. Unknown parameters are
    ignored and errors are the usual 422, as with declared parameters.
    """
    schema = model.model_json_schema(by_alias=True)
    assert "$defs" not in schema, "query models hold plain values (literals, numbers, strings)"
    parameters = [
        {"in": "query", "name": name, "required": name in schema.get("required", ()), "schema": field}
        for name, field in schema["properties"].items()
    ]

    def validate(request: Request) -> M:
        try:
            return model.model_validate(dict(request.query_params))
        except ValidationError as exc:
            errors = [{**error, "loc": ("query", *error["loc"])} for error in exc.errors(include_url=False)]
            raise RequestValidationError(errors) from None

    if not model.model_config.get("frozen"):

        async def parse(request: Request) -> M:
            return validate(request)

    else:
        # A frozen model can be shared: the same query string (a market page asks for the same one again and
        # again) gets the same object back without parsing it again, and as the key of a cached answer that
        # object is found by identity. Only valid queries are kept, at most QUERY_MEMO_ENTRIES of them.
        seen: LRU[bytes, M] = LRU(QUERY_MEMO_ENTRIES)

        async def parse(request: Request) -> M:
            raw: bytes = request.scope["query_string"]
            found = seen.get(raw)
            if found is None:
                found = validate(request)
                if len(raw) <= QUERY_MEMO_MAX_BYTES:  # unknown parameters are ignored: keep no junk-filled keys
                    seen[raw] = found
            return found

    parse.__name__ = f"parse_{model.__name__}"
    return parse, {"parameters": parameters}
