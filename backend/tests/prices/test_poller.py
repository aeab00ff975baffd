"""The poller against a local feed: ideas adopted, candles fetched once per symbol, steps recorded once, outages
and rate limits waited out without a wrong verdict, unknown symbols unverifiable, restarts resumed."""

import uuid
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy import delete, func, select

from tests.prices.fakefeed import Bar, fake_feed
from tradeideas.core.deps import component_of
from tradeideas.core.leader import Leader
from tradeideas.ideas.cache import IdeaCache
from tradeideas.ideas.models import TradeIdea
from tradeideas.prices.models import IdeaVerification, PriceCandle
from tradeideas.prices.poller import PricePoller
from tradeideas.realtime.models import Event
from tradeideas.settings import Settings
from tradeideas.trackrecords.cache import TrackRecordCache


@pytest.fixture
async def tf(app: FastAPI) -> AsyncIterator[str]:
    """A time frame of the test's own; afterwards its ideas and every price check are gone (the pollers here adopt
    the seeded ideas too, and other tests expect them unchecked)."""
    time_frame = f"P{uuid.uuid4().hex[:10]}"
    async with app.state.db.sessionmaker() as s, s.begin():
        await s.execute(delete(PriceCandle))  # the demo's candles: these tests program the feed themselves
    yield time_frame
    async with app.state.db.sessionmaker() as s, s.begin():
        await s.execute(delete(TradeIdea).where(TradeIdea.time_frame == time_frame))
        await s.execute(delete(IdeaVerification))
        await s.execute(delete(PriceCandle))
    component_of(app, IdeaCache).clear()
    component_of(app, TrackRecordCache).drop_all()


class Now:
    def __init__(self, at: datetime) -> None:
        self.at = at

    def __call__(self) -> datetime:
        return self.at


async def publish(client: httpx.AsyncClient, tf: str, pair: str = "BTC/USDT", market: str = "Crypto") -> dict[str, Any]:
    body = {"marketType": market, "orderType": "BUY", "ideaType": "Leverage", "pair": pair, "timeFrame": tf,
            "entry1": "100", "invalidationLevel": "90", "exit1": "110"}  # fmt: skip
    r = await client.post("/api/trade-ideas", json=body)
    assert r.status_code in (200, 201), r.text
    return dict(r.json())


def minute(moment: datetime) -> int:
    epoch = int(moment.timestamp())
    return epoch - epoch % 60


def poller_for(app: FastAPI, settings: Settings, url: str, now: Now, client: httpx.AsyncClient) -> PricePoller:
    live = settings.model_copy(update={"price_feed": "live", "binance_api_url": url, "oanda_api_url": url,
                                       "oanda_token": "test-token"})  # fmt: skip
    poller = PricePoller(app.state.db, live, component_of(app, Leader), now, client)
    poller.prepare()
    return poller


async def verification(client: httpx.AsyncClient, idea_id: int) -> dict[str, Any]:
    r = await client.get(f"/api/trade-ideas/{idea_id}")
    assert r.status_code == 200
    return dict(r.json()["verification"])


async def steps_published(app: FastAPI, idea_id: int) -> int:
    async with app.state.db.sessionmaker() as db:
        rows = await db.execute(select(Event.payload).where(Event.type == "idea.price_check"))
        return sum(1 for payload in rows.scalars() if payload["ideaId"] == idea_id)


async def test_an_idea_triggers_and_reaches_exit1_through_outages(
    app: FastAPI, settings: Settings, educator_a: httpx.AsyncClient, customer: httpx.AsyncClient, tf: str
) -> None:
    idea = await publish(educator_a, tf)
    published = datetime.fromisoformat(idea["createdAt"].replace("Z", "+00:00"))
    t = minute(published) + 60  # the first whole minute after publishing
    now = Now(datetime.fromtimestamp(t + 90, UTC))
    with fake_feed() as (url, state):
        state.put("BTCUSDT", "1m", [Bar(t - 60, "95", "96", "94", "95"), Bar(t, "95", "97", "94.5", "96"),
                                    Bar(t + 60, "96", "98", "95", "97")])  # fmt: skip
        state.now = t + 90
        async with httpx.AsyncClient() as http:
            poller = poller_for(app, settings, url, now, http)
            done = await poller.run_round()
            assert done.requests == {("binance", "BTCUSDT", "1m"): 1}  # one request for the symbol, not per idea
            shown = await verification(customer, idea["id"])
            assert shown["state"] == "waiting" and shown["feed"] == "binance" and shown["symbol"] == "BTCUSDT"
            assert poller.status() == "ok"

            # Rate limited: nothing changes, and the feed is left alone for its Retry-After.
            state.put("BTCUSDT", "1m", [Bar(t + 120, "97", "101", "96", "100.5")])
            state.now, now.at = t + 170, datetime.fromtimestamp(t + 170, UTC)
            state.fail_next(429, {"code": -1003, "msg": "Too many requests."}, {"Retry-After": "30"})
            await poller.run_round()
            assert (await verification(customer, idea["id"]))["state"] == "waiting"
            assert poller.status() == "degraded"
            again = await poller.run_round()
            assert again.requests == {}  # still within Retry-After

            # Down for a minute, then back: the steps come from the candles, not from the outage.
            poller.health["binance"].blocked_until = 0
            state.down = True
            await poller.run_round()
            assert (await verification(customer, idea["id"]))["state"] == "waiting"
            state.down = False
            poller.health["binance"].blocked_until = 0
            state.put("BTCUSDT", "1m", [Bar(t + 180, "100.5", "110.5", "100", "110")])
            state.now, now.at = t + 250, datetime.fromtimestamp(t + 250, UTC)
            await poller.run_round()
            shown = await verification(customer, idea["id"])
            assert shown["state"] == "settled" and shown["outcome"] == "exit1" and shown["rMultiple"] == 1.0
            assert [r["step"] for r in shown["receipts"]] == ["triggered", "exit1"]
            assert shown["receipts"][0]["candleTime"] == datetime.fromtimestamp(t + 120, UTC).isoformat().replace(
                "+00:00", "Z"
            )
            assert shown["agrees"] is None  # the educator has not called it yet
            steps = await steps_published(app, idea["id"])
            assert steps == 3  # triggered, exit1, settled

            # A restart (a new poller over the same rows) repeats no step.
            restarted = poller_for(app, settings, url, now, http)
            await restarted.run_round()
            assert await steps_published(app, idea["id"]) == steps

    r = await educator_a.put(f"/api/trade-ideas/{idea['id']}", json={"status": "successful", "outcome": "exit1"})
    assert r.status_code == 200, r.text
    assert (await verification(customer, idea["id"]))["agrees"] is True
    record = (await customer.get(f"/api/educators/{idea['educatorId']}/track-record")).json()
    assert record["verified"]["settled"] == 1 and record["verified"]["wins"] == 1
    assert record["verified"]["totalR"] == 1.0 and record["agreementRate"] == 1.0

    r = await customer.get(f"/api/trade-ideas/{idea['id']}/candles")
    assert r.status_code == 200
    candles = r.json()["candles"]
    assert [c["time"] for c in candles][:2] == [t - 60, t] and candles[0]["open"] == 95.0


async def test_unknown_symbols_are_unverifiable(
    app: FastAPI, settings: Settings, educator_a: httpx.AsyncClient, customer: httpx.AsyncClient, tf: str
) -> None:
    idea = await publish(educator_a, tf, pair="NOPE/USDT")
    now = Now(datetime.now(UTC) + timedelta(seconds=1))
    with fake_feed() as (url, state):
        state.put("BTCUSDT", "1m", [])
        async with httpx.AsyncClient() as http:
            await poller_for(app, settings, url, now, http).run_round()
    shown = await verification(customer, idea["id"])
    assert shown["state"] == "unverifiable" and "Invalid symbol" in shown["reason"]


async def test_forex_without_a_token_is_not_verified(
    app: FastAPI, settings: Settings, educator_a: httpx.AsyncClient, customer: httpx.AsyncClient, tf: str
) -> None:
    idea = await publish(educator_a, tf, pair="EUR/USD", market="Forex")
    with fake_feed() as (url, _):
        async with httpx.AsyncClient() as http:
            live = settings.model_copy(update={"price_feed": "live", "binance_api_url": url, "oanda_token": None})
            poller = PricePoller(app.state.db, live, component_of(app, Leader), Now(datetime.now(UTC)), http)
            poller.prepare()
            await poller.run_round()
    shown = await verification(customer, idea["id"])
    assert shown["state"] == "unverifiable" and shown["reason"] == "no forex feed configured"
    async with app.state.db.sessionmaker() as db:
        assert (await db.execute(select(func.count()).select_from(Event))).scalar_one() > 0
