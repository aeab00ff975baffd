"""Track-record figures kept per educator, closing day and group, and the public count of withdrawn ideas.

`track_record_days` is derived from `trade_ideas` (closed ideas) and rewritten for the affected days in the
same transaction as every status change, so reads never scan ideas. `withdrawn_ideas` is not derived:
the ideas it counts are gone.
"""

from datetime import date, datetime

from sqlalchemy import Date, Float, ForeignKey, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from tradeideas.db import Base, UTCDateTime


class TrackRecordDay(Base):
    """Ideas of one educator, market, idea type and time frame that closed on one (UTC) day."""

    __tablename__ = "track_record_days"

    educator_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), primary_key=True)
    day: Mapped[date] = mapped_column(Date, primary_key=True)
    market: Mapped[str] = mapped_column(String(8), primary_key=True)
    idea_type: Mapped[str] = mapped_column(String(8), primary_key=True)
    time_frame: Mapped[str] = mapped_column(String(32), primary_key=True)
    first_closed_at: Mapped[datetime] = mapped_column(UTCDateTime)
    last_closed_at: Mapped[datetime] = mapped_column(UTCDateTime)
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
