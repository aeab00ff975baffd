"""How routes are declared and joined to the app: one router factory with the app's conventions, the routes in
the app's own table, and a direct way through for the simplest routes.

Routers come from `api_router`, which gives them what the app would otherwise add when including them (the
error responses every route documents, operation ids named after the endpoint, `AppRoute`), so `add_routers`
can put their routes straight into the app's route table. FastAPI 0.165's `include_router` nests each router
instead, and matches a request through the nested router on every call, which cost about a quarter of the
cached list's time in-process (decision record 0044).

`AppRoute` is FastAPI's `APIRoute` with a direct handler for the simplest routes.

FastAPI's request handler is general: it reads and parses bodies, solves a tree of dependencies (with their
per-request cache, exit stacks and scopes), reports to its telemetry hooks and serialises what the endpoint
returns. A route whose dependencies take nothing but the request (and the response they may set cookies on), whose
own inputs are at most path, query, header and cookie parameters, and whose endpoint returns its `Response` itself,
needs none of that: awaiting each dependency, validating the parameters with FastAPI's own function and then
awaiting the endpoint is the whole job. On the busiest read (a customer's page of ideas, answered from memory) that
job is a fraction of what the general handler costs, and an open event stream, which keeps every layer it passed
through for as long as it lasts, keeps fewer (decision record 0044).

Such a route still goes through its route, its dependencies and the app's middleware and error handlers; only the
handler that calls them is shorter. `RouteRequests` is the layer in front of the routes: it hands a request to the
route that fully matches it and answers what routes raise, with Starlette's handlers but without wrapping every
request to watch for it. Any other route keeps FastAPI's handler unchanged, and the exit stack FastAPI
keeps for files a form uploads (its `AsyncExitStackMiddleware`, around every request) is opened by those routes
alone, as they are the only ones that can receive a form.
"""

import inspect
from collections.abc import Awaitable, Callable, Coroutine, Iterable
from typing import Any

from fastapi import APIRouter, FastAPI
from fastapi.dependencies.models import Dependant
from fastapi.dependencies.utils import request_params_to_args
from fastapi.exceptions import RequestValidationError
from fastapi.middleware.asyncexitstack import AsyncExitStackMiddleware
from fastapi.routing import APIRoute
from starlette.exceptions import HTTPException
from starlette.middleware.exceptions import ExceptionMiddleware
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Match, Route
from starlette.types import ASGIApp, Receive, Scope, Send

from tradeideas.core.errors import handler_answer
from tradeideas.core.schemas import ErrorResponse

Handler = Callable[[Request], Coroutine[Any, Any, Response]]

# Every route documents the app's error shape for validation errors and refusals.
ERROR_RESPONSES: dict[int | str, dict[str, Any]] = {422: {"model": ErrorResponse}, "4XX": {"model": ErrorResponse}}


def with_error_bodies(responses: dict[int | str, dict[str, Any]] | None) -> dict[int | str, dict[str, Any]]:
    """A route's responses where each error status it names without a body (`responses={404: {}}`) has the
    app's error body, `ErrorResponse`: every error the app answers is rendered by `core.errors` in that shape.
    A status that names its own model or content (a richer error body, a non-JSON answer) keeps it."""
    return {
        status: (
            {**response, "model": ErrorResponse}
            if str(status)[:1] in ("4", "5") and "model" not in response and "content" not in response
            else response
        )
        for status, response in (responses or {}).items()
    }


def operation_id(route: APIRoute) -> str:
    """OpenAPI operation ids are the endpoints' names (the front end's generated client calls them so)."""
    return route.name


def api_router(**kwargs: Any) -> APIRouter:
    """An `APIRouter` (same arguments) whose routes carry the app's conventions and take `AppRoute`."""
    return APIRouter(
        route_class=AppRoute, generate_unique_id_function=operation_id, responses=ERROR_RESPONSES, **kwargs
    )


def add_routers(app: FastAPI, routers: Iterable[APIRouter]) -> None:
    """The routers' routes in the app's own route table, in order (matched first to last). Each route already
    holds what its router adds: prefix, tags, dependencies and the conventions of `api_router`.

    They go ahead of the routes FastAPI added when the app was made (the OpenAPI document and its docs page),
    which every request would otherwise be matched against first."""
    routes: list[BaseRoute] = []
    for router in routers:
        assert router.route_class is AppRoute, "routers come from api_router"
        for route in router.routes:
            if isinstance(route, AppRoute):
                route.in_app_table = True
        routes += router.routes
    app.router.routes[:0] = routes


class AppRoute(APIRoute):
    """Pass as `route_class` to every `APIRouter`; `direct` tells whether the route takes the direct handler."""

    # Set by `add_routers`: the route sits in the app's own table, not in a router FastAPI nests (whose routes
    # take their path, methods and handler from the router that includes them).
    in_app_table = False

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self._direct_handler: Handler | None = None
        kwargs["responses"] = with_error_bodies(kwargs.get("responses"))
        super().__init__(*args, **kwargs)
        if self._direct_handler is not None:
            self.app = direct_app(self._direct_handler)
        else:
            self.app = AsyncExitStackMiddleware(self.app)

    @property
    def direct(self) -> bool:
        return self._direct_handler is not None

    def matches(self, scope: Scope) -> tuple[Match, Scope]:
        if not self.in_app_table:
            return super().matches(scope)
        # Starlette's matching alone: a route in the app's own table has no included router's context to consult.
        match, child_scope = Route.matches(self, scope)
        if match != Match.NONE:
            child_scope["route"] = self
        return match, child_scope

    def handle(self, scope: Scope, receive: Receive, send: Send) -> Awaitable[None]:  # type: ignore[override]
        # Handed over, not awaited: no frame of this method stays on an open stream's stack.
        if self.in_app_table and (not self.methods or scope["method"] in self.methods):
            return self.app(scope, receive, send)
        return super().handle(scope, receive, send)

    def get_route_handler(self) -> Handler:
        self._direct_handler = direct_handler(self.dependant)
        return self._direct_handler if self._direct_handler is not None else super().get_route_handler()


class _SideResponse(Response):
    """What a dependency that takes the response sets headers and cookies on (a renewed session cookie): only
    its headers are kept, added to the endpoint's response. Made on every request, so it skips the body and
    header setup a full `Response` does."""

    def __init__(self) -> None:
        self.raw_headers = []


def direct_app(handler: Handler) -> ASGIApp:
    """The route's ASGI app around a direct handler: what the handler raises is answered by the app's error
    handlers, as from any route. No exit stacks to open, as no dependency has anything to close, and nothing to
    watch on the way out: the handler raises before anything is sent."""

    async def app(scope: Scope, receive: Receive, send: Send) -> None:
        request = Request(scope, receive, send)
        try:
            response = await handler(request)
        except Exception as exc:
            response = await error_response(request, exc)
        await response(scope, receive, send)

    return app


async def error_response(request: Request, exc: Exception) -> Response:
    """The answer the app's handlers give for `exc` (looked up as Starlette does: by status, then by class), or
    `exc` raised again when none handles it (the server error handler answers it)."""
    handlers, status_handlers = request.scope["starlette.exception_handlers"]
    handler = status_handlers.get(exc.status_code) if isinstance(exc, HTTPException) else None
    if handler is None:
        handler = next((handlers[kind] for kind in type(exc).__mro__ if kind in handlers), None)
    if handler is None:
        raise exc
    response = await handler_answer(handler, request, exc)
    exc.__traceback__ = None  # a reused exception instance would otherwise keep every request's traceback
    return response


class RouteRequests(ExceptionMiddleware):
    """Matches the request to its route and answers what the route raises: Starlette's `ExceptionMiddleware` (the
    same handlers) without its per-request wrapper, in front of FastAPI's router.

    Starlette wraps every request to see whether its response has started before answering an error. Here each
    route answers its own errors: FastAPI's handler wraps the route as Starlette does, and a direct route answers
    before it sends anything (`direct_app`). What still reaches this layer is raised before any route answers (no
    route for the path, a method the route does not take) or handled by no one, so it needs no watching either.

    The first route that fully matches takes the request here, as FastAPI's router would hand it over; anything
    else (no route, a wrong method, a slash to redirect) goes to that router, which matches again and answers.
    """

    def __init__(self, app: ASGIApp, *, router: APIRouter, debug: bool = False) -> None:
        super().__init__(app, debug=debug)
        assert not router.form_limits, "FastAPI's router applies form limits before matching: this layer does not"
        self.router = router

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await super().__call__(scope, receive, send)
            return
        scope["starlette.exception_handlers"] = (self._exception_handlers, self._status_handlers)
        try:
            await self._route(scope, receive, send)
        except Exception as exc:
            request = Request(scope, receive, send)
            await (await error_response(request, exc))(scope, receive, send)

    def _route(self, scope: Scope, receive: Receive, send: Send) -> Awaitable[None]:
        if "router" not in scope:
            scope["router"] = self.router
        for route in self.router.routes:
            match, child_scope = route.matches(scope)
            if match is Match.FULL:
                if not isinstance(route, AppRoute) or not route.in_app_table:
                    break  # FastAPI's router knows what else such a route needs from the scope
                scope.update(child_scope)
                return route.handle(scope, receive, send)
        return self.app(scope, receive, send)

    @classmethod
    def replacing(cls, layer: ExceptionMiddleware, router: APIRouter) -> "RouteRequests":
        routing = cls(layer.app, router=router, debug=layer.debug)
        routing._exception_handlers = layer._exception_handlers
        routing._status_handlers = layer._status_handlers
        return routing


def _takes_only_the_request(dependant: Dependant, *, parameters: bool = False) -> bool:
    """Nothing FastAPI would have to read, solve or clean up: the request and the response at most, and path,
    query, header and cookie parameters when `parameters` is true."""
    return not (
        (
            not parameters
            and (dependant.path_params or dependant.query_params or dependant.header_params or dependant.cookie_params)
        )
        or dependant.body_params
        or dependant.websocket_param_name
        or dependant.http_connection_param_name
        or dependant.background_tasks_param_name
        or dependant.security_scopes_param_name
        or dependant.own_oauth_scopes
    )


def _returns_response(call: Callable[..., Any]) -> bool:
    annotation = inspect.signature(call).return_annotation
    return inspect.isclass(annotation) and issubclass(annotation, Response)


def direct_handler(dependant: Dependant) -> Handler | None:
    """A handler that awaits the route's dependencies and endpoint, or None when the route needs FastAPI's."""
    endpoint = dependant.call
    if endpoint is None or not inspect.iscoroutinefunction(endpoint) or not _returns_response(endpoint):
        return None
    if not _takes_only_the_request(dependant, parameters=True) or dependant.response_param_name:
        return None
    steps: list[tuple[str | None, Callable[..., Any], str | None, str | None]] = []
    for sub in dependant.dependencies:
        call = sub.call
        if (
            call is None
            or sub.dependencies
            or not inspect.iscoroutinefunction(call)  # a generator (`yield`) or a plain function FastAPI would thread
            or not _takes_only_the_request(sub)
            or any(call is seen for _, seen, _, _ in steps)  # a repeat would be solved once by FastAPI's cache
        ):
            return None
        steps.append((sub.name, call, sub.request_param_name, sub.response_param_name))
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
            value = await call(**arguments)
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
