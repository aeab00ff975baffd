"""The track-record answer cache: one build for concurrent misses, and nothing kept across a drop of what it shows."""

import asyncio

from tradeideas.trackrecords.cache import LIST_KEY, TrackRecordCache, record_key


async def test_concurrent_misses_build_once_and_a_drop_during_a_build_is_not_kept() -> None:
    cache = TrackRecordCache(100, 60, live=lambda: True)
    builds = 0
    release = asyncio.Event()

    async def build() -> bytes:
        nonlocal builds
        builds += 1
        await release.wait()
        return b"[%d]" % builds

    waiting = [asyncio.create_task(cache.answer_or_build(LIST_KEY, build)) for _ in range(4)]
    await asyncio.sleep(0)
    release.set()
    assert await asyncio.gather(*waiting) == [b"[1]"] * 4 and builds == 1

    release.clear()
    late = asyncio.create_task(cache.answer_or_build(record_key(1, "f"), build))
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

    async def build() -> bytes:
        await release.wait()
        return b"record of 1"

    building = asyncio.create_task(cache.answer_or_build(record_key(1, "f"), build))
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

    async def build() -> bytes:
        nonlocal builds
        builds += 1
        number = builds
        await release.wait()
        return b"[%d]" % number

    early = [asyncio.create_task(cache.answer_or_build(LIST_KEY, build)) for _ in range(3)]
    await asyncio.sleep(0)
    cache.drop_educator(1)  # a completion lands while the list is being built
    late = asyncio.create_task(cache.answer_or_build(LIST_KEY, build))  # arrived after it: must not see [1]
    await asyncio.sleep(0)
    release.set()
    assert await asyncio.gather(*early) == [b"[1]"] * 3
    assert await late == b"[2]" and builds == 2
    assert cache.answer(LIST_KEY) == b"[2]"  # built after the drop: kept


async def test_every_request_sharing_a_build_is_answered_as_it_ends() -> None:
    """Under load a turn of the event loop is long: waiters woken one per turn (as a lock hands over) made the last of
    eight requests for the list wait eight turns after its build (bench/RESULTS.md, 2026-11-27)."""
    cache = TrackRecordCache(100, 60, live=lambda: True)
    release = asyncio.Event()

    async def build() -> bytes:
        await release.wait()
        return b"[]"

    waiting = [asyncio.create_task(cache.answer_or_build(LIST_KEY, build)) for _ in range(50)]
    await asyncio.sleep(0)
    release.set()
    turns = 0
    while not all(task.done() for task in waiting):
        await asyncio.sleep(0)
        turns += 1
    assert turns <= 4
    assert {task.result() for task in waiting} == {b"[]"}


async def test_a_request_that_goes_away_leaves_the_build_to_the_others() -> None:
    cache = TrackRecordCache(100, 60, live=lambda: True)
    release = asyncio.Event()
    builds = 0

    async def build() -> bytes:
        nonlocal builds
        builds += 1
        await release.wait()
        return b"[]"

    first, second = (asyncio.create_task(cache.answer_or_build(LIST_KEY, build)) for _ in range(2))
    await asyncio.sleep(0)
    first.cancel()  # its client went away
    await asyncio.sleep(0)
    release.set()
    assert await second == b"[]" and builds == 1
    assert first.cancelled() and cache.answer(LIST_KEY) == b"[]"
