"""The customer's desk: their risk settings and their private journal of ideas they took."""

from datetime import datetime

from sqlalchemy import Float, ForeignKey, Index, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from tradeideas.db import Base, UTCDateTime, utcnow


class RiskSettings(Base):
    """One row per customer who changed the defaults (no row means the defaults)."""

    __tablename__ = "risk_settings"

    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), primary_key=True)
    account_size: Mapped[float] = mapped_column(Float)
    account_currency: Mapped[str] = mapped_column(String(8))
    risk_percent: Mapped[float] = mapped_column(Float)
    leverage: Mapped[float] = mapped_column(Float)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class JournalEntry(Base):
    """A trade a customer says they took. The idea's levels are copied, so the entry outlives the idea."""

    __tablename__ = "journal_entries"
    __table_args__ = (
        Index("ix_journal_entries_user_created", "user_id", "created_at", "id"),
        # One entry per key the member's device chose for one "I took this": sent twice after a reconnect, it finds
        # the first (docs/decisions/0057-idempotent-journal-entries.md). NULL keys (no header) never collide.
        UniqueConstraint("user_id", "idempotency_key", name="uq_journal_entries_user_idempotency_key"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    idea_id: Mapped[int | None] = mapped_column(ForeignKey("trade_ideas.id", ondelete="SET NULL"), index=True)
    educator_name: Mapped[str] = mapped_column(String(200))
    market: Mapped[str] = mapped_column(String(8))
    pair: Mapped[str] = mapped_column(String(32))
    order_type: Mapped[str] = mapped_column(String(4))
    idea_type: Mapped[str] = mapped_column(String(8))
    entry1: Mapped[str] = mapped_column(String(64))
    entry2: Mapped[str | None] = mapped_column(String(64), default=None)
    invalidation_level: Mapped[str] = mapped_column(String(64))
    exit1: Mapped[str] = mapped_column(String(64))
    exit2: Mapped[str | None] = mapped_column(String(64), default=None)
    exit3: Mapped[str | None] = mapped_column(String(64), default=None)
    # Prices as the customer typed them ("1.0850"), like an idea's levels: a float would keep 1.085.
    fill_price: Mapped[str] = mapped_column(String(32))
    size: Mapped[float | None] = mapped_column(Float, default=None)
    exit_price: Mapped[str | None] = mapped_column(String(32), default=None)
    note: Mapped[str | None] = mapped_column(Text, default=None)
    # The customer's risk when they took it: their P/L in account currency is R x this amount.
    risk_amount: Mapped[float] = mapped_column(Float)
    account_currency: Mapped[str] = mapped_column(String(8))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    closed_at: Mapped[datetime | None] = mapped_column(UTCDateTime, default=None)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    idempotency_key: Mapped[str | None] = mapped_column(String(128), default=None)


class IdeaTaken(Base):
    """What the members who took an idea got, summed over their journal entries (never who they are).

    Kept exact in the transaction of every journal change (`desk.taken.refresh_taken`), so the idea list reads it
    with an outer join in the page's own statement. The idea shows the medians; the sums and counts stay for
    operators' statistics.
    """

    __tablename__ = "idea_taken"

    idea_id: Mapped[int] = mapped_column(ForeignKey("trade_ideas.id", ondelete="CASCADE"), primary_key=True)
    members: Mapped[int] = mapped_column(Integer, default=0)
    slippage_count: Mapped[int] = mapped_column(Integer, default=0)
    slippage_sum_r: Mapped[float] = mapped_column(Float, default=0.0)
    realised_count: Mapped[int] = mapped_column(Integer, default=0)
    realised_sum_r: Mapped[float] = mapped_column(Float, default=0.0)
    # What the idea shows: medians, which a few accounts' extreme entries cannot move far (decision 0101).
    slippage_median_r: Mapped[float | None] = mapped_column(Float, default=None)
    realised_median_r: Mapped[float | None] = mapped_column(Float, default=None)
