"""Several server processes on one PostgreSQL database deliver each other's events (LISTEN/NOTIFY)."""

import asyncio
import os
import signal
import subprocess
import sys
import time
from collections.abc import AsyncIterator
from typing import Any

import asyncpg
import httpx
import pytest
from fastapi import FastAPI

from tests.conftest import CUSTOMER, EDUCATOR_A
from tests.realtime.conftest import HTTP_TIMEOUT, SSEClient, free_port, login_token
from tests.realtime.test_events import emit
from tradeideas.realtime.broker import LISTENER_NAME
from tradeideas.settings import Settings

pytestmark = pytest.mark.skipif(os.environ.get("TEST_DB") != "postgres", reason="several processes need PostgreSQL")


class ServerProcess:
    def __init__(self, settings: Settings) -> None:
        self.port = free_port()
        env = {
            **os.environ,
            "DATABASE_URL": settings.resolved_database_url,
            "DATA_DIR": str(settings.data_dir),
            "DEMO_PASSWORD": settings.demo_password,
            "STATIC_DIR": str(settings.static_dir),
            "LOG_LEVEL": "warning",
        }
        args = ["-m", "uvicorn", "tradeideas.app:create_app", "--factory", "--host", "127.0.0.1"]
        args += ["--port", str(self.port), "--log-level", "warning"]
        self.proc = subprocess.Popen([sys.executable, *args], env=env)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    async def ready(self) -> None:
        deadline = time.monotonic() + 180  # a hang guard: on a busy machine starting takes a while
        async with httpx.AsyncClient(timeout=HTTP_TIMEOUT, base_url=self.url) as c:
            while time.monotonic() < deadline:
                try:
                    if (await c.get("/api/health")).status_code == 200:
                        return
                except httpx.TransportError:
                    pass
                assert self.proc.poll() is None, "server process exited"
                await asyncio.sleep(0.1)
        raise RuntimeError("server process did not start")

    def stop(self) -> float:
        """SIGTERM, as a supervisor would; returns how long the process took to exit."""
        started = time.monotonic()
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        return time.monotonic() - started


@pytest.fixture
async def two_servers(settings: Settings) -> AsyncIterator[tuple[ServerProcess, ServerProcess]]:
    a, b = ServerProcess(settings), ServerProcess(settings)
    try:
        await asyncio.gather(a.ready(), b.ready())
        yield a, b
    finally:
        a.stop()
        b.stop()


async def test_events_reach_clients_of_every_process(
    app: FastAPI, two_servers: tuple[ServerProcess, ServerProcess]
) -> None:
    a, b = two_servers
    customer = await login_token(a.url, CUSTOMER, "customer")
    educator = await login_token(b.url, EDUCATOR_A, "educator")
    async with (
        SSEClient(a.url, customer) as on_a,
        SSEClient(b.url, customer) as on_b,
        SSEClient(b.url, educator) as educator_on_b,
    ):
        # Committed anywhere (here: this test process) reaches both processes, audience rules included.
        await emit(app, "idea.updated", {"secret": True}, "educators")
        shared = await emit(app, "idea.updated", {"n": 1})
        assert (await on_a.next()).id == str(shared)
        assert (await on_b.next()).id == str(shared)
        assert [(await educator_on_b.next()).data for _ in range(2)] == [{"secret": True}, {"n": 1}]

        # Stopping A ends its streams at once (uvicorn would otherwise wait for them) ...
        assert a.stop() < 10
        assert await on_a.ended()
        missed = await emit(app, "idea.deleted", {"n": 2})
    # ... and its clients resume on B from their last event id without losing anything.
    async with SSEClient(b.url, customer, last_event_id=str(shared)) as resumed:
        event = await resumed.next()
        assert (event.id, event.data) == (str(missed), {"n": 2})


async def _publish_idea(url: str, educator_token: str, **fields: str) -> dict[str, Any]:
    body = {"marketType": "Forex", "orderType": "BUY", "ideaType": "Leverage", "pair": "GBP/USD", "timeFrame": "4H",
            "entry1": "1.2650", "invalidationLevel": "1.2600", "exit1": "1.2750", **fields}  # fmt: skip
    async with httpx.AsyncClient(
        timeout=HTTP_TIMEOUT, base_url=url, headers={"Authorization": f"Bearer {educator_token}"}
    ) as http:
        r = await http.post("/api/trade-ideas", json=body)
        assert r.status_code == 201, r.text
        created: dict[str, Any] = r.json()
        return created


async def test_idea_created_through_one_process_reaches_clients_of_another(
    two_servers: tuple[ServerProcess, ServerProcess],
) -> None:
    a, b = two_servers
    customer = await login_token(b.url, CUSTOMER, "customer")
    educator = await login_token(a.url, EDUCATOR_A, "educator")
    async with SSEClient(b.url, customer) as on_b, SSEClient(a.url, customer) as on_a:
        idea = await _publish_idea(a.url, educator, pair="GBP/USD")
        created = await on_b.next()
        assert created.type == "idea.created" and created.data["id"] == idea["id"]
        assert created.data["pair"] == "GBP/USD"
        assert (await on_a.next()).id == created.id


async def _eventually_status(http: httpx.AsyncClient, path: str, status: int, seconds: float = 5) -> None:
    """Another process hears a change when PostgreSQL delivers its NOTIFY: milliseconds, not a request later."""
    deadline = time.monotonic() + seconds
    while (r := await http.get(path)).status_code != status:
        assert time.monotonic() < deadline, f"{path} still answers {r.status_code}"
        await asyncio.sleep(0.02)


async def test_logout_in_one_process_ends_the_session_cached_by_another(
    two_servers: tuple[ServerProcess, ServerProcess],
) -> None:
    a, b = two_servers
    token = await login_token(a.url, CUSTOMER, "customer")
    headers = {"Authorization": f"Bearer {token}"}
    async with httpx.AsyncClient(timeout=HTTP_TIMEOUT, base_url=b.url, headers=headers) as on_b:
        assert (await on_b.get("/api/trade-ideas?market=forex&status=active")).status_code == 200  # B caches it
        async with httpx.AsyncClient(timeout=HTTP_TIMEOUT, base_url=a.url, headers=headers) as on_a:
            assert (await on_a.post("/api/auth/logout")).status_code == 204
        await _eventually_status(on_b, "/api/trade-ideas?market=forex&status=active", 401)


async def test_an_idea_created_in_one_process_shows_in_anothers_cached_list(
    two_servers: tuple[ServerProcess, ServerProcess],
) -> None:
    a, b = two_servers
    customer = await login_token(b.url, CUSTOMER, "customer")
    educator = await login_token(a.url, EDUCATOR_A, "educator")
    path = "/api/trade-ideas?market=crypto&status=active"
    async with httpx.AsyncClient(
        timeout=HTTP_TIMEOUT, base_url=b.url, headers={"Authorization": f"Bearer {customer}"}
    ) as on_b:
        before = {i["id"] for i in (await on_b.get(path)).json()["items"]}  # B caches the page
        created = await _publish_idea(a.url, educator, marketType="Crypto", ideaType="Exchange", pair="SOL/USDT")
        assert created["id"] not in before
        deadline = time.monotonic() + 5
        while created["id"] not in {i["id"] for i in (await on_b.get(path)).json()["items"]}:
            assert time.monotonic() < deadline, "the other process kept serving its old page"
            await asyncio.sleep(0.02)


async def test_a_cut_listener_degrades_gently_and_reconnects(
    two_servers: tuple[ServerProcess, ServerProcess], settings: Settings
) -> None:
    """With the LISTEN connections cut, processes keep answering from short-lived caches and reconnect."""
    a, b = two_servers
    customer = await login_token(b.url, CUSTOMER, "customer")
    educator = await login_token(a.url, EDUCATOR_A, "educator")
    path = "/api/trade-ideas?market=crypto&status=active"
    dsn = settings.resolved_database_url.replace("postgresql+asyncpg://", "postgresql://")
    admin = await asyncpg.connect(dsn)
    try:
        cut = await admin.fetchval(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity"
            " WHERE application_name = $1 AND datname = current_database()",
            LISTENER_NAME,
        )
        assert cut >= 2
    finally:
        await admin.close()
    async with httpx.AsyncClient(
        timeout=HTTP_TIMEOUT, base_url=b.url, headers={"Authorization": f"Bearer {customer}"}
    ) as on_b:
        for _ in range(20):
            assert (await on_b.get(path)).status_code == 200  # no errors while reconnecting
        created = await _publish_idea(a.url, educator, marketType="Crypto", ideaType="Exchange", pair="ADA/USDT")
        deadline = time.monotonic() + 10
        while created["id"] not in {i["id"] for i in (await on_b.get(path)).json()["items"]}:
            assert time.monotonic() < deadline, "the other process kept serving its old page"
            await asyncio.sleep(0.05)
        while (await on_b.get("/api/health")).json()["events"] != "live":
            assert time.monotonic() < deadline + 30, "the listener did not reconnect"
            await asyncio.sleep(0.1)


async def test_logout_in_one_process_ends_the_sessions_streams_in_another(
    two_servers: tuple[ServerProcess, ServerProcess],
) -> None:
    a, b = two_servers
    token = await login_token(a.url, CUSTOMER, "customer")
    async with SSEClient(b.url, token) as through_route:
        async with httpx.AsyncClient(
            timeout=HTTP_TIMEOUT, base_url=b.url, headers={"Authorization": f"Bearer {token}"}
        ) as on_b:
            assert (await on_b.get("/api/auth/user")).status_code == 200  # B caches the session
        async with SSEClient(b.url, token) as with_cached_session:
            async with httpx.AsyncClient(
                timeout=HTTP_TIMEOUT, base_url=a.url, headers={"Authorization": f"Bearer {token}"}
            ) as on_a:
                assert (await on_a.post("/api/auth/logout")).status_code == 204
            assert await through_route.ended()
            assert await with_cached_session.ended()
