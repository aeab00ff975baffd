"""Draining a serving process before it stops (SIGTERM from a supervisor, a deploy, a node taken out of a cluster).

In order (decision 0160):
1. at once, `/api/health` answers 503, so a balancer that asks it stops sending new requests here (uvicorn, whose
   handler runs just after ours, also stops accepting connections: a balancer that tries one anyway is refused
   before anything was sent and retries on another node);
2. requests already in flight finish, for up to `DRAIN_SECONDS` (uvicorn then cancels what is left);
3. then the event streams end (`on_drained`): their clients reconnect through the balancer to another node and
   resume from their `Last-Event-ID`, so they miss nothing. Streams are not requests in flight: they would never
   finish by themselves.
"""

import asyncio
import logging
from collections.abc import Awaitable, Callable
from contextlib import suppress

from starlette.types import ASGIApp, Receive, Scope, Send

log = logging.getLogger(__name__)


class Drain:
    """Whether this process is draining, and how many requests (not event streams) it is serving."""

    def __init__(self, drain_seconds: float, long_lived_paths: frozenset[str]) -> None:
        self.drain_seconds = drain_seconds
        self.long_lived_paths = long_lived_paths  # answers that last as long as their client: not counted
        self.draining = False
        self.in_flight = 0
        self.on_drained: list[Callable[[], None]] = []
        self._task: asyncio.Task[None] | None = None
        self.idle = asyncio.Event()  # set when the last request in flight has finished during a drain

    def request_finished(self) -> None:
        self.in_flight -= 1
        if self.in_flight == 0 and self.draining:
            self.idle.set()

    def begin(self) -> None:
        """From the exit signal's handler, on the event loop: report not-ready, then end streams once drained."""
        if self.draining:
            return
        self.draining = True
        log.info("draining: %d request(s) in flight, waiting up to %.0f s", self.in_flight, self.drain_seconds)
        self._task = asyncio.get_running_loop().create_task(self._finish())

    async def _finish(self) -> None:
        if self.in_flight:
            with suppress(TimeoutError):
                await asyncio.wait_for(self.idle.wait(), self.drain_seconds)
        if self.in_flight:
            log.warning("draining: %d request(s) still in flight after %.0f s", self.in_flight, self.drain_seconds)
        for action in self.on_drained:
            try:
                action()
            except Exception:
                log.exception("draining: ending the event streams failed")


class CountInFlight:
    """ASGI middleware counting the requests a `Drain` waits for (event streams and other long-lived answers
    excepted)."""

    def __init__(self, app: ASGIApp, *, drain: Drain) -> None:
        self.app = app
        self.drain = drain

    def __call__(self, scope: Scope, receive: Receive, send: Send) -> Awaitable[None]:
        # A plain function handing back the next app's coroutine for what is not counted: an event stream keeps no
        # frame of ours for as long as it stays open.
        if scope["type"] != "http" or scope["path"] in self.drain.long_lived_paths:
            return self.app(scope, receive, send)
        return self._counted(scope, receive, send)

    async def _counted(self, scope: Scope, receive: Receive, send: Send) -> None:
        self.drain.in_flight += 1
        try:
            await self.app(scope, receive, send)
        finally:
            self.drain.request_finished()
