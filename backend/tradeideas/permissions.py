"""Who may call what: the one place where access rules are declared and enforced.

Every API route declares exactly one of `Public`, `AnyUser`, `CustomerOnly`, `EducatorOnly`
(as a dependency or a parameter); ownership of a resource is checked by `ensure_owner`.
The permission test walks every route and fails when one declares nothing.
"""

from dataclasses import dataclass
from typing import Annotated

from fastapi import Depends, Request, Response

from tradeideas.auth import service as auth_service
from tradeideas.auth.models import Role, Session, User
from tradeideas.core.deps import AppSettings, DbSession
from tradeideas.core.errors import Forbidden, Unauthorized

SESSION_COOKIE = "session"
AUTH_REQUIRED = "Authentication required"
EDUCATOR_REQUIRED = "Access denied: Only authorized educators can access this portal."
CUSTOMER_REQUIRED = "This action is only available to customers"
NOT_OWNER = "You can only change your own content"


@dataclass
class Principal:
    user: User
    session: Session

    @property
    def id(self) -> int:
        return self.user.id

    @property
    def is_educator(self) -> bool:
        return self.user.role == Role.EDUCATOR


def token_from_request(request: Request) -> str | None:
    header = request.headers.get("authorization", "")
    if header.lower().startswith("bearer "):
        return header[7:].strip() or None
    return request.cookies.get(SESSION_COOKIE) or None


def set_session_cookie(request: Request, response: Response, token: str, max_age_seconds: int) -> None:
    response.set_cookie(
        SESSION_COOKIE,
        token,
        max_age=max_age_seconds,
        httponly=True,
        samesite="strict",
        secure=request.url.scheme == "https" or request.headers.get("x-forwarded-proto") == "https",
        path="/",
    )


def clear_session_cookie(response: Response) -> None:
    response.delete_cookie(SESSION_COOKIE, path="/", httponly=True, samesite="strict")


async def _principal(request: Request, response: Response, db: DbSession, settings: AppSettings) -> Principal:
    token = token_from_request(request)
    resolved = await auth_service.resolve_session(db, token) if token else None
    if resolved is None or token is None:
        raise Unauthorized(AUTH_REQUIRED)
    session, user = resolved
    if auth_service.slide_session(session, settings) and request.cookies.get(SESSION_COOKIE) == token:
        set_session_cookie(request, response, token, settings.session_days * 86400)
    request.state.principal = Principal(user=user, session=session)
    return request.state.principal  # type: ignore[no-any-return]


async def _any_user(principal: Annotated[Principal, Depends(_principal)]) -> Principal:
    return principal


async def _customer(principal: Annotated[Principal, Depends(_principal)]) -> Principal:
    if principal.user.role != Role.CUSTOMER:
        raise Forbidden(CUSTOMER_REQUIRED, code="customer_only")
    return principal


async def _educator(principal: Annotated[Principal, Depends(_principal)]) -> Principal:
    if principal.user.role != Role.EDUCATOR:
        raise Forbidden(EDUCATOR_REQUIRED, code="educator_only")
    return principal


async def _public() -> None:
    return None


# Use these as parameter annotations (to receive the principal) or in `dependencies=[...]`.
AnyUser = Annotated[Principal, Depends(_any_user)]
CustomerOnly = Annotated[Principal, Depends(_customer)]
EducatorOnly = Annotated[Principal, Depends(_educator)]
Public = Depends(_public)

ACCESS_LEVELS = {_public: "public", _any_user: "user", _customer: "customer", _educator: "educator"}


def ensure_owner(principal: Principal, owner_id: int) -> None:
    if principal.id != owner_id:
        raise Forbidden(NOT_OWNER, code="not_owner")
