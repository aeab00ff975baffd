"""Resolved sessions kept in memory, so most requests learn who is calling without a database round trip.

Correctness rests on events, not on timeouts: every change to a user or their sessions (logout, password
change, disabling, profile edits) publishes `UserChanged`, and every process drops that user's entries
when it hears it; this process at commit, before its response leaves, the others as soon as PostgreSQL
delivers the NOTIFY. While events cannot arrive (the LISTEN connection is down) entries live only a few
seconds (see `core.cache`). Entries are also bounded in number and age, so memory stays flat.
"""

from collections.abc import Callable, Mapping, MutableMapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy.orm import make_transient_to_detached

from tradeideas.auth.models import User
from tradeideas.core.cache import EventGuardedCache


@dataclass(frozen=True, slots=True)
class Login:
    """A session as read from the database, with its user's columns (by attribute name).

    Plain values, not a `User`: most requests only need the id and role, so the entity is built only for the
    routes that use it (`user_entity`).
    """

    session_id: int
    refreshed_at: datetime
    expires_at: datetime
    user_columns: Mapping[str, Any]

    @property
    def user_id(self) -> int:
        user_id: int = self.user_columns["id"]
        return user_id

    @property
    def role(self) -> str:
        role: str = self.user_columns["role"]
        return role


def user_entity(login: Login) -> User:
    """A detached `User` that a request session can adopt without a query (`merge(load=False)`)."""
    user = User(**login.user_columns)
    make_transient_to_detached(user)
    return user


class SessionCache(EventGuardedCache):
    """Sessions by their token, as the caller presents it. The database keeps only each token's hash; this
    process's memory holds the token anyway while a request carries it, and looking it up as it comes saves
    hashing it on every request."""

    def __init__(self, maxsize: int, max_age_seconds: float, live: Callable[[], bool]) -> None:
        super().__init__(maxsize, max_age_seconds, live)
        self._entries: MutableMapping[str, Login] = self.store()

    def get(self, token: str) -> Login | None:
        return self._entries.get(token) if self.usable() else None

    def put(self, token: str, login: Login, generation: int) -> None:
        """Remember a session read while the cache was at `generation` (skipped if anything changed since)."""
        if self.may_store(generation):
            self._entries[token] = login

    def forget_user(self, user_id: int) -> None:
        self.dropped()
        for token, login in list(self._entries.items()):
            if login.user_id == user_id:
                del self._entries[token]

    def __len__(self) -> int:
        return len(self._entries)
