"""The price check against a feed that lies, floods, stalls or tells us to go away (issue 36).

Each hostile answer goes to one symbol while another symbol's idea is due to settle in the same round: the bad
answer settles nothing, the other symbol settles within the round, the failing symbol backs off on its own, the
health check names it. (How long the event loop waits meanwhile is measured in bench/dukascopy.py, not here.)
"""

import asyncio
import json
import time
import tracemalloc
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

import aiohttp
import httpx
import pytest
from fastapi import FastAPI

from tests.prices.fakefeed import Bar, FeedState, fake_feed
from tests.prices.test_poller import Now, minute, poller_for, publish, tf, verification
from tradeideas.core import metrics
from tradeideas.prices.feeds.base import FeedUnavailable, retry_after
from tradeideas.prices.feeds.binance import BinanceFeed
from tradeideas.prices.feeds.oanda import OandaFeed
from tradeideas.prices.poller import PricePoller
from tradeideas.settings import Settings

__all__ = ["tf"]  # the fixture, shared with test_poller

DEEP = b"[" * 100_000 + b"]" * 100_000


def kline(open_s: int, o: str = "100", h: str = "101", lo: str = "99", c: str = "100") -> list[Any]:
    """A Binance kline opening at `open_s` (epoch seconds), as documented."""
    return [open_s * 1000, o, h, lo, c, "1.0", open_s * 1000 + 59_999, "100.0", 10, "0.5", "50.0", "0"]


async def settle_beside(
    app: FastAPI,
    settings: Settings,
    educator_a: httpx.AsyncClient,
    customer: httpx.AsyncClient,
    tf: str,
    attack: Callable[[FeedState, int], None],
    bad_symbol: str = "ETHUSDT",
) -> tuple[PricePoller, dict[str, Any], dict[str, Any], FeedState]:
    """A BTC idea that one good candle settles at exit 1 and an ETH idea whose answer is the attack, one round."""
    good = await publish(educator_a, tf, pair="BTC/USDT")
    bad = await publish(educator_a, tf, pair="ETH/USDT")
    published = datetime.fromisoformat(good["createdAt"].replace("Z", "+00:00"))
    t = minute(published) + 60
    now = Now(datetime.fromtimestamp(t + 130, UTC))
    with fake_feed() as (url, state):
        state.now = t + 130
        # Triggers at 100, then reaches 110: exit 1.
        state.put("BTCUSDT", "1m", [Bar(t, "95", "100.5", "94", "100"), Bar(t + 60, "100", "111", "99", "110")])
        state.put("ETHUSDT", "1m", [Bar(t, "95", "96", "94", "95")])
        attack(state, t)
        async with aiohttp.ClientSession() as http:
            poller = poller_for(app, settings, url, now, http)
            for feed in poller.feeds.values():
                feed.timeout = 1.5
            await poller.run_round()
            later = await poller.run_round()  # at once: the failing symbol is backing off, the good one is done
            assert ("binance", bad_symbol, "1m") not in later.requests
    return (
        poller,
        await verification(customer, good["id"]),
        await verification(customer, bad["id"]),
        state,
    )


def answer(body: bytes, status: int = 200, headers: dict[str, str] | None = None) -> Callable[[FeedState, int], None]:
    def attack(state: FeedState, t: int) -> None:
        state.answer_for["ETHUSDT"] = (status, headers or {}, body)

    return attack


def hostile(kind: str) -> Callable[[FeedState, int], None]:
    def attack(state: FeedState, t: int) -> None:
        state.answer_for["ETHUSDT"] = kind

    return attack


def rows(make: Callable[[int], list[list[Any]]]) -> Callable[[FeedState, int], None]:
    def attack(state: FeedState, t: int) -> None:
        state.answer_for["ETHUSDT"] = (200, {}, json.dumps(make(t)).encode())

    return attack


ATTACKS: dict[str, tuple[Callable[[FeedState, int], None], str]] = {
    # A candle dated tomorrow that would stop the idea out (its low is under the invalidation).
    "future candle": (rows(lambda t: [kline(t + 86_400, "95", "120", "80", "85")]), "fails its check (time)"),
    "open time 1e300": (answer(b'[[1e300, "100", "101", "99", "100", "1", 1e300, "1", 1, "1", "1", "0"]]'), "(time)"),
    "open time 10**40": (rows(lambda t: [kline(10**40)]), "(time)"),
    "misaligned candle": (rows(lambda t: [kline(t + 17)]), "(alignment)"),
    "price NaN": (rows(lambda t: [kline(t, "NaN", "101", "99", "100")]), "(price)"),
    "price Infinity": (rows(lambda t: [kline(t, "100", "Infinity", "99", "100")]), "(price)"),
    "negative price": (rows(lambda t: [kline(t, "100", "101", "-5", "100")]), "(price)"),
    "high under the close": (rows(lambda t: [kline(t, "100", "99", "98", "100")]), "(range)"),
    "100,000-deep JSON": (answer(DEEP), "not JSON"),
    "deeper than documented": (rows(lambda t: [[*kline(t)[:7], [[[[1]]]]]]), "not as documented"),
    "not JSON": (answer(b"<html>gateway</html>"), "not JSON"),
    "80 MB answer": (hostile("huge"), "over 5000000 bytes"),
    "connection reset": (hostile("reset"), "binance: "),
    "slow answer": (hostile("slow"), "no whole answer"),
    "500": (answer(b'{"code": -1000}', 500), "HTTP 500"),
}


@pytest.mark.parametrize("name", list(ATTACKS))
async def test_a_hostile_answer_settles_nothing_and_stops_no_other_symbol(
    app: FastAPI,
    settings: Settings,
    educator_a: httpx.AsyncClient,
    customer: httpx.AsyncClient,
    tf: str,
    name: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    attack, why = ATTACKS[name]
    poller, good, bad, _ = await settle_beside(app, settings, educator_a, customer, tf, attack)
    assert good["state"] == "settled" and good["outcome"] == "exit1"  # the other symbol, in the same round
    assert bad["state"] == "waiting" and bad["receipts"] == []  # nothing settled on the bad answer
    assert poller.status() == "degraded"
    failing = poller.report()["feeds"]["binance"]["failing"]  # type: ignore[index]
    assert [f["symbol"] for f in failing] == ["ETHUSDT"] and why in failing[0]["reason"]
    assert poller.health["binance"].symbol("ETHUSDT").failures == 1  # one failure per round, not per request

    monkeypatch.setattr(settings, "price_feed", "live")  # the app's own poller is off in tests: read what it wrote
    r = await customer.get("/api/health")
    assert r.json()["priceFeed"] == "degraded"
    assert r.json()["priceFeeds"]["binance"]["failing"][0]["symbol"] == "ETHUSDT"


async def test_rejected_candles_are_counted_by_feed_and_reason(
    app: FastAPI, settings: Settings, educator_a: httpx.AsyncClient, customer: httpx.AsyncClient, tf: str
) -> None:
    attack, _ = ATTACKS["future candle"]
    await settle_beside(app, settings, educator_a, customer, tf, attack)
    text = metrics.render().decode()
    line = next(x for x in text.splitlines() if x.startswith('price_feed_rejected_total{feed="binance",reason="time"}'))
    assert float(line.split()[-1]) >= 1


async def test_a_good_answer_after_bad_ones_is_believed_and_resets_the_backoff(
    app: FastAPI, settings: Settings, educator_a: httpx.AsyncClient, customer: httpx.AsyncClient, tf: str
) -> None:
    idea = await publish(educator_a, tf, pair="ETH/USDT")
    t = minute(datetime.fromisoformat(idea["createdAt"].replace("Z", "+00:00"))) + 60
    clock = [1000.0]
    with fake_feed() as (url, state):
        state.now = t + 130
        state.put("ETHUSDT", "1m", [Bar(t, "95", "100.5", "94", "100"), Bar(t + 60, "100", "111", "99", "110")])
        async with aiohttp.ClientSession() as http:
            poller = poller_for(app, settings, url, Now(datetime.fromtimestamp(t + 130, UTC)), http)
            poller.clock = lambda: clock[0]
            for round_ in range(4):  # reset, malformed, reset, malformed: backoff 1, 2, 4, 8 s
                state.answer_for["ETHUSDT"] = "reset" if round_ % 2 == 0 else (200, {}, b"{oops")
                await poller.run_round()
                clock[0] += 2.0**round_
            assert poller.health["binance"].symbol("ETHUSDT").failures == 4
            del state.answer_for["ETHUSDT"]  # the feed recovers
            asked = await poller.run_round()
            assert asked.requests.get(("binance", "ETHUSDT", "1m")) == 1  # asked again as soon as its backoff ended
            assert poller.health["binance"].symbol("ETHUSDT").failures == 0 and poller.status() == "ok"
    assert (await verification(customer, idea["id"]))["outcome"] == "exit1"


async def test_retry_after_is_honoured_exactly_for_the_whole_feed(
    app: FastAPI, settings: Settings, educator_a: httpx.AsyncClient, customer: httpx.AsyncClient, tf: str
) -> None:
    await publish(educator_a, tf, pair="BTC/USDT")
    await publish(educator_a, tf, pair="ETH/USDT")
    t = minute(datetime.now(UTC)) + 60
    with fake_feed() as (url, state):
        state.now = t + 70
        state.put("BTCUSDT", "1m", [Bar(t, "95", "96", "94", "95")])
        state.put("ETHUSDT", "1m", [Bar(t, "95", "96", "94", "95")])
        async with aiohttp.ClientSession() as http:
            poller = poller_for(app, settings, url, Now(datetime.fromtimestamp(t + 70, UTC)), http)
            await poller.run_round()  # both symbols known
            state.answer_for["ETHUSDT"] = (429, {"Retry-After": "3"}, b'{"code": -1003, "msg": "Too many requests."}')
            await poller.run_round()
            # Other tests' open ideas share the round, so the 429 comes when ETH's turn comes: time it by the feed.
            refused_at = max(at for at, symbol in state.request_times if symbol == "ETHUSDT")
            retry_until = poller.health["binance"].retry_until
            assert 3.0 <= retry_until - refused_at < 3.5
            del state.answer_for["ETHUSDT"]
            state.request_times.clear()
            while time.monotonic() < retry_until - 0.2:  # a round every 0.2 s: none asks the feed
                await poller.run_round()
                await asyncio.sleep(0.2)
            assert state.request_times == []
            await asyncio.sleep(max(0.0, retry_until + 0.05 - time.monotonic()))
            await poller.run_round()
            assert state.request_times and state.request_times[0][0] - refused_at >= 3.0
            assert poller.status() == "ok"


async def test_a_huge_retry_after_is_capped(
    app: FastAPI, settings: Settings, educator_a: httpx.AsyncClient, customer: httpx.AsyncClient, tf: str
) -> None:
    poller, _, bad, _ = await settle_beside(
        app, settings, educator_a, customer, tf, answer(b"{}", 429, {"Retry-After": "1e12"})
    )
    wait = poller.health["binance"].retry_until - poller.clock()
    assert 290 < wait <= settings.price_max_backoff_seconds
    # A 429 holds the whole feed back, so whether BTC was asked before ETH's refusal came back depends on where
    # the two stand among other tests' open ideas in the round; the refused symbol settles nothing either way.
    assert bad["state"] == "waiting"


def test_retry_after_in_seconds_or_as_an_http_date() -> None:
    now = datetime(2026, 11, 29, 12, 0, 0, tzinfo=UTC).timestamp()
    assert retry_after("3", now, 300) == 3.0
    assert retry_after("1e12", now, 300) == 300
    assert retry_after("-5", now, 300) == 0.0
    assert retry_after("Sun, 29 Nov 2026 12:00:42 GMT", now, 300) == 42.0
    assert retry_after("Sun, 29 Nov 2026 11:00:00 GMT", now, 300) == 0.0
    assert retry_after("nan", now, 300) is None and retry_after("soon", now, 300) is None


async def test_an_answer_over_the_cap_is_cut_off_and_costs_no_more_than_the_cap() -> None:
    with fake_feed() as (url, state):
        state.answer_for["ETHUSDT"] = "huge"
        async with aiohttp.ClientSession() as http:
            feed = BinanceFeed(http, url, max_bytes=5_000_000)
            tracemalloc.start()
            try:
                with pytest.raises(FeedUnavailable) as caught:
                    await feed.candles("ETHUSDT", "1m", 1_700_000_040, now=1_700_000_100)
                _, peak = tracemalloc.get_traced_memory()
            finally:
                tracemalloc.stop()
    assert caught.value.result == "too_large"
    assert peak < 2 * 5_000_000 + 2_000_000
    assert state.sent_bytes < 80_000_000  # the connection was closed, not drained


async def test_oanda_times_out_of_range_are_dropped() -> None:
    t = 1_700_000_040
    good = {"complete": True, "volume": 1, "bid": {"o": "1.1", "h": "1.2", "l": "1.0", "c": "1.1"},
            "ask": {"o": "1.1", "h": "1.2", "l": "1.0", "c": "1.1"}}  # fmt: skip
    with fake_feed() as (url, state):
        async with aiohttp.ClientSession() as http:
            oanda = OandaFeed(http, url, "token")
            for bad_time, reason in (("1e30", "time"), ("Infinity", "time"), ("NaN", "time"), ("x", "time")):
                body = {"candles": [{**good, "time": f"{t}.000000000"}, {**good, "time": bad_time}]}
                state.answer_for["EUR_USD"] = (200, {}, json.dumps(body).encode())
                got = await oanda.candles("EUR_USD", "M1", t, now=t + 120)
                assert [c.time for c in got.candles] == [t]  # the candles before the bad one stand
                assert [r.reason for r in got.rejected] == [reason]


async def test_only_the_candles_before_a_bad_one_are_used() -> None:
    t = 1_700_000_040
    with fake_feed() as (url, state):
        body = [kline(t), kline(t + 60), kline(t + 86_400), kline(t + 120, "100", "130", "70", "100")]
        state.answer_for["BTCUSDT"] = (200, {}, json.dumps(body).encode())
        async with aiohttp.ClientSession() as http:
            got = await BinanceFeed(http, url).candles("BTCUSDT", "1m", t, now=t + 150)
    # The candle after the bad one could hide a gap or be part of the same lie: it waits for a later answer.
    assert [c.time for c in got.candles] == [t, t + 60] and got.rejected[0].reason == "time"
