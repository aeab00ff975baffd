"""Benchmark: the customer's active-ideas list at 1k, 100k and 1M ideas, on SQLite and PostgreSQL.

Measures requests per second and p50 / p99 latency of
    GET /api/trade-ideas?market=forex&status=active   (first page, 20 ideas, as the demo customer)
against a real uvicorn server started here, with 64 concurrent keep-alive clients on loopback.
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
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import asyncpg
import httpx

BACKEND = Path(__file__).resolve().parents[1] / "backend"
sys.path.insert(0, str(BACKEND))

from tradeideas.cli import migrate  # noqa: E402
from tradeideas.db import Database  # noqa: E402
from tradeideas.seed import seed_demo  # noqa: E402
from tradeideas.settings import Settings  # noqa: E402

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
        status = "active" if roll < 0.85 else "successful" if roll < 0.92 else "unsuccessful" if roll < 0.97 else "invalidated"
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
    conn = await asyncpg.connect(PG_URL.replace("postgresql+asyncpg://", "postgresql://"))
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


def start_server(settings: Settings, port: int, workers: int) -> subprocess.Popen[bytes]:
    env = {
        **os.environ,
        "DATABASE_URL": settings.resolved_database_url,
        "DATA_DIR": str(settings.data_dir),
        "DEMO_PASSWORD": PASSWORD,
        "LOG_LEVEL": "warning",
    }
    cmd = [
        sys.executable, "-m", "uvicorn", "tradeideas.app:create_app", "--factory", "--host", "127.0.0.1",
        "--port", str(port), "--workers", str(workers), "--no-access-log", "--log-level", "warning",
        "--loop", "uvloop", "--http", "httptools",
    ]  # fmt: skip
    proc = subprocess.Popen(cmd, cwd=BACKEND, env=env)
    deadline = time.time() + 60
    while time.time() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/health", timeout=1).status_code == 200:
                return proc
        except httpx.HTTPError:
            pass
        time.sleep(0.3)
    proc.kill()
    raise SystemExit("server did not start")


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


async def load(port: int, token: str, concurrency: int, duration: float, warmup: float) -> dict[str, float]:
    request = (
        f"GET {PATH} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nAuthorization: Bearer {token}\r\n"
        "Accept: application/json\r\n\r\n"
    ).encode()
    latencies: list[float] = []
    errors: list[int] = []
    start = time.perf_counter()
    record_from, stop_at = start + warmup, start + warmup + duration
    await asyncio.gather(
        *(_client(port, request, stop_at, record_from, latencies, errors) for _ in range(concurrency))
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
        proc = start_server(settings, port, workers)
        try:
            login = httpx.post(
                f"http://127.0.0.1:{port}/api/auth/login",
                json={"email": "customer@example.com", "password": PASSWORD, "selectedRole": "customer"},
            )
            login.raise_for_status()
            token = login.json()["sessionToken"]
            check = httpx.get(f"http://127.0.0.1:{port}{PATH}", headers={"Authorization": f"Bearer {token}"})
            assert check.status_code == 200 and len(check.json()["items"]) == 20, check.text[:200]
            res = asyncio.run(load(port, token, args.concurrency, args.duration, args.warmup))
        finally:
            proc.terminate()
            proc.wait(timeout=30)
        row = {"db": kind, "ideas": size, "workers": workers, "insert_s": round(insert_s, 1), **res}
        print(
            f"[{kind}] {size:>9,} ideas: {res['rps']:.0f} req/s, p50 {res['p50_ms']:.1f} ms, "
            f"p99 {res['p99_ms']:.1f} ms, errors {res['errors']:.0f}",
            flush=True,
        )
        results.append(row)
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--db", choices=["sqlite", "postgres", "both"], default="both")
    parser.add_argument("--sizes", default="1000,100000,1000000")
    parser.add_argument("--concurrency", type=int, default=64)
    parser.add_argument("--duration", type=float, default=15.0)
    parser.add_argument("--warmup", type=float, default=3.0)
    parser.add_argument("--pg-workers", type=int, default=2)
    parser.add_argument("--sqlite-workers", type=int, default=1)
    parser.add_argument("--json", type=Path, help="also write the results here")
    args = parser.parse_args()
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
