"""The track-record answer cache: one build for concurrent misses, and nothing kept across a drop of what it shows."""

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import cast

import pytest
from sqlalchemy.ext.asyncio import AsyncSession

from tradeideas.trackrecords.cache import LIST_KEY, TrackRecordCache, record_key

REQUEST = cast(AsyncSession, object())  # the request's session (these builds read nothing)


class Sessions:
    """Sessions of their own for background builds: which ones were opened."""

    def __init__(self) -> None:
        self.opened: list[AsyncSession] = []

    @contextlib.asynccontextmanager
    async def __call__(self) -> AsyncIterator[AsyncSession]:
        session = cast(AsyncSession, object())
        self.opened.append(session)
        yield session


async def test_concurrent_misses_build_once_and_a_drop_during_a_build_is_not_kept() -> None:
    cache = TrackRecordCache(100, 60, live=lambda: True)
    builds = 0
    release = asyncio.Event()

    async def build(_db: AsyncSession) -> bytes:
        nonlocal builds
        builds += 1
        await release.wait()
        return b"[%d]" % builds

    waiting = [asyncio.create_task(cache.answer_or_build(LIST_KEY, build, REQUEST)) for _ in range(4)]
    await asyncio.sleep(0)
    release.set()
    assert await asyncio.gather(*waiting) == [b"[1]"] * 4 and builds == 1

    release.clear()
    late = asyncio.create_task(cache.answer_or_build(record_key(1, "f"), build, REQUEST))
    await asyncio.sleep(0)
    cache.drop_educator(1)  # the ideas changed while the answer was being built
    release.set()
    assert await late == b"[2]"
    assert cache.answer(record_key(1, "f")) is None and cache.answer(LIST_KEY) is None


async def test_an_educator_change_drops_their_records_and_the_list_only() -> None:
    cache = TrackRecordCache(100, 60, live=lambda: True)
    for key in (LIST_KEY, record_key(1, "a"), record_key(1, "b"), record_key(2, "a")):
        cache.put(key, b"x", cache.generation_of(key))
    cache.drop_educator(1)
    assert [cache.answer(k) for k in (LIST_KEY, record_key(1, "a"), record_key(1, "b"), record_key(2, "a"))] == [
        None,
        None,
        None,
        b"x",
    ]


async def test_another_educators_change_during_a_build_keeps_the_answer() -> None:
    cache = TrackRecordCache(100, 60, live=lambda: True)
    release = asyncio.Event()

    async def build(_db: AsyncSession) -> bytes:
        await release.wait()
        return b"record of 1"

    building = asyncio.create_task(cache.answer_or_build(record_key(1, "f"), build, REQUEST))
    await asyncio.sleep(0)
    cache.drop_educator(2)  # educator 2's ideas changed: the list goes, educator 1's record does not
    release.set()
    assert await building == b"record of 1"
    assert cache.answer(record_key(1, "f")) == b"record of 1"
    cache.drop_all()
    assert cache.answer(record_key(1, "f")) is None


async def test_requests_that_waited_through_a_drop_share_the_build_and_later_ones_build_again() -> None:
    cache = TrackRecordCache(100, 60, live=lambda: True)
    builds = 0
    release = asyncio.Event()

    async def build(_db: AsyncSession) -> bytes:
        nonlocal builds
        builds += 1
        await release.wait()
        return b"[%d]" % builds

    early = [asyncio.create_task(cache.answer_or_build(LIST_KEY, build, REQUEST)) for _ in range(3)]
    await asyncio.sleep(0)
    cache.drop_educator(1)  # a completion lands while the list is being built
    late = asyncio.create_task(cache.answer_or_build(LIST_KEY, build, REQUEST))  # arrived after it: must not see [1]
    await asyncio.sleep(0)
    release.set()
    assert await asyncio.gather(*early) == [b"[1]"] * 3
    assert await late == b"[2]" and builds == 2
    assert cache.answer(LIST_KEY) == b"[2]"  # built after the drop: kept


async def settled(cache: TrackRecordCache, key: tuple[object, ...]) -> bytes:
    """The answer once the background build has kept one."""
    for _ in range(100):
        body = cache.answer(key)
        if body is not None:
            return body
        await asyncio.sleep(0.01)
    raise AssertionError("no answer was kept")


async def test_a_change_from_elsewhere_serves_the_previous_answer_while_one_build_runs_in_the_background() -> None:
    sessions = Sessions()
    cache = TrackRecordCache(100, 60, live=lambda: True, sessions=sessions)
    release = asyncio.Event()
    builds: list[AsyncSession] = []

    async def build(db: AsyncSession) -> bytes:
        builds.append(db)
        if len(builds) > 1:
            await release.wait()
        return b"[%d]" % len(builds)

    assert await cache.answer_or_build(LIST_KEY, build, REQUEST) == b"[1]"
    cache.drop_educator(1, elsewhere=True)  # another process completed an idea of educator 1
    # Nobody waits for the build: every reader gets the answer served until the NOTIFY, one build starts.
    readers = await asyncio.wait_for(
        asyncio.gather(*(cache.answer_or_build(LIST_KEY, build, REQUEST) for _ in range(5))), 1
    )
    assert readers == [b"[1]"] * 5
    await asyncio.sleep(0)
    assert len(builds) == 2 and builds[1] is sessions.opened[0]  # in a session of its own, not the request's
    release.set()
    assert await settled(cache, LIST_KEY) == b"[2]"
    assert await cache.answer_or_build(LIST_KEY, build, REQUEST) == b"[2]" and len(builds) == 2


async def test_a_change_made_here_shows_in_the_next_answer_even_after_one_from_elsewhere() -> None:
    cache = TrackRecordCache(100, 60, live=lambda: True, sessions=Sessions())
    built = 0

    async def build(_db: AsyncSession) -> bytes:
        nonlocal built
        built += 1
        return b"[%d]" % built

    key = record_key(1, "f")
    assert await cache.answer_or_build(key, build, REQUEST) == b"[1]"
    cache.drop_educator(1, elsewhere=True)
    cache.drop_educator(1)  # then this process committed a change: the spoiled answer is not served any more
    assert await cache.answer_or_build(key, build, REQUEST) == b"[2]"
    cache.drop_educator(2, elsewhere=True)  # another educator's change leaves this record as it is
    assert await cache.answer_or_build(key, build, REQUEST) == b"[2]" and built == 2


async def test_readers_move_forward_while_changes_from_elsewhere_come_faster_than_builds() -> None:
    cache = TrackRecordCache(100, 60, live=lambda: True, sessions=Sessions())
    release = asyncio.Event()
    built = 0

    async def build(_db: AsyncSession) -> bytes:
        nonlocal built
        built += 1
        if built > 1:
            await release.wait()
            release.clear()
        return b"[%d]" % built

    await cache.answer_or_build(LIST_KEY, build, REQUEST)
    cache.drop_educator(1, elsewhere=True)
    assert await cache.answer_or_build(LIST_KEY, build, REQUEST) == b"[1]"
    await asyncio.sleep(0)
    cache.drop_educator(2, elsewhere=True)  # a newer change lands while [2] is being built
    release.set()
    await asyncio.sleep(0.01)
    assert cache.answer(LIST_KEY) is None  # [2] may miss the newer change: not kept as exact...
    assert await cache.answer_or_build(LIST_KEY, build, REQUEST) == b"[2]"  # ...but served over [1], and built again
    release.set()
    assert await settled(cache, LIST_KEY) == b"[3]"


async def test_a_failed_background_build_leaves_the_next_request_to_build_and_see_the_error() -> None:
    cache = TrackRecordCache(100, 60, live=lambda: True, sessions=Sessions())
    failing = False

    async def build(_db: AsyncSession) -> bytes:
        if failing:
            raise RuntimeError("database gone")
        return b"[ok]"

    await cache.answer_or_build(LIST_KEY, build, REQUEST)
    cache.drop_educator(1, elsewhere=True)
    failing = True
    assert await cache.answer_or_build(LIST_KEY, build, REQUEST) == b"[ok]"
    await asyncio.sleep(0.01)
    with pytest.raises(RuntimeError, match="database gone"):
        await cache.answer_or_build(LIST_KEY, build, REQUEST)
