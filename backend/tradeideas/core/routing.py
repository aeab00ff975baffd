"""The app's conventions for declaring routes: every router comes from `api_router`, a plain `APIRouter` that
documents the app's error body on each route and names operations after their endpoints. The composition root
(`tradeideas/app.py`) joins the routers with FastAPI's `include_router`. Routes that skip FastAPI's general
request handler are declared with `core.fastlane.fast_router` instead (decision record 0054)."""

from typing import Any

from fastapi import APIRouter
from fastapi.routing import APIRoute

from tradeideas.core.schemas import ErrorResponse

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


class DocumentedRoute(APIRoute):
    """FastAPI's `APIRoute`, whose error statuses named without a body are documented with `ErrorResponse`.
    Only the OpenAPI text changes: requests are handled by FastAPI's own handler."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs["responses"] = with_error_bodies(kwargs.get("responses"))
        super().__init__(*args, **kwargs)


def router_conventions(route_class: type[APIRoute]) -> dict[str, Any]:
    """The `APIRouter` arguments every router of the app passes (`api_router` and `fastlane.fast_router`)."""
    return {"route_class": route_class, "generate_unique_id_function": operation_id, "responses": ERROR_RESPONSES}


def api_router(**kwargs: Any) -> APIRouter:
    """An `APIRouter` (same arguments) with the app's conventions; list it in its domain's `domain.py`."""
    return APIRouter(**router_conventions(DocumentedRoute), **kwargs)
