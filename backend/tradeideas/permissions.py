"""Who may call what: the one place where access rules are declared and enforced.

Every API route declares exactly one of `Public`, `SignedIn`, `AnyUser`, `CustomerOnly`, `EducatorOnly`,
`AdminOnly` (as a dependency or a parameter); `AnyUser` means a customer or an educator (admins use only the
admin area); ownership of a resource is checked by `ensure_owner`.
The permission test walks every route and fails when one declares nothing.
"""

from typing import Annotated

from fastapi import Depends, Request, Response

from tradeideas.auth import service as auth_service
from tradeideas.auth.cache import CachedLogin, SessionCache
from tradeideas.auth.models import Role, User
from tradeideas.core.deps import component_of, request_session
from tradeideas.core.errors import Forbidden, Unauthorized
from tradeideas.db import Database, utcnow
from tradeideas.settings import Settings

SESSION_COOKIE = "session"
AUTH_REQUIRED = "Authentication required"
EDUCATOR_REQUIRED = "Access denied: Only authorized educators can access this portal."
CUSTOMER_REQUIRED = "This action is only available to customers"
ADMIN_REQUIRED = "This action is only available to administrators"
NOT_FOR_ADMINS = "Administrators use the admin area only"
NOT_OWNER = "You can only change your own content"


class Principal:
    """Who is calling: their id, role and session, and (on first use) their row in the request's session."""

    def __init__(self, request: Request, session_id: int, user: User) -> None:
        self.id = user.id
        self.role = user.role
        self.session_id = session_id
        self._request = request
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
        db = request_session(self._request)
        if self._user not in db:
            # A copy read by the session lookup: adopt it without a query (it was never modified).
            self._user = db.sync_session.merge(self._user, load=False)
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


def _cached_login(cache: SessionCache, settings: Settings, token_hash: str) -> CachedLogin | None:
    """The caller's session when this process has it cached and it needs no refresh: no database round trip."""
    cached = cache.get(token_hash)
    if cached is None or cached.expires_at <= utcnow():
        return None
    if auth_service.slide_due(cached.refreshed_at, settings):
        return None  # the database path slides it forward and renews the cookie
    return cached


async def _principal(request: Request, response: Response) -> Principal:
    # Plain calls, not sub-dependencies: this runs on every request, and each dependency FastAPI solves
    # costs more than the lookup. A cached session needs no database at all; otherwise the lookup (and the
    # sliding renewal) uses a short session of its own, closed before the route's session is first used.
    settings, cache = component_of(request.app, Settings), component_of(request.app, SessionCache)
    token = token_from_request(request)
    if token is None:
        raise Unauthorized(AUTH_REQUIRED)
    token_hash = auth_service.hash_token(token)
    cached = _cached_login(cache, settings, token_hash)
    if cached is not None:
        return Principal(request, cached.session_id, cached.user)
    generation = cache.generation
    async with component_of(request.app, Database).sessionmaker() as db, db.begin():
        resolved = await auth_service.resolve_session(db, token_hash)
        if resolved is None:
            raise Unauthorized(AUTH_REQUIRED)
        session, user = resolved
        slid = auth_service.slide_session(session, settings, user)
    if slid and request.cookies.get(SESSION_COOKIE) == token:
        set_session_cookie(request, response, token, settings.session_days * 86400)
    cache.put(token_hash, session, user, generation)
    return Principal(request, session.id, user)


async def _signed_in(request: Request, response: Response) -> Principal:
    return await _principal(request, response)


async def _any_user(request: Request, response: Response) -> Principal:
    principal = await _principal(request, response)
    if principal.role == Role.ADMIN:
        raise Forbidden(NOT_FOR_ADMINS, code="not_for_admins")
    return principal


async def _admin(request: Request, response: Response) -> Principal:
    principal = await _principal(request, response)
    if principal.role != Role.ADMIN:
        raise Forbidden(ADMIN_REQUIRED, code="admin_only")
    return principal


async def _customer(request: Request, response: Response) -> Principal:
    principal = await _principal(request, response)
    if not principal.is_customer:
        raise Forbidden(CUSTOMER_REQUIRED, code="customer_only")
    return principal


async def _educator(request: Request, response: Response) -> Principal:
    principal = await _principal(request, response)
    if not principal.is_educator:
        raise Forbidden(EDUCATOR_REQUIRED, code="educator_only")
    return principal


async def _public() -> None:
    return None


# Use these as parameter annotations (to receive the principal) or in `dependencies=[...]`.
SignedIn = Annotated[Principal, Depends(_signed_in)]
AnyUser = Annotated[Principal, Depends(_any_user)]
CustomerOnly = Annotated[Principal, Depends(_customer)]
EducatorOnly = Annotated[Principal, Depends(_educator)]
AdminOnly = Annotated[Principal, Depends(_admin)]
Public = Depends(_public)

ACCESS_LEVELS = {
    _public: "public",
    _signed_in: "signed_in",
    _any_user: "user",
    _customer: "customer",
    _educator: "educator",
    _admin: "admin",
}


def ensure_owner(principal: Principal, owner_id: int) -> None:
    if principal.id != owner_id:
        raise Forbidden(NOT_OWNER, code="not_owner")
