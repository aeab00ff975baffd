"""What every per-process cache shares: events keep it exact, and short lifetimes cover the gaps.

Entries are dropped by after-commit event subscribers, and a reader that started before a drop must not
store what it read (`generation`). While events from other processes cannot arrive (the PostgreSQL
LISTEN connection is down) a cache is not trusted to be exact: it is emptied, and what it stores meanwhile
lives only `DEGRADED_TTL_SECONDS`, so a change made elsewhere shows within that time and the process
keeps serving at nearly full speed instead of falling back to the database for everything.
"""

from collections.abc import Callable, Hashable, Iterator, MutableMapping
from time import monotonic
from typing import Any, TypeVar

from lru import LRU

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")

DEGRADED_TTL_SECONDS = 2.0


_MISSING: Any = object()


class TimedLRU(MutableMapping[Any, Any]):
    """At most `maxsize` entries, least recently read going first, each dropped once past the time `expires`
    gives it when stored. Every cached read on a request does one `get`: a C dictionary (lru-dict) and one
    clock read, where cachetools' `TLRUCache` costs about a microsecond of Python per lookup."""

    __slots__ = ("_entries", "_expires", "_timer")

    def __init__(self, maxsize: int, expires: Callable[[float], float], timer: Callable[[], float]) -> None:
        self._entries: LRU[Any, tuple[Any, float]] = LRU(maxsize)  # key -> (value, expiry time)
        self._expires = expires
        self._timer = timer

    def get(self, key: Any, default: Any = None) -> Any:
        found = self._entries.get(key)
        if found is None:
            return default
        if found[1] <= self._timer():
            del self._entries[key]
            return default
        return found[0]

    def __getitem__(self, key: Any) -> Any:
        value = self.get(key, _MISSING)
        if value is _MISSING:
            raise KeyError(key)
        return value

    def __contains__(self, key: object) -> bool:
        return self.get(key, _MISSING) is not _MISSING

    def __setitem__(self, key: Any, value: Any) -> None:
        self._entries[key] = (value, self._expires(self._timer()))

    def __delitem__(self, key: Any) -> None:
        del self._entries[key]

    def __iter__(self) -> Iterator[Any]:
        now = self._timer()
        return iter([key for key, (_, expires) in self._entries.items() if expires > now])

    def __len__(self) -> int:
        return len(self._entries)

    def clear(self) -> None:
        self._entries.clear()


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

        def expires(now: float) -> float:
            return now + (self._max_age if self._live() else min(self._max_age, DEGRADED_TTL_SECONDS))

        size = self._maxsize if maxsize is None else max(1, min(maxsize, self._maxsize))
        store = TimedLRU(size, expires, self._timer)
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
