"""Which ideas the poller watches and how it replays them: plans and progress read from the rows, each symbol's
stored candles held from where its ideas need them, the replay over new candles (`settlement.advance`, only for
the ideas a candle may move: `book.Book`), checkpoints of quiet ideas, and the verdict for a symbol no feed knows.
"""

import asyncio
import logging
import time
from bisect import bisect_left
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from tradeideas.ideas.pricing import ideas_to_price
from tradeideas.prices import service, storage
from tradeideas.prices.book import watched
from tradeideas.prices.models import IdeaVerification
from tradeideas.prices.progress import Candle, Progress, unverifiable
from tradeideas.prices.rounds import Held, PollerState, Round, merged
from tradeideas.prices.rows import CHART_LEAD, NOT_AVAILABLE, UNKNOWN_SYMBOL, apply_progress, load_progress, plan_of
from tradeideas.prices.settlement import advance

# The poller's one logger, whichever of its modules writes the line.
log = logging.getLogger("tradeideas.prices.poller")

# The longest the replay runs on the event loop before letting the process's requests in. The first round after a
# start replays every waiting idea over its stored candles: 1.4 s in one go for the demo's 425 ideas, and every
# request of the leading process waited for it (a first login took 5 s).
YIELD_EVERY_SECONDS = 0.005
CHECKPOINT_BATCH = 100  # cursor-only checkpoints written per round, oldest first


class Watching(PollerState):
    """The price poller's part that holds the watched ideas and replays them (see the module's text)."""

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
        for idea_id, feed, symbol in await storage.open_series(db):
            if feed is not None and symbol is not None and feed in self.feeds:
                series.setdefault((feed, symbol), []).append(idea_id)
        watching = {i for ids in series.values() for i in ids}
        for gone in [i for i in self.member_of if i not in watching]:  # deleted, or settled by another leader
            self.forget(gone)
        missing = [i for i in watching if i not in self.plans]
        for start in range(0, len(missing), 1000):
            for row in await self._rows(db, missing[start : start + 1000]):
                plan = plan_of(row)
                if isinstance(plan, str) or row.feed is None or row.symbol is None:
                    continue
                progress = load_progress(row.progress)
                self.plans[row.idea_id] = plan
                self.progress[row.idea_id] = progress
                self.saved[row.idea_id] = progress.cursor
                self.member_of[row.idea_id] = (row.feed, row.symbol)
        lead = int(CHART_LEAD.total_seconds())
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
                held.candles = merged(await storage.stored_candles(db, key[0], key[1], base, needed), held.candles)
                held.loaded_from = needed
            held.needed = needed
        for key in [k for k in self.held if k not in series]:
            del self.held[key]
        return series

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
        held.candles = merged(held.candles, fetched)
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
            behind = held.passed - storage.CHECKPOINT_SECONDS
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

    async def _unknown(
        self, db: AsyncSession, rows: list[IdeaVerification], feed: str, symbol: str, message: str
    ) -> None:
        detail = UNKNOWN_SYMBOL.format(feed=self.feeds[feed].label, symbol=symbol, message=message.rstrip("."))
        log.warning("price check: %s", detail)
        pairs = {i.id: i.pair for i in await ideas_to_price(db, ids=[r.idea_id for r in rows], limit=len(rows))}
        for row in rows:
            before = load_progress(row.progress)
            after = unverifiable(NOT_AVAILABLE.format(pair=pairs.get(row.idea_id, symbol)), detail)
            apply_progress(row, after)
            await service.announce(db, row, self.settings)
            await service.publish_steps(db, row, before, after)
            self.forget(row.idea_id)
