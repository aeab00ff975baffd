"""A local fake push service (decrypts what it receives) and a fake Bot API, both on 127.0.0.1."""

import asyncio
import base64
import contextlib
import json
import os
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import http_ece  # type: ignore[import-untyped]
import pytest
from aiohttp import web
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from fastapi import FastAPI
from sqlalchemy import delete, select

from tests.realtime.conftest import free_port
from tradeideas.core.deps import component_of
from tradeideas.db import utcnow
from tradeideas.push.models import PushDelivery, PushSubscription
from tradeideas.push.worker import PushRuntime


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def b64url_decode(value: str) -> bytes:
    return base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))


@dataclass
class Browser:
    """What a browser keeps for one PushSubscription: the receiver key pair and the auth secret."""

    name: str
    endpoint: str
    private_key: ec.EllipticCurvePrivateKey = field(default_factory=lambda: ec.generate_private_key(ec.SECP256R1()))
    auth_secret: bytes = field(default_factory=lambda: os.urandom(16))

    @property
    def keys(self) -> dict[str, str]:
        public = self.private_key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        return {"p256dh": b64url(public), "auth": b64url(self.auth_secret)}

    @property
    def subscription(self) -> dict[str, Any]:
        return {"endpoint": self.endpoint, "expirationTime": None, "keys": self.keys}


class FakePushService:
    """POST /push/{name}: decrypts with the browser's keys and records the message; behaviour per name."""

    def __init__(self) -> None:
        self.port = free_port()
        self.browsers: dict[str, Browser] = {}
        self.received: dict[str, list[dict[str, Any]]] = {}
        self.headers: dict[str, list[dict[str, str]]] = {}
        self.fail_first: dict[str, tuple[int, int]] = {}  # name -> (status, how many times)
        self.always: dict[str, int] = {}  # name -> status
        self.bot_posts: list[dict[str, Any]] = []
        self.bot_paths: list[str] = []
        self.arrived = asyncio.Event()
        self.runner: web.AppRunner | None = None
        # What a timed-out wait reports besides what arrived (the fixture: the queue and the worker).
        self.describe: Callable[[], Awaitable[str]] | None = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def browser(self, name: str) -> Browser:
        self.browsers[name] = Browser(name, f"{self.base}/push/{name}")
        return self.browsers[name]

    async def _push(self, request: web.Request) -> web.Response:
        name = request.match_info["name"]
        if name in self.always:
            return web.Response(status=self.always[name])
        if name in self.fail_first and self.fail_first[name][1] > 0:
            status, left = self.fail_first[name]
            self.fail_first[name] = (status, left - 1)
            return web.Response(status=status)
        browser = self.browsers[name]
        body = await request.read()
        assert request.headers["Content-Encoding"] == "aes128gcm"
        plain = http_ece.decrypt(
            body, private_key=browser.private_key, auth_secret=browser.auth_secret, version="aes128gcm"
        )
        self.received.setdefault(name, []).append(json.loads(plain))
        self.headers.setdefault(name, []).append(dict(request.headers))
        self.arrived.set()
        return web.Response(status=201)

    async def _bot(self, request: web.Request) -> web.Response:
        self.bot_paths.append(request.path)
        self.bot_posts.append(await request.json())
        self.arrived.set()
        return web.json_response({"ok": True, "result": {"message_id": len(self.bot_posts)}})

    async def start(self) -> None:
        app = web.Application()
        app.router.add_post("/push/{name}", self._push)
        app.router.add_post("/bot{token}/sendMessage", self._bot)
        self.runner = web.AppRunner(app, access_log=None)
        await self.runner.setup()
        await web.TCPSite(self.runner, "127.0.0.1", self.port).start()

    async def stop(self) -> None:
        if self.runner is not None:
            await self.runner.cleanup()

    async def wait_for(self, predicate: Any, seconds: float = 40) -> None:
        """Until `predicate()` holds; longer than SQLite's busy timeout, so that a worker waiting for the database
        fails with the error it logs rather than a silent timeout."""
        deadline = time.monotonic() + seconds
        while not predicate():
            if time.monotonic() > deadline:
                state = await self.describe() if self.describe is not None else ""
                raise AssertionError(
                    f"timed out waiting for the fake push service; received {self.received}, bot {self.bot_posts}"
                    f"\n{state}"
                )
            self.arrived.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.arrived.wait(), 0.2)


@pytest.fixture
async def push_service(app: FastAPI) -> AsyncIterator[FakePushService]:
    service = FakePushService()
    service.describe = lambda: _queue_state(app)
    await service.start()
    await _clear(app)
    yield service
    await service.stop()
    await _clear(app)


async def _clear(app: FastAPI) -> None:
    async with app.state.db.sessionmaker() as session, session.begin():
        await session.execute(delete(PushDelivery))
        await session.execute(delete(PushSubscription))


async def _queue_state(app: FastAPI) -> str:
    """The delivery queue, the worker's task and the connection pool, for a wait that timed out."""
    async with app.state.db.sessionmaker() as session:
        rows = (await session.execute(select(PushDelivery).order_by(PushDelivery.id))).scalars().all()
    worker = component_of(app, PushRuntime).worker
    running = worker is not None and worker.alive
    sent = worker.sent if worker is not None else 0
    lines = [f"now {utcnow().isoformat()}; worker running {running}, sent {sent}; {app.state.db.engine.pool.status()}"]
    lines += [
        f"delivery {d.id} {d.channel} sub={d.subscription_id} idea={d.idea_id} {d.status} attempts={d.attempts} "
        f"next={d.next_attempt_at.isoformat()} error={d.last_error!r}"
        for d in rows
    ]
    return "\n".join(lines)
