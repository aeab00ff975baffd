"""The price poller: every PRICE_POLL_SECONDS, in the one process that leads (`core.leader`, decision 0049), one
request per feed symbol and granularity for the ideas still waiting or open, then their settlement steps.

A round adopts ideas that have no verification row yet, fetches each symbol's new candles (from the newest
complete one stored, or from an hour before its oldest open idea), stores them, replays each idea over them
(`settlement.advance`), fetches finer candles where a candle spans two levels, and writes the steps with their
events in one transaction per symbol. A feed that does not answer (rate limits, bans, 5xx, timeouts, malformed
bodies) is left alone for its Retry-After or an exponential backoff; the ideas on it wait with what is stored,
so no verdict is ever taken from a missing answer. Progress lives in the rows: a restart resumes where the last
committed round ended (the replay is idempotent; a step is recorded once).
"""

import asyncio
import logging
import time
from collections.abc import Callable
from contextlib import suppress
from dataclasses import dataclass, field
from datetime import datetime
from typing import Literal

import httpx
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from tradeideas.core.leader import Leader
from tradeideas.core.metrics import PRICE_FEED_LAG
from tradeideas.db import Database, utcnow
from tradeideas.ideas.pricing import ideas_to_price
from tradeideas.prices import service
from tradeideas.prices.feeds import BinanceFeed, Feed, FeedUnavailable, OandaFeed, UnknownSymbol
from tradeideas.prices.models import IdeaVerification
from tradeideas.prices.settlement import DETAIL, Candle, Plan, Progress, advance, unverifiable
from tradeideas.settings import Settings

log = logging.getLogger(__name__)

FeedStatus = Literal["ok", "degraded", "off"]
MAX_BACKOFF_SECONDS = 300.0
PRUNE_EVERY_SECONDS = 3600.0
SERIES_CONCURRENCY = 8


@dataclass
class FeedHealth:
    """When a feed may be asked again, and how the last request went."""

    blocked_until: float = 0.0
    failures: int = 0
    ok: bool | None = None  # None: not asked yet
    newest: int | None = None  # end of the newest candle held for the watched symbols (epoch seconds)

    def failed(self, now: float, error: FeedUnavailable) -> None:
        self.failures += 1
        self.ok = False
        wait = error.retry_after if error.retry_after is not None else min(MAX_BACKOFF_SECONDS, 2.0**self.failures)
        self.blocked_until = now + wait

    def succeeded(self) -> None:
        self.failures = 0
        self.ok = True
        self.blocked_until = 0.0


@dataclass
class Round:
    """What one poll round did (for tests and the benchmark)."""

    requests: dict[tuple[str, str, str], int] = field(default_factory=dict)  # (feed, symbol, granularity) -> count
    moved: int = 0
    series: int = 0


class PricePoller:
    def __init__(
        self,
        database: Database,
        settings: Settings,
        leader: Leader,
        now: Callable[[], datetime] = utcnow,
        client: httpx.AsyncClient | None = None,
    ) -> None:
        self.database = database
        self.settings = settings
        self.leader = leader
        self.now = now
        self._client = client
        self._own_client = client is None
        self.feeds: dict[str, Feed] = {}
        self.health: dict[str, FeedHealth] = {}
        self.progress: dict[int, Progress] = {}  # the replay's state between rounds (rows hold checkpoints)
        self.plans: dict[int, Plan] = {}
        self.saved: dict[int, int] = {}  # the cursor each row holds
        self.known: set[tuple[str, str]] = set()  # symbols the feed confirmed in this process
        self.adopted_up_to = 0
        self._last_prune = 0.0
        self._task: asyncio.Task[None] | None = None
        self.wake = asyncio.Event()

    # ---------------------------------------------------------------- lifecycle

    async def start(self) -> None:
        if self.settings.price_feed == "off":
            return
        self.prepare()
        self._task = asyncio.create_task(self._loop())

    def prepare(self) -> None:
        """The feed clients (started by `start`; tests call it and run rounds themselves)."""
        if self._client is None:
            self._client = httpx.AsyncClient(headers={"User-Agent": "tradeideas-price-check"})
        self.feeds["binance"] = BinanceFeed(self._client, self.settings.binance_api_url)
        if self.settings.oanda_token:
            self.feeds["oanda"] = OandaFeed(self._client, self.settings.oanda_api_url, self.settings.oanda_token)
        self.health = {name: FeedHealth() for name in self.feeds}

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        if self._own_client and self._client is not None:
            await self._client.aclose()
            self._client = None

    async def _loop(self) -> None:
        while True:
            started = time.monotonic()
            try:
                if self.leader.is_leader:
                    await self.run_round()
                else:
                    # Another process leads: its rows are the truth when this one leads again.
                    self.progress.clear()
                    self.plans.clear()
                    self.saved.clear()
                    self.adopted_up_to = 0
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("price check round failed; trying again at the next poll")
            elapsed = time.monotonic() - started
            with suppress(TimeoutError):
                await asyncio.wait_for(self.wake.wait(), max(0.0, self.settings.price_poll_seconds - elapsed))
            self.wake.clear()

    # ---------------------------------------------------------------- one round

    def status(self) -> FeedStatus:
        """ok when every feed asked answered its last request; degraded otherwise, or before any answer."""
        if self.settings.price_feed == "off":
            return "off"
        asked = [h.ok for h in self.health.values() if h.ok is not None]
        return "ok" if asked and all(asked) else "degraded"

    async def run_round(self) -> Round:
        result = Round()
        now = self.now()
        async with self.database.sessionmaker() as db, db.begin():
            await self._adopt(db)
            await self._refresh_levels(db, now)
            watched = await service.open_series(db)
        series: dict[tuple[str, str], list[int]] = {}
        for idea_id, feed, symbol in watched:
            if feed is not None and symbol is not None and feed in self.feeds:
                series.setdefault((feed, symbol), []).append(idea_id)
        result.series = len(series)
        limit = asyncio.Semaphore(SERIES_CONCURRENCY)

        async def one(key: tuple[str, str], ids: list[int]) -> None:
            async with limit:
                try:
                    await self._series(key[0], key[1], ids, result)
                except Exception:
                    log.exception("price check of %s %s failed", *key)

        await asyncio.gather(*(one(key, ids) for key, ids in series.items()))
        for name, health in self.health.items():
            lag = 0.0 if not series or health.newest is None else max(0.0, now.timestamp() - health.newest)
            PRICE_FEED_LAG.labels(name).set(lag)
        prune = time.monotonic() - self._last_prune > PRUNE_EVERY_SECONDS
        async with self.database.sessionmaker() as db, db.begin():
            await service.write_status(db, self.status())
            if prune:
                self._last_prune = time.monotonic()
                await service.prune_candles(db, now)
        return result

    async def _adopt(self, db: AsyncSession) -> None:
        if self.adopted_up_to == 0:
            self.adopted_up_to = await service.max_adopted(db)
            first = await ideas_to_price(db, after_id=0, limit=100_000)
            have = await service.adopted_ids(db, 0)
            for idea in first:
                if idea.id not in have:
                    await service.adopt(db, idea, self.settings)
            self.adopted_up_to = max([self.adopted_up_to, *(i.id for i in first)])
            return
        # Ideas committed out of id order: look a little behind the newest adopted one.
        after = max(0, self.adopted_up_to - 50)
        fresh = await ideas_to_price(db, after_id=after)
        have = await service.adopted_ids(db, after)
        for idea in fresh:
            if idea.id not in have:
                await service.adopt(db, idea, self.settings)
            self.adopted_up_to = max(self.adopted_up_to, idea.id)

    async def _refresh_levels(self, db: AsyncSession, now: datetime) -> None:
        rows = list(
            (await db.execute(select(IdeaVerification).where(IdeaVerification.levels_fixed.is_(False)))).scalars()
        )
        if not rows:
            return
        ideas = await ideas_to_price(db, ids=[r.idea_id for r in rows])
        before = {r.idea_id: dict(r.levels) for r in rows}
        await service.refresh_levels(db, rows, ideas, now, self.settings)
        for row in rows:
            if row.levels != before[row.idea_id]:
                self.forget(row.idea_id)

    async def _fetch(self, feed: Feed, symbol: str, granularity: str, start: int, result: Round) -> list[Candle] | None:
        health = self.health[feed.name]
        clock = time.monotonic()
        if clock < health.blocked_until:
            return None
        key = (feed.name, symbol, granularity)
        result.requests[key] = result.requests.get(key, 0) + 1
        try:
            candles = await feed.candles(symbol, granularity, start, now=self.now().timestamp())
        except FeedUnavailable as error:
            health.failed(clock, error)
            log.warning("%s", error)
            return None
        health.succeeded()
        return candles

    async def _rows(self, db: AsyncSession, ids: list[int]) -> list[IdeaVerification]:
        stmt = select(IdeaVerification).where(IdeaVerification.idea_id.in_(ids), IdeaVerification.done.is_(False))
        return list((await db.execute(stmt)).scalars())

    async def _series(self, feed_name: str, symbol: str, ids: list[int], result: Round) -> None:
        feed = self.feeds[feed_name]
        health = self.health[feed_name]
        async with self.database.sessionmaker() as db, db.begin():
            # Plans and progress live in memory between rounds; rows are read for ideas new to this process and
            # written for those that took a step (or a checkpoint is due).
            missing = [i for i in ids if i not in self.plans or i not in self.progress]
            if missing:
                for row in await self._rows(db, missing):
                    plan = service.plan_of(row)
                    if isinstance(plan, str):
                        continue
                    self.plans[row.idea_id] = plan
                    progress = service.load_progress(row.progress)
                    self.progress[row.idea_id] = progress
                    self.saved[row.idea_id] = progress.cursor
            ids = [i for i in ids if i in self.plans and i in self.progress]
            if not ids:
                return
            now = self.now()
            if (feed_name, symbol) not in self.known and time.monotonic() >= health.blocked_until:
                try:
                    await feed.check_symbol(symbol, now.timestamp())
                    self.known.add((feed_name, symbol))
                    health.succeeded()
                except UnknownSymbol as unknown:
                    await self._unknown(db, await self._rows(db, ids), feed_name, symbol, str(unknown))
                    return
                except FeedUnavailable as error:
                    health.failed(time.monotonic(), error)
            lead = int(service.CHART_LEAD.total_seconds())
            needed = min(max(self.progress[i].cursor, self.plans[i].published - lead) for i in ids)
            stored_until = await service.last_complete(db, feed_name, symbol, feed.base)
            start = needed if stored_until is None or stored_until < needed else stored_until
            if (feed_name, symbol) in self.known:
                try:
                    fetched = await self._fetch(feed, symbol, feed.base, start, result)
                except UnknownSymbol as unknown:
                    await self._unknown(db, await self._rows(db, ids), feed_name, symbol, str(unknown))
                    return
                if fetched:
                    await service.store_candles(db, feed_name, symbol, fetched)
            candles = await service.stored_candles(db, feed_name, symbol, feed.base, needed)
            if candles:
                newest = max(c.end for c in candles)
                health.newest = newest if health.newest is None else max(health.newest, newest)
            detail: dict[int, list[Candle]] = {}
            befores = {i: self.progress[i] for i in ids}
            needs = self._advance(ids, candles, detail, now)
            if needs:
                await self._detail(db, feed, symbol, min(needs), needs, detail, result)
                self._advance(ids, candles, detail, now)
            changed = [
                i
                for i in ids
                if (self.progress[i].receipts, self.progress[i].state) != (befores[i].receipts, befores[i].state)
                or self.progress[i].cursor - self.saved.get(i, 0) >= service.CHECKPOINT_SECONDS
            ]
            for row in await self._rows(db, changed) if changed else []:
                before, after = befores[row.idea_id], self.progress[row.idea_id]
                service.apply_progress(row, after)
                row.updated_at = now
                self.saved[row.idea_id] = after.cursor
                if (after.receipts, after.state) != (before.receipts, before.state):
                    await service.announce(db, row, self.settings)
                    await service.publish_steps(db, row, before, after)
                    result.moved += 1
        for i in ids:
            if self.progress[i].done:
                self.forget(i)

    def _advance(
        self, ids: list[int], candles: list[Candle], detail: dict[int, list[Candle]], now: datetime
    ) -> set[int]:
        """Replays each idea over the series' candles in memory; returns the base candles that need finer ones."""
        needs: set[int] = set()
        epoch = int(now.timestamp())
        for i in ids:
            after = advance(self.plans[i], self.progress[i], candles, epoch, detail)
            if after.needs_detail is not None:
                needs.add(after.needs_detail)
            self.progress[i] = after
        return needs

    def forget(self, idea_id: int) -> None:
        self.progress.pop(idea_id, None)
        self.plans.pop(idea_id, None)
        self.saved.pop(idea_id, None)

    async def _detail(
        self,
        db: AsyncSession,
        feed: Feed,
        symbol: str,
        start: int,
        needs: set[int],
        detail: dict[int, list[Candle]],
        result: Round,
    ) -> None:
        """Finer candles for the base candles that span two levels: one request from the earliest of them."""
        fine = DETAIL[feed.base]
        step = 60
        stored = await service.stored_candles(db, feed.name, symbol, fine, start, max(needs) + step)
        covered = {t for t in needs if any(c.time >= t + step - 5 and c.complete for c in stored)}
        if covered != needs and (feed.name, symbol) in self.known:
            fetched = await self._fetch(feed, symbol, fine, start, result)
            if fetched is None:
                return  # the feed is away: the ideas wait for it rather than settle without their finer candles
            await service.store_candles(db, feed.name, symbol, fetched)
            stored = await service.stored_candles(db, feed.name, symbol, fine, start, max(needs) + step)
        reach = max((c.end for c in stored), default=start)
        for base in needs:
            if base + step <= reach or any(base <= c.time < base + step for c in stored):
                detail[base] = [c for c in stored if base <= c.time < base + step]

    async def _unknown(
        self, db: AsyncSession, rows: list[IdeaVerification], feed: str, symbol: str, message: str
    ) -> None:
        reason = service.UNKNOWN_SYMBOL.format(
            feed="Binance" if feed == "binance" else "OANDA", symbol=symbol, message=message.rstrip(".")
        )
        for row in rows:
            before = service.load_progress(row.progress)
            after = unverifiable(reason)
            service.apply_progress(row, after)
            await service.announce(db, row, self.settings)
            await service.publish_steps(db, row, before, after)
            self.forget(row.idea_id)
