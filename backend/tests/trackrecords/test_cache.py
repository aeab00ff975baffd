"""The track-record answer cache: one build for concurrent misses, and nothing kept across a drop."""

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
        cache.put(key, b"x", cache.generation)
    cache.drop_educator(1)
    assert [cache.answer(k) for k in (LIST_KEY, record_key(1, "a"), record_key(1, "b"), record_key(2, "a"))] == [
        None,
        None,
        None,
        b"x",
    ]
