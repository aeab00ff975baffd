"""Stripe's side of paid access: checkout, the webhook and the re-read that keeps each grant equal to Stripe.

A webhook is only a hint (decision 0130): its signature is checked, its id stored once, and the subscription it
names is read again from Stripe; only a subscription sold through one of our Checkout Sessions changes access.
"""

import hashlib
import hmac
import json
import secrets
from datetime import datetime

import stripe
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from tradeideas.auth import service as auth_service
from tradeideas.auth.models import Role, User
from tradeideas.billing.events import AccessChanged
from tradeideas.billing.gateway import CheckoutView, Gateway, PaymentsOff, SubscriptionState
from tradeideas.billing.models import AccessGrant, CheckoutRecord, GrantKind, Plan, StripeEvent
from tradeideas.billing.schemas import CheckoutState
from tradeideas.billing.service import get_plan, member_id
from tradeideas.core.errors import AppError, Invalid, NotFound
from tradeideas.realtime.service import publish
from tradeideas.settings import Settings

SIGNATURE_TOLERANCE_SECONDS = 300
MAX_WEBHOOK_BYTES = 262_144
SUBSCRIPTION_EVENTS = (
    "customer.subscription.created",
    "customer.subscription.updated",
    "customer.subscription.deleted",
)
INVOICE_EVENTS = ("invoice.paid", "invoice.payment_failed")
PLAN_INACTIVE = "This plan is not on offer"
CHECKOUT_NOT_FOUND = "Checkout not found"
# The visitor's proof that a checkout is theirs: a secret in a cookie of the browser that started it (only its hash
# is stored), sent back only to the checkout routes.
CLAIM_COOKIE = "checkout_claim"
CLAIM_COOKIE_PATH = "/api/billing/checkout"
CLAIM_MAX_AGE_SECONDS = 86_400  # Stripe's Checkout Sessions expire within 24 hours


class BadSignature(AppError):
    def __init__(self) -> None:
        super().__init__("The webhook's signature does not match", code="bad_signature", status_code=400)


async def start_checkout(
    db: AsyncSession,
    gateway: Gateway | None,
    settings: Settings,
    plan_id: int,
    user_id: int | None,
    email: str | None,
    base_url: str,
    claim: str | None = None,
) -> str:
    """A Checkout Session for the plan (subscription mode, the plan's trial, promotion codes); its address. A
    visitor's (no `user_id`) is tied to the `claim` secret their browser keeps."""
    if gateway is None:
        raise PaymentsOff()
    plan = await get_plan(db, plan_id)
    if not plan.active or plan.stripe_price_id is None:
        raise Invalid(PLAN_INACTIVE, code="plan_inactive")
    reference = secrets.token_urlsafe(16)
    base = (settings.public_url or base_url).rstrip("/")
    session = await gateway.create_checkout(
        reference=reference,
        price_id=plan.stripe_price_id,
        trial_days=plan.trial_days,
        email=email,
        success_url=f"{base}/billing/done?session_id={{CHECKOUT_SESSION_ID}}",
        cancel_url=f"{base}/plans",
        metadata={"plan_id": str(plan.id), "reference": reference},
    )
    claim_hash = None if claim is None else _hash(claim)
    db.add(CheckoutRecord(id=session.id, plan_id=plan.id, user_id=user_id, claim_hash=claim_hash))
    await db.flush()
    assert session.url is not None
    return session.url


def new_claim() -> str:
    return secrets.token_urlsafe(32)


def _hash(claim: str) -> str:
    return hashlib.sha256(claim.encode()).hexdigest()


async def _own_checkout(db: AsyncSession, session_id: str, caller_id: int | None, claim: str | None) -> CheckoutRecord:
    """The caller's checkout: started by them when signed in, or by this browser (its claim); else 404, so another
    person's session id tells nothing."""
    record = await db.get(CheckoutRecord, session_id[:255])
    if record is None:
        raise NotFound(CHECKOUT_NOT_FOUND)
    if record.user_id is not None:
        if caller_id != record.user_id:
            raise NotFound(CHECKOUT_NOT_FOUND)
    elif record.claim_hash is None or claim is None or not hmac.compare_digest(record.claim_hash, _hash(claim)):
        raise NotFound(CHECKOUT_NOT_FOUND)
    return record


async def checkout_state(
    db: AsyncSession,
    gateway: Gateway | None,
    session_id: str,
    customer_id: int | None,
    claim: str | None,
) -> CheckoutState:
    """Where a returning buyer's checkout stands, read from Stripe (never from the address bar), and what comes next:
    `wait` (not paid yet), `set_password` (a new visitor), `sign_in` (the e-mail has an account: sign in first), or
    `attached` (the subscription is the signed-in member's, `customer_id`; attached now if the webhook has not done
    it yet)."""
    if gateway is None:
        raise PaymentsOff()
    record = await _own_checkout(db, session_id, customer_id, claim)
    view = await gateway.get_checkout(record.id)
    plan = await db.get(Plan, record.plan_id)
    plan_name = plan.name if plan is not None else ""

    def state(next: str) -> CheckoutState:
        return CheckoutState.model_validate(
            {"status": view.status or "open", "plan_name": plan_name, "email": view.email, "next": next}
        )

    if view.status != "complete" or view.subscription is None:
        return state("wait")
    owner = record.user_id or record.claimed_by_id
    if owner is None and view.email:
        owner = await member_id(db, view.email)
        if owner is None:
            return state("set_password")
    if owner is None or customer_id != owner:
        return state("sign_in")
    await attach(db, gateway, record, customer_id, view.subscription)
    return state("attached")


async def claim_with_password(
    db: AsyncSession, gateway: Gateway | None, session_id: str, claim: str | None, password: str
) -> User:
    """A new visitor's account from their paid checkout: a customer with the e-mail Stripe collected, holding the
    subscription. An e-mail that already has an account is refused (sign in first): no takeover through checkout."""
    if gateway is None:
        raise PaymentsOff()
    record = await _own_checkout(db, session_id, None, claim)
    auth_service.validate_new_password(password)
    view = await gateway.get_checkout(record.id)
    if view.status != "complete" or view.subscription is None:
        raise AppError("The payment is not complete yet", code="checkout_open", status_code=409)
    if record.claimed_by_id is not None or not view.email or await member_id(db, view.email) is not None:
        raise AppError(
            f"An account with {view.email} already exists: sign in to add this plan to it",
            code="account_exists",
            status_code=409,
        )
    first, last = _names(view)
    user = await auth_service.add_user(
        db, email=view.email, password=password, role=Role.CUSTOMER, first_name=first, last_name=last
    )
    await attach(db, gateway, record, user.id, view.subscription)
    return user


def _names(view: CheckoutView) -> tuple[str, str]:
    """First and last name from the name Stripe collected (none: the member sets them in their profile)."""
    parts = (view.name or "").split(maxsplit=1)
    return (parts[0][:100] if parts else "", parts[1][:100] if len(parts) > 1 else "")


NOTHING_TO_MANAGE = "You have no subscription to manage"


async def portal_url(db: AsyncSession, gateway: Gateway | None, settings: Settings, user_id: int, base_url: str) -> str:
    """A Stripe Billing Portal session for the member's Stripe customer (their latest subscription's); its address.
    The portal returns to `/customer/billing`."""
    if gateway is None:
        raise PaymentsOff()
    customer = (
        await db.execute(
            select(AccessGrant.stripe_customer_id)
            .where(AccessGrant.user_id == user_id, AccessGrant.stripe_customer_id.is_not(None))
            .order_by(AccessGrant.id.desc())
            .limit(1)
        )
    ).scalar_one_or_none()
    if customer is None:
        raise NotFound(NOTHING_TO_MANAGE)
    base = (settings.public_url or base_url).rstrip("/")
    return await gateway.create_portal(customer, f"{base}/customer/billing")


def verify(payload: bytes, header: str | None, secret: str | None) -> dict[str, object]:
    """The event, when `Stripe-Signature` matches as Stripe documents (any v1, 300 s tolerance); else 400."""
    if not secret or not header or len(payload) > MAX_WEBHOOK_BYTES:
        raise BadSignature()
    try:
        stripe.WebhookSignature.verify_header(payload, header, secret, SIGNATURE_TOLERANCE_SECONDS)
        event = json.loads(payload)
    except (stripe.SignatureVerificationError, ValueError):
        raise BadSignature() from None
    if not isinstance(event, dict) or not isinstance(event.get("id"), str) or not isinstance(event.get("type"), str):
        raise BadSignature()
    return event


async def handle_webhook(
    db: AsyncSession, gateway: Gateway | None, settings: Settings, payload: bytes, header: str | None
) -> bool:
    """Handle one signed event once; False when it was handled before or is not one we act on."""
    event = verify(payload, header, settings.stripe_webhook_secret)
    if gateway is None:
        raise PaymentsOff()
    event_id, kind = str(event["id"])[:255], str(event["type"])[:100]
    try:
        async with db.begin_nested():
            db.add(StripeEvent(id=event_id, type=kind))
            await db.flush()
    except IntegrityError:
        return False  # each event id once
    data = event.get("data")
    obj = data.get("object") if isinstance(data, dict) else None
    if not isinstance(obj, dict):
        return False
    subscription_id: object = None
    if kind == "checkout.session.completed":
        record = await db.get(CheckoutRecord, str(obj.get("id"))[:255])
        if record is None or record.user_id is None:
            return False  # not ours, or a visitor who has not claimed it yet (the return page does)
        session = await gateway.get_checkout(record.id)
        if session.subscription is None:
            return False
        await attach(db, gateway, record, record.user_id, session.subscription)
        return True
    if kind in SUBSCRIPTION_EVENTS:
        subscription_id = obj.get("id")
    elif kind in INVOICE_EVENTS:
        subscription_id = obj.get("subscription")
    if not isinstance(subscription_id, str):
        return False
    grant = (
        await db.execute(select(AccessGrant).where(AccessGrant.stripe_subscription_id == subscription_id[:255]))
    ).scalar_one_or_none()
    if grant is None:
        return False  # a subscription we never sold: nothing changes
    await refresh(db, grant, await gateway.get_subscription(subscription_id), "subscription.updated")
    return True


async def attach(
    db: AsyncSession, gateway: Gateway, record: CheckoutRecord, user_id: int, subscription_id: str
) -> None:
    """The member's grant for the subscription a checkout sold, as Stripe says it is now."""
    state = await gateway.get_subscription(subscription_id)
    grant = (
        await db.execute(select(AccessGrant).where(AccessGrant.stripe_subscription_id == state.id))
    ).scalar_one_or_none()
    if grant is None:
        plan = await db.get(Plan, record.plan_id)
        grant = AccessGrant(
            user_id=user_id,
            kind=GrantKind.SUBSCRIPTION,
            plan_id=record.plan_id,
            educator_id=None if plan is None else plan.educator_id,
            status=state.status,
            cancel_at_period_end=False,
            stripe_subscription_id=state.id,
        )
        db.add(grant)
        record.claimed_by_id = user_id
    await refresh(db, grant, state, "subscription.created")


async def refresh(db: AsyncSession, grant: AccessGrant, state: SubscriptionState, action: str) -> bool:
    """Store Stripe's state on the grant; announce it when anything changed. True when it changed."""
    before = (grant.status, grant.current_period_start, grant.current_period_end, grant.cancel_at_period_end,
              grant.trial_end)  # fmt: skip
    grant.status = state.status
    grant.stripe_customer_id = state.customer
    grant.trial_end = state.when("trial_end")
    grant.current_period_start = state.when("current_period_start")
    grant.current_period_end = state.when("current_period_end")
    grant.cancel_at_period_end = state.cancel_at_period_end
    grant.synced_at = datetime.now().astimezone()
    await db.flush()
    after = (grant.status, grant.current_period_start, grant.current_period_end, grant.cancel_at_period_end,
             grant.trial_end)  # fmt: skip
    if before == after and action != "subscription.created":
        return False
    detail = f"Subscription {state.id} is {state.status}" + (
        " (cancels at period end)" if state.cancel_at_period_end else ""
    )
    await publish(db, AccessChanged(user_id=grant.user_id, action=action, detail=detail))
    return True
