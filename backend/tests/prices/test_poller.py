"""The poller against a local feed: ideas adopted, candles fetched once per symbol, steps recorded once, outages
and rate limits waited out without a wrong verdict, unknown symbols unverifiable, restarts resumed."""

import random
import uuid
from collections.abc import AsyncIterator
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from typing import Any

import aiohttp
import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy import delete, func, select

from tests.prices.fakefeed import Bar, fake_feed
from tradeideas.core.deps import component_of
from tradeideas.core.leader import Leader
from tradeideas.ideas.cache import IdeaCache
from tradeideas.ideas.models import TradeIdea
from tradeideas.prices import poller as poller_module
from tradeideas.prices import service
from tradeideas.prices.models import IdeaVerification, PriceCandle
from tradeideas.prices.poller import PricePoller
from tradeideas.prices.progress import Candle, Prices, Progress
from tradeideas.prices.rows import NO_FOREX_FEED, plan_of
from tradeideas.prices.service import adopt_many
from tradeideas.prices.settlement import advance
from tradeideas.realtime.broker import Broker
from tradeideas.realtime.models import Event
from tradeideas.realtime.service import publish_many
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


def poller_for(app: FastAPI, settings: Settings, url: str, now: Now, client: aiohttp.ClientSession) -> PricePoller:
    live = settings.model_copy(update={"price_feed": "live", "binance_api_url": url, "oanda_api_url": url,
                                       "oanda_token": "test-token"})  # fmt: skip
    poller = PricePoller(app.state.db, live, component_of(app, Leader), now, client)
    poller.prepare()
    return poller


async def verification(client: httpx.AsyncClient, idea_id: int) -> dict[str, Any]:
    r = await client.get(f"/api/trade-ideas/{idea_id}")
    assert r.status_code == 200
    return dict(r.json()["verification"])


async def steps_published(app: FastAPI, idea_id: int, after_event: int = 0) -> int:
    """Price-check steps published for the idea since event `after_event` (SQLite reuses the ids of deleted ideas,
    so an earlier test's idea can have had this id)."""
    async with app.state.db.sessionmaker() as db:
        stmt = select(Event.payload).where(Event.type == "idea.price_check", Event.id > after_event)
        rows = await db.execute(stmt)
        return sum(1 for payload in rows.scalars() if payload["ideaId"] == idea_id)


async def last_event(app: FastAPI) -> int:
    async with app.state.db.sessionmaker() as db:
        return int((await db.execute(select(func.max(Event.id)))).scalar_one() or 0)


async def test_an_idea_triggers_and_reaches_exit1_through_outages(
    app: FastAPI, settings: Settings, educator_a: httpx.AsyncClient, customer: httpx.AsyncClient, tf: str
) -> None:
    began = await last_event(app)
    idea = await publish(educator_a, tf)
    published = datetime.fromisoformat(idea["createdAt"].replace("Z", "+00:00"))
    t = minute(published) + 60  # the first whole minute after publishing
    now = Now(datetime.fromtimestamp(t + 90, UTC))
    with fake_feed() as (url, state):
        state.put("BTCUSDT", "1m", [Bar(t - 60, "95", "96", "94", "95"), Bar(t, "95", "97", "94.5", "96"),
                                    Bar(t + 60, "96", "98", "95", "97")])  # fmt: skip
        state.now = t + 90
        async with aiohttp.ClientSession() as http:
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
            poller.health["binance"].retry_until = 0  # as if the 30 s had passed
            state.down = True
            await poller.run_round()
            assert (await verification(customer, idea["id"]))["state"] == "waiting"
            state.down = False
            poller.health["binance"].symbol("BTCUSDT").blocked_until = 0  # as if its backoff had passed
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
            steps = await steps_published(app, idea["id"], began)
            assert steps == 3  # triggered, exit1, settled

            # A restart (a new poller over the same rows) repeats no step.
            restarted = poller_for(app, settings, url, now, http)
            await restarted.run_round()
            assert await steps_published(app, idea["id"], began) == steps

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
        async with aiohttp.ClientSession() as http:
            await poller_for(app, settings, url, now, http).run_round()
    shown = await verification(customer, idea["id"])
    assert shown["state"] == "unverifiable" and shown["reason"] == "not available for NOPE/USDT yet"
    assert shown["detail"] == "Binance does not know NOPEUSDT: Invalid symbol"


@pytest.mark.parametrize("forex", ["oanda", "off"])
async def test_forex_without_a_forex_feed_is_not_available(
    app: FastAPI, settings: Settings, educator_a: httpx.AsyncClient, customer: httpx.AsyncClient, tf: str, forex: str
) -> None:
    idea = await publish(educator_a, tf, pair="EUR/USD", market="Forex")
    with fake_feed() as (url, _):
        async with aiohttp.ClientSession() as http:
            live = settings.model_copy(
                update={"price_feed": "live", "binance_api_url": url, "oanda_token": None, "forex_feed": forex}
            )
            poller = PricePoller(app.state.db, live, component_of(app, Leader), Now(datetime.now(UTC)), http)
            poller.prepare()
            await poller.run_round()
    shown = await verification(customer, idea["id"])
    # Members read what it means for them; the operator's reason is the detail.
    assert shown["state"] == "unverifiable" and shown["reason"] == "not available for EUR/USD yet"
    assert shown["detail"] == NO_FOREX_FEED
    async with app.state.db.sessionmaker() as db:
        assert (await db.execute(select(func.count()).select_from(Event))).scalar_one() > 0


async def test_the_first_round_adopts_every_idea_slice_by_slice(
    app: FastAPI, settings: Settings, educator_a: httpx.AsyncClient, tf: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The first round reads the ideas in slices (a driver takes at most 32,767 parameters, one per idea): with
    slices of two, five new ideas are all adopted, each once."""
    monkeypatch.setattr("tradeideas.prices.poller.ADOPT_SLICE", 2)
    ids = [(await publish(educator_a, tf, pair="BTC/USDT"))["id"] for _ in range(5)]
    with fake_feed() as (url, state):
        state.put("BTCUSDT", "1m", [])
        async with aiohttp.ClientSession() as http:
            await poller_for(app, settings, url, Now(datetime.now(UTC)), http).run_round()
    async with app.state.db.sessionmaker() as db:
        adopted = list(await db.scalars(select(IdeaVerification.idea_id).where(IdeaVerification.idea_id.in_(ids))))
    assert sorted(adopted) == sorted(ids)


async def test_a_first_round_that_fails_part_way_adopts_the_rest_next_round(
    app: FastAPI, settings: Settings, educator_a: httpx.AsyncClient, tf: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each slice of the first round's adoption commits on its own: when a later slice fails, the next round goes
    through the slices again and adopts what is left, each idea once."""
    monkeypatch.setattr("tradeideas.prices.poller.ADOPT_SLICE", 2)
    ids = [(await publish(educator_a, tf, pair="BTC/USDT"))["id"] for _ in range(5)]
    calls = 0

    async def adopt_then_fail(db: Any, ideas: Any, live: Settings, batch: int = 1000) -> None:
        nonlocal calls
        calls += 1
        if calls == 2:
            raise RuntimeError("the database went away")
        await adopt_many(db, ideas, live, batch)

    with fake_feed() as (url, state):
        state.put("BTCUSDT", "1m", [])
        async with aiohttp.ClientSession() as http:
            poller = poller_for(app, settings, url, Now(datetime.now(UTC)), http)
            monkeypatch.setattr(service, "adopt_many", adopt_then_fail)
            with pytest.raises(RuntimeError):
                await poller.run_round()
            monkeypatch.setattr(service, "adopt_many", adopt_many)
            await poller.run_round()
    async with app.state.db.sessionmaker() as db:
        adopted = list(await db.scalars(select(IdeaVerification.idea_id).where(IdeaVerification.idea_id.in_(ids))))
    assert sorted(adopted) == sorted(ids)


class WriteFailed(Exception):
    pass


async def test_rounds_replay_only_the_ideas_their_candles_can_move_and_agree_with_a_full_replay(
    app: FastAPI, settings: Settings, educator_a: httpx.AsyncClient, tf: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ideas on a crypto and a forex symbol (bid and ask apart), BUY and SELL, one to three exits, over a random
    walk one minute per round: every verdict and receipt is the one the full replay of every idea over every
    candle gives, and a round whose candles touch no watched level replays no idea.

    A round writes its steps in one transaction, so the cached idea pages are dropped once per round that moved
    an idea. Once, written a symbol at a time (as after a backlog), the forex symbol's write fails after the crypto
    one's committed: the poller forgets what it held, reads the rows again next round, and still records every
    step once."""
    rng = random.Random(24)
    ideas: list[tuple[int, str]] = []
    for k in range(16):
        buy, entry, exits = k % 2 == 0, Decimal(94 + (k * 7) % 13), 1 + k % 3
        sign = 1 if buy else -1
        pair, market = ("BTC/USDT", "Crypto") if k < 10 else ("EUR/USD", "Forex")
        body = {"marketType": market, "orderType": "BUY" if buy else "SELL", "ideaType": "Leverage", "pair": pair,
                "timeFrame": tf, "entry1": str(entry), "invalidationLevel": str(entry - sign * 3)}  # fmt: skip
        for n in range(exits):
            body[f"exit{n + 1}"] = str(entry + sign * 3 * (n + 1))
        r = await educator_a.post("/api/trade-ideas", json=body)
        assert r.status_code in (200, 201), r.text
        ideas.append((int(r.json()["id"]), "BTCUSDT" if k < 10 else "EUR_USD"))
    t = minute(datetime.now(UTC)) + 120
    rounds, spread = 45, Decimal("0.3")
    paths: dict[str, list[Candle]] = {}
    with fake_feed() as (url, state):
        for symbol in ("BTCUSDT", "EUR_USD"):
            price, bars, candles = Decimal(100), [], []
            for m in range(rounds):
                close = price + Decimal(rng.choice([-15, -10, -5, 5, 10, 15])) / 10
                low, high = min(price, close) - Decimal("0.2"), max(price, close) + Decimal("0.2")
                ask = (price + spread, high + spread, low + spread, close + spread)
                forex = symbol == "EUR_USD"
                bars.append(Bar(t + 60 * m, str(price), str(high), str(low), str(close),
                                tuple(str(a) for a in ask) if forex else None))  # type: ignore[arg-type]  # fmt: skip
                candles.append(Candle(t + 60 * m, "1m", Prices(price, high, low, close),
                                      Prices(*ask) if forex else None))  # fmt: skip
                price = close
            state.put(symbol, "1m" if symbol == "BTCUSDT" else "M1", bars)
            paths[symbol] = candles
        async with aiohttp.ClientSession() as http:
            now = Now(datetime.fromtimestamp(t, UTC))
            poller = poller_for(app, settings, url, now, http)
            async with app.state.db.sessionmaker() as db:
                rows = {r.idea_id: r for r in await db.scalars(select(IdeaVerification))}
            reference: dict[int, Progress] = {i: Progress() for i, _ in ideas}
            quiet_rounds = several_moved = 0
            pages = component_of(app, IdeaCache)
            # A loaded machine may see the event listener reconnect mid-round: each change of its state clears
            # the page cache too (events may have been missed), beside the round's own drop.
            listener_changes: list[bool] = []
            component_of(app, Broker).live_listeners.append(listener_changes.append)
            forex_ids = {i for i, symbol in ideas if symbol == "EUR_USD"}
            fail_forex_write = {"armed": False, "failed_in": -1}

            async def publish_or_fail(db: Any, domain_events: Any, batch: int = 1000) -> None:
                ids = {getattr(e, "idea_id", getattr(e, "id", None)) for e in domain_events}
                if fail_forex_write["armed"] and ids & forex_ids:
                    fail_forex_write["armed"] = False
                    raise WriteFailed
                await publish_many(db, domain_events, batch)

            monkeypatch.setattr(poller_module, "publish_many", publish_or_fail)
            async with app.state.db.sessionmaker() as db:  # events before this test's (SQLite reuses idea ids)
                events_before = (await db.execute(select(func.coalesce(func.max(Event.id), 0)))).scalar_one()
            for m in range(rounds):
                at = t + 60 * m + 30  # the candle of minute m is still open
                state.now, now.at = at, datetime.fromtimestamp(at, UTC)
                generation, events, flaps = pages.generation, await verification_events(app), len(listener_changes)
                if m == 3:
                    fail_forex_write["armed"] = True
                    monkeypatch.setattr(poller_module, "WRITE_BATCH_MOVED", 1)  # a symbol per transaction
                try:
                    done = await poller.run_round()
                except WriteFailed:
                    fail_forex_write["failed_in"] = m
                    assert not poller.progress, "the poller forgot what it held"
                    monkeypatch.undo()
                    continue
                if m > 0:  # (the first round adopts the ideas, in a transaction of its own)
                    # Each idea that moved is one event for open pages; the page cache is dropped once per
                    # transaction that wrote steps: once per round, unless written a symbol at a time.
                    assert await verification_events(app) - events == done.moved
                    cleared = len(listener_changes) - flaps
                    assert pages.generation - generation - cleared == done.writes_moved
                    if not fail_forex_write["armed"]:
                        assert done.writes_moved == (1 if done.moved else 0)
                    several_moved += done.moved > 1
                if m == 0:
                    async with app.state.db.sessionmaker() as db:
                        rows = {r.idea_id: r for r in await db.scalars(select(IdeaVerification))}
                for idea_id, symbol in ideas:
                    seen = [replace(c, complete=c.time < t + 60 * m) for c in paths[symbol][: m + 1]]
                    plan = plan_of(rows[idea_id])
                    assert not isinstance(plan, str)
                    if not reference[idea_id].done:
                        reference[idea_id] = advance(plan, reference[idea_id], seen, at)
                        assert reference[idea_id].needs_detail is None  # the levels are wider than any candle
                if m > 1 and done.replayed == 0:
                    quiet_rounds += 1
            component_of(app, Broker).live_listeners.remove(listener_changes.append)
    async with app.state.db.sessionmaker() as db:
        checked = {r.idea_id: r for r in await db.scalars(select(IdeaVerification))}
    for idea_id, _ in ideas:
        expected, row = reference[idea_id], checked[idea_id]
        assert (row.state, row.outcome) == (expected.state, expected.outcome), idea_id
        assert [(r["step"], r["candleTime"]) for r in row.receipts] == [
            (r.step, datetime.fromtimestamp(r.candle_time, UTC).isoformat().replace("+00:00", "Z"))
            for r in expected.receipts
        ], idea_id
    outcomes = [p.state for p in reference.values()]
    assert outcomes.count("settled") >= 3 and outcomes.count("triggered") + outcomes.count("settled") >= 6
    assert quiet_rounds >= 5  # rounds whose candles touched no level replayed no idea
    assert several_moved >= 1
    assert fail_forex_write["failed_in"] >= 3, "a forex step was due after round 3"
    async with app.state.db.sessionmaker() as db:
        payloads = (
            (await db.execute(select(Event.payload).where(Event.type == "idea.price_check", Event.id > events_before)))
            .scalars()
            .all()
        )
    for idea_id, _ in ideas:  # every step recorded once, the failed round's included
        steps = [p["step"] for p in payloads if p["ideaId"] == idea_id]
        assert len(steps) == len(set(steps)), (idea_id, steps)
        assert {r["step"] for r in checked[idea_id].receipts} <= set(steps), (idea_id, steps)


async def verification_events(app: FastAPI) -> int:
    async with app.state.db.sessionmaker() as db:
        count = select(func.count()).select_from(Event).where(Event.type == "idea.verification")
        return int((await db.execute(count)).scalar_one())
