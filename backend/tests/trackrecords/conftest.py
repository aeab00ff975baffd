"""Fixtures of the track-record tests: a movable clock and a time frame of the test's own."""

import uuid
from collections.abc import AsyncIterator, Iterator

import pytest
from fastapi import FastAPI
from sqlalchemy import delete

from tradeideas.core.clock import Clock
from tradeideas.core.deps import component_of
from tradeideas.ideas.models import TradeIdea
from tradeideas.trackrecords.cache import TrackRecordCache
from tradeideas.trackrecords.service import rebuild


@pytest.fixture
def clock(app: FastAPI) -> Iterator[Clock]:
    clock = component_of(app, Clock)
    yield clock
    clock.reset()


@pytest.fixture
async def tf(app: FastAPI) -> AsyncIterator[str]:
    """A time frame of this test's own: filtering on it shows only the ideas the test made. They are removed
    afterwards (some were published "in the future" by the moved clock, and would stay NEW for other tests)."""
    time_frame = f"T{uuid.uuid4().hex[:10]}"
    yield time_frame
    async with app.state.db.sessionmaker() as s, s.begin():
        await s.execute(delete(TradeIdea).where(TradeIdea.time_frame == time_frame))
        await rebuild(s)
    component_of(app, TrackRecordCache).drop_all()  # changed behind the events' back
