"""Idea pages and customers' seen marks kept in memory, so the busiest read (a customer opening a market)
needs no database round trip.

A page is the same for everyone except the customer's NEW flags, so pages are cached once, as JSON, and
each customer's flags are added from their cached seen marks. Staleness is ruled out by events, not by
timeouts: any `idea.*` event, or a change to an educator (names and photos appear on ideas), drops every
page; an `ideas.seen` event drops that customer's marks. This process hears its own events at commit,
before its response leaves; other processes as soon as PostgreSQL delivers the NOTIFY. While events
cannot arrive (the LISTEN connection is down) nothing is read from or written to the cache.
"""

from collections.abc import Callable, Hashable, MutableMapping
from dataclasses import dataclass
from datetime import datetime

from tradeideas.auth.cache import USER_CHANGED
from tradeideas.auth.models import Role
from tradeideas.core.cache import EventGuardedCache, bounded_store
from tradeideas.realtime.models import Event

SEEN_CHANGED = "ideas.seen"


@dataclass(frozen=True, slots=True)
class CachedIdea:
    id: int
    market: str
    created_at: datetime
    completed: bool
    # The idea's JSON object without `isNew` and without its closing brace.
    json_head: bytes


@dataclass(frozen=True, slots=True)
class CachedPage:
    ideas: tuple[CachedIdea, ...]
    next_cursor: str | None


@dataclass(frozen=True, slots=True)
class SeenMarks:
    """A customer's seen state: everything up to a per-market watermark, plus ideas marked one by one."""

    forex_until: datetime | None
    crypto_until: datetime | None
    idea_ids: frozenset[int]

    def is_new(self, idea_id: int, market: str, created_at: datetime, completed: bool) -> bool:
        until = self.forex_until if market == "forex" else self.crypto_until
        return not completed and idea_id not in self.idea_ids and (until is None or created_at > until)


class IdeaCache(EventGuardedCache):
    def __init__(self, maxsize: int, max_age_seconds: float, live: Callable[[], bool]) -> None:
        super().__init__(maxsize, live)
        self._pages: MutableMapping[Hashable, CachedPage] = bounded_store(maxsize, max_age_seconds)
        self._seen: MutableMapping[int, SeenMarks] = bounded_store(maxsize, max_age_seconds)

    def page(self, key: Hashable) -> CachedPage | None:
        return self._pages.get(key) if self.usable() else None

    def put_page(self, key: Hashable, page: CachedPage, generation: int) -> None:
        if self.may_store(generation):
            self._pages[key] = page

    def seen(self, user_id: int) -> SeenMarks | None:
        return self._seen.get(user_id) if self.usable() else None

    def put_seen(self, user_id: int, marks: SeenMarks, generation: int) -> None:
        if self.may_store(generation):
            self._seen[user_id] = marks

    def on_event(self, event: Event) -> None:
        payload = event.payload
        if event.type.startswith("idea.") or (event.type == USER_CHANGED and payload.get("role") == Role.EDUCATOR):
            self.dropped()
            self._pages.clear()
        elif event.type == SEEN_CHANGED:
            self.dropped()
            self._seen.pop(int(payload["userId"]), None)
