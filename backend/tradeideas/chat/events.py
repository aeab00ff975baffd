"""Events the chat domain publishes; `data:` is the message as the API returns it (viewer flags false)."""

from typing import Literal

from tradeideas.chat.schemas import MessageOut
from tradeideas.core.access import ANY_GRANT
from tradeideas.core.events import ALL, DomainEvent


class RoomEvent(DomainEvent):
    """What is said in the rooms reaches only readers whom some grant opens them to, as the routes (decision 0153)."""

    def educator_scope(self) -> int | None:
        return ANY_GRANT


class ChatMessageCreated(MessageOut, RoomEvent):
    type: Literal["chat.message.created"] = "chat.message.created"
    receivers = ALL


class ChatMessageUpdated(MessageOut, RoomEvent):
    type: Literal["chat.message.updated"] = "chat.message.updated"
    receivers = ALL


class ChatReactionUpdated(MessageOut, RoomEvent):
    type: Literal["chat.reaction.updated"] = "chat.reaction.updated"
    receivers = ALL


class ChatMessageDeleted(RoomEvent):
    type: Literal["chat.message.deleted"] = "chat.message.deleted"
    receivers = ALL
    id: int
    room_id: int
    user_id: int | None = None  # who deleted it (its author), for the audit log


EVENTS = (ChatMessageCreated, ChatMessageUpdated, ChatReactionUpdated, ChatMessageDeleted)
