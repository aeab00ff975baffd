"""Desk fixtures: a second customer, and no journal entries or risk settings left between tests."""

from collections.abc import AsyncIterator

import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy import delete

from tests.conftest import customer_client
from tradeideas.desk.models import JournalEntry, RiskSettings

CUSTOMER_B = "desk.customer@example.com"


@pytest.fixture(autouse=True)
async def _clean_desk(app: FastAPI) -> AsyncIterator[None]:
    yield
    async with app.state.db.sessionmaker() as s, s.begin():
        await s.execute(delete(JournalEntry))
        await s.execute(delete(RiskSettings))


@pytest.fixture
async def customer_b(app: FastAPI) -> AsyncIterator[httpx.AsyncClient]:
    c = await customer_client(app, CUSTOMER_B, "Desk", "Two")
    yield c
    await c.aclose()
