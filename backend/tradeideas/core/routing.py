"""How routes are declared and joined to the app: one router factory with the app's conventions, the routes in
the app's own table, and a direct way through for the simplest routes.

Routers come from `api_router`, which gives them what the app would otherwise add when including them (the
error responses every route documents, operation ids named after the endpoint, `AppRoute`), so `add_routers`
can put their routes straight into the app's route table. FastAPI 0.165's `include_router` nests each router
instead, and matches a request through the nested router on every call, which cost about a quarter of the
cached list's time in-process (decision record 0044).

`AppRoute` is FastAPI's `APIRoute` with a direct handler for the simplest routes.

FastAPI's request handler is general: it reads and parses bodies, validates declared parameters, solves a tree
of dependencies (with their per-request cache, exit stacks and scopes), reports to its telemetry hooks and
serialises what the endpoint returns. A route whose inputs all come from dependencies that take nothing but the
request (and the response they may set cookies on), and whose endpoint returns its `Response` itself, needs none
of that: awaiting each dependency and then the endpoint is the whole job. On the busiest read (a customer's page
of ideas, answered from memory) that job is a fraction of what the general handler costs (decision record 0044).

Such a route still goes through its route, its dependencies and the app's middleware and error handlers; only the
handler that calls them is shorter. Any other route keeps FastAPI's handler unchanged.
"""

import inspect
from collections.abc import Callable, Coroutine, Iterable
from typing import Any

from fastapi import APIRouter, FastAPI
from fastapi.dependencies.models import Dependant
from fastapi.routing import APIRoute
from starlette.requests import Request
from starlette.responses import Response

from tradeideas.core.schemas import ErrorResponse

Handler = Callable[[Request], Coroutine[Any, Any, Response]]

# Every route documents the app's error shape for validation errors and refusals.
ERROR_RESPONSES: dict[int | str, dict[str, Any]] = {422: {"model": ErrorResponse}, "4XX": {"model": ErrorResponse}}


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
    holds what its router adds: prefix, tags, dependencies and the conventions of `api_router`."""
    for router in routers:
        assert router.route_class is AppRoute, "routers come from api_router"
        app.router.routes.extend(router.routes)


class AppRoute(APIRoute):
    """Pass as `route_class` to every `APIRouter`; `direct` tells whether the route takes the direct handler."""

    direct = False

    def get_route_handler(self) -> Handler:
        handler = direct_handler(self.dependant)
        self.direct = handler is not None
        return handler if handler is not None else super().get_route_handler()


def _takes_only_the_request(dependant: Dependant) -> bool:
    """Nothing FastAPI would have to read, validate, solve or clean up: the request and the response at most."""
    return not (
        dependant.path_params
        or dependant.query_params
        or dependant.header_params
        or dependant.cookie_params
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
    if not _takes_only_the_request(dependant) or dependant.response_param_name:
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

    async def handle(request: Request) -> Response:
        values: dict[str, Any] = {}
        # Headers and cookies a dependency sets (a renewed session cookie), added to whatever the endpoint returns.
        side: Response | None = None
        for name, call, takes_request, takes_response in steps:
            arguments: dict[str, Any] = {}
            if takes_request:
                arguments[takes_request] = request
            if takes_response:
                side = side or Response()
                arguments[takes_response] = side
            value = await call(**arguments)
            if name is not None:
                values[name] = value
        if request_name:
            values[request_name] = request
        response = await endpoint(**values)
        if not isinstance(response, Response):
            raise TypeError(f"{endpoint.__qualname__} must return a Response")
        if side is not None:
            response.raw_headers.extend((key, value) for key, value in side.raw_headers if key != b"content-length")
        return response

    return handle
