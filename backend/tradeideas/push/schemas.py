"""Request and response bodies of the push routes."""

from typing import Any, Literal

from pydantic import ConfigDict, Field, field_validator

from tradeideas.core.schemas import CamelModel, IdeaType, OrderType


class PublicKeyOut(CamelModel):
    public_key: str = Field(description="VAPID application server key (base64url) for pushManager.subscribe")


class SubscriptionKeys(CamelModel):
    # The Push API names this key "p256dh"; camelCase would make it "p256Dh".
    p256dh: str = Field(min_length=20, max_length=200, alias="p256dh")
    auth: str = Field(min_length=8, max_length=100)


def _endpoint(value: str) -> str:
    value = value.strip()
    if not value.startswith(("https://", "http://")):
        raise ValueError("endpoint must be an http(s) URL")
    return value


class SubscriptionIn(CamelModel):
    """A browser PushSubscription as returned by `subscription.toJSON()` (expirationTime is ignored)."""

    model_config = ConfigDict(extra="ignore")

    endpoint: str = Field(max_length=1000, json_schema_extra={"pattern": r"^\s*https?://"})
    keys: SubscriptionKeys

    _check_endpoint = field_validator("endpoint")(_endpoint)


class SubscriptionOut(CamelModel):
    id: int
    endpoint: str


class UnsubscribeIn(CamelModel):
    endpoint: str = Field(max_length=1000)


class PushTestIn(CamelModel):
    """`test` sends a plain test notification; `trade` a sample trade-idea notification (fields optional)."""

    model_config = ConfigDict(extra="ignore")

    kind: Literal["test", "trade"] = "test"
    title: str | None = Field(default=None, max_length=200)
    message: str | None = Field(default=None, max_length=500)
    educator_name: str | None = Field(default=None, max_length=200)
    market: Literal["Forex", "Crypto", "forex", "crypto"] | None = None
    pair: str | None = Field(default=None, max_length=32)
    idea_type: IdeaType | None = None
    order_type: OrderType | None = None
    direction: Literal["Bullish", "Bearish", "bullish", "bearish"] | None = None


class PushTestOut(CamelModel):
    success: bool
    message: str
    details: dict[str, Any]
