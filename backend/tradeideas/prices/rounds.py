"""The price poller's state between rounds: each symbol's held candles and book, each idea's plan and progress,
the feeds' health, and what one round did.
"""

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from tradeideas.db import Database
from tradeideas.prices.book import Book
from tradeideas.prices.feeds.base import Feed
from tradeideas.prices.health import FeedHealth
from tradeideas.prices.models import IdeaVerification
from tradeideas.prices.progress import Candle, Plan, Progress
from tradeideas.settings import Settings


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


class PollerState:
    """What the price poller holds between rounds in the leading process, and how it forgets it. The poller's jobs
    read and change it: asking the feeds (`requests.FeedRequests`), watching and replaying the ideas
    (`watching.Watching`) and the round that drives them and writes its steps (`poller.PricePoller`)."""

    def __init__(self, database: Database, settings: Settings, now: Callable[[], datetime]) -> None:
        self.database = database
        self.settings = settings
        self.now = now
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
        self.clock: Callable[[], float] = time.monotonic  # backoffs and Retry-After (tests move it)

    async def _rows(self, db: AsyncSession, ids: list[int]) -> list[IdeaVerification]:
        out: list[IdeaVerification] = []
        for start in range(0, len(ids), 1000):
            stmt = select(IdeaVerification).where(
                IdeaVerification.idea_id.in_(ids[start : start + 1000]), IdeaVerification.done.is_(False)
            )
            out.extend((await db.execute(stmt)).scalars())
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


def merged(older: list[Candle], newer: list[Candle]) -> list[Candle]:
    """One series oldest first; a candle in `newer` replaces the one of the same time (an open one, completed)."""
    if not newer:
        return older
    by_time = {c.time: c for c in older}
    by_time.update((c.time, c) for c in newer)
    return [by_time[t] for t in sorted(by_time)]
