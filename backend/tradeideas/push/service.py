"""Subscriptions and the delivery queue: enqueue (for whom `notifications.audience` chooses), claim, record results.

`enqueue_idea_push` runs inside the transaction that publishes `IdeaCreated`: the rows become visible
(and the worker is woken) only when the idea commits, and a failure here is logged and swallowed (inside a
savepoint) so that push problems never fail or delay an idea.
"""

import asyncio
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Literal

from sqlalchemy import JSON, ColumnElement, Integer, String, delete, func, insert, literal, or_, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from tradeideas.billing import rule as access_rule
from tradeideas.chat.schemas import MessageOut
from tradeideas.core.errors import Invalid
from tradeideas.db import UTCDateTime, utcnow
from tradeideas.ideas.events import IdeaDeleted
from tradeideas.ideas.schemas import IdeaOut
from tradeideas.notifications import service as notifications
from tradeideas.notifications.quiet import quiet_until
from tradeideas.push.endpoints import EndpointPolicy
from tradeideas.push.models import Channel, DeliveryStatus, PushDelivery, PushSubscription
from tradeideas.push.schemas import PushTestIn, PushTestOut, SubscriptionIn
from tradeideas.push.sender import Outcome, Result, Sender, WebPushTarget
from tradeideas.push.texts import (
    IdeaNotice,
    channel_message,
    chat_notification,
    closed_notification,
    idea_notification,
    summary_notification,
)
from tradeideas.settings import Settings

log = logging.getLogger(__name__)

TEST_OK = "PushAlert notification sent successfully!"
TEST_FAILED = "PushAlert notification failed"
TRADE_OK = "Trade notification sent successfully!"
TRADE_FAILED = "Trade notification failed"
NO_SUBSCRIPTION = "No push subscription for this account: allow notifications in this browser first."


# ---- row locks ------------------------------------------------------------------------------------


async def lock_deliveries(db: AsyncSession, which: ColumnElement[bool]) -> None:
    """Lock these delivery rows in id order before changing or deleting them (a no-op on SQLite, one writer).

    Every transaction that waits for delivery rows takes them in the same order, so none can hold one another
    waits for while waiting for one it holds: a deleted idea's or subscription's cascade on PostgreSQL locks
    rows in the order its index scan meets them, and the worker recording a batch's results would otherwise
    update them in the order the sends finished; the two deadlocked.
    """
    await db.execute(select(PushDelivery.id).where(which).order_by(PushDelivery.id).with_for_update())


async def lock_idea_deliveries(db: AsyncSession, event: IdeaDeleted) -> None:
    """A deleted idea's notifications are locked in order before its row's delete cascades to them."""
    await lock_deliveries(db, PushDelivery.idea_id == event.id)


async def delete_subscriptions(db: AsyncSession, ids: Sequence[int]) -> None:
    """Forget these browsers; their deliveries go with them (CASCADE), locked in order first."""
    await lock_deliveries(db, PushDelivery.subscription_id.in_(ids))
    await db.execute(delete(PushSubscription).where(PushSubscription.id.in_(ids)))


# ---- subscriptions --------------------------------------------------------------------------------
async def subscribe(db: AsyncSession, user_id: int, body: SubscriptionIn, settings: Settings) -> PushSubscription:
    """Insert or update by endpoint (a browser re-subscribing, or another user logging in on it); only endpoints
    of allowed push services (422 otherwise)."""
    refusal = EndpointPolicy(settings.push_endpoint_hosts).refusal(body.endpoint)
    if refusal is not None:
        raise Invalid(refusal, code="endpoint_not_allowed")
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
    ids = (
        await db.execute(
            select(PushSubscription.id).where(
                PushSubscription.endpoint == endpoint, PushSubscription.user_id == user_id
            )
        )
    ).scalars()
    await delete_subscriptions(db, list(ids))


# Statuses that end an idea (an `ideaClosed` push).
ENDED = ("successful", "unsuccessful", "invalidated")


# ---- queue ----------------------------------------------------------------------------------------
async def enqueue_idea_closed_push(
    db: AsyncSession, idea: IdeaOut, settings: Settings, now: datetime | None = None
) -> int:
    """Like `enqueue_idea_push`, for an idea whose status ended it (`ideaClosed`): successful, unsuccessful or
    invalidated (not triggered)."""
    return await enqueue_idea_push(db, idea, settings, now, event="ideaClosed")


async def enqueue_idea_push(
    db: AsyncSession,
    idea: IdeaOut,
    settings: Settings,
    now: datetime | None = None,
    event: Literal["newIdea", "ideaClosed"] = "newIdea",
) -> int:
    """Queue one delivery per subscription of the customers `notifications.audience` chooses for this market,
    educator and event (+ the channel post for new ideas); those in their quiet hours get theirs held until they end.

    Subscribed to `IdeaCreated` in `create_app`, so it runs in the transaction that creates the idea, with the
    idea as the API returns it. Returns the number of rows queued; never raises.
    """
    try:
        closed = event == "ideaClosed"
        if closed and idea.status not in ENDED:
            return 0
        notice = IdeaNotice.of(idea)
        message = closed_notification(notice) if closed else idea_notification(notice)
        now = now or utcnow()
        push = notifications.Push(event=event, educator_id=idea.educator_id, market=idea.market)
        async with db.begin_nested():
            queued = await _queue_for(db, push, message, idea.id, now, timedelta(days=settings.billing_grace_days))
            if settings.telegram_bot_token and settings.telegram_chat_id and not closed:
                db.add(
                    PushDelivery(
                        channel=Channel.TELEGRAM,
                        subscription_id=None,
                        idea_id=idea.id,
                        payload=channel_message(message),
                        status=DeliveryStatus.PENDING,
                        attempts=0,
                        next_attempt_at=now,
                        created_at=now,
                        updated_at=now,
                    )
                )
                queued += 1
            await db.flush()
        return queued
    except Exception:
        log.exception("queueing push notifications for an idea failed; the idea is kept")
        return 0


async def enqueue_channel_post(db: AsyncSession, settings: Settings, text: str) -> bool:
    """One post of `text` to the messaging channel, sent by the delivery worker with its retries (due at once, by
    the wall clock the worker reads), in the caller's transaction; False (nothing queued) when no channel is set."""
    if not (settings.telegram_bot_token and settings.telegram_chat_id):
        return False
    now = utcnow()
    db.add(
        PushDelivery(
            channel=Channel.TELEGRAM,
            subscription_id=None,
            idea_id=None,
            payload={"text": text},
            status=DeliveryStatus.PENDING,
            attempts=0,
            next_attempt_at=now,
            created_at=now,
            updated_at=now,
        )
    )
    await db.flush()
    return True


async def _queue_for(
    db: AsyncSession,
    push: notifications.Push,
    message: dict[str, Any],
    idea_id: int | None,
    now: datetime,
    grace: timedelta,
) -> int:
    """One delivery of `message` per subscription of the customers who get `push` and whose plans open its
    educator (a chat message: any open grant); held until their quiet hours end for those in them."""
    chosen = notifications.audience(push).subquery()
    opens = access_rule.member_opens(
        chosen.c.user_id, None if push.event == "chatMessage" else push.educator_id, now, grace
    )
    subscriptions = (
        select().select_from(PushSubscription).join(chosen, chosen.c.user_id == PushSubscription.user_id).where(opens)
    )
    # Customers without quiet hours (nearly all): one INSERT ... SELECT, however many there are.
    rows = subscriptions.add_columns(
        literal(Channel.WEBPUSH.value, String),
        PushSubscription.id,
        literal(idea_id, Integer),
        literal(message, JSON),
        literal(DeliveryStatus.PENDING.value, String),
        literal(0, Integer),
        literal(now, UTCDateTime),
        literal(now, UTCDateTime),
        literal(now, UTCDateTime),
    ).where(chosen.c.quiet_start.is_(None))
    columns = ["channel", "subscription_id", "idea_id", "payload", "status", "attempts", "next_attempt_at"]
    columns += ["created_at", "updated_at"]
    result = await db.execute(insert(PushDelivery).from_select(columns, rows))
    queued = int(getattr(result, "rowcount", 0) or 0)
    quiet = await db.execute(
        subscriptions.add_columns(
            PushSubscription.id, chosen.c.quiet_start, chosen.c.quiet_end, chosen.c.quiet_timezone
        ).where(chosen.c.quiet_start.is_not(None))
    )
    for subscription_id, start, end, zone in quiet:
        until = quiet_until(start, end, zone, now) if end and zone else None
        db.add(
            PushDelivery(
                channel=Channel.WEBPUSH,
                subscription_id=subscription_id,
                idea_id=idea_id,
                payload=message,
                status=DeliveryStatus.PENDING if until is None else DeliveryStatus.HELD,
                attempts=0,
                next_attempt_at=until or now,
                created_at=now,
                updated_at=now,
            )
        )
        queued += 1
    return queued


async def enqueue_chat_push(
    db: AsyncSession,
    message: MessageOut,
    room_name: str,
    now: datetime | None = None,
    grace: timedelta = timedelta(days=14),
) -> int:
    """Queue a `chatMessage` push per subscription of the customers `notifications.audience` chooses (those who
    switched that event on and have not switched off the message's educator). Runs in the posting transaction;
    never raises."""
    try:
        if message.user_role != "educator":
            return 0
        push = notifications.Push(event="chatMessage", educator_id=message.user_id)
        async with db.begin_nested():
            queued = await _queue_for(db, push, chat_notification(message, room_name), None, now or utcnow(), grace)
            await db.flush()
        return queued
    except Exception:
        log.exception("queueing push notifications for a chat message failed; the message is kept")
        return 0


async def release_held(db: AsyncSession, now: datetime | None = None, limit: int = 1000) -> int:
    """Deliveries held for quiet hours that have ended become due: one per subscription (a summary when
    several waited). Returns how many subscriptions get a notification."""
    now = now or utcnow()
    rows = (
        await db.execute(
            select(PushDelivery)
            .where(PushDelivery.status == DeliveryStatus.HELD, PushDelivery.next_attempt_at <= now)
            .order_by(PushDelivery.subscription_id, PushDelivery.id)
            .limit(limit)
            .with_for_update(skip_locked=True)
        )
    ).scalars()
    by_subscription: dict[int | None, list[PushDelivery]] = {}
    for row in rows:
        by_subscription.setdefault(row.subscription_id, []).append(row)
    for held in by_subscription.values():
        first = held[0]
        if len(held) > 1:
            first.payload = summary_notification([row.payload for row in held])
            first.idea_id = None
            for row in held[1:]:
                await db.delete(row)
        first.status, first.next_attempt_at, first.updated_at = DeliveryStatus.PENDING, now, now
    await db.flush()
    return len(by_subscription)


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
        # Run once: as a plain IN subquery PostgreSQL may rescan it for each row of the update (a nested loop),
        # and each rescan locks the next unlocked rows, which this claim then holds without claiming them.
        .cte("due")
        .prefix_with("MATERIALIZED", dialect="postgresql")
    )
    claimed = await db.execute(
        update(PushDelivery)
        .where(
            PushDelivery.id.in_(select(due.c.id)),
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
    await lock_deliveries(
        db, or_(PushDelivery.id.in_([c.id for c, _ in results]), PushDelivery.subscription_id.in_(gone))
    )
    if sent:
        await db.execute(
            update(PushDelivery)
            .where(PushDelivery.id.in_(sent))
            .values(status=DeliveryStatus.SENT, last_error=None, updated_at=now)
            .execution_options(synchronize_session=False)
        )
    if gone:
        # The push service says this browser unsubscribed: forget it (its deliveries go with it).
        await delete_subscriptions(db, gone)
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
    old = PushDelivery.status.in_([DeliveryStatus.SENT, DeliveryStatus.FAILED]) & (PushDelivery.updated_at < cutoff)
    await lock_deliveries(db, old)
    await db.execute(delete(PushDelivery).where(old))


async def backlog(db: AsyncSession) -> dict[str, int]:
    """Deliveries not sent yet: `due` now, `scheduled` for a later retry, being `sending`, `held` for quiet hours."""
    now = utcnow()
    pending = PushDelivery.status == DeliveryStatus.PENDING
    row = (
        await db.execute(
            select(
                func.count().filter(pending, PushDelivery.next_attempt_at <= now),
                func.count().filter(pending, PushDelivery.next_attempt_at > now),
                func.count().filter(PushDelivery.status == DeliveryStatus.SENDING),
                func.count().filter(PushDelivery.status == DeliveryStatus.HELD),
            ).where(PushDelivery.status.in_([DeliveryStatus.PENDING, DeliveryStatus.SENDING, DeliveryStatus.HELD]))
        )
    ).one()
    return dict(zip(("due", "scheduled", "sending", "held"), (int(count) for count in row), strict=True))


# ---- test notifications ---------------------------------------------------------------------------
def sample_message(user_name: str, body: PushTestIn, app_name: str) -> dict[str, Any]:
    if body.kind == "trade":
        sample = IdeaNotice(
            educator_name=body.educator_name or user_name,
            market="crypto" if (body.market or "Forex").lower() == "crypto" else "forex",
            pair=body.pair or "EUR/USD",
            idea_type=body.idea_type or "Leverage",
            order_type=body.order_type or ("SELL" if (body.direction or "").lower() == "bearish" else "BUY"),
        )
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
    db: AsyncSession, sender: Sender, user_id: int, user_name: str, body: PushTestIn, app_name: str
) -> PushTestOut:
    """Send now (not through the queue) to the caller's own subscriptions and report what happened."""
    ok_text, failed_text = (TRADE_OK, TRADE_FAILED) if body.kind == "trade" else (TEST_OK, TEST_FAILED)
    subs = list((await db.execute(select(PushSubscription).where(PushSubscription.user_id == user_id))).scalars())
    if not subs:
        return PushTestOut(success=False, message=failed_text, details={"subscriptions": 0, "error": NO_SUBSCRIPTION})
    message = sample_message(user_name, body, app_name)
    results = await asyncio.gather(
        *(sender.send_webpush(WebPushTarget(s.endpoint, s.p256dh, s.auth), message) for s in subs)
    )
    gone = [s.id for s, r in zip(subs, results, strict=True) if r.outcome == Outcome.GONE]
    if gone:
        await delete_subscriptions(db, gone)
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
