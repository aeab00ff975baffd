"""Draining (decision 0160): requests in flight are waited for, up to DRAIN_SECONDS, before the streams end."""

import asyncio

import httpx
from starlette.types import Receive, Scope, Send

from tradeideas.core.drain import CountInFlight, Drain

STREAM = "/api/events"


class HeldApp:
    """An ASGI app that answers once `release` is set (a request still in flight until then)."""

    def __init__(self) -> None:
        self.release = asyncio.Event()
        self.started = asyncio.Event()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        self.started.set()
        await self.release.wait()
        await send({"type": "http.response.start", "status": 204, "headers": []})
        await send({"type": "http.response.body", "body": b""})


async def test_streams_end_once_the_requests_in_flight_have_finished() -> None:
    held = HeldApp()
    drain = Drain(30, frozenset({STREAM}))
    ended: list[str] = []
    drain.on_drained.append(lambda: ended.append("streams"))
    transport = httpx.ASGITransport(app=CountInFlight(held, drain=drain))
    async with httpx.AsyncClient(transport=transport, base_url="http://node") as client:
        request = asyncio.create_task(client.get("/api/ideas"))
        stream = asyncio.create_task(client.get(STREAM))
        await held.started.wait()
        await asyncio.sleep(0.05)
        assert drain.in_flight == 1  # the stream is not counted: it would never finish by itself

        drain.begin()
        assert drain.draining
        await asyncio.sleep(0.3)
        assert ended == []  # the request is still being answered

        held.release.set()
        assert (await request).status_code == 204
        await stream
        for _ in range(100):
            if ended:
                break
            await asyncio.sleep(0.02)
        assert ended == ["streams"] and drain.in_flight == 0


async def test_streams_end_after_drain_seconds_even_when_a_request_is_stuck() -> None:
    held = HeldApp()
    drain = Drain(0.3, frozenset({STREAM}))
    ended = asyncio.Event()
    drain.on_drained.append(ended.set)
    transport = httpx.ASGITransport(app=CountInFlight(held, drain=drain))
    async with httpx.AsyncClient(transport=transport, base_url="http://node") as client:
        request = asyncio.create_task(client.get("/api/ideas"))
        await held.started.wait()
        drain.begin()
        drain.begin()  # a second signal changes nothing
        await asyncio.wait_for(ended.wait(), 10)
        assert drain.in_flight == 1
        held.release.set()
        await request
