"""The price poller: every PRICE_POLL_SECONDS, in the one process that leads (`core.leader`, decision 0049), one
request per feed symbol and granularity for the ideas still waiting or open, then their settlement steps.

A round adopts ideas that have no verification row yet, fetches each symbol's new candles (from the newest
complete one stored, or from an hour before its oldest open idea), stores them, replays each idea over them
(`settlement.advance`), fetches finer candles where a candle spans two levels, and writes the steps with their
events in one transaction (a few after a backlog: `WRITE_BATCH_MOVED`). A feed that does not answer (rate limits,
bans, 5xx, timeouts, malformed bodies) is left alone for its Retry-After or an exponential backoff; the ideas on
it wait with what is stored, so no verdict is ever taken from a missing answer. Progress lives in the rows: a
restart resumes where the last committed round ended (the replay is idempotent; a step is recorded once).

The round and its writes are here; what the poller holds between rounds is `rounds.PollerState`, its requests to
the feeds `requests.FeedRequests`, its watched ideas and their replay `watching.Watching`.
"""

import asyncio
import logging
import time
from collections.abc import Callable
from contextlib import suppress
from datetime import datetime

import aiohttp

from tradeideas.core.events import DomainEvent
from tradeideas.core.leader import Leader
from tradeideas.core.metrics import PRICE_FEED_LAG
from tradeideas.db import Database, utcnow
from tradeideas.ideas.pricing import ideas_to_price
from tradeideas.prices import service, storage
from tradeideas.prices.feeds.base import UnknownSymbol
from tradeideas.prices.feeds.binance import BinanceFeed
from tradeideas.prices.feeds.dukascopy import DukascopyFeed
from tradeideas.prices.feeds.oanda import OandaFeed
from tradeideas.prices.health import FeedHealth
from tradeideas.prices.progress import Candle, Progress
from tradeideas.prices.requests import FeedRequests
from tradeideas.prices.rounds import Round
from tradeideas.prices.rows import apply_progress
from tradeideas.prices.watching import Watching
from tradeideas.realtime.service import publish_many
from tradeideas.settings import Settings

log = logging.getLogger(__name__)

PRUNE_EVERY_SECONDS = 3600.0
SERIES_CONCURRENCY = 8
ADOPT_SLICE = 200  # ideas read and adopted per transaction on the first round
# The most moved ideas a round writes in one transaction. A steady round is one transaction, so the cached idea
# pages are dropped once per round (decision 0055); the first round after a start, with hundreds of steps and their
# ledger entries, is several, so SQLite's write lock and the ledger's turn are never held for long (decision 0071).
WRITE_BATCH_MOVED = 50
# The pause between two such transactions (and two slices of the first round's adoption) on SQLite, which has no
# queue of writers: a waiting one polls (its busy handler sleeps up to 100 ms between tries), so a pause longer than
# that lets the requests waiting to write go first. PostgreSQL queues them on its locks: no pause.
BETWEEN_WRITES_SECONDS = 0.12


class PricePoller(FeedRequests, Watching):
    def __init__(
        self,
        database: Database,
        settings: Settings,
        leader: Leader,
        now: Callable[[], datetime] = utcnow,
        client: aiohttp.ClientSession | None = None,
    ) -> None:
        super().__init__(database, settings, now)
        self.leader = leader
        self._client = client
        self._own_client = client is None
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
            await storage.write_status(db, self.report())
            if prune:
                self._last_prune = time.monotonic()
                await storage.prune_candles(db, now)
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
            await storage.store_candles(db, candles)
            for key in keys:
                if key in unknown:
                    await self._unknown(db, await self._rows(db, series[key]), key[0], key[1], unknown[key])
            quiet = [i for i in ids if i in due and i not in changed and i in self.progress]  # `_unknown` forgets
            await storage.write_checkpoints(db, [(i, self.progress[i]) for i in quiet], now)
            for i in quiet:
                self.saved[i] = self.progress[i].cursor
            events: list[DomainEvent] = []
            for row in await self._rows(db, moved):
                before, after = changed.get(row.idea_id), self.progress.get(row.idea_id)
                if after is None:
                    continue
                apply_progress(row, after)
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
