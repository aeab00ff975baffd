"""Member administration: the members list, invitations, password resets, disabling and the audit log.

Every admin action writes one audit entry in the same transaction as the change; other domains' changes that
the log must show (an educator deleting an idea or message, a login lockout) reach it through their events,
wired in `create_app`.
"""

import csv
import io
import logging
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from ipaddress import ip_address
from typing import TypeVar

from sqlalchemy import delete, func, or_, select, text, update
from sqlalchemy.ext.asyncio import AsyncSession

from tradeideas.admin.models import AccountToken, AuditEntry, TokenKind
from tradeideas.admin.schemas import (
    AuditItem,
    AuditPage,
    BulkInviteOut,
    BulkInviteRow,
    InviteIn,
    InviteOut,
    LinkInfo,
    Member,
    MemberPage,
    MemberRole,
    MemberState,
    ResetOut,
    normalise_email,
)
from tradeideas.auth import service as auth_service
from tradeideas.auth.events import LoginLockedOut
from tradeideas.auth.models import Role, User
from tradeideas.auth.passwords import hash_password
from tradeideas.billing import service as billing
from tradeideas.billing.events import AccessChanged, PlanChanged
from tradeideas.chat.events import ChatMessageDeleted
from tradeideas.core.errors import AppError, Gone, Invalid, NotFound
from tradeideas.db import utcnow
from tradeideas.ideas.events import IdeaDeleted
from tradeideas.settings import Settings

log = logging.getLogger(__name__)

PAGE_SIZE = 25
MAX_BULK_ROWS = 500
INVITE_LIFETIME = timedelta(days=7)
RESET_LIFETIME = timedelta(hours=24)
# Not an argon2 hash: no password verifies against it (an invited member has none yet).
NO_PASSWORD = "!"  # noqa: S105 - a marker, not a secret

LINK_UNKNOWN = {
    TokenKind.INVITE: "This invitation link is not valid. Ask for a new one.",
    TokenKind.RESET: "This password reset link is not valid. Ask for a new one.",
}
LINK_GONE = {
    TokenKind.INVITE: "This invitation link has expired or was already used. Ask for a new one.",
    TokenKind.RESET: "This password reset link has expired or was already used. Ask for a new one.",
}
LINK_PATH = {TokenKind.INVITE: "invite", TokenKind.RESET: "reset"}
NOT_YOURSELF = "You cannot disable your own account"


# ---- members --------------------------------------------------------------------------------------
def member_state(user: User) -> MemberState:
    if user.disabled:
        return "disabled"
    return "invited" if user.invited else "active"


def member_out(user: User) -> Member:
    return Member(
        id=user.id,
        email=user.email,
        first_name=user.first_name,
        last_name=user.last_name,
        role=Role(user.role).value,
        state=member_state(user),
        created_at=user.created_at,
        last_seen_at=user.last_seen_at,
    )


def _like(text: str) -> str:
    escaped = text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f"%{escaped}%"


async def list_members(
    db: AsyncSession, *, query: str, role: MemberRole | None, state: MemberState | None, page: int
) -> MemberPage:
    """Newest first; `query` matches e-mail, first, last or full name (case-insensitive)."""
    conditions = []
    if query.strip():
        pattern = _like(query.strip())
        full_name = User.first_name + " " + User.last_name
        conditions.append(
            or_(
                User.email.ilike(pattern, escape="\\"),
                User.first_name.ilike(pattern, escape="\\"),
                User.last_name.ilike(pattern, escape="\\"),
                full_name.ilike(pattern, escape="\\"),
            )
        )
    if role is not None:
        conditions.append(User.role == role)
    if state == "disabled":
        conditions.append(User.disabled.is_(True))
    elif state == "invited":
        conditions.extend([User.disabled.is_(False), User.invited.is_(True)])
    elif state == "active":
        conditions.extend([User.disabled.is_(False), User.invited.is_(False)])
    total = (await db.execute(select(func.count()).select_from(User).where(*conditions))).scalar_one()
    rows = await db.execute(
        select(User)
        .where(*conditions)
        .order_by(User.created_at.desc(), User.id.desc())
        .limit(PAGE_SIZE)
        .offset((page - 1) * PAGE_SIZE)
    )
    items = [member_out(user) for user in rows.scalars()]
    return MemberPage(items=items, total=total, page=page, page_size=PAGE_SIZE)


async def get_member(db: AsyncSession, member_id: int) -> User:
    user = await db.get(User, member_id)
    if user is None:
        raise NotFound("No member with this id", code="member_not_found")
    return user


# ---- audit log ------------------------------------------------------------------------------------
async def audit(
    db: AsyncSession,
    actor: User | None,
    action: str,
    target: User | None,
    detail: str = "",
    *,
    target_email: str | None = None,
) -> None:
    """Append an entry; `target_email` names a target with no account (it defaults to the target's e-mail)."""
    if target_email is None:
        target_email = target.email if target else ""
    db.add(
        AuditEntry(
            created_at=utcnow(),
            actor_id=actor.id if actor else None,
            actor_email=actor.email if actor else "",
            action=action,
            target_id=target.id if target else None,
            target_email=target_email,
            detail=detail[:500],
        )
    )
    await db.flush()


async def audit_page(db: AsyncSession, page: int) -> AuditPage:
    total = (await db.execute(select(func.count()).select_from(AuditEntry))).scalar_one()
    rows = await db.execute(
        select(AuditEntry)
        .order_by(AuditEntry.created_at.desc(), AuditEntry.id.desc())
        .limit(PAGE_SIZE)
        .offset((page - 1) * PAGE_SIZE)
    )
    items = [AuditItem.model_validate(row) for row in rows.scalars()]
    return AuditPage(items=items, total=total, page=page, page_size=PAGE_SIZE)


E = TypeVar("E")


def _contained(handler: Callable[[AsyncSession, E], Awaitable[None]]) -> Callable[[AsyncSession, E], Awaitable[None]]:
    """An in-transaction subscriber whose failure is logged and never fails the change it records."""

    async def run(db: AsyncSession, event: E) -> None:
        try:
            async with db.begin_nested():
                await handler(db, event)
        except Exception:
            log.exception("writing an audit entry failed; the change is kept")

    return run


@_contained
async def audit_idea_deleted(db: AsyncSession, event: IdeaDeleted) -> None:
    actor = await db.get(User, event.educator_id) if event.educator_id else None
    await audit(db, actor, "idea.deleted", None, f"Deleted trade idea #{event.id} {event.pair or ''}".strip())


@_contained
async def audit_message_deleted(db: AsyncSession, event: ChatMessageDeleted) -> None:
    actor = await db.get(User, event.user_id) if event.user_id else None
    await audit(db, actor, "chat.message.deleted", None, f"Deleted chat message #{event.id} in room {event.room_id}")


@_contained
async def audit_access_changed(db: AsyncSession, event: AccessChanged) -> None:
    """Every grant made, changed or revoked, by an admin or by Stripe (no actor)."""
    actor = await db.get(User, event.actor_id) if event.actor_id else None
    await audit(db, actor, event.action, await db.get(User, event.user_id), event.detail)


@_contained
async def audit_plan_changed(db: AsyncSession, event: PlanChanged) -> None:
    actor = await db.get(User, event.actor_id) if event.actor_id else None
    await audit(db, actor, event.action, None, event.detail)


INVALID_EMAIL = "(invalid e-mail)"
UNKNOWN_CLIENT = "(unknown client)"
LOCKOUT_ACCOUNT = "Login refused after too many failures for {email} from {client}"
LOCKOUT_CLIENT = "Login refused after too many failures from {client}"
# PostgreSQL advisory locks of the lockout entries (pg_advisory_xact_lock(class, hashtext(key))): a constant that
# no other feature of this database uses, so two refused logins at once do not both write the entry.
_LOCKOUT_LOCK_CLASS = 0x4C4F434B


def recordable_email(email: str) -> str:
    """The e-mail a login named, when it is one; otherwise a placeholder (the field is anyone's text)."""
    try:
        return normalise_email(email)
    except ValueError:
        return INVALID_EMAIL


def recordable_client(client: str) -> str:
    """The client's IP address, when it is one (behind a trusted proxy, the name a caller put in X-Forwarded-For
    is passed on as it came)."""
    try:
        return str(ip_address(client))
    except ValueError:
        return UNKNOWN_CLIENT


def audit_lockout(settings: Settings) -> Callable[[AsyncSession, LoginLockedOut], Awaitable[None]]:
    """One entry per locked e-mail address (account limit) or client address (client limit) and login window,
    however often and from wherever it is hammered meanwhile. Only a valid e-mail and an IP address are written:
    anyone can send a login, and the audit log is read by admins."""

    @_contained
    async def record(db: AsyncSession, event: LoginLockedOut) -> None:
        email, client = recordable_email(event.email), recordable_client(event.client)
        since = utcnow() - timedelta(minutes=settings.login_window_minutes)
        recent = select(AuditEntry.id).where(AuditEntry.action == "login.lockout", AuditEntry.created_at >= since)
        if event.limit == "account":
            key, detail = f"account:{email}", LOCKOUT_ACCOUNT.format(email=email, client=client)
            recent = recent.where(AuditEntry.target_email == email)
        else:  # the client's guesses spread over many e-mails: name none of them
            key, detail = f"client:{client}", LOCKOUT_CLIENT.format(client=client)
            recent = recent.where(AuditEntry.target_email == "", AuditEntry.detail == detail)
        if db.get_bind().dialect.name == "postgresql":  # SQLite runs one writing transaction at a time
            lock = text("SELECT pg_advisory_xact_lock(:class, hashtext(:key))")
            await db.execute(lock, {"class": _LOCKOUT_LOCK_CLASS, "key": key})
        if (await db.execute(recent.limit(1))).first() is not None:
            return
        target = None
        if event.limit == "account" and email != INVALID_EMAIL:
            target = (await db.execute(select(User).where(User.email == email))).scalar_one_or_none()
        await audit(db, None, "login.lockout", target, detail, target_email=email if event.limit == "account" else "")

    return record


# ---- one-use links --------------------------------------------------------------------------------
@dataclass
class IssuedLink:
    url: str
    expires_at: datetime


async def _issue_link(
    db: AsyncSession, kind: TokenKind, user: User, actor: User, lifetime: timedelta, base_url: str
) -> IssuedLink:
    """A fresh one-use link; earlier unused links of the same kind for this member stop working."""
    await db.execute(
        delete(AccountToken).where(
            AccountToken.user_id == user.id, AccountToken.kind == kind, AccountToken.used_at.is_(None)
        )
    )
    token = secrets.token_urlsafe(32)
    now = utcnow()
    db.add(
        AccountToken(
            kind=kind,
            token_hash=auth_service.hash_token(token),
            user_id=user.id,
            created_by_id=actor.id,
            created_at=now,
            expires_at=now + lifetime,
        )
    )
    await db.flush()
    return IssuedLink(f"{base_url.rstrip('/')}/{LINK_PATH[kind]}/{token}", now + lifetime)


async def _redeemable(db: AsyncSession, settings: Settings, kind: TokenKind, token: str) -> tuple[AccountToken, User]:
    """The link's row and member: 404 when it names nothing, 410 when used or expired, or when the member is disabled
    (then saying so, as their login does)."""
    row = (
        await db.execute(
            select(AccountToken, User)
            .join(User, User.id == AccountToken.user_id)
            .where(AccountToken.token_hash == auth_service.hash_token(token), AccountToken.kind == kind)
        )
    ).one_or_none()
    if row is None:
        raise NotFound(LINK_UNKNOWN[kind], code="link_not_found")
    link, user = row
    if user.disabled:
        raise Gone(auth_service.account_disabled_message(settings), code="account_disabled")
    if link.used_at is not None or link.expires_at <= utcnow():
        raise Gone(LINK_GONE[kind], code="link_gone")
    return link, user


async def link_info(db: AsyncSession, settings: Settings, kind: TokenKind, token: str) -> LinkInfo:
    link, user = await _redeemable(db, settings, kind, token)
    return LinkInfo(email=user.email, first_name=user.first_name, expires_at=link.expires_at)


# ---- invitations ----------------------------------------------------------------------------------
async def _existing(db: AsyncSession, emails: list[str]) -> dict[str, User]:
    rows = await db.execute(select(User).where(User.email.in_(emails)))
    return {user.email: user for user in rows.scalars()}


async def invite(db: AsyncSession, actor: User, body: InviteIn, base_url: str) -> InviteOut:
    """Create an invited customer and a 7-day link; inviting someone still invited again gives a new link. A new
    member gets complimentary access to every educator unless `complimentaryAccess` is false."""
    user = (await _existing(db, [body.email])).get(body.email)
    if user is not None and not (user.invited and not user.disabled):
        raise AppError(f"A member with e-mail {body.email} already exists", code="duplicate", status_code=409)
    if user is None:
        user = User(
            email=body.email,
            password_hash=NO_PASSWORD,
            role=Role.CUSTOMER,
            first_name=body.first_name,
            last_name=body.last_name,
            invited=True,
        )
        db.add(user)
        await db.flush()
        if body.complimentary_access:  # an admin's invitation opens every educator unless they say not (0133)
            await billing.add_complimentary(db, actor.id, user.id, None, None)
    link = await _issue_link(db, TokenKind.INVITE, user, actor, INVITE_LIFETIME, base_url)
    await audit(db, actor, "invite.created", user, f"Invited {user.email}")
    return InviteOut(invite_url=link.url, expires_at=link.expires_at, member=member_out(user))


def parse_invite_csv(text: str) -> list[BulkInviteRow]:
    """Rows of `e-mail,first name,last name`, each checked on its own (bad e-mail, repeated in the file)."""
    rows: list[BulkInviteRow] = []
    seen: dict[str, int] = {}
    for line_no, cells in enumerate(csv.reader(io.StringIO(text.lstrip("\ufeff"))), start=1):
        cells = [cell.strip() for cell in cells]
        if not any(cells):
            continue
        if not rows and cells[0].lower() in ("email", "e-mail", "mail"):
            continue  # a header line
        raw_email = cells[0]
        first, last = [*cells[1:3], "", ""][:2]
        row = BulkInviteRow(line=line_no, email=raw_email, first_name=first[:100], last_name=last[:100])
        try:
            row.email = normalise_email(raw_email)
        except ValueError as exc:
            row.error = str(exc)
        else:
            if row.email in seen:
                row.error = f"Duplicate of line {seen[row.email]}"
            seen.setdefault(row.email, line_no)
        rows.append(row)
    return rows


async def bulk_invite(db: AsyncSession, actor: User, text: str, base_url: str) -> BulkInviteOut:
    """One link per row, or (if any row has an error) a 422 listing every row's problem and nothing created."""
    rows = parse_invite_csv(text)
    if not rows:
        raise Invalid("The list is empty: one e-mail,first name,last name per line", code="empty_list")
    if len(rows) > MAX_BULK_ROWS:
        raise Invalid(f"At most {MAX_BULK_ROWS} invitations at once", code="too_many_rows")
    existing = await _existing(db, [row.email for row in rows if row.error is None])
    for row in rows:
        if row.error is None and row.email in existing:
            row.error = "Already a member"
    errors = [row for row in rows if row.error]
    if errors:
        message = f"{len(errors)} of {len(rows)} rows have errors; no invitations were created"
        raise Invalid(message, code="invalid_rows", extra={"rows": [r.model_dump(by_alias=True) for r in rows]})
    for row in rows:
        out = await invite(
            db, actor, InviteIn(email=row.email, first_name=row.first_name, last_name=row.last_name), base_url
        )
        row.invite_url, row.expires_at = out.invite_url, out.expires_at
    return BulkInviteOut(rows=rows)


async def accept_invite(db: AsyncSession, settings: Settings, token: str, password: str) -> auth_service.IssuedSession:
    """Set the new member's password (the CLI's strength rules), use up the link and log them in."""
    link, user = await _redeemable(db, settings, TokenKind.INVITE, token)
    auth_service.validate_new_password(password)
    user.password_hash = await hash_password(password)
    user.invited = False
    link.used_at = utcnow()
    await audit(db, user, "invite.accepted", user)
    return await auth_service.create_session(db, settings, user)


# ---- password resets ------------------------------------------------------------------------------
async def issue_reset(db: AsyncSession, actor: User, member: User, base_url: str) -> ResetOut:
    link = await _issue_link(db, TokenKind.RESET, member, actor, RESET_LIFETIME, base_url)
    await audit(db, actor, "member.password_reset", member, "Issued a password reset link")
    return ResetOut(reset_url=link.url, expires_at=link.expires_at)


async def reset_password(db: AsyncSession, settings: Settings, token: str, password: str) -> auth_service.IssuedSession:
    """Set the password, end every session the member had and log this browser in."""
    link, user = await _redeemable(db, settings, TokenKind.RESET, token)
    await auth_service.set_password(db, user, password)
    await auth_service.revoke_all_sessions(db, user)
    user.invited = False
    link.used_at = utcnow()
    await audit(db, user, "password_reset.used", user)
    return await auth_service.create_session(db, settings, user)


# ---- disable, enable, sign out --------------------------------------------------------------------
async def revoke_links(db: AsyncSession, member: User) -> int:
    """End the member's unused invitation and reset links (they then read as expired); how many there were."""
    now = utcnow()
    ended = await db.execute(
        update(AccountToken)
        .where(AccountToken.user_id == member.id, AccountToken.used_at.is_(None), AccountToken.expires_at > now)
        .values(expires_at=now)
    )
    return int(getattr(ended, "rowcount", 0) or 0)


async def disable(db: AsyncSession, actor: User, member: User) -> Member:
    """Ends the member's sessions, open event streams (every process, at once) and unused invitation and reset
    links for good: enabling the member again does not bring an earlier link back. Their data stays."""
    if member.id == actor.id:
        raise Invalid(NOT_YOURSELF, code="not_yourself")
    if not member.disabled:
        await auth_service.disable_user(db, member)
        revoked = await revoke_links(db, member)
        await audit(db, actor, "member.disabled", member, f"Revoked {revoked} unused link(s)" if revoked else "")
    return member_out(member)


async def enable(db: AsyncSession, actor: User, member: User) -> Member:
    if member.disabled:
        await auth_service.enable_user(db, member)
        await audit(db, actor, "member.enabled", member)
    return member_out(member)


async def sign_out_everywhere(db: AsyncSession, actor: User, member: User) -> Member:
    await auth_service.revoke_all_sessions(db, member)
    await audit(db, actor, "member.signed_out", member, "Signed out everywhere")
    return member_out(member)
