"""The transactional outbox: one row per change that connected clients must see."""

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, BigInteger, Index, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from tradeideas.db import Base, UTCDateTime, utcnow


class Event(Base):
    """A committed change; `audience` is 'all', 'educators', 'customers' or a user id.

    `seq` is its position in the stream (the SSE event id): given by the database when the row's transaction
    commits (migration 0010), so positions follow commit order and a stream resumed from any position it has
    seen misses nothing. It is NULL only inside the writing transaction. `id` follows insert order, which is
    not commit order: it only names the row.
    """

    __tablename__ = "events"
    __table_args__ = (Index("ix_events_created_at", "created_at"), Index("ix_events_seq", "seq", unique=True))

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    seq: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    type: Mapped[str] = mapped_column(String(64))
    payload: Mapped[dict[str, Any]] = mapped_column(JSON)
    audience: Mapped[str] = mapped_column(String(32), default="all")
    # The educator whose open ideas the event shows: only readers whose paid access opens them hear it (null:
    # everyone in the audience; `core.access.ANY_GRANT`: readers with any open grant, as for chat).
    # `DomainEvent.educator_scope`.
    educator_id: Mapped[int | None] = mapped_column(Integer, nullable=True, default=None)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
