"""HTTP routes of the admin area (members, invitations, resets, audit log) and of the one-use links."""

from typing import Annotated

from fastapi import Depends, Query, Request, Response

from tradeideas.admin import service
from tradeideas.admin.models import TokenKind
from tradeideas.admin.schemas import (
    AuditPage,
    BulkInviteIn,
    BulkInviteOut,
    BulkInviteRejected,
    InviteIn,
    InviteOut,
    LinkInfo,
    Member,
    MemberPage,
    MemberRole,
    MemberState,
    PasswordIn,
    ResetOut,
)
from tradeideas.auth.schemas import LoginResponse
from tradeideas.auth.service import IssuedSession, current_user_out
from tradeideas.core.deps import AppSettings, DbSession
from tradeideas.core.routing import api_router
from tradeideas.core.schemas import PathId
from tradeideas.permissions import AdminOnly, Public, set_session_cookie
from tradeideas.settings import Settings

router = api_router(prefix="/api/admin", tags=["admin"])
links_router = api_router(prefix="/api", tags=["admin"], dependencies=[Public])

Page = Annotated[int, Query(ge=1, le=100_000)]


def link_base(request: Request, settings: AppSettings) -> str:
    """Where one-use links point: PUBLIC_URL when set, else the address the admin's request came to."""
    return settings.public_url or str(request.base_url)


LinkBase = Annotated[str, Depends(link_base)]


@router.get("/members")
async def list_members(
    principal: AdminOnly,
    db: DbSession,
    query: Annotated[str, Query(max_length=200)] = "",
    role: MemberRole | None = None,
    state: MemberState | None = None,
    page: Page = 1,
) -> MemberPage:
    """Members, newest first: search by e-mail or name, filter by role and state, 25 per page."""
    return await service.list_members(db, query=query, role=role, state=state, page=page)


@router.post("/invites", status_code=201, responses={409: {}})
async def invite_customer(body: InviteIn, principal: AdminOnly, db: DbSession, links: LinkBase) -> InviteOut:
    """Invite a customer: returns a one-use link, valid 7 days, for the admin to send."""
    return await service.invite(db, principal.user, body, links)


@router.post("/invites/bulk", status_code=201, responses={422: {"model": BulkInviteRejected}})
async def invite_customers_bulk(
    body: BulkInviteIn, principal: AdminOnly, db: DbSession, links: LinkBase
) -> BulkInviteOut:
    """Invite many customers from CSV lines: one link per row, or every row's error and nothing created."""
    return await service.bulk_invite(db, principal.user, body.csv, links)


@router.post("/members/{member_id:int}/disable", responses={404: {}})
async def disable_member(member_id: PathId, principal: AdminOnly, db: DbSession) -> Member:
    """Disable a member: their sessions and live event streams end at once; their data stays."""
    return await service.disable(db, principal.user, await service.get_member(db, member_id))


@router.post("/members/{member_id:int}/enable", responses={404: {}})
async def enable_member(member_id: PathId, principal: AdminOnly, db: DbSession) -> Member:
    """Enable a disabled member again."""
    return await service.enable(db, principal.user, await service.get_member(db, member_id))


@router.post("/members/{member_id:int}/password-reset", status_code=201, responses={404: {}})
async def reset_member_password(member_id: PathId, principal: AdminOnly, db: DbSession, links: LinkBase) -> ResetOut:
    """Create a one-use password reset link for a member, valid 24 hours."""
    member = await service.get_member(db, member_id)
    return await service.issue_reset(db, principal.user, member, links)


@router.post("/members/{member_id:int}/sign-out", responses={404: {}})
async def sign_out_member(member_id: PathId, principal: AdminOnly, db: DbSession) -> Member:
    """End every session of a member, on every device."""
    return await service.sign_out_everywhere(db, principal.user, await service.get_member(db, member_id))


@router.get("/audit-log")
async def audit_log(principal: AdminOnly, db: DbSession, page: Page = 1) -> AuditPage:
    """Who did what to whom and when, newest first (append-only)."""
    return await service.audit_page(db, page)


def _logged_in(request: Request, response: Response, settings: Settings, issued: IssuedSession) -> LoginResponse:
    set_session_cookie(request, response, issued.token, settings.session_days * 86400)
    return LoginResponse(message="Login successful", session_token=issued.token, user=current_user_out(issued.user))


@links_router.get("/invites/{token}", responses={404: {}, 410: {}})
async def invite_info(token: str, db: DbSession, settings: AppSettings) -> LinkInfo:
    """Who an invitation link is for, while it can still be used."""
    return await service.link_info(db, settings, TokenKind.INVITE, token)


@links_router.post("/invites/{token}/accept", responses={404: {}, 410: {}})
async def accept_invite(
    token: str, body: PasswordIn, request: Request, response: Response, db: DbSession, settings: AppSettings
) -> LoginResponse:
    """Choose a password with an invitation link; answers like a login and sets the session cookie."""
    issued = await service.accept_invite(db, settings, token, body.password)
    return _logged_in(request, response, settings, issued)


@links_router.get("/password-resets/{token}", responses={404: {}, 410: {}})
async def password_reset_info(token: str, db: DbSession, settings: AppSettings) -> LinkInfo:
    """Who a password reset link is for, while it can still be used."""
    return await service.link_info(db, settings, TokenKind.RESET, token)


@links_router.post("/password-resets/{token}", responses={404: {}, 410: {}})
async def use_password_reset(
    token: str, body: PasswordIn, request: Request, response: Response, db: DbSession, settings: AppSettings
) -> LoginResponse:
    """Set a new password with a reset link; ends every other session and logs this browser in."""
    issued = await service.reset_password(db, settings, token, body.password)
    return _logged_in(request, response, settings, issued)
