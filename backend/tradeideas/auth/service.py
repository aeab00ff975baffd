"""Login, sessions and brute-force limits."""

import hashlib
import math
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import delete, func, select
from sqlalchemy.ext.asyncio import AsyncSession

from tradeideas.auth.cache import USER_CHANGED
from tradeideas.auth.models import LoginAttempt, Role, Session, User
from tradeideas.auth.passwords import hash_password, verify_password
from tradeideas.core.errors import Forbidden, Invalid, NotFound, TooManyRequests, Unauthorized
from tradeideas.db import utcnow
from tradeideas.realtime.service import SERVER, record_event
from tradeideas.settings import Settings

INVALID_CREDENTIALS = "Invalid email or password"
EDUCATOR_ONLY = "Access denied: Only authorized educators can access this portal."
TOO_MANY_ATTEMPTS = "Too many login attempts. Please wait a few minutes and try again."
MIN_PASSWORD_LENGTH = 8


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass
class IssuedSession:
    token: str
    user: User
    expires_at: datetime


async def _check_rate_limit(db: AsyncSession, settings: Settings, email: str, client: str) -> None:
    since = utcnow() - timedelta(minutes=settings.login_window_minutes)
    limits = (
        (LoginAttempt.email == email, settings.login_max_failures_per_account),
        (LoginAttempt.client == client, settings.login_max_failures_per_client),
    )
    for condition, limit in limits:
        count, oldest = (
            await db.execute(
                select(func.count(), func.min(LoginAttempt.created_at)).where(
                    condition, LoginAttempt.created_at >= since
                )
            )
        ).one()
        if count >= limit and oldest is not None:
            if oldest.tzinfo is None:  # aggregate results bypass the column type on SQLite
                oldest = oldest.replace(tzinfo=utcnow().tzinfo)
            retry_after = (oldest + timedelta(minutes=settings.login_window_minutes)) - utcnow()
            seconds = max(1, math.ceil(retry_after.total_seconds()))
            raise TooManyRequests(TOO_MANY_ATTEMPTS, headers={"Retry-After": str(seconds)})


async def _record_failure(db: AsyncSession, email: str, client: str) -> None:
    # Written in its own transaction: the request answers with an error and rolls back, but the
    # failure must still count towards the limit.
    async with AsyncSession(db.bind) as audit:
        audit.add(LoginAttempt(email=email, client=client))
        await audit.commit()


async def login(
    db: AsyncSession, settings: Settings, *, email: str, password: str, selected_role: str, client: str
) -> IssuedSession:
    await _check_rate_limit(db, settings, email, client)
    user = (await db.execute(select(User).where(User.email == email))).scalar_one_or_none()
    valid = await verify_password(user.password_hash if user else None, password)
    if not valid or user is None or user.disabled:
        await _record_failure(db, email, client)
        raise Unauthorized(INVALID_CREDENTIALS, code="invalid_credentials")
    if selected_role == Role.EDUCATOR and user.role != Role.EDUCATOR:
        raise Forbidden(EDUCATOR_ONLY, code="educator_only")
    # A successful login forgives this account's earlier failures.
    await db.execute(delete(LoginAttempt).where(LoginAttempt.email == email))
    return await create_session(db, settings, user)


async def confirm_password(db: AsyncSession, settings: Settings, user: User, password: str, client: str) -> bool:
    """Check a logged-in user's password (e.g. before changing it) under the same limits as logging in,
    so a stolen session cannot be used to guess the password."""
    await _check_rate_limit(db, settings, user.email, client)
    if not await verify_password(user.password_hash, password):
        await _record_failure(db, user.email, client)
        return False
    await db.execute(delete(LoginAttempt).where(LoginAttempt.email == user.email))
    return True


async def create_session(db: AsyncSession, settings: Settings, user: User) -> IssuedSession:
    token = secrets.token_urlsafe(32)  # 256 bits
    now = utcnow()
    expires_at = now + timedelta(days=settings.session_days)
    db.add(
        Session(user_id=user.id, token_hash=hash_token(token), created_at=now, refreshed_at=now, expires_at=expires_at)
    )
    await db.flush()
    return IssuedSession(token=token, user=user, expires_at=expires_at)


async def resolve_session(db: AsyncSession, token_hash: str) -> tuple[Session, User] | None:
    row = (
        await db.execute(
            select(Session, User).join(User, User.id == Session.user_id).where(Session.token_hash == token_hash)
        )
    ).one_or_none()
    if row is None:
        return None
    session, user = row
    if session.expires_at <= utcnow() or user.disabled:
        return None
    return session, user


def slide_due(refreshed_at: datetime, settings: Settings) -> bool:
    return utcnow() - refreshed_at >= timedelta(hours=settings.session_refresh_hours)


def slide_session(session: Session, settings: Settings) -> bool:
    """Extend a session's lifetime at most once per refresh interval; True when it was extended."""
    if not slide_due(session.refreshed_at, settings):
        return False
    now = utcnow()
    session.refreshed_at = now
    session.expires_at = now + timedelta(days=settings.session_days)
    return True


async def user_changed(db: AsyncSession, user: User) -> None:
    """Announce (once this transaction commits) that a user's row or sessions changed.

    Every server process then drops what it cached about the user: revoked sessions stop working and
    new names and photos show at once, whichever process serves the next request.
    """
    await record_event(db, USER_CHANGED, {"userId": user.id, "role": user.role}, audience=SERVER)


async def revoke_session(db: AsyncSession, user: User, session_id: int) -> None:
    await db.execute(delete(Session).where(Session.id == session_id))
    await user_changed(db, user)


async def revoke_all_sessions(db: AsyncSession, user: User, *, except_session_id: int | None = None) -> None:
    stmt = delete(Session).where(Session.user_id == user.id)
    if except_session_id is not None:
        stmt = stmt.where(Session.id != except_session_id)
    await db.execute(stmt)
    await user_changed(db, user)


async def purge_expired(db: AsyncSession, settings: Settings) -> None:
    now = utcnow()
    await db.execute(delete(Session).where(Session.expires_at <= now))
    await db.execute(
        delete(LoginAttempt).where(LoginAttempt.created_at < now - timedelta(minutes=settings.login_window_minutes))
    )


def validate_new_password(password: str) -> None:
    if len(password) < MIN_PASSWORD_LENGTH:
        raise Invalid(f"Password must be at least {MIN_PASSWORD_LENGTH} characters")


async def get_user_by_email(db: AsyncSession, email: str) -> User:
    user = (await db.execute(select(User).where(User.email == email.strip().lower()))).scalar_one_or_none()
    if user is None:
        raise NotFound(f"No user with e-mail {email}")
    return user


async def add_user(db: AsyncSession, *, email: str, password: str, role: Role, first_name: str, last_name: str) -> User:
    email = email.strip().lower()
    validate_new_password(password)
    if (await db.execute(select(User.id).where(User.email == email))).first():
        raise Invalid(f"A user with e-mail {email} already exists")
    user = User(
        email=email, password_hash=await hash_password(password), role=role, first_name=first_name, last_name=last_name
    )
    db.add(user)
    await db.flush()
    return user


async def set_password(db: AsyncSession, user: User, password: str) -> None:
    validate_new_password(password)
    user.password_hash = await hash_password(password)
    await user_changed(db, user)


async def disable_user(db: AsyncSession, user: User) -> None:
    user.disabled = True
    await revoke_all_sessions(db, user)
