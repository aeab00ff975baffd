"""Track-record figures kept per educator and group, and the public count of withdrawn ideas.

`track_record_totals` is derived from `trade_ideas` (closed ideas) and rewritten in the same transaction as
every change to an educator's closed ideas, so whole records are read without touching ideas.
`withdrawn_ideas` is not derived: the ideas it counts are gone.
"""

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, Float, ForeignKey, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from tradeideas.db import Base, UTCDateTime


class TrackRecordTotal(Base):
    """An educator's whole record (grouping "all") or one market, idea type or time frame of it.

    Rewritten from the educator's closed ideas in the transaction of every change to them, so reading a
    whole record, or the educators list, is one row per educator and group.
    """

    __tablename__ = "track_record_totals"

    educator_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), primary_key=True)
    grouping: Mapped[str] = mapped_column(String(16), primary_key=True)  # all / market / idea_type / time_frame
    key: Mapped[str] = mapped_column(String(32), primary_key=True)  # "" for the whole record
    wins: Mapped[int] = mapped_column(Integer, default=0)
    losses: Mapped[int] = mapped_column(Integer, default=0)
    not_triggered: Mapped[int] = mapped_column(Integer, default=0)
    # Ideas with a known R, and their R: sum, sum of gains, sum of losses, best, worst ...
    r_count: Mapped[int] = mapped_column(Integer, default=0)
    sum_r: Mapped[float] = mapped_column(Float, default=0.0)
    gain_r: Mapped[float] = mapped_column(Float, default=0.0)
    loss_r: Mapped[float] = mapped_column(Float, default=0.0)
    best_r: Mapped[float | None] = mapped_column(Float, default=None)
    worst_r: Mapped[float | None] = mapped_column(Float, default=None)
    # ... and the shape of its cumulative R in closing order (from 0): highest, lowest, largest fall.
    peak_r: Mapped[float] = mapped_column(Float, default=0.0)
    low_r: Mapped[float] = mapped_column(Float, default=0.0)
    drawdown_r: Mapped[float] = mapped_column(Float, default=0.0)
    # Whole record only: the equity sparkline, [[closed at (ISO), cumulative R], ...] (see `figures.sparkline`),
    # and the last idea counted, in closing order (closed at, id): an idea closing after it is simply added.
    sparkline: Mapped[list[list[Any]] | None] = mapped_column(JSON, default=None)
    last_closed_at: Mapped[datetime | None] = mapped_column(UTCDateTime, default=None)
    last_idea_id: Mapped[int | None] = mapped_column(Integer, default=None)
    # Whole record only: the running state of its statistics (`statistics.Statistics`), so the educators list shows
    # them without walking every idea; null on rows written before it existed (then computed on reading).
    statistics: Mapped[dict[str, Any] | None] = mapped_column(JSON, default=None)
    # Whole record only: new on every rewrite of the educator's totals from their ideas, kept when an idea closing
    # after all the others is added. A process's walk of a filtered record seen under the same token is extended
    # with the ideas closed since instead of walked again (`service.track_record`); null on rows written before.
    rewrite_token: Mapped[str | None] = mapped_column(String(32), default=None)


class WithdrawnIdea(Base):
    """An open idea its educator deleted after the correction window: counted as "deleted after publishing"."""

    __tablename__ = "withdrawn_ideas"

    idea_id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    educator_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    market: Mapped[str] = mapped_column(String(8))
    idea_type: Mapped[str] = mapped_column(String(8))
    time_frame: Mapped[str] = mapped_column(String(32))
    published_at: Mapped[datetime] = mapped_column(UTCDateTime)
    deleted_at: Mapped[datetime] = mapped_column(UTCDateTime)
