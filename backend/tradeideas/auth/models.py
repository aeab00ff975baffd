"""Accounts, sessions and the login-attempt log used for brute-force limits."""

from datetime import datetime
from enum import StrEnum

from sqlalchemy import Boolean, ForeignKey, Index, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from tradeideas.db import Base, UTCDateTime, utcnow
from tradeideas.media.schemas import media_url


class Role(StrEnum):
    CUSTOMER = "customer"
    EDUCATOR = "educator"
    ADMIN = "admin"  # operators: the admin area only


class User(Base):
    __tablename__ = "users"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    email: Mapped[str] = mapped_column(String(254), unique=True)
    password_hash: Mapped[str] = mapped_column(String(200))
    role: Mapped[str] = mapped_column(String(16), index=True)
    first_name: Mapped[str] = mapped_column(String(100), default="")
    last_name: Mapped[str] = mapped_column(String(100), default="")
    slug: Mapped[str | None] = mapped_column(String(64), unique=True, default=None)
    specialty: Mapped[str | None] = mapped_column(String(100), default=None)
    bio: Mapped[str] = mapped_column(Text, default="")
    years_experience: Mapped[int] = mapped_column(Integer, default=0)
    trading_style: Mapped[str | None] = mapped_column(String(50), default=None)
    timezone: Mapped[str | None] = mapped_column(String(16), default=None)
    is_public: Mapped[bool] = mapped_column(Boolean, default=True)
    avatar_path: Mapped[str | None] = mapped_column(String(200), default=None)
    disabled: Mapped[bool] = mapped_column(Boolean, default=False)
    # Invited by an admin and not yet accepted: no usable password until the invitation link is used.
    invited: Mapped[bool] = mapped_column(Boolean, default=False)
    # Set at login and when a session is slid forward (at most once per SESSION_REFRESH_HOURS).
    last_seen_at: Mapped[datetime | None] = mapped_column(UTCDateTime, default=None)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow, onupdate=utcnow)

    @property
    def avatar_url(self) -> str | None:
        return avatar_url(self.avatar_path)

    @property
    def display_name(self) -> str:
        return display_name(self.first_name, self.last_name, self.role)


_UNNAMED = {Role.EDUCATOR.value: "Professional Educator", Role.ADMIN.value: "Administrator"}


def avatar_url(avatar_path: str | None) -> str | None:
    """Where a user's picture is served; also for rows read as plain columns (the idea list)."""
    return media_url(avatar_path) if avatar_path else None


def display_name(first_name: str, last_name: str, role: str) -> str:
    """The name shown for a user; also for rows read as plain columns (the idea list), without a `User`."""
    return f"{first_name} {last_name}".strip() or _UNNAMED.get(role, "Customer")


class Session(Base):
    __tablename__ = "sessions"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    # Only a SHA-256 of the token is stored, so a database leak does not leak live sessions.
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    refreshed_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    expires_at: Mapped[datetime] = mapped_column(UTCDateTime, index=True)


class LoginAttempt(Base):
    __tablename__ = "login_attempts"
    __table_args__ = (
        Index("ix_login_attempts_email_created", "email", "created_at"),
        Index("ix_login_attempts_client_created", "client", "created_at"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    email: Mapped[str] = mapped_column(String(254))
    client: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
