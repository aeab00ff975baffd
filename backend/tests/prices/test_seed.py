"""The demo's candles: generated from each seeded idea's levels and outcome, settled offline by the poller, with one
idea whose two verdicts differ."""

from collections.abc import AsyncIterator
from datetime import UTC, datetime

import aiohttp
import pytest
from fastapi import FastAPI
from sqlalchemy import delete, select

from tradeideas.core.deps import component_of
from tradeideas.core.leader import Leader
from tradeideas.ideas.cache import IdeaCache
from tradeideas.ideas.models import TradeIdea
from tradeideas.ideas.seed import FOREX_PAIRS, SAMPLES
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
    async with aiohttp.ClientSession() as http:
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


async def test_the_demos_forex_ideas_are_checked_out_of_the_box(app: FastAPI, settings: Settings, clean: None) -> None:
    """No OANDA token: forex is checked from Dukascopy's data, and the only idea no feed can check is the index that
    shows what that looks like."""
    fresh = settings.model_copy(update={"oanda_token": None, "forex_feed": None})
    async with app.state.db.sessionmaker() as db, db.begin():
        await db.execute(delete(PriceCandle))
        assert await store_demo_candles(db, fresh, datetime.now(UTC)) > 0
    offline = fresh.model_copy(
        update={"price_feed": "live", "binance_api_url": "http://127.0.0.1:9", "dukascopy_url": "http://127.0.0.1:9"}
    )
    async with aiohttp.ClientSession() as http:
        poller = PricePoller(app.state.db, offline, component_of(app, Leader), client=http)
        poller.prepare()
        await poller.run_round()
    async with app.state.db.sessionmaker() as db:
        rows = (await db.execute(select(IdeaVerification, TradeIdea.pair).join(TradeIdea))).all()
    forex = [r for r, _ in rows if r.feed == "dukascopy"]
    assert any(r.state == "settled" for r in forex), "the seeded forex ideas settle from their candles"
    # Every forex pair of the demo has a feed; the index is the one that shows what "not available" looks like.
    # (Other tests of the session leave ideas of their own, some with levels that are not numbers: not counted.)
    demo_pairs = {pair for pair, *_ in FOREX_PAIRS} | {s[1] for s in SAMPLES}
    missing = {(pair, r.reason) for r, pair in rows if r.state == "unverifiable" and pair in demo_pairs}
    missing = {(pair, reason) for pair, reason in missing if reason and reason.startswith("not available")}
    assert missing == {("SPX500", "not available for SPX500 yet")}
