"""Every API route declares who may call it, and the server enforces it for every role.

EXPECTED lists each route with its access level; a new route must be added here, so nothing
becomes public by accident. Ownership (educator A vs educator B on one resource) is tested in
each domain's own tests; here educator B is checked wherever educators are allowed. `/metrics` is
guarded by the caller's address (or the metrics token), not by role: every role is served it from
this machine and gets a 404 from another.
"""

import re
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from fastapi.dependencies.models import Dependant

# Each route as included (full path, merged dependencies), however FastAPI nests the routers.
from fastapi.routing import APIRoute, iter_route_contexts

from tests.conftest import ADMIN, CUSTOMER, EDUCATOR_A, EDUCATOR_B, login_client, make_client
from tradeideas.permissions import ACCESS_LEVELS

EXPECTED: dict[tuple[str, str], str] = {
    ("GET", "/api/health"): "public",
    ("GET", "/api/config"): "public",
    ("POST", "/api/auth/login"): "public",
    ("POST", "/api/auth/logout"): "signed_in",
    ("GET", "/api/auth/user"): "signed_in",
    ("GET", "/api/chat/rooms"): "user",
    ("GET", "/api/chat/rooms/{room_id}/messages"): "user",
    ("POST", "/api/chat/rooms/{room_id}/messages"): "educator",
    ("PATCH", "/api/chat/messages/{message_id}"): "educator",
    ("DELETE", "/api/chat/messages/{message_id}"): "educator",
    ("PUT", "/api/chat/messages/{message_id}/reactions/{kind}"): "user",
    ("DELETE", "/api/chat/messages/{message_id}/reactions/{kind}"): "user",
    ("GET", "/api/me/profile"): "user",
    ("PUT", "/api/me/profile"): "user",
    ("POST", "/api/me/avatar"): "user",
    ("DELETE", "/api/me/avatar"): "user",
    ("POST", "/api/me/password"): "user",
    ("GET", "/api/users/educators"): "user",
    ("GET", "/api/trade-ideas"): "user",
    ("POST", "/api/trade-ideas"): "educator",
    ("POST", "/api/trade-ideas/seen"): "customer",
    ("GET", "/api/trade-ideas/{idea_id}"): "user",
    ("PATCH", "/api/trade-ideas/{idea_id}"): "educator",
    ("PUT", "/api/trade-ideas/{idea_id}"): "educator",
    ("DELETE", "/api/trade-ideas/{idea_id}"): "educator",
    ("PUT", "/api/trade-ideas/{idea_id}/lesson"): "educator",
    ("GET", "/api/trade-ideas/{idea_id}/revisions"): "user",
    ("GET", "/api/me/setups"): "educator",
    ("POST", "/api/me/setups"): "educator",
    ("PATCH", "/api/me/setups/{setup_id}"): "educator",
    ("DELETE", "/api/me/setups/{setup_id}"): "educator",
    ("GET", "/api/educators/{educator_id}/setups"): "user",
    ("GET", "/api/trade-ideas/{idea_id}/candles"): "user",
    ("GET", "/api/me/unseen-counts"): "customer",
    ("GET", "/api/me/notification-settings"): "customer",
    ("PUT", "/api/me/notification-settings"): "customer",
    ("POST", "/api/media"): "educator",
    ("GET", "/api/events"): "user",
    ("GET", "/api/push/public-key"): "user",
    ("POST", "/api/push/subscriptions"): "user",
    ("DELETE", "/api/push/subscriptions"): "user",
    ("POST", "/api/push/test"): "educator",
    ("GET", "/api/educators/track-records"): "user",
    ("GET", "/api/educators/{educator_id}/track-record"): "user",
    ("GET", "/api/educators/{educator_id}/track-record/ideas.csv"): "user",
    ("GET", "/api/educators/{educator_id}/challenge"): "user",
    ("POST", "/api/push/test-notification"): "customer",
    ("GET", "/api/admin/members"): "admin",
    ("POST", "/api/admin/invites"): "admin",
    ("POST", "/api/admin/invites/bulk"): "admin",
    ("POST", "/api/admin/members/{member_id}/disable"): "admin",
    ("POST", "/api/admin/members/{member_id}/enable"): "admin",
    ("POST", "/api/admin/members/{member_id}/password-reset"): "admin",
    ("POST", "/api/admin/members/{member_id}/sign-out"): "admin",
    ("GET", "/api/admin/audit-log"): "admin",
    ("GET", "/api/invites/{token}"): "public",
    ("POST", "/api/invites/{token}/accept"): "public",
    ("GET", "/api/password-resets/{token}"): "public",
    ("POST", "/api/password-resets/{token}"): "public",
    ("GET", "/api/me/risk-settings"): "customer",
    ("PUT", "/api/me/risk-settings"): "customer",
    ("GET", "/api/me/conversion-rates/{from_currency}/{to_currency}"): "customer",
    ("GET", "/api/me/journal"): "customer",
    ("GET", "/api/me/journal/summary"): "customer",
    ("POST", "/api/me/journal"): "customer",
    ("PATCH", "/api/me/journal/{entry_id}"): "customer",
    ("DELETE", "/api/me/journal/{entry_id}"): "customer",
    ("GET", "/api/proof/ledger"): "signed_in",
    ("GET", "/api/proof"): "public",
    ("GET", "/api/proof/days/{date}"): "public",
    ("GET", "/proof/verify_ledger.py"): "public",
    ("GET", "/media/{name}"): "public",
    ("GET", "/metrics"): "metrics",
    ("GET", "/api/plans"): "public",
    ("GET", "/api/admin/plans"): "admin",
    ("POST", "/api/admin/plans"): "admin",
    ("PATCH", "/api/admin/plans/{plan_id}"): "admin",
    ("GET", "/api/admin/grants"): "admin",
    ("POST", "/api/admin/grants"): "admin",
    ("DELETE", "/api/admin/grants/{grant_id}"): "admin",
    ("GET", "/api/me/billing"): "customer",
    ("POST", "/api/billing/checkout"): "public",
    ("POST", "/api/billing/webhook"): "public",
    ("GET", "/api/billing/checkout/{session_id}"): "public",
    ("POST", "/api/billing/checkout/{session_id}/account"): "public",
    ("POST", "/api/billing/portal"): "customer",
}
# Not a role rule: served to loopback callers (the clients below connect from 127.0.0.1) or with the token.
BY_ADDRESS = "metrics"
ELSEWHERE = ("203.0.113.9", 1234)
SPA_FALLBACK = "/{path:outside_api}"  # the web app's pages: public by nature, declares nothing


def _levels(dependant: Dependant) -> set[str]:
    found = {ACCESS_LEVELS[dependant.call]} if dependant.call in ACCESS_LEVELS else set()
    for sub in dependant.dependencies:
        found |= _levels(sub)
    return found


def _api_routes(app: FastAPI) -> list[tuple[str, str, set[str]]]:
    routes = []
    for route in iter_route_contexts(app.routes):
        if isinstance(route.original_route, APIRoute) and route.path != SPA_FALLBACK:
            for method in sorted((route.methods or set()) - {"HEAD", "OPTIONS"}):
                routes.append((method, str(route.path_format), _levels(route.dependant)))
    return routes


def test_every_route_declares_exactly_one_access_level(app: FastAPI) -> None:
    declared = {}
    for method, path, levels in _api_routes(app):
        # "user" is implied by customer/educator; anything else means a route declared two rules.
        effective = (levels - {"user", "signed_in"}) if len(levels) > 1 else set(levels)
        assert len(effective) == 1, f"{method} {path} declares {levels or 'no access level'}"
        declared[(method, path)] = effective.pop()
    assert declared == EXPECTED


def _concrete(path: str) -> str:
    # An id that names nothing: role checks must answer before any lookup, and seeded rows
    # (or another educator's) are never changed or deleted by this sweep.
    return re.sub(r"\{[^}]+\}", "999999", path)


ROLE_ALLOWED = {
    "anonymous": {"public"},
    "customer": {"public", "signed_in", "user", "customer"},
    "educator_a": {"public", "signed_in", "user", "educator"},
    "educator_b": {"public", "signed_in", "user", "educator"},
    "admin": {"public", "signed_in", "admin"},  # admins use the admin area only
}


LOGINS = {
    "customer": (CUSTOMER, "customer"),
    "educator_a": (EDUCATOR_A, "educator"),
    "educator_b": (EDUCATOR_B, "educator"),
    "admin": (ADMIN, "admin"),
}


@pytest.fixture(params=list(ROLE_ALLOWED))
async def role_client(request: pytest.FixtureRequest, app: FastAPI) -> AsyncIterator[tuple[str, httpx.AsyncClient]]:
    role: str = request.param
    client = await login_client(app, *LOGINS[role]) if role in LOGINS else make_client(app)
    yield role, client
    await client.aclose()


async def test_server_enforces_access_for_every_route(role_client: tuple[str, httpx.AsyncClient]) -> None:
    role, client = role_client
    for (method, path), level in EXPECTED.items():
        if path == "/api/auth/logout":
            continue  # would end the fixture's session; covered in tests/auth
        if path == "/api/events" and level in ROLE_ALLOWED[role]:
            continue  # an endless stream (ASGITransport buffers it); streamed for real in tests/realtime
        kwargs: dict[str, Any] = {}
        if method in ("POST", "PUT", "PATCH"):
            kwargs["json"] = {}
        r = await client.request(method, _concrete(path), **kwargs)
        if level == BY_ADDRESS:
            assert r.status_code == 200, f"{role} got {r.status_code} on {method} {path} from this machine"
            continue
        if level in ROLE_ALLOWED[role]:
            assert r.status_code not in (401, 403), f"{role} refused on {method} {path}: {r.text}"
        else:
            expected = 401 if role == "anonymous" else 403
            assert r.status_code == expected, f"{role} got {r.status_code} on {method} {path}"
            assert set(r.json()) >= {"message", "code"}


async def test_address_guarded_routes_are_not_found_from_elsewhere(
    app: FastAPI, role_client: tuple[str, httpx.AsyncClient]
) -> None:
    role, client = role_client
    transport = httpx.ASGITransport(app=app, client=ELSEWHERE)
    async with httpx.AsyncClient(transport=transport, base_url=client.base_url, cookies=client.cookies) as remote:
        for (method, path), level in EXPECTED.items():
            if level == BY_ADDRESS:
                r = await remote.request(method, path)
                assert r.status_code == 404, f"{role} got {r.status_code} on {method} {path} from another machine"
                assert r.json() == {"message": "Not found", "code": "not_found"}
