"""Resolved sessions kept in memory, so most requests learn who is calling without a database round trip.

Correctness rests on events, not on timeouts: every change to a user or their sessions (logout, password
change, disabling, profile edits) publishes `UserChanged`, and every process drops that user's entries
when it hears it; this process at commit, before its response leaves, the others as soon as PostgreSQL
delivers the NOTIFY. While events cannot arrive (the LISTEN connection is down) entries live only a few
seconds (see `core.cache`). Entries are also bounded in number and age, so memory stays flat.
"""

from collections.abc import Callable, MutableMapping
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy.orm import make_transient_to_detached

from tradeideas.auth.models import Session, User
from tradeideas.core.cache import EventGuardedCache


@dataclass(frozen=True, slots=True)
class CachedLogin:
    """A session as last read from the database, with a detached, never-modified copy of its user."""

    session_id: int
    refreshed_at: datetime
    expires_at: datetime
    user: User


def detached_copy(user: User) -> User:
    """A copy that a request session can adopt without a query (`merge(load=False)`); the original stays attached."""
    copy = User(**{column.key: getattr(user, column.key) for column in User.__mapper__.column_attrs})
    make_transient_to_detached(copy)
    return copy


class SessionCache(EventGuardedCache):
    def __init__(self, maxsize: int, max_age_seconds: float, live: Callable[[], bool]) -> None:
        super().__init__(maxsize, max_age_seconds, live)
        self._entries: MutableMapping[str, CachedLogin] = self.store()

    def get(self, token_hash: str) -> CachedLogin | None:
        return self._entries.get(token_hash) if self.usable() else None

    def put(self, token_hash: str, session: Session, user: User, generation: int) -> None:
        """Remember a session read while the cache was at `generation` (skipped if anything changed since)."""
        if not self.may_store(generation):
            return
        login = CachedLogin(session.id, session.refreshed_at, session.expires_at, detached_copy(user))
        self._entries[token_hash] = login

    def forget_user(self, user_id: int) -> None:
        self.dropped()
        for token_hash, login in list(self._entries.items()):
            if login.user.id == user_id:
                del self._entries[token_hash]

    def __len__(self) -> int:
        return len(self._entries)
