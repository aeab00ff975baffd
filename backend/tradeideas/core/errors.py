"""Domain errors and the one place that renders every error as `{message, code}`."""

import logging
from collections.abc import Awaitable, Callable
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.routing import iter_route_contexts
from pydantic_core import PydanticCustomError
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.responses import Response
from starlette.routing import Match

log = logging.getLogger("tradeideas")


class AppError(Exception):
    """An error a user may see: status, message (spec wording where it has one) and a stable code."""

    status_code = 400
    code = "bad_request"

    def __init__(
        self,
        message: str,
        *,
        code: str | None = None,
        status_code: int | None = None,
        headers: dict[str, str] | None = None,
        extra: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(message)
        self.extra = extra or {}  # more fields of the error body (e.g. per-row errors)
        self.message = message
        if code:
            self.code = code
        if status_code:
            self.status_code = status_code
        self.headers = headers


class Unauthorized(AppError):
    status_code = 401
    code = "unauthorized"


class Forbidden(AppError):
    status_code = 403
    code = "forbidden"


class NotFound(AppError):
    status_code = 404
    code = "not_found"


class Invalid(AppError):
    status_code = 422
    code = "validation_error"


class Gone(AppError):
    status_code = 410
    code = "gone"


class TooManyRequests(AppError):
    status_code = 429
    code = "too_many_requests"


def error_body(message: str, code: str, **extra: Any) -> dict[str, Any]:
    return {"message": message, "code": code, **extra}


def coded_error(code: str, message: str) -> PydanticCustomError:
    """What a validator raises for a refusal with its own error code: the 422 answer says `message` as it is and
    `code` in place of `validation_error` (when it is the request's first error)."""
    return PydanticCustomError(code, message, {"app_code": code})


def _app_code(error: Any) -> str | None:
    context = error.get("ctx")
    code = context.get("app_code") if isinstance(context, dict) else None
    return code if isinstance(code, str) else None


def _validation_message(exc: RequestValidationError) -> str:
    errors = exc.errors()
    if not errors:
        return "Invalid request"
    first = errors[0]
    # Our own validators raise with spec wording; pydantic prefixes them with "Value error, ".
    msg = str(first.get("msg", "Invalid request")).removeprefix("Value error, ")
    loc = [str(p) for p in first.get("loc", ()) if p not in ("body", "query", "path")]
    if first.get("type") in ("value_error", "assertion_error") or _app_code(first) or not loc:
        return msg
    return f"{'.'.join(loc)}: {msg}"


ID_OUT_OF_RANGE = {"less_than_equal", "greater_than_equal"}
METHOD_ORDER = ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS")


def allowed_methods(request: Request) -> str:
    """Every method some route answers at this path (Starlette's 405 names only the first route's)."""
    methods: set[str] = set()
    # Each route as included (its full path), however FastAPI nests the routers.
    for route in iter_route_contexts(request.app.router.routes):
        match, _ = route.matches(request.scope)
        if match != Match.NONE:
            methods |= route.methods or set()
    return ", ".join(sorted(methods, key=lambda m: METHOD_ORDER.index(m) if m in METHOD_ORDER else len(METHOD_ORDER)))


ErrorAnswer = Callable[[Request, Exception], Awaitable[Response]]


def install_error_handlers(app: FastAPI) -> ErrorAnswer:
    """Every error rendered as `{message, code}`; returns the answer to an unexpected error (a 500), which the
    app's edge gives when nothing else answered."""

    @app.exception_handler(AppError)
    async def _app_error(_: Request, exc: AppError) -> JSONResponse:
        return JSONResponse(error_body(exc.message, exc.code, **exc.extra), exc.status_code, headers=exc.headers)

    @app.exception_handler(RequestValidationError)
    async def _validation(_: Request, exc: RequestValidationError) -> JSONResponse:
        if any(error.get("loc", ("",))[0] == "path" and error.get("type") in ID_OUT_OF_RANGE for error in exc.errors()):
            # A path id beyond the id range names no possible resource: it is simply not there.
            return JSONResponse(error_body("Not found", "not_found"), 404)
        fields = [
            {"field": ".".join(str(p) for p in e.get("loc", ()) if p != "body"), "message": e.get("msg")}
            for e in exc.errors()
        ]
        code = (_app_code(exc.errors()[0]) if exc.errors() else None) or "validation_error"
        return JSONResponse(error_body(_validation_message(exc), code, errors=fields), 422)

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        message = exc.detail if isinstance(exc.detail, str) else "Request failed"
        message = {404: "Not found", 405: "Method not allowed"}.get(exc.status_code, message)
        code = {404: "not_found", 405: "method_not_allowed", 413: "payload_too_large"}.get(
            exc.status_code, "http_error"
        )
        headers = getattr(exc, "headers", None)
        if exc.status_code == 405:
            headers = {**(headers or {}), "Allow": allowed_methods(request)}
        return JSONResponse(error_body(message, code), exc.status_code, headers=headers)

    @app.exception_handler(Exception)
    async def _unexpected(request: Request, exc: Exception) -> JSONResponse:
        # Never leak internals: log the traceback, answer with a generic body.
        log.exception("Unhandled error on %s %s", request.method, request.url.path, exc_info=exc)
        return JSONResponse(error_body("Internal server error", "internal_error"), 500)

    return _unexpected
