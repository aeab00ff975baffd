"""Fixtures of the ledger tests: a database of their own, because `verify-ledger` checks every idea in it and other
tests change ideas behind the app's back (their clean-ups delete rows directly)."""

import asyncio
import os
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import httpx
import pytest
from fastapi import FastAPI

from tests.conftest import DEMO_PASSWORD, EDUCATOR_A, POSTGRES_URL, _admin, login_client, seeded_app
from tradeideas.cli import migrate
from tradeideas.settings import Settings


def own_settings(data_dir: Path, name: str) -> Settings:
    """Settings of a new, empty database called `name` (a file in `data_dir` on SQLite)."""
    if os.environ.get("TEST_DB", "sqlite") == "postgres":
        asyncio.run(_admin(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
        asyncio.run(_admin(f"CREATE DATABASE {name}"))
        url = POSTGRES_URL.rsplit("/", 1)[0] + f"/{name}"
    else:
        url = f"sqlite+aiosqlite:///{data_dir / (name + '.db')}"
    return Settings(
        data_dir=data_dir,
        database_url=url,
        demo_password=DEMO_PASSWORD,
        static_dir=data_dir / "no-spa",
        housekeeping_interval_seconds=0,
        # The ledger's own entries only: price checks (whose steps are ledger entries too) run in tests/prices.
        price_feed="off",
    )


def drop_own(settings: Settings, name: str) -> None:
    if settings.resolved_database_url.startswith("postgresql"):
        asyncio.run(_admin(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)"))


@pytest.fixture(scope="package")
def ledger_settings(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Settings]:
    name = f"tradeideas_ledger_{os.getpid()}"
    s = own_settings(tmp_path_factory.mktemp("ledger"), name)
    migrate(s)
    yield s
    drop_own(s, name)


@pytest.fixture(scope="package")
async def ledger_app(ledger_settings: Settings) -> AsyncIterator[FastAPI]:
    async with seeded_app(ledger_settings) as application:
        yield application


@pytest.fixture
async def teacher(ledger_app: FastAPI) -> AsyncIterator[httpx.AsyncClient]:
    c = await login_client(ledger_app, EDUCATOR_A, "educator")
    yield c
    await c.aclose()
