"""How frames reach a connection: written on the spot by the broker, queued only while a write is held up."""

import asyncio
import socket

from fastapi import FastAPI
from starlette.types import Message

from tests.realtime.conftest import LiveServer, SSEClient
from tests.realtime.test_events import emit
from tradeideas.core.access import EducatorAccess
from tradeideas.core.deps import component_of
from tradeideas.core.events import DomainEvent, EventBus
from tradeideas.db import utcnow
from tradeideas.ideas.events import IdeaDeleted, IdeasSeen, SetupsChanged
from tradeideas.realtime.broker import Broker
from tradeideas.realtime.eager import send_now
from tradeideas.realtime.models import Event
from tradeideas.realtime.subscriber import END, Subscriber, body
from tradeideas.runtime import EVENTS
from tradeideas.settings import Settings


class FakeSend:
    """An ASGI send that records messages and, while `held` is clear, waits like a server under back-pressure."""

    def __init__(self) -> None:
        self.sent: list[Message] = []
        self.held = asyncio.Event()
        self.held.set()
        self.cancelled = False

    async def __call__(self, message: Message) -> None:
        try:
            await self.held.wait()
        except asyncio.CancelledError:
            self.cancelled = True
            raise
        self.sent.append(message)

    @property
    def bodies(self) -> list[bytes]:
        return [m["body"] for m in self.sent]


async def test_send_now_completes_a_send_that_does_not_wait() -> None:
    send = FakeSend()
    assert send_now(send, body(b"x")) is None
    assert send.bodies == [b"x"]


async def test_a_held_up_send_is_finished_by_whoever_awaits_the_rest() -> None:
    send = FakeSend()
    send.held.clear()
    unfinished = send_now(send, body(b"x"))
    assert unfinished is not None and send.sent == []
    waiter = asyncio.ensure_future(_await(unfinished))
    await asyncio.sleep(0)
    send.held.set()
    await asyncio.wait_for(waiter, 1)
    assert send.bodies == [b"x"]

    # Cancelling the task that finishes it reaches the send itself.
    send.held.clear()
    unfinished = send_now(send, body(b"y"))
    assert unfinished is not None
    waiter = asyncio.ensure_future(_await(unfinished))
    await asyncio.sleep(0)
    waiter.cancel()
    await asyncio.gather(waiter, return_exceptions=True)
    assert send.cancelled and send.bodies == [b"x"]


async def _await(unfinished: object) -> None:
    await unfinished  # type: ignore[misc]


async def test_frames_queue_behind_a_held_up_write_and_keep_their_order() -> None:
    send = FakeSend()
    sub = Subscriber(1, 1, False, maxsize=10)
    sub.offer((1, b"a"))  # not live yet: queued for the stream's own task
    await sub.flush(send)
    assert send.bodies == [b"a"]

    sub.offer((2, b"b"))  # live: written on the spot, no task involved
    assert send.bodies == [b"a", b"b"]

    send.held.clear()  # the client stops reading
    sub.offer((3, b"c"))
    sub.offer((4, b"d"))
    sub.offer((5, b"e"))
    assert send.bodies == [b"a", b"b"]
    send.held.set()
    for _ in range(20):
        await asyncio.sleep(0)
    assert send.bodies == [b"a", b"b", b"c", b"de"]  # what queued meanwhile goes out in one write

    sub.offer((6, b"f"))  # live again
    assert send.bodies[-1] == b"f"
    sub.close()
    assert send.sent[-1] == END


async def test_events_sent_by_the_replay_are_not_sent_again() -> None:
    send = FakeSend()
    sub = Subscriber(1, 1, False, maxsize=10)
    sub.offer((6, b"queued during the replay"))
    sub.offer((9, b"new while replaying"))
    sub.replayed_through = 7
    await sub.flush(send)
    sub.offer((7, b"replayed, delivered late"))
    sub.offer((10, b"new"))
    assert send.bodies == [b"new while replaying", b"new"]


async def _until(condition: object, seconds: float = 5) -> None:
    for _ in range(int(seconds / 0.02)):
        if condition():  # type: ignore[operator]
            return
        await asyncio.sleep(0.02)
    raise AssertionError("condition not met in time")


async def test_a_client_that_leaves_is_unsubscribed(app: FastAPI, live: LiveServer, customer_token: str) -> None:
    broker: Broker = component_of(live.app, Broker)
    async with SSEClient(live.url, customer_token) as client:
        await _until(lambda: len(broker.subscribers) == 1)
        event_id = await emit(app, "idea.created", {"id": 1})
        assert (await client.next()).id == str(event_id)
    await _until(lambda: not broker.subscribers and not broker.by_user and not broker.customers)


async def test_a_dropped_stream_ends_its_response_and_its_request(
    app: FastAPI, live: LiveServer, customer_token: str
) -> None:
    broker: Broker = component_of(live.app, Broker)
    async with SSEClient(live.url, customer_token) as client:
        await _until(lambda: len(broker.subscribers) == 1)
        (sub,) = broker.subscribers
        sub.close()  # as when the client falls too far behind
        assert await client.ended()
        await _until(lambda: not broker.subscribers)


async def test_a_client_that_stops_reading_gets_every_frame_in_order_once_it_reads(
    app: FastAPI, live: LiveServer, customer_token: str
) -> None:
    """uvicorn holds `send` up while the socket is full: frames queue behind it, then flow again, in order."""
    broker: Broker = component_of(live.app, Broker)
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.setblocking(False)
    await asyncio.get_running_loop().sock_connect(sock, ("127.0.0.1", live.port))
    reader, writer = await asyncio.open_connection(sock=sock, limit=2**24)
    writer.write(f"GET /api/events HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {customer_token}\r\n\r\n".encode())
    await _until(lambda: len(broker.subscribers) == 1)
    (sub,) = broker.subscribers
    transport = writer.transport
    assert isinstance(transport, asyncio.Transport)
    transport.pause_reading()  # stop reading: the socket buffers fill up
    big = "x" * 200_000
    ids = [await emit(app, "idea.updated", {"n": n, "pad": big}) for n in range(30)]
    # Read one by one or several in one write (a burst), they fill the socket: a write is held up, and the frames
    # of later events wait behind it.
    while not sub.pending:
        assert len(ids) < 200, "no write was held up"
        ids.append(await emit(app, "idea.updated", {"n": len(ids), "pad": big}))
        await asyncio.sleep(0.05)
    transport.resume_reading()
    received = b""
    while f"id: {ids[-1]}\n".encode() not in received:
        received += await asyncio.wait_for(reader.read(2**20), 10)
    seen = [int(line[4:]) for line in received.split(b"\n") if line.startswith(b"id: ")]
    assert seen == ids
    writer.close()
    await _until(lambda: not broker.subscribers)


async def test_a_burst_of_events_costs_each_stream_one_write_of_what_it_may_read(
    app: FastAPI, settings: Settings
) -> None:
    """A price-check round commits many events at once: each stream gets its share of them in one write, in order,
    an open idea's only where the member's plans open its educator, and streams given the same frames share one
    bytes object (1,000 streams at one write each, not one per event, was the 1,000-client p99 of issue #38)."""
    broker = Broker(app.state.db, settings, EventBus(EVENTS))  # not started: fed by hand
    educator, member, other = FakeSend(), FakeSend(), FakeSend()
    educator_sub = broker.subscribe(7, 1, is_educator=True)
    member_sub = broker.subscribe(41, 2, is_educator=False, is_customer=True)
    other_sub = broker.subscribe(42, 3, is_educator=False, is_customer=True)
    member_sub.grant(EducatorAccess(everything=False, educators=frozenset({7})), member_sub.access_version)
    other_sub.grant(EducatorAccess(everything=False, educators=frozenset({8})), other_sub.access_version)
    for sub, send in ((educator_sub, educator), (member_sub, member), (other_sub, other)):
        await sub.flush(send)

    def row(seq: int, event: DomainEvent) -> Event:
        return Event(
            id=seq, seq=seq, type=event.type, payload=event.data(), audience=event.audience(),
            educator_id=event.educator_scope(), created_at=utcnow(),
        )  # fmt: skip

    burst = [
        row(1, SetupsChanged(educator_id=7)),
        row(2, IdeaDeleted(id=100, market="forex", idea_type="Leverage", educator_id=7)),  # open: members of 7 only
        row(3, IdeasSeen(user_id=41, forex=0, crypto=0, total=0)),  # the member's own
        row(4, SetupsChanged(educator_id=8)),
    ]
    broker.deliver(burst)

    def seqs(frames: bytes) -> list[int]:
        return [int(line[4:]) for line in frames.split(b"\n") if line.startswith(b"id: ")]

    assert [seqs(b) for b in educator.bodies] == [[1, 2, 4]]
    assert [seqs(b) for b in member.bodies] == [[1, 2, 3, 4]]
    assert [seqs(b) for b in other.bodies] == [[1, 4]]
    assert broker.delivered == 3 + 3 + 1 + 3

    another = FakeSend()
    await broker.subscribe(43, 4, is_educator=True).flush(another)
    broker.deliver([row(5, SetupsChanged(educator_id=7)), row(6, SetupsChanged(educator_id=8))])
    assert educator.bodies[-1] is another.bodies[-1]  # the same frames, joined once
    assert seqs(educator.bodies[-1]) == [5, 6]
