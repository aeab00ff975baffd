"""Benchmark: the market page's list under load while the cross-process LISTEN connection is cut for 10 s.

Issue #9's bar: no error responses, and throughput during the cut at least half of normal. While a process
cannot hear events it serves from short-lived caches (see docs/decisions/0003) and reconnects with backoff;
`/api/health` reports `"events": "degraded"` meanwhile.

Phases, back to back against one server (2 workers, PostgreSQL, 64 customers, default caches):
  before: normal load; cut: every LISTEN connection of the benchmark database (found by its
  application_name) is terminated every 100 ms for CUT seconds, so reconnects are cut as soon as they
  succeed; after: load once events are live again.

Run from backend/:  uv run python ../bench/listen_cut.py [--ideas 100000] [--cut 10] [--duration 10]
"""

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path

import asyncpg
import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))

import ideas as base

from tradeideas.cli import migrate
from tradeideas.realtime.broker import LISTENER_NAME
from tradeideas.settings import Settings

PATH = "/api/trade-ideas?market=forex&status=active&limit=100"


async def cut_listeners(dsn: str, database: str, seconds: float, health_url: str) -> dict[str, object]:
    """Terminate the database's LISTEN connections every 100 ms for `seconds`; note what health says."""
    admin = await asyncpg.connect(dsn)
    killed = 0
    states: set[str] = set()
    stop_at = time.monotonic() + seconds
    try:
        async with httpx.AsyncClient(timeout=2) as client:
            while time.monotonic() < stop_at:
                killed += await admin.fetchval(
                    "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity"
                    " WHERE datname = $1 AND application_name = $2",
                    database,
                    LISTENER_NAME,
                )
                try:
                    states.add(str((await client.get(health_url)).json().get("events")))
                except httpx.HTTPError as exc:
                    states.add(f"health failed: {exc!r}")
                await asyncio.sleep(0.1)
    finally:
        await admin.close()
    return {"terminated": killed, "health_events_seen": sorted(states)}


async def phase_with_cut(
    port: int, tokens: list[str], args: argparse.Namespace, dsn: str, database: str
) -> tuple[dict[str, float], dict[str, object]]:
    load = asyncio.create_task(base.load(port, tokens, args.concurrency, args.cut, 0))
    cut = await cut_listeners(dsn, database, args.cut, f"http://127.0.0.1:{port}/api/health")
    return await load, cut


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--ideas", type=int, default=100_000)
    parser.add_argument("--customers", type=int, default=64)
    parser.add_argument("--concurrency", type=int, default=64)
    parser.add_argument("--duration", type=float, default=10.0)
    parser.add_argument("--cut", type=float, default=10.0)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    base.PATH = PATH

    data_dir = Path(tempfile.mkdtemp(prefix="bench-cut-"))
    asyncio.run(base.reset_postgres())
    settings = Settings(
        data_dir=data_dir, database_url=base.PG_URL, demo_password=base.PASSWORD, static_dir=data_dir / "no-spa"
    )
    migrate(settings)
    have = asyncio.run(base.seed(settings))
    asyncio.run(base.add_customers(settings, args.customers))
    if args.ideas > have:
        asyncio.run(base.insert_postgres(settings, have, args.ideas))
    dsn = base.PG_URL.replace("postgresql+asyncpg://", "postgresql://")
    database = dsn.rsplit("/", 1)[1]
    port = base.free_port()
    proc = base.start_server(settings, port, args.workers, settings.cache_entries)
    try:
        tokens = base.customer_tokens(port, args.customers)
        print(f"load average: {Path('/proc/loadavg').read_text().strip()}", flush=True)
        before = asyncio.run(base.load(port, tokens, args.concurrency, args.duration, 2))
        during, cut = asyncio.run(phase_with_cut(port, tokens, args, dsn, database))
        time.sleep(3)  # the listeners reconnect (backoff) and caches go back to event-guarded
        health = httpx.get(f"http://127.0.0.1:{port}/api/health").json()
        after = asyncio.run(base.load(port, tokens, args.concurrency, args.duration, 0))
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    print(f"\n{args.ideas:,} ideas, {args.workers} workers, LISTEN cut for {args.cut:.0f} s")
    print("| phase | req/s | p50 (ms) | p99 (ms) | errors |")
    print("|---|---|---|---|---|")
    for name, r in (("before", before), ("during the cut", during), ("after", after)):
        print(f"| {name} | {r['rps']:.0f} | {r['p50_ms']:.1f} | {r['p99_ms']:.1f} | {r['errors']:.0f} |")
    print(f"cut: {cut}; health after: {health.get('events')}")
    ratio = during["rps"] / before["rps"]
    print(f"during / before: {ratio:.2f} (target >= 0.5), errors {during['errors']:.0f} (target 0)")


if __name__ == "__main__":
    main()
