"""Test fixtures: a migrated, seeded database per run (SQLite or PostgreSQL) and logged-in clients.

Choose the database with TEST_DB=sqlite (default) or TEST_DB=postgres (the local server at
127.0.0.1:5432, reached through its database `test`, or TEST_POSTGRES_URL). Each run creates its own
database there and drops it afterwards, so parallel runs never share tables. A missing PostgreSQL is an
error, not a skip.
"""

import asyncio
import os
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from pathlib import Path

import asyncpg
import httpx
import pytest
from asgi_lifespan import LifespanManager
from fastapi import FastAPI
from sqlalchemy import delete, select

from tradeideas.app import create_app
from tradeideas.auth import service as auth_service
from tradeideas.auth.cache import SessionCache
from tradeideas.auth.models import LoginAttempt, Role, User
from tradeideas.billing import service as billing_service
from tradeideas.cli import migrate
from tradeideas.core.deps import component_of, register_components
from tradeideas.runtime import Background
from tradeideas.seed import seed_demo
from tradeideas.settings import Settings

DEMO_PASSWORD = "test-demo-password"
CUSTOMER = "customer@example.com"
EDUCATOR_A = "educator1@example.com"
EDUCATOR_B = "educator2@example.com"
ADMIN = "admin@example.com"
POSTGRES_URL = os.environ.get("TEST_POSTGRES_URL", "postgresql+asyncpg://postgres@127.0.0.1:5432/test")


async def _admin(sql: str) -> None:
    conn = await asyncpg.connect(POSTGRES_URL.replace("postgresql+asyncpg://", "postgresql://"))
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


@pytest.fixture(scope="session")
def settings(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Settings]:
    data_dir: Path = tmp_path_factory.mktemp("data")
    backend = os.environ.get("TEST_DB", "sqlite")
    run_db = f"tradeideas_test_{os.getpid()}"
    if backend == "postgres":
        asyncio.run(_admin(f"DROP DATABASE IF EXISTS {run_db} WITH (FORCE)"))
        asyncio.run(_admin(f"CREATE DATABASE {run_db}"))
        url = POSTGRES_URL.rsplit("/", 1)[0] + f"/{run_db}"
    elif backend == "sqlite":
        url = f"sqlite+aiosqlite:///{data_dir / 'test.db'}"
    else:
        raise pytest.UsageError(f"TEST_DB must be sqlite or postgres, not {backend!r}")
    s = Settings(
        data_dir=data_dir,
        database_url=url,
        demo_password=DEMO_PASSWORD,
        static_dir=data_dir / "no-spa",
        channel_url="https://example.com/channel",
        # The fake push services of the tests listen on 127.0.0.1 (plain http is allowed only when listed).
        push_endpoint_hosts=Settings.model_fields["push_endpoint_hosts"].default + ",127.0.0.1",
        # Tests run housekeeping themselves, with a controlled clock (tests/test_housekeeping.py).
        housekeeping_interval_seconds=0,
        # Tests run price checks themselves, against a local feed (tests/prices).
        price_feed="off",
        # Hundreds of history ideas would slow every run's seed; tests/ledger seeds them in its own database.
        demo_history=False,
    )
    migrate(s)
    yield s
    if backend == "postgres":
        asyncio.run(_admin(f"DROP DATABASE IF EXISTS {run_db} WITH (FORCE)"))


@asynccontextmanager
async def seeded_app(settings: Settings) -> AsyncIterator[FastAPI]:
    """A started, seeded app with the background work beside it, as a `tradeideas worker` process runs it, here on
    the app's own event bus so that a test's commit wakes the push delivery at once; tests reach its leader as the
    app's."""
    application = create_app(settings)
    async with LifespanManager(application):
        background = Background(application.state.runtime)
        await background.start()
        register_components(application, background.leader)
        try:
            async with application.state.db.sessionmaker() as session, session.begin():
                await seed_demo(session, settings)
            yield application
        finally:
            await background.stop()


@pytest.fixture(scope="session")
async def app(settings: Settings) -> AsyncIterator[FastAPI]:
    async with seeded_app(settings) as application:
        yield application


@pytest.fixture
def postgres(settings: Settings) -> str:
    """The test database's address for asyncpg, for a test about PostgreSQL itself (skipped on SQLite)."""
    if settings.is_sqlite:
        pytest.skip("about PostgreSQL (TEST_DB=postgres)")
    return settings.resolved_database_url.replace("postgresql+asyncpg://", "postgresql://")


@pytest.fixture(autouse=True)
async def _forget_login_failures(app: FastAPI) -> AsyncIterator[None]:
    yield
    async with app.state.db.sessionmaker() as session, session.begin():
        await session.execute(delete(LoginAttempt))


def forget_cached_sessions(app: FastAPI) -> None:
    """For tests that change session rows with SQL, behind the app's back (so without the event that
    would tell every process to drop what it cached)."""
    component_of(app, SessionCache).clear()


def make_client(app: FastAPI) -> httpx.AsyncClient:
    return httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://testserver")


@pytest.fixture
async def anon(app: FastAPI) -> AsyncIterator[httpx.AsyncClient]:
    async with make_client(app) as c:
        yield c


async def customer_client(
    app: FastAPI, email: str, first_name: str, last_name: str, *, access: bool = True
) -> httpx.AsyncClient:
    """A client logged in as another customer (created on first use), for tests of what customers keep private;
    with `access` the new customer holds complimentary access to every educator, as the demo customer does."""
    async with app.state.db.sessionmaker() as s, s.begin():
        if (await s.execute(select(User.id).where(User.email == email))).first() is None:
            user = await auth_service.add_user(
                s, email=email, password=DEMO_PASSWORD, role=Role.CUSTOMER, first_name=first_name, last_name=last_name
            )
            if access:
                await billing_service.add_complimentary(s, None, user.id, None, None)
    return await login_client(app, email)


async def login_client(app: FastAPI, email: str, role: str = "customer") -> httpx.AsyncClient:
    c = make_client(app)
    r = await c.post("/api/auth/login", json={"email": email, "password": DEMO_PASSWORD, "selectedRole": role})
    assert r.status_code == 200, r.text
    return c


@pytest.fixture
async def customer(app: FastAPI) -> AsyncIterator[httpx.AsyncClient]:
    c = await login_client(app, CUSTOMER)
    yield c
    await c.aclose()


@pytest.fixture
async def educator_a(app: FastAPI) -> AsyncIterator[httpx.AsyncClient]:
    c = await login_client(app, EDUCATOR_A, "educator")
    yield c
    await c.aclose()


@pytest.fixture
async def admin(app: FastAPI) -> AsyncIterator[httpx.AsyncClient]:
    c = await login_client(app, ADMIN, "admin")
    yield c
    await c.aclose()


@pytest.fixture
async def educator_b(app: FastAPI) -> AsyncIterator[httpx.AsyncClient]:
    c = await login_client(app, EDUCATOR_B, "educator")
    yield c
    await c.aclose()
