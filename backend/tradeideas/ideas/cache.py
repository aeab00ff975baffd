"""Idea pages and customers' seen marks kept in memory, so the busiest read (a customer opening a market)
needs no database round trip.

A page is the same for everyone except the customer's NEW flags, so pages are cached once (the ideas as
JSON-ready objects, and the encoded page for viewers without flags), and each customer's flags come from
their cached seen marks. Staleness is ruled out by events, not by timeouts: `create_app` subscribes
`drop_pages` to every idea change and to educators' profile changes (names and photos appear on ideas),
and `forget_seen` to a customer's `IdeasSeen` and notification settings. This process hears its own
events at commit, before its response leaves; other processes as soon as PostgreSQL delivers the NOTIFY.
While events cannot arrive, entries live only seconds (see `core.cache`).
"""

from collections.abc import Callable, Hashable, MutableMapping
from dataclasses import dataclass
from datetime import datetime

from tradeideas.core.access import EducatorAccess
from tradeideas.core.cache import EventGuardedCache


@dataclass(frozen=True, slots=True)
class EncodedIdea:
    """An idea's JSON as `IdeaOut` encodes it: `isNew` null (viewers without flags), true and false."""

    shared: bytes
    new: bytes
    seen: bytes


@dataclass(frozen=True, slots=True)
class CachedIdea:
    id: int
    market: str
    created_at: datetime
    completed: bool
    educator_id: int
    json: EncodedIdea


@dataclass(frozen=True, slots=True)
class CachedPage:
    ideas: tuple[CachedIdea, ...]
    next_cursor: str | None
    # The whole page as sent to viewers without NEW flags (educators).
    shared_json: bytes
    # When an invalidated idea on it leaves the active list (24 h after it was invalidated): no event says so,
    # so the page is read again from then on (None: nothing on it expires).
    expires_at: datetime | None = None


@dataclass(frozen=True, slots=True)
class SeenMarks:
    """A customer's seen state: everything up to a per-market watermark, plus ideas marked one by one,
    and which markets they follow (an idea is NEW only in a market whose notifications are on)."""

    forex_until: datetime | None
    crypto_until: datetime | None
    idea_ids: frozenset[int]
    notify_forex: bool = True
    notify_crypto: bool = True
    muted_educators: frozenset[int] = frozenset()

    def follows(self, market: str) -> bool:
        """Whether the customer's notifications for `market` are on (only then is anything there NEW)."""
        return self.notify_forex if market == "forex" else self.notify_crypto

    def seen_until(self, market: str) -> datetime | None:
        """The customer's watermark in `market`: ideas created at or before it count as seen."""
        return self.forex_until if market == "forex" else self.crypto_until

    def is_new(self, idea_id: int, market: str, created_at: datetime, completed: bool, educator_id: int) -> bool:
        if not self.follows(market) or educator_id in self.muted_educators:
            return False
        until = self.seen_until(market)
        return not completed and idea_id not in self.idea_ids and (until is None or created_at > until)


class IdeaCache(EventGuardedCache):
    def __init__(self, maxsize: int, max_age_seconds: float, live: Callable[[], bool]) -> None:
        super().__init__(maxsize, max_age_seconds, live)
        self._pages: MutableMapping[Hashable, CachedPage] = self.store()
        self._seen: MutableMapping[int, SeenMarks] = self.store()
        # A customer's last answer for a page: valid while both the page and their marks are the very objects
        # it was built from (any drop replaces or removes them) and their access is unchanged, so it needs no
        # invalidation of its own. Whole answers are large (up to 100 ideas): keep fewer of them.
        self._answers: MutableMapping[tuple[Hashable, int], tuple[CachedPage, SeenMarks, EducatorAccess, bytes]] = (
            self.store(maxsize // 10)
        )

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

    def answer(
        self, key: Hashable, user_id: int, page: CachedPage, marks: SeenMarks, access: EducatorAccess
    ) -> bytes | None:
        found = self._answers.get((key, user_id)) if self.usable() else None
        if found is None or found[0] is not page or found[1] is not marks or found[2] != access:
            return None
        return found[3]

    def put_answer(
        self, key: Hashable, user_id: int, page: CachedPage, marks: SeenMarks, access: EducatorAccess, body: bytes
    ) -> None:
        if self.usable():
            self._answers[(key, user_id)] = (page, marks, access, body)

    def drop_pages(self, _event: object = None) -> None:
        self.dropped()
        self._pages.clear()

    def forget_seen(self, user_id: int) -> None:
        self.dropped()
        self._seen.pop(user_id, None)
