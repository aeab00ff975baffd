"""What every per-process cache shares: events keep it exact, and short lifetimes cover the gaps.

Entries are dropped by after-commit event subscribers, and a reader that started before a drop must not
store what it read (`generation`). While events from other processes cannot arrive (the PostgreSQL
LISTEN connection is down) a cache is not trusted to be exact: it is emptied, and what it stores meanwhile
lives only `DEGRADED_TTL_SECONDS`, so a change made elsewhere shows within that time and the process
keeps serving at nearly full speed instead of falling back to the database for everything.
"""

from collections.abc import Callable, Hashable, MutableMapping
from time import monotonic
from typing import Any, TypeVar

from cachetools import TLRUCache

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")

DEGRADED_TTL_SECONDS = 2.0


class EventGuardedCache:
    def __init__(
        self, maxsize: int, max_age_seconds: float, live: Callable[[], bool], timer: Callable[[], float] = monotonic
    ) -> None:
        self._timer = timer
        self._enabled = maxsize > 0  # CACHE_ENTRIES=0 turns caching off
        self._maxsize = max(maxsize, 1)
        self._max_age = max_age_seconds
        self._live = live
        self._stores: list[MutableMapping[Any, Any]] = []
        # Bumped on every drop: a reader that saw an older value must not store what it read.
        self.generation = 0

    def store(self, maxsize: int | None = None) -> MutableMapping[Any, Any]:
        """A new bounded store: at most `maxsize` entries (least recently used go first), each living
        `max_age_seconds`, or `DEGRADED_TTL_SECONDS` when stored while events are not live."""

        def expires(_key: object, _value: object, now: float) -> float:
            return now + (self._max_age if self._live() else min(self._max_age, DEGRADED_TTL_SECONDS))

        size = self._maxsize if maxsize is None else max(1, min(maxsize, self._maxsize))
        store: MutableMapping[Any, Any] = TLRUCache(maxsize=size, ttu=expires, timer=self._timer)
        self._stores.append(store)
        return store

    def usable(self) -> bool:
        return self._enabled

    def may_store(self, generation: int) -> bool:
        return generation == self.generation and self._enabled

    def dropped(self) -> None:
        self.generation += 1

    def clear(self) -> None:
        """Forget everything (events may have been missed)."""
        self.dropped()
        for store in self._stores:
            store.clear()


class SingleValueCache(EventGuardedCache):
    """One value (e.g. the public client configuration), dropped by events like any other entry."""

    _KEY = "value"

    def __init__(self, enabled: bool, max_age_seconds: float, live: Callable[[], bool]) -> None:
        super().__init__(1 if enabled else 0, max_age_seconds, live)
        self._value: MutableMapping[str, Any] = self.store()

    def get(self) -> Any | None:
        return self._value.get(self._KEY) if self.usable() else None

    def put(self, value: Any, generation: int) -> None:
        if self.may_store(generation):
            self._value[self._KEY] = value
