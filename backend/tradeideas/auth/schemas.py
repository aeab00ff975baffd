"""Request and response bodies of the auth routes."""

from dataclasses import dataclass, field
from datetime import datetime
from typing import Literal

from pydantic import Field, field_validator

from tradeideas.core.schemas import CamelModel


@dataclass(frozen=True)
class DemoAccounts:
    """The seeded accounts demo content is written for (handed to each domain's sample seeder)."""

    educator_ids: list[int]
    customer_id: int | None
    # Demo members who journaled some history ideas (only with the demo history), so "taken" shows.
    follower_ids: list[int] = field(default_factory=list)


class LoginRequest(CamelModel):
    # The patterns tell clients what the validators below refuse (with the spec's wording, so not as constraints).
    email: str = Field(max_length=254, json_schema_extra={"pattern": r"\S"})
    password: str = Field(max_length=1024, json_schema_extra={"minLength": 1})
    selected_role: Literal["customer", "educator", "admin"] = "customer"

    @field_validator("email")
    @classmethod
    def _normalise_email(cls, value: str) -> str:
        value = value.strip().lower()
        if not value:
            raise ValueError("Email is required")
        return value

    @field_validator("password")
    @classmethod
    def _password_present(cls, value: str) -> str:
        if not value:
            raise ValueError("Password is required")
        return value


class CurrentUser(CamelModel):
    id: int
    role: Literal["customer", "educator", "admin"]
    first_name: str
    last_name: str
    display_name: str
    email: str
    specialty: str | None
    slug: str | None
    avatar_url: str | None = None


class PublicUser(CamelModel):
    """A user as other people see them (an idea's educator, a message's author, a record's profile): never their
    e-mail or account state. `auth.service.public_user` is the one place that builds it from a row."""

    id: int
    role: str
    first_name: str
    last_name: str
    name: str = Field(description="First and last name, or the role's fallback (Professional Educator)")
    slug: str | None
    specialty: str | None
    avatar_url: str | None
    bio: str
    years_experience: int
    trading_style: str | None


class LoginResponse(CamelModel):
    message: str
    session_token: str
    user: CurrentUser


class AppConfig(CamelModel):
    app_name: str
    channel_url: str
    support_contact: str = Field(description="SUPPORT_CONTACT: an e-mail address or an http(s) address")
    educator_slugs: list[str]


class PushBacklog(CamelModel):
    queued: int = Field(description="deliveries not sent yet (due, waiting for a retry, or being sent)")
    due: int = Field(description="deliveries that should be sent now: a number that keeps growing means pushes lag")
    held: int = Field(description="deliveries held until their customers' quiet hours end")


class FailingSymbol(CamelModel):
    symbol: str = Field(description="The feed's symbol, or * for the whole feed")
    reason: str


class PriceFeedHealth(CamelModel):
    last_success: datetime | None = Field(description="When a symbol of this feed last answered with usable candles")
    failing: list[FailingSymbol] = Field(description="Symbols whose last round failed, and why (they back off)")


class TimestampAuthorityHealth(CamelModel):
    last_success: datetime | None = Field(description="When this authority last returned a checked time-stamp")
    last_failure: datetime | None = Field(description="When it last failed (a refused or unbelievable reply, or none)")
    failing: str | None = Field(description="While it fails: what went wrong last (it is retried with backoff)")


class HealthResponse(CamelModel):
    status: Literal["ok"]
    database: Literal["ok"]
    events: Literal["live", "degraded"] = Field(
        description="degraded: changes made by other server processes are not heard right now (reconnecting); "
        "caches then keep entries only seconds"
    )
    listener: Literal["connected", "reconnecting", "not used"] = Field(
        description="this process's PostgreSQL LISTEN connection, which hears other processes' changes; "
        "`not used` on SQLite (one process)"
    )
    media: Literal["ok", "unavailable"] = Field(
        description="whether the media store (MEDIA_STORE) answers: while it does not, uploads answer 503 and this "
        "node still serves everything else, so the health check itself stays 200"
    )
    media_store: Literal["local", "s3"] = Field(description="MEDIA_STORE: where uploads are kept")
    push_backlog: PushBacklog
    price_feed: Literal["ok", "degraded", "off"] = Field(
        description="the price feeds that settle ideas: ok when every symbol of every feed in use answered its last "
        "round with believable candles, degraded otherwise (those ideas wait) and before the first round, off when "
        "PRICE_FEED=off"
    )
    price_feeds: dict[str, "PriceFeedHealth"] = Field(
        default_factory=dict, description="Per feed (binance, oanda, dukascopy): its last success and failing symbols"
    )
    timestamp_authorities: dict[str, TimestampAuthorityHealth] = Field(
        default_factory=dict, description="Per time-stamp authority in TSA_URLS (by URL): its last success"
    )
