"""The Stripe calls paid access makes, and no others, through the official `stripe` package (issue #40).

Every answer is hostile until checked: the fields we read are validated here (types, lengths, known statuses), and
an answer that does not fit is a `PaymentsUnavailable` like a network failure, never a half-read state. The SDK's
own retries handle 429 (with `Retry-After`) and 5xx answers for idempotent requests; every POST carries an
idempotency key, so a retried creation never makes two.
"""

from datetime import UTC, datetime
from typing import Any, Literal, TypeVar

import stripe
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from tradeideas.core.errors import AppError
from tradeideas.settings import Settings

SubscriptionStatus = Literal[
    "incomplete", "incomplete_expired", "trialing", "active", "past_due", "canceled", "unpaid", "paused"
]
# Ids are short ASCII strings in Stripe's documentation; longer or odd ones are refused before they are stored.
StripeId = Field(min_length=3, max_length=255, pattern=r"^[A-Za-z0-9_]+$")
Timestamp = Field(ge=0, le=253402300799)  # seconds since 1970, up to the year 9999
TIMEOUT_SECONDS = 10
RETRIES = 2


class PaymentsUnavailable(AppError):
    def __init__(self, message: str = "Payments are unavailable right now. Please try again in a minute.") -> None:
        super().__init__(message, code="payments_unavailable", status_code=503)


class PaymentsOff(AppError):
    def __init__(self) -> None:
        super().__init__("Payments are not set up yet", code="payments_off", status_code=409)


class _Answer(BaseModel):
    model_config = ConfigDict(extra="ignore")


class SubscriptionState(_Answer):
    """A subscription as Stripe says it is now (`GET /v1/subscriptions/{id}`)."""

    id: str = StripeId
    customer: str = StripeId
    status: SubscriptionStatus
    cancel_at_period_end: bool = False
    trial_end: int | None = Timestamp
    current_period_start: int | None = Timestamp
    current_period_end: int | None = Timestamp
    created: int = Timestamp
    price_id: str | None = None

    @staticmethod
    def from_stripe(obj: Any) -> "SubscriptionState":
        data = _plain(obj)
        items = ((data.get("items") or {}).get("data") or []) if isinstance(data.get("items"), dict) else []
        first = items[0] if items and isinstance(items[0], dict) else {}
        # Since API version 2025-03-31 the billing period lives on each item; older versions had it on the
        # subscription itself.
        for key in ("current_period_start", "current_period_end"):
            if data.get(key) is None and key in first:
                data[key] = first[key]
        price = first.get("price") if isinstance(first, dict) else None
        data["price_id"] = price.get("id") if isinstance(price, dict) else None
        customer = data.get("customer")
        if isinstance(customer, dict):
            data["customer"] = customer.get("id")
        return _validated(SubscriptionState, data)

    def when(self, field: Literal["trial_end", "current_period_start", "current_period_end"]) -> datetime | None:
        value = getattr(self, field)
        return None if value is None else datetime.fromtimestamp(value, UTC)


class CheckoutView(_Answer):
    """A Checkout Session as Stripe says it is (`GET /v1/checkout/sessions/{id}`)."""

    id: str = StripeId
    status: Literal["open", "complete", "expired"] | None = None
    url: str | None = Field(default=None, max_length=5000)
    client_reference_id: str | None = Field(default=None, max_length=200)
    customer: str | None = None
    subscription: str | None = None
    email: str | None = Field(default=None, max_length=254)
    name: str | None = Field(default=None, max_length=200)

    @staticmethod
    def from_stripe(obj: Any) -> "CheckoutView":
        data = _plain(obj)
        details = data.get("customer_details")
        email = details.get("email") if isinstance(details, dict) else None
        data["email"] = email or data.get("customer_email")
        data["name"] = details.get("name") if isinstance(details, dict) else None
        for key in ("customer", "subscription"):
            if isinstance(data.get(key), dict):
                data[key] = data[key].get("id")
        return _validated(CheckoutView, data)


class SubscriptionPage(_Answer):
    data: list[dict[str, Any]] = Field(max_length=100)
    has_more: bool = False


def _plain(obj: Any) -> dict[str, Any]:
    if isinstance(obj, stripe.StripeObject):
        obj = obj.to_dict()
    if not isinstance(obj, dict):
        raise PaymentsUnavailable()
    return dict(obj)


A = TypeVar("A", bound=_Answer)


def _validated(model: type[A], data: dict[str, Any]) -> A:
    try:
        return model.model_validate(data)
    except ValidationError:
        raise PaymentsUnavailable() from None


class Gateway:
    """Stripe, as this app uses it: built only when `STRIPE_SECRET_KEY` is set (`payments_of`)."""

    def __init__(self, settings: Settings) -> None:
        assert settings.stripe_secret_key
        self.client = stripe.StripeClient(
            settings.stripe_secret_key,
            base_addresses={"api": settings.stripe_api_url.rstrip("/")},
            http_client=stripe.HTTPXClient(timeout=TIMEOUT_SECONDS),
            max_network_retries=RETRIES,
        )

    async def _call(self, coroutine: Any) -> Any:
        try:
            return await coroutine
        except stripe.CardError as exc:
            raise AppError(
                exc.user_message or "Your card was declined", code="card_declined", status_code=402
            ) from None
        except stripe.StripeError:
            raise PaymentsUnavailable() from None

    async def create_product(self, plan_id: int, name: str) -> str:
        product = await self._call(
            self.client.v1.products.create_async(
                {"name": name, "metadata": {"plan_id": str(plan_id)}},
                {"idempotency_key": f"plan-{plan_id}-product"},
            )
        )
        return str(_validated(_Id, _plain(product)).id)

    async def create_price(self, plan_id: int, product: str, unit_amount: int, currency: str, interval: str) -> str:
        price = await self._call(
            self.client.v1.prices.create_async(
                {
                    "product": product,
                    "unit_amount": unit_amount,
                    "currency": currency,
                    "recurring": {"interval": "year" if interval == "year" else "month"},
                    "metadata": {"plan_id": str(plan_id)},
                },
                {"idempotency_key": f"plan-{plan_id}-price-{unit_amount}-{currency}-{interval}"},
            )
        )
        return str(_validated(_Id, _plain(price)).id)

    async def create_checkout(
        self,
        *,
        reference: str,
        price_id: str,
        trial_days: int,
        email: str | None,
        success_url: str,
        cancel_url: str,
        metadata: dict[str, str],
    ) -> CheckoutView:
        params: dict[str, Any] = {
            "mode": "subscription",
            "line_items": [{"price": price_id, "quantity": 1}],
            "allow_promotion_codes": True,
            "client_reference_id": reference,
            "success_url": success_url,
            "cancel_url": cancel_url,
            "metadata": metadata,
            "subscription_data": {"metadata": metadata, **({"trial_period_days": trial_days} if trial_days else {})},
        }
        if email:
            params["customer_email"] = email
        session = await self._call(
            self.client.v1.checkout.sessions.create_async(params, {"idempotency_key": f"checkout-{reference}"})  # type: ignore[arg-type]
        )
        view: CheckoutView = CheckoutView.from_stripe(session)
        if not view.url or not view.url.startswith(("https://", "http://")):
            raise PaymentsUnavailable()
        return view

    async def get_checkout(self, session_id: str) -> CheckoutView:
        return CheckoutView.from_stripe(await self._call(self.client.v1.checkout.sessions.retrieve_async(session_id)))

    async def get_subscription(self, subscription_id: str) -> SubscriptionState:
        found = await self._call(self.client.v1.subscriptions.retrieve_async(subscription_id))
        return SubscriptionState.from_stripe(found)

    async def list_subscriptions(self, starting_after: str | None) -> SubscriptionPage:
        params: dict[str, Any] = {"status": "all", "limit": 100}
        if starting_after:
            params["starting_after"] = starting_after
        page = await self._call(self.client.v1.subscriptions.list_async(params))  # type: ignore[arg-type]
        return _validated(SubscriptionPage, _plain(page))

    async def create_portal(self, customer: str, return_url: str) -> str:
        session = await self._call(
            self.client.v1.billing_portal.sessions.create_async({"customer": customer, "return_url": return_url})
        )
        url = _plain(session).get("url")
        if not isinstance(url, str) or not url.startswith(("https://", "http://")) or len(url) > 5000:
            raise PaymentsUnavailable()
        return url


class _Id(_Answer):
    id: str = StripeId


def payments_of(settings: Settings) -> Gateway | None:
    """Stripe when billing is configured, else None (admins grant access by hand)."""
    return Gateway(settings) if settings.stripe_secret_key else None


class Payments:
    """The app's Stripe gateway, or None when billing is off: a component built once in `create_app`."""

    def __init__(self, settings: Settings) -> None:
        self.gateway = payments_of(settings)

    @property
    def enabled(self) -> bool:
        return self.gateway is not None
