"""One open event stream as the broker sees it: who is listening, and how its frames reach the connection."""

import asyncio
import logging
from collections.abc import Awaitable, Coroutine, Sequence
from typing import Any

from starlette.types import Message, Send

from tradeideas.core.access import FULL_ACCESS, NO_ACCESS, EducatorAccess
from tradeideas.realtime.eager import send_now

log = logging.getLogger(__name__)

# What the broker offers, in stream order: (stream position, encoded SSE frame); 0 is a heartbeat comment.
Item = tuple[int, bytes]
END: Message = {"type": "http.response.body", "body": b"", "more_body": False}


def body(frames: bytes) -> Message:
    return {"type": "http.response.body", "body": frames, "more_body": True}


class Subscriber:
    """A stream's audience (user id, role), the session it was opened with, and its write path.

    Once the stream is live, `offer` writes each frame to the connection right away, from the broker's
    fan-out loop (see `eager`): no queue, no task switch per connection. Before that (headers, replay)
    and while a write is held up by a client that is not reading, frames wait in `pending`, which a task
    flushes. A client that falls `maxsize` frames behind is dropped (it reconnects with Last-Event-ID and
    replays); `close` ends the response, which also ends the stream's request task (see `EventStream`).
    """

    __slots__ = (
        "__weakref__",
        "_flusher",
        "_send",
        "access",
        "access_version",
        "closed",
        "held",
        "is_educator",
        "maxsize",
        "pending",
        "replayed_through",
        "session_id",
        "user_id",
    )

    def __init__(
        self, user_id: int, session_id: int, is_educator: bool, maxsize: int, is_customer: bool = False
    ) -> None:
        self.user_id = user_id
        self.session_id = session_id  # the stream ends when this session does
        self.is_educator = is_educator
        self.maxsize = maxsize
        self.closed = False
        # Paid access: the educators whose open ideas' events this stream carries (admins and educators: all). A
        # customer's is read once subscribed and again whenever it may have changed; meanwhile every frame waits
        # in `held`, in order, so none passes on access the member no longer has nor is lost on access just
        # gained (`hold`, `grant`).
        self.access: EducatorAccess = NO_ACCESS if is_customer else FULL_ACCESS
        self.held: list[tuple[Item, int | None]] | None = [] if is_customer else None
        self.access_version = 0
        self.pending: list[Item] = []
        # The position the replay (or a resync) brought the client to: the broker may still offer events up to
        # it (queued meanwhile, or live), which the client has had.
        self.replayed_through = 0
        self._send: Send | None = None  # set while live: `offer` writes directly
        self._flusher: asyncio.Task[None] | None = None

    def offer(self, item: Item, educator_id: int | None = None) -> None:
        """Write the frame now (or queue it); `educator_id`: it shows that educator's open ideas (see `access`)."""
        if self.closed or 0 < item[0] <= self.replayed_through:
            return
        if self.held is not None:
            if item[0] == 0:
                return  # a heartbeat: the frames held are about to follow
            if len(self.held) >= self.maxsize:
                log.info("dropping slow event-stream client (user %s)", self.user_id)
                self.close()
            else:
                self.held.append((item, educator_id))
            return
        if educator_id is not None and not self.access.opens(educator_id):
            return
        send = self._send
        if send is None:
            if len(self.pending) >= self.maxsize:
                log.info("dropping slow event-stream client (user %s)", self.user_id)
                self.close()
            else:
                self.pending.append(item)
            return
        unfinished = self._write_now(send, body(item[1]))
        if unfinished is not None:  # the client is not reading: queue until a task has finished this write
            self._send = None
            self._in_background(self.flush(send, unfinished))

    def offer_all(self, items: Sequence[tuple[Item, int | None]], joined: dict[tuple[int, ...], bytes]) -> None:
        """`offer` for the frames of several events read together, in order: a live stream gets the ones it carries
        in one write (a burst of events, such as a price-check round's, costs each connection one write, not one
        per event). `joined`: the frames already joined for other streams, by their positions, shared."""
        send = self._send
        if send is None or self.held is not None or self.closed:
            for item, educator_id in items:
                self.offer(item, educator_id)
            return
        carried = [
            item
            for item, educator_id in items
            if not 0 < item[0] <= self.replayed_through and (educator_id is None or self.access.opens(educator_id))
        ]
        if not carried:
            return
        key = tuple(seq for seq, _ in carried)
        frames = joined.get(key)
        if frames is None:
            frames = joined[key] = b"".join(frame for _, frame in carried)
        unfinished = self._write_now(send, body(frames))
        if unfinished is not None:  # the client is not reading: queue until a task has finished this write
            self._send = None
            self._in_background(self.flush(send, unfinished))

    def _write_now(self, send: Send, message: Message) -> Awaitable[None] | None:
        try:
            return send_now(send, message)
        except Exception:
            log.warning("event-stream write failed; dropping the stream", exc_info=True)
            self.detach()
            return None

    async def flush(self, send: Send, unfinished: Awaitable[None] | None = None) -> None:
        """Finish a held-up write, send what queued meanwhile, then go live (or end the response if closed)."""
        if unfinished is not None:
            await unfinished
        while self.pending and not self.closed:
            # Under load several frames may be waiting: one write.
            frames = b"".join(frame for seq, frame in self.pending if not 0 < seq <= self.replayed_through)
            self.pending.clear()
            if frames:
                await send(body(frames))
        if self.closed:
            await send(END)
        else:
            self._send = send

    def hold(self) -> int:
        """The member's access may have changed: keep every frame until `grant` says what it is now. Returns the
        version a `grant` must name (a read that began before a later change is not applied)."""
        self.access_version += 1
        if self.held is None:
            self.held = []
        return self.access_version

    def grant(self, access: EducatorAccess, version: int) -> bool:
        """The access read for `version` (from `hold`): applied, and the frames held since sent or dropped by it.
        False when access may have changed again meanwhile (a newer read follows)."""
        if version != self.access_version:
            return False
        self.access = access
        held, self.held = self.held, None
        for item, educator_id in held or ():
            self.offer(item, educator_id)
        return True

    def close(self) -> None:
        """End the stream (slow client, shutdown, session ended): the client reconnects and replays what it missed."""
        if self.closed:
            return
        self.closed = True
        self.pending.clear()
        self.held = None
        send, self._send = self._send, None
        if send is None:
            return  # not live: `flush` ends the response
        unfinished = self._write_now(send, END)
        if unfinished is not None:
            self._in_background(_finish(unfinished))

    def _in_background(self, write: Coroutine[Any, Any, None]) -> None:
        async def run() -> None:
            try:
                await write
            except Exception:
                log.warning("event-stream write failed; dropping the stream", exc_info=True)
                self.closed = True
                self.pending.clear()
            finally:
                self._flusher = None

        self._flusher = asyncio.get_running_loop().create_task(run())  # referenced until done

    def detach(self) -> None:
        """The connection is gone: stop writing to it (nothing to end) and abandon a held-up write."""
        self.closed = True
        self.pending.clear()
        self._send = None
        if self._flusher is not None:
            self._flusher.cancel()
            self._flusher = None


async def _finish(unfinished: Awaitable[None]) -> None:
    await unfinished
