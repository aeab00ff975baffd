"""Issue #41's faults and chaos, proven on the cluster of tests/cluster.py (three `tradeideas serve` nodes behind
HAProxy running deploy/haproxy.cfg, one PostgreSQL database, media in moto's S3 server, prices from the fake feed).

- PostgreSQL goes away and comes back: every backend connection of the cluster's database is terminated and new
  ones are refused for a while (`ALLOW_CONNECTIONS false`; the machine's server is shared with other tests, so it
  is not restarted). Meanwhile every node answers 503 on `/api/health`; afterwards they answer 200 by themselves,
  the listener and the leader are back, writes succeed and the streams held through it got every acknowledged
  event exactly once.
- Chaos: `MEMBER_STREAMS` streams held through the balancer while an educator publishes, edits and closes ideas and
  uploads charts, a member writes journal entries and the price checks step ideas forward; every
  `KILL_EVERY_SECONDS` the leading node is killed (SIGKILL) and restarted, and once another is drained (SIGTERM),
  one fault at a time. At the end no acknowledged write is lost, every stream holds every event exactly once, each
  chart is served by each node, sessions work on every node, each price-check step, ledger entry, day fingerprint
  and queued push is recorded once and each push arrives once per claim, and `tradeideas verify-ledger` passes.

What is counted how, and why: docs/decisions/0194-the-cluster-chaos-test-and-what-it-counts.md.
"""

import asyncio
import contextlib
import json
import logging
import os
import subprocess
import sys
import time
from collections import Counter
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import asyncpg
import httpx
import pytest
from sqlalchemy import insert, select
from sqlalchemy.ext.asyncio import async_sessionmaker, create_async_engine

from tests.cluster import (
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
from tests.prices.test_poller_workers import STEPS, SYMBOLS, idea_row
from tests.push.conftest import FakePushService
from tests.realtime.conftest import free_port
from tests.test_cluster import (
    IDEA,
    Cluster,
    bearer,
    leading_node,
    login,
    node_of,
    png,
    prepare_here,
    through_balancer_ok,
    wait_for,
)
from tradeideas.auth.models import User
from tradeideas.ideas import service as ideas_service
from tradeideas.ideas.models import TradeIdea
from tradeideas.ledger import service as ledger
from tradeideas.ledger.chain import entries_for_existing

pytestmark = [
    pytest.mark.skipif(os.environ.get("TEST_DB") != "postgres", reason="several nodes share a PostgreSQL database"),
    pytest.mark.skipif(haproxy_missing() is not None, reason=haproxy_missing() or ""),
]

BACKEND = Path(__file__).resolve().parents[1]
MEMBER_STREAMS = 200  # the 200 members, each holding an event stream through the balancer
CHAOS_SECONDS = 70  # how long the writers run while nodes die
KILL_EVERY_SECONDS = 10
PRICE_IDEAS = 12  # ideas the price checks step through triggered, exit1, exit2 and settled during the chaos
STREAM_TIMEOUT = httpx.Timeout(15, read=None)


@pytest.fixture(autouse=True)
def _forget_login_failures() -> None:
    """The cluster has a database of its own: the session's app (whose login failures conftest forgets after each
    test) is not started for these tests."""


@dataclass
class Feed:
    url: str
    proc: asyncio.subprocess.Process
    start: int  # the first minute bar's time: published ideas' candles follow it


@dataclass
class ChaosCluster(Cluster):
    feed: Feed
    push: FakePushService
    price_ideas: list[int] = field(default_factory=list)


@pytest.fixture(scope="module")
async def cluster(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[ChaosCluster]:
    work: Path = tmp_path_factory.mktemp("chaos")
    name = f"tradeideas_chaos_{os.getpid()}"
    database_url = await create_database(POSTGRES_URL, name)
    s3 = S3Store(free_port())
    s3.start()
    feed_port = free_port()
    feed_proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "tests.prices.fakefeed", str(feed_port), cwd=BACKEND, stdout=subprocess.DEVNULL
    )
    env = node_env(
        database_url,
        s3,
        {
            "DEMO_PASSWORD": DEMO_PASSWORD,
            "DEMO_HISTORY": "false",
            "STATIC_DIR": str(work / "no-spa"),
            "PRICE_FEED": "live",
            "BINANCE_API_URL": f"http://127.0.0.1:{feed_port}",
            "FOREX_FEED": "off",
            "PRICE_POLL_SECONDS": "1",
            "PUSH_ENDPOINT_HOSTS": "127.0.0.1",  # the fake push service (loopback is allowed when listed)
            "PUSH_POLL_SECONDS": "1",
            "TSA_URLS": "",  # no time-stamp authority answers here
            "HOUSEKEEPING_INTERVAL_SECONDS": "2",
            "DATABASE_POOL_SIZE": "4",
            "DRAIN_SECONDS": "5",
            "LOG_LEVEL": "warning",
        },
    )
    env.pop("OANDA_TOKEN", None)
    env.pop("PROMETHEUS_MULTIPROC_DIR", None)
    logging.getLogger("werkzeug").setLevel(logging.WARNING)  # moto's server logs every request otherwise
    await prepare_here(database_url, s3, work / "prepare")
    feed = Feed(f"http://127.0.0.1:{feed_port}", feed_proc, 0)
    push = FakePushService()
    await push.start()
    price_ideas = await program_price_ideas(database_url, feed)
    nodes = [Node(f"node{i}", free_port(), env, work / f"node{i}", work) for i in (1, 2, 3)]
    balancer = Balancer(free_port(), free_port(), nodes, work)
    try:
        for node in nodes:
            node.start()
        await asyncio.gather(*(node.ready() for node in nodes))
        balancer.start()
        await wait_for(lambda: through_balancer_ok(balancer), "the balancer never answered", 60)
        yield ChaosCluster(database_url, nodes, balancer, s3, feed, push, price_ideas)
    finally:
        balancer.stop()
        for node in nodes:
            node.terminate(15)
        s3.stop()
        await push.stop()
        feed_proc.terminate()
        await feed_proc.wait()
        await drop_database(POSTGRES_URL, name)


async def feed_bars(feed: Feed, bars: list[list[Any]]) -> None:
    async with httpx.AsyncClient(base_url=feed.url, timeout=10) as http:
        for symbol in SYMBOLS:
            (await http.post("/_fake/bars", json={"symbol": symbol, "interval": "1m", "bars": bars})).raise_for_status()


async def program_price_ideas(database_url: str, feed: Feed) -> list[int]:
    """Crypto ideas published 40 minutes ago (BUY at 100, stop 90, exits 110 and 120) whose price has not yet
    reached the entry on the fake feed; the chaos test moves the price later."""
    now = datetime.now(UTC)
    published = now - timedelta(minutes=40)
    feed.start = int(published.timestamp()) // 60 * 60 + 60
    async with httpx.AsyncClient(base_url=feed.url, timeout=10) as http:
        deadline = time.monotonic() + 60
        while True:
            try:
                (await http.post("/_fake/now", json={"now": now.timestamp() + 3600})).raise_for_status()
                break
            except httpx.TransportError:
                assert time.monotonic() < deadline, "the fake feed never started"
                await asyncio.sleep(0.1)
    await feed_bars(feed, [[feed.start + 60 * k - 60, "95", "96", "94", "95"] for k in range(6)])
    engine = create_async_engine(database_url)
    try:
        async with async_sessionmaker(engine)() as db, db.begin():
            educator_id = (await db.execute(select(User.id).where(User.email == EDUCATOR_A))).scalar_one()
            rows = [idea_row(i, educator_id, published) for i in range(PRICE_IDEAS)]
            ids = (await db.execute(insert(TradeIdea).returning(TradeIdea.id), rows)).scalars().all()
            # Their publication in the ledger, as the demo seed records the ideas it writes straight in the table.
            await ledger.take_turn(db)
            fresh = [idea async for batch in ideas_service.idea_states(db) for idea in batch if idea.id in set(ids)]
            await ledger.append_all(db, entries_for_existing(fresh))
    finally:
        await engine.dispose()
    return list(ids)


async def fetch(database_url: str, query: str, *args: Any) -> list[asyncpg.Record]:
    conn = await asyncpg.connect(plain_dsn(database_url))
    try:
        return list(await conn.fetch(query, *args))
    finally:
        await conn.close()


async def admin(query: str) -> None:
    conn = await asyncpg.connect(plain_dsn(POSTGRES_URL))
    try:
        await conn.execute(query)
    finally:
        await conn.close()


class Streams:
    """Event streams as browsers keep them, many on one HTTP client: each reconnects through the balancer with the
    last event id it received whenever its connection ends."""

    def __init__(self, url: str, tokens: list[str], count: int) -> None:
        self.url = url
        self.tokens = tokens
        self.ids: list[list[int]] = [[] for _ in range(count)]
        self.kinds: dict[int, tuple[str, dict[str, Any]]] = {}  # event id -> (type, data), as any stream got it
        self.connected = [False] * count
        self.connections = [0] * count
        self.http = httpx.AsyncClient(
            timeout=STREAM_TIMEOUT, limits=httpx.Limits(max_connections=None, max_keepalive_connections=0)
        )
        self.tasks: list[asyncio.Task[None]] = []

    @contextlib.asynccontextmanager
    async def running(self) -> AsyncIterator["Streams"]:
        try:
            for i in range(len(self.ids)):
                self.tasks.append(asyncio.create_task(self._run(i)))
                await asyncio.sleep(0.01)
            yield self
        finally:
            for task in self.tasks:
                task.cancel()
            await asyncio.gather(*self.tasks, return_exceptions=True)
            await self.http.aclose()

    async def all_connected(self) -> bool:
        return all(self.connected)

    def holding(self, event_ids: set[int]) -> bool:
        return all(event_ids <= set(ids) for ids in self.ids)

    async def _run(self, i: int) -> None:
        while True:
            headers = {"Authorization": f"Bearer {self.tokens[i % len(self.tokens)]}"}
            if self.ids[i]:
                headers["Last-Event-ID"] = str(self.ids[i][-1])
            try:
                async with self.http.stream("GET", self.url + "/api/events", headers=headers) as response:
                    if response.status_code == 200:
                        self.connections[i] += 1
                        await self._read(i, response)
            except httpx.HTTPError:
                pass
            self.connected[i] = False
            await asyncio.sleep(0.5)

    async def _read(self, i: int, response: httpx.Response) -> None:
        fields: dict[str, str] = {}
        async for line in response.aiter_lines():
            if line.startswith(": connected"):
                self.connected[i] = True
            if line.startswith(":"):
                continue
            if line == "":
                if "data" in fields and "id" in fields:
                    event_id = int(fields["id"])
                    self.ids[i].append(event_id)
                    if event_id not in self.kinds:
                        self.kinds[event_id] = (fields.get("event", "message"), json.loads(fields["data"]))
                fields = {}
                continue
            name, _, value = line.partition(":")
            fields[name] = value.removeprefix(" ")


async def every_stream_placed(streams: Streams, balancer_url: str, educator: str, database_url: str) -> int:
    """Publishes an idea and waits until every stream has received it, so each holds an event id to resume from (a
    browser's stream that has received nothing reconnects without Last-Event-ID, from the present). The position
    before it: the streams are to receive every event committed after it."""
    start = await event_position(database_url)
    async with bearer(balancer_url, educator) as http:
        deadline = time.monotonic() + 60
        while True:
            with contextlib.suppress(httpx.TransportError):
                if (await http.post("/api/trade-ideas", json=IDEA)).status_code == 201:
                    break
            assert time.monotonic() < deadline, "the first idea was never published"
            await asyncio.sleep(0.5)

    async def placed() -> bool:
        return all(ids and ids[-1] > start for ids in streams.ids)

    await wait_for(placed, "a stream never received the first idea", 60)
    return start


def created_ids(streams: Streams) -> set[int]:
    return {data["id"] for kind, data in streams.kinds.values() if kind == "idea.created"}


def assert_exactly_once(streams: Streams) -> None:
    for i, ids in enumerate(streams.ids):
        assert ids == sorted(set(ids)), f"stream {i} got an event twice or out of order"


async def customer_event_ids(database_url: str, after: int) -> set[int]:
    """Every event committed after position `after` that the demo customer's streams are sent (they hold every
    educator's access, so no educator scope hides one)."""
    customer_id = (await fetch(database_url, "SELECT id FROM users WHERE email = $1", CUSTOMER))[0]["id"]
    rows = await fetch(
        database_url,
        "SELECT seq FROM events WHERE seq > $1 AND audience IN ('all', 'customers', $2)",
        after,
        str(customer_id),
    )
    return {row["seq"] for row in rows}


async def event_position(database_url: str) -> int:
    return int((await fetch(database_url, "SELECT coalesce(max(seq), 0) AS seq FROM events"))[0]["seq"])


async def health_statuses(nodes: list[Node]) -> list[int | None]:
    out: list[int | None] = []
    async with httpx.AsyncClient(timeout=10) as http:
        for node in nodes:
            try:
                out.append((await http.get(node.url + "/api/health")).status_code)
            except httpx.TransportError:
                out.append(None)
    return out


async def listeners_connected(nodes: list[Node]) -> bool:
    async with httpx.AsyncClient(timeout=10) as http:
        for node in nodes:
            try:
                r = await http.get(node.url + "/api/health")
            except httpx.TransportError:
                return False
            if r.status_code != 200 or r.json().get("listener") != "connected":
                return False
    return True


class Publisher:
    """An educator publishing through the balancer; only 201 answers count as acknowledged."""

    def __init__(self, url: str, token: str) -> None:
        self.url, self.token = url, token
        self.acknowledged: list[int] = []
        self.failures = Counter[str]()
        self.running = True

    async def run(self, pause: float = 0.3) -> None:
        async with bearer(self.url, self.token) as http:
            while self.running:
                try:
                    r = await http.post("/api/trade-ideas", json=IDEA)
                    if r.status_code == 201:
                        self.acknowledged.append(r.json()["id"])
                    else:
                        self.failures[str(r.status_code)] += 1
                except httpx.TransportError as exc:  # not acknowledged: the write may or may not have committed
                    self.failures[type(exc).__name__] += 1
                await asyncio.sleep(pause)

    def more_than(self, count: int) -> Any:
        async def check() -> bool:
            return len(self.acknowledged) > count

        return check


async def test_postgresql_away_and_back_nodes_answer_503_meanwhile_then_recover_and_lose_nothing(
    cluster: ChaosCluster,
) -> None:
    balancer, nodes, url = cluster.balancer, cluster.nodes, cluster.database_url
    database = url.rsplit("/", 1)[1]
    customer = await login(balancer.url, CUSTOMER, "customer")
    educator = await login(balancer.url, EDUCATOR_A, "educator")
    await wait_for(lambda: listeners_connected(nodes), "a node's listener was not connected", 60)
    streams = Streams(balancer.url, [customer], 6)  # two on each node, through the round robin
    async with streams.running():
        await wait_for(streams.all_connected, "a stream never connected through the balancer", 60)
        start = await every_stream_placed(streams, balancer.url, educator, url)
        publisher = Publisher(balancer.url, educator)
        publishing = asyncio.create_task(publisher.run())
        try:
            await wait_for(publisher.more_than(2), "nothing was published", 60)

            # The database goes away: every connection cut, new ones refused.
            await admin(f'ALTER DATABASE "{database}" ALLOW_CONNECTIONS false')
            try:
                await admin(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                    f"WHERE datname = '{database}' AND pid <> pg_backend_pid()"
                )

                async def all_503() -> bool:
                    return await health_statuses(nodes) == [503, 503, 503]

                await wait_for(all_503, "a node answered its health check without its database", 60)
                await asyncio.sleep(1)  # an answer already on its way when the connections were cut
                during = len(publisher.acknowledged)
                await asyncio.sleep(3)  # the outage lasts: the nodes keep answering 503
                assert await health_statuses(nodes) == [503, 503, 503]
                async with httpx.AsyncClient(timeout=10) as http:  # and the balancer has no node to send to
                    assert (await http.get(balancer.url + "/api/health")).status_code == 503
                assert len(publisher.acknowledged) == during, "a write was acknowledged without a database"
            finally:
                await admin(f'ALTER DATABASE "{database}" ALLOW_CONNECTIONS true')

            # Back by themselves: health, the event listener, the leader, writes through the balancer.
            async def all_200() -> bool:
                return await health_statuses(nodes) == [200, 200, 200]

            await wait_for(all_200, "a node did not come back after the database did", 120)
            await wait_for(lambda: listeners_connected(nodes), "a node's event listener did not reconnect", 60)

            async def leader_back() -> bool:
                return node_of(cluster, await leader_pid(url)) is not None

            await wait_for(leader_back, "no background worker took the lead again", 60)
            await wait_for(publisher.more_than(len(publisher.acknowledged) + 3), "writes did not resume", 90)
        finally:
            publisher.running = False
            await publishing

        # Nothing committed is lost: each acknowledged idea is in the database and every stream got every event
        # committed since it started (the acknowledged ideas' among them), exactly once.
        stored = await fetch(url, "SELECT id FROM trade_ideas WHERE id = ANY($1::int[])", publisher.acknowledged)
        assert {row["id"] for row in stored} == set(publisher.acknowledged)
        expected = await customer_event_ids(url, start)

        async def every_stream_has_everything() -> bool:
            return streams.holding(expected)

        await wait_for(every_stream_has_everything, "a stream missed a committed event", 60)
        assert_exactly_once(streams)
        assert set(publisher.acknowledged) <= created_ids(streams)


@dataclass
class Writes:
    """What the writers were told succeeded (2xx), and what they were not (an error answer or a cut connection)."""

    ideas: list[int] = field(default_factory=list)
    edits: dict[int, str] = field(default_factory=dict)  # idea id -> the notes it was given
    closes: list[int] = field(default_factory=list)
    journal: list[int] = field(default_factory=list)
    charts: list[str] = field(default_factory=list)
    refused: Counter[str] = field(default_factory=Counter)
    running: bool = True

    def refusal(self, what: str, answer: httpx.Response | BaseException) -> None:
        status = type(answer).__name__ if isinstance(answer, BaseException) else str(answer.status_code)
        self.refused[f"{what} {status}"] += 1


async def publish_edit_close(url: str, token: str, writes: Writes) -> None:
    """The educator publishes ideas, edits each once and closes each edited one, in turn, through the balancer."""
    async with bearer(url, token) as http:
        turn = 0
        while writes.running:
            turn += 1
            try:
                unedited = [i for i in writes.ideas if i not in writes.edits]
                unclosed = [i for i in writes.edits if i not in writes.closes]
                if turn % 3 == 1 or not unedited:
                    r = await http.post("/api/trade-ideas", json=IDEA)
                    if r.status_code == 201:
                        writes.ideas.append(r.json()["id"])
                    else:
                        writes.refusal("publish", r)
                elif turn % 3 == 2 or not unclosed:
                    idea_id, notes = unedited[0], f"Edited during the chaos ({unedited[0]})"
                    r = await http.patch(f"/api/trade-ideas/{idea_id}", json={"notes": notes})
                    if r.status_code == 200:
                        writes.edits[idea_id] = notes
                    else:
                        writes.refusal("edit", r)
                else:
                    r = await http.put(f"/api/trade-ideas/{unclosed[0]}", json={"status": "successful"})
                    if r.status_code == 200:
                        writes.closes.append(unclosed[0])
                    else:
                        writes.refusal("close", r)
            except httpx.TransportError as exc:
                writes.refusal("educator", exc)
            await asyncio.sleep(0.3)


async def write_journal(url: str, token: str, writes: Writes) -> None:
    """A member records taking the newest published ideas, each with its own Idempotency-Key; like the app, a save
    that got no answer (a cut connection, the balancer's 502/503) is sent again with the same key."""
    async with bearer(url, token) as http:
        taken = 0
        while writes.running:
            open_ideas = [i for i in writes.ideas if i not in writes.closes]
            if open_ideas:
                body = {"ideaId": open_ideas[-1], "fillPrice": "1.0851", "note": f"entry {taken}"}
                key = f"chaos-journal-{taken:05d}"
                for _ in range(3):
                    try:
                        r = await http.post("/api/me/journal", json=body, headers={"Idempotency-Key": key})
                    except httpx.TransportError as exc:
                        writes.refusal("journal", exc)
                        continue
                    if r.status_code == 201:
                        if r.json()["id"] not in writes.journal:
                            writes.journal.append(r.json()["id"])
                        break
                    writes.refusal("journal", r)
                    if r.status_code not in (502, 503):
                        break
                taken += 1
            await asyncio.sleep(0.7)


async def upload_charts(url: str, token: str, writes: Writes) -> None:
    chart = png()
    async with bearer(url, token) as http:
        while writes.running:
            try:
                r = await http.post("/api/media", files={"file": ("chart.png", chart, "image/png")})
                if r.status_code == 201:
                    writes.charts.append(r.json()["url"])
                else:
                    writes.refusal("chart", r)
            except httpx.TransportError as exc:
                writes.refusal("chart", exc)
            await asyncio.sleep(2)


async def move_prices(feed: Feed, began: float) -> None:
    """The price ideas trade their entry, then exit 1, then exit 2 (settled), spread over the chaos."""
    t = feed.start
    moves = [
        (CHAOS_SECONDS * 0.1, [[t + 300, "95", "101", "95", "100.5"]]),
        (CHAOS_SECONDS * 0.4, [[t + 360, "100.5", "111", "100", "110.5"]]),
        (CHAOS_SECONDS * 0.7, [[t + 420, "110.5", "121", "110", "120.5"]]),
    ]
    for at, bars in moves:
        await asyncio.sleep(max(0.0, began + at - time.monotonic()))
        await feed_bars(feed, bars)


async def kill_and_drain(cluster: ChaosCluster, began: float, log: list[str]) -> None:
    """Every KILL_EVERY_SECONDS a node dies with SIGKILL (the leading one, so the lead moves mid-work) and starts
    again; the second fault drains with SIGTERM a node that was neither leading nor just restarted (so it holds
    streams). One fault at a time: when a node takes longer than that to come back, the next fault waits for it (a
    loaded machine restarts a node in 20-30 s). The first three faults always happen; later ones while
    CHAOS_SECONDS last."""
    fault, last = 0, None
    while True:
        fault += 1
        await asyncio.sleep(max(0.0, began + fault * KILL_EVERY_SECONDS - time.monotonic()))
        if fault > 3 and time.monotonic() - began > CHAOS_SECONDS - 5:
            return
        leading = await leading_node(cluster, 60)
        if fault == 2:
            node = next(node for node in cluster.nodes if node not in (leading, last))  # one holding streams
            log.append(f"{time.monotonic() - began:5.1f}s drain {node.name}")
            await asyncio.to_thread(node.terminate, 60)
        else:
            node = leading
            log.append(f"{time.monotonic() - began:5.1f}s kill {node.name} (leading)")
            node.kill()
        node.start()
        await node.ready()
        log.append(f"{time.monotonic() - began:5.1f}s {node.name} back")
        last = node


async def price_steps(database_url: str) -> dict[int, list[str]]:
    """Each idea's price-check steps, in the order they were recorded."""
    rows = await fetch(database_url, "SELECT payload FROM events WHERE type = 'idea.price_check' ORDER BY seq")
    out: dict[int, list[str]] = {}
    for row in rows:
        payload = json.loads(row["payload"])
        out.setdefault(int(payload["ideaId"]), []).append(payload["step"])
    return out


async def test_chaos_members_stream_while_nodes_die_and_nothing_is_lost_or_repeated(cluster: ChaosCluster) -> None:
    balancer, url = cluster.balancer, cluster.database_url
    customers = [await login(balancer.url, CUSTOMER, "customer") for _ in range(4)]
    educator = await login(balancer.url, EDUCATOR_A, "educator")
    streams = Streams(balancer.url, customers, MEMBER_STREAMS)
    writes, chaos_log = Writes(), list[str]()
    async with bearer(balancer.url, customers[0]) as http:  # the member's phone takes push notifications
        r = await http.post("/api/push/subscriptions", json=cluster.push.browser("member").subscription)
        assert r.status_code == 201, r.text
    async with streams.running():
        await wait_for(streams.all_connected, "the members' streams never all connected", 180)
        start = await every_stream_placed(streams, balancer.url, educator, url)
        began = time.monotonic()
        workers = [
            asyncio.create_task(publish_edit_close(balancer.url, educator, writes)),
            asyncio.create_task(write_journal(balancer.url, customers[0], writes)),
            asyncio.create_task(upload_charts(balancer.url, educator, writes)),
            asyncio.create_task(move_prices(cluster.feed, began)),
        ]
        try:
            await kill_and_drain(cluster, began, chaos_log)
            await asyncio.sleep(max(0.0, began + CHAOS_SECONDS - time.monotonic()))
        finally:
            writes.running = False
            await asyncio.gather(*workers)
        print("chaos:", *chaos_log, f"refused: {dict(writes.refused)}", sep="\n  ")
        assert len(writes.ideas) >= 10 and writes.edits and writes.closes and writes.journal and writes.charts, writes

        # 0 acknowledged writes lost.
        ideas = await fetch(url, "SELECT id, notes, completed FROM trade_ideas WHERE id = ANY($1::int[])", writes.ideas)
        stored = {row["id"]: row for row in ideas}
        assert set(stored) == set(writes.ideas), "an acknowledged idea is missing"
        assert all(stored[i]["notes"] == notes for i, notes in writes.edits.items()), "an acknowledged edit is lost"
        assert all(stored[i]["completed"] for i in writes.closes), "an acknowledged close is lost"
        journal = await fetch(url, "SELECT id FROM journal_entries WHERE id = ANY($1::int[])", writes.journal)
        assert {row["id"] for row in journal} == set(writes.journal), "an acknowledged journal entry is missing"

        # Every stream holds every event committed since it started, exactly once, across its reconnects.
        await wait_for(lambda: through_balancer_ok(balancer), "the balancer has no node", 60)
        expected = await customer_event_ids(url, start)

        async def every_stream_has_everything() -> bool:
            return streams.holding(expected)

        await wait_for(every_stream_has_everything, "a stream missed a committed event", 120)
        assert_exactly_once(streams)
        assert set(writes.ideas) <= created_ids(streams)
        assert sum(1 for n in streams.connections if n >= 2) > 0, "no stream was moved by the faults"

    # Each chart is served by each node, the same bytes from each.
    async with httpx.AsyncClient(timeout=30) as http:
        for address in writes.charts:
            served = []
            for node in cluster.nodes:
                answer = await http.get(node.url + address)
                assert answer.status_code == 200, (node.name, address, answer.text)
                served.append(answer.content)
            assert served.count(served[0]) == len(served), address

    # Sessions: made before the chaos, they work on every node; a new one made on each node works on the others.
    for node in cluster.nodes:
        async with bearer(node.url, customers[0]) as http:
            assert (await http.get("/api/auth/user")).status_code == 200, node.name
        fresh = await login(node.url, CUSTOMER, "customer")
        for other in cluster.nodes:
            async with bearer(other.url, fresh) as http:
                assert (await http.get("/api/auth/user")).status_code == 200, (node.name, other.name)

    # Each price-check step once (the events and the ledger), for every idea the leader checked through the deaths.
    async def all_settled() -> bool:
        steps = await price_steps(url)
        for idea_id, recorded in steps.items():  # a repeated step fails at once (the others are unverifiable)
            assert len(recorded) == len(set(recorded)), (idea_id, recorded)
            if idea_id in cluster.price_ideas:
                assert recorded == STEPS[: len(recorded)], (idea_id, recorded)
        return all(steps.get(i) == STEPS for i in cluster.price_ideas)

    await wait_for(all_settled, "the price checks did not settle every idea", 90)
    ledger = await fetch(
        url,
        "SELECT subject_id, payload FROM ledger_entries "
        "WHERE kind = 'idea.price_check' AND subject_id = ANY($1::int[])",
        cluster.price_ideas,
    )
    recorded = Counter((row["subject_id"], json.loads(row["payload"]).get("step")) for row in ledger)
    assert len(ledger) == PRICE_IDEAS * len(STEPS) and max(recorded.values()) == 1, recorded

    # Each ledger entry counted once in its day's fingerprint (one row per UTC day, its first and last entry).
    entries = await fetch(url, "SELECT seq, at FROM ledger_entries ORDER BY seq")
    by_day: dict[str, list[int]] = {}
    for row in entries:
        by_day.setdefault(row["at"][:10], []).append(row["seq"])
    days = await fetch(url, "SELECT day, first_seq, last_seq, entries FROM ledger_days")
    assert {str(d["day"]): (d["first_seq"], d["last_seq"], d["entries"]) for d in days} == {
        day: (min(seqs), max(seqs), len(seqs)) for day, seqs in by_day.items()
    }

    # Each push delivery queued once per idea (by its natural key: subscription, idea, kind), and posted to the
    # member's push service once per claim: a delivery claimed once arrived once; every one recorded as sent
    # arrived. (A sender that died between posting and recording leaves its claim to expire after
    # push.worker.LEASE_SECONDS; then another worker claims and posts it again: attempts 2, possibly two arrivals.)
    async def nothing_due() -> bool:
        rows = await fetch(url, "SELECT count(*) AS n FROM push_deliveries WHERE status = 'pending'")
        return int(rows[0]["n"]) == 0

    await wait_for(nothing_due, "push deliveries were left pending", 60)
    queued = {
        (row["idea_id"], json.loads(row["payload"]).get("kind")): (row["status"], row["attempts"])
        for row in await fetch(
            url,
            "SELECT idea_id, payload, status, attempts FROM push_deliveries "
            "WHERE subscription_id IS NOT NULL AND idea_id IS NOT NULL",
        )
    }
    keys = Counter(
        (row["idea_id"], json.loads(row["payload"]).get("kind"))
        for row in await fetch(url, "SELECT idea_id, payload FROM push_deliveries WHERE idea_id IS NOT NULL")
    )
    assert keys and max(keys.values()) == 1, keys
    assert set(writes.ideas) <= {idea_id for idea_id, _ in queued}, "an acknowledged idea queued no push"
    received = Counter((m.get("ideaId"), m.get("kind")) for m in cluster.push.received.get("member", []))
    assert set(received) <= set(queued), set(received) - set(queued)
    for key, (status, attempts) in queued.items():
        assert received[key] <= attempts, (key, received[key], attempts)  # never posted more often than claimed
        if status == "sent":
            assert received[key] >= 1, (key, "recorded as sent, never arrived")
    print("push:", len(queued), "queued,", sum(1 for _, n in queued.values() if n > 1), "claimed again")

    # The chain verifies, read from the cluster's database as an operator would.
    verifier = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "tradeideas.cli",
        "verify-ledger",
        env=cluster.nodes[0].env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    said, _ = await asyncio.wait_for(verifier.communicate(), 300)
    assert verifier.returncode == 0, said.decode()
