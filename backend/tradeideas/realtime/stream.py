"""The Server-Sent Events response: replay from the outbox, then live events from the broker."""

from collections.abc import Mapping

import orjson
from starlette.responses import Response
from starlette.types import Receive, Scope, Send

from tradeideas.core.access import FULL_ACCESS
from tradeideas.core.metrics import OPEN_EVENT_STREAMS
from tradeideas.core.middleware import server_send
from tradeideas.realtime import service as events_service
from tradeideas.realtime.broker import Broker, encode, position
from tradeideas.realtime.schemas import Resync
from tradeideas.realtime.subscriber import body

HEADERS = (
    (b"cache-control", b"no-store, no-transform"),
    (b"x-accel-buffering", b"no"),
    (b"content-type", b"text/event-stream; charset=utf-8"),
)


MAX_EVENT_ID_LENGTH = 20
MAX_POSITION = 2**63 - 1  # stream positions are BIGINT


def resume_after(*values: str | None) -> int | None:
    """The first of `values` that is a stream position: the `Last-Event-ID` header (reconnects) or `lastEventId`
    query to replay after, or a first stream's `since`."""
    for value in values:
        if value is not None and value.strip().isascii() and value.strip().isdigit():
            seq = int(value.strip())
            # Larger than any position (the column is a BIGINT): not one of ours, so ignored like text.
            if seq <= MAX_POSITION:
                return seq
    return None


class EventStream(Response):
    """`id:` / `event:` / `data:` frames; a `: ping` comment every heartbeat; ends on disconnect, shutdown or when
    its session ends."""

    media_type = "text/event-stream"

    def __init__(
        self,
        broker: Broker,
        *,
        user_id: int,
        session_id: int,
        is_educator: bool,
        is_customer: bool = False,
        last_event_id: int | None,
        session_may_have_ended: bool,
        since: int | None = None,
        retry_ms: int = 3000,
    ) -> None:
        super().__init__()
        self.broker = broker
        self.user_id = user_id
        self.session_id = session_id
        # True when the session was read from the database before this stream subscribed: a logout that
        # committed in between was announced before the broker knew of this stream, so look again.
        self.session_may_have_ended = session_may_have_ended
        self.is_educator = is_educator
        self.is_customer = is_customer  # paid access decides which educators' open ideas it carries
        self.access = FULL_ACCESS
        self.last_event_id = last_event_id
        # A first stream's start: the position of the data the client shows (`X-Stream-Position`), see `_catch_up`.
        self.since = since
        self.retry_ms = retry_ms

    def init_headers(self, headers: Mapping[str, str] | None = None) -> None:
        # No content-length: the body is streamed for as long as the client stays. The header pairs are
        # shared by every stream (thousands stay open); the list is not, as FastAPI adds cookies to it.
        self.raw_headers = list(HEADERS)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        sub = self.broker.subscribe(self.user_id, self.session_id, self.is_educator, self.is_customer)
        if self.session_may_have_ended:
            self.broker.check_sessions(self.user_id)
        OPEN_EVENT_STREAMS.inc()
        try:
            if self.is_customer:
                self.access = await self.broker.read_access(sub)
            # The start goes through every layer (security headers, request id, the status counted); the frames
            # after it go straight to the server, not through a wrapper per layer (decision 0111).
            await send({"type": "http.response.start", "status": 200, "headers": self.raw_headers})
            send = server_send(scope, send)
            if self.last_event_id is not None:
                # The client has everything up to its Last-Event-ID, which may be ahead of this process's broker
                # (it came from another process): what the broker offers up to there is not sent again either.
                sub.replayed_through = max(self.last_event_id, await self._replay(send))
            elif self.since is not None:
                sub.replayed_through = await self._catch_up(self.since, send)
            # `: connected` once the stream is live: a change committed after it reaches this client as an event,
            # never folded into the catch-up's `resync` (what a client that acts on it, like a test, relies on).
            await send(body(f"retry: {self.retry_ms}\n: connected\n\n".encode()))
            # Send what arrived meanwhile, then the broker writes each new frame itself (or ends the response).
            await sub.flush(send)
            # This task only waits for the client to leave. The ASGI server also answers `http.disconnect`
            # once the response is complete (uvicorn wakes a pending `receive` then), so a stream ended by
            # `Subscriber.close` finishes here too: see test_a_dropped_stream_ends_its_response_and_its_request.
            while (await receive())["type"] != "http.disconnect":
                pass
        except OSError:
            pass  # the client went away mid-write
        finally:
            OPEN_EVENT_STREAMS.dec()
            sub.detach()
            self.broker.unsubscribe(sub)

    async def _replay(self, send: Send) -> int:
        """Send what the client missed since Last-Event-ID, in commit order; returns the position it reaches.

        Already subscribed, so nothing falls between: the broker offers every event after the last position
        it had delivered when the stream subscribed, and the replay reads on to at least there."""
        assert self.last_event_id is not None
        limit = self.broker.settings.sse_replay_limit
        audiences = events_service.audiences_for(self.user_id, self.is_educator)
        async with self.broker.db.sessionmaker() as session:
            rows = await events_service.events_after(session, self.last_event_id, limit + 1, audiences, self.access)
            if len(rows) > limit:
                # Too far behind: tell the client to reload its data instead of streaming thousands of events.
                latest = await events_service.last_event_id(session)
                await _send_resync(send, latest)
                return latest
        for event in rows:
            await send(body(encode(event)))
        return position(rows[-1]) if rows else 0

    async def _catch_up(self, since: int, send: Send) -> int:
        """A first stream, for data read at `since` or later: `resync` when the client may see any change made
        since, so it reloads what it shows; returns the position the stream goes on from.

        Not a replay: the data may already show some of those changes (the position is read as a request comes
        in, the data after it), and an event applied twice would count twice (a customer's unseen ideas). A
        reload is exact, and needed only when something changed in the moment between the first data and the
        stream, which is rare.

        Only other people's changes count. The events sent to this user alone follow from the user's own actions
        (ideas marked seen, journal entries): the page that acted has their answers, and opening the market page
        marks ideas seen as it loads, so counting them would reload nearly every page."""
        audiences = events_service.shared_audiences(self.is_educator)
        async with self.broker.db.sessionmaker() as session:
            changed = await events_service.events_after(session, since, 1, audiences, self.access)
            latest = await events_service.last_event_id(session)
        if not changed and since <= latest:
            return since  # nothing this client may see: the broker's later events follow
        # Changed, or a position ahead of every event: data read before the database was restored.
        await _send_resync(send, latest)
        return latest


async def _send_resync(send: Send, latest: int) -> None:
    data = orjson.dumps(Resync(last_event_id=latest).data())
    await send(body(b"id: %d\nevent: resync\ndata: %s\n\n" % (latest, data)))
