"""Track-record answers kept per process as the JSON sent, so repeated reads need no database round trip.

An answer is exact until the ideas behind it change. `create_app` drops an educator's answers (and the
educators list) on every idea change and record change of that educator, and everything when an educator's
profile changes; this process hears its own events at commit, before its response leaves, other processes
when PostgreSQL delivers the NOTIFY (see `core.cache` for what happens while it cannot).
"""

import asyncio
from collections.abc import Awaitable, Callable, Hashable, MutableMapping, Sequence
from dataclasses import dataclass

from tradeideas.auth.schemas import PublicUser
from tradeideas.core.cache import EventGuardedCache
from tradeideas.trackrecords.figures import Book
from tradeideas.trackrecords.statistics import Statistics

Key = tuple[Hashable, ...]
LIST_KEY: Key = ("list",)


def record_key(educator_id: int, filters: Hashable) -> Key:
    return ("record", educator_id, filters)


def summary_key(educator_id: int) -> Key:
    """One educator's part of the educators list."""
    return ("summary", educator_id)


# The parts of a summary that only some changes touch, kept apart under their own generations: the price checks'
# verdicts (`VERIFIED`) change with price checks (and an educator's call on a checked idea), the followers
# (`FOLLOWERS`) with journal entries; a completion touches neither, and the summary built after it reuses both.
VERIFIED = "verified"
FOLLOWERS = "followers"
PARTS = (VERIFIED, FOLLOWERS)


def part_key(part: str, educator_id: int) -> Key:
    return (part, educator_id)


@dataclass(frozen=True, slots=True)
class Walk:
    """One educator's closed ideas that a filtered record counts, walked in closing order, and the rewrite of the
    educator's totals it saw (`TrackRecordTotal.rewrite_token`). Never changed once kept: extended on a copy."""

    rewrite_token: str | None
    book: Book
    statistics: Statistics


def _scope(key: Key) -> Hashable:
    """What an answer depends on beyond the whole cache: the list, one educator's ideas, or one part of theirs."""
    if key == LIST_KEY:
        return "list"
    return key if key[0] in PARTS else key[1]


class TrackRecordCache(EventGuardedCache):
    """Answers are dropped per educator: a change of one educator's ideas spoils the list and that educator's
    records, so only builds of those answers are thrown away (each answer's scope has its own generation; the
    whole cache's generation still covers `drop_all` and `clear`). While ideas complete every fraction of a second,
    one generation for everything threw away nearly every build of every answer (bench/RESULTS.md)."""

    def __init__(self, maxsize: int, max_age_seconds: float, live: Callable[[], bool]) -> None:
        super().__init__(maxsize, max_age_seconds, live)
        # Answers carry whole equity curves (up to one point per completed idea): keep fewer of them.
        self._answers: MutableMapping[Key, bytes] = self.store(maxsize // 10)
        # The walk behind each record answer, kept past the drops that spoil the answer: a walk tells by its rewrite
        # token whether it still holds, so after a completion a record costs the ideas closed since, not all of them.
        self._walks: MutableMapping[Key, Walk] = self.store(maxsize // 10)
        # Each educator's `PARTS`, as the service computed them.
        self._parts: MutableMapping[Key, object] = self.store()
        # The educators the list shows, with their profiles: dropped with everything when a profile changes.
        self._educators: MutableMapping[str, list[PublicUser]] = self.store(1)
        self._scopes: dict[Hashable, int] = {}
        # The build running for each answer, with the generations it started from: the requests that arrive from
        # data no newer share it. Each is awaited by every request that shares it, so all of them are answered in
        # the loop turn it ends; one at a time (each woken by the one before, as a lock hands over) they waited
        # a turn each, and a turn is long under load (bench/RESULTS.md, 2026-11-27).
        self._flights: dict[Key, tuple[tuple[int, int], asyncio.Future[bytes]]] = {}

    def generation_of(self, key: Key) -> tuple[int, int]:
        return self.generation, self._scopes.get(_scope(key), 0)

    async def answer_or_build(self, key: Key, build: Callable[[], Awaitable[bytes]]) -> bytes:
        """The cached answer, or one built now. Requests missing the same answer at once share one build rather
        than all building it (after every drop, several readers miss together), and are all answered as it ends;
        a request that arrived after a drop the running build missed starts another."""
        body = self.answer(key)
        if body is not None:
            return body
        if not self.usable():  # nothing would be kept: no reason to wait for each other
            return await build()
        arrived = self.generation_of(key)
        flight = self._flights.get(key)
        if flight is None or flight[0] != arrived:
            flight = (arrived, asyncio.ensure_future(self._build(key, arrived, build)))
            self._flights[key] = flight
        # Shielded: a request that goes away (its client left) leaves the build running for the others.
        return await asyncio.shield(flight[1])

    async def _build(self, key: Key, started: tuple[int, int], build: Callable[[], Awaitable[bytes]]) -> bytes:
        try:
            body = await build()
            self.put(key, body, started)
            return body
        finally:
            if (flight := self._flights.get(key)) is not None and flight[0] == started:
                del self._flights[key]

    def educators(self) -> list[PublicUser] | None:
        return self._educators.get("listed") if self.usable() else None

    def keep_educators(self, educators: list[PublicUser], generation: int) -> None:
        if self.may_store(generation):
            self._educators["listed"] = educators

    def walk(self, key: Key) -> Walk | None:
        return self._walks.get(key) if self.usable() else None

    def keep_walk(self, key: Key, walk: Walk) -> None:
        if self.usable():
            self._walks[key] = walk

    def part(self, key: Key) -> object | None:
        return self._parts.get(key) if self.usable() else None

    def keep_part(self, key: Key, value: object, generation: tuple[int, int]) -> None:
        if self.usable() and generation == self.generation_of(key):
            self._parts[key] = value

    def answer(self, key: Key) -> bytes | None:
        return self._answers.get(key) if self.usable() else None

    def put(self, key: Key, body: bytes, generation: tuple[int, int]) -> None:
        if self.usable() and generation == self.generation_of(key):
            self._answers[key] = body

    def drop_educator(self, educator_id: int | None, parts: Sequence[str] = ()) -> None:
        """Forget the list, this educator's records and summary, and the named `PARTS` of theirs (everything when
        the educator is not known)."""
        if educator_id is None:
            self.drop_all()
            return
        for scope in ("list", educator_id, *(part_key(p, educator_id) for p in parts)):
            self._scopes[scope] = self._scopes.get(scope, 0) + 1
        for key in [k for k in self._answers if k == LIST_KEY or k[1] == educator_id]:
            self._answers.pop(key, None)
        for part in parts:
            self._parts.pop(part_key(part, educator_id), None)

    def drop_all(self, _event: object = None) -> None:
        self.dropped()
        self._answers.clear()
        self._parts.clear()
        self._educators.clear()
