"""Uploaded media under DATA_DIR/media with server-chosen names: re-encoded JPEG images (a card size and
a large size for the full-screen viewer) and voice notes re-encoded as AAC in MP4."""

from datetime import datetime

from sqlalchemy import Float, ForeignKey, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from tradeideas.db import Base, UTCDateTime, utcnow

# `as`: an explicit re-export, for the idea list (ideas/queries.py), which imports the rule from here.
from tradeideas.media.schemas import media_url as media_url


class MediaFile(Base):
    __tablename__ = "media_files"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    owner_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    file_name: Mapped[str] = mapped_column(String(64), unique=True)
    width: Mapped[int] = mapped_column(Integer)
    height: Mapped[int] = mapped_column(Integer)
    # "image" or "audio"; audio has width and height 0.
    kind: Mapped[str] = mapped_column(String(8), default="image", server_default="image")
    # Images: the large version (up to 2048 px wide; the card file itself when that is already the original).
    full_file_name: Mapped[str | None] = mapped_column(String(64), default=None)
    duration_seconds: Mapped[float | None] = mapped_column(Float, default=None)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    # Since when nothing refers to it (an idea, chat message or profile): set at upload and by housekeeping
    # when it finds the file unused, cleared when it is attached. Housekeeping deletes it 24 hours later.
    orphaned_at: Mapped[datetime | None] = mapped_column(UTCDateTime, default=utcnow, index=True)

    @property
    def url(self) -> str:
        return media_url(self.file_name)

    @property
    def full_url(self) -> str:
        return media_url(self.full_file_name or self.file_name)
