"""Desk fixtures: a second customer, and every test starting with no journal entries or risk settings (the demo
customer's seeded journal included)."""

from collections.abc import AsyncIterator

import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy import delete

from tests.conftest import customer_client
from tradeideas.core.deps import component_of
from tradeideas.desk.models import IdeaTaken, JournalEntry, RiskSettings
from tradeideas.ideas.cache import IdeaCache
from tradeideas.trackrecords.cache import TrackRecordCache

CUSTOMER_B = "desk.customer@example.com"


async def _empty_desks(app: FastAPI) -> None:
    async with app.state.db.sessionmaker() as s, s.begin():
        await s.execute(delete(JournalEntry))
        await s.execute(delete(IdeaTaken))
        await s.execute(delete(RiskSettings))
    # Deleted behind the events' back: pages and records showing "taken" and followers are read anew.
    component_of(app, IdeaCache).drop_pages()
    component_of(app, TrackRecordCache).drop_all()


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
