"""`GET /metrics`: who may read it, and what it counts (requests by route template, logins, events)."""

import uuid
from collections.abc import AsyncIterator

import httpx
import pytest
from fastapi import FastAPI

from tests.conftest import CUSTOMER, DEMO_PASSWORD, make_client
from tests.realtime.test_events import emit
from tests.scrape import families, scrape, value
from tradeideas.settings import Settings

ELSEWHERE = ("203.0.113.9", 1234)  # a documentation address: not this machine
TOKEN = "metrics-token-for-tests"

FAMILIES = {
    "tradeideas_http_requests",
    "tradeideas_http_request_duration_seconds",
    "tradeideas_event_streams_open",
    "tradeideas_events_published",
    "tradeideas_event_send_lag_seconds",
    "tradeideas_push_deliveries",
    "tradeideas_push_queue_depth",
    "tradeideas_login_failures",
    "tradeideas_login_lockouts",
}


@pytest.fixture
async def remote(app: FastAPI) -> AsyncIterator[httpx.AsyncClient]:
    """A client connecting from another machine."""
    transport = httpx.ASGITransport(app=app, client=ELSEWHERE)
    async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as client:
        yield client


@pytest.fixture
def metrics_token(settings: Settings, monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setattr(settings, "metrics_token", TOKEN)
    return TOKEN


async def test_loopback_scrape_names_every_family_and_counts_by_route_template(
    anon: httpx.AsyncClient, customer: httpx.AsyncClient
) -> None:
    before = await scrape(anon)
    for _ in range(3):
        assert (await customer.get("/api/trade-ideas/987654")).status_code == 404
    r = await anon.get("/metrics")
    assert r.status_code == 200
    assert families(r.text) >= FAMILIES
    # the template is the label, never the raw path (a bare "987654" can occur inside a float sum)
    assert "/api/trade-ideas/987654" not in r.text
    after = await scrape(anon)
    labels = {"method": "GET", "route": "/api/trade-ideas/{idea_id}", "status": "404"}
    counted = value(after, "tradeideas_http_requests_total", **labels)
    assert counted - value(before, "tradeideas_http_requests_total", **labels) == 3
    timed = {"method": "GET", "route": "/api/trade-ideas/{idea_id}"}
    assert value(after, "tradeideas_http_request_duration_seconds_count", **timed) >= 3
    assert value(after, "tradeideas_http_request_duration_seconds_bucket", le="+Inf", **timed) >= 3


async def test_unknown_paths_share_one_label(anon: httpx.AsyncClient) -> None:
    assert (await anon.get("/api/no-such-thing-5f2c")).status_code == 404
    text = (await anon.get("/metrics")).text
    assert "no-such-thing-5f2c" not in text
    assert 'route="unmatched"' in text


async def test_login_failures_and_lockouts_are_counted(anon: httpx.AsyncClient) -> None:
    before = await scrape(anon)
    email = f"nobody-{uuid.uuid4().hex[:8]}@example.com"
    statuses = []
    for _ in range(6):  # five failures, then the account is locked out
        r = await anon.post("/api/auth/login", json={"email": email, "password": "wrong", "selectedRole": "customer"})
        statuses.append(r.status_code)
    assert statuses == [401] * 5 + [429]
    after = await scrape(anon)
    assert value(after, "tradeideas_login_failures_total") - value(before, "tradeideas_login_failures_total") == 5
    assert value(after, "tradeideas_login_lockouts_total") - value(before, "tradeideas_login_lockouts_total") == 1


async def test_published_events_are_counted_by_type(app: FastAPI, anon: httpx.AsyncClient) -> None:
    before = await scrape(anon)
    await emit(app, "metrics.probe", {"n": 1})
    await emit(app, "metrics.probe", {"n": 2})
    after = await scrape(anon)
    counted = value(after, "tradeideas_events_published_total", type="metrics.probe")
    assert counted - value(before, "tradeideas_events_published_total", type="metrics.probe") == 2


async def test_a_proxied_request_is_not_a_loopback_caller(anon: httpx.AsyncClient) -> None:
    for header in (
        {"X-Forwarded-For": "198.51.100.7"},
        {"X-Forwarded-For": "127.0.0.1, 198.51.100.7"},
        {"Forwarded": 'for="198.51.100.7:4711";proto=https'},
        {"X-Forwarded-For": "unknown"},
    ):
        r = await anon.get("/metrics", headers=header)
        assert r.status_code == 404, header
        assert r.json() == {"message": "Not found", "code": "not_found"}
    # A proxy on this machine passing on a request from this machine: still loopback.
    assert (await anon.get("/metrics", headers={"X-Forwarded-For": "127.0.0.1"})).status_code == 200
    assert (await anon.get("/metrics", headers={"Forwarded": 'for="[::1]"'})).status_code == 200


async def test_other_machines_get_a_404_without_the_token(remote: httpx.AsyncClient) -> None:
    r = await remote.get("/metrics")
    assert r.status_code == 404
    assert "tradeideas_" not in r.text


async def test_the_metrics_token_opens_metrics_to_other_machines(
    app: FastAPI, remote: httpx.AsyncClient, metrics_token: str
) -> None:
    r = await remote.get("/metrics", headers={"Authorization": f"Bearer {metrics_token}"})
    assert r.status_code == 200
    assert "tradeideas_http_requests_total" in r.text
    for wrong in (f"Bearer {metrics_token}x", "Bearer ", metrics_token, f"Basic {metrics_token}"):
        assert (await remote.get("/metrics", headers={"Authorization": wrong})).status_code == 404, wrong
    # A customer's session token is not the metrics token.
    async with make_client(app) as client:
        login = await client.post("/api/auth/login", json={"email": CUSTOMER, "password": DEMO_PASSWORD})
    session_token = login.json()["sessionToken"]
    assert (await remote.get("/metrics", headers={"Authorization": f"Bearer {session_token}"})).status_code == 404
    # Through a proxy, with the token: still served (the token, not the address, is what counts then).
    proxied = {"Authorization": f"Bearer {metrics_token}", "X-Forwarded-For": "198.51.100.7"}
    assert (await remote.get("/metrics", headers=proxied)).status_code == 200
