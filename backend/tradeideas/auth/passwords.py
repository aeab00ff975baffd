"""argon2id password hashing, run off the event loop because it is deliberately slow."""

import os

import anyio.to_thread
from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from tradeideas.core.limits import LoopLimiter

_hasher = PasswordHasher()  # argon2id with the library's current recommended parameters
# Verifying against this when the e-mail is unknown keeps both failure paths equally slow.
_DUMMY_HASH = _hasher.hash("not-a-real-password")


# Hashes computed at once per process; the others wait their turn, holding no database connection (see
# `auth.service.login`). Each hash keeps a core busy for ~0.1 s (and takes 64 MiB): a burst of a hundred wrong logins
# hashed side by side in the thread pool starved the event loop and the database driver, so `/api/health` took
# seconds and requests waiting for a pooled connection could run into the pool's timeout (a 500). Queued, they
# take the same total time and leave one core to answer everything else.
def _cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


HASH_CONCURRENCY = max(1, _cores() - 1)
_hash_slots = LoopLimiter(HASH_CONCURRENCY)


async def hash_password(password: str) -> str:
    return await anyio.to_thread.run_sync(_hasher.hash, password, limiter=_hash_slots.get())


def _verify(stored_hash: str | None, password: str) -> bool:
    try:
        return _hasher.verify(stored_hash or _DUMMY_HASH, password) and stored_hash is not None
    except (VerificationError, InvalidHashError):
        return False


async def verify_password(stored_hash: str | None, password: str) -> bool:
    return await anyio.to_thread.run_sync(_verify, stored_hash, password, limiter=_hash_slots.get())
