"""The demo's candles: generated from each seeded idea's levels and outcome, settled offline by the poller, with one
idea whose two verdicts differ."""

from collections.abc import AsyncIterator
from datetime import UTC, datetime

import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy import delete, select

from tradeideas.core.deps import component_of
from tradeideas.core.leader import Leader
from tradeideas.ideas.cache import IdeaCache
from tradeideas.prices.models import IdeaVerification, PriceCandle
from tradeideas.prices.poller import PricePoller
from tradeideas.prices.seed import store_demo_candles
from tradeideas.settings import Settings
from tradeideas.trackrecords.cache import TrackRecordCache


@pytest.fixture
async def clean(app: FastAPI) -> AsyncIterator[None]:
    yield
    async with app.state.db.sessionmaker() as s, s.begin():
        await s.execute(delete(IdeaVerification))
        await s.execute(delete(PriceCandle))
    component_of(app, IdeaCache).clear()
    component_of(app, TrackRecordCache).drop_all()


async def test_demo_candles_settle_the_demo_ideas_offline(app: FastAPI, settings: Settings, clean: None) -> None:
    async with app.state.db.sessionmaker() as db, db.begin():
        await db.execute(delete(PriceCandle))
        assert await store_demo_candles(db, settings, datetime.now(UTC)) > 0
    # No feed answers here (a closed port): the verdicts come from the stored candles alone.
    offline = settings.model_copy(update={"price_feed": "live", "binance_api_url": "http://127.0.0.1:9"})
    async with httpx.AsyncClient() as http:
        poller = PricePoller(app.state.db, offline, component_of(app, Leader), client=http)
        poller.prepare()
        await poller.run_round()
        assert poller.status() == "degraded"
    async with app.state.db.sessionmaker() as db:
        rows = list((await db.execute(select(IdeaVerification).where(IdeaVerification.feed == "binance"))).scalars())
    settled = [r for r in rows if r.state == "settled"]
    assert settled, "the seeded crypto history settles from its candles"
    differs = [r for r in settled if r.educator_outcome is not None and r.outcome != r.educator_outcome]
    assert len(differs) == 1 and differs[0].outcome == "invalidation"
    agree = [r for r in settled if r.outcome == r.educator_outcome]
    assert all(r.r_multiple is not None for r in agree if r.outcome != "not_triggered")
    assert {r.state for r in rows} >= {"settled", "waiting", "triggered"}
