"""Position size for crosses, metals and indices (issue #26): the quote -> account rate from the price feed's latest
stored price when a feed is configured; otherwise none, and the customer types it (remembered on the device)."""

from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from decimal import Decimal

import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy import delete

from tradeideas.desk.service import conversion_rate
from tradeideas.prices.models import PriceCandle
from tradeideas.settings import Settings

NOW = datetime(2026, 11, 26, 12, 0, tzinfo=UTC)


def candle(feed: str, symbol: str, at: datetime, close: str) -> PriceCandle:
    return PriceCandle(
        feed=feed, symbol=symbol, granularity={"oanda": "M1", "dukascopy": "T1m"}.get(feed, "1m"),
        time=int(at.timestamp()),
        open=close, high=close, low=close, close=close, complete=True,
    )  # fmt: skip


@pytest.fixture
async def candles(app: FastAPI) -> AsyncIterator[None]:
    rows = [
        candle("oanda", "USD_JPY", NOW - timedelta(minutes=10), "150.00"),
        candle("oanda", "USD_JPY", NOW - timedelta(minutes=1), "156.25"),  # the newest wins
        candle("oanda", "GBP_USD", NOW - timedelta(minutes=2), "1.2650"),
        candle("oanda", "NZD_CHF", NOW - timedelta(days=4), "0.5100"),  # too old to be "latest"
        candle("binance", "ETHBTC", NOW - timedelta(minutes=1), "0.05"),
        candle("dukascopy", "EURCHF", NOW - timedelta(minutes=70), "0.94210"),  # an hour file lags the market
    ]
    async with app.state.db.sessionmaker() as s, s.begin():
        s.add_all(rows)
    yield
    async with app.state.db.sessionmaker() as s, s.begin():
        await s.execute(delete(PriceCandle).where(PriceCandle.symbol.in_([r.symbol for r in rows])))


@pytest.mark.usefixtures("candles")
async def test_the_rate_comes_from_the_latest_stored_price_direct_or_inverted(app: FastAPI, settings: Settings) -> None:
    live = settings.model_copy(update={"price_feed": "live", "oanda_token": "configured"})
    async with app.state.db.sessionmaker() as db:
        direct = await conversion_rate(db, live, "gbp", "USD", NOW)
        assert (direct.rate, direct.feed, direct.as_of) == ("1.265", "oanda", NOW - timedelta(minutes=2))
        inverted = await conversion_rate(db, live, "JPY", "USD", NOW)  # 1 / 156.25
        assert inverted.rate == "0.0064" and Decimal(inverted.rate) * Decimal("156.25") == 1
        assert (await conversion_rate(db, live, "NZD", "CHF", NOW)).rate is None  # four days old
        assert (await conversion_rate(db, live, "BTC", "ETH", NOW)).rate == "20"  # Binance, inverted
        # Without an OANDA token its prices are not used, Dukascopy's are; with the feed off, none are.
        no_oanda = live.model_copy(update={"oanda_token": None})
        assert (await conversion_rate(db, no_oanda, "GBP", "USD", NOW)).rate is None
        assert (await conversion_rate(db, no_oanda, "BTC", "ETH", NOW)).rate == "20"
        swiss = await conversion_rate(db, no_oanda, "EUR", "CHF", NOW)
        assert (swiss.rate, swiss.feed) == ("0.94210", "dukascopy")
        assert (await conversion_rate(db, live, "EUR", "CHF", NOW)).rate is None  # OANDA in use: not Dukascopy's
        off = live.model_copy(update={"price_feed": "off"})
        assert (await conversion_rate(db, off, "GBP", "USD", NOW)).rate is None


@pytest.mark.usefixtures("candles")
async def test_the_route_answers_customers_and_says_when_no_rate_is_known(customer: httpx.AsyncClient) -> None:
    # The test app runs with the feed off: the customer is asked for the rate.
    r = await customer.get("/api/me/conversion-rates/GBP/USD")
    assert r.status_code == 200, r.text
    assert r.json() == {"from": "GBP", "to": "USD", "rate": None, "asOf": None, "feed": None}
    assert (await customer.get("/api/me/conversion-rates/G1P/USD")).status_code == 422
    assert (await customer.get("/api/me/conversion-rates/GBPUSDX/USD")).status_code == 422


async def test_only_customers_may_ask(
    anon: httpx.AsyncClient, educator_a: httpx.AsyncClient, educator_b: httpx.AsyncClient, admin: httpx.AsyncClient
) -> None:
    assert (await anon.get("/api/me/conversion-rates/GBP/USD")).status_code == 401
    for client in (educator_a, educator_b, admin):
        assert (await client.get("/api/me/conversion-rates/GBP/USD")).status_code == 403
