"""A resumed stream gets every event exactly once while writers commit out of insert order (issue #22).

Several educators publish ideas and customers write journal entries at once, through the real server with two
worker processes on PostgreSQL. Their transactions insert their events in one order and commit in another. A
customer's stream is cut every 0.2-1 s and resumed with `Last-Event-ID`, as a browser on a bad connection does:
it must end up with every idea exactly once, its ids only growing. Before decision 0047 (stream ids given at
insert) every run failed: ideas lost (an event with a lower id that committed after the client had seen a
higher one was never sent), ideas sent twice, or ids going backwards.
"""

import asyncio
import json
import os
import random
import subprocess
import time
from collections import Counter
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy import select

from tests.conftest import CUSTOMER, DEMO_PASSWORD
from tests.realtime.conftest import HTTP_TIMEOUT, free_port, login_token
from tests.serve import start_serve, stop_serve, wait_healthy
from tradeideas.auth import service as auth_service
from tradeideas.auth.models import Role, User
from tradeideas.billing import service as billing_service
from tradeideas.settings import Settings

pytestmark = pytest.mark.skipif(os.environ.get("TEST_DB") != "postgres", reason="two worker processes need PostgreSQL")

IDEAS = 520
EDUCATORS = [f"educator{n}@example.com" for n in (1, 2, 3, 4)]
JOURNALING = ["journal-a@example.com", "journal-b@example.com"]
# The whole test (start, writes, reading the rest) stays under this; a run normally takes 30-60 s.
DEADLINE_SECONDS = 85
IDEA = {"marketType": "Forex", "orderType": "BUY", "ideaType": "Leverage", "pair": "EUR/USD", "timeFrame": "1H",
        "entry1": "1.1000", "invalidationLevel": "1.0950", "exit1": "1.1100"}  # fmt: skip


@pytest.fixture
async def two_workers(app: FastAPI, settings: Settings, tmp_path: Path) -> AsyncIterator[str]:
    """`tradeideas serve` with WORKERS=2 on the tests' (seeded) database; yields its address."""
    port = free_port()
    env = {
        **os.environ,
        "DATABASE_URL": settings.resolved_database_url,
        "DATA_DIR": str(settings.data_dir),
        "STATIC_DIR": str(settings.static_dir),
        "DEMO_PASSWORD": settings.demo_password,
        "WORKERS": "2",
        "PORT": str(port),
        "LOG_LEVEL": "warning",
        "HOUSEKEEPING_INTERVAL_SECONDS": "0",
    }
    with (tmp_path / "serve.log").open("wb") as log:
        proc = start_serve(env, "--no-seed", stdout=log, stderr=subprocess.STDOUT)
        try:
            await wait_healthy(proc, f"http://127.0.0.1:{port}", seconds=60)
            yield f"http://127.0.0.1:{port}"
        finally:
            stop_serve(proc)


async def _add_customers(app: FastAPI) -> None:
    async with app.state.db.sessionmaker() as s, s.begin():
        for email in JOURNALING:
            if (await s.execute(select(User.id).where(User.email == email))).first() is None:
                user = await auth_service.add_user(
                    s, email=email, password=DEMO_PASSWORD, role=Role.CUSTOMER, first_name="Jo", last_name="Urnal"
                )
                await billing_service.add_complimentary(s, None, user.id, None, None)


class ResumingReader:
    """A customer's stream, cut every 0.2-1 s and resumed from the last event id it received."""

    def __init__(self, client: httpx.AsyncClient, token: str) -> None:
        self.client = client
        self.headers = {"Authorization": f"Bearer {token}"}
        self.last_id: str | None = None
        self.ids: list[int] = []  # every event id received, in order
        self.ideas: list[int] = []  # the idea of every `idea.created` received
        self.reconnects = 0
        self.resyncs = 0

    async def read_for(self, seconds: float) -> None:
        headers = dict(self.headers)
        if self.last_id is not None:
            headers["Last-Event-ID"] = self.last_id
        fields: dict[str, str] = {}
        try:
            async with (
                asyncio.timeout(seconds),
                self.client.stream("GET", "/api/events", headers=headers) as response,
            ):
                assert response.status_code == 200
                async for line in response.aiter_lines():
                    if line.startswith(":"):
                        continue
                    if line:
                        name, _, value = line.partition(":")
                        fields[name] = value.removeprefix(" ")
                        continue
                    if "id" in fields:
                        self._received(fields)
                    fields = {}
        except TimeoutError:
            pass  # the cut: whatever frame was half read is sent again after the last complete one
        self.reconnects += 1

    def _received(self, fields: dict[str, str]) -> None:
        self.last_id = fields["id"]
        self.ids.append(int(fields["id"]))
        if fields.get("event") == "resync":
            self.resyncs += 1
        elif fields.get("event") == "idea.created":
            self.ideas.append(int(json.loads(fields["data"])["id"]))

    async def run(self, until: asyncio.Event) -> None:
        while not until.is_set():
            await self.read_for(random.uniform(0.2, 1.0))


async def _publish(url: str, token: str, published: list[int], enough: asyncio.Event) -> None:
    async with httpx.AsyncClient(
        timeout=HTTP_TIMEOUT, base_url=url, headers={"Authorization": f"Bearer {token}"}
    ) as http:
        while len(published) < IDEAS:
            r = await http.post("/api/trade-ideas", json={**IDEA, "notes": f"#{len(published)}"})
            assert r.status_code == 201, r.text
            published.append(int(r.json()["id"]))
    enough.set()


async def _journal(url: str, token: str, published: list[int], enough: asyncio.Event) -> int:
    written = 0
    async with httpx.AsyncClient(
        timeout=HTTP_TIMEOUT, base_url=url, headers={"Authorization": f"Bearer {token}"}
    ) as http:
        while not enough.is_set():
            if not published:
                await asyncio.sleep(0.05)
                continue
            r = await http.post("/api/me/journal", json={"ideaId": published[-1], "fillPrice": 1.1, "size": 1000})
            assert r.status_code == 201, r.text
            written += 1
    return written


async def test_a_resumed_stream_gets_every_idea_exactly_once(app: FastAPI, two_workers: str) -> None:
    url = two_workers
    started = time.monotonic()
    await _add_customers(app)
    reader_token = await login_token(url, CUSTOMER, "customer")
    educators = [await login_token(url, email, "educator") for email in EDUCATORS]
    journaling = [await login_token(url, email, "customer") for email in JOURNALING]

    async with httpx.AsyncClient(base_url=url, timeout=httpx.Timeout(10, read=None)) as stream_client:
        reader = ResumingReader(stream_client, reader_token)
        # The starting point: whatever came before (a replay from 0, or a resync to the latest id). From here
        # on, every idea must arrive.
        reader.last_id = "0"
        await reader.read_for(1.0)
        reader.resyncs = 0
        published: list[int] = []
        enough = asyncio.Event()
        async with asyncio.timeout(DEADLINE_SECONDS - (time.monotonic() - started)):
            writing = time.monotonic()
            reading = asyncio.create_task(reader.run(enough))
            writers = [_publish(url, token, published, enough) for token in educators]
            journals = [_journal(url, token, published, enough) for token in journaling]
            results = await asyncio.gather(*writers, *journals)
            await reading
            wrote_for = time.monotonic() - writing
            # The rest: resume until every idea arrived, or for a few seconds after the last write.
            quiet_until = time.monotonic() + 5
            while set(published) - set(reader.ideas) and time.monotonic() < quiet_until:
                await reader.read_for(0.5)

    missed = sorted(set(published) - set(reader.ideas))
    duplicated = sorted(idea for idea, n in Counter(reader.ideas).items() if n > 1)
    report = (
        f"{len(published)} ideas and {sum(r or 0 for r in results)} journal entries written in {wrote_for:.1f} s;"
        f" the reader resumed {reader.reconnects} times, was told to resync {reader.resyncs} times,"
        f" missed {len(missed)} ideas {missed[:10]} and got {len(duplicated)} twice {duplicated[:10]}"
    )
    assert reader.reconnects >= 10, report
    assert reader.resyncs == 0, report
    assert (missed, duplicated) == ([], []), report
    # Event ids only grow along the stream, and none comes twice.
    assert reader.ids == sorted(set(reader.ids)), report
