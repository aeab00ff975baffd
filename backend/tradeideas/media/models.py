"""Uploaded images: re-encoded JPEG files under DATA_DIR/media with server-chosen names."""

from datetime import datetime

from sqlalchemy import ForeignKey, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from tradeideas.db import Base, UTCDateTime, utcnow

MEDIA_URL_PREFIX = "/media/"


class MediaFile(Base):
    __tablename__ = "media_files"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    owner_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    file_name: Mapped[str] = mapped_column(String(64), unique=True)
    width: Mapped[int] = mapped_column(Integer)
    height: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)

    @property
    def url(self) -> str:
        return media_url(self.file_name)


def media_url(file_name: str) -> str:
    return MEDIA_URL_PREFIX + file_name
