"""Helpers for streaming tests: a real uvicorn server on a free port and a small SSE client."""

import asyncio
import contextlib
import json
import socket
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

import httpx
import pytest
import uvicorn
from fastapi import FastAPI

from tests.conftest import CUSTOMER, DEMO_PASSWORD, EDUCATOR_A
from tradeideas.app import create_app
from tradeideas.core.deps import component_of
from tradeideas.realtime.broker import Broker
from tradeideas.settings import Settings


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class LiveServer:
    """The app served by uvicorn in this event loop (ASGITransport cannot stream)."""

    def __init__(self, settings: Settings, port: int | None = None) -> None:
        self.port = port or free_port()
        self.app: FastAPI = create_app(settings)
        self.server = uvicorn.Server(
            uvicorn.Config(self.app, host="127.0.0.1", port=self.port, log_level="warning", lifespan="on")
        )
        self.task: asyncio.Task[None] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    async def start(self) -> "LiveServer":
        self.task = asyncio.create_task(self.server.serve())
        for _ in range(200):
            if self.server.started:
                return self
            if self.task.done():
                self.task.result()
            await asyncio.sleep(0.02)
        raise RuntimeError("server did not start")

    async def stop(self) -> None:
        component_of(self.app, Broker).close_streams()  # what the patched uvicorn exit signal handler does
        self.server.should_exit = True
        if self.task is not None:
            await asyncio.wait_for(self.task, 10)


@pytest.fixture
async def live(settings: Settings) -> AsyncIterator[LiveServer]:
    server = await LiveServer(settings).start()
    yield server
    await server.stop()


# Generous: logins hash a password, and a loaded CI machine can take seconds to answer one.
HTTP_TIMEOUT = httpx.Timeout(30)


async def login_token(base_url: str, email: str, role: str) -> str:
    async with httpx.AsyncClient(timeout=HTTP_TIMEOUT, base_url=base_url) as c:
        r = await c.post("/api/auth/login", json={"email": email, "password": DEMO_PASSWORD, "selectedRole": role})
        assert r.status_code == 200, r.text
        token: str = r.json()["sessionToken"]
        return token


@dataclass
class SSEEvent:
    id: str | None
    type: str
    data: Any


@dataclass
class SSEClient:
    """Reads one event stream in the background; `next()` returns the next parsed event."""

    url: str
    token: str
    last_event_id: str | None = None
    since: str | None = None  # `?since=`: a first stream, from the position of the data shown
    events: "asyncio.Queue[SSEEvent | None]" = field(default_factory=asyncio.Queue)
    connected: asyncio.Event = field(default_factory=asyncio.Event)
    status: int | None = None
    task: "asyncio.Task[None] | None" = None

    async def __aenter__(self) -> "SSEClient":
        self.task = asyncio.create_task(self._run())
        await asyncio.wait_for(self.connected.wait(), 10)
        return self

    async def __aexit__(self, *_: object) -> None:
        assert self.task is not None
        self.task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self.task

    async def _run(self) -> None:
        headers = {"Authorization": f"Bearer {self.token}"}
        if self.last_event_id is not None:
            headers["Last-Event-ID"] = self.last_event_id
        params = {} if self.since is None else {"since": self.since}
        try:
            async with (
                httpx.AsyncClient(timeout=httpx.Timeout(10, read=None)) as client,
                client.stream("GET", self.url + "/api/events", headers=headers, params=params) as response,
            ):
                self.status = response.status_code
                if response.status_code != 200:
                    self.connected.set()
                    return
                fields: dict[str, str] = {}
                async for line in response.aiter_lines():
                    if line.startswith(": connected"):
                        self.connected.set()
                    if line.startswith(":"):
                        continue
                    if line == "":
                        if "data" in fields:
                            await self.events.put(
                                SSEEvent(fields.get("id"), fields.get("event", "message"), json.loads(fields["data"]))
                            )
                        fields = {}
                        continue
                    name, _, value = line.partition(":")
                    fields[name] = value.removeprefix(" ")
        except httpx.HTTPError:
            pass
        finally:
            self.connected.set()
            await self.events.put(None)

    async def next(self, wait: float = 10) -> SSEEvent:
        event = await asyncio.wait_for(self.events.get(), wait)
        assert event is not None, "stream ended"
        return event

    async def ended(self, wait: float = 10) -> bool:
        while True:
            if await asyncio.wait_for(self.events.get(), wait) is None:
                return True


@pytest.fixture
async def customer_token(live: LiveServer) -> str:
    return await login_token(live.url, CUSTOMER, "customer")


@pytest.fixture
async def educator_token(live: LiveServer) -> str:
    return await login_token(live.url, EDUCATOR_A, "educator")
