"""Browser push subscriptions and the queue of deliveries (Web Push and messaging-channel posts)."""

from datetime import datetime
from enum import StrEnum
from typing import Any

from sqlalchemy import JSON, ForeignKey, Index, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from tradeideas.db import Base, UTCDateTime, utcnow


class PushSubscription(Base):
    """One browser's PushSubscription (endpoint + keys), owned by the user who last registered it."""

    __tablename__ = "push_subscriptions"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    endpoint: Mapped[str] = mapped_column(String(1000), unique=True)
    p256dh: Mapped[str] = mapped_column(String(200))
    auth: Mapped[str] = mapped_column(String(100))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow, onupdate=utcnow)


class Channel(StrEnum):
    WEBPUSH = "webpush"
    TELEGRAM = "telegram"


class DeliveryStatus(StrEnum):
    PENDING = "pending"
    SENDING = "sending"  # claimed by a worker until next_attempt_at (its lease)
    SENT = "sent"
    FAILED = "failed"
    HELD = "held"  # during the customer's quiet hours, until next_attempt_at; then summarised


class PushDelivery(Base):
    """One message to send: to a push subscription, or (subscription_id NULL) to the messaging channel."""

    __tablename__ = "push_deliveries"
    __table_args__ = (Index("ix_push_deliveries_due", "status", "next_attempt_at"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    channel: Mapped[str] = mapped_column(String(16), default=Channel.WEBPUSH)
    subscription_id: Mapped[int | None] = mapped_column(
        ForeignKey("push_subscriptions.id", ondelete="CASCADE"), index=True, default=None
    )
    # The idea this delivery announces: deleting the idea deletes its pending notifications with it.
    idea_id: Mapped[int | None] = mapped_column(
        ForeignKey("trade_ideas.id", ondelete="CASCADE"), index=True, default=None
    )
    payload: Mapped[dict[str, Any]] = mapped_column(JSON)
    status: Mapped[str] = mapped_column(String(16), default=DeliveryStatus.PENDING)
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    next_attempt_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    last_error: Mapped[str | None] = mapped_column(String(500), default=None)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
