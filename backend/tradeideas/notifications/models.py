"""Each customer's notification switches (markets, educators, events), quiet hours and seen watermarks.

The tables are the ones the ideas domain created (`customer_idea_state`, `customer_muted_educators`): moving the
classes here changed no column, so no migration (decision 0053).
"""

from datetime import datetime

from sqlalchemy import Boolean, ForeignKey, String
from sqlalchemy.orm import Mapped, mapped_column

from tradeideas.db import Base, UTCDateTime, utcnow


class CustomerIdeaState(Base):
    """Per customer: the notification switches and quiet hours, and the moment each market was last opened.

    The two `*_seen_until` watermarks are the ideas domain's (it writes them through `service.mark_market_seen`
    and reads them with the switches in one statement): they share this row so a customer's state is one read.
    """

    __tablename__ = "customer_idea_state"

    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), primary_key=True)
    notify_forex: Mapped[bool] = mapped_column(Boolean, default=True)
    notify_crypto: Mapped[bool] = mapped_column(Boolean, default=True)
    # Ideas of a market created at or before this moment count as seen (set when the market is opened).
    forex_seen_until: Mapped[datetime | None] = mapped_column(UTCDateTime, default=None)
    crypto_seen_until: Mapped[datetime | None] = mapped_column(UTCDateTime, default=None)
    # Which events reach the customer's phone (markets and educators are switched separately).
    notify_new_idea: Mapped[bool] = mapped_column(Boolean, default=True)
    notify_idea_closed: Mapped[bool] = mapped_column(Boolean, default=True)
    notify_chat: Mapped[bool] = mapped_column(Boolean, default=False)
    # Quiet hours ("22:00" to "07:00" in an IANA zone): pushes are held and summarised when they end.
    quiet_start: Mapped[str | None] = mapped_column(String(5), default=None)
    quiet_end: Mapped[str | None] = mapped_column(String(5), default=None)
    quiet_timezone: Mapped[str | None] = mapped_column(String(64), default=None)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow, onupdate=utcnow)


class MutedEducator(Base):
    """An educator a customer switched off: no pushes, NEW tags or unseen counts for their ideas.

    Only the exceptions are stored (every educator is on by default); the primary key serves the
    `NOT EXISTS` lookups of the unseen counts and the push queue.
    """

    __tablename__ = "customer_muted_educators"

    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), primary_key=True)
    educator_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), primary_key=True)
