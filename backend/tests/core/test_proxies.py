"""Trusted proxies (FORWARDED_ALLOW_IPS): only they may name the request id, the client address and the scheme."""

import httpx
import pytest
from fastapi import FastAPI
from pydantic import ValidationError
from sqlalchemy import select

from tests.conftest import CUSTOMER
from tradeideas.app import create_app
from tradeideas.auth.models import LoginAttempt
from tradeideas.core.proxies import TrustedProxies
from tradeideas.settings import Settings

PROXY_ID = "edge-7f3a.42:1"


def client_from(app: FastAPI, peer: str) -> httpx.AsyncClient:
    """A client whose requests reach the app from `peer` (the ASGI scope's client, as the server reports it)."""
    transport = httpx.ASGITransport(app=app, client=(peer, 40123))
    return httpx.AsyncClient(transport=transport, base_url="http://testserver")


async def request_id_seen(app: FastAPI, peer: str) -> str:
    async with client_from(app, peer) as c:
        r = await c.get("/api/nope", headers={"X-Request-ID": PROXY_ID})
    assert r.status_code == 404
    return r.headers["x-request-id"]


@pytest.mark.parametrize("peer", ["127.0.0.1", "::1"])
async def test_a_trusted_proxy_keeps_its_request_id(app: FastAPI, peer: str) -> None:
    assert await request_id_seen(app, peer) == PROXY_ID


@pytest.mark.parametrize("peer", ["203.0.113.9", "10.0.0.2", "::ffff:203.0.113.9"])
async def test_an_untrusted_peer_gets_a_fresh_request_id(app: FastAPI, peer: str) -> None:
    request_id = await request_id_seen(app, peer)
    assert request_id != PROXY_ID and len(request_id) == 16


async def request_id_forwarded(app: FastAPI, peer: str, forwarded_for: str) -> str:
    async with client_from(app, peer) as c:
        r = await c.get("/api/nope", headers={"X-Request-ID": PROXY_ID, "X-Forwarded-For": forwarded_for})
    request_id: str = r.headers["x-request-id"]
    return request_id


async def test_trust_is_judged_by_the_peer_not_the_forwarded_client(app: FastAPI) -> None:
    """The proxy layer puts the forwarded client in the peer's place; the edge has judged the peer before."""
    assert await request_id_forwarded(app, "127.0.0.1", "203.0.113.9") == PROXY_ID
    assert await request_id_forwarded(app, "203.0.113.9", "127.0.0.1") != PROXY_ID


async def test_networks_and_star_are_trusted_as_configured(settings: Settings) -> None:
    for allowed, trusted, untrusted in (("10.0.0.0/8, 2001:db8::/32", ["10.1.2.3", "2001:db8::7"], ["127.0.0.1"]),
                                        ("*", ["203.0.113.9", "::1"], [])):  # fmt: skip
        app = create_app(settings.model_copy(update={"forwarded_allow_ips": allowed}))
        try:
            for peer in trusted:
                assert await request_id_seen(app, peer) == PROXY_ID, (allowed, peer)
            for peer in untrusted:
                assert await request_id_seen(app, peer) != PROXY_ID, (allowed, peer)
        finally:
            await app.state.db.dispose()


async def login_client_address(app: FastAPI, peer: str, forwarded_for: str) -> str:
    async with client_from(app, peer) as c:
        r = await c.post(
            "/api/auth/login",
            json={"email": CUSTOMER, "password": "not-the-password", "selectedRole": "customer"},
            headers={"X-Forwarded-For": forwarded_for},
        )
    assert r.status_code == 401, r.text
    async with app.state.db.sessionmaker() as session:
        rows = (await session.execute(select(LoginAttempt.client).where(LoginAttempt.email == CUSTOMER))).scalars()
        clients: list[str] = list(rows)
    assert len(clients) == 1
    return clients[0]


async def test_login_limits_count_the_address_a_trusted_proxy_forwards(app: FastAPI) -> None:
    assert await login_client_address(app, "127.0.0.1", "198.51.100.7") == "198.51.100.7"


async def test_login_limits_count_an_untrusted_peer_by_its_own_address(app: FastAPI) -> None:
    assert await login_client_address(app, "203.0.113.9", "198.51.100.7") == "203.0.113.9"


def test_trusted_proxies_read_addresses_networks_and_star() -> None:
    trusted = TrustedProxies("127.0.0.1, ::1,10.0.0.0/8")
    assert "127.0.0.1" in trusted and "::1" in trusted and "10.200.0.1" in trusted
    assert "127.0.0.2" not in trusted and "11.0.0.1" not in trusted and "localhost" not in trusted
    assert None not in trusted
    assert "anything" in TrustedProxies("*")
    assert "127.0.0.1" in TrustedProxies()  # the default: loopback, as uvicorn's


def test_forwarded_allow_ips_must_be_addresses_networks_or_star() -> None:
    assert Settings(forwarded_allow_ips=" 10.0.0.0/8 ,::1,").forwarded_allow_ips == "10.0.0.0/8,::1"
    for wrong in ("proxy.example.com", "10.0.0.0/33", "127.0.0.1;"):
        with pytest.raises(ValidationError, match="FORWARDED_ALLOW_IPS"):
            Settings(forwarded_allow_ips=wrong)
