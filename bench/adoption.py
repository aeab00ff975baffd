"""Benchmark: requests while the background worker adopts 100,000 ideas after a start (issue #38, decision 0110).

Starts `tradeideas serve` on PostgreSQL as an operator does (one server worker, one background worker, the demo
seed without history), its price feeds pointed at the tests' local protocol server (`tests.prices.fakefeed`, in its
own process). Two phases, each timing the same requests from one client, back to back, for SECONDS:
- baseline: the demo's ideas only, the worker's first rounds done;
- adoption: N open crypto ideas written straight to the database, then the server started again, so its worker
  adopts and replays all of them while the requests run.
Requests: the customer's crypto list, `/api/health`, and every tenth an educator's `POST /api/trade-ideas`.
Prints p50/p99 per request in each phase and the change of p99 (bar: <= 10 ms), the background worker's peak
resident memory (bar: < 300 MiB) and the server's, how long adoption took, and the load average.

Run from backend/:  uv run python ../bench/adoption.py [--ideas 100000] [--seconds 40]
(BENCH_POSTGRES_URL, default database bench_adoption, reset).
"""

import argparse
import asyncio
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import asyncpg
import httpx
from sqlalchemy import insert, text

BACKEND = Path(__file__).resolve().parents[1] / "backend"
sys.path.insert(0, str(BACKEND))

from tradeideas.cli import migrate  # noqa: E402
from tradeideas.db import Database  # noqa: E402
from tradeideas.ideas.models import TradeIdea  # noqa: E402
from tradeideas.settings import Settings  # noqa: E402

MINUTE = 60
PASSWORD = "bench-password-123"
SYMBOLS = 300
LIST = "/api/trade-ideas?market=crypto&status=active"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def rss_mib(pid: int) -> float:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def cpu_seconds(pid: int) -> float:
    """User plus system CPU time the process has used so far."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def descendants(pid: int) -> list[tuple[int, str]]:
    """(pid, command line) of every process below `pid`."""
    parents: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            parents.setdefault(ppid, []).append(int(entry.name))
    found, todo = [], [pid]
    while todo:
        for child in parents.get(todo.pop(), []):
            try:
                command = (Path("/proc") / str(child) / "cmdline").read_bytes().replace(b"\0", b" ").decode()
            except OSError:
                continue
            found.append((child, command))
            todo.append(child)
    return found


class Memory(threading.Thread):
    """Peak resident memory of the background worker(s) and of the serving process(es) under `serve`."""

    def __init__(self, serve_pid: int) -> None:
        super().__init__(daemon=True)
        self.serve_pid = serve_pid
        self.worker_peak = 0.0
        self.server_peak = 0.0
        self.stopped = threading.Event()

    def run(self) -> None:
        while not self.stopped.wait(0.2):
            worker = server = 0.0
            below = descendants(self.serve_pid)
            for pid, command in below:
                if " worker" in command and "tradeideas.cli" in command:
                    worker += rss_mib(pid)
                elif "spawn_main" in command:  # uvicorn's serving processes (WORKERS > 1)
                    server += rss_mib(pid)
            if not any("spawn_main" in command for _, command in below):
                server = rss_mib(self.serve_pid)  # one worker: `serve` itself serves
            self.worker_peak = max(self.worker_peak, worker)
            self.server_peak = max(self.server_peak, server)


def start_serve(env: dict[str, str]) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "tradeideas.cli", "serve"], env=env, cwd=BACKEND, stdout=subprocess.DEVNULL
    )


def start_feed(port: int) -> subprocess.Popen[bytes]:
    return subprocess.Popen([sys.executable, "-m", "tests.prices.fakefeed", str(port)], cwd=BACKEND)


def stop_serve(proc: subprocess.Popen[bytes]) -> None:
    proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(60)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


async def wait_healthy(url: str) -> None:
    async with httpx.AsyncClient(base_url=url) as client:
        for _ in range(3000):
            try:
                if (await client.get("/api/health")).status_code == 200:
                    return
            except httpx.TransportError:
                pass
            await asyncio.sleep(0.1)
    raise SystemExit("the server never answered")


async def login(url: str, email: str, role: str) -> str:
    async with httpx.AsyncClient(base_url=url, timeout=120) as c:
        r = await c.post("/api/auth/login", json={"email": email, "password": PASSWORD, "selectedRole": role})
        r.raise_for_status()
        return str(r.json()["sessionToken"])


def idea_body(seq: int) -> dict[str, str]:
    return {
        "marketType": "Forex",
        "orderType": "BUY",
        "ideaType": "Leverage",
        "pair": "EUR/USD",
        "timeFrame": "4H",
        "entry1": "1.0850",
        "invalidationLevel": "1.0795",
        "exit1": "1.0910",
        "notes": f"adoption bench {seq}",
    }


async def adopted(dsn: str) -> int:
    conn = await asyncpg.connect(dsn)
    try:
        found = await conn.fetchval(
            "SELECT count(*) FROM idea_verifications v JOIN trade_ideas i ON i.id = v.idea_id"
            " WHERE i.pair LIKE 'S___/USDT'"
        )
        return int(found)
    finally:
        await conn.close()


async def measure(url: str, seconds: float, dsn: str, until_adopted: int | None) -> dict[str, Any]:
    customer = await login(url, "customer@example.com", "customer")
    educator = await login(url, "educator1@example.com", "educator")
    times: dict[str, list[float]] = {"list": [], "health": [], "post": []}
    started = time.monotonic()
    adopted_after = None
    last_check = 0.0
    limits = httpx.Timeout(60)
    async with (
        httpx.AsyncClient(base_url=url, headers={"Authorization": f"Bearer {customer}"}, timeout=limits) as c,
        httpx.AsyncClient(base_url=url, headers={"Authorization": f"Bearer {educator}"}, timeout=limits) as e,
    ):
        n = 0
        while time.monotonic() - started < seconds:
            n += 1
            t0 = time.perf_counter()
            (await c.get(LIST)).raise_for_status()
            times["list"].append(time.perf_counter() - t0)
            t0 = time.perf_counter()
            (await c.get("/api/health")).raise_for_status()
            times["health"].append(time.perf_counter() - t0)
            if n % 10 == 0:
                t0 = time.perf_counter()
                (await e.post("/api/trade-ideas", json=idea_body(n))).raise_for_status()
                times["post"].append(time.perf_counter() - t0)
            now = time.monotonic()
            if until_adopted is not None and adopted_after is None and now - last_check > 1:
                last_check = now
                if await adopted(dsn) >= until_adopted:
                    adopted_after = now - started
    return {"times": times, "adopted_after": adopted_after}


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p * len(ordered)))] * 1000


async def insert_ideas(settings: Settings, count: int) -> None:
    db = Database(settings)
    published = datetime.fromtimestamp((int(time.time()) // MINUTE - 30) * MINUTE, UTC)
    try:
        async with db.sessionmaker() as s:
            found = await s.execute(text("SELECT id FROM users WHERE email = 'educator1@example.com'"))
            educator_id = found.scalar_one()
        for start in range(0, count, 5000):
            rows = [
                {
                    "educator_id": educator_id,
                    "market_type": "Crypto",
                    "market": "crypto",
                    "order_type": "BUY",
                    "idea_type": "Leverage",
                    "pair": f"S{i % SYMBOLS:03d}/USDT",
                    "time_frame": "1H",
                    "entry1": "100",
                    "invalidation_level": "90",
                    "exit1": "110",
                    "status": "active",
                    "completed": False,
                    "edited": False,
                    "edited_after_publish": False,
                    "created_at": published,
                    "updated_at": published,
                }
                for i in range(start, min(count, start + 5000))
            ]
            async with db.sessionmaker() as s, s.begin():
                await s.execute(insert(TradeIdea), rows)
    finally:
        await db.dispose()


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--ideas", type=int, default=100_000)
    parser.add_argument("--seconds", type=float, default=40.0)
    args = parser.parse_args()
    url = os.environ.get("BENCH_POSTGRES_URL", "postgresql+asyncpg://postgres@127.0.0.1:5432/bench_adoption")
    base, name = url.rsplit("/", 1)
    admin = await asyncpg.connect(base.replace("postgresql+asyncpg://", "postgresql://") + "/postgres")
    await admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
    await admin.execute(f"CREATE DATABASE {name}")
    await admin.close()
    dsn = url.replace("postgresql+asyncpg://", "postgresql://")
    data_dir = Path(tempfile.mkdtemp(prefix="bench-adoption-"))
    settings = Settings(data_dir=data_dir, database_url=url)
    await asyncio.to_thread(migrate, settings)

    feed_port, port = free_port(), free_port()
    feed = start_feed(feed_port)
    feed_url = f"http://127.0.0.1:{feed_port}"
    server_url = f"http://127.0.0.1:{port}"
    env = {
        **os.environ,
        "DATABASE_URL": url,
        "DATA_DIR": str(data_dir),
        "PORT": str(port),
        "LOG_LEVEL": "warning",
        "DEMO_PASSWORD": PASSWORD,
        "DEMO_HISTORY": "false",
        "PRICE_FEED": "live",
        "BINANCE_API_URL": feed_url,
        "DUKASCOPY_URL": feed_url,
        "WORKERS": "1",
        "BACKGROUND_WORKERS": "1",
    }
    env.pop("OANDA_TOKEN", None)
    env.pop("PROMETHEUS_MULTIPROC_DIR", None)
    results: dict[str, dict[str, Any]] = {}
    memory: dict[str, Memory] = {}
    try:
        now = int(time.time())
        minute = now - now % MINUTE
        async with httpx.AsyncClient(base_url=feed_url) as control:
            for _ in range(100):
                try:
                    await control.post("/_fake/now", json={"now": now + 3600})
                    break
                except httpx.TransportError:
                    await asyncio.sleep(0.1)
            for k in range(SYMBOLS):
                bars = [[minute - 90 * MINUTE + j * MINUTE, "95", "95", "95", "95"] for j in range(91)]
                r = await control.post("/_fake/bars", json={"symbol": f"S{k:03d}USDT", "interval": "1m", "bars": bars})
                r.raise_for_status()
        for phase in ("baseline", "adoption"):
            if phase == "adoption":
                t0 = time.perf_counter()
                await insert_ideas(settings, args.ideas)
                print(f"wrote {args.ideas} open ideas in {time.perf_counter() - t0:.1f} s", flush=True)
            proc = start_serve(env)
            watch = Memory(proc.pid)
            watch.start()
            memory[phase] = watch
            try:
                await wait_healthy(server_url)
                if phase == "baseline":
                    await asyncio.sleep(10)  # the worker's first rounds over the demo's ideas
                target = args.ideas if phase == "adoption" else None
                below = descendants(proc.pid)
                kinds = [(pid, " worker" in c) for pid, c in below if "spawn_main" in c or " worker" in c]
                if not any("spawn_main" in c for _, c in below):
                    kinds.append((proc.pid, False))  # one worker: `serve` itself serves
                before = {pid: cpu_seconds(pid) for pid, _ in kinds}
                results[phase] = await measure(server_url, args.seconds, dsn, target)
                spent = {pid: cpu_seconds(pid) - before[pid] for pid, _ in kinds}
                results[phase]["server_cpu"] = sum(spent[pid] for pid, worker in kinds if not worker)
                results[phase]["worker_cpu"] = sum(spent[pid] for pid, worker in kinds if worker)
            finally:
                stop_serve(proc)
                watch.stopped.set()
    finally:
        feed.terminate()
        feed.wait()

    print(f"\n{datetime.now(UTC):%Y-%m-%d %H:%M} UTC, load average {os.getloadavg()}, {os.cpu_count()} CPUs")
    head = ("request", "n", "p50 base", "p99 base", "n", "p50 adopt", "p99 adopt", "dp99")
    print("{:<8} {:>5} {:>9} {:>9} {:>5} {:>9} {:>9} {:>7}".format(*head))
    for kind in ("list", "health", "post"):
        base_t, adopt_t = results["baseline"]["times"][kind], results["adoption"]["times"][kind]
        d99 = pct(adopt_t, 0.99) - pct(base_t, 0.99)
        print(
            f"{kind:<8} {len(base_t):>5} {pct(base_t, 0.5):>8.1f}m {pct(base_t, 0.99):>8.1f}m "
            f"{len(adopt_t):>5} {pct(adopt_t, 0.5):>8.1f}m {pct(adopt_t, 0.99):>8.1f}m {d99:>+6.1f}m"
            f"  {'ok' if d99 <= 10 else 'OVER the 10 ms bar'}"
        )
    for phase, found in results.items():
        cycles = len(found["times"]["list"])
        print(
            f"{phase}: serving process CPU {found['server_cpu'] * 1000 / cycles:.2f} ms per cycle (a list, a health"
            f" check, a tenth of a POST) over {cycles} cycles; background worker CPU {found['worker_cpu']:.1f} s"
        )
    after = results["adoption"]["adopted_after"]
    print(f"adoption of {args.ideas} ideas: " + (f"done {after:.1f} s into the phase" if after else "not done"))
    for phase, watch in memory.items():
        print(f"{phase}: background worker peak RSS {watch.worker_peak:.0f} MiB, server {watch.server_peak:.0f} MiB")
    worker_peak = memory["adoption"].worker_peak
    print(f"worker under 300 MiB: {'yes' if worker_peak < 300 else 'NO'}")
    print(f"mean list latency: base {statistics.mean(results['baseline']['times']['list']) * 1000:.1f} ms")


if __name__ == "__main__":
    asyncio.run(main())
