"""The Server-Sent Events response: replay from the outbox, then live events from the broker."""

import asyncio
import json
from contextlib import suppress

from starlette.responses import Response
from starlette.types import Receive, Scope, Send

from tradeideas.realtime import service as events_service
from tradeideas.realtime.broker import Broker, Subscriber, encode


class EventStream(Response):
    """`id:` / `event:` / `data:` frames; a `: ping` comment every heartbeat; ends on disconnect or shutdown."""

    media_type = "text/event-stream"

    def __init__(
        self, broker: Broker, *, user_id: int, is_educator: bool, last_event_id: int | None, retry_ms: int = 3000
    ) -> None:
        super().__init__(
            headers={"cache-control": "no-cache, no-transform", "x-accel-buffering": "no"},
            media_type=self.media_type,
        )
        # No content-length: the body is streamed for as long as the client stays.
        self.raw_headers = [(k, v) for k, v in self.raw_headers if k != b"content-length"]
        self.broker = broker
        self.user_id = user_id
        self.is_educator = is_educator
        self.last_event_id = last_event_id
        self.retry_ms = retry_ms

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        sub = self.broker.subscribe(self.user_id, self.is_educator)
        watcher = asyncio.create_task(_close_on_disconnect(receive, sub))
        try:
            await send({"type": "http.response.start", "status": 200, "headers": self.raw_headers})
            await _body(send, f"retry: {self.retry_ms}\n: connected\n\n".encode())
            replayed = await self._replay(send) if self.last_event_id is not None else set()
            queue = sub.queue
            while True:
                item = await queue.get()
                chunks: list[bytes] = []
                # Under load several events may be waiting: write them in one go.
                while item is not None:
                    if item[0] not in replayed:
                        chunks.append(item[1])
                    if queue.empty():
                        break
                    item = queue.get_nowait()
                if chunks:
                    await _body(send, b"".join(chunks))
                if item is None:
                    break
            with suppress(OSError):
                await send({"type": "http.response.body", "body": b"", "more_body": False})
        except OSError:
            pass  # the client went away mid-write
        finally:
            self.broker.unsubscribe(sub)
            watcher.cancel()

    async def _replay(self, send: Send) -> set[int]:
        """Send what the client missed since Last-Event-ID (already subscribed, so nothing falls between)."""
        assert self.last_event_id is not None
        limit = self.broker.settings.sse_replay_limit
        audiences = events_service.audiences_for(self.user_id, self.is_educator)
        async with self.broker.db.sessionmaker() as session:
            rows = await events_service.events_after(session, self.last_event_id, limit + 1, audiences)
            if len(rows) > limit:
                # Too far behind: tell the client to reload its data instead of streaming thousands of events.
                latest = await events_service.last_event_id(session)
                data = json.dumps({"lastEventId": latest})
                await _body(send, f"id: {latest}\nevent: resync\ndata: {data}\n\n".encode())
                return set()
        for event in rows:
            await _body(send, encode(event))
        return {event.id for event in rows}


async def _body(send: Send, chunk: bytes) -> None:
    await send({"type": "http.response.body", "body": chunk, "more_body": True})


async def _close_on_disconnect(receive: Receive, sub: Subscriber) -> None:
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            sub.close()
            return
