"""HTTP route of the realtime stream."""

from typing import Annotated

from fastapi import APIRouter, Header, Query, Request

from tradeideas.permissions import AnyUser
from tradeideas.realtime.schemas import EVENTS_DESCRIPTION
from tradeideas.realtime.stream import MAX_EVENT_ID_LENGTH, EventStream, resume_after

router = APIRouter(prefix="/api", tags=["realtime"])


@router.get(
    "/events",
    response_class=EventStream,
    status_code=200,
    description=EVENTS_DESCRIPTION,
    responses={200: {"content": {"text/event-stream": {"schema": {"type": "string"}}}}},
)
async def stream_events(
    request: Request,
    principal: AnyUser,
    last_event_id_header: Annotated[str | None, Header(alias="Last-Event-ID")] = None,
    last_event_id: Annotated[str | None, Query(alias="lastEventId", max_length=MAX_EVENT_ID_LENGTH)] = None,
) -> EventStream:
    """Server-Sent Events stream of changes the caller may see, replaying from Last-Event-ID."""
    return EventStream(
        request.app.state.broker,
        user_id=principal.id,
        is_educator=principal.is_educator,
        last_event_id=resume_after(last_event_id_header, last_event_id),
    )
