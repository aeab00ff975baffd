"""The PostgreSQL pool: its check before it hands out a connection (in place of a ping on every checkout: a
connection the server ended is replaced without an error, and only one left unused for a while is pinged), its fixed
size, and reads on its connections through the driver (`Database.reader`, `DriverQuery`)."""

import asyncio
from typing import Any

import asyncpg
import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy import String, bindparam, select

from tradeideas import db as db_module
from tradeideas.auth.cache import SessionCache
from tradeideas.auth.models import User
from tradeideas.core.deps import component_of
from tradeideas.core.leader import LEADER_CONNECTION_PREFIX
from tradeideas.db import Database, DriverQuery
from tradeideas.ideas.cache import IdeaCache
from tradeideas.realtime.broker import LISTENER_NAME
from tradeideas.settings import Settings

LIST = "/api/trade-ideas?market=forex&status=active&limit=100"
# The app's pooled connections to the test database: every backend but this test's own, the LISTEN connection and
# the leader's (its own connection, which holds the advisory lock and comes back a few seconds after it is ended).
APP_BACKENDS = (
    "FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND application_name <> $1"
    f" AND application_name NOT LIKE '{LEADER_CONNECTION_PREFIX}-%'"
)


@pytest.fixture
def uncached(app: FastAPI, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every request reads the database (as with CACHE_ENTRIES=0)."""
    for cache in (component_of(app, IdeaCache), component_of(app, SessionCache)):
        cache.clear()
        monkeypatch.setattr(cache, "_enabled", False)


async def test_connections_the_server_ended_are_replaced_without_an_error(
    app: FastAPI, customer: httpx.AsyncClient, postgres: str, uncached: None
) -> None:
    # Several requests at once, so the pool holds several connections.
    answers = await asyncio.gather(*(customer.get(LIST) for _ in range(8)))
    assert all(r.status_code == 200 for r in answers)
    admin = await asyncpg.connect(postgres)
    try:
        ended = await admin.fetchval(f"SELECT count(pg_terminate_backend(pid)) {APP_BACKENDS}", LISTENER_NAME)
    finally:
        await admin.close()
    assert ended >= 2
    await asyncio.sleep(0.2)  # the event loop sees the closed sockets
    for _ in range(3):
        answers = await asyncio.gather(*(customer.get(LIST) for _ in range(8)), customer.get("/api/health"))
        assert [r.status_code for r in answers] == [200] * 9, [r.text for r in answers if r.status_code != 200]


async def test_only_a_connection_left_unused_for_a_while_is_pinged(
    app: FastAPI, customer: httpx.AsyncClient, postgres: str, uncached: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    dialect = component_of(app, Database).engine.dialect
    pings: list[Any] = []
    ping = dialect.do_ping

    def counted(dbapi_connection: Any) -> bool:
        pings.append(dbapi_connection)
        return ping(dbapi_connection)

    monkeypatch.setattr(dialect, "do_ping", counted)
    assert (await customer.get(LIST)).status_code == 200
    assert (await customer.get(LIST)).status_code == 200
    assert pings == []  # used moments ago
    monkeypatch.setattr(db_module, "PING_AFTER_IDLE_SECONDS", 0.0)
    assert (await customer.get(LIST)).status_code == 200
    assert pings  # idle "longer" than the limit: pinged first


async def test_a_busy_process_keeps_to_its_pool_and_opens_no_connection_beyond_it(
    app: FastAPI, customer: httpx.AsyncClient, settings: Settings, postgres: str, uncached: None
) -> None:
    async def app_backends(admin: asyncpg.Connection) -> set[int]:
        return {row["pid"] for row in await admin.fetch(f"SELECT pid {APP_BACKENDS}", LISTENER_NAME)}

    # Warm the pool up to its size, then load it with many more requests at once than it has connections.
    warm = await asyncio.gather(*(customer.get(LIST) for _ in range(settings.database_pool_size * 2)))
    assert all(r.status_code == 200 for r in warm)
    admin = await asyncpg.connect(postgres)
    try:
        before = await app_backends(admin)
        answers = await asyncio.gather(*(customer.get(LIST) for _ in range(64)))
        after = await app_backends(admin)
    finally:
        await admin.close()
    assert [r.status_code for r in answers] == [200] * 64
    assert len(after) <= settings.database_pool_size
    assert after == before  # every request waited for a pooled connection: none opened, none closed


async def test_values_written_into_a_statement_are_quoted_and_the_rest_stay_parameters(
    app: FastAPI, customer: httpx.AsyncClient
) -> None:
    database = component_of(app, Database)
    users = User.__table__
    query = DriverQuery(
        select(users.c.email).where(
            users.c.email == bindparam("email", value="customer@example.com", type_=String, literal_execute=True),
            users.c.last_name != bindparam("not_named", value="O'Brien", type_=String, literal_execute=True),
            users.c.role == bindparam("role", type_=String),
        )
    )
    compiled = query.compiled(database.engine.dialect)
    assert "'customer@example.com'" in compiled.sql and "'O''Brien'" in compiled.sql
    assert compiled.names == ("role",)
    async with database.reader() as reader:
        assert [row["email"] for row in await reader.rows(query, role="customer")] == ["customer@example.com"]
        assert list(await reader.rows(query, role="educator")) == []


async def test_a_read_cancelled_midway_still_hands_its_connection_back(app: FastAPI) -> None:
    # A client that goes away cancels its request; the pool opens nothing beyond its size, so a connection
    # that never came back would be lost for good. Cancelled twice: in the read, and again on its way back.
    database = component_of(app, Database)
    pool = database.engine.sync_engine.pool
    checked_out = pool.checkedout()  # type: ignore[attr-defined]
    reading = asyncio.Event()

    async def read() -> None:
        async with database.reader():
            reading.set()
            await asyncio.sleep(30)

    task = asyncio.create_task(read())
    await reading.wait()
    assert pool.checkedout() == checked_out + 1  # type: ignore[attr-defined]
    task.cancel()
    await asyncio.sleep(0)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert pool.checkedout() == checked_out  # type: ignore[attr-defined]
    async with database.reader():  # and the pool still hands connections out
        assert pool.checkedout() == checked_out + 1  # type: ignore[attr-defined]
