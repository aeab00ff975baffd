"""Who may call what: the one place where access rules are declared and enforced.

Every API route declares exactly one of `Public`, `AnyUser`, `CustomerOnly`, `EducatorOnly`
(as a dependency or a parameter); ownership of a resource is checked by `ensure_owner`.
The permission test walks every route and fails when one declares nothing.
"""

from typing import Annotated

from fastapi import Depends, Request, Response
from sqlalchemy.ext.asyncio import AsyncSession

from tradeideas.auth import service as auth_service
from tradeideas.auth.cache import CachedLogin, SessionCache
from tradeideas.auth.models import Role, User
from tradeideas.core.deps import AppSettings, DbSession
from tradeideas.core.errors import Forbidden, Unauthorized
from tradeideas.db import utcnow

SESSION_COOKIE = "session"
AUTH_REQUIRED = "Authentication required"
EDUCATOR_REQUIRED = "Access denied: Only authorized educators can access this portal."
CUSTOMER_REQUIRED = "This action is only available to customers"
NOT_OWNER = "You can only change your own content"


class Principal:
    """Who is calling: their id, role and session, and (on first use) their row in the request's session."""

    def __init__(self, db: AsyncSession, session_id: int, user: User) -> None:
        self.id = user.id
        self.role = user.role
        self.session_id = session_id
        self._db = db
        self._user = user

    @property
    def is_educator(self) -> bool:
        return self.role == Role.EDUCATOR

    @property
    def is_customer(self) -> bool:
        return self.role == Role.CUSTOMER

    @property
    def user(self) -> User:
        """The caller's `User`, attached to the request's database session, so changes to it are saved."""
        if self._user not in self._db:
            # A cached copy: adopt it without a query (it was read from the database and never modified).
            self._user = self._db.sync_session.merge(self._user, load=False)
        return self._user


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


def login_from_memory(request: Request) -> CachedLogin | None:
    """The caller's session when this process has it cached and it needs no refresh: no database round trip."""
    token = token_from_request(request)
    return None if token is None else _cached_login(request, auth_service.hash_token(token))


def _cached_login(request: Request, token_hash: str) -> CachedLogin | None:
    cached: CachedLogin | None = request.app.state.session_cache.get(token_hash)
    if cached is None or cached.expires_at <= utcnow():
        return None
    if auth_service.slide_due(cached.refreshed_at, request.app.state.settings):
        return None  # the database path slides it forward and renews the cookie
    return cached


async def _principal(request: Request, response: Response, db: DbSession, settings: AppSettings) -> Principal:
    token = token_from_request(request)
    if token is None:
        raise Unauthorized(AUTH_REQUIRED)
    token_hash = auth_service.hash_token(token)
    cached = _cached_login(request, token_hash)
    if cached is not None:
        return Principal(db, cached.session_id, cached.user)
    cache: SessionCache = request.app.state.session_cache
    generation = cache.generation
    resolved = await auth_service.resolve_session(db, token_hash)
    if resolved is None:
        raise Unauthorized(AUTH_REQUIRED)
    session, user = resolved
    if auth_service.slide_session(session, settings) and request.cookies.get(SESSION_COOKIE) == token:
        set_session_cookie(request, response, token, settings.session_days * 86400)
    cache.put(token_hash, session, user, generation)
    return Principal(db, session.id, user)


async def _any_user(principal: Annotated[Principal, Depends(_principal)]) -> Principal:
    return principal


async def _customer(principal: Annotated[Principal, Depends(_principal)]) -> Principal:
    if not principal.is_customer:
        raise Forbidden(CUSTOMER_REQUIRED, code="customer_only")
    return principal


async def _educator(principal: Annotated[Principal, Depends(_principal)]) -> Principal:
    if not principal.is_educator:
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
