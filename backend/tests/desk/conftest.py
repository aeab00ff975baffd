"""Desk fixtures: a second customer, and every test starting with no journal entries or risk settings (the demo
customer's seeded journal included)."""

from collections.abc import AsyncIterator

import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy import delete

from tests.conftest import customer_client
from tradeideas.desk.models import JournalEntry, RiskSettings

CUSTOMER_B = "desk.customer@example.com"


async def _empty_desks(app: FastAPI) -> None:
    async with app.state.db.sessionmaker() as s, s.begin():
        await s.execute(delete(JournalEntry))
        await s.execute(delete(RiskSettings))


@pytest.fixture(autouse=True)
async def _clean_desk(app: FastAPI) -> AsyncIterator[None]:
    await _empty_desks(app)
    yield
    await _empty_desks(app)


@pytest.fixture
async def customer_b(app: FastAPI) -> AsyncIterator[httpx.AsyncClient]:
    c = await customer_client(app, CUSTOMER_B, "Desk", "Two")
    yield c
    await c.aclose()
