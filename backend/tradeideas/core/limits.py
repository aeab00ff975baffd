"""Bounded concurrency per event loop: at most N callers at once in one process, the others wait their turn.

A limiter belongs to the event loop that first uses it, and tests run several loops in one process, so each loop
gets its own (kept only while the loop lives).
"""

import asyncio
from weakref import WeakKeyDictionary

import anyio


class LoopLimiter:
    def __init__(self, capacity: int) -> None:
        self.capacity = capacity
        self._by_loop: WeakKeyDictionary[asyncio.AbstractEventLoop, anyio.CapacityLimiter] = WeakKeyDictionary()

    def get(self) -> anyio.CapacityLimiter:
        """This loop's limiter: `async with` it, or pass it to `anyio.to_thread.run_sync(..., limiter=...)`."""
        loop = asyncio.get_running_loop()
        limiter = self._by_loop.get(loop)
        if limiter is None:
            limiter = self._by_loop[loop] = anyio.CapacityLimiter(self.capacity)
        return limiter
