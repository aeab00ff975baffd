"""Who may call what: the one place where access rules are declared and enforced.

Every API route declares exactly one of `Public`, `SignedIn`, `AnyUser`, `CustomerOnly`, `EducatorOnly`,
`AdminOnly` (as a dependency or a parameter); `AnyUser` means a customer or an educator (admins use only the
admin area); ownership of a resource is checked by `ensure_owner`. `/metrics` declares `MetricsScraper`: not a
role but the caller's address or the metrics token.
The permission test walks every route and fails when one declares nothing.
"""

import hmac
import ipaddress
from typing import Annotated

from fastapi import Depends, Request, Response

from tradeideas.auth import service as auth_service
from tradeideas.auth.cache import Login, SessionCache, user_entity
from tradeideas.auth.models import Role, User
from tradeideas.core.deps import component_of, request_session
from tradeideas.core.errors import Forbidden, NotFound, Unauthorized
from tradeideas.core.middleware import raw_header
from tradeideas.db import Database, utcnow
from tradeideas.settings import Settings

SESSION_COOKIE = "session"
AUTH_REQUIRED = "Authentication required"
EDUCATOR_REQUIRED = "Access denied: Only authorized educators can access this portal."
CUSTOMER_REQUIRED = "This action is only available to customers"
ADMIN_REQUIRED = "This action is only available to administrators"
NOT_FOUND = "Not found"
NOT_FOR_ADMINS = "Administrators use the admin area only"
NOT_OWNER = "You can only change your own content"


class Principal:
    """Who is calling: their id, role and session, and (on first use) their row in the request's session."""

    def __init__(self, request: Request, login: Login) -> None:
        self.id = login.user_id
        self.role = login.role
        self.session_id = login.session_id
        self._request = request
        self._login = login
        self._user: User | None = None

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
        if self._user is None or self._user not in db:
            # Built from the columns the session lookup read: adopted without a query (it was never modified).
            self._user = db.sync_session.merge(user_entity(self._login), load=False)
        return self._user


def token_from_request(request: Request) -> str | None:
    header = (raw_header(request.scope, b"authorization") or b"").decode("latin-1")
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


def _cached_login(cache: SessionCache, settings: Settings, token: str) -> Login | None:
    """The caller's session when this process has it cached and it needs no refresh: no database round trip."""
    cached = cache.get(token)
    if cached is None:
        return None
    now = utcnow()
    if cached.expires_at <= now:
        return None
    if auth_service.slide_due(cached.refreshed_at, settings, now):
        return None  # the database path slides it forward and renews the cookie
    return cached


async def _principal(request: Request, response: Response) -> Principal:
    # Plain calls, not sub-dependencies: this runs on every request, and each dependency FastAPI solves
    # costs more than the lookup. A cached session needs no database at all; otherwise the lookup reads on a
    # short connection of its own, handed back before the route's session is first used, and the sliding
    # renewal (at most once a day per session) runs in a short transaction of its own.
    settings, cache = component_of(request.app, Settings), component_of(request.app, SessionCache)
    token = token_from_request(request)
    if token is None:
        raise Unauthorized(AUTH_REQUIRED)
    cached = _cached_login(cache, settings, token)
    if cached is not None:
        return Principal(request, cached)
    generation = cache.generation
    database = component_of(request.app, Database)
    async with database.reader() as reader:
        login = await auth_service.resolve_session(reader, auth_service.hash_token(token))
    if login is None:
        raise Unauthorized(AUTH_REQUIRED)
    if auth_service.slide_due(login.refreshed_at, settings):  # at most once a day: a transaction only then
        async with database.engine.begin() as conn:
            login = await auth_service.slide_session(conn, login, settings)
        if request.cookies.get(SESSION_COOKIE) == token:
            set_session_cookie(request, response, token, settings.session_days * 86400)
    cache.put(token, login, generation)
    return Principal(request, login)


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


async def _maybe_signed_in(request: Request, response: Response) -> Principal | None:
    """The caller when signed in, else None: for public routes that do more for members (checkout)."""
    if token_from_request(request) is None:
        return None
    try:
        return await _principal(request, response)
    except Unauthorized:
        return None


async def _public() -> None:
    return None


async def _metrics_scraper(request: Request) -> None:
    """Loopback callers, or anyone presenting `Authorization: Bearer <METRICS_TOKEN>`; the rest get the 404 of a
    path that does not exist, so the route is not advertised (decision record 0036)."""
    token = component_of(request.app, Settings).metrics_token
    if token and _bearer_matches(request, token):
        return
    if not _loopback_caller(request):
        raise NotFound(NOT_FOUND)


def _bearer_matches(request: Request, token: str) -> bool:
    header = request.headers.get("authorization", "")
    if not header.lower().startswith("bearer "):
        return False
    return hmac.compare_digest(header[7:].strip().encode(), token.encode())


def _loopback_caller(request: Request) -> bool:
    """The connection comes from this machine and no proxy header names anyone else: a request a reverse proxy
    on this machine passes on (with `X-Forwarded-For` or `Forwarded`) came from elsewhere."""
    if request.client is None or not _is_loopback(request.client.host):
        return False
    forwarded = [part for value in request.headers.getlist("x-forwarded-for") for part in value.split(",")]
    for value in request.headers.getlist("forwarded"):
        for element in value.replace(",", ";").split(";"):
            key, _, address = element.strip().partition("=")
            if key.lower() == "for":
                forwarded.append(address)
    return all(_is_loopback(address) for address in forwarded)


def _is_loopback(address: str) -> bool:
    text = address.strip().strip('"')
    if text.startswith("["):  # `Forwarded: for="[::1]:4711"`
        text = text[1:].partition("]")[0]
    elif text.count(":") == 1:  # an IPv4 address with a port
        text = text.partition(":")[0]
    try:
        parsed = ipaddress.ip_address(text)
    except ValueError:
        return False  # a name, `unknown` or an obfuscated identifier: not provably this machine
    if isinstance(parsed, ipaddress.IPv6Address) and parsed.ipv4_mapped is not None:
        parsed = parsed.ipv4_mapped
    return parsed.is_loopback


# Use these as parameter annotations (to receive the principal) or in `dependencies=[...]`.
SignedIn = Annotated[Principal, Depends(_signed_in)]
AnyUser = Annotated[Principal, Depends(_any_user)]
CustomerOnly = Annotated[Principal, Depends(_customer)]
EducatorOnly = Annotated[Principal, Depends(_educator)]
AdminOnly = Annotated[Principal, Depends(_admin)]
Public = Depends(_public)
# Not an access level: beside `Public`, the caller if signed in.
MaybeSignedIn = Annotated[Principal | None, Depends(_maybe_signed_in)]
MetricsScraper = Depends(_metrics_scraper)

ACCESS_LEVELS = {
    _public: "public",
    _signed_in: "signed_in",
    _any_user: "user",
    _customer: "customer",
    _educator: "educator",
    _admin: "admin",
    _metrics_scraper: "metrics",
}


def ensure_owner(principal: Principal, owner_id: int) -> None:
    if principal.id != owner_id:
        raise Forbidden(NOT_OWNER, code="not_owner")
