"""Plans members can buy, the grants that open educators to a member, and what Stripe told us once.

A grant is either a complimentary one an admin gives (optionally until a day) or the mirror of one Stripe
subscription: its status and dates are copied from what Stripe says when we last read the subscription, never
from a webhook's body (decision 0130).
"""

from datetime import datetime

from sqlalchemy import Boolean, ForeignKey, Index, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from tradeideas.db import Base, UTCDateTime, utcnow


class PlanScope:
    EDUCATOR = "educator"
    ALL = "all"


class GrantKind:
    COMPLIMENTARY = "complimentary"
    SUBSCRIPTION = "subscription"


class Plan(Base):
    """What a member can buy: one educator's ideas or every educator's, at a price per month or year."""

    __tablename__ = "plans"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(100))
    scope: Mapped[str] = mapped_column(String(16))
    educator_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="RESTRICT"), default=None)
    unit_amount: Mapped[int] = mapped_column(Integer)  # in the currency's smallest unit, as Stripe counts it
    currency: Mapped[str] = mapped_column(String(3))
    interval: Mapped[str] = mapped_column(String(8))
    trial_days: Mapped[int] = mapped_column(Integer, default=0)
    active: Mapped[bool] = mapped_column(Boolean, default=True)
    stripe_product_id: Mapped[str | None] = mapped_column(String(255), default=None)
    stripe_price_id: Mapped[str | None] = mapped_column(String(255), default=None)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow, onupdate=utcnow)


class AccessGrant(Base):
    """One member's access to one educator (`educator_id`) or to all of them (`educator_id` null)."""

    __tablename__ = "access_grants"
    __table_args__ = (Index("ix_access_grants_user", "user_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    kind: Mapped[str] = mapped_column(String(16))
    plan_id: Mapped[int | None] = mapped_column(ForeignKey("plans.id", ondelete="SET NULL"), default=None)
    educator_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), default=None)
    # Stripe's subscription status (`trialing`, `active`, `past_due`, `canceled`, ...) or `complimentary`.
    status: Mapped[str] = mapped_column(String(24))
    # A complimentary grant's last moment (null: no end); unused for subscriptions.
    ends_at: Mapped[datetime | None] = mapped_column(UTCDateTime, default=None)
    trial_end: Mapped[datetime | None] = mapped_column(UTCDateTime, default=None)
    current_period_start: Mapped[datetime | None] = mapped_column(UTCDateTime, default=None)
    current_period_end: Mapped[datetime | None] = mapped_column(UTCDateTime, default=None)
    cancel_at_period_end: Mapped[bool] = mapped_column(Boolean, default=False)
    revoked_at: Mapped[datetime | None] = mapped_column(UTCDateTime, default=None)
    stripe_subscription_id: Mapped[str | None] = mapped_column(String(255), default=None, unique=True)
    stripe_customer_id: Mapped[str | None] = mapped_column(String(255), default=None)
    # When Stripe's copy was last read: a sync that finds the same state changes nothing.
    synced_at: Mapped[datetime | None] = mapped_column(UTCDateTime, default=None)
    # The moment this grant stopped opening by the clock that the leading process announced (`AccessChanged`): each
    # end is announced once, and a later end (a renewal) again.
    end_announced_for: Mapped[datetime | None] = mapped_column(UTCDateTime, default=None)
    granted_by_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"), default=None)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow, onupdate=utcnow)


class StripeEvent(Base):
    """A webhook event already handled: its id is the primary key, so each event is handled once."""

    __tablename__ = "stripe_events"

    id: Mapped[str] = mapped_column(String(255), primary_key=True)
    type: Mapped[str] = mapped_column(String(100))
    received_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class CheckoutRecord(Base):
    """A Checkout Session this app created: which plan, and the member who started it (null: a visitor)."""

    __tablename__ = "checkout_sessions"

    id: Mapped[str] = mapped_column(String(255), primary_key=True)
    plan_id: Mapped[int] = mapped_column(ForeignKey("plans.id", ondelete="CASCADE"))
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), default=None)
    # A secret kept in the visitor's browser (cookie) so only the browser that paid can claim the session.
    claim_hash: Mapped[str | None] = mapped_column(String(64), default=None)
    claimed_by_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"), default=None)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
