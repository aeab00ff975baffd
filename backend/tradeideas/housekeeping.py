"""Housekeeping: delete what is no longer needed (expired sessions, old login failures, used or expired
account links, events past their replay window, and media nothing has used for 24 hours), and post each finished
UTC day's ledger fingerprint to the messaging channel once. The leader also announces, every minute, each member's
paid access that has run out by the clock (`billing.service.announce_ended`), so open screens drop it at once, and,
with billing configured, re-reads once a day every subscription that is not final (`billing.sync`).

`tradeideas housekeeping` runs it once and reports; `Housekeeping` runs it every HOUSEKEEPING_INTERVAL_SECONDS
in the background of the one server process that leads (`core.leader`, decision 0049), and a lock lets only one
run (the schedule's or the command's) work at a time: a session-level advisory lock on PostgreSQL, a file lock in
DATA_DIR on SQLite (see decision 0037).
"""

import asyncio
import fcntl
import logging
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager, suppress
from dataclasses import dataclass, field
from datetime import datetime, timedelta

import httpx
from sqlalchemy import ColumnElement, delete, func, or_, select, text, update
from sqlalchemy.ext.asyncio import AsyncSession

from tradeideas.admin.models import AccountToken
from tradeideas.auth import service as auth_service
from tradeideas.auth.models import User
from tradeideas.billing import service as billing
from tradeideas.billing import sync as billing_sync
from tradeideas.billing.gateway import payments_of
from tradeideas.chat.models import ChatMessage
from tradeideas.core.leader import Leader
from tradeideas.core.metrics import HOUSEKEEPING_RUNS
from tradeideas.db import Database, utcnow
from tradeideas.ideas.models import IdeaImage, TradeIdea
from tradeideas.ledger import service as ledger_service
from tradeideas.ledger import timestamps
from tradeideas.media.models import MediaFile
from tradeideas.media.schemas import MEDIA_URL_PREFIX
from tradeideas.media.store import StorageUnavailable, media_store
from tradeideas.push import service as push_service
from tradeideas.realtime.service import prune_events
from tradeideas.settings import Settings

log = logging.getLogger(__name__)

# How long an upload may stay unused (not yet attached, or no longer) before it is deleted.
UNUSED_MEDIA_GRACE = timedelta(hours=24)
# pg_try_advisory_lock key: any constant that no other feature of this database uses.
ADVISORY_LOCK_KEY = 7_370_421_012
LOCK_FILE_NAME = "housekeeping.lock"
# How often the leader looks for what the time-stamp authorities should stamp (and retries those backing off).
STAMP_TICK_SECONDS = 60.0
# How often the leader looks for paid access that has run out by the clock (its members' streams learn of it then).
ACCESS_TICK_SECONDS = 60.0
# How often the leader asks whether the daily billing sync is due (a failed one is tried again then).
BILLING_SYNC_TICK_SECONDS = 3600.0


@dataclass
class Report:
    """What one run removed, by kind; `unused_files` are deleted from disk once the rows are committed."""

    removed: dict[str, int]
    unused_files: list[str] = field(default_factory=list)
    files_deleted: int = 0
    bytes_freed: int = 0
    fingerprints_posted: int = 0
    access_ended: int = 0
    stamps: timestamps.Round | None = None

    def lines(self) -> list[str]:
        out = [f"Removed {count} {what}." for what, count in self.removed.items()]
        out.append(f"Deleted {self.files_deleted} media files, {_size(self.bytes_freed)} freed.")
        if self.access_ended:
            out.append(f"Announced the end of {self.access_ended} members' access that ran out.")
        if self.fingerprints_posted:
            out.append(f"Posted {self.fingerprints_posted} daily ledger fingerprints to the messaging channel.")
        if self.stamps is not None:
            out.append(f"Time-stamped {len(self.stamps.stamped)} ledger hashes.")
            out += [f"Time-stamp authority {url} failed: {error}" for url, error in self.stamps.failed.items()]
        return out


def _size(n: int) -> str:
    if n < 1024:
        return f"{n} bytes"
    if n < 1024 * 1024:
        return f"{n / 1024:.1f} KB"
    return f"{n / 1024 / 1024:.1f} MB"


def _in_use() -> ColumnElement[bool]:
    """A media row some idea (image or voice note), chat message or profile photo refers to.

    Uncorrelated IN lists (hashed by both databases) rather than EXISTS per row: the voice note and avatar
    references are by file name and have no index.
    """
    prefix_length = len(MEDIA_URL_PREFIX)
    return or_(
        MediaFile.id.in_(select(IdeaImage.media_id)),
        MediaFile.id.in_(select(ChatMessage.image_id).where(ChatMessage.image_id.is_not(None))),
        MediaFile.file_name.in_(select(User.avatar_path).where(User.avatar_path.is_not(None))),
        MediaFile.file_name.in_(
            select(func.substr(TradeIdea.audio_url, prefix_length + 1)).where(
                TradeIdea.audio_url.like(MEDIA_URL_PREFIX + "%")
            )
        ),
    )


async def remove_unused_media(db: AsyncSession, now: datetime) -> tuple[int, list[str]]:
    """Mark media that became unused, unmark media in use again, and delete the rows unused for 24 hours.

    Returns the number of rows deleted and their file names (to delete once this transaction commits).
    """
    in_use = _in_use()
    await db.execute(
        update(MediaFile)
        .where(MediaFile.orphaned_at.is_not(None), in_use)
        .values(orphaned_at=None)
        .execution_options(synchronize_session=False)
    )
    await db.execute(
        update(MediaFile)
        .where(MediaFile.orphaned_at.is_(None), ~in_use)
        .values(orphaned_at=now)
        .execution_options(synchronize_session=False)
    )
    deleted = await db.execute(
        delete(MediaFile)
        .where(MediaFile.orphaned_at <= now - UNUSED_MEDIA_GRACE, ~in_use)
        .returning(MediaFile.file_name, MediaFile.full_file_name)
        .execution_options(synchronize_session=False)
    )
    rows = deleted.all()
    files = [name for row in rows for name in dict.fromkeys(row) if name]
    return len(rows), files


async def run_once(db: AsyncSession, settings: Settings, now: datetime | None = None) -> Report:
    """Delete the rows; the caller commits, then calls `delete_files` (see `run`)."""
    now = now or utcnow()
    sessions, attempts = await auth_service.purge_expired(db, settings)
    links = await db.execute(
        delete(AccountToken).where(or_(AccountToken.used_at.is_not(None), AccountToken.expires_at <= now))
    )
    events = await prune_events(db, settings.events_keep_days)
    media, files = await remove_unused_media(db, now)
    # Each finished UTC day's ledger fingerprint goes to the messaging channel once: a timestamp we cannot redo.
    proof_url = f"{settings.public_url.rstrip('/')}/proof" if settings.public_url else None
    posted = await ledger_service.post_fingerprints(
        db, now, lambda text: push_service.enqueue_channel_post(db, settings, text), settings.app_name, proof_url
    )
    removed = {
        "expired sessions": sessions,
        "old login failures": attempts,
        "used or expired invitation and reset links": int(getattr(links, "rowcount", 0) or 0),
        "events past the replay window": events,
        "unused media uploads": media,
    }
    ended = await billing.announce_ended(db, now, settings)
    return Report(removed, files, fingerprints_posted=posted, access_ended=ended)


async def delete_files(settings: Settings, report: Report) -> None:
    """Remove the report's unused files from the media store, counting files and bytes. A store that does not
    answer leaves the rest for later (their rows are gone; the files only take room)."""
    store = media_store(settings)
    for name in report.unused_files:
        try:
            size = await store.delete(name)
        except StorageUnavailable:
            log.warning("housekeeping: the media store did not answer; %s unused files left", len(report.unused_files))
            return
        if size is None:
            continue
        report.files_deleted += 1
        report.bytes_freed += size


async def run(database: Database, settings: Settings, now: datetime | None = None) -> Report:
    """One complete run: the rows in one transaction, then the files of the media rows it deleted."""
    async with database.sessionmaker() as session, session.begin():
        report = await run_once(session, settings, now)
    await delete_files(settings, report)
    return report


@asynccontextmanager
async def exclusive(database: Database, settings: Settings) -> AsyncIterator[bool]:
    """Yields True to the one caller (in any process) holding the housekeeping lock, False to the others."""
    if settings.is_sqlite:
        settings.data_dir.mkdir(parents=True, exist_ok=True)
        with (settings.data_dir / LOCK_FILE_NAME).open("a") as lock_file:
            try:
                fcntl.flock(lock_file, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                yield False
                return
            try:
                yield True
            finally:
                fcntl.flock(lock_file, fcntl.LOCK_UN)
        return
    # A dedicated connection holds the session-level lock while the work runs on others; the lock goes with
    # the connection should the process die.
    async with database.engine.connect() as conn:
        got = bool((await conn.execute(text("SELECT pg_try_advisory_lock(:key)"), {"key": ADVISORY_LOCK_KEY})).scalar())
        await conn.commit()
        if not got:
            yield False
            return
        try:
            yield True
        finally:
            try:
                await conn.execute(text("SELECT pg_advisory_unlock(:key)"), {"key": ADVISORY_LOCK_KEY})
                await conn.commit()
            except Exception:
                # Never return a connection that may still hold the lock to the pool.
                await conn.invalidate()
                raise


async def run_exclusive(
    database: Database, settings: Settings, now: datetime | None = None, *, stamp: bool = False
) -> Report | None:
    """`run`, unless another process (or task) is running housekeeping right now: then None. With `stamp`, a round
    of time-stamps follows (`tradeideas housekeeping`; the server's leader runs its rounds every minute)."""
    async with exclusive(database, settings) as mine:
        if not mine:
            return None
        report = await run(database, settings, now)
        if stamp and settings.tsa_url_list:
            report.stamps = await stamp_round(database, settings, now)
        return report


async def announce_access_ended(database: Database, settings: Settings, now: datetime) -> int:
    """One look for access that ran out by the clock, in its own transaction (`billing.service.announce_ended`)."""
    async with database.sessionmaker() as session, session.begin():
        ended = await billing.announce_ended(session, now, settings)
    if ended:
        log.info("announced the end of %d members' access", ended)
    return ended


async def stamp_round(database: Database, settings: Settings, now: datetime | None = None) -> timestamps.Round:
    """One round of RFC 3161 time-stamps (decision 0100), with a client of its own."""
    async with httpx.AsyncClient(timeout=settings.tsa_timeout_seconds, follow_redirects=False) as client:
        return await timestamps.stamp_due(database, settings, client, now)


class Housekeeping:
    """The background schedule: a run every HOUSEKEEPING_INTERVAL_SECONDS (0: never), the first a minute after
    start (or sooner with a shorter interval), in whichever server process leads at that moment."""

    def __init__(
        self, database: Database, settings: Settings, leader: Leader, now: Callable[[], datetime] = utcnow
    ) -> None:
        self.database = database
        self.settings = settings
        self.leader = leader
        self.now = now
        self._task: asyncio.Task[None] | None = None
        self._stamps: asyncio.Task[None] | None = None
        self._access: asyncio.Task[None] | None = None
        self._billing: asyncio.Task[None] | None = None

    async def start(self) -> None:
        if self.settings.housekeeping_interval_seconds > 0:
            self._task = asyncio.create_task(self._loop())
            self._access = asyncio.create_task(self._access_loop())
            if self.settings.stripe_secret_key:
                self._billing = asyncio.create_task(self._billing_loop())
            if self.settings.tsa_url_list:
                self._stamps = asyncio.create_task(self._stamp_loop())

    async def stop(self) -> None:
        for task in (self._task, self._stamps, self._access, self._billing):
            if task is not None:
                task.cancel()
                with suppress(asyncio.CancelledError):
                    await task

    async def _stamp_loop(self) -> None:
        """Time-stamps in the leading process: a round a minute (each authority is asked only for what is due, and
        one that failed waits out its backoff), the first a minute after start."""
        tick = min(STAMP_TICK_SECONDS, self.settings.housekeeping_interval_seconds)
        async with httpx.AsyncClient(timeout=self.settings.tsa_timeout_seconds, follow_redirects=False) as client:
            while True:
                await asyncio.sleep(tick)
                if not self.leader.is_leader:
                    continue
                try:
                    stamped = await timestamps.stamp_due(self.database, self.settings, client, self.now())
                    if stamped.stamped:
                        log.info("time-stamped %d ledger hashes", len(stamped.stamped))
                except asyncio.CancelledError:
                    raise
                except Exception:
                    log.exception("time-stamping failed; trying again in a minute")

    async def _access_loop(self) -> None:
        """Access that ran out by the clock, announced by the leading process every minute (or sooner with a shorter
        interval): nothing waits for a member's request or a webhook to notice it."""
        tick = min(ACCESS_TICK_SECONDS, self.settings.housekeeping_interval_seconds)
        while True:
            await asyncio.sleep(tick)
            if not self.leader.is_leader:
                continue
            try:
                await announce_access_ended(self.database, self.settings, self.now())
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("announcing ended access failed; trying again in a minute")

    async def _billing_loop(self) -> None:
        """The daily billing sync in the leading process: every hour it asks whether a grant that is not final was
        last read from Stripe a day ago, and then re-reads them all. A sync that failed (Stripe down, rate limited)
        changed nothing and is tried again an hour later; one that Stripe answered waits a day whatever it found."""
        tick = min(BILLING_SYNC_TICK_SECONDS, self.settings.housekeeping_interval_seconds)
        gateway = payments_of(self.settings)
        assert gateway is not None
        last_sync: datetime | None = None
        while True:
            await asyncio.sleep(tick)
            now = self.now()
            if not self.leader.is_leader or (last_sync is not None and now - last_sync < billing_sync.SYNC_EVERY):
                continue
            try:
                if await billing_sync.due(self.database, now):
                    report = await billing_sync.sync(self.database, gateway)
                    log.info("billing sync: %s", " ".join(report.lines()))
                    last_sync = now
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("the billing sync failed; trying again in an hour")

    async def _loop(self) -> None:
        interval = self.settings.housekeeping_interval_seconds
        await asyncio.sleep(min(interval, 60.0))
        while True:
            try:
                report = (
                    await run_exclusive(self.database, self.settings, self.now()) if self.leader.is_leader else None
                )
                if report is not None:
                    HOUSEKEEPING_RUNS.inc()
                    log.info("housekeeping: %s", " ".join(report.lines()))
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("housekeeping failed; trying again at the next interval")
            await asyncio.sleep(interval)
