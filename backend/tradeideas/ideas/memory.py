"""The busiest request, a customer's idea list, answered from memory without going through FastAPI.

When the caller's session, the page and the customer's seen marks are all cached (see `ideas/cache.py`),
`GET /api/trade-ideas` is answered here: the same bytes the route would send, at a fraction of the cost
(no dependency solving, no database session). In every other case (a query it does not fully
understand, an unknown or expiring session, a page or seen state not in memory, caches off or not
trusted) the request goes on to the FastAPI route, which validates, answers errors and fills the caches.
"""

from collections.abc import Awaitable
from typing import get_args
from urllib.parse import parse_qsl

from starlette.requests import Request
from starlette.types import ASGIApp, Receive, Scope, Send

from tradeideas.ideas import service
from tradeideas.ideas.schemas import MAX_CURSOR_LENGTH, ListIdeaType, ListMarket, ListStatus
from tradeideas.permissions import login_from_memory

LIST_PATH = "/api/trade-ideas"
_CHOICES: dict[str, tuple[str, ...]] = {
    "market": get_args(ListMarket),
    "ideaType": get_args(ListIdeaType),
    "status": get_args(ListStatus),
}


def parse_list_query(query_string: bytes) -> service.IdeaFilter | None:
    """The list's filters when every known parameter is present at most once and valid, else None
    (the route then answers, with its own validation errors). Unknown parameters are ignored, as the route does."""
    values: dict[str, str] = {}
    try:
        pairs = parse_qsl(query_string.decode("latin-1"), keep_blank_values=True, strict_parsing=False)
    except ValueError:
        return None
    for key, value in pairs:
        if key in values:
            return None
        values[key] = value
    for key, allowed in _CHOICES.items():
        if key in values and values[key] not in allowed:
            return None
    numbers: dict[str, int] = {}
    for key in ("educatorId", "limit"):
        if key in values:
            raw = values[key]
            if not (raw.isascii() and raw.isdigit()) or len(raw) > 9:
                return None
            numbers[key] = int(raw)
    limit = numbers.get("limit", service.DEFAULT_LIMIT)
    cursor = values.get("cursor")
    if not 1 <= limit <= service.MAX_LIMIT or (cursor is not None and len(cursor) > MAX_CURSOR_LENGTH):
        return None
    return service.IdeaFilter(
        market=values.get("market"),  # type: ignore[arg-type]  # checked against ListMarket above
        idea_type=values.get("ideaType"),
        status=values.get("status"),
        educator_id=numbers.get("educatorId"),
        limit=limit,
        cursor=cursor,
    )


class IdeaListFromMemory:
    """ASGI middleware in front of the routes (inside the security middleware, so responses get its headers)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    def __call__(self, scope: Scope, receive: Receive, send: Send) -> Awaitable[None]:
        # A plain function that hands back the next app's coroutine, so it adds no frame to long requests.
        if scope["type"] == "http" and scope["method"] == "GET" and scope["path"] == LIST_PATH:
            body = _list_from_memory(scope)
            if body is not None:
                return _answer(send, body)
        return self.app(scope, receive, send)


async def _answer(send: Send, body: bytes) -> None:
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    await send({"type": "http.response.start", "status": 200, "headers": headers})
    await send({"type": "http.response.body", "body": body})


def _list_from_memory(scope: Scope) -> bytes | None:
    filters = parse_list_query(scope["query_string"])
    if filters is None:
        return None
    request = Request(scope)
    login = login_from_memory(request)
    if login is None:
        return None
    viewer = service.viewer_of(login.user.id, login.user.role)
    return service.list_ideas_from_memory(request.app.state.idea_cache, viewer, filters)
