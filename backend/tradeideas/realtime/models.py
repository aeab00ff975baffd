"""The transactional outbox: one row per change that connected clients must see."""

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, Index, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from tradeideas.db import Base, UTCDateTime, utcnow


class Event(Base):
    """A committed change. `id` is the SSE event id; `audience` is 'all', 'educators', 'customers' or a user id."""

    __tablename__ = "events"
    __table_args__ = (Index("ix_events_created_at", "created_at"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    type: Mapped[str] = mapped_column(String(64))
    payload: Mapped[dict[str, Any]] = mapped_column(JSON)
    audience: Mapped[str] = mapped_column(String(32), default="all")
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
