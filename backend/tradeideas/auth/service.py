"""Login, sessions and brute-force limits."""

import hashlib
import math
import secrets
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import Select, String, bindparam, delete, func, select, update
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncSession

from tradeideas.auth.cache import Login
from tradeideas.auth.events import LoginLockedOut, UserChanged
from tradeideas.auth.models import LoginAttempt, Role, Session, User
from tradeideas.auth.passwords import hash_password, verify_password
from tradeideas.auth.schemas import CurrentUser, PublicUser
from tradeideas.core.errors import Forbidden, Invalid, NotFound, TooManyRequests, Unauthorized
from tradeideas.core.limits import LoopLimiter
from tradeideas.core.metrics import LOGIN_FAILURES, LOGIN_LOCKOUTS
from tradeideas.db import DriverQuery, DriverReader, utcnow
from tradeideas.realtime.service import publish
from tradeideas.settings import Settings

INVALID_CREDENTIALS = "Invalid email or password"
# Told only to whoever gave the right password: a guesser still reads INVALID_CREDENTIALS (issue #26).
# A session of a member disabled since it began: the sign-in page says so (and names the support contact).
ACCOUNT_WAS_DISABLED = "This account was disabled."


def account_disabled_message(settings: Settings) -> str:
    """The refusal a disabled member reads, naming who to contact (`SUPPORT_CONTACT`)."""
    return f"This account is disabled. Contact support at {settings.support_contact}."


EDUCATOR_ONLY = "Access denied: Only authorized educators can access this portal."
ADMIN_ONLY = "Access denied: Only administrators can sign in here."
ADMIN_PORTAL = "Administrators sign in at /admin/login."
TOO_MANY_ATTEMPTS = "Too many login attempts. Please wait a few minutes and try again."
MIN_PASSWORD_LENGTH = 8


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass
class IssuedSession:
    token: str
    user: User
    expires_at: datetime


async def _admit_attempt(db: AsyncSession, settings: Settings, email: str, client: str) -> None:
    """Count this password attempt against both limits, then refuse it (429) if either is exceeded.

    The attempt is committed first and the limits are checked afterwards, on the request's own connection:
    each attempt counts every attempt committed before it, so however many arrive at once, at most the
    limit's number are let through to the (slow) password check. A refused attempt is removed again, so
    hammering a locked account does not keep it locked. The connection is released before returning, so
    no request holds one while its password is hashed.
    """
    attempt = LoginAttempt(email=email, client=client)
    db.add(attempt)
    await db.commit()
    since = utcnow() - timedelta(minutes=settings.login_window_minutes)
    limits = (
        ("account", LoginAttempt.email == email, settings.login_max_failures_per_account),
        ("client", LoginAttempt.client == client, settings.login_max_failures_per_client),
    )
    for which, condition, limit in limits:
        count, oldest = (
            await db.execute(
                select(func.count(), func.min(LoginAttempt.created_at)).where(
                    condition, LoginAttempt.created_at >= since
                )
            )
        ).one()
        if count > limit and oldest is not None:
            await db.execute(delete(LoginAttempt).where(LoginAttempt.id == attempt.id))
            await publish(db, LoginLockedOut(email=email, client=client, limit=which))
            await db.commit()
            LOGIN_LOCKOUTS.inc()
            if oldest.tzinfo is None:  # aggregate results bypass the column type on SQLite
                oldest = oldest.replace(tzinfo=utcnow().tzinfo)
            retry_after = (oldest + timedelta(minutes=settings.login_window_minutes)) - utcnow()
            seconds = max(1, math.ceil(retry_after.total_seconds()))
            raise TooManyRequests(TOO_MANY_ATTEMPTS, headers={"Retry-After": str(seconds)})
    await db.commit()


async def _forgive(db: AsyncSession, email: str) -> None:
    """A right password forgives this account's earlier failures (and the attempt just counted)."""
    await db.execute(delete(LoginAttempt).where(LoginAttempt.email == email))


# Logins checked at once per process; the others queue here, before taking a pooled connection. A login uses a
# connection for its counts and then waits for a hashing slot (`passwords.HASH_CONCURRENCY`), so without this a
# hundred at once took every connection of the pool in turn and `/api/health` (or any other request) queued behind
# all of them for seconds. Four keep the password checks busy and leave the rest of the pool free.
LOGIN_CONCURRENCY = 4
_login_slots = LoopLimiter(LOGIN_CONCURRENCY)


async def login(
    db: AsyncSession, settings: Settings, *, email: str, password: str, selected_role: str, client: str
) -> IssuedSession:
    async with _login_slots.get():
        return await _login(db, settings, email=email, password=password, selected_role=selected_role, client=client)


async def _login(
    db: AsyncSession, settings: Settings, *, email: str, password: str, selected_role: str, client: str
) -> IssuedSession:
    user = (await db.execute(select(User).where(User.email == email))).scalar_one_or_none()
    await _admit_attempt(db, settings, email, client)
    valid = await verify_password(user.password_hash if user else None, password)
    if not valid or user is None or user.invited:
        LOGIN_FAILURES.inc()
        raise Unauthorized(INVALID_CREDENTIALS, code="invalid_credentials")  # the attempt stays counted
    if user.disabled:
        LOGIN_FAILURES.inc()
        raise Forbidden(account_disabled_message(settings), code="account_disabled")  # the attempt stays counted
    await _forgive(db, email)
    refusal = _portal_refusal(selected_role, user.role)
    if refusal is not None:
        await db.commit()  # the password was right: keep the forgiveness although the answer is an error
        raise refusal
    return await create_session(db, settings, user)


def _portal_refusal(selected_role: str, role: str) -> Forbidden | None:
    """Educators log in at the educator portal, admins only at /admin/login, and nobody else there."""
    if selected_role == Role.ADMIN and role != Role.ADMIN:
        return Forbidden(ADMIN_ONLY, code="admin_only")
    if role == Role.ADMIN and selected_role != Role.ADMIN:
        return Forbidden(ADMIN_PORTAL, code="admin_portal")
    if selected_role == Role.EDUCATOR and role != Role.EDUCATOR:
        return Forbidden(EDUCATOR_ONLY, code="educator_only")
    return None


async def confirm_password(db: AsyncSession, settings: Settings, user: User, password: str, client: str) -> bool:
    """Check a logged-in user's password (e.g. before changing it) under the same limits as logging in,
    so a stolen session cannot be used to guess the password."""
    await _admit_attempt(db, settings, user.email, client)
    if not await verify_password(user.password_hash, password):
        LOGIN_FAILURES.inc()
        return False
    await _forgive(db, user.email)
    return True


async def create_session(db: AsyncSession, settings: Settings, user: User) -> IssuedSession:
    token = secrets.token_urlsafe(32)  # 256 bits
    now = utcnow()
    expires_at = now + timedelta(days=settings.session_days)
    user.last_seen_at = now
    db.add(
        Session(user_id=user.id, token_hash=hash_token(token), created_at=now, refreshed_at=now, expires_at=expires_at)
    )
    await db.flush()
    return IssuedSession(token=token, user=user, expires_at=expires_at)


_SESSIONS = Session.__table__
_USERS = User.__table__
# Every column of the user (named as the model's attributes), so routes can be given the whole `User`.
_USER_KEYS = tuple(User.__mapper__.columns.keys())
# The live session of a token with its user, compiled once and read on the driver's connection (see
# `db.DriverQuery`): every request the session cache cannot answer runs it.
_SESSION_LOOKUP = DriverQuery(
    select(
        _SESSIONS.c.id.label("session_id"),
        _SESSIONS.c.refreshed_at,
        _SESSIONS.c.expires_at,
        *(column.label(key) for key, column in User.__mapper__.columns.items()),
    )
    .join_from(_SESSIONS, _USERS, _USERS.c.id == _SESSIONS.c.user_id)
    .where(_SESSIONS.c.token_hash == bindparam("token_hash", type_=String))
)


async def resolve_session(reader: DriverReader, token_hash: str) -> Login | None:
    """The live session of a token: one round trip, plain columns (no ORM entities)."""
    rows = await reader.rows(_SESSION_LOOKUP, token_hash=token_hash)
    if not rows:
        return None
    row = rows[0]
    user_columns = {key: row[key] for key in _USER_KEYS}
    if row["expires_at"] <= utcnow():
        return None
    if user_columns["disabled"]:
        # A disabled member's sessions are kept (dead) until they are enabled again, so an open tab learns why.
        raise Unauthorized(ACCOUNT_WAS_DISABLED, code="account_disabled")
    return Login(row["session_id"], row["refreshed_at"], row["expires_at"], user_columns)


async def live_session_ids(db: AsyncSession, user_ids: Iterable[int]) -> set[int]:
    """The ids of the given users' sessions that still work (not deleted, not expired, user not disabled)."""
    rows = await db.execute(
        select(Session.id)
        .join(User, User.id == Session.user_id)
        .where(Session.user_id.in_(list(user_ids)), Session.expires_at > utcnow(), User.disabled.is_(False))
    )
    return set(rows.scalars())


ONE_HOUR = timedelta(hours=1)


def slide_due(refreshed_at: datetime, settings: Settings, now: datetime | None = None) -> bool:
    # Multiplying a constant: building a timedelta from keywords costs more, and every cached request asks.
    return (now or utcnow()) - refreshed_at >= settings.session_refresh_hours * ONE_HOUR


async def slide_session(conn: AsyncConnection, login: Login, settings: Settings) -> Login:
    """Extend a session's lifetime (noting when its user was last seen): the extended login. Callers slide a
    session only when `slide_due` says so, at most once per refresh interval."""
    now = utcnow()
    expires_at = now + timedelta(days=settings.session_days)
    await conn.execute(
        update(Session).where(Session.id == login.session_id).values(refreshed_at=now, expires_at=expires_at)
    )
    # updated_at given, not left to its onupdate, so the login's copy of the row is what the row now holds.
    await conn.execute(update(User).where(User.id == login.user_id).values(last_seen_at=now, updated_at=now))
    user_columns = {**login.user_columns, "last_seen_at": now, "updated_at": now}
    return Login(login.session_id, now, expires_at, user_columns)


async def user_changed(db: AsyncSession, user: User) -> None:
    """Announce (once this transaction commits) that a user's row or sessions changed.

    Every server process then drops what it cached about the user: revoked sessions stop working and
    new names and photos show at once, whichever process serves the next request.
    """
    await publish(db, UserChanged(user_id=user.id, role=user.role))


async def revoke_session(db: AsyncSession, user: User, session_id: int) -> None:
    await db.execute(delete(Session).where(Session.id == session_id))
    await user_changed(db, user)


async def revoke_all_sessions(db: AsyncSession, user: User, *, except_session_id: int | None = None) -> None:
    stmt = delete(Session).where(Session.user_id == user.id)
    if except_session_id is not None:
        stmt = stmt.where(Session.id != except_session_id)
    await db.execute(stmt)
    await user_changed(db, user)


async def purge_expired(db: AsyncSession, settings: Settings) -> tuple[int, int]:
    """Delete expired sessions and login attempts older than the limits' window; returns both counts."""
    now = utcnow()
    sessions = await db.execute(delete(Session).where(Session.expires_at <= now))
    attempts = await db.execute(
        delete(LoginAttempt).where(LoginAttempt.created_at < now - timedelta(minutes=settings.login_window_minutes))
    )
    return int(getattr(sessions, "rowcount", 0) or 0), int(getattr(attempts, "rowcount", 0) or 0)


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
    # Hashed before the first read: on SQLite a transaction that has read cannot write once another connection
    # (the running server) has committed in between, and hashing takes long enough for that to happen.
    password_hash = await hash_password(password)
    if (await db.execute(select(User.id).where(User.email == email))).first():
        raise Invalid(f"A user with e-mail {email} already exists")
    user = User(email=email, password_hash=password_hash, role=role, first_name=first_name, last_name=last_name)
    db.add(user)
    await db.flush()
    return user


def active_customer_ids() -> Select[Any]:
    """The ids of customers whose accounts are enabled (those anything may be sent to), as a statement to build on."""
    return select(User.id).where(User.role == Role.CUSTOMER, User.disabled.is_(False))


async def educator_ids(db: AsyncSession, among: Iterable[int] | None = None) -> list[int]:
    """The ids of every educator (or of those among `among`), in order."""
    query = select(User.id).where(User.role == Role.EDUCATOR).order_by(User.id)
    if among is not None:
        query = query.where(User.id.in_(list(among)))
    return list((await db.execute(query)).scalars())


async def set_password(db: AsyncSession, user: User, password: str) -> None:
    validate_new_password(password)
    user.password_hash = await hash_password(password)
    await user_changed(db, user)


async def disable_user(db: AsyncSession, user: User) -> None:
    """No session of the user works from now on (`resolve_session` answers 401 "account_disabled" for them); the rows
    stay so an open tab can say why, and are deleted when the user is enabled (`enable_user`)."""
    user.disabled = True
    await user_changed(db, user)


async def enable_user(db: AsyncSession, user: User) -> None:
    """Enabling brings no earlier session back: they are deleted before the account works again."""
    user.disabled = False
    await revoke_all_sessions(db, user)


def public_user(user: User) -> PublicUser:
    """The one mapping from a user row to what others may see of it (names and pictures by `display_name` and
    `avatar_url`, the rules the idea list also applies to its plain columns)."""
    return PublicUser(
        id=user.id,
        role=user.role,
        first_name=user.first_name,
        last_name=user.last_name,
        name=user.display_name,
        slug=user.slug,
        specialty=user.specialty or None,
        avatar_url=user.avatar_url,
        bio=user.bio,
        years_experience=user.years_experience,
        trading_style=user.trading_style,
    )


async def public_users(db: AsyncSession, ids: Iterable[int]) -> dict[int, PublicUser]:
    """The public form of each of these users that exists, by id."""
    wanted = set(ids)
    if not wanted:
        return {}
    rows = await db.execute(select(User).where(User.id.in_(wanted)))
    return {user.id: public_user(user) for user in rows.scalars()}


async def listed_educators(db: AsyncSession, educator_id: int | None = None) -> list[PublicUser]:
    """Educators shown to customers (enabled, with a public profile), in id order; only `educator_id` if given."""
    query = select(User).where(User.role == Role.EDUCATOR, User.disabled.is_(False), User.is_public.is_(True))
    if educator_id is not None:
        query = query.where(User.id == educator_id)
    return [public_user(user) for user in (await db.execute(query.order_by(User.id))).scalars()]


async def educator_slugs(db: AsyncSession) -> list[str]:
    """The URL slugs of enabled educators, in id order (their pages exist even when their profile is private)."""
    query = select(User.slug).where(User.role == Role.EDUCATOR, User.slug.is_not(None), User.disabled.is_(False))
    return [slug for slug in (await db.execute(query.order_by(User.id))).scalars() if slug]


def current_user_out(user: User) -> CurrentUser:
    """The signed-in user as the login and `GET /api/auth/user` answers show them."""
    return CurrentUser(
        id=user.id,
        role=user.role,
        first_name=user.first_name,
        last_name=user.last_name,
        display_name=user.display_name,
        email=user.email,
        specialty=user.specialty,
        slug=user.slug,
        avatar_url=user.avatar_url,
    )
