"""Forex checked out of the box: Dukascopy's hour files of ticks against a local server that serves bi5 files made
from scripted ticks (BUY on the ask, SELL on the bid, a weekend gap, an hour published late, JPY and gold points)."""

from collections.abc import Iterator
from datetime import UTC, datetime
from decimal import Decimal
from typing import Any

import aiohttp
import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy import select

from tests.prices.fakefeed import FeedState, fake_feed
from tests.prices.test_poller import Now, publish, tf, verification
from tradeideas.core.deps import component_of
from tradeideas.core.leader import Leader
from tradeideas.ideas.outcomes import Levels
from tradeideas.prices.feeds.dukascopy import DukascopyFeed, dukascopy_instrument, hour_path
from tradeideas.prices.poller import PricePoller
from tradeideas.prices.progress import Candle, Prices, Progress, plan_for
from tradeideas.prices.settlement import advance
from tradeideas.realtime.models import Event
from tradeideas.settings import Settings

__all__ = ["tf"]

HOUR = 3600


@pytest.fixture
def feed() -> Iterator[tuple[str, FeedState]]:
    with fake_feed() as served:
        yield served


def test_instruments_and_their_points() -> None:
    assert dukascopy_instrument("EUR/USD") == ("EURUSD", Decimal("0.00001"))
    assert dukascopy_instrument("usdjpy") == ("USDJPY", Decimal("0.001"))
    assert dukascopy_instrument("XAU/USD") == ("XAUUSD", Decimal("0.001"))
    assert dukascopy_instrument("SPX500") is None  # an index: its point size is not documented
    assert dukascopy_instrument("EUR/EUR") is None
    # Months count from 00 in the file's path.
    assert (
        hour_path("EURUSD", int(datetime(2026, 1, 5, 14, tzinfo=UTC).timestamp())) == "/EURUSD/2026/00/05/14h_ticks.bi5"
    )


@pytest.mark.parametrize(
    ("instrument", "ask", "bid", "price"),
    [("EURUSD", 108_503, 108_501, "1.08501"), ("USDJPY", 151_236, 151_234, "151.234"),
     ("XAUUSD", 2_345_900, 2_345_678, "2345.678")],
)  # fmt: skip
async def test_points_become_prices(
    feed: tuple[str, FeedState], instrument: str, ask: int, bid: int, price: str
) -> None:
    url, state = feed
    hour = 1_700_002_800  # an hour's start
    state.now = hour + HOUR + 60  # that hour has ended, the next has not
    state.put_ticks(instrument, hour, [(1_000, ask, bid), (61_500, ask + 10, bid + 10), (62_000, ask, bid)])
    async with aiohttp.ClientSession() as http:
        dukascopy = DukascopyFeed(http, url)
        got = await dukascopy.candles(instrument, "T1m", hour, now=state.now)
    assert got.rejected == [] and dukascopy.resume_from(instrument) == hour + HOUR
    first, second = got.candles
    assert first.time == hour and first.bid.open == Decimal(price) and first.ask is not None
    assert second.time == hour + 60 and second.bid.high == first.bid.open + 10 * dukascopy_instrument(instrument)[1]  # type: ignore[index]
    assert second.bid.close == Decimal(price)


async def test_each_hour_is_asked_once_and_an_empty_file_is_no_ticks(feed: tuple[str, FeedState]) -> None:
    url, state = feed
    hour = 1_700_002_800
    state.now = hour + 3 * HOUR + 60
    state.put_ticks("EURUSD", hour, [(0, 108_503, 108_501)])
    state.put_ticks("EURUSD", hour + HOUR, None)  # a weekend hour
    state.put_ticks("EURUSD", hour + 2 * HOUR, [(5, 108_603, 108_601)])
    async with aiohttp.ClientSession() as http:
        dukascopy = DukascopyFeed(http, url)
        got = await dukascopy.candles("EURUSD", "T1m", hour, now=state.now)
        assert [c.time for c in got.candles] == [hour, hour + 2 * HOUR]
        again = await dukascopy.candles("EURUSD", "T1m", hour, now=state.now)  # nothing new has ended
        fine = await dukascopy.candles("EURUSD", "T1s", hour, now=state.now)  # from the hour already read
    assert again.candles == [] and [c.time for c in fine.candles] == [hour]
    assert got.asked and not again.asked  # nothing had ended since: not a success to report, nor a failure
    paths = [p for p, _ in state.requests]
    assert sorted(paths) == sorted(set(paths)) and len(paths) == 3  # one request per hour, the empty one too


async def test_bad_ticks_are_dropped_and_the_hour_is_not_trusted(feed: tuple[str, FeedState]) -> None:
    url, state = feed
    hour = 1_700_002_800
    state.now = hour + 2 * HOUR
    state.put_ticks("EURUSD", hour, [(1_000, 108_503, 108_501), (2_000, 108_400, 108_501), (3_000, 108_503, 108_501)])
    async with aiohttp.ClientSession() as http:
        dukascopy = DukascopyFeed(http, url)
        got = await dukascopy.candles("EURUSD", "T1m", hour, now=state.now)
    assert got.rejected[0].reason == "spread" and dukascopy.resume_from("EURUSD") is None  # asked again later
    assert [c.bid.close for c in got.candles] == [Decimal("1.08501")]  # only the ticks before the bad one


def poller(app: FastAPI, settings: Settings, url: str, now: Now, http: aiohttp.ClientSession) -> PricePoller:
    live = settings.model_copy(update={"price_feed": "live", "binance_api_url": url, "dukascopy_url": url,
                                       "oanda_token": None, "forex_feed": None})  # fmt: skip
    assert live.forex_feed_in_use == "dukascopy"  # the default without an OANDA token
    made = PricePoller(app.state.db, live, component_of(app, Leader), now, http)
    made.prepare()
    return made


async def publish_forex(client: httpx.AsyncClient, tf: str, pair: str, order: str, levels: tuple[str, str, str]) -> Any:
    entry, stop, exit1 = levels
    body = {"marketType": "Forex", "orderType": order, "ideaType": "Leverage", "pair": pair, "timeFrame": tf,
            "entry1": entry, "invalidationLevel": stop, "exit1": exit1}  # fmt: skip
    r = await client.post("/api/trade-ideas", json=body)
    assert r.status_code in (200, 201), r.text
    return r.json()


def published_hour(idea: dict[str, Any]) -> tuple[int, int]:
    published = int(datetime.fromisoformat(idea["createdAt"].replace("Z", "+00:00")).timestamp())
    return published, published - published % HOUR


def minute_candles(ticks: list[tuple[int, int, int]], hour: int, point: Decimal) -> list[Candle]:
    """The test's own reading of ticks as one-minute candles (bid and ask), to compare verdicts with."""
    out = []
    for m in sorted({ms // 60_000 for ms, _, _ in ticks}):
        group = [t for t in ticks if t[0] // 60_000 == m]
        asks, bids = [point * a for _, a, _ in group], [point * b for _, _, b in group]
        out.append(
            Candle(
                hour + m * 60,
                "T1m",
                Prices(bids[0], max(bids), min(bids), bids[-1]),
                Prices(asks[0], max(asks), min(asks), asks[-1]),
            )
        )
    return out


async def test_a_buy_triggers_on_the_ask_and_exits_on_the_bid_across_a_weekend_and_a_late_hour(
    app: FastAPI, settings: Settings, educator_a: httpx.AsyncClient, customer: httpx.AsyncClient, tf: str
) -> None:
    idea = await publish_forex(educator_a, tf, "EUR/CHF", "BUY", ("1.08500", "1.08000", "1.09000"))
    published, hour = published_hour(idea)
    h1, gap, h3 = hour + HOUR, hour + 2 * HOUR, hour + 3 * HOUR
    # The hour after publishing: the ask reaches the entry (the bid never does); then a weekend hour with no ticks;
    # then the bid reaches exit 1.
    trigger = [(0, 108_400, 108_380), (120_000, 108_502, 108_480), (300_000, 108_600, 108_580)]
    exits = [(0, 108_700, 108_680), (60_000, 109_020, 109_001), (180_000, 108_900, 108_880)]
    with fake_feed() as (url, state):
        state.put_ticks("EURCHF", hour, [(max(0, (published - hour) * 1000 + 500), 108_300, 108_280)])
        state.put_ticks("EURCHF", h1, trigger)
        state.put_ticks("EURCHF", gap, None)
        state.put_ticks("EURCHF", h3, exits)
        state.late.add(("EURCHF", h3))
        now = Now(datetime.fromtimestamp(h3 + HOUR + 600, UTC))
        state.now = now.at.timestamp()
        async with aiohttp.ClientSession() as http:
            checker = poller(app, settings, url, now, http)
            await checker.run_round()
            shown = await verification(customer, idea["id"])
            assert shown["feed"] == "dukascopy" and shown["symbol"] == "EURCHF"
            assert shown["state"] == "triggered" and shown["receipts"][0]["side"] == "ask"
            assert (
                shown["receipts"][0]["price"] == "1.08502"
            )  # the ask jumped from 1.08400 over the entry: filled there
            assert checker.status() == "ok"  # an hour not published yet is awaited, not a failure
            state.late.clear()  # the file appears
            await checker.run_round()
            hour_requests = [p for p, _ in state.requests if p.startswith("/EURCHF/")]
    shown = await verification(customer, idea["id"])
    assert shown["state"] == "settled" and shown["outcome"] == "exit1" and shown["rMultiple"] == 1.0
    assert shown["receipts"][1]["side"] == "bid" and shown["receipts"][1]["granularity"] in ("T1m", "T1s")
    # One request per hour, the late one twice (404, then the file), the hour in progress never.
    assert len(hour_requests) == len(set(hour_requests)) + 1
    # The same rules over the test's own candles give the same verdict.
    point = Decimal("0.00001")
    candles = minute_candles(trigger, h1, point) + minute_candles(exits, h3, point)
    levels = Levels("BUY", "1.08500", None, "1.08000", "1.09000", None, None)
    plan = plan_for(levels, published, two_sided=True)
    assert not isinstance(plan, str)
    verdict = advance(plan, Progress(), candles, int(now.at.timestamp()))
    assert (verdict.outcome, verdict.r_multiple) == (shown["outcome"], shown["rMultiple"])


async def test_a_sell_on_yen_triggers_on_the_bid_and_stops_on_the_ask(
    app: FastAPI, settings: Settings, educator_a: httpx.AsyncClient, customer: httpx.AsyncClient, tf: str
) -> None:
    idea = await publish_forex(educator_a, tf, "CHF/JPY", "SELL", ("151.000", "151.500", "150.000"))
    _, hour = published_hour(idea)
    h1 = hour + HOUR
    ticks = [(0, 150_900, 150_880), (60_000, 151_010, 150_990), (61_000, 151_020, 151_001),
             (240_000, 151_400, 151_380), (241_000, 151_520, 151_500)]  # fmt: skip
    with fake_feed() as (url, state):
        state.put_ticks("CHFJPY", h1, ticks)
        now = Now(datetime.fromtimestamp(h1 + HOUR + 60, UTC))
        state.now = now.at.timestamp()
        async with aiohttp.ClientSession() as http:
            checker = poller(app, settings, url, now, http)
            await checker.run_round()
    shown = await verification(customer, idea["id"])
    assert shown["state"] == "settled" and shown["outcome"] == "invalidation" and shown["rMultiple"] == -1.0
    assert [(r["step"], r["side"], r["price"]) for r in shown["receipts"]] == [
        ("triggered", "bid", "151.000"),
        ("stop", "ask", "151.500"),
    ]


async def test_an_hour_still_missing_long_after_it_ended_is_reported(
    app: FastAPI, settings: Settings, educator_a: httpx.AsyncClient, customer: httpx.AsyncClient, tf: str
) -> None:
    idea = await publish_forex(educator_a, tf, "XAG/USD", "BUY", ("31.250", "30.800", "32.100"))
    _, hour = published_hour(idea)
    with fake_feed() as (url, state):
        state.late.add(("XAGUSD", hour))
        now = Now(datetime.fromtimestamp(hour + 4 * HOUR, UTC))
        state.now = now.at.timestamp()
        async with aiohttp.ClientSession() as http:
            checker = poller(app, settings, url, now, http)
            await checker.run_round()
    assert (await verification(customer, idea["id"]))["state"] == "waiting"
    assert checker.status() == "degraded"
    failing = {f["symbol"]: f["reason"] for f in checker.report()["feeds"]["dukascopy"]["failing"]}  # type: ignore[index]
    assert "is not published" in failing["XAGUSD"]


async def test_an_index_is_not_available_in_the_members_words(
    app: FastAPI, settings: Settings, educator_a: httpx.AsyncClient, customer: httpx.AsyncClient, tf: str
) -> None:
    idea = await publish(educator_a, tf, pair="SPX500", market="Forex")
    with fake_feed() as (url, _):
        async with aiohttp.ClientSession() as http:
            await poller(app, settings, url, Now(datetime.now(UTC)), http).run_round()
    shown = await verification(customer, idea["id"])
    assert shown["state"] == "unverifiable" and shown["reason"] == "not available for SPX500 yet"
    assert shown["detail"] == "the pair has no Dukascopy symbol"


async def test_ideas_no_feed_could_check_are_checked_once_one_is_in_use(
    app: FastAPI, settings: Settings, educator_a: httpx.AsyncClient, customer: httpx.AsyncClient, tf: str
) -> None:
    """A forex idea adopted while no forex feed was configured (as versions before Dukascopy left it) is checked
    from the start when the poller next starts with a feed in use, with a `reopened` step."""
    idea = await publish_forex(educator_a, tf, "EUR/CHF", "BUY", ("0.9450", "0.9400", "0.9520"))
    with fake_feed() as (url, _):
        async with aiohttp.ClientSession() as http:
            off = settings.model_copy(update={"price_feed": "live", "binance_api_url": url, "forex_feed": "off"})
            before = PricePoller(app.state.db, off, component_of(app, Leader), Now(datetime.now(UTC)), http)
            before.prepare()
            await before.run_round()
            assert (await verification(customer, idea["id"]))["state"] == "unverifiable"
            await poller(app, settings, url, Now(datetime.now(UTC)), http).run_round()
    shown = await verification(customer, idea["id"])
    assert (shown["state"], shown["feed"], shown["symbol"], shown["reason"]) == ("waiting", "dukascopy", "EURCHF", None)
    async with app.state.db.sessionmaker() as db:
        stmt = select(Event.payload).where(Event.type == "idea.price_check").order_by(Event.id)
        steps = (await db.execute(stmt)).scalars()
        mine = [p["step"] for p in steps if p["ideaId"] == idea["id"]]
    assert mine[-2:] == ["unverifiable", "reopened"]
