"""HTTP routes for chat rooms, messages and reactions."""

from typing import Annotated

from fastapi import Depends, Query, status

from tradeideas.access import AccessRule
from tradeideas.chat import service
from tradeideas.chat.models import ReactionKind
from tradeideas.chat.schemas import MessageCreate, MessageOut, MessagePage, MessageUpdate, RoomOut
from tradeideas.core.deps import DbSession, component
from tradeideas.core.routing import api_router
from tradeideas.core.schemas import MAX_ID, PathId
from tradeideas.permissions import AnyUser, EducatorOnly, ensure_owner

router = api_router(prefix="/api/chat", tags=["chat"])
# Paid access (issue #40): the rooms' messages open to customers with any open grant.
Access = Annotated[AccessRule, Depends(component(AccessRule))]


@router.get("/rooms")
async def list_rooms(_: AnyUser, db: DbSession) -> list[RoomOut]:
    """The chat rooms (Leverage Ideas and Exchange Ideas), oldest first."""
    return [RoomOut.model_validate(room) for room in await service.list_rooms(db)]


@router.get("/rooms/{room_id:int}/messages", responses={403: {}, 404: {}})
async def list_messages(
    room_id: PathId,
    principal: AnyUser,
    db: DbSession,
    access: Access,
    before: Annotated[int | None, Query(description="nextCursor of the previous page", ge=1, le=MAX_ID)] = None,
    limit: Annotated[int, Query(ge=1, le=100)] = 50,
    mine: Annotated[bool, Query(description="Only the caller's own messages (educator chat)")] = False,
) -> MessagePage:
    """A page of a room's history, newest page first; messages within a page run oldest to newest."""
    await access.ensure_rooms(principal)
    room = await service.get_room(db, room_id)
    messages, cursor = await service.list_messages(
        db, room, before=before, limit=limit, author_id=principal.id if mine else None
    )
    return MessagePage(items=await service.to_out(db, principal.id, messages), next_cursor=cursor)


@router.post("/rooms/{room_id:int}/messages", status_code=status.HTTP_201_CREATED, responses={404: {}})
async def post_message(room_id: PathId, body: MessageCreate, principal: EducatorOnly, db: DbSession) -> MessageOut:
    """Post a message (text, an image, or both) to a room."""
    room = await service.get_room(db, room_id)
    message = await service.post_message(db, principal.id, room, text=body.message, image_id=body.image_id)
    return (await service.to_out(db, principal.id, [message]))[0]


@router.patch("/messages/{message_id:int}", responses={404: {}})
async def edit_message(message_id: PathId, body: MessageUpdate, principal: EducatorOnly, db: DbSession) -> MessageOut:
    """Edit the text of one's own message; marks it edited."""
    message = await service.get_message(db, message_id)
    ensure_owner(principal, message.user_id)
    message = await service.edit_message(db, message, body.message)
    return (await service.to_out(db, principal.id, [message]))[0]


@router.delete("/messages/{message_id:int}", status_code=status.HTTP_204_NO_CONTENT, responses={404: {}})
async def delete_message(message_id: PathId, principal: EducatorOnly, db: DbSession) -> None:
    """Delete one's own message (soft delete: hidden from everyone)."""
    message = await service.get_message(db, message_id)
    ensure_owner(principal, message.user_id)
    await service.delete_message(db, message)


@router.put("/messages/{message_id:int}/reactions/{kind}", responses={403: {}, 404: {}})
async def add_reaction(
    message_id: PathId, kind: ReactionKind, principal: AnyUser, db: DbSession, access: Access
) -> MessageOut:
    """Add the caller's heart or like to a message (idempotent); returns the message with new counts."""
    await access.ensure_rooms(principal)
    message = await service.get_message(db, message_id)
    message = await service.set_reaction(db, principal.id, message, kind, on=True)
    return (await service.to_out(db, principal.id, [message]))[0]


@router.delete("/messages/{message_id:int}/reactions/{kind}", responses={403: {}, 404: {}})
async def remove_reaction(
    message_id: PathId, kind: ReactionKind, principal: AnyUser, db: DbSession, access: Access
) -> MessageOut:
    """Remove the caller's heart or like from a message (idempotent); returns the message with new counts."""
    await access.ensure_rooms(principal)
    message = await service.get_message(db, message_id)
    message = await service.set_reaction(db, principal.id, message, kind, on=False)
    return (await service.to_out(db, principal.id, [message]))[0]
