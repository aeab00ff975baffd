"""Small key/value facts about this installation (for example: demo data already seeded)."""

from sqlalchemy import String, Text
from sqlalchemy.orm import Mapped, mapped_column

from tradeideas.db import Base


class AppMeta(Base):
    __tablename__ = "app_meta"

    key: Mapped[str] = mapped_column(String(64), primary_key=True)
    value: Mapped[str] = mapped_column(Text)
