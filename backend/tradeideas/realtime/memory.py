"""Event streams of callers whose session is cached, opened without going through FastAPI's routing.

An event stream is a request that stays open for hours, and thousands are open at once: whatever its
request keeps on the stack is kept that long. Through FastAPI a stream holds the router's frames,
dependency exit stacks and request objects (about 6 KiB each); opened here it holds only the stream.
Who may open a stream is still decided in `permissions.py`: this path serves only sessions that
`login_from_memory` returns, which are sessions the route's `AnyUser` dependency accepted before.
Everything else (no session in memory, a session due to slide, an over-long `lastEventId`) goes on to
`GET /api/events`, which authenticates against the database and answers errors.
"""

from collections.abc import Awaitable

from starlette.requests import Request
from starlette.types import ASGIApp, Receive, Scope, Send

from tradeideas.auth.models import Role
from tradeideas.permissions import login_from_memory
from tradeideas.realtime.stream import MAX_EVENT_ID_LENGTH, EventStream, resume_after

EVENTS_PATH = "/api/events"


class EventStreamFromMemory:
    """ASGI middleware in front of the routes (inside the security middleware, so responses get its headers)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    def __call__(self, scope: Scope, receive: Receive, send: Send) -> Awaitable[None]:
        # A plain function that hands back the stream's coroutine: this class adds no frame to it.
        if scope["type"] == "http" and scope["method"] == "GET" and scope["path"] == EVENTS_PATH:
            stream = _stream_from_memory(Request(scope))
            if stream is not None:
                return stream(scope, receive, send)
        return self.app(scope, receive, send)


def _stream_from_memory(request: Request) -> EventStream | None:
    query = request.query_params.get("lastEventId")
    if query is not None and len(query) > MAX_EVENT_ID_LENGTH:
        return None  # the route answers 422
    login = login_from_memory(request)
    if login is None:
        return None
    return EventStream(
        request.app.state.broker,
        user_id=login.user.id,
        is_educator=login.user.role == Role.EDUCATOR,
        last_event_id=resume_after(request.headers.get("last-event-id"), query),
    )
