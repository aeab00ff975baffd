"""Request and response bodies of the trade-idea routes (JSON in camelCase)."""

from datetime import date, datetime
from typing import Annotated, Any, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, WithJsonSchema, field_validator, model_validator
from pydantic.alias_generators import to_camel

from tradeideas.core.errors import coded_error
from tradeideas.core.schemas import LEVEL_NAMES, CamelModel, Id, IdeaType, OrderType, QueryId, TradeLevels
from tradeideas.prices.schemas import Verification

REQUIRED_FIELDS = "Please fill in all required fields"
TOO_MANY_PHOTOS = "You can upload maximum 3 photos per trade idea."
MAX_PHOTOS = 3
LEVEL_MAX = 64
PAIR_MAX = 32
TIME_FRAME_MAX = 32
NOTES_MAX = 5000
REASON_MAX = 1000
LESSON_MAX = 1000
SETUP_NAME_MAX = 60
SETUP_DESCRIPTION_MAX = 1000
URL_MAX = 500

MarketType = Literal["Forex", "Crypto"]
# Query values of the idea list.
ListMarket = Literal["forex", "crypto"]
ListIdeaType = Literal["leverage", "exchange"]
ListStatus = Literal["active", "completed", "closed", "pending", "successful", "unsuccessful", "invalidated"]
MAX_CURSOR_LENGTH = 200
DEFAULT_LIMIT = 20
MAX_LIMIT = 100

# What the API accepts for each choice, in any case: the values of the Literals (order and idea types defined once,
# in core/schemas), and the spec's words for the directions.
_MARKET_TYPES: dict[str, str] = {value.lower(): value for value in get_args(MarketType)}
_ORDER_TYPES: dict[str, str] = {value.lower(): value for value in get_args(OrderType)}
_ORDER_TYPES |= {"bullish": "BUY", "bearish": "SELL"}
_IDEA_TYPES: dict[str, str] = {value.lower(): value for value in get_args(IdeaType)}
# Limits per text field; the labels are the JSON names users of the API see.
_TEXT_LIMITS = {
    "pair": ("pair", PAIR_MAX),
    "time_frame": ("timeFrame", TIME_FRAME_MAX),
    **{name: (to_camel(name), LEVEL_MAX) for name in LEVEL_NAMES},
    "notes": ("notes", NOTES_MAX),
    "reason": ("reason", REASON_MAX),
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
    """An https link (no javascript:, data: or plain http:), or None for empty."""
    if value is None:
        return None
    if not isinstance(value, str):
        raise ValueError(f"{label} must be a link")
    link: str = value.strip()
    if not link:
        return None
    host = link[8:].split("/", 1)[0] if link.lower().startswith("https://") else ""
    if len(link) > URL_MAX or not host or any(c.isspace() or ord(c) < 32 for c in link):
        raise ValueError(f"{label} must be an https:// link of at most {URL_MAX} characters")
    return link


# What `_text` accepts, said in the OpenAPI text: a JSON number (an honest mistake for a level) is taken as text.
TextOrNumber = Annotated[
    str | None, WithJsonSchema({"anyOf": [{"type": "string"}, {"type": "number"}, {"type": "null"}]})
]


class _IdeaFields(CamelModel):
    """Fields an educator writes; unknown fields (educatorId, status, createdAt ...) are rejected."""

    model_config = ConfigDict(extra="forbid")

    market_type: MarketType | None = None
    order_type: OrderType | None = None
    idea_type: IdeaType | None = None
    pair: TextOrNumber = None
    time_frame: TextOrNumber = None
    entry1: TextOrNumber = None
    entry2: TextOrNumber = None
    invalidation_level: TextOrNumber = None
    exit1: TextOrNumber = None
    exit2: TextOrNumber = None
    exit3: TextOrNumber = None
    notes: TextOrNumber = None
    setup_id: Id | None = Field(
        default=None, description="One of the educator's setups (GET /api/me/setups); required once they have any"
    )
    reason: TextOrNumber = Field(default=None, description="Why the educator took it, up to 1,000 characters")
    image_ids: list[Id] | None = None
    video_url: str | None = Field(default=None, description="https only; YouTube and Vimeo links play embedded")
    audio_id: Id | None = Field(default=None, description="A voice note uploaded with POST /api/media; null removes it")

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


def _document_not_null(schema: dict[str, Any]) -> list[str]:
    """The OpenAPI text says what `_required` and `_not_cleared` enforce: the required fields are never null
    and their text has a character other than spaces (it is trimmed). Their names, camelCase."""
    names = [to_camel(f) for f in (*REQUIRED_CHOICES, *REQUIRED_TEXT)]
    texts = {to_camel(f) for f in REQUIRED_TEXT}
    for name in names:
        field = schema["properties"][name]
        options = [o for o in field.pop("anyOf", []) if o.get("type") != "null"]
        if name in texts:
            options = [{**o, "pattern": r"\S"} if o.get("type") == "string" else o for o in options]
        if len(options) == 1:
            field.update(options[0])
        elif options:
            field["anyOf"] = options
        field.pop("default", None)
    return names


def _document_kept(schema: dict[str, Any]) -> None:
    """An edit may leave a required field out, but not clear it."""
    _document_not_null(schema)


def _document_required(schema: dict[str, Any]) -> None:
    """A new idea needs every required field (its own message replaces pydantic's "Field required")."""
    schema["required"] = _document_not_null(schema)


class IdeaCreate(_IdeaFields):
    model_config = ConfigDict(extra="forbid", json_schema_extra=_document_required)

    @model_validator(mode="after")
    def _required(self) -> "IdeaCreate":
        if any(getattr(self, f) is None for f in (*REQUIRED_CHOICES, *REQUIRED_TEXT)):
            raise ValueError(REQUIRED_FIELDS)
        return self


class IdeaUpdate(_IdeaFields):
    """Any subset of the editable fields; required ones cannot be cleared."""

    model_config = ConfigDict(json_schema_extra=_document_kept)

    @model_validator(mode="after")
    def _not_cleared(self) -> "IdeaUpdate":
        for f in (*REQUIRED_CHOICES, *REQUIRED_TEXT):
            if f in self.model_fields_set and getattr(self, f) is None:
                raise ValueError(REQUIRED_FIELDS)
        return self


IdeaOutcome = Literal["exit1", "exit2", "exit3", "invalidation", "manual", "not_triggered"]
# Every status `PUT /api/trade-ideas/{id}` takes, so the OpenAPI enum lists them all: the five an idea can have,
# then the legacy aliases (reset = pending, success = successful, failure/failed = unsuccessful, invalid =
# invalidated; `queries.STATUS_ALIASES` maps each). Matched ignoring case and surrounding spaces.
StatusValue = Literal[
    "active", "pending", "successful", "unsuccessful", "invalidated", "reset", "success", "failure", "failed", "invalid"
]
STATUS_VALUES: frozenset[str] = frozenset(get_args(StatusValue))
INVALID_STATUS = "Status must be one of active, pending, successful, unsuccessful or invalidated"


class StatusUpdate(CamelModel):
    """successful / unsuccessful complete an idea, invalidated marks a broken setup, pending reopens it.

    Legacy values are accepted: active, success, failure, reset, invalid. `outcome` says how it ended
    (default exit1 for successful, invalidation for unsuccessful, not_triggered for invalidated);
    `closePrice` is required for a manual close.
    """

    model_config = ConfigDict(extra="forbid")

    status: StatusValue = Field(description="Matched ignoring case and surrounding spaces")
    outcome: IdeaOutcome | None = None
    close_price: TextOrNumber = Field(default=None, description="Manual close only: the price closed at")

    @field_validator("status", mode="before")
    @classmethod
    def _status(cls, v: Any) -> Any:
        """Trimmed and lower-cased; an unknown text is a 422 with code `invalid_status` (a non-text is left to
        the enum's own check)."""
        if not isinstance(v, str):
            return v
        value = v.strip().lower()
        if value not in STATUS_VALUES:
            raise coded_error("invalid_status", INVALID_STATUS)
        return value

    @field_validator("close_price", mode="before")
    @classmethod
    def _close_price(cls, v: Any) -> str | None:
        if isinstance(v, int | float) and not isinstance(v, bool):
            return str(v)
        if v is None or (isinstance(v, str) and len(v.strip()) <= LEVEL_MAX):
            return None if v is None or not v.strip() else v.strip()
        raise ValueError("closePrice must be a number")


class Taken(CamelModel):
    """Called versus taken: what the members who journaled the idea got; shown from 5 members, never who."""

    count: int = Field(description="Distinct members with a journal entry on the idea (5 or more)")
    average_entry_slippage_r: float | None = Field(
        description="The median of (planned entry - fill) / planned risk over their entries, mirrored for SELL: worse "
        "fills are negative (a median, so a few accounts cannot skew it; decision 0101)"
    )
    average_realised_r: float | None = Field(
        description="The median R of their closed journal entries, as the journal computes it; null while none closed"
    )


class LessonOut(CamelModel):
    """What the educator learned once the idea was completed (issue #42)."""

    what_happened: str
    lesson: str
    updated_at: datetime
    fixed_at: datetime = Field(description="From then on the lesson cannot change (409); 15 minutes after it was added")


LessonText = Annotated[str, Field(min_length=1, max_length=LESSON_MAX, pattern=r"\S")]


class LessonIn(CamelModel):
    """A completed idea's lesson: "What happened" and "Lesson", each up to 1,000 characters."""

    model_config = ConfigDict(extra="forbid")

    what_happened: LessonText
    lesson: LessonText

    @field_validator("what_happened", "lesson")
    @classmethod
    def _trimmed(cls, v: str) -> str:
        return v.strip()


class IdeaOut(TradeLevels):
    id: int
    educator_id: int
    educator_name: str
    educator_slug: str | None = Field(description="The educator's page: /customer/educators/{slug}")
    educator_image: str | None
    specialty: str | None
    pair: str
    time_frame: str
    order_type: OrderType
    idea_type: IdeaType
    market_type: MarketType
    market: Literal["forex", "crypto"]
    notes: str | None
    setup_id: int | None = Field(description="The educator's setup this idea is (frozen with the pair)")
    setup_name: str | None = Field(description="That setup's name, for display")
    reason: str | None = Field(description='Why the educator took it ("Why: ..."; frozen with the pair)')
    status: Literal["active", "pending", "successful", "unsuccessful", "invalidated"]
    completed: bool = Field(description="In the history (status=completed lists); the active lists show the others")
    image_ids: list[int]
    image_urls: list[str]
    image_full_urls: list[str] = Field(description="The large versions of imageUrls, same order (full-screen viewer)")
    chart_url: str | None
    video_url: str | None
    audio_url: str | None
    created_at: datetime
    updated_at: datetime
    edited: bool
    edited_after_publish: bool = Field(description="Levels changed after the 15-minute correction window")
    outcome: IdeaOutcome | None
    close_price: str | None
    closed_at: datetime | None
    r_multiple: float | None = Field(description="Result in multiples of the risk taken, 2 decimals")
    lesson: LessonOut | None = Field(
        description="The educator's lesson once completed (PUT .../lesson); null until then"
    )
    identity_fixed_at: datetime = Field(
        description="From then on market type, pair, direction, idea type, time frame, setup and reason cannot change "
        "(409)"
    )
    result_fixed_at: datetime | None = Field(
        description="From then on the recorded result (status, outcome, close price) cannot change (409); "
        "null while the idea is open"
    )
    is_new: bool | None = Field(default=None, description="Customers only: not yet seen")
    verification: Verification | None = Field(
        description="The price check (decision 0050); null until the poller has adopted the idea"
    )
    taken: Taken | None = Field(
        description="Called versus taken, from members' journals; null for everyone until 5 members took it"
    )


class IdeaListQuery(BaseModel):
    """Which ideas a list shows: the list's query string, validated as one model (`core.deps.query_model`),
    and, frozen, the key of the cached page. status: `active` lists open ideas (active and invalidated, shown
    as INVALID), `completed` the history (successful and unsuccessful), `closed` every idea with an outcome (the
    history and not-triggered ideas: a track record's ideas); an exact status filters on it alone."""

    model_config = ConfigDict(alias_generator=to_camel, extra="ignore", frozen=True)

    market: ListMarket | None = None
    idea_type: ListIdeaType | None = None
    status: ListStatus | None = None
    educator_id: QueryId | None = None
    # A track record's selection, so its list of completed ideas follows the record's filters (issue #25).
    time_frame: Annotated[
        str | None, Field(min_length=1, max_length=TIME_FRAME_MAX, description="Matched ignoring case")
    ] = None
    since: Annotated[
        str | None,
        Field(
            pattern=r"^\d{4}-\d{2}-\d{2}$",
            json_schema_extra={"format": "date"},
            description="Only ideas closed on or after this day (YYYY-MM-DD, UTC)",
        ),
    ] = None
    lesson: bool | None = Field(default=None, description="true: only ideas with a lesson (the history's filter)")
    setup: QueryId | None = Field(default=None, description="Only ideas of this setup (a track record's selection)")
    limit: Annotated[int, Field(ge=1, le=MAX_LIMIT)] = DEFAULT_LIMIT
    cursor: Annotated[str | None, Field(max_length=MAX_CURSOR_LENGTH)] = None

    @field_validator("since")
    @classmethod
    def _day(cls, v: str | None) -> str | None:
        """A day that exists (2026-02-30 matches the pattern but is a 422 too)."""
        if v is not None:
            try:
                date.fromisoformat(v)
            except ValueError:
                raise ValueError("since must be a day as YYYY-MM-DD") from None
        return v


class IdeaPage(CamelModel):
    items: list[IdeaOut]
    next_cursor: str | None
    # Paid access: how many educators have open ideas on this page that the reader's plans do not open (their
    # ideas are left out: the list says "Ideas from N more educators: see plans" once).
    locked_educators: int = 0


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

    idea_ids: list[Id] = Field(default_factory=list, max_length=500)
    market: Literal["forex", "crypto"] | None = None


class UnseenCounts(CamelModel):
    forex: int
    crypto: int
    total: int


def _setup_name(value: str) -> str:
    """Spaces trimmed and runs of them made one; what is left must not be empty (the schema's limits hold for the
    text as sent)."""
    name = " ".join(value.split())
    if not name:
        raise ValueError("name must not be empty")
    return name


def _setup_description(value: str | None) -> str | None:
    return None if value is None else value.strip() or None


SetupName = Annotated[str, Field(min_length=1, max_length=SETUP_NAME_MAX, pattern=r"\S")]
SetupDescription = Annotated[str | None, Field(max_length=SETUP_DESCRIPTION_MAX)]


class SetupCreate(CamelModel):
    """A new setup: its name (unique among the educator's, ignoring case) and a one-paragraph description."""

    model_config = ConfigDict(extra="forbid")

    name: SetupName
    description: SetupDescription = None

    @field_validator("name")
    @classmethod
    def _name(cls, v: str) -> str:
        return _setup_name(v)

    @field_validator("description")
    @classmethod
    def _description(cls, v: str | None) -> str | None:
        return _setup_description(v)


def _document_name_kept(schema: dict[str, Any]) -> None:
    """The OpenAPI text says what `_not_cleared` enforces: a name may be left out, never null."""
    field = schema["properties"]["name"]
    options = [o for o in field.pop("anyOf", []) if o.get("type") != "null"]
    field.update(options[0])
    field.pop("default", None)


class SetupUpdate(CamelModel):
    """Any of name and description; the name cannot be cleared, the description can (null)."""

    model_config = ConfigDict(extra="forbid", json_schema_extra=_document_name_kept)

    name: SetupName | None = None
    description: SetupDescription = None

    @field_validator("name", mode="before")
    @classmethod
    def _not_cleared(cls, v: Any) -> Any:
        if v is None:
            raise ValueError("name must not be empty")
        return v

    @field_validator("name")
    @classmethod
    def _name(cls, v: str | None) -> str | None:
        return None if v is None else _setup_name(v)

    @field_validator("description")
    @classmethod
    def _description(cls, v: str | None) -> str | None:
        return _setup_description(v)


class SetupOut(CamelModel):
    id: int
    educator_id: int
    name: str
    description: str | None
    ideas: int = Field(description="How many of the educator's ideas name it (a setup they name cannot be deleted)")
