"""The delivery worker: one per background worker process, woken when new ideas commit (see `runtime`), polling
otherwise.

It claims due rows in batches (never the same row in two processes), encrypts Web Push bodies in a
thread, posts them concurrently over one connection pool and records the outcomes: sent, retried with
exponential backoff, failed after PUSH_MAX_ATTEMPTS, or the subscription deleted on 404/410.
"""

import asyncio
import json
import logging
from contextlib import suppress

from tradeideas.core.metrics import PUSH_DELIVERIES
from tradeideas.db import Database
from tradeideas.push import service
from tradeideas.push.models import Channel
from tradeideas.push.sender import Outcome, Result, Sender, encrypt_many
from tradeideas.push.vapid import VapidKeys, load_vapid_keys
from tradeideas.settings import Settings

log = logging.getLogger(__name__)


LEASE_SECONDS = 120.0
PRUNE_EVERY_SECONDS = 3600.0
KEEP_DAYS = 7.0


class PushWorker:
    def __init__(self, db: Database, settings: Settings, sender: Sender) -> None:
        self.db = db
        self.settings = settings
        self.sender = sender
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self.sent = 0

    @property
    def alive(self) -> bool:
        """Its loop is running (started, not stopped, not ended by an error)."""
        return self._task is not None and not self._task.done()

    def wake(self, _queued: object = None) -> None:
        if self._loop is not None and not self._loop.is_closed():
            self._loop.call_soon_threadsafe(self._wake.set)

    async def start(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._task = asyncio.create_task(self._run())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with suppress(asyncio.CancelledError, Exception):
                await self._task

    async def _run(self) -> None:
        last_prune = 0.0
        loop = asyncio.get_running_loop()
        while True:
            try:
                busy = await self.run_once()
                if loop.time() - last_prune > PRUNE_EVERY_SECONDS:
                    last_prune = loop.time()
                    async with self.db.sessionmaker() as session, session.begin():
                        await service.prune_deliveries(session, KEEP_DAYS)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("push worker iteration failed")
                busy = False
            if not busy:
                with suppress(TimeoutError):
                    await asyncio.wait_for(self._wake.wait(), self.settings.push_poll_seconds)
                self._wake.clear()

    async def run_once(self) -> bool:
        """Claim and send one batch; returns True when there was work (so the caller loops at once)."""
        async with self.db.sessionmaker() as session, session.begin():
            await service.release_held(session)  # quiet hours that ended: one (summary) notification each
        async with self.db.sessionmaker() as session, session.begin():
            batch = await service.claim_due(session, self.settings.push_batch_size, LEASE_SECONDS)
        if not batch:
            return False
        results = await self._send(batch)
        async with self.db.sessionmaker() as session, session.begin():
            await service.record_results(session, self.settings, results)
        self.sent += sum(r.outcome == Outcome.SENT for _, r in results)
        for claimed, result in results:
            PUSH_DELIVERIES.labels(claimed.channel, result.outcome.value).inc()
        return True

    async def _send(self, batch: list[service.Claimed]) -> list[tuple[service.Claimed, Result]]:
        webpush = [c for c in batch if c.channel == Channel.WEBPUSH and c.target is not None]
        bodies = await asyncio.to_thread(
            encrypt_many, [(c.target, json.dumps(c.payload).encode()) for c in webpush if c.target is not None]
        )
        limit = asyncio.Semaphore(self.settings.push_concurrency)

        async def push_one(claimed: service.Claimed, body: bytes | Exception) -> tuple[service.Claimed, Result]:
            if isinstance(body, Exception) or claimed.target is None:
                return claimed, Result(Outcome.FAILED, None, f"encryption failed: {body!r}"[:300])
            async with limit:
                return claimed, await self.sender.post_webpush(claimed.target, body)

        async def other(claimed: service.Claimed) -> tuple[service.Claimed, Result]:
            if claimed.channel == Channel.TELEGRAM:
                return claimed, await self.sender.send_telegram(claimed.payload)
            return claimed, Result(Outcome.FAILED, None, "subscription no longer exists")

        others = [c for c in batch if c not in webpush]
        jobs = [push_one(c, b) for c, b in zip(webpush, bodies, strict=True)] + [other(c) for c in others]
        return list(await asyncio.gather(*jobs))


class PushRuntime:
    """This process's Web Push keys, sender and worker; built with the app, started by its lifespan."""

    def __init__(self, db: Database, settings: Settings) -> None:
        self.db = db
        self.settings = settings
        self.keys: VapidKeys | None = None
        self.sender: Sender | None = None
        self.worker: PushWorker | None = None

    def wake(self, _event: object = None) -> None:
        """New deliveries were committed: send them now instead of at the next poll."""
        if self.worker is not None:
            self.worker.wake()

    async def start(self) -> None:
        """The keys and the sender (a serving process sends test notifications with them)."""
        self.keys = await load_vapid_keys(self.settings, self.db)
        self.sender = Sender(self.settings, self.keys)

    async def start_delivery(self) -> None:
        """Deliver queued pushes from this process: background workers only (`runtime.Background`)."""
        assert self.sender is not None, "start() first"
        self.worker = PushWorker(self.db, self.settings, self.sender)
        await self.worker.start()

    async def stop_delivery(self) -> None:
        if self.worker is not None:
            await self.worker.stop()
            self.worker = None

    async def stop(self) -> None:
        await self.stop_delivery()
        if self.sender is not None:
            await self.sender.close()
