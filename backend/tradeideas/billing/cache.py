"""Each member's access, kept in memory: the idea list asks on every request (decision 0132)."""

from collections.abc import Callable, MutableMapping
from datetime import datetime
from time import monotonic

from tradeideas.core.access import EducatorAccess
from tradeideas.core.cache import EventGuardedCache


class AccessCache(EventGuardedCache):
    """user id -> (access, the moment it may change by the clock alone); entries dropped by `AccessChanged`."""

    def __init__(
        self, maxsize: int, max_age_seconds: float, live: Callable[[], bool], timer: Callable[[], float] = monotonic
    ) -> None:
        super().__init__(maxsize, max_age_seconds, live, timer)
        self._members: MutableMapping[int, tuple[EducatorAccess, datetime | None]] = self.store()

    def get(self, user_id: int, now: datetime) -> EducatorAccess | None:
        if not self.usable():
            return None
        found = self._members.get(user_id)
        if found is None or (found[1] is not None and now >= found[1]):
            return None
        return found[0]

    def put(self, user_id: int, access: EducatorAccess, until: datetime | None, generation: int) -> None:
        if self.may_store(generation):
            self._members[user_id] = (access, until)

    def forget(self, user_id: int) -> None:
        self.dropped()
        self._members.pop(user_id, None)
