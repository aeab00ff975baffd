"""Small key/value facts about this installation (for example: demo data already seeded), and the keys the
server generates (kept in the database, so every node of several uses the same ones)."""

from datetime import datetime

from sqlalchemy import String, Text
from sqlalchemy.orm import Mapped, mapped_column

from tradeideas.db import Base, UTCDateTime, utcnow


class AppMeta(Base):
    __tablename__ = "app_meta"

    key: Mapped[str] = mapped_column(String(64), primary_key=True)
    value: Mapped[str] = mapped_column(Text)


class ServerKey(Base):
    """A key the server made once (the Web Push VAPID private key, PEM): written by the first node that needed it,
    read by every other (decision 0141). Not data: `reset-data` keeps it, so browsers' subscriptions stay valid."""

    __tablename__ = "server_keys"

    name: Mapped[str] = mapped_column(String(64), primary_key=True)
    value: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
