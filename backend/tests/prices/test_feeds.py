"""The feed clients against a local server speaking the Binance and OANDA protocols."""

from collections.abc import AsyncIterator, Iterator
from decimal import Decimal

import aiohttp
import pytest

from tests.prices.fakefeed import Bar, FeedState, fake_feed
from tradeideas.prices.feeds.base import FeedUnavailable, UnknownSymbol
from tradeideas.prices.feeds.binance import BinanceFeed, binance_symbol
from tradeideas.prices.feeds.oanda import OandaFeed, oanda_instrument

T0 = 1_700_000_040


@pytest.fixture
def feed() -> Iterator[tuple[str, FeedState]]:
    with fake_feed() as served:
        yield served


@pytest.fixture
async def client() -> AsyncIterator[aiohttp.ClientSession]:
    async with aiohttp.ClientSession() as c:
        yield c


def test_symbols() -> None:
    assert binance_symbol("BTC/USDT") == "BTCUSDT"
    assert oanda_instrument("EUR/USD") == "EUR_USD"
    assert oanda_instrument("XAU/USD") == "XAU_USD"
    assert oanda_instrument("eurusd") == "EUR_USD"
    assert oanda_instrument("SPX") is None


async def test_binance_klines_from_the_start_of_the_minute_last_one_open(
    feed: tuple[str, FeedState], client: aiohttp.ClientSession
) -> None:
    url, state = feed
    state.put(
        "BTCUSDT", "1m", [Bar(T0, "100.0", "101.5", "99.5", "101.0"), Bar(T0 + 60, "101.0", "102", "100", "101.5")]
    )
    state.now = T0 + 90
    candles = (await BinanceFeed(client, url).candles("BTCUSDT", "1m", T0 + 17, now=T0 + 90)).candles
    assert state.requests[-1][1]["startTime"] == str(T0 * 1000)
    assert [c.time for c in candles] == [T0, T0 + 60]
    assert candles[0].complete and not candles[1].complete
    assert candles[0].bid.high == Decimal("101.5") and candles[0].ask is None


async def test_binance_unknown_symbol(feed: tuple[str, FeedState], client: aiohttp.ClientSession) -> None:
    url, _ = feed
    with pytest.raises(UnknownSymbol, match="Invalid symbol"):
        await BinanceFeed(client, url).check_symbol("NOPEUSDT", now=T0)
    with pytest.raises(UnknownSymbol):
        await BinanceFeed(client, url).candles("NOPEUSDT", "1m", T0, now=T0)


@pytest.mark.parametrize(
    ("status", "headers", "result", "retry_after"),
    [
        (429, {"Retry-After": "7"}, "rate_limited", 7.0),
        (418, {"Retry-After": "300"}, "banned", 300.0),
        (451, {}, "restricted", 300.0),  # an hour, capped at PRICE_MAX_BACKOFF_SECONDS
        (500, {}, "error", None),
        (503, {}, "error", None),
    ],
)
async def test_binance_errors_are_unavailable_with_their_wait(
    feed: tuple[str, FeedState],
    client: aiohttp.ClientSession,
    status: int,
    headers: dict[str, str],
    result: str,
    retry_after: float | None,
) -> None:
    url, state = feed
    state.put("BTCUSDT", "1m", [Bar(T0, "1", "1", "1", "1")])
    state.fail_next(status, {"code": -1003, "msg": "Too many requests."}, headers)
    with pytest.raises(FeedUnavailable) as caught:
        await BinanceFeed(client, url).candles("BTCUSDT", "1m", T0, now=T0 + 60)
    assert caught.value.result == result and caught.value.retry_after == retry_after


async def test_malformed_answers_never_become_candles(
    feed: tuple[str, FeedState], client: aiohttp.ClientSession
) -> None:
    url, state = feed
    state.put("BTCUSDT", "1m", [Bar(T0, "1", "1", "1", "1")])
    binance = BinanceFeed(client, url)
    state.fail_next(200, raw=b"<html>gateway</html>")
    with pytest.raises(FeedUnavailable, match="not JSON"):
        await binance.candles("BTCUSDT", "1m", T0, now=T0 + 60)
    state.fail_next(200, {"klines": []})  # not the documented array
    with pytest.raises(FeedUnavailable, match="not as documented"):
        await binance.candles("BTCUSDT", "1m", T0, now=T0 + 60)
    state.fail_next(200, [[T0 * 1000, 1.5, 2, 1, 1.5, "1", T0 * 1000 + 59_999]])  # numbers, not strings
    answer = await binance.candles("BTCUSDT", "1m", T0, now=T0 + 60)
    assert answer.candles == [] and [r.reason for r in answer.rejected] == ["price"]
    state.fail_next(200, [[T0 * 1000, "1.5", "1.0", "2.0", "1.5", "1", T0 * 1000 + 59_999]])  # high below low
    answer = await binance.candles("BTCUSDT", "1m", T0, now=T0 + 60)
    assert answer.candles == [] and [r.reason for r in answer.rejected] == ["range"]


async def test_unreachable_feed(client: aiohttp.ClientSession) -> None:
    with fake_feed() as (url, state):
        state.down = True
        with pytest.raises(FeedUnavailable) as caught:
            await BinanceFeed(client, url).candles("BTCUSDT", "1m", T0, now=T0)
        assert caught.value.result == "unreachable"


async def test_oanda_candles_bid_and_ask(feed: tuple[str, FeedState], client: aiohttp.ClientSession) -> None:
    url, state = feed
    state.put(
        "EUR_USD", "M1", [Bar(T0, "1.1000", "1.1010", "1.0990", "1.1005", ("1.1002", "1.1012", "1.0992", "1.1007"))]
    )
    state.now = T0 + 30
    oanda = OandaFeed(client, url, "token")
    candles = (await oanda.candles("EUR_USD", "M1", T0, now=T0 + 30)).candles
    assert state.requests[-1][1]["price"] == "BA"
    assert candles[0].time == T0 and not candles[0].complete
    assert (
        candles[0].bid.close == Decimal("1.1005")
        and candles[0].ask is not None
        and candles[0].ask.close == Decimal("1.1007")
    )
    with pytest.raises(UnknownSymbol, match="instrument"):
        await oanda.candles("FOO_BAR", "M1", T0, now=T0)


async def test_oanda_rate_limit_and_bad_token(feed: tuple[str, FeedState], client: aiohttp.ClientSession) -> None:
    url, state = feed
    state.put("EUR_USD", "M1", [])
    state.fail_next(429, {"errorMessage": "Rate limit exceeded"}, {"Retry-After": "2"})
    with pytest.raises(FeedUnavailable) as caught:
        await OandaFeed(client, url, "token").candles("EUR_USD", "M1", T0, now=T0)
    assert caught.value.retry_after == 2.0
    state.fail_next(401, {"errorMessage": "Insufficient authorization to perform request."})
    with pytest.raises(FeedUnavailable) as caught:
        await OandaFeed(client, url, "bad").candles("EUR_USD", "M1", T0, now=T0)
    assert caught.value.result == "error"
