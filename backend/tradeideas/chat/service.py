"""Chat rules and queries: rooms, paginated history, posting, editing, soft-deleting and reactions.

Services never commit (the request's session does) and return the changed objects, so a realtime
publisher can be hooked in later without changing the rules.
"""

from collections.abc import Sequence

from sqlalchemy import and_, delete, func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from tradeideas.auth import service as auth_service
from tradeideas.chat.events import ChatMessageCreated, ChatMessageDeleted, ChatMessageUpdated, ChatReactionUpdated
from tradeideas.chat.models import ChatMessage, ChatReaction, ChatRoom, ReactionKind
from tradeideas.chat.schemas import MessageOut
from tradeideas.core.errors import Invalid, NotFound
from tradeideas.db import utcnow
from tradeideas.media import service as media_service
from tradeideas.realtime.service import publish

ROOM_NAMES = ("Leverage Ideas", "Exchange Ideas")  # the only rooms shown (spec §9)
IMAGE_ONLY_TEXT = "Shared an image"
MESSAGE_REQUIRED = "Please enter a message or attach an image"
ROOM_NOT_FOUND = "Chat room not found"
MESSAGE_NOT_FOUND = "Message not found"


async def list_rooms(db: AsyncSession) -> Sequence[ChatRoom]:
    stmt = select(ChatRoom).where(ChatRoom.name.in_(ROOM_NAMES)).order_by(ChatRoom.created_at, ChatRoom.id)
    return (await db.execute(stmt)).scalars().all()


async def get_room(db: AsyncSession, room_id: int) -> ChatRoom:
    room = await db.get(ChatRoom, room_id)
    if room is None or room.name not in ROOM_NAMES:
        raise NotFound(ROOM_NOT_FOUND)
    return room


async def get_message(db: AsyncSession, message_id: int) -> ChatMessage:
    """A visible (not soft-deleted) message; deleted ones answer 404 to everyone."""
    message = await db.get(ChatMessage, message_id)
    if message is None or message.is_deleted:
        raise NotFound(MESSAGE_NOT_FOUND)
    return message


async def list_messages(
    db: AsyncSession, room: ChatRoom, *, before: int | None, limit: int, author_id: int | None = None
) -> tuple[list[ChatMessage], int | None]:
    """One page of history, newest page first: returns (messages oldest->newest, cursor for older)."""
    conditions = [ChatMessage.room_id == room.id, ChatMessage.is_deleted.is_(False)]
    if before is not None:
        conditions.append(ChatMessage.id < before)
    if author_id is not None:
        conditions.append(ChatMessage.user_id == author_id)
    stmt = select(ChatMessage).where(and_(*conditions)).order_by(ChatMessage.id.desc()).limit(limit + 1)
    rows = list((await db.execute(stmt)).scalars())
    more = len(rows) > limit
    page = rows[:limit]
    page.reverse()
    return page, (page[0].id if more and page else None)


async def post_message(
    db: AsyncSession, author_id: int, room: ChatRoom, *, text: str | None, image_id: int | None
) -> ChatMessage:
    if image_id is not None:
        await media_service.owned_media(db, author_id, [image_id])
    text = (text or "").strip()
    if not text:
        if image_id is None:
            raise Invalid(MESSAGE_REQUIRED, code="message_required")
        text = IMAGE_ONLY_TEXT
    now = utcnow()
    message = ChatMessage(
        room_id=room.id, user_id=author_id, message=text, image_id=image_id, created_at=now, updated_at=now
    )
    db.add(message)
    await db.flush()
    await _publish(db, ChatMessageCreated, message)
    return message


async def _publish(
    db: AsyncSession,
    event_class: type[ChatMessageCreated | ChatMessageUpdated | ChatReactionUpdated],
    message: ChatMessage,
) -> None:
    """Publish the change in this transaction; viewer-specific flags stay false."""
    (shown,) = await to_out(db, EVERYONE, [message])
    await publish(db, event_class.model_validate(shown.model_dump()))


async def edit_message(db: AsyncSession, message: ChatMessage, text: str) -> ChatMessage:
    message.message = text
    message.is_edited = True
    message.updated_at = utcnow()
    await db.flush()
    await _publish(db, ChatMessageUpdated, message)
    return message


async def delete_message(db: AsyncSession, message: ChatMessage) -> ChatMessage:
    message.is_deleted = True
    message.updated_at = utcnow()
    await db.flush()
    await publish(db, ChatMessageDeleted(id=message.id, room_id=message.room_id, user_id=message.user_id))
    return message


async def set_reaction(
    db: AsyncSession, user_id: int, message: ChatMessage, kind: ReactionKind, on: bool
) -> ChatMessage:
    """Idempotent: adding an existing reaction or removing a missing one changes nothing."""
    mine = and_(ChatReaction.message_id == message.id, ChatReaction.user_id == user_id, ChatReaction.kind == kind)
    changed = False
    if not on:
        changed = bool(getattr(await db.execute(delete(ChatReaction).where(mine)), "rowcount", 0))
    elif (await db.execute(select(ChatReaction.id).where(mine))).first() is None:
        try:
            async with db.begin_nested():  # a concurrent identical PUT loses the race on the unique key
                db.add(ChatReaction(message_id=message.id, user_id=user_id, kind=kind))
            changed = True
        except IntegrityError:
            pass
    if changed:
        await _publish(db, ChatReactionUpdated, message)
    return message


# Events go to every viewer: their hearted/liked flags are false; clients take only the counts.
EVERYONE = 0


async def to_out(db: AsyncSession, viewer_id: int, messages: Sequence[ChatMessage]) -> list[MessageOut]:
    """Message JSON with the author's current profile, reaction counts and the viewer's own reactions."""
    if not messages:
        return []
    ids = [m.id for m in messages]
    authors = await auth_service.public_users(db, {m.user_id for m in messages})
    counts: dict[tuple[int, str], int] = {}
    count_rows = await db.execute(
        select(ChatReaction.message_id, ChatReaction.kind, func.count())
        .where(ChatReaction.message_id.in_(ids))
        .group_by(ChatReaction.message_id, ChatReaction.kind)
    )
    for message_id, kind, n in count_rows:
        counts[(message_id, kind)] = n
    own = {
        (message_id, kind)
        for message_id, kind in await db.execute(
            select(ChatReaction.message_id, ChatReaction.kind).where(
                ChatReaction.message_id.in_(ids), ChatReaction.user_id == viewer_id
            )
        )
    }
    images = await media_service.urls(db, {m.image_id for m in messages if m.image_id is not None})
    out = []
    for m in messages:
        author = authors[m.user_id]
        out.append(
            MessageOut(
                id=m.id,
                room_id=m.room_id,
                user_id=m.user_id,
                user_name=author.name,
                user_role=author.role,
                specialty=author.specialty,
                user_image=author.avatar_url,
                message=m.message,
                image_url=images.get(m.image_id) if m.image_id is not None else None,
                created_at=m.created_at,
                updated_at=m.updated_at,
                is_edited=m.is_edited,
                hearts=counts.get((m.id, ReactionKind.HEART), 0),
                likes=counts.get((m.id, ReactionKind.LIKE), 0),
                hearted=(m.id, ReactionKind.HEART) in own,
                liked=(m.id, ReactionKind.LIKE) in own,
            )
        )
    return out
