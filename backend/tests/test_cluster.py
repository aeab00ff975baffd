"""Issue #41, proven: three `tradeideas serve` nodes (each with its background worker) behind a real HAProxy running
deploy/haproxy.cfg, on one PostgreSQL database, with media in moto's S3 server (tests/cluster.py starts them).

Sessions, sign-outs and login limits hold on every node; a publish through one node reaches a stream held through
another; an upload through the balancer is served by every node; when the leading node dies (SIGKILL) another
node's worker takes the lead and runs the housekeeping; streams held on the killed node and on a drained one
(SIGTERM) reconnect through the balancer and receive every event exactly once."""

import asyncio
import contextlib
import io
import json
import os
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import asyncpg
import httpx
import pytest
from PIL import Image

from tests.cluster import (
    S3_KEY_ID,
    S3_SECRET,
    Balancer,
    Node,
    S3Store,
    create_database,
    drop_database,
    haproxy_missing,
    leader_pid,
    node_env,
    plain_dsn,
)
from tests.conftest import CUSTOMER, DEMO_PASSWORD, EDUCATOR_A, POSTGRES_URL
from tests.realtime.conftest import free_port
from tests.serve import background_workers
from tradeideas.cli import migrate
from tradeideas.db import Database
from tradeideas.seed import seed_demo
from tradeideas.settings import Settings

pytestmark = [
    pytest.mark.skipif(os.environ.get("TEST_DB") != "postgres", reason="several nodes share a PostgreSQL database"),
    pytest.mark.skipif(haproxy_missing() is not None, reason=haproxy_missing() or ""),
]

TIMEOUT = httpx.Timeout(30)  # a loaded machine may take seconds to hash a password


@pytest.fixture(autouse=True)
def _forget_login_failures() -> None:
    """The cluster has a database of its own: the session's app (whose login failures conftest forgets after each
    test) is not started for these tests."""


@dataclass
class Cluster:
    database_url: str
    nodes: list[Node]
    balancer: Balancer
    s3: S3Store


@pytest.fixture(scope="module")
async def cluster(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Cluster]:
    work: Path = tmp_path_factory.mktemp("cluster")
    name = f"tradeideas_cluster_{os.getpid()}"
    database_url = await create_database(POSTGRES_URL, name)
    s3 = S3Store(free_port())
    s3.start()
    env = node_env(
        database_url,
        s3,
        {
            "DEMO_PASSWORD": DEMO_PASSWORD,
            "DEMO_HISTORY": "false",
            "STATIC_DIR": str(work / "no-spa"),
            "PRICE_FEED": "off",  # no feed answers here
            "TSA_URLS": "",  # nor any time-stamp authority
            "HOUSEKEEPING_INTERVAL_SECONDS": "2",
            "DATABASE_POOL_SIZE": "4",
            "DRAIN_SECONDS": "5",
            "LOG_LEVEL": "warning",
        },
    )
    await prepare_here(database_url, s3, work / "prepare")
    nodes = [Node(f"node{i}", free_port(), env, work / f"node{i}", work) for i in (1, 2, 3)]
    balancer = Balancer(free_port(), free_port(), nodes, work)
    try:
        for node in nodes:
            node.start()
        await asyncio.gather(*(node.ready() for node in nodes))
        balancer.start()
        await wait_for(lambda: through_balancer_ok(balancer), "the balancer never answered", 60)
        yield Cluster(database_url, nodes, balancer, s3)
    finally:
        balancer.stop()
        for node in nodes:
            node.terminate(15)
        s3.stop()
        await drop_database(POSTGRES_URL, name)


async def prepare_here(database_url: str, s3: S3Store, data_dir: Path) -> None:
    """Migrate and seed once, in this process (a loaded machine starts a Python process slowly), before the nodes
    start side by side."""
    settings = Settings(
        database_url=database_url,
        data_dir=data_dir,
        demo_password=DEMO_PASSWORD,
        demo_history=False,
        media_store="s3",
        s3_endpoint_url=s3.url,
        s3_bucket=s3.bucket,
        s3_access_key_id=S3_KEY_ID,
        s3_secret_access_key=S3_SECRET,
    )
    await asyncio.to_thread(migrate, settings)
    database = Database(settings)
    try:
        async with database.sessionmaker() as session, session.begin():
            await seed_demo(session, settings)
    finally:
        await database.dispose()


async def wait_for(check: Any, failure: str, seconds: float = 30) -> None:
    """Until the coroutine function `check` returns true; fails with `failure` after `seconds`."""
    deadline = time.monotonic() + seconds
    while not await check():
        assert time.monotonic() < deadline, failure
        await asyncio.sleep(0.1)


async def through_balancer_ok(balancer: Balancer) -> bool:
    async with httpx.AsyncClient(base_url=balancer.url, timeout=5) as http:
        try:
            return (await http.get("/api/health")).status_code == 200
        except httpx.TransportError:
            return False


async def login(url: str, email: str, role: str) -> str:
    async with httpx.AsyncClient(timeout=TIMEOUT, base_url=url) as http:
        r = await http.post("/api/auth/login", json={"email": email, "password": DEMO_PASSWORD, "selectedRole": role})
        assert r.status_code == 200, r.text
        token: str = r.json()["sessionToken"]
        return token


def bearer(url: str, token: str) -> httpx.AsyncClient:
    return httpx.AsyncClient(timeout=TIMEOUT, base_url=url, headers={"Authorization": f"Bearer {token}"})


IDEA = {"marketType": "Forex", "orderType": "BUY", "ideaType": "Leverage", "pair": "EUR/USD", "timeFrame": "4H",
        "entry1": "1.0850", "invalidationLevel": "1.0800", "exit1": "1.0950"}  # fmt: skip


async def test_sessions_sign_outs_and_login_limits_hold_on_every_node(cluster: Cluster) -> None:
    first, *others = cluster.nodes
    token = await login(first.url, CUSTOMER, "customer")
    for node in cluster.nodes:  # a session made on one node works on every node
        async with bearer(node.url, token) as http:
            assert (await http.get("/api/auth/user")).status_code == 200, node.name

    async with bearer(others[1].url, token) as http:  # signed out through the third node ...
        assert (await http.post("/api/auth/logout")).status_code == 204

    async def refused_everywhere() -> bool:  # ... is signed out on the nodes that had it cached
        for node in cluster.nodes:
            async with bearer(node.url, token) as http:
                if (await http.get("/api/auth/user")).status_code != 401:
                    return False
        return True

    await wait_for(refused_everywhere, "a node still accepts the signed-out session", 10)

    # The login limit (5 failures per account) counts the failures made through every node.
    wrong = {"email": EDUCATOR_A, "password": "not-the-password", "selectedRole": "educator"}
    for attempt in range(5):
        async with httpx.AsyncClient(timeout=TIMEOUT, base_url=cluster.nodes[attempt % 3].url) as http:
            assert (await http.post("/api/auth/login", json=wrong)).status_code == 401
    async with httpx.AsyncClient(timeout=TIMEOUT, base_url=cluster.nodes[2].url) as http:
        locked = await http.post("/api/auth/login", json={**wrong, "password": DEMO_PASSWORD})
    assert locked.status_code == 429, locked.text
    conn = await asyncpg.connect(plain_dsn(cluster.database_url))
    try:
        await conn.execute("DELETE FROM login_attempts")  # the other tests sign the educator in
    finally:
        await conn.close()


async def test_an_idea_published_through_node_1_reaches_a_stream_held_through_node_2(cluster: Cluster) -> None:
    one, two, _ = cluster.nodes
    customer = await login(two.url, CUSTOMER, "customer")
    educator = await login(one.url, EDUCATOR_A, "educator")
    stream = Stream(two.url, customer, reconnect=False)
    async with stream.running():
        await wait_for(stream.is_connected, "the stream never connected", 30)
        async with bearer(one.url, educator) as http:
            r = await http.post("/api/trade-ideas", json=IDEA)
        assert r.status_code == 201, r.text
        await wait_for(lambda: stream.has_idea(r.json()["id"]), "the idea never reached node 2's stream", 15)


def png() -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (320, 200), (30, 120, 200)).save(out, "PNG")
    return out.getvalue()


async def test_an_upload_through_the_balancer_is_served_by_every_node(cluster: Cluster) -> None:
    educator = await login(cluster.balancer.url, EDUCATOR_A, "educator")
    async with bearer(cluster.balancer.url, educator) as http:
        r = await http.post("/api/media", files={"file": ("chart.png", png(), "image/png")})
    assert r.status_code == 201, r.text
    address = r.json()["url"]
    served = []
    for node in cluster.nodes:
        async with httpx.AsyncClient(timeout=TIMEOUT, base_url=node.url) as http:
            answer = await http.get(address)
            assert answer.status_code == 200, (node.name, answer.text)
            served.append(answer.content)
    assert served[0][:3] == b"\xff\xd8\xff" and served.count(served[0]) == 3  # the same JPEG from each


@dataclass
class Stream:
    """An event stream as the browser keeps it: when it ends it reconnects (here through the balancer) with the
    last event id it received."""

    url: str
    token: str
    reconnect: bool = True
    events: list[tuple[int, str, dict[str, Any]]] = field(default_factory=list)
    connections: int = 0
    connected: bool = False

    async def is_connected(self) -> bool:
        return self.connected

    async def has_idea(self, idea_id: int) -> bool:
        return any(kind == "idea.created" and data.get("id") == idea_id for _, kind, data in self.events)

    @contextlib.asynccontextmanager
    async def running(self) -> AsyncIterator["Stream"]:
        task = asyncio.create_task(self._run())
        try:
            yield self
        finally:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def _run(self) -> None:
        while True:
            headers = {"Authorization": f"Bearer {self.token}"}
            if self.events:
                headers["Last-Event-ID"] = str(self.events[-1][0])
            try:
                async with (
                    httpx.AsyncClient(timeout=httpx.Timeout(10, read=None)) as http,
                    http.stream("GET", self.url + "/api/events", headers=headers) as response,
                ):
                    if response.status_code == 200:
                        self.connections += 1
                        await self._read(response)
            except httpx.HTTPError:
                pass
            self.connected = False
            if not self.reconnect:
                return
            await asyncio.sleep(0.3)

    async def _read(self, response: httpx.Response) -> None:
        fields: dict[str, str] = {}
        async for line in response.aiter_lines():
            if line.startswith(": connected"):
                self.connected = True
            if line.startswith(":"):
                continue
            if line == "":
                if "data" in fields and "id" in fields:
                    self.events.append((int(fields["id"]), fields.get("event", "message"), json.loads(fields["data"])))
                fields = {}
                continue
            name, _, value = line.partition(":")
            fields[name] = value.removeprefix(" ")


async def streams_open(node: Node) -> int:
    """The node's open event streams, from its own metrics (loopback callers may read them)."""
    async with httpx.AsyncClient(timeout=TIMEOUT, base_url=node.url) as http:
        text = (await http.get("/metrics")).text
    for line in text.splitlines():
        if line.startswith("tradeideas_event_streams_open "):
            return int(float(line.split()[1]))
    return 0


def node_of(cluster: Cluster, worker_pid: int | None) -> Node | None:
    """The node whose background worker has this pid; a supervisor may have restarted a worker, so look afresh."""
    for node in cluster.nodes:
        if node.proc is not None and node.proc.poll() is None:
            node.workers = background_workers(node.proc.pid) or node.workers
    return next((node for node in cluster.nodes if worker_pid in node.workers), None)


async def leading_node(cluster: Cluster, seconds: float = 30) -> Node:
    """The node that leads; a busy machine may sit between a lost lock and the next try, so wait a little."""
    deadline = time.monotonic() + seconds
    while (node := node_of(cluster, await leader_pid(cluster.database_url))) is None:
        assert time.monotonic() < deadline, "no background worker leads"
        await asyncio.sleep(0.1)
    return node


async def housekeeping_removed_an_expired_session(database_url: str) -> None:
    """Writes an expired session and waits until housekeeping (the leader's work) deletes it."""
    conn = await asyncpg.connect(plain_dsn(database_url))
    try:
        session_id = await conn.fetchval(
            "INSERT INTO sessions (user_id, token_hash, created_at, refreshed_at, expires_at) "
            "SELECT id, md5(random()::text) || md5(random()::text), now() - interval '40 days', "
            "now() - interval '40 days', now() - interval '1 day' FROM users WHERE email = $1 RETURNING id",
            CUSTOMER,
        )

        async def gone() -> bool:
            left: int = await conn.fetchval("SELECT count(*) FROM sessions WHERE id = $1", session_id)
            return left == 0

        await wait_for(gone, "no leader ran the housekeeping", 30)
    finally:
        await conn.close()


async def test_the_lead_moves_and_streams_resume_exactly_once_when_nodes_die_or_drain(cluster: Cluster) -> None:
    balancer = cluster.balancer
    customer = await login(balancer.url, CUSTOMER, "customer")
    educator = await login(balancer.url, EDUCATOR_A, "educator")
    # Six streams opened one after another through the round robin: two on each node.
    streams = [Stream(balancer.url, customer) for _ in range(6)]
    async with contextlib.AsyncExitStack() as opened:
        for stream in streams:
            await opened.enter_async_context(stream.running())
            await wait_for(stream.is_connected, "a stream never connected through the balancer", 30)
        counts = {node.name: await streams_open(node) for node in cluster.nodes}
        assert all(count >= 1 for count in counts.values()), counts

        acknowledged: list[int] = []
        publishing = True

        async def publish() -> None:  # an educator keeps publishing through the balancer
            async with bearer(balancer.url, educator) as http:
                while publishing:
                    try:
                        r = await http.post("/api/trade-ideas", json=IDEA)
                        if r.status_code == 201:
                            acknowledged.append(r.json()["id"])
                    except httpx.TransportError:
                        pass  # not acknowledged: its node died while answering
                    await asyncio.sleep(0.2)

        def acknowledged_more_than(count: int) -> Any:
            async def check() -> bool:
                return len(acknowledged) > count

            return check

        publisher = asyncio.create_task(publish())
        try:
            await wait_for(acknowledged_more_than(2), "nothing was published", 60)

            # The leading node dies: another node's worker takes the lead within 15 s and runs the housekeeping.
            leading = await leading_node(cluster)
            leading.kill()
            started = time.monotonic()

            async def new_leader() -> bool:
                node = node_of(cluster, await leader_pid(cluster.database_url))
                return node is not None and node is not leading

            await wait_for(new_leader, "no other node took the lead", 15)
            assert time.monotonic() - started <= 15
            await housekeeping_removed_an_expired_session(cluster.database_url)
            await wait_for(acknowledged_more_than(len(acknowledged) + 2), "writes stopped after the kill", 60)

            # Another node is drained: SIGTERM, it exits within DRAIN_SECONDS and its streams move too; the lead,
            # if it had moved there, moves once more.
            draining = next(node for node in cluster.nodes if node is not leading)
            drained_at = time.monotonic()
            await asyncio.to_thread(draining.terminate, 60)
            assert time.monotonic() - drained_at < 20, "the drained node took too long to exit"
            await wait_for(acknowledged_more_than(len(acknowledged) + 2), "writes stopped after the drain", 60)
            await housekeeping_removed_an_expired_session(cluster.database_url)
        finally:
            publishing = False
            await publisher

        last = max(acknowledged)

        async def every_stream_has_everything() -> bool:
            return all([await stream.has_idea(last) for stream in streams])

        await wait_for(every_stream_has_everything, "a stream missed the last idea", 30)
        for stream in streams:
            ids = [event_id for event_id, _, _ in stream.events]
            assert ids == sorted(set(ids)), "an event arrived twice or out of order"
            created = [data["id"] for _, kind, data in stream.events if kind == "idea.created"]
            assert set(acknowledged) <= set(created), "an acknowledged idea never reached a stream"
            assert len(created) == len(set(created))
        # The streams that were on the node that died or the one drained connected again (through the balancer).
        moved = counts[leading.name] + counts[draining.name]
        assert sum(1 for stream in streams if stream.connections >= 2) >= moved
