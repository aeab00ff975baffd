"""Benchmark: the customer's active-ideas list at 1k, 100k and 1M ideas, on SQLite and PostgreSQL.

Measures requests per second and p50 / p99 latency of
    GET /api/trade-ideas?market=forex&status=active   (first page, 20 ideas)
as 64 different customers (each with their own session, so their own NEW flags), against a real uvicorn
server started here, with 64 concurrent keep-alive connections on loopback. The load comes from wrk (a C
load generator: `apt-get install wrk`) when it is installed, so the client takes little CPU from the
server on a small machine; otherwise from a Python asyncio client in this process.
Ideas are bulk-inserted (PostgreSQL: COPY; SQLite: one-transaction executemany) and the table is
grown in place from one size to the next.

Run from backend/:  uv run python ../bench/ideas.py [--db sqlite|postgres|both] [--sizes 1000,100000,1000000]
PostgreSQL: the local server (database bench_ideas is reset; override with BENCH_POSTGRES_URL).
"""

import argparse
import asyncio
import json
import os
import random
import shutil
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import asyncpg
import httpx

BACKEND = Path(__file__).resolve().parents[1] / "backend"
sys.path.insert(0, str(BACKEND))

from tradeideas.cli import migrate  # noqa: E402
from tradeideas.db import Database  # noqa: E402
from tradeideas.seed import seed_demo  # noqa: E402
from tradeideas.settings import Settings  # noqa: E402

# The backend/ whose code the server runs (`--app-dir`, e.g. a worktree of an older commit for an A/B run).
APP_DIR = BACKEND
PG_URL = os.environ.get("BENCH_POSTGRES_URL", "postgresql+asyncpg://postgres@127.0.0.1:5432/bench_ideas")
PASSWORD = "bench-password-123"
PATH = "/api/trade-ideas?market=forex&status=active"
COLUMNS = [
    "educator_id", "market_type", "market", "order_type", "idea_type", "pair", "time_frame", "entry_1", "entry_2",
    "invalidation_level", "exit_1", "exit_2", "exit_3", "notes", "status", "completed", "video_url", "audio_url",
    "edited", "created_at", "updated_at",
]  # fmt: skip
FOREX = ["EUR/USD", "GBP/USD", "USD/JPY", "XAU/USD", "AUD/USD", "USD/CAD", "EUR/GBP", "NAS100"]
CRYPTO = ["BTC/USDT", "ETH/USDT", "SOL/USDT", "XRP/USDT", "ADA/USDT", "DOGE/USDT", "BNB/USDT"]
BASE_TIME = datetime(2025, 1, 1, tzinfo=UTC)


def rows(start: int, stop: int) -> list[tuple[object, ...]]:
    rng = random.Random(start)
    out: list[tuple[object, ...]] = []
    for i in range(start, stop):
        forex = i % 2 == 0
        roll = rng.random()
        status = (
            "active"
            if roll < 0.85
            else "successful"
            if roll < 0.92
            else "unsuccessful"
            if roll < 0.97
            else "invalidated"
        )
        at = BASE_TIME + timedelta(seconds=i)
        out.append(
            (
                1 + i % 7,
                "Forex" if forex else "Crypto",
                "forex" if forex else "crypto",
                "BUY" if rng.random() < 0.5 else "SELL",
                "Leverage" if rng.random() < 0.6 else "Exchange",
                rng.choice(FOREX if forex else CRYPTO),
                rng.choice(["15M", "1H", "4H", "1D"]),
                "1.0850" if forex else "67250",
                None,
                "1.0795" if forex else "65400",
                "1.0910" if forex else "69500",
                "1.0960" if forex else "71200",
                None,
                "Benchmark idea with a short note." if i % 3 == 0 else None,
                status,
                status in ("successful", "unsuccessful"),
                None,
                None,
                False,
                at,
                at,
            )
        )
    return out


async def insert_postgres(settings: Settings, start: int, stop: int) -> None:
    conn = await asyncpg.connect(PG_URL.replace("postgresql+asyncpg://", "postgresql://"))
    try:
        step = 200_000
        for lo in range(start, stop, step):
            await conn.copy_records_to_table("trade_ideas", records=rows(lo, min(stop, lo + step)), columns=COLUMNS)
        await conn.execute("ANALYZE trade_ideas")
    finally:
        await conn.close()


def insert_sqlite(settings: Settings, start: int, stop: int) -> None:
    path = settings.resolved_database_url.split("///", 1)[1]
    conn = sqlite3.connect(path)
    sql = f"INSERT INTO trade_ideas ({', '.join(COLUMNS)}) VALUES ({', '.join('?' * len(COLUMNS))})"  # noqa: S608
    fmt = "%Y-%m-%d %H:%M:%S.%f"  # SQLAlchemy's SQLite DATETIME storage format
    with conn:
        step = 200_000
        for lo in range(start, stop, step):
            batch = [(*r[:-2], r[-2].strftime(fmt), r[-1].strftime(fmt)) for r in rows(lo, min(stop, lo + step))]  # type: ignore[attr-defined]
            conn.executemany(sql, batch)
    conn.execute("ANALYZE")
    conn.close()


async def reset_postgres() -> None:
    dsn = PG_URL.replace("postgresql+asyncpg://", "postgresql://")
    server, name = dsn.rsplit("/", 1)
    admin = await asyncpg.connect(f"{server}/postgres")
    try:
        if not await admin.fetchval("SELECT 1 FROM pg_database WHERE datname = $1", name):
            await admin.execute(f'CREATE DATABASE "{name}"')
    finally:
        await admin.close()
    conn = await asyncpg.connect(dsn)
    try:
        await conn.execute("DROP SCHEMA IF EXISTS public CASCADE; CREATE SCHEMA public;")
    finally:
        await conn.close()


async def seed(settings: Settings) -> int:
    db = Database(settings)
    try:
        async with db.sessionmaker() as s, s.begin():
            await seed_demo(s, settings)
        async with db.sessionmaker() as s:
            from sqlalchemy import func, select

            from tradeideas.ideas.models import TradeIdea

            return int((await s.execute(select(func.count()).select_from(TradeIdea))).scalar_one())
    finally:
        await db.dispose()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(settings: Settings, port: int, workers: int, cache_entries: int) -> subprocess.Popen[bytes]:
    env = {
        **os.environ,
        "CACHE_ENTRIES": str(cache_entries),
        "DATABASE_URL": settings.resolved_database_url,
        "DATA_DIR": str(settings.data_dir),
        "DEMO_PASSWORD": PASSWORD,
        "LOG_LEVEL": "warning",
    }
    # Started as an operator starts it: `tradeideas serve` (uvicorn's supervisor, a listening socket per worker,
    # uvloop and httptools; its workers count metrics in files, as every multi-worker server does). The data is
    # loaded already: no demo seed.
    env |= {"HOST": "127.0.0.1", "PORT": str(port), "WORKERS": str(workers)}
    cmd = [sys.executable, "-m", "tradeideas.cli", "serve", "--no-seed"]
    proc = subprocess.Popen(cmd, cwd=APP_DIR, env=env)
    deadline = time.time() + 60
    while time.time() < deadline:
        try:
            # The first worker up answers; the connections opened next must find every worker listening.
            answered = httpx.get(f"http://127.0.0.1:{port}/api/health", timeout=1).status_code == 200
            if answered and listening_sockets(port) >= workers:
                return proc
        except httpx.HTTPError:
            pass
        time.sleep(0.3)
    proc.kill()
    raise SystemExit("server did not start")


def listening_sockets(port: int) -> int:
    """How many sockets listen on `port` (Linux /proc/net/tcp): one per worker once each has started."""
    rows = (line.split() for line in Path("/proc/net/tcp").read_text().splitlines()[1:])
    return sum(1 for row in rows if row[3] == "0A" and int(row[1].split(":")[1], 16) == port)


async def _client(
    port: int, request: bytes, stop_at: float, record_from: float, latencies: list[float], errors: list[int]
) -> None:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        while True:
            t0 = time.perf_counter()
            if t0 >= stop_at:
                return
            writer.write(request)
            head = await reader.readuntil(b"\r\n\r\n")
            status = int(head[9:12])
            length = 0
            for line in head.split(b"\r\n"):
                if line[:15].lower() == b"content-length:":
                    length = int(line[15:])
            await reader.readexactly(length)
            t1 = time.perf_counter()
            if t0 >= record_from:
                if status == 200:
                    latencies.append(t1 - t0)
                else:
                    errors.append(status)
    finally:
        writer.close()


async def load(port: int, tokens: list[str], concurrency: int, duration: float, warmup: float) -> dict[str, float]:
    requests = [
        (
            f"GET {PATH} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nAuthorization: Bearer {token}\r\n"
            "Accept: application/json\r\n\r\n"
        ).encode()
        for token in tokens
    ]
    latencies: list[float] = []
    errors: list[int] = []
    start = time.perf_counter()
    record_from, stop_at = start + warmup, start + warmup + duration
    await asyncio.gather(
        *(
            _client(port, requests[i % len(requests)], stop_at, record_from, latencies, errors)
            for i in range(concurrency)
        )
    )
    elapsed = time.perf_counter() - record_from
    latencies.sort()
    q = statistics.quantiles(latencies, n=100, method="inclusive")
    return {
        "requests": len(latencies),
        "errors": len(errors),
        "rps": len(latencies) / elapsed,
        "p50_ms": q[49] * 1000,
        "p99_ms": q[98] * 1000,
    }


WRK_SCRIPT = """
local tokens = {}
for line in io.lines(os.getenv("BENCH_TOKENS")) do tokens[#tokens + 1] = line end
local n = 0
request = function()
  n = n + 1
  return wrk.format("GET", os.getenv("BENCH_PATH"), {["Authorization"] = "Bearer " .. tokens[n % #tokens + 1]})
end
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format('RESULT {"requests": %d, "errors": %d, "duration_us": %d, "p50_us": %d, "p99_us": %d}\\n',
    summary.requests, e.connect + e.read + e.write + e.status + e.timeout, summary.duration,
    latency:percentile(50), latency:percentile(99)))
end
"""


def load_wrk(port: int, tokens: list[str], concurrency: int, duration: float, warmup: float) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as tmp:
        script, token_file = Path(tmp) / "list.lua", Path(tmp) / "tokens.txt"
        script.write_text(WRK_SCRIPT)
        token_file.write_text("\n".join(tokens) + "\n")
        env = {**os.environ, "BENCH_TOKENS": str(token_file), "BENCH_PATH": PATH}
        url = f"http://127.0.0.1:{port}"

        def wrk(seconds: float) -> dict[str, float]:
            cmd = ["wrk", "-t2", f"-c{concurrency}", f"-d{max(1, round(seconds))}s", "-s", str(script), url]
            out = subprocess.run(cmd, env=env, capture_output=True, text=True, check=True).stdout
            line = next(x for x in out.splitlines() if x.startswith("RESULT "))
            parsed: dict[str, float] = json.loads(line.removeprefix("RESULT "))
            return parsed

        if warmup > 0:
            wrk(warmup)
        r = wrk(duration)
    return {
        "requests": r["requests"],
        "errors": r["errors"],
        "rps": r["requests"] / (r["duration_us"] / 1e6),
        "p50_ms": r["p50_us"] / 1000,
        "p99_ms": r["p99_us"] / 1000,
    }


def customer_tokens(port: int, count: int) -> list[str]:
    """`count` customers, each logged in once (their own session and seen state)."""
    base = f"http://127.0.0.1:{port}"
    tokens = []
    for i in range(count):
        email = "customer@example.com" if i == 0 else f"bench.customer{i}@example.com"
        # The first login can wait for the server's first price-check round over the seeded ideas, which keeps
        # the leading worker busy for several seconds (6.9-8.4 s over 1,000 ideas on SQLite, 2026-11-27); the
        # load starts after it.
        r = httpx.post(
            f"{base}/api/auth/login",
            json={"email": email, "password": PASSWORD, "selectedRole": "customer"},
            timeout=120,
        )
        r.raise_for_status()
        tokens.append(r.json()["sessionToken"])
    return tokens


async def add_customers(settings: Settings, count: int) -> None:
    from sqlalchemy import select

    from tradeideas.auth import service as auth_service
    from tradeideas.auth.models import Role, User

    db = Database(settings)
    try:
        async with db.sessionmaker() as s, s.begin():
            for i in range(1, count):
                email = f"bench.customer{i}@example.com"
                if (await s.execute(select(User.id).where(User.email == email))).first() is None:
                    await auth_service.add_user(
                        s, email=email, password=PASSWORD, role=Role.CUSTOMER, first_name="Bench", last_name=str(i)
                    )
    finally:
        await db.dispose()


def run_db(kind: str, sizes: list[int], args: argparse.Namespace) -> list[dict[str, object]]:
    data_dir = Path(tempfile.mkdtemp(prefix=f"bench-{kind}-"))
    if kind == "postgres":
        asyncio.run(reset_postgres())
        url = PG_URL
    else:
        url = f"sqlite+aiosqlite:///{data_dir / 'bench.db'}"
    settings = Settings(data_dir=data_dir, database_url=url, demo_password=PASSWORD, static_dir=data_dir / "no-spa")
    migrate(settings)
    have = asyncio.run(seed(settings))
    asyncio.run(add_customers(settings, args.customers))
    use_wrk = shutil.which("wrk") is not None and not args.python_client
    results: list[dict[str, object]] = []
    workers = args.pg_workers if kind == "postgres" else args.sqlite_workers
    for size in sizes:
        t0 = time.perf_counter()
        if size > have:
            if kind == "postgres":
                asyncio.run(insert_postgres(settings, have, size))
            else:
                insert_sqlite(settings, have, size)
            have = size
        insert_s = time.perf_counter() - t0
        print(f"[{kind}] {size:>9,} ideas ready (insert {insert_s:.1f}s)", flush=True)
        port = free_port()
        proc = start_server(settings, port, workers, args.cache_entries)
        try:
            tokens = customer_tokens(port, args.customers)
            check = httpx.get(f"http://127.0.0.1:{port}{PATH}", headers={"Authorization": f"Bearer {tokens[0]}"})
            assert check.status_code == 200, check.text[:200]
            if PATH.startswith("/api/trade-ideas"):
                limit = int(parse_qs(urlsplit(PATH).query).get("limit", ["20"])[0])
                assert len(check.json()["items"]) == limit, check.text[:200]
            else:
                print(f"GET {PATH}: {check.text[:200]}", flush=True)
            if use_wrk:
                res = load_wrk(port, tokens, args.concurrency, args.duration, args.warmup)
            else:
                res = asyncio.run(load(port, tokens, args.concurrency, args.duration, args.warmup))
        finally:
            proc.terminate()
            proc.wait(timeout=30)
        row = {
            "db": kind,
            "ideas": size,
            "workers": workers,
            "client": "wrk" if use_wrk else "python",
            "cache": args.cache_entries > 0,
            "insert_s": round(insert_s, 1),
            **res,
        }
        print(
            f"[{kind}] {size:>9,} ideas: {res['rps']:.0f} req/s, p50 {res['p50_ms']:.1f} ms, "
            f"p99 {res['p99_ms']:.1f} ms, errors {res['errors']:.0f}",
            flush=True,
        )
        results.append(row)
    return results


def main() -> None:
    global PATH, APP_DIR
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--db", choices=["sqlite", "postgres", "both"], default="both")
    parser.add_argument("--sizes", default="1000,100000,1000000")
    parser.add_argument("--concurrency", type=int, default=64)
    parser.add_argument("--duration", type=float, default=15.0)
    parser.add_argument("--warmup", type=float, default=3.0)
    parser.add_argument("--pg-workers", type=int, default=2)
    parser.add_argument("--sqlite-workers", type=int, default=1)
    parser.add_argument("--json", type=Path, help="also write the results here")
    parser.add_argument("--customers", type=int, default=64, help="distinct customers (sessions) making the requests")
    parser.add_argument("--cache-entries", type=int, default=10_000, help="CACHE_ENTRIES of the server; 0 = no caches")
    parser.add_argument("--python-client", action="store_true", help="use the Python load client even if wrk exists")
    parser.add_argument("--path", default=None, help="the GET request to load (default: the market page's list)")
    parser.add_argument("--app-dir", type=Path, default=BACKEND, help="backend/ of the code to serve")
    args = parser.parse_args()
    if args.path:
        PATH = args.path
    APP_DIR = args.app_dir
    try:
        import uvloop

        uvloop.install()
    except ImportError:
        pass
    sizes = [int(s) for s in args.sizes.split(",")]
    kinds = ["sqlite", "postgres"] if args.db == "both" else [args.db]
    results = [r for kind in kinds for r in run_db(kind, sizes, args)]
    if args.json:
        args.json.write_text(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
