"""Subscriptions, the delivery queue (enqueue, claim, record results) and the notification texts.

`enqueue_idea_push` runs inside the ideas service's transaction: the rows become visible (and the
worker is woken) only when the idea commits, and a failure here is logged and swallowed (inside a
savepoint) so that push problems never fail or delay an idea.
"""

import asyncio
import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from sqlalchemy import JSON, Integer, String, delete, func, insert, literal, or_, select, true, update
from sqlalchemy.ext.asyncio import AsyncSession

from tradeideas.auth.models import Role, User
from tradeideas.core.schemas import JsonPayload, json_payload
from tradeideas.db import UTCDateTime, utcnow
from tradeideas.ideas.models import CustomerIdeaState
from tradeideas.push.models import Channel, DeliveryStatus, PushDelivery, PushSubscription
from tradeideas.push.schemas import PushTestIn, PushTestOut, SubscriptionIn
from tradeideas.push.sender import Outcome, Result, Sender, WebPushTarget
from tradeideas.realtime.hooks import after_commit, engine_key
from tradeideas.settings import Settings

log = logging.getLogger(__name__)

COMMIT_KEY = "push"
TEST_OK = "PushAlert notification sent successfully!"
TEST_FAILED = "PushAlert notification failed"
TRADE_OK = "Trade notification sent successfully!"
TRADE_FAILED = "Trade notification failed"
NO_SUBSCRIPTION = "No push subscription for this account: allow notifications in this browser first."

# Settings of the running apps per database, so `enqueue_idea_push(db, ...)` knows whether the
# messaging channel is configured without the caller passing settings around.
_SETTINGS: dict[str, list[Settings]] = {}


def register_settings(settings: Settings, db_engine_key: str) -> Callable[[], None]:
    stack = _SETTINGS.setdefault(db_engine_key, [])
    stack.append(settings)

    def unregister() -> None:
        if settings in stack:
            stack.remove(settings)

    return unregister


def _settings_for(db: AsyncSession) -> Settings | None:
    stack = _SETTINGS.get(engine_key(db.get_bind().engine))
    return stack[-1] if stack else None


# ---- subscriptions --------------------------------------------------------------------------------
async def subscribe(db: AsyncSession, user_id: int, body: SubscriptionIn) -> PushSubscription:
    """Insert or update by endpoint (a browser re-subscribing, or another user logging in on it)."""
    now = utcnow()
    sub = (
        await db.execute(select(PushSubscription).where(PushSubscription.endpoint == body.endpoint))
    ).scalar_one_or_none()
    if sub is None:
        sub = PushSubscription(
            user_id=user_id,
            endpoint=body.endpoint,
            p256dh=body.keys.p256dh,
            auth=body.keys.auth,
            created_at=now,
            updated_at=now,
        )
        db.add(sub)
    else:
        sub.user_id, sub.p256dh, sub.auth, sub.updated_at = user_id, body.keys.p256dh, body.keys.auth, now
    await db.flush()
    return sub


async def unsubscribe(db: AsyncSession, user_id: int, endpoint: str) -> None:
    await db.execute(
        delete(PushSubscription).where(PushSubscription.endpoint == endpoint, PushSubscription.user_id == user_id)
    )


# ---- notification texts ---------------------------------------------------------------------------
def _market(idea: Mapping[str, Any]) -> str:
    market = str(idea.get("market") or idea.get("marketType") or "").lower()
    return market if market in ("forex", "crypto") else "crypto"


def idea_notification(idea: Mapping[str, Any]) -> dict[str, Any]:
    """The Web Push message for a new idea: educator, market, pair, idea type and direction; chart as image."""
    market = _market(idea)
    order = str(idea.get("orderType") or "BUY").upper()
    direction = "Bullish" if order in ("BUY", "BULLISH") else "Bearish"
    educator = idea.get("educatorName") or "Professional Educator"
    idea_type = idea.get("ideaType") or "Leverage"
    message: dict[str, Any] = {
        "title": f"New {market.capitalize()} trade idea from {educator}",
        "body": f"{idea.get('pair', '')} · {idea_type} · {direction} ({order})",
        "url": f"/customer/{market}",
        "tag": f"idea-{idea.get('id', 'sample')}",
        "kind": "trade-idea",
        "market": market,
    }
    if idea.get("id") is not None:
        message["ideaId"] = idea["id"]
    if idea.get("chartUrl"):
        message["image"] = idea["chartUrl"]
    return message


def channel_message(notification: Mapping[str, Any]) -> dict[str, Any]:
    text = f"{notification['title']}\n{notification['body']}\nOpen the app to see the entry and exit levels."
    return {"text": text}


# ---- queue ----------------------------------------------------------------------------------------
async def enqueue_idea_push(db: AsyncSession, idea_payload: JsonPayload) -> int:
    """Queue one delivery per subscription of customers who allow this market (+ the channel post).

    Call in the same transaction that creates the idea, with the idea as the API returns it (IdeaOut
    or its camelCase dict). Returns the number of rows queued; never raises.
    """
    try:
        idea = json_payload(idea_payload)
        market = _market(idea)
        message = idea_notification(idea)
        idea_id = int(idea["id"]) if isinstance(idea.get("id"), int) else None
        notify = CustomerIdeaState.notify_forex if market == "forex" else CustomerIdeaState.notify_crypto
        now = utcnow()
        rows = (
            select(
                literal(Channel.WEBPUSH.value, String),
                PushSubscription.id,
                literal(idea_id, Integer),
                literal(message, JSON),
                literal(DeliveryStatus.PENDING.value, String),
                literal(0, Integer),
                literal(now, UTCDateTime),
                literal(now, UTCDateTime),
                literal(now, UTCDateTime),
            )
            .join(User, User.id == PushSubscription.user_id)
            .outerjoin(CustomerIdeaState, CustomerIdeaState.user_id == PushSubscription.user_id)
            .where(User.role == Role.CUSTOMER, User.disabled.is_(False), func.coalesce(notify, true()))
        )
        columns = ["channel", "subscription_id", "idea_id", "payload", "status", "attempts", "next_attempt_at"]
        columns += ["created_at", "updated_at"]
        async with db.begin_nested():
            result = await db.execute(insert(PushDelivery).from_select(columns, rows))
            queued = int(getattr(result, "rowcount", 0) or 0)
            settings = _settings_for(db)
            if settings is not None and settings.telegram_bot_token and settings.telegram_chat_id:
                db.add(
                    PushDelivery(
                        channel=Channel.TELEGRAM,
                        subscription_id=None,
                        idea_id=idea_id,
                        payload=channel_message(message),
                        status=DeliveryStatus.PENDING,
                        attempts=0,
                        next_attempt_at=now,
                        created_at=now,
                        updated_at=now,
                    )
                )
                queued += 1
        after_commit(db, COMMIT_KEY)
        return queued
    except Exception:
        log.exception("queueing push notifications for an idea failed; the idea is kept")
        return 0


@dataclass
class Claimed:
    id: int
    channel: str
    payload: dict[str, Any]
    attempts: int
    target: WebPushTarget | None
    subscription_id: int | None


async def claim_due(db: AsyncSession, limit: int, lease_seconds: float) -> list[Claimed]:
    """Atomically take up to `limit` due deliveries (FOR UPDATE SKIP LOCKED on PostgreSQL; SQLite has one writer).

    A claimed row stays 'sending' until its lease (next_attempt_at) expires, so a crashed worker's rows
    are picked up again later.
    """
    now = utcnow()
    due = (
        select(PushDelivery.id)
        .where(
            PushDelivery.status.in_([DeliveryStatus.PENDING, DeliveryStatus.SENDING]),
            PushDelivery.next_attempt_at <= now,
        )
        .order_by(PushDelivery.next_attempt_at, PushDelivery.id)
        .limit(limit)
        .with_for_update(skip_locked=True)
    )
    claimed = await db.execute(
        update(PushDelivery)
        .where(
            PushDelivery.id.in_(due.scalar_subquery()),
            PushDelivery.status.in_([DeliveryStatus.PENDING, DeliveryStatus.SENDING]),
            PushDelivery.next_attempt_at <= now,
        )
        .values(
            status=DeliveryStatus.SENDING,
            attempts=PushDelivery.attempts + 1,
            next_attempt_at=now + timedelta(seconds=lease_seconds),
            updated_at=now,
        )
        .returning(PushDelivery.id)
        .execution_options(synchronize_session=False)
    )
    ids = [row[0] for row in claimed]
    if not ids:
        return []
    rows = await db.execute(
        select(PushDelivery, PushSubscription)
        .outerjoin(PushSubscription, PushSubscription.id == PushDelivery.subscription_id)
        .where(PushDelivery.id.in_(ids))
        .order_by(PushDelivery.id)
    )
    out = []
    for delivery, sub in rows:
        target = WebPushTarget(sub.endpoint, sub.p256dh, sub.auth) if sub is not None else None
        sub_id = sub.id if sub is not None else None
        out.append(Claimed(delivery.id, delivery.channel, delivery.payload, delivery.attempts, target, sub_id))
    return out


def retry_delay(settings: Settings, attempts: int) -> timedelta:
    return timedelta(seconds=settings.push_retry_base_seconds * 2 ** max(attempts - 1, 0))


async def record_results(db: AsyncSession, settings: Settings, results: Sequence[tuple[Claimed, Result]]) -> None:
    now = utcnow()
    sent = [c.id for c, r in results if r.outcome == Outcome.SENT]
    gone = [c.subscription_id for c, r in results if r.outcome == Outcome.GONE and c.subscription_id is not None]
    if sent:
        await db.execute(
            update(PushDelivery)
            .where(PushDelivery.id.in_(sent))
            .values(status=DeliveryStatus.SENT, last_error=None, updated_at=now)
            .execution_options(synchronize_session=False)
        )
    if gone:
        # The push service says this browser unsubscribed: forget it (its deliveries go with it).
        await db.execute(delete(PushSubscription).where(PushSubscription.id.in_(gone)))
    for claimed, result in results:
        if result.outcome in (Outcome.SENT, Outcome.GONE):
            continue
        final = result.outcome == Outcome.FAILED or claimed.attempts >= settings.push_max_attempts
        log.warning(
            "push delivery %s attempt %s %s: %s",
            claimed.id,
            claimed.attempts,
            "failed" if final else "will be retried",
            result.error,
        )
        await db.execute(
            update(PushDelivery)
            .where(PushDelivery.id == claimed.id)
            .values(
                status=DeliveryStatus.FAILED if final else DeliveryStatus.PENDING,
                next_attempt_at=now if final else now + retry_delay(settings, claimed.attempts),
                last_error=(result.error or "")[:500],
                updated_at=now,
            )
            .execution_options(synchronize_session=False)
        )


async def prune_deliveries(db: AsyncSession, keep_days: float) -> None:
    cutoff = utcnow() - timedelta(days=keep_days)
    await db.execute(
        delete(PushDelivery).where(
            PushDelivery.status.in_([DeliveryStatus.SENT, DeliveryStatus.FAILED]), PushDelivery.updated_at < cutoff
        )
    )


async def pending_count(db: AsyncSession) -> int:
    stmt = select(func.count()).where(
        or_(PushDelivery.status == DeliveryStatus.PENDING, PushDelivery.status == DeliveryStatus.SENDING)
    )
    return int((await db.execute(stmt)).scalar_one())


# ---- test notifications ---------------------------------------------------------------------------
def sample_message(user: User, body: PushTestIn, app_name: str) -> dict[str, Any]:
    if body.kind == "trade":
        sample = {
            "educatorName": body.educator_name or user.display_name,
            "market": (body.market or "Forex").lower(),
            "pair": body.pair or "EUR/USD",
            "ideaType": body.idea_type or "Leverage",
            "orderType": body.order_type or ("SELL" if (body.direction or "").lower() == "bearish" else "BUY"),
        }
        message = idea_notification(sample)
        message["tag"] = "trade-test"
        return message
    return {
        "title": body.title or f"{app_name} test notification",
        "body": body.message or "Push notifications are working on this device.",
        "url": "/test-notifications",
        "tag": "push-test",
        "kind": "test",
    }


async def send_test_notification(
    db: AsyncSession, sender: Sender, user: User, body: PushTestIn, app_name: str
) -> PushTestOut:
    """Send now (not through the queue) to the caller's own subscriptions and report what happened."""
    ok_text, failed_text = (TRADE_OK, TRADE_FAILED) if body.kind == "trade" else (TEST_OK, TEST_FAILED)
    subs = list((await db.execute(select(PushSubscription).where(PushSubscription.user_id == user.id))).scalars())
    if not subs:
        return PushTestOut(success=False, message=failed_text, details={"subscriptions": 0, "error": NO_SUBSCRIPTION})
    message = sample_message(user, body, app_name)
    results = await asyncio.gather(
        *(sender.send_webpush(WebPushTarget(s.endpoint, s.p256dh, s.auth), message) for s in subs)
    )
    gone = [s.id for s, r in zip(subs, results, strict=True) if r.outcome == Outcome.GONE]
    if gone:
        await db.execute(delete(PushSubscription).where(PushSubscription.id.in_(gone)))
    sent = sum(r.outcome == Outcome.SENT for r in results)
    details: dict[str, Any] = {
        "subscriptions": len(subs),
        "sent": sent,
        "failed": len(subs) - sent,
        "removed": len(gone),
        "errors": [r.error for r in results if r.error],
        "notification": message,
    }
    return PushTestOut(success=sent > 0, message=ok_text if sent else failed_text, details=details)
