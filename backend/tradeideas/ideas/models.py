"""Trade ideas, their images, their revision history and which ideas each customer has seen."""

from datetime import datetime
from enum import StrEnum

from sqlalchemy import Boolean, Float, ForeignKey, Index, Integer, String, Text, text
from sqlalchemy.orm import Mapped, mapped_column, relationship

from tradeideas.db import Base, UTCDateTime, utcnow


class IdeaStatus(StrEnum):
    ACTIVE = "active"
    # The spec's reset target: open again, listed with the active ideas.
    PENDING = "pending"
    SUCCESSFUL = "successful"
    UNSUCCESSFUL = "unsuccessful"
    INVALIDATED = "invalidated"


COMPLETED_STATUSES = frozenset({IdeaStatus.SUCCESSFUL, IdeaStatus.UNSUCCESSFUL})

# The active list's first sort key: 1 for an invalidated idea (listed after every live one), 0 otherwise. Written out
# with its constants (never bound) so that PostgreSQL and SQLite match it to `ix_trade_ideas_open_feed`'s expression
# (decision 0090); `ideas.queries` reads the list's parts through it.
LISTED_LAST_SQL = "CASE WHEN status = 'invalidated' THEN 1 ELSE 0 END"


class TradeIdea(Base):
    __tablename__ = "trade_ideas"
    __table_args__ = (
        # Customer lists: one market, open or completed, newest first (keyset on created_at, id).
        Index("ix_trade_ideas_market_feed", "market", "completed", "created_at", "id"),
        # History pages: one market and idea type, completed, newest first.
        Index("ix_trade_ideas_market_type_feed", "market", "completed", "idea_type", "created_at", "id"),
        # An educator's own ideas, newest first.
        Index("ix_trade_ideas_educator_feed", "educator_id", "created_at", "id"),
        # An educator's open ideas (closed_at null) and one closing day of their track record.
        Index("ix_trade_ideas_educator_closed", "educator_id", "closed_at"),
        Index("ix_trade_ideas_feed", "created_at", "id"),
        # The active list in two index-ordered parts: one market's open live ideas, then its open invalidated ones,
        # each newest first (migration 0021, decision 0090).
        Index("ix_trade_ideas_open_feed", "market", "completed", text(f"({LISTED_LAST_SQL})"), "created_at", "id"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    educator_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    # Explicit market chosen by the educator ("Forex" / "Crypto") ...
    market_type: Mapped[str] = mapped_column(String(8))
    # ... and the market it is listed under ("forex" / "crypto"; SPX pairs always "forex").
    market: Mapped[str] = mapped_column(String(8))
    order_type: Mapped[str] = mapped_column(String(4))
    idea_type: Mapped[str] = mapped_column(String(8))
    pair: Mapped[str] = mapped_column(String(32))
    time_frame: Mapped[str] = mapped_column(String(32))
    entry1: Mapped[str] = mapped_column("entry_1", String(64))
    entry2: Mapped[str | None] = mapped_column("entry_2", String(64), default=None)
    invalidation_level: Mapped[str] = mapped_column(String(64))
    exit1: Mapped[str] = mapped_column("exit_1", String(64))
    exit2: Mapped[str | None] = mapped_column("exit_2", String(64), default=None)
    exit3: Mapped[str | None] = mapped_column("exit_3", String(64), default=None)
    notes: Mapped[str | None] = mapped_column(Text, default=None)
    # Which of the educator's setups this is and why they took it: identity, frozen with the pair (issue #42).
    setup_id: Mapped[int | None] = mapped_column(ForeignKey("idea_setups.id"), default=None, index=True)
    reason: Mapped[str | None] = mapped_column(Text, default=None)
    status: Mapped[str] = mapped_column(String(16), default=IdeaStatus.ACTIVE)
    completed: Mapped[bool] = mapped_column(Boolean, default=False)
    video_url: Mapped[str | None] = mapped_column(String(500), default=None)
    audio_url: Mapped[str | None] = mapped_column(String(500), default=None)
    edited: Mapped[bool] = mapped_column(Boolean, default=False)
    # Track record: how it ended (see ideas/outcomes.py), when, and R from the levels at the end of the
    # correction window; levels changed after that window set `edited_after_publish` (shown on the card).
    outcome: Mapped[str | None] = mapped_column(String(16), default=None)
    close_price: Mapped[str | None] = mapped_column(String(64), default=None)
    closed_at: Mapped[datetime | None] = mapped_column(UTCDateTime, default=None)
    r_multiple: Mapped[float | None] = mapped_column(Float, default=None)
    edited_after_publish: Mapped[bool] = mapped_column(Boolean, default=False)
    # What the educator learned once it was completed: correctable for 15 minutes from `lesson_at` (when it was first
    # written), then frozen like the result and recorded in the ledger (`idea.lesson`, decision 0171).
    lesson_what_happened: Mapped[str | None] = mapped_column(Text, default=None)
    lesson_text: Mapped[str | None] = mapped_column(Text, default=None)
    lesson_at: Mapped[datetime | None] = mapped_column(UTCDateTime, default=None)
    lesson_updated_at: Mapped[datetime | None] = mapped_column(UTCDateTime, default=None)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)

    images: Mapped[list["IdeaImage"]] = relationship(
        lazy="raise", order_by="IdeaImage.position", cascade="all, delete-orphan", passive_deletes=True
    )


class IdeaSetup(Base):
    """One of an educator's named setups ("Breakout retest"), which their ideas name (decision 0170)."""

    __tablename__ = "idea_setups"
    __table_args__ = (Index("ix_idea_setups_educator", "educator_id", "id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    educator_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    name: Mapped[str] = mapped_column(String(60))
    description: Mapped[str | None] = mapped_column(Text, default=None)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class IdeaImage(Base):
    """Links an idea to its uploaded images in order; the first is the chart."""

    __tablename__ = "idea_images"

    idea_id: Mapped[int] = mapped_column(ForeignKey("trade_ideas.id", ondelete="CASCADE"), primary_key=True)
    position: Mapped[int] = mapped_column(Integer, primary_key=True)
    media_id: Mapped[int] = mapped_column(ForeignKey("media_files.id", ondelete="CASCADE"), index=True)


class IdeaRevision(Base):
    """One change to a published idea: who changed which field from what to what, and when."""

    __tablename__ = "idea_revisions"
    __table_args__ = (Index("ix_idea_revisions_idea_created", "idea_id", "created_at", "id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    idea_id: Mapped[int] = mapped_column(ForeignKey("trade_ideas.id", ondelete="CASCADE"))
    editor_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"), index=True)
    field: Mapped[str] = mapped_column(String(32))
    old_value: Mapped[str | None] = mapped_column(Text, default=None)
    new_value: Mapped[str | None] = mapped_column(Text, default=None)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class IdeaView(Base):
    """A customer has seen an idea (its NEW tag is gone and it no longer counts as unseen)."""

    __tablename__ = "idea_views"

    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), primary_key=True)
    idea_id: Mapped[int] = mapped_column(ForeignKey("trade_ideas.id", ondelete="CASCADE"), primary_key=True, index=True)
    seen_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
