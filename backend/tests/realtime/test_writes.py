"""How frames reach a connection: written on the spot by the broker, queued only while a write is held up."""

import asyncio
import socket

from fastapi import FastAPI
from starlette.types import Message

from tests.realtime.conftest import LiveServer, SSEClient
from tests.realtime.test_events import emit
from tradeideas.core.deps import component_of
from tradeideas.realtime.broker import Broker
from tradeideas.realtime.eager import send_now
from tradeideas.realtime.subscriber import END, Subscriber, body


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
    await _until(lambda: len(sub.pending) > 0)  # a write is held up and later frames wait behind it
    transport.resume_reading()
    received = b""
    while f"id: {ids[-1]}\n".encode() not in received:
        received += await asyncio.wait_for(reader.read(2**20), 10)
    seen = [int(line[4:]) for line in received.split(b"\n") if line.startswith(b"id: ")]
    assert seen == ids
    writer.close()
    await _until(lambda: not broker.subscribers)
