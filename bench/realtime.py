"""Realtime and push benchmark: SSE fan-out latency, memory and CPU, polling comparison, push drain time.

Run from backend/:  uv run python ../bench/realtime.py [--clients 1000 10000] [--push 10000]

What it does (loopback only, bounded run time):
  1. Creates a fresh PostgreSQL database (local server, like the tests), migrates and seeds it, and starts
     one uvicorn worker of the app as a subprocess (so its RSS and CPU can be read from /proc).
  2. For each client count, on a freshly started server (see main): 1-2 client processes open that many
     SSE connections with raw asyncio streams (HTTP/1.1 chunked, SSE parsed by hand), the script measures
     server RSS before/after (idle memory per connection), then publishes EVENTS ideas as the demo educator
     (POST /api/trade-ideas, as the app does) and each client timestamps the moment it has parsed each
     idea.created event. Latency = client parse time - time the educator's request was sent (so it includes
     the request, its commit, the NOTIFY and the fan-out). Server CPU during the publish window / deliveries
     = CPU per delivered event.
  3. Polling comparison: N clients polling every second need N requests/s; the cost of one list request
     (GET /api/trade-ideas?market=forex&status=active) is measured on the same server.
  4. Push: N subscriptions, one idea queued (enqueue_idea_push) -> time until the server's worker has sent
     every delivery to a local fake push service (a separate process answering 201).
"""

import argparse
import asyncio
import contextlib
import json
import multiprocessing as mp
import os
import platform
import resource
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

BACKEND = Path(__file__).resolve().parents[1] / "backend"
sys.path.insert(0, str(BACKEND))

ADMIN_URL = os.environ.get("BENCH_POSTGRES_ADMIN", "postgresql://postgres@127.0.0.1:5432/test")
BENCH_DB = "tradeideas_bench"
PASSWORD = "bench-password-1"
CLK_TCK = os.sysconf("SC_CLK_TCK")


def raise_nofile() -> int:
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return hard


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def proc_cpu(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLK_TCK  # utime + stime


def proc_rss(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    return 0


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


# ---------------------------------------------------------------------------------------------------- SSE clients
def client_process(count: int, port: int, token: str, pipe: Connection) -> None:
    """Open `count` SSE connections; report when connected; on "stop" send back {seq: [parse times]}."""
    with contextlib.suppress(ImportError):
        import uvloop

        uvloop.install()
    raise_nofile()
    asyncio.run(_clients(count, port, token, pipe))


class SSEProtocol(asyncio.Protocol):
    """One SSE connection as a bare asyncio Protocol: HTTP/1.1 chunked framing and SSE parsed in data_received."""

    def __init__(self, request: bytes, received: dict[int, list[float]], waiter: "asyncio.Future[bool]") -> None:
        self.request = request
        self.received = received
        self.waiter = waiter
        self.buffer = b""
        self.head_done = False
        self.body = b""

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        transport.write(self.request)  # type: ignore[attr-defined]

    def data_received(self, data: bytes) -> None:
        now = time.time()
        self.buffer += data
        if not self.head_done:
            head, sep, rest = self.buffer.partition(b"\r\n\r\n")
            if not sep:
                return
            self.head_done = True
            self.buffer = rest
            if not self.waiter.done():
                self.waiter.set_result(head.startswith(b"HTTP/1.1 200"))
        # De-chunk whatever complete chunks we have.
        buf = self.buffer
        while True:
            line_end = buf.find(b"\r\n")
            if line_end < 0:
                break
            size = int(buf[:line_end], 16)
            if len(buf) < line_end + 2 + size + 2:
                break
            self.body += buf[line_end + 2 : line_end + 2 + size]
            buf = buf[line_end + 2 + size + 2 :]
        self.buffer = buf
        body = self.body
        while True:
            end = body.find(b"\n\n")
            if end < 0:
                break
            block = body[:end]
            body = body[end + 2 :]
            at = block.find(b"seq=")
            if at >= 0:
                stop = block.find(b";", at)
                self.received.setdefault(int(block[at + 4 : stop]), []).append(now)
        self.body = body

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.waiter.done():
            self.waiter.set_result(False)


async def _clients(count: int, port: int, token: str, pipe: Connection) -> None:
    received: dict[int, list[float]] = {}
    connected = failed = 0
    request = (
        f"GET /api/events HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nAuthorization: Bearer {token}\r\n"
        "Accept: text/event-stream\r\n\r\n"
    ).encode()
    loop = asyncio.get_running_loop()
    transports = []

    async def one() -> bool:
        waiter: asyncio.Future[bool] = loop.create_future()
        try:
            transport, _ = await loop.create_connection(
                lambda: SSEProtocol(request, received, waiter), "127.0.0.1", port
            )
        except OSError:
            return False
        transports.append(transport)
        return await asyncio.wait_for(waiter, 60)

    for start in range(0, count, 200):
        results = await asyncio.gather(*(one() for _ in range(min(200, count - start))), return_exceptions=True)
        connected += sum(r is True for r in results)
        failed += sum(r is not True for r in results)
        errors = [r for r in results if isinstance(r, BaseException)]
        if errors and start == 0:
            print("client connect error:", repr(errors[0]), file=sys.stderr)
    pipe.send(("connected", connected, failed))
    await loop.run_in_executor(None, pipe.recv)  # "stop"
    for t in transports:
        t.close()
    pipe.send(("received", received))


# ---------------------------------------------------------------------------------------------------- server
async def admin(sql: str) -> None:
    import asyncpg

    conn = await asyncpg.connect(ADMIN_URL)
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


class Server:
    def __init__(self, env: dict[str, str]) -> None:
        self.port = free_port()
        self.env = env
        self.proc: subprocess.Popen[bytes] | None = None
        self.worker: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        args = ["-m", "uvicorn", "tradeideas.app:create_app", "--factory", "--host", "127.0.0.1"]
        args += ["--port", str(self.port), "--log-level", "warning", "--no-access-log", "--backlog", "4096"]
        # As `tradeideas serve` runs it: the app reads X-Forwarded-* itself, so uvicorn adds no layer of its own.
        args += ["--no-proxy-headers"]
        self.proc = subprocess.Popen([sys.executable, *args], env=self.env, cwd=BACKEND)
        # Push delivery (and the price checks, when PRICE_FEED is on) run in a background worker of their own, as
        # `tradeideas serve` runs one beside the server (decision 0110); the server's RSS and CPU stay its own.
        worker = [sys.executable, "-m", "tradeideas.cli", "worker"]
        self.worker = subprocess.Popen(worker, env=self.env, cwd=BACKEND)

    @property
    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid

    async def ready(self) -> None:
        import httpx

        async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{self.port}") as c:
            for _ in range(1800):  # up to 3 minutes: a loaded machine starts Python slowly
                with contextlib.suppress(httpx.TransportError):
                    if (await c.get("/api/health")).status_code == 200:
                        return
                await asyncio.sleep(0.1)
        raise RuntimeError("server did not start")

    def stop(self) -> None:
        for proc in (self.proc, self.worker):
            if proc is not None and proc.poll() is None:
                proc.terminate()
                try:
                    proc.wait(20)
                except subprocess.TimeoutExpired:
                    proc.kill()


async def login(port: int, email: str = "customer@example.com", role: str = "customer") -> str:
    import httpx

    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}") as c:
        r = await c.post("/api/auth/login", json={"email": email, "password": PASSWORD, "selectedRole": role})
        r.raise_for_status()
        return str(r.json()["sessionToken"])


def idea_body(seq: int) -> dict[str, str]:
    """An idea as an educator publishes it; its notes carry the sequence number the clients look for."""
    return {
        "marketType": "Forex",
        "orderType": "BUY",
        "ideaType": "Leverage",
        "pair": "EUR/USD",
        "timeFrame": "4H",
        "entry1": "1.0850",
        "entry2": "1.0830",
        "invalidationLevel": "1.0795",
        "exit1": "1.0910",
        "exit2": "1.0960",
        "notes": f"seq={seq}; retest of the broken range high, targets at the weekly levels",
    }


# ---------------------------------------------------------------------------------------------------- phases
async def sse_phase(server: Server, settings: Any, clients: int, events: int, interval: float) -> dict[str, Any]:
    import httpx

    token = await login(server.port)
    educator = await login(server.port, "educator1@example.com", "educator")
    procs = 1 if clients <= 2000 else 2
    pipes: list[Connection] = []
    workers: list[mp.Process] = []
    await asyncio.sleep(1)
    rss_before = proc_rss(server.pid)
    t_connect = time.monotonic()
    for i in range(procs):
        share = clients // procs + (1 if i < clients % procs else 0)
        parent, child = mp.Pipe()
        p = mp.Process(target=client_process, args=(share, server.port, token, child), daemon=True)
        p.start()
        pipes.append(parent)
        workers.append(p)
    connected = failed = 0
    for pipe in pipes:
        _, ok, bad = await asyncio.get_running_loop().run_in_executor(None, pipe.recv)
        connected += ok
        failed += bad
    connect_seconds = time.monotonic() - t_connect
    await asyncio.sleep(3)  # idle
    rss_after = proc_rss(server.pid)

    # Published as an educator does: latency runs from the moment the request is sent until a client has
    # parsed the idea (the request's work, its commit, the NOTIFY, loading the event and the fan-out).
    sent_at: dict[int, float] = {}
    async with httpx.AsyncClient(
        base_url=f"http://127.0.0.1:{server.port}", headers={"Authorization": f"Bearer {educator}"}, timeout=60
    ) as publisher:
        # Warm-up (not measured): first statement compilation and pool connections.
        (await publisher.post("/api/trade-ideas", json=idea_body(-1))).raise_for_status()
        await asyncio.sleep(2)
        cpu_before = proc_cpu(server.pid)
        wall_before = time.monotonic()
        for seq in range(events):
            sent_at[seq] = time.time()
            (await publisher.post("/api/trade-ideas", json=idea_body(seq))).raise_for_status()
            await asyncio.sleep(interval)
        await asyncio.sleep(2)
    cpu_used = proc_cpu(server.pid) - cpu_before
    wall = time.monotonic() - wall_before

    latencies: list[float] = []
    by_event: dict[int, list[float]] = {}
    for pipe in pipes:
        pipe.send("stop")
    for pipe in pipes:
        _, received = await asyncio.get_running_loop().run_in_executor(None, pipe.recv)
        for seq, times in received.items():
            if seq < 0:
                continue
            latencies += [(t - sent_at[seq]) * 1000 for t in times]
            by_event.setdefault(seq, []).extend((t - sent_at[seq]) * 1000 for t in times)
    # One event late for every client is 1/events of the deliveries: it alone sets the p99. Each event's first
    # and last delivery show whether the p99 is a spread of the fan-out or one event that waited.
    first_last = {seq: (round(min(ms)), round(max(ms))) for seq, ms in sorted(by_event.items())}
    for p in workers:
        p.join(10)
        if p.is_alive():
            p.kill()
    expected = connected * events
    await asyncio.sleep(2)
    return {
        "clients": clients,
        "connected": connected,
        "connect_failures": failed,
        "connect_seconds": round(connect_seconds, 1),
        "events": events,
        "interval_s": interval,
        "delivered": len(latencies),
        "expected": expected,
        "p50_ms": round(pct(latencies, 50), 1) if latencies else None,
        "p99_ms": round(pct(latencies, 99), 1) if latencies else None,
        "max_ms": round(max(latencies), 1) if latencies else None,
        "first_last_ms_by_event": first_last,
        "rss_before_mib": round(rss_before / 2**20, 1),
        "rss_after_mib": round(rss_after / 2**20, 1),
        "kib_per_idle_client": round((rss_after - rss_before) / max(connected, 1) / 1024, 1),
        "server_cpu_s": round(cpu_used, 2),
        "server_cpu_pct_of_one_core": round(100 * cpu_used / wall, 1),
        "cpu_us_per_delivery": round(cpu_used / max(len(latencies), 1) * 1e6, 1),
        "cpu_ms_per_event": round(cpu_used / events * 1000, 1),
    }


async def polling_cost(server: Server, requests: int = 300) -> dict[str, Any]:
    import httpx

    token = await login(server.port)
    url = "/api/trade-ideas?market=forex&status=active"
    async with httpx.AsyncClient(
        base_url=f"http://127.0.0.1:{server.port}", headers={"Authorization": f"Bearer {token}"}
    ) as c:
        for _ in range(20):
            (await c.get(url)).raise_for_status()
        times = []
        cpu_before = proc_cpu(server.pid)
        for _ in range(requests):
            t = time.perf_counter()
            r = await c.get(url)
            times.append((time.perf_counter() - t) * 1000)
            r.raise_for_status()
        cpu = proc_cpu(server.pid) - cpu_before
    return {
        "requests": requests,
        "items_per_response": len(r.json()["items"]),
        "median_ms": round(statistics.median(times), 2),
        "server_cpu_ms_per_request": round(cpu / requests * 1000, 2),
    }


def fake_push_service(port: int, counter: Any, ready: Any, private_pem: bytes, auth: bytes) -> None:
    from aiohttp import web

    with contextlib.suppress(ImportError):
        import uvloop

        uvloop.install()
    import http_ece  # type: ignore[import-untyped]
    from cryptography.hazmat.primitives import serialization

    key = serialization.load_pem_private_key(private_pem, password=None)
    checked = {"n": 0}

    async def push(request: web.Request) -> web.Response:
        body = await request.read()
        with counter.get_lock():
            counter.value += 1
            n = counter.value
        if n % 500 == 1:  # decrypt a sample to prove the bodies are real
            json.loads(http_ece.decrypt(body, private_key=key, auth_secret=auth, version="aes128gcm"))
            checked["n"] += 1
        return web.Response(status=201)

    app = web.Application()
    app.router.add_post("/push/{n}", push)
    ready.set()
    web.run_app(app, host="127.0.0.1", port=port, print=None, access_log=None, backlog=4096)


async def push_phase(server: Server, settings: Any, count: int) -> dict[str, Any]:
    import base64

    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from sqlalchemy import func, insert, select

    from tradeideas.auth.models import User
    from tradeideas.db import Database, utcnow
    from tradeideas.ideas import service as ideas
    from tradeideas.ideas.models import TradeIdea
    from tradeideas.ideas.queries import PUBLIC_VIEWER
    from tradeideas.push.models import DeliveryStatus, PushDelivery, PushSubscription
    from tradeideas.push.service import enqueue_idea_push

    key = ec.generate_private_key(ec.SECP256R1())
    pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    pub = key.public_key().public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    auth = os.urandom(16)

    def b64(b: bytes) -> str:
        return base64.urlsafe_b64encode(b).rstrip(b"=").decode()

    port = free_port()
    counter = mp.Value("i", 0)
    ready = mp.Event()
    fake = mp.Process(target=fake_push_service, args=(port, counter, ready, pem, auth), daemon=True)
    fake.start()
    ready.wait(10)
    await asyncio.sleep(1)

    db = Database(settings)
    async with db.sessionmaker() as s, s.begin():
        uid = (await s.execute(select(User.id).where(User.email == "customer@example.com"))).scalar_one()
        now = utcnow()
        rows = [
            {
                "user_id": uid,
                "endpoint": f"http://127.0.0.1:{port}/push/{i}",
                "p256dh": b64(pub),
                "auth": b64(auth),
                "created_at": now,
                "updated_at": now,
            }
            for i in range(count)
        ]
        await s.execute(insert(PushSubscription), rows)
    async with db.sessionmaker() as s:  # an idea as `IdeaCreated` carries it
        first = (await s.execute(select(TradeIdea.id).order_by(TradeIdea.id).limit(1))).scalar_one()
        idea = await ideas.present_one(s, await ideas.get_idea(s, first), PUBLIC_VIEWER)
    cpu_before = proc_cpu(server.pid)
    t0 = time.monotonic()
    async with db.sessionmaker() as s, s.begin():
        queued = await enqueue_idea_push(s, idea, settings)
    sent = 0
    while time.monotonic() - t0 < 120:
        async with db.sessionmaker() as s:
            sent = int(
                (await s.execute(select(func.count()).where(PushDelivery.status == DeliveryStatus.SENT))).scalar_one()
            )
        if sent >= queued:
            break
        await asyncio.sleep(0.1)
    drain = time.monotonic() - t0
    cpu = proc_cpu(server.pid) - cpu_before
    await db.dispose()
    received = counter.value
    fake.kill()
    return {
        "queued": queued,
        "sent": sent,
        "received_by_fake_service": received,
        "drain_seconds": round(drain, 2),
        "per_second": round(sent / drain, 0),
        "server_cpu_s": round(cpu, 2),
        "note": "queued from outside the server process: the worker noticed it on its poll (PUSH_POLL_SECONDS=2)",
    }


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--clients", type=int, nargs="+", default=[1000, 10000])
    parser.add_argument("--events", type=int, default=30)
    parser.add_argument("--push", type=int, default=10000, help="push deliveries to drain (0: skip)")
    parser.add_argument("--out", type=Path, default=None, help="write the results as JSON here")
    args = parser.parse_args()
    hard = raise_nofile()

    from tradeideas.settings import Settings

    await admin(f"DROP DATABASE IF EXISTS {BENCH_DB} WITH (FORCE)")
    await admin(f"CREATE DATABASE {BENCH_DB}")
    data_dir = Path(tempfile.mkdtemp(prefix="bench-"))
    url = ADMIN_URL.rsplit("/", 1)[0].replace("postgresql://", "postgresql+asyncpg://") + f"/{BENCH_DB}"
    env = {
        **os.environ,
        "DATABASE_URL": url,
        "DATA_DIR": str(data_dir),
        "DEMO_PASSWORD": PASSWORD,
        "STATIC_DIR": str(data_dir / "no-spa"),
        "LOG_LEVEL": "warning",
        "PUSH_ENDPOINT_HOSTS": "127.0.0.1",  # the local fake push service (plain http only when listed)
    }
    for cmd in ("migrate", "seed"):
        argv = [sys.executable, "-m", "tradeideas.cli", cmd]
        await asyncio.to_thread(subprocess.run, argv, env=env, cwd=BACKEND, check=True)
    settings = Settings(database_url=url, data_dir=data_dir, demo_password=PASSWORD)

    results: dict[str, Any] = {
        "date": time.strftime("%Y-%m-%d"),
        "machine": f"{platform.machine()}, {os.cpu_count()} cores, {platform.platform()}",
        "python": platform.python_version(),
        "nofile": hard,
        "sse": [],
    }
    server = Server(env)
    server.start()
    try:
        await server.ready()
        results["polling"] = await polling_cost(server)
        for n in args.clients:
            # A fresh server per client count: RSS does not shrink back when the previous phase's clients
            # leave, so on a reused server their freed memory would flatter the idle memory per connection.
            server.stop()
            server = Server(env)
            server.start()
            await server.ready()
            interval = 0.2 if n <= 2000 else 1.0
            r = await sse_phase(server, settings, n, args.events, interval)
            r["polling_equivalent_req_per_s"] = n
            r["polling_equivalent_cores"] = round(n * results["polling"]["server_cpu_ms_per_request"] / 1000, 2)
            results["sse"].append(r)
            print(json.dumps(r), flush=True)
        if args.push:
            results["push"] = await push_phase(server, settings, args.push)
            print(json.dumps(results["push"]), flush=True)
    finally:
        server.stop()
        await admin(f"DROP DATABASE IF EXISTS {BENCH_DB} WITH (FORCE)")
    print(json.dumps(results, indent=2))
    if args.out:
        args.out.write_text(json.dumps(results, indent=2))


if __name__ == "__main__":
    mp.set_start_method("spawn")
    asyncio.run(main())
