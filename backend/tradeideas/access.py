"""Which educators a caller may read: the one place where paid access is decided, beside `permissions.py`.

`permissions.py` says who may call a route; this says what a signed-in caller finds there. Admins and educators
see everything (an educator their own ideas and, as before, the others'); a customer sees the open ideas of the
educators their grants cover (`billing.rule`), and the chat rooms when any grant is open. Completed ideas, records,
profiles, price checks and /proof stay open to everyone: they are what sells a plan.

A member's access is cached per process and dropped by `AccessChanged` (and when it runs out by the clock), so the
idea list pays one dictionary lookup for it (decision 0132).
"""

from collections.abc import Callable
from datetime import datetime

from tradeideas.billing import service as billing
from tradeideas.billing.cache import AccessCache
from tradeideas.core.access import FULL_ACCESS, EducatorAccess
from tradeideas.core.errors import Forbidden
from tradeideas.db import Database
from tradeideas.permissions import Principal
from tradeideas.settings import Settings

NO_IDEA_ACCESS = "This idea is open to members of a plan that includes its educator: see plans"
NO_ROOM_ACCESS = "The chat rooms are open to members of a plan: see plans"


class AccessRule:
    """A component built once in `create_app`: `await rule.of(principal)` on any route that shows open ideas."""

    def __init__(self, database: Database, settings: Settings, cache: AccessCache, now: Callable[[], datetime]) -> None:
        self._database = database
        self._settings = settings
        self._cache = cache
        self._now = now

    async def of(self, principal: Principal) -> EducatorAccess:
        if not principal.is_customer:
            return FULL_ACCESS  # admins, and educators (themselves always; others' ideas as before paid access)
        return await self.of_member(principal.id)

    async def of_member(self, user_id: int) -> EducatorAccess:
        now = self._now()
        cached = self._cache.get(user_id, now)
        if cached is not None:
            return cached
        generation = self._cache.generation
        async with self._database.reader() as reader:
            access, until = await billing.member_access(reader, user_id, now, self._settings)
        self._cache.put(user_id, access, until, generation)
        return access

    async def ensure_idea(self, principal: Principal, educator_id: int, is_open: bool) -> None:
        """Refuse an open idea of an educator the caller has no access to (completed ideas are public)."""
        if is_open and not (await self.of(principal)).opens(educator_id):
            raise Forbidden(NO_IDEA_ACCESS, code="no_access")

    async def ensure_rooms(self, principal: Principal) -> None:
        """Refuse the chat rooms to a customer without any open grant."""
        if not (await self.of(principal)).any:
            raise Forbidden(NO_ROOM_ACCESS, code="no_access")
