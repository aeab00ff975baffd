"""Tables of the price checks: candles once per feed, symbol and granularity; one verification row per idea."""

from datetime import datetime

from sqlalchemy import JSON, BigInteger, Boolean, Float, ForeignKey, Index, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from tradeideas.db import Base, UTCDateTime, utcnow


class PriceCandle(Base):
    """One candle of one feed's symbol at one granularity; `ask_*` for forex only. Prices as the feed wrote them."""

    __tablename__ = "price_candles"

    feed: Mapped[str] = mapped_column(String(16), primary_key=True)
    symbol: Mapped[str] = mapped_column(String(32), primary_key=True)
    granularity: Mapped[str] = mapped_column(String(4), primary_key=True)
    time: Mapped[int] = mapped_column(BigInteger, primary_key=True)  # opening time, epoch seconds
    open: Mapped[str] = mapped_column(String(32))
    high: Mapped[str] = mapped_column(String(32))
    low: Mapped[str] = mapped_column(String(32))
    close: Mapped[str] = mapped_column(String(32))
    ask_open: Mapped[str | None] = mapped_column(String(32), default=None)
    ask_high: Mapped[str | None] = mapped_column(String(32), default=None)
    ask_low: Mapped[str | None] = mapped_column(String(32), default=None)
    ask_close: Mapped[str | None] = mapped_column(String(32), default=None)
    complete: Mapped[bool] = mapped_column(Boolean, default=True)


# What `service.verified_figures` reads of a row besides educator and state.
VERIFIED_COLUMNS = ["outcome", "educator_outcome", "r_multiple", "idea_id", "settled_at", "published_at"]


class IdeaVerification(Base):
    """The price check of one idea: what the API shows, and `progress`, the replay's state to resume from."""

    __tablename__ = "idea_verifications"
    __table_args__ = (
        Index("ix_idea_verifications_open", "done", "feed", "symbol"),
        # An educator's verified figures are counted from this index alone on PostgreSQL (an index-only scan; 0018).
        Index(
            "ix_idea_verifications_educator",
            "educator_id",
            "state",
            postgresql_include=VERIFIED_COLUMNS,
        ),
    )

    idea_id: Mapped[int] = mapped_column(ForeignKey("trade_ideas.id", ondelete="CASCADE"), primary_key=True)
    educator_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    feed: Mapped[str | None] = mapped_column(String(16), default=None)
    symbol: Mapped[str | None] = mapped_column(String(32), default=None)
    state: Mapped[str] = mapped_column(String(16), default="waiting")
    done: Mapped[bool] = mapped_column(Boolean, default=False)  # settled or unverifiable: never polled again
    outcome: Mapped[str | None] = mapped_column(String(16), default=None)
    r_multiple: Mapped[float | None] = mapped_column(Float, default=None)
    settlement_price: Mapped[str | None] = mapped_column(String(32), default=None)
    triggered_at: Mapped[datetime | None] = mapped_column(UTCDateTime, default=None)
    settled_at: Mapped[datetime | None] = mapped_column(UTCDateTime, default=None)
    mae_r: Mapped[float | None] = mapped_column(Float, default=None)
    mfe_r: Mapped[float | None] = mapped_column(Float, default=None)
    reason: Mapped[str | None] = mapped_column(Text, default=None)
    receipts: Mapped[list[dict[str, object]]] = mapped_column(JSON, default=list)
    progress: Mapped[dict[str, object]] = mapped_column(JSON, default=dict)
    # The recorded levels being checked (fixed at the end of the correction window) and when the path starts.
    levels: Mapped[dict[str, str | None]] = mapped_column(JSON, default=dict)
    published_at: Mapped[datetime] = mapped_column(UTCDateTime)
    levels_fixed: Mapped[bool] = mapped_column(Boolean, default=False)
    educator_outcome: Mapped[str | None] = mapped_column(String(16), default=None)  # for `agrees`
    # The `verification` object as the API shows it (JSON text): list pages read it with the ideas, as it is.
    shown: Mapped[str | None] = mapped_column(Text, default=None)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
