"""An event stream's frames go straight to the server's `send` once the answer has started through the middleware
(decision 0111): the start passes every layer (its security headers and request id are added), the frames none."""

import asyncio
import inspect
from pathlib import Path

from fastapi import FastAPI
from starlette.types import Message

from tests.conftest import CUSTOMER, DEMO_PASSWORD, make_client

REALTIME = str(Path("tradeideas") / "realtime")


async def test_frames_skip_the_middleware_wrappers_after_the_start(app: FastAPI) -> None:
    async with make_client(app) as client:
        r = await client.post(
            "/api/auth/login", json={"email": CUSTOMER, "password": DEMO_PASSWORD, "selectedRole": "customer"}
        )
        token = r.json()["sessionToken"]
    sent: list[tuple[Message, str]] = []
    connected = asyncio.Event()
    leave = asyncio.Event()

    async def server_send(message: Message) -> None:
        caller = inspect.currentframe().f_back  # type: ignore[union-attr]
        assert caller is not None
        sent.append((message, caller.f_code.co_filename))
        if message["type"] == "http.response.body":
            connected.set()

    async def receive() -> Message:
        await leave.wait()
        return {"type": "http.disconnect"}

    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "GET",
        "scheme": "http",
        "path": "/api/events",
        "raw_path": b"/api/events",
        "root_path": "",
        "query_string": b"",
        "headers": [(b"host", b"testserver"), (b"authorization", f"Bearer {token}".encode())],
        "client": ("127.0.0.1", 50000),
        "server": ("testserver", 80),
        "state": {},
    }
    stream = asyncio.create_task(app(scope, receive, server_send))
    await asyncio.wait_for(connected.wait(), 10)
    leave.set()
    await asyncio.wait_for(stream, 10)

    start, start_caller = sent[0]
    assert start["type"] == "http.response.start" and start["status"] == 200
    headers = dict(start["headers"])
    assert b"x-request-id" in headers and b"content-security-policy" in headers  # through `AppEdge`
    assert REALTIME not in start_caller  # handed on by a middleware layer
    frames = [(m, caller) for m, caller in sent[1:] if m["type"] == "http.response.body"]
    assert frames and b": connected" in frames[0][0]["body"]
    assert all(REALTIME in caller for _, caller in frames), [caller for _, caller in frames]
