"""HTTP route of the realtime stream."""

from typing import Annotated

from fastapi import Depends, Header, Query

from tradeideas.core.deps import component
from tradeideas.core.fastlane import fast_router
from tradeideas.permissions import AnyUser
from tradeideas.realtime.broker import Broker
from tradeideas.realtime.schemas import EVENTS_DESCRIPTION
from tradeideas.realtime.stream import MAX_EVENT_ID_LENGTH, EventStream, resume_after

# Fast (decision 0197): thousands stay open, and FastAPI's layers would keep their frames on each one's stack.
router = fast_router(prefix="/api", tags=["realtime"])

JSON_ERROR = {"application/json": {"schema": {"$ref": "#/components/schemas/ErrorResponse"}}}


@router.get(
    "/events",
    response_class=EventStream,
    status_code=200,
    description=EVENTS_DESCRIPTION,
    # Only the stream itself is text/event-stream; refusals are the usual JSON errors.
    responses={
        200: {"content": {"text/event-stream": {"schema": {"type": "string"}}}},
        422: {"description": "Validation Error", "content": JSON_ERROR},
        "4XX": {"description": "Client Error", "content": JSON_ERROR},
    },
)
async def stream_events(
    principal: AnyUser,
    broker: Annotated[Broker, Depends(component(Broker))],
    last_event_id_header: Annotated[str | None, Header(alias="Last-Event-ID")] = None,
    last_event_id: Annotated[str | None, Query(alias="lastEventId", max_length=MAX_EVENT_ID_LENGTH)] = None,
    since: Annotated[
        str | None,
        Query(
            max_length=MAX_EVENT_ID_LENGTH,
            description="A first stream: the earliest `X-Stream-Position` of the data shown; the stream starts "
            "with `resync` when someone else changed anything the caller may see since.",
        ),
    ] = None,
) -> EventStream:
    """Server-Sent Events stream of changes the caller may see, replaying from Last-Event-ID."""
    return EventStream(
        broker,
        user_id=principal.id,
        session_id=principal.session_id,
        is_educator=principal.is_educator,
        is_customer=principal.is_customer,
        last_event_id=resume_after(last_event_id_header, last_event_id),
        session_may_have_ended=True,
        since=resume_after(since),
    )
