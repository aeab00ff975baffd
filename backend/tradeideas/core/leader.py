"""One leader among all server processes, for background work that must run once (housekeeping; price checks).

Every process campaigns from its lifespan; one wins and keeps the lead until it stops or dies:
- PostgreSQL: a session-level `pg_try_advisory_lock` on a dedicated connection (outside the request pool, named
  `tradeideas-leader-<pid>` in pg_stat_activity). A process that dies loses its connection, and with it the lock;
  another takes it at its next try, within `RETRY_SECONDS`. The leader checks its connection as often.
- SQLite: one server process by design; an exclusive `flock` on `DATA_DIR/leader.lock`, released by the kernel
  when the process ends, keeps a second server on the same data directory from leading too.

Work that must run once asks `leader.is_leader` before each round (see decision 0049).
"""

import asyncio
import fcntl
import logging
import os
from contextlib import suppress
from typing import Any

import asyncpg
from sqlalchemy.engine import make_url

from tradeideas.core.metrics import LEADER
from tradeideas.db import Database
from tradeideas.settings import Settings

log = logging.getLogger(__name__)

# pg_try_advisory_lock key: a constant no other lock of this database uses (housekeeping's run lock is ...012).
LEADER_LOCK_KEY = 7_370_421_013
LEADER_FILE_NAME = "leader.lock"
LEADER_CONNECTION_PREFIX = "tradeideas-leader"
# How often a follower tries to take the lead, and how often the leader checks it still holds it.
RETRY_SECONDS = 2.0
CHECK_TIMEOUT_SECONDS = 10.0


class Leader:
    def __init__(self, database: Database, settings: Settings, retry_seconds: float = RETRY_SECONDS) -> None:
        self.database = database
        self.settings = settings
        self.retry_seconds = retry_seconds
        self._leading = False
        self._task: asyncio.Task[None] | None = None

    @property
    def is_leader(self) -> bool:
        """Whether this process runs the once-only work right now."""
        return self._leading

    def _set(self, leading: bool) -> None:
        if leading != self._leading:
            log.info("this process %s the background work", "now leads" if leading else "no longer leads")
        self._leading = leading
        LEADER.set(1 if leading else 0)

    async def start(self) -> None:
        self._task = asyncio.create_task(self._campaign())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    async def _campaign(self) -> None:
        while True:
            try:
                if self.settings.is_sqlite:
                    await self._hold_file_lock()
                else:
                    await self._hold_advisory_lock()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.warning("leader election failed; trying again in %.0f s", self.retry_seconds, exc_info=True)
            await asyncio.sleep(self.retry_seconds)

    async def _hold_advisory_lock(self) -> None:
        dsn = make_url(self.database.engine.url).set(drivername="postgresql").render_as_string(hide_password=False)
        name = f"{LEADER_CONNECTION_PREFIX}-{os.getpid()}"
        conn: Any = await asyncpg.connect(dsn, server_settings={"application_name": name})
        try:
            while True:  # a follower: the leader's connection may be gone at the next try
                if await conn.fetchval("SELECT pg_try_advisory_lock($1)", LEADER_LOCK_KEY):
                    break
                await asyncio.sleep(self.retry_seconds)
            self._set(True)
            while True:  # a connection that stops answering may have lost the lock with it
                await asyncio.sleep(self.retry_seconds)
                await asyncio.wait_for(conn.fetchval("SELECT 1"), CHECK_TIMEOUT_SECONDS)
        finally:
            self._set(False)
            # Closing the connection releases the lock: no other process can lead while this one still might.
            with suppress(Exception):
                await asyncio.wait_for(conn.close(), 5)

    async def _hold_file_lock(self) -> None:
        self.settings.data_dir.mkdir(parents=True, exist_ok=True)
        with (self.settings.data_dir / LEADER_FILE_NAME).open("a") as lock_file:
            while True:
                try:
                    fcntl.flock(lock_file, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    break
                except BlockingIOError:
                    await asyncio.sleep(self.retry_seconds)
            try:
                self._set(True)
                await asyncio.Event().wait()  # until stopped
            finally:
                self._set(False)
                fcntl.flock(lock_file, fcntl.LOCK_UN)
