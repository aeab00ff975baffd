"""The price poller: every PRICE_POLL_SECONDS, in the one process that leads (`core.leader`, decision 0049), one
request per feed symbol and granularity for the ideas still waiting or open, then their settlement steps.

A round adopts ideas that have no verification row yet, fetches each symbol's new candles (from the newest
complete one stored, or from an hour before its oldest open idea), stores them, replays each idea over them
(`settlement.advance`), fetches finer candles where a candle spans two levels, and writes the steps with their
events in one transaction (a few after a backlog: `WRITE_BATCH_MOVED`). A feed that does not answer (rate limits,
bans, 5xx, timeouts, malformed bodies) is left alone for its Retry-After or an exponential backoff; the ideas on
it wait with what is stored, so no verdict is ever taken from a missing answer. Progress lives in the rows: a
restart resumes where the last committed round ended (the replay is idempotent; a step is recorded once).
"""

import asyncio
import logging
import time
from bisect import bisect_left
from collections.abc import Callable
from contextlib import suppress
from dataclasses import dataclass, field
from datetime import datetime
from typing import Literal

import aiohttp
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from tradeideas.core.events import DomainEvent
from tradeideas.core.leader import Leader
from tradeideas.core.metrics import PRICE_FEED_LAG
from tradeideas.db import Database, utcnow
from tradeideas.ideas.pricing import ideas_to_price
from tradeideas.prices import service
from tradeideas.prices.book import Book
from tradeideas.prices.feeds import (
    Answer,
    BinanceFeed,
    DukascopyFeed,
    Feed,
    FeedUnavailable,
    OandaFeed,
    UnknownSymbol,
)
from tradeideas.prices.models import IdeaVerification
from tradeideas.prices.settlement import DETAIL, Candle, Plan, Progress, advance, unverifiable, watched
from tradeideas.realtime.service import publish_many
from tradeideas.settings import Settings

log = logging.getLogger(__name__)

FeedStatus = Literal["ok", "degraded", "off"]
PRUNE_EVERY_SECONDS = 3600.0
SERIES_CONCURRENCY = 8
CHECKPOINT_BATCH = 100  # cursor-only checkpoints written per round, oldest first
ADOPT_SLICE = 200  # ideas read and adopted per transaction on the first round
# The longest the replay runs on the event loop before letting the process's requests in. The first round after a
# start replays every waiting idea over its stored candles: 1.4 s in one go for the demo's 425 ideas, and every
# request of the leading process waited for it (a first login took 5 s).
YIELD_EVERY_SECONDS = 0.005
# The most moved ideas a round writes in one transaction. A steady round is one transaction, so the cached idea
# pages are dropped once per round (decision 0055); the first round after a start, with hundreds of steps and their
# ledger entries, is several, so SQLite's write lock and the ledger's turn are never held for long (decision 0071).
WRITE_BATCH_MOVED = 50
# The pause between two such transactions (and two slices of the first round's adoption) on SQLite, which has no
# queue of writers: a waiting one polls (its busy handler sleeps up to 100 ms between tries), so a pause longer than
# that lets the requests waiting to write go first. PostgreSQL queues them on its locks: no pause.
BETWEEN_WRITES_SECONDS = 0.12


@dataclass
class SymbolHealth:
    """How one symbol's requests went: its own backoff, so one symbol's bad answers never hold back another's."""

    failures: int = 0  # rounds in a row that failed (one per round, however many requests it made)
    blocked_until: float = 0.0  # monotonic
    reason: str | None = None  # why its last round failed; None when it answered


@dataclass
class FeedHealth:
    """When a feed may be asked again, and how its symbols' last rounds went."""

    retry_until: float = 0.0  # monotonic: the feed said to stay away (Retry-After, a ban, a refused location)
    retry_reason: str | None = None
    last_success: datetime | None = None
    symbols: dict[str, SymbolHealth] = field(default_factory=dict)
    newest: int | None = None  # end of the newest candle held for the watched symbols (epoch seconds)

    def symbol(self, symbol: str) -> SymbolHealth:
        return self.symbols.setdefault(symbol, SymbolHealth())

    def failing(self, clock: float) -> dict[str, str]:
        """Symbol -> why it is not being checked now."""
        out = {s: h.reason for s, h in self.symbols.items() if h.reason is not None}
        if clock < self.retry_until and self.retry_reason:
            out = {s: out.get(s, self.retry_reason) for s in self.symbols} or {"*": self.retry_reason}
        return out

    def told_to_wait(self, clock: float, error: FeedUnavailable) -> None:
        """A 429, 418 or 451 says how long the whole feed is to be left alone: every symbol waits for it, and an
        answer to a request already under way does not shorten it."""
        if error.retry_after is not None:
            self.retry_until = max(self.retry_until, clock + error.retry_after)
            self.retry_reason = str(error)


@dataclass
class Held:
    """One feed symbol between rounds, in the leading process: its base candles from where its ideas need them, and
    the book of its ideas that every candle up to `passed` has left where they were."""

    candles: list[Candle] = field(default_factory=list)  # oldest first
    loaded_from: int | None = None  # every stored candle opening from here on is in `candles`
    needed: int = 0  # where the oldest of its ideas needs candles from
    passed: int = 0  # end of the newest complete candle the ideas in the book have been checked against
    book: Book = field(default_factory=Book)


@dataclass
class Round:
    """What one poll round did (for tests and the benchmark)."""

    requests: dict[tuple[str, str, str], int] = field(default_factory=dict)  # (feed, symbol, granularity) -> count
    moved: int = 0
    writes_moved: int = 0  # transactions that wrote steps: each drops the cached idea pages once
    series: int = 0
    replayed: int = 0  # ideas replayed over new candles (new ones, and those a candle may move)
    # (feed, symbol) -> why its requests failed this round, None when they all answered with believable candles
    outcomes: dict[tuple[str, str], str | None] = field(default_factory=dict)


class PricePoller:
    def __init__(
        self,
        database: Database,
        settings: Settings,
        leader: Leader,
        now: Callable[[], datetime] = utcnow,
        client: aiohttp.ClientSession | None = None,
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
        self.member_of: dict[int, tuple[str, str]] = {}  # idea -> (feed, symbol)
        self.held: dict[tuple[str, str], Held] = {}
        self.known: set[tuple[str, str]] = set()  # symbols the feed confirmed in this process
        self.adopted_up_to = 0
        self.rounds = 0
        self.in_use: set[str] = set()  # feeds the last round had symbols on
        self._last_prune = 0.0
        self._task: asyncio.Task[None] | None = None
        self.wake = asyncio.Event()
        self.clock: Callable[[], float] = time.monotonic  # backoffs and Retry-After (tests move it)

    # ---------------------------------------------------------------- lifecycle

    async def start(self) -> None:
        if self.settings.price_feed == "off":
            return
        self.prepare()
        self._task = asyncio.create_task(self._loop())

    def prepare(self) -> None:
        """The feed clients (started by `start`; tests call it and run rounds themselves)."""
        if self._client is None:
            self._client = aiohttp.ClientSession(headers={"User-Agent": "tradeideas-price-check"})
        settings = self.settings
        cap, wait = settings.price_max_response_bytes, settings.price_max_backoff_seconds
        self.feeds["binance"] = BinanceFeed(self._client, settings.binance_api_url, cap, wait)
        forex = settings.forex_feed_in_use
        if forex == "oanda" and settings.oanda_token:
            self.feeds["oanda"] = OandaFeed(self._client, settings.oanda_api_url, settings.oanda_token, cap, wait)
        elif forex == "dukascopy":
            self.feeds["dukascopy"] = DukascopyFeed(self._client, settings.dukascopy_url, cap, wait)
        self.health = {name: FeedHealth() for name in self.feeds}

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        if self._own_client and self._client is not None:
            await self._client.close()
            self._client = None

    async def _loop(self) -> None:
        while True:
            started = time.monotonic()
            try:
                if self.leader.is_leader:
                    await self.run_round()
                else:
                    # Another process leads: its rows are the truth when this one leads again.
                    self.reset()
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
        """ok when every symbol of every feed in use answered its last round with believable candles; degraded
        otherwise, and before the first round."""
        if self.settings.price_feed == "off":
            return "off"
        clock = self.clock()
        failing = any(self.health[name].failing(clock) for name in self.in_use)
        return "ok" if self.rounds and not failing else "degraded"

    def report(self) -> dict[str, object]:
        """What `/api/health` shows of the feeds: the status and, per feed, its last success and failing symbols."""
        clock = self.clock()
        feeds = {}
        for name, health in self.health.items():
            feeds[name] = {
                "lastSuccess": health.last_success.isoformat() if health.last_success else None,
                "failing": [{"symbol": s, "reason": r} for s, r in sorted(health.failing(clock).items())],
            }
        return {"status": self.status(), "feeds": feeds}

    def _record_health(self, outcomes: dict[tuple[str, str], str | None], now: datetime) -> None:
        """One failure per symbol per round, whatever number of requests failed; an answer resets it at once."""
        clock = self.clock()
        for (feed, symbol), reason in outcomes.items():
            health = self.health[feed]
            one = health.symbol(symbol)
            if reason is None:
                one.failures, one.blocked_until, one.reason = 0, 0.0, None
                health.last_success = now
                continue
            one.failures += 1
            one.reason = reason
            backoff = min(self.settings.price_max_backoff_seconds, 2.0 ** (one.failures - 1))
            one.blocked_until = clock + backoff

    async def run_round(self) -> Round:
        """One poll: adopt new ideas, one request per symbol and granularity, replay only the ideas the new candles
        can move (`book.Book`), then write the steps, checkpoints and candles: one transaction, or one per batch of
        symbols after a backlog (`WRITE_BATCH_MOVED`)."""
        result = Round()
        now = self.now()
        await self._adopt()
        async with self.database.sessionmaker() as db, db.begin():
            await self._refresh_levels(db, now)
        async with self.database.sessionmaker() as db:  # reads only: no write lock held while candles load
            series = await self._watch(db)
        result.series = len(series)
        limit = asyncio.Semaphore(SERIES_CONCURRENCY)
        fetched: dict[tuple[str, str], list[Candle]] = {}
        unknown: dict[tuple[str, str], str] = {}

        async def one(key: tuple[str, str]) -> None:
            async with limit:
                try:
                    candles = await self._poll(key, series[key], result)
                except UnknownSymbol as error:
                    unknown[key] = str(error)
                    return
                except Exception as error:  # never a traceback loop: a failure of this symbol, backed off
                    log.exception("price check of %s %s failed", *key)
                    result.outcomes[key] = f"internal error: {error.__class__.__name__}"
                    return
                if candles:
                    fetched[key] = candles

        await asyncio.gather(*(one(key) for key in series))
        epoch = int(now.timestamp())
        changed: dict[int, Progress] = {}  # idea -> progress before this round (for those that took a step)
        detail_needed: dict[tuple[str, str], set[int]] = {}
        for key, ids in series.items():
            if key in unknown:
                continue
            needs = await self._replay(key, ids, fetched.get(key, []), {}, epoch, changed, result)
            if needs:
                detail_needed[key] = needs
        stored: list[tuple[str, str, list[Candle]]] = [(k[0], k[1], c) for k, c in fetched.items()]
        for key, needs in detail_needed.items():
            detail: dict[int, list[Candle]] = {}
            feed = self.feeds[key[0]]
            fine = await self._detail(feed, key[1], min(needs), needs, detail, result)
            if fine:
                stored.append((key[0], key[1], fine))
            await self._replay(key, series[key], [], detail, epoch, changed, result)
        due = self._checkpoints(series, epoch)
        try:
            due_ids = set(due)
            for n, keys in enumerate(self._write_batches(series, changed)):
                if n:
                    await self._pause_between_writes()
                await self._write(keys, series, stored, unknown, due_ids, changed, now, result)
        except BaseException:
            # What the batches written so far committed stays; what memory holds beyond the rows (steps, candles)
            # is forgotten and read again from the rows and the stored candles next round, so no step is lost.
            self.reset()
            raise
        for ids in series.values():
            for i in ids:
                progress = self.progress.get(i)
                if progress is not None and progress.done:
                    self.forget(i)
        for name, health in self.health.items():
            lag = 0.0 if not series or health.newest is None else max(0.0, now.timestamp() - health.newest)
            PRICE_FEED_LAG.labels(name).set(lag)
        self._record_health(result.outcomes, now)
        self.in_use = {feed for feed, _ in series}
        self.rounds += 1
        prune = time.monotonic() - self._last_prune > PRUNE_EVERY_SECONDS
        async with self.database.sessionmaker() as db, db.begin():
            await service.write_status(db, self.report())
            if prune:
                self._last_prune = time.monotonic()
                await service.prune_candles(db, now)
        return result

    def _write_batches(
        self, series: dict[tuple[str, str], list[int]], changed: dict[int, Progress]
    ) -> list[list[tuple[str, str]]]:
        """The round's symbols in batches of at most `WRITE_BATCH_MOVED` moved ideas (a symbol is never split): a
        steady round is one batch."""
        batches: list[list[tuple[str, str]]] = [[]]
        moved_in_batch = 0
        for key, ids in series.items():
            moved = sum(1 for i in ids if i in changed)
            if batches[-1] and moved_in_batch + moved > WRITE_BATCH_MOVED:
                batches.append([])
                moved_in_batch = 0
            batches[-1].append(key)
            moved_in_batch += moved
        return batches

    async def _write(
        self,
        keys: list[tuple[str, str]],
        series: dict[tuple[str, str], list[int]],
        stored: list[tuple[str, str, list[Candle]]],
        unknown: dict[tuple[str, str], str],
        due: set[int],
        changed: dict[int, Progress],
        now: datetime,
        result: Round,
    ) -> None:
        """A batch of symbols in one transaction: their candles, unknown symbols' verdicts, then their ideas'
        checkpoints, steps and events."""
        chosen = set(keys)
        candles = [(feed, symbol, c) for feed, symbol, c in stored if (feed, symbol) in chosen]
        ids = [i for key in keys for i in series[key]]
        moved = [i for i in ids if i in changed]
        if not (candles or chosen & unknown.keys() or due.intersection(ids) or moved):
            return
        async with self.database.sessionmaker() as db, db.begin():
            await service.store_candles(db, candles)
            for key in keys:
                if key in unknown:
                    await self._unknown(db, await self._rows(db, series[key]), key[0], key[1], unknown[key])
            quiet = [i for i in ids if i in due and i not in changed and i in self.progress]  # `_unknown` forgets
            await service.write_checkpoints(db, [(i, self.progress[i]) for i in quiet], now)
            for i in quiet:
                self.saved[i] = self.progress[i].cursor
            events: list[DomainEvent] = []
            for row in await self._rows(db, moved):
                before, after = changed.get(row.idea_id), self.progress.get(row.idea_id)
                if after is None:
                    continue
                service.apply_progress(row, after)
                row.updated_at = now
                self.saved[row.idea_id] = after.cursor
                if before is not None:
                    events.append(service.changed_event(row, self.settings))
                    events.extend(service.step_events(row, before, after))
                    result.moved += 1
            if events:
                result.writes_moved += 1
            await publish_many(db, events)

    async def _adopt(self) -> None:
        """Verification rows for the ideas that have none. The first round after a start reads (and adopts) them in
        slices, each in a transaction of its own, with a pause between."""
        if self.adopted_up_to == 0:
            async with self.database.sessionmaker() as db, db.begin():
                reopened = await service.reopen_unchecked(db, self.settings)
            if reopened:
                log.info("price check: %d forex ideas no feed could check are checked again", reopened)
            async with self.database.sessionmaker() as db:
                newest = await service.max_adopted(db)
                have = await service.adopted_ids(db, 0)
            # In slices: each slice's revisions are read with its ids as parameters, and a driver takes at most
            # 32,767 of them (asyncpg); a database of 100,000 ideas failed its first round in one read.
            after = 0
            while True:
                async with self.database.sessionmaker() as db, db.begin():
                    batch = await ideas_to_price(db, after_id=after, limit=ADOPT_SLICE)
                    if not batch:
                        break
                    await service.adopt_many(db, [idea for idea in batch if idea.id not in have], self.settings)
                after = batch[-1].id
                await self._pause_between_writes()
            # Only once every slice is in: a round that fails part way starts the slices again next time.
            self.adopted_up_to = max(newest, after)
            return
        # Ideas committed out of id order: look a little behind the newest adopted one.
        after = max(0, self.adopted_up_to - 50)
        async with self.database.sessionmaker() as db, db.begin():
            fresh = await ideas_to_price(db, after_id=after)
            have = await service.adopted_ids(db, after)
            await service.adopt_many(db, [idea for idea in fresh if idea.id not in have], self.settings)
        self.adopted_up_to = max([self.adopted_up_to, *(i.id for i in fresh)])

    async def _pause_between_writes(self) -> None:
        if self.database.engine.dialect.name == "sqlite":
            await asyncio.sleep(BETWEEN_WRITES_SECONDS)

    async def _refresh_levels(self, db: AsyncSession, now: datetime) -> None:
        rows = list(
            (await db.execute(select(IdeaVerification).where(IdeaVerification.levels_fixed.is_(False)))).scalars()
        )
        if not rows:
            return
        ideas = await ideas_to_price(db, ids=[r.idea_id for r in rows], limit=len(rows))
        before = {r.idea_id: dict(r.levels) for r in rows}
        await service.refresh_levels(db, rows, ideas, now, self.settings)
        for row in rows:
            if row.levels != before[row.idea_id]:
                self.forget(row.idea_id)

    async def _watch(self, db: AsyncSession) -> dict[tuple[str, str], list[int]]:
        """The ideas still waiting or open, by feed symbol, with their plans and progress in memory (read from the
        rows for ideas new to this process), and each symbol's stored candles from where its ideas need them."""
        series: dict[tuple[str, str], list[int]] = {}
        for idea_id, feed, symbol in await service.open_series(db):
            if feed is not None and symbol is not None and feed in self.feeds:
                series.setdefault((feed, symbol), []).append(idea_id)
        watching = {i for ids in series.values() for i in ids}
        for gone in [i for i in self.member_of if i not in watching]:  # deleted, or settled by another leader
            self.forget(gone)
        missing = [i for i in watching if i not in self.plans]
        for start in range(0, len(missing), 1000):
            for row in await self._rows(db, missing[start : start + 1000]):
                plan = service.plan_of(row)
                if isinstance(plan, str) or row.feed is None or row.symbol is None:
                    continue
                progress = service.load_progress(row.progress)
                self.plans[row.idea_id] = plan
                self.progress[row.idea_id] = progress
                self.saved[row.idea_id] = progress.cursor
                self.member_of[row.idea_id] = (row.feed, row.symbol)
        lead = int(service.CHART_LEAD.total_seconds())
        for key, ids in list(series.items()):
            ids = [i for i in ids if i in self.plans]
            if not ids:
                del series[key]
                continue
            series[key] = ids
            held = self.held.setdefault(key, Held())
            needed = min(max(self.progress[i].cursor, self.plans[i].published - lead) for i in ids)
            if held.loaded_from is None or needed < held.loaded_from:
                base = self.feeds[key[0]].base
                held.candles = _merged(await service.stored_candles(db, key[0], key[1], base, needed), held.candles)
                held.loaded_from = needed
            held.needed = needed
        for key in [k for k in self.held if k not in series]:
            del self.held[key]
        return series

    async def _poll(self, key: tuple[str, str], ids: list[int], result: Round) -> list[Candle] | None:
        """The symbol checked once per process, then its new base candles: one request."""
        feed_name, symbol = key
        feed = self.feeds[feed_name]
        if key not in self.known and self._may_ask(feed, symbol):
            try:
                await feed.check_symbol(symbol, self.now().timestamp())
                self.known.add(key)
            except FeedUnavailable as error:
                self._failed(feed, symbol, error, result)
        if key not in self.known:
            return None
        held = self.held[key]
        newest = max((c.end for c in held.candles if c.complete), default=None)
        start = held.needed if newest is None or newest < held.needed else newest
        resume = feed.resume_from(symbol)
        if resume is not None:
            start = max(start, resume)
        return await self._fetch(feed, symbol, feed.base, start, result)

    def _may_ask(self, feed: Feed, symbol: str) -> bool:
        clock = self.clock()
        health = self.health[feed.name]
        return clock >= health.retry_until and clock >= health.symbol(symbol).blocked_until

    def _failed(self, feed: Feed, symbol: str, error: FeedUnavailable, result: Round) -> None:
        self.health[feed.name].told_to_wait(self.clock(), error)
        result.outcomes[(feed.name, symbol)] = str(error)
        log.warning("price feed %s, %s: %s", feed.name, symbol, error)

    async def _fetch(
        self, feed: Feed, symbol: str, granularity: str, start: int, result: Round, end: int | None = None
    ) -> list[Candle] | None:
        """The believable candles of one answer; None when the feed or the symbol is left alone or did not answer.
        Candles that fail their checks are dropped with a warning, counted, and fail the symbol's round."""
        if not self._may_ask(feed, symbol):
            return None
        key = (feed.name, symbol, granularity)
        result.requests[key] = result.requests.get(key, 0) + 1
        try:
            answer: Answer = await feed.candles(symbol, granularity, start, now=self.now().timestamp(), end=end)
        except FeedUnavailable as error:
            self._failed(feed, symbol, error, result)
            return None
        for rejection in answer.rejected:
            feed.reject(rejection)
            log.warning(
                "price feed %s, %s: candle dropped (%s): %s", feed.name, symbol, rejection.reason, rejection.detail
            )
        if answer.rejected:
            first = answer.rejected[0]
            result.outcomes[(feed.name, symbol)] = f"{feed.label} sent a candle that fails its check ({first.reason})"
        elif answer.asked:  # not asked (nothing new to ask for): how it last answered still stands
            result.outcomes.setdefault((feed.name, symbol), None)
        return answer.candles

    async def _rows(self, db: AsyncSession, ids: list[int]) -> list[IdeaVerification]:
        out: list[IdeaVerification] = []
        for start in range(0, len(ids), 1000):
            stmt = select(IdeaVerification).where(
                IdeaVerification.idea_id.in_(ids[start : start + 1000]), IdeaVerification.done.is_(False)
            )
            out.extend((await db.execute(stmt)).scalars())
        return out

    async def _replay(
        self,
        key: tuple[str, str],
        ids: list[int],
        fetched: list[Candle],
        detail: dict[int, list[Candle]],
        epoch: int,
        changed: dict[int, Progress],
        result: Round,
    ) -> set[int]:
        """Replays the symbol's ideas that its new candles may move (and those not in its book: new, or waiting
        for finer candles); returns the base candles that need finer ones. It yields to the event loop every few
        milliseconds: only `run_round` changes the poller's state, one round at a time, so nothing else can see it
        half done."""
        held = self.held[key]
        held.candles = _merged(held.candles, fetched)
        if held.candles:
            newest = max(c.end for c in held.candles)
            health = self.health[key[0]]
            health.newest = newest if health.newest is None else max(health.newest, newest)
        times = [c.time for c in held.candles]
        fresh = held.candles[bisect_left(times, held.passed) :]
        previous = next((c for c in reversed(held.candles) if c.end == held.passed and c.complete), None)
        replay = [i for i in ids if i not in held.book]
        touched = held.book.touched(fresh, previous)
        replay.extend(i for i in ids if i in touched)
        passed = max((c.end for c in held.candles if c.complete), default=held.passed)
        needs: set[int] = set()
        result.replayed += len(replay)
        since_yield = time.perf_counter()
        for i in replay:
            if time.perf_counter() - since_yield > YIELD_EVERY_SECONDS:
                await asyncio.sleep(0)
                since_yield = time.perf_counter()
            held.book.remove(i)
            before = self.progress[i]
            since = held.candles[bisect_left(times, before.cursor - 60) :]
            after = advance(self.plans[i], before, since, epoch, detail)
            self.progress[i] = after
            if (after.receipts, after.state) != (before.receipts, before.state):
                changed.setdefault(i, before)
            if after.needs_detail is not None:
                needs.add(after.needs_detail)
                continue
            watch = watched(self.plans[i], after)
            if watch is not None and after.cursor == passed:
                held.book.add(i, watch)
        held.passed = passed
        # Candles every idea has passed are not needed in memory (the oldest cursor's previous one is kept).
        oldest = min(self.progress[i].cursor for i in ids)
        keep = bisect_left(times, min(oldest, held.needed) - 60)
        if keep > 0:
            held.candles = held.candles[keep:]
            held.loaded_from = max(held.loaded_from or 0, held.candles[0].time if held.candles else passed)
        return needs

    def _checkpoints(self, series: dict[tuple[str, str], list[int]], epoch: int) -> list[int]:
        """Ideas whose saved cursor is ten minutes of path behind (at most CHECKPOINT_BATCH per round, oldest first):
        their progress is brought up to date (a replay over quiet candles) and written."""
        due: list[tuple[int, int]] = []
        for key, ids in series.items():
            held = self.held.get(key)
            if held is None:
                continue
            behind = held.passed - service.CHECKPOINT_SECONDS
            for i in ids:
                # A row that was never checkpointed resumes from publishing.
                saved = max(self.saved.get(i, 0), self.plans[i].published)
                if saved <= behind:
                    due.append((saved, i))
        due.sort()
        out = []
        for _, i in due[:CHECKPOINT_BATCH]:
            held = self.held[self.member_of[i]]
            before = self.progress[i]
            times = [c.time for c in held.candles]
            after = advance(self.plans[i], before, held.candles[bisect_left(times, before.cursor - 60) :], epoch)
            if after.needs_detail is not None or (after.receipts, after.state) != (before.receipts, before.state):
                continue  # not quiet after all: left for the next round's replay
            self.progress[i] = after
            out.append(i)
        return out

    def reset(self) -> None:
        """Forget everything held in memory: the next round starts from the rows, as after a restart."""
        self.progress.clear()
        self.plans.clear()
        self.saved.clear()
        self.member_of.clear()
        self.held.clear()
        self.adopted_up_to = 0
        for feed in self.feeds.values():
            feed.forget()

    def forget(self, idea_id: int) -> None:
        self.progress.pop(idea_id, None)
        self.plans.pop(idea_id, None)
        self.saved.pop(idea_id, None)
        key = self.member_of.pop(idea_id, None)
        if key is not None and key in self.held:
            self.held[key].book.remove(idea_id)

    async def _detail(
        self,
        feed: Feed,
        symbol: str,
        start: int,
        needs: set[int],
        detail: dict[int, list[Candle]],
        result: Round,
    ) -> list[Candle] | None:
        """Finer candles for the base candles that span two levels: one request from the earliest of them. Returns
        what was fetched (stored with the round's writes)."""
        fine = DETAIL[feed.base]
        step = 60
        end = max(needs) + step
        async with self.database.sessionmaker() as db:
            stored = await service.stored_candles(db, feed.name, symbol, fine, start, end)
        covered = {t for t in needs if any(c.time >= t + step - 5 and c.complete for c in stored)}
        fetched = None
        if covered != needs and (feed.name, symbol) in self.known:
            fetched = await self._fetch(feed, symbol, fine, start, result, end)
            if fetched is None:
                return None  # the feed is away: the ideas wait for it rather than settle without their finer candles
            stored = _merged(stored, [c for c in fetched if start <= c.time < end])
        reach = max((c.end for c in stored), default=start)
        for base in needs:
            if base + step <= reach or any(base <= c.time < base + step for c in stored):
                detail[base] = [c for c in stored if base <= c.time < base + step]
        return fetched

    async def _unknown(
        self, db: AsyncSession, rows: list[IdeaVerification], feed: str, symbol: str, message: str
    ) -> None:
        detail = service.UNKNOWN_SYMBOL.format(feed=self.feeds[feed].label, symbol=symbol, message=message.rstrip("."))
        log.warning("price check: %s", detail)
        pairs = {i.id: i.pair for i in await ideas_to_price(db, ids=[r.idea_id for r in rows], limit=len(rows))}
        for row in rows:
            before = service.load_progress(row.progress)
            after = unverifiable(service.NOT_AVAILABLE.format(pair=pairs.get(row.idea_id, symbol)), detail)
            service.apply_progress(row, after)
            await service.announce(db, row, self.settings)
            await service.publish_steps(db, row, before, after)
            self.forget(row.idea_id)


def _merged(older: list[Candle], newer: list[Candle]) -> list[Candle]:
    """One series oldest first; a candle in `newer` replaces the one of the same time (an open one, completed)."""
    if not newer:
        return older
    by_time = {c.time: c for c in older}
    by_time.update((c.time, c) for c in newer)
    return [by_time[t] for t in sorted(by_time)]
