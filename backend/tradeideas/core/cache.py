"""What every per-process cache shares: events keep it exact, and nothing else is trusted.

A cache is used only while events from every process reach this one (`live`), entries are dropped by
event listeners, and a reader that started before a drop must not store what it read (`generation`).
"""

from collections.abc import Callable, Hashable, MutableMapping
from typing import TypeVar

from cachetools import TTLCache

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class EventGuardedCache:
    def __init__(self, maxsize: int, live: Callable[[], bool]) -> None:
        self._enabled = maxsize > 0  # CACHE_ENTRIES=0 turns caching off
        self._live = live
        # Bumped on every drop: a reader that saw an older value must not store what it read.
        self.generation = 0

    def usable(self) -> bool:
        return self._enabled and self._live()

    def may_store(self, generation: int) -> bool:
        return generation == self.generation and self.usable()

    def dropped(self) -> None:
        self.generation += 1


def bounded_store(maxsize: int, max_age_seconds: float) -> MutableMapping[K, V]:
    """At most `maxsize` entries (least recently used go first), none older than `max_age_seconds`."""
    return TTLCache(maxsize=max(maxsize, 1), ttl=max_age_seconds)
