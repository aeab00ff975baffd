"""Track-record answers kept per process as the JSON sent, so repeated reads need no database round trip.

An answer is exact until the ideas behind it change. `create_app` drops an educator's answers (and the
educators list) on every idea change and record change of that educator, and everything when an educator's
profile changes; this process hears its own events at commit, before its response leaves, other processes
when PostgreSQL delivers the NOTIFY (see `core.cache` for what happens while it cannot).
"""

from collections.abc import Callable, Hashable, MutableMapping

from tradeideas.core.cache import EventGuardedCache

Key = tuple[Hashable, ...]
LIST_KEY: Key = ("list",)


def record_key(educator_id: int, filters: Hashable) -> Key:
    return ("record", educator_id, filters)


class TrackRecordCache(EventGuardedCache):
    def __init__(self, maxsize: int, max_age_seconds: float, live: Callable[[], bool]) -> None:
        super().__init__(maxsize, max_age_seconds, live)
        # Answers carry whole equity curves (up to one point per completed idea): keep fewer of them.
        self._answers: MutableMapping[Key, bytes] = self.store(maxsize // 10)

    def answer(self, key: Key) -> bytes | None:
        return self._answers.get(key) if self.usable() else None

    def put(self, key: Key, body: bytes, generation: int) -> None:
        if self.may_store(generation):
            self._answers[key] = body

    def drop_educator(self, educator_id: int | None) -> None:
        """Forget the list and this educator's records (everything when the educator is not known)."""
        self.dropped()
        if educator_id is None:
            self._answers.clear()
            return
        for key in [k for k in self._answers if k == LIST_KEY or k == record_key(educator_id, k[-1])]:
            self._answers.pop(key, None)

    def drop_all(self, _event: object = None) -> None:
        self.dropped()
        self._answers.clear()
