"""Request and response bodies of the trade-idea routes (JSON in camelCase)."""

from datetime import datetime
from typing import Any, Literal

from pydantic import ConfigDict, Field, field_validator, model_validator

from tradeideas.core.schemas import CamelModel

REQUIRED_FIELDS = "Please fill in all required fields"
TOO_MANY_PHOTOS = "You can upload maximum 3 photos per trade idea."
MAX_PHOTOS = 3
LEVEL_MAX = 64
PAIR_MAX = 32
TIME_FRAME_MAX = 32
NOTES_MAX = 5000
URL_MAX = 500

MarketType = Literal["Forex", "Crypto"]
OrderType = Literal["BUY", "SELL"]
IdeaType = Literal["Leverage", "Exchange"]
# Query values of the idea list (the route and its in-memory fast path, ideas/memory.py, both use these).
ListMarket = Literal["forex", "crypto"]
ListIdeaType = Literal["leverage", "exchange"]
ListStatus = Literal["active", "completed", "successful", "unsuccessful", "invalidated"]
MAX_CURSOR_LENGTH = 200

_MARKET_TYPES = {"forex": "Forex", "crypto": "Crypto"}
_ORDER_TYPES = {"buy": "BUY", "sell": "SELL", "bullish": "BUY", "bearish": "SELL"}
_IDEA_TYPES = {"leverage": "Leverage", "exchange": "Exchange"}
# Limits per text field; the labels are the JSON names users of the API see.
_TEXT_LIMITS = {
    "pair": ("pair", PAIR_MAX),
    "time_frame": ("timeFrame", TIME_FRAME_MAX),
    "entry1": ("entry1", LEVEL_MAX),
    "entry2": ("entry2", LEVEL_MAX),
    "invalidation_level": ("invalidationLevel", LEVEL_MAX),
    "exit1": ("exit1", LEVEL_MAX),
    "exit2": ("exit2", LEVEL_MAX),
    "exit3": ("exit3", LEVEL_MAX),
    "notes": ("notes", NOTES_MAX),
}
REQUIRED_TEXT = ("pair", "time_frame", "entry1", "invalidation_level", "exit1")
REQUIRED_CHOICES = ("market_type", "order_type", "idea_type")


def _choice(value: Any, choices: dict[str, str], message: str) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str) or value.strip().lower() not in choices:
        raise ValueError(message)
    return choices[value.strip().lower()]


def _text(value: Any, field: str) -> str | None:
    """Trim free text; empty becomes None; bounded length."""
    if value is None:
        return None
    if isinstance(value, int | float) and not isinstance(value, bool):
        value = str(value)  # levels are text, but a JSON number is an honest mistake
    if not isinstance(value, str):
        raise ValueError(f"{_TEXT_LIMITS[field][0]} must be text")
    value = value.strip()
    label, limit = _TEXT_LIMITS[field]
    if len(value) > limit:
        raise ValueError(f"{label} must be at most {limit} characters")
    return value or None


def _url(value: Any, label: str) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str):
        raise ValueError(f"{label} must be a link")
    link: str = value.strip()
    if not link:
        return None
    if len(link) > URL_MAX or not link.lower().startswith(("https://", "http://")) or any(c.isspace() for c in link):
        raise ValueError(f"{label} must be an http(s) link of at most {URL_MAX} characters")
    return link


class _IdeaFields(CamelModel):
    """Fields an educator writes; unknown fields (educatorId, status, createdAt ...) are rejected."""

    model_config = ConfigDict(extra="forbid")

    market_type: MarketType | None = None
    order_type: OrderType | None = None
    idea_type: IdeaType | None = None
    pair: str | None = None
    time_frame: str | None = None
    entry1: str | None = None
    entry2: str | None = None
    invalidation_level: str | None = None
    exit1: str | None = None
    exit2: str | None = None
    exit3: str | None = None
    notes: str | None = None
    image_ids: list[int] | None = None
    video_url: str | None = None
    audio_url: str | None = None

    @field_validator("market_type", mode="before")
    @classmethod
    def _market_type(cls, v: Any) -> str | None:
        return _choice(v, _MARKET_TYPES, "marketType must be Forex or Crypto")

    @field_validator("order_type", mode="before")
    @classmethod
    def _order_type(cls, v: Any) -> str | None:
        return _choice(v, _ORDER_TYPES, "orderType must be BUY or SELL")

    @field_validator("idea_type", mode="before")
    @classmethod
    def _idea_type(cls, v: Any) -> str | None:
        return _choice(v, _IDEA_TYPES, "ideaType must be Leverage or Exchange")

    @field_validator(*_TEXT_LIMITS, mode="before")
    @classmethod
    def _texts(cls, v: Any, info: Any) -> str | None:
        return _text(v, info.field_name)

    @field_validator("video_url", mode="before")
    @classmethod
    def _video(cls, v: Any) -> str | None:
        return _url(v, "videoUrl")

    @field_validator("audio_url", mode="before")
    @classmethod
    def _audio(cls, v: Any) -> str | None:
        return _url(v, "audioUrl")

    @field_validator("image_ids", mode="before")
    @classmethod
    def _image_ids(cls, v: Any) -> Any:
        if isinstance(v, list) and len(v) > MAX_PHOTOS:
            raise ValueError(TOO_MANY_PHOTOS)
        return v

    @field_validator("image_ids")
    @classmethod
    def _unique_ids(cls, v: list[int] | None) -> list[int] | None:
        return None if v is None else list(dict.fromkeys(v))


class IdeaCreate(_IdeaFields):
    @model_validator(mode="after")
    def _required(self) -> "IdeaCreate":
        if any(getattr(self, f) is None for f in (*REQUIRED_CHOICES, *REQUIRED_TEXT)):
            raise ValueError(REQUIRED_FIELDS)
        return self


class IdeaUpdate(_IdeaFields):
    """Any subset of the editable fields; required ones cannot be cleared."""

    @model_validator(mode="after")
    def _not_cleared(self) -> "IdeaUpdate":
        for f in (*REQUIRED_CHOICES, *REQUIRED_TEXT):
            if f in self.model_fields_set and getattr(self, f) is None:
                raise ValueError(REQUIRED_FIELDS)
        return self


class StatusUpdate(CamelModel):
    """successful / unsuccessful complete an idea, invalidated marks a broken setup, active resets it.

    Legacy values are accepted: success, failure, pending, reset, invalid.
    """

    model_config = ConfigDict(extra="forbid")

    status: str = Field(max_length=32)


class IdeaOut(CamelModel):
    id: int
    educator_id: int
    educator_name: str
    educator_image: str | None
    specialty: str | None
    pair: str
    time_frame: str
    order_type: OrderType
    idea_type: IdeaType
    market_type: MarketType
    market: Literal["forex", "crypto"]
    entry1: str
    entry2: str | None
    invalidation_level: str
    exit1: str
    exit2: str | None
    exit3: str | None
    notes: str | None
    status: Literal["active", "successful", "unsuccessful", "invalidated"]
    image_ids: list[int]
    image_urls: list[str]
    chart_url: str | None
    video_url: str | None
    audio_url: str | None
    created_at: datetime
    updated_at: datetime
    edited: bool
    is_new: bool | None = Field(default=None, description="Customers only: not yet seen")


class IdeaPage(CamelModel):
    items: list[IdeaOut]
    next_cursor: str | None


class RevisionOut(CamelModel):
    id: int
    idea_id: int
    field: str
    old_value: str | None
    new_value: str | None
    editor_id: int | None
    editor_name: str | None
    created_at: datetime


class SeenRequest(CamelModel):
    """Mark ideas seen by id, or a whole market (opening its card), or both."""

    model_config = ConfigDict(extra="forbid")

    idea_ids: list[int] = Field(default_factory=list, max_length=500)
    market: Literal["forex", "crypto"] | None = None


class UnseenCounts(CamelModel):
    forex: int
    crypto: int
    total: int


class NotificationSettings(CamelModel):
    model_config = ConfigDict(extra="forbid")

    forex: bool = True
    crypto: bool = True
