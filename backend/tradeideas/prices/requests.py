"""The poller's requests to the feeds: each symbol checked once per process, its new candles, finer candles where a
candle spans two levels, and the backoff of a feed or symbol that did not answer (`health`), as `/api/health`
reports it.
"""

import logging
from datetime import datetime

from tradeideas.prices import storage
from tradeideas.prices.feeds.base import Feed, FeedUnavailable
from tradeideas.prices.feeds.checks import Answer
from tradeideas.prices.health import FeedStatus
from tradeideas.prices.progress import DETAIL, Candle
from tradeideas.prices.rounds import PollerState, Round, merged

# The poller's one logger, whichever of its modules writes the line.
log = logging.getLogger("tradeideas.prices.poller")


class FeedRequests(PollerState):
    """The price poller's part that asks the feeds and keeps their health (see the module's text)."""

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
            stored = await storage.stored_candles(db, feed.name, symbol, fine, start, end)
        covered = {t for t in needs if any(c.time >= t + step - 5 and c.complete for c in stored)}
        fetched = None
        if covered != needs and (feed.name, symbol) in self.known:
            fetched = await self._fetch(feed, symbol, fine, start, result, end)
            if fetched is None:
                return None  # the feed is away: the ideas wait for it rather than settle without their finer candles
            stored = merged(stored, [c for c in fetched if start <= c.time < end])
        reach = max((c.end for c in stored), default=start)
        for base in needs:
            if base + step <= reach or any(base <= c.time < base + step for c in stored):
                detail[base] = [c for c in stored if base <= c.time < base + step]
        return fetched
