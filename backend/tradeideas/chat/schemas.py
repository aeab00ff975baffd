"""Request and response bodies of the chat routes."""

from datetime import datetime
from typing import Annotated, Literal

from pydantic import AfterValidator, Field

from tradeideas.core.schemas import CamelModel, Id

MAX_MESSAGE_LENGTH = 2000
MESSAGE_TOO_LONG = f"Message must be {MAX_MESSAGE_LENGTH} characters or fewer"
MESSAGE_REQUIRED = "Message cannot be empty"


class RoomOut(CamelModel):
    id: int
    name: str
    created_at: datetime


class MessageOut(CamelModel):
    id: int
    room_id: int
    user_id: int
    user_name: str
    user_role: Literal["customer", "educator"]
    specialty: str | None
    user_image: str | None
    message: str
    image_url: str | None
    created_at: datetime
    updated_at: datetime
    is_edited: bool
    hearts: int
    likes: int
    hearted: bool
    liked: bool


class MessagePage(CamelModel):
    items: list[MessageOut] = Field(description="Oldest to newest within the page")
    next_cursor: int | None = Field(description="Pass as `before` to load older messages; null when none are left")


def _trimmed(value: str) -> str:
    value = value.strip()
    if len(value) > MAX_MESSAGE_LENGTH:
        raise ValueError(MESSAGE_TOO_LONG)
    return value


def _required(value: str) -> str:
    if not value:
        raise ValueError(MESSAGE_REQUIRED)
    return value


MessageText = Annotated[str, AfterValidator(_trimmed)]


class MessageCreate(CamelModel):
    """Needs text or an image; an image alone is sent with the text 'Shared an image'."""

    message: MessageText | None = None
    image_id: Id | None = None


class MessageUpdate(CamelModel):
    # The pattern tells clients what `_required` refuses after trimming (with its own message).
    message: Annotated[MessageText, AfterValidator(_required), Field(json_schema_extra={"pattern": r"\S"})]
