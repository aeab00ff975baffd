"""Bursts of wrong logins against a real server: limits hold however many arrive at once, nothing stalls."""

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from functools import wraps

import httpx
import pytest

from tests.conftest import CUSTOMER
from tests.realtime.conftest import LiveServer
from tradeideas.auth import passwords
from tradeideas.auth import service as auth_service
from tradeideas.settings import Settings

BURST = 60  # concurrent requests: more than the database pool, far more than either limit


@pytest.fixture
async def server(settings: Settings) -> AsyncIterator[LiveServer]:
    live = await LiveServer(settings).start()
    yield live
    await live.stop()


@pytest.fixture
def verified(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every password the server actually hashed to compare (a spy around the real check)."""
    calls: list[str] = []
    real: Callable[[str | None, str], Awaitable[bool]] = passwords.verify_password

    @wraps(real)
    async def counting(stored_hash: str | None, password: str) -> bool:
        calls.append(password)
        return await real(stored_hash, password)

    monkeypatch.setattr(auth_service, "verify_password", counting)
    return calls


async def _burst(url: str, bodies: list[dict[str, str]]) -> list[int]:
    limits = httpx.Limits(max_connections=len(bodies))
    async with httpx.AsyncClient(base_url=url, limits=limits, timeout=120) as client:
        answers = await asyncio.gather(*(client.post("/api/auth/login", json=body) for body in bodies))
        return [r.status_code for r in answers]


async def test_a_burst_of_wrong_logins_for_one_account_checks_at_most_five_passwords(
    server: LiveServer, verified: list[str]
) -> None:
    body = {"email": CUSTOMER, "password": "wrong-password", "selectedRole": "customer"}
    statuses = await _burst(server.url, [body] * BURST)
    assert set(statuses) <= {401, 429}, statuses
    assert statuses.count(401) <= 5
    assert len(verified) <= 5
    assert statuses.count(429) >= BURST - 5


async def test_a_burst_of_wrong_logins_from_one_client_checks_at_most_thirty_passwords(
    server: LiveServer, verified: list[str]
) -> None:
    bodies = [{"email": f"guess{i}@example.com", "password": "x", "selectedRole": "customer"} for i in range(BURST)]
    statuses = await _burst(server.url, bodies)
    assert set(statuses) <= {401, 429}, statuses
    assert statuses.count(401) <= 30
    assert len(verified) <= 30


async def test_a_burst_of_wrong_logins_leaves_the_server_answering(server: LiveServer, verified: list[str]) -> None:
    bodies = [{"email": f"burst{i}@example.com", "password": "x", "selectedRole": "customer"} for i in range(BURST)]
    async with httpx.AsyncClient(base_url=server.url, timeout=120) as client:
        logins = asyncio.gather(*(client.post("/api/auth/login", json=body) for body in bodies))
        health = await client.get("/api/health")
        statuses = [r.status_code for r in await logins]
    assert health.status_code == 200
    assert 500 not in statuses and 503 not in statuses, statuses


async def test_a_hundred_wrong_logins_at_once_get_no_500_and_health_stays_quick(
    server: LiveServer, verified: list[str]
) -> None:
    """100 wrong logins for 100 different accounts from many clients (so no limit refuses them early: each one
    reaches the password check) all get an answer (401 or 429), never a 500 from an exhausted database pool, and
    `/api/health` answers within a second while they run."""
    bodies = [{"email": f"crowd{i}@example.com", "password": "x", "selectedRole": "customer"} for i in range(100)]
    limits = httpx.Limits(max_connections=len(bodies) + 1)
    async with httpx.AsyncClient(base_url=server.url, limits=limits, timeout=120) as client:
        logins = asyncio.gather(
            *(
                client.post("/api/auth/login", json=body, headers={"X-Forwarded-For": f"203.0.113.{i}"})
                for i, body in enumerate(bodies)
            )
        )
        await asyncio.sleep(0.5)  # the logins are in flight
        started = asyncio.get_running_loop().time()
        health = await client.get("/api/health")
        health_seconds = asyncio.get_running_loop().time() - started
        statuses = [r.status_code for r in await logins]
    assert set(statuses) <= {401, 429}, statuses
    assert len(verified) == len(bodies)  # every one was a password check, none refused by a limit
    assert health.status_code == 200
    assert health_seconds < 1, health_seconds
